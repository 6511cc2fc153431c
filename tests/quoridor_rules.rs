//! Quoridor rules, one case at a time: pawn steps and jumps, walls, the
//! cut-off rule, move text, game end, options, seats and the hooks.
//! (Inside `mod quoridor` so that `cargo test quoridor` selects them.)

mod quoridor {
    use crate::common::PlayText as _;
    use rand::{Rng as _, SeedableRng};
    use tabula::games::quoridor::{Quoridor, QuoridorMove};
    use tabula::model::game::{Game, MoveError, PositionError, Rng, Turn};
    use tabula::model::options::{OptionError, Options};

    fn game(n: u32, walls: u32, jumps: bool) -> Quoridor {
        Quoridor::new(n, walls, jumps, 400).expect("options")
    }

    /// Plays a sequence of moves, which must all be legal.
    fn play(g: &mut Quoridor, moves: &[&str]) {
        for m in moves {
            if let Err(e) = g.play_checked(m) {
                panic!("{m}: {e}\n{}", g.render());
            }
        }
    }

    fn pawn_moves(g: &Quoridor) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut out: Vec<String> = moves
            .into_iter()
            .filter(|m| matches!(m, QuoridorMove::Pawn(_)))
            .map(|m| g.move_text(m))
            .collect();
        out.sort();
        out
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        out.sort();
        out
    }

    fn legal(g: &Quoridor, text: &str) -> bool {
        g.clone().play_checked(text).is_ok()
    }

    fn illegal(g: &Quoridor, text: &str) -> bool {
        matches!(g.clone().play_checked(text), Err(MoveError::Illegal(_)))
    }

    // ---- pawns ----

    #[test]
    fn plain_steps_from_the_start() {
        let g = game(9, 10, true);
        assert_eq!(pawn_moves(&g), sorted(&["d1", "f1", "e2"]));
        assert!(illegal(&g, "e3") && illegal(&g, "d2") && illegal(&g, "e1"));
    }

    #[test]
    fn a_wall_blocks_a_step() {
        let mut g = game(9, 10, true);
        // e1h lies between rows 1 and 2 across e and f; d1v between d and e.
        play(&mut g, &["e1h", "e8", "d1v", "e7"]);
        assert_eq!(pawn_moves(&g), sorted(&["f1"]));
        // The wall blocks both ways: from e2 one cannot step down to e1.
        let mut g = game(9, 10, true);
        play(&mut g, &["e2", "e1h"]);
        play(&mut g, &["e3", "e8"]);
        assert!(!pawn_moves(&g).contains(&"e1".to_string()));
    }

    #[test]
    fn straight_jump_and_no_diagonal_when_it_is_possible() {
        let mut g = game(5, 3, true);
        play(&mut g, &["c2", "c4", "c3"]);
        // p2 on c4 faces p1 on c3 with c2 free behind it.
        assert_eq!(pawn_moves(&g), sorted(&["b4", "d4", "c5", "c2"]));
        assert!(illegal(&g, "b3") && illegal(&g, "d3") && illegal(&g, "c3"));
    }

    #[test]
    fn diagonal_when_a_wall_is_behind() {
        let mut g = game(5, 3, true);
        // c4h lies between rows 4 and 5, behind p2 on c4.
        play(&mut g, &["c2", "c4", "c3", "c4h"]);
        assert_eq!(pawn_moves(&g), sorted(&["b3", "d3", "c2", "b4", "d4"]));
        assert!(illegal(&g, "c5"));
    }

    #[test]
    fn diagonal_when_the_edge_is_behind() {
        let mut g = game(5, 3, true);
        play(&mut g, &["c2", "a1h", "c3", "d1h", "c4", "a3v"]);
        // p1 on c4 faces p2 on c5, on the board edge.
        assert_eq!(pawn_moves(&g), sorted(&["b4", "d4", "c3", "b5", "d5"]));
        g.play_checked("d5").expect("diagonal step");
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.outcome().winners, vec![0]);
    }

    #[test]
    fn no_diagonal_through_a_wall() {
        let mut g = game(5, 3, true);
        // Behind p2 (c4): b4h; beside it: c4v (between c and d, rows 4-5).
        play(&mut g, &["c2", "c4", "c3", "b4h", "a1h", "c4v"]);
        assert_eq!(pawn_moves(&g), sorted(&["b3", "d3", "c2", "b4"]));
        assert!(illegal(&g, "d4"));
    }

    #[test]
    fn jumps_sideways_too() {
        let mut g = game(5, 3, true);
        play(&mut g, &["b1", "c4", "b2", "c3", "b3"]);
        // p2 on c3 faces p1 on b3 to the west: jump to a3.
        assert_eq!(pawn_moves(&g), sorted(&["c4", "d3", "c2", "a3"]));
    }

    #[test]
    fn without_jumps_pawns_share_and_never_jump() {
        let mut g = game(5, 5, false);
        play(&mut g, &["c2", "c4", "c3"]);
        // p2 may step onto p1's square, and may not jump over it.
        assert_eq!(pawn_moves(&g), sorted(&["b4", "d4", "c5", "c3"]));
        play(&mut g, &["c3"]);
        assert_eq!(g.pawn(0), g.pawn(1));
        assert!(g.render().contains("1&2"));
        assert_eq!(pawn_moves(&g), sorted(&["b3", "d3", "c2", "c4"]));
    }

    // ---- walls ----

    #[test]
    fn walls_may_not_overlap_or_cross() {
        let mut g = game(9, 10, true);
        play(&mut g, &["e3h"]);
        assert!(illegal(&g, "e3h"), "same place");
        assert!(illegal(&g, "d3h") && illegal(&g, "f3h"), "partial overlap");
        assert!(illegal(&g, "e3v"), "crossing at the midpoint");
        assert!(legal(&g, "c3h") && legal(&g, "g3h"), "end to end");
        assert!(
            legal(&g, "e2v") && legal(&g, "e4v") && legal(&g, "d3v") && legal(&g, "f3v"),
            "touching"
        );
        play(&mut g, &["c5v"]);
        assert!(
            illegal(&g, "c5v") && illegal(&g, "c4v") && illegal(&g, "c6v"),
            "vertical overlap"
        );
        assert!(illegal(&g, "c5h"), "crossing");
        assert!(legal(&g, "c3v") && legal(&g, "c7v") && legal(&g, "b5h") && legal(&g, "d5h"));
    }

    #[test]
    fn anchors_off_the_wall_grid_are_refused() {
        let g = game(9, 10, true);
        // A wall needs two squares: its anchor stops at column h and row 8.
        for t in ["i3h", "i3v", "e9h", "e9v", "i9h"] {
            assert!(illegal(&g, t), "{t}");
        }
        for t in ["h8h", "h8v", "a1h", "a1v"] {
            assert!(legal(&g, t), "{t}");
        }
        // Off the board altogether: not even a move text.
        for t in ["j3h", "e10v", "a0h"] {
            assert!(
                matches!(g.clone().play_checked(t), Err(MoveError::Syntax(_))),
                "{t}"
            );
        }
    }

    #[test]
    fn no_walls_left_no_walls() {
        let mut g = game(9, 1, true);
        play(&mut g, &["a1h", "e8"]);
        assert_eq!(g.walls_left(0), 0);
        assert!(illegal(&g, "c5h"));
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.iter().all(|m| matches!(m, QuoridorMove::Pawn(_))));
        play(&mut g, &["e2"]);
        assert!(legal(&g, "c5h"), "p2 still has its wall");
        let g = game(9, 0, true);
        assert_eq!(g.move_count(), 3);
    }

    #[test]
    fn walls_may_not_cut_anyone_off() {
        for jumps in [true, false] {
            // Cutting off only the opponent: p2 on c5 boxed into a5..d5.
            let mut g = game(5, 3, jumps);
            play(&mut g, &["a4h", "c4h"]);
            assert!(illegal(&g, "d4v"), "jumps={jumps}");
            assert!(legal(&g, "d3v"), "jumps={jumps}");
            // Cutting off oneself: p1 on c1 boxed into a1..d1.
            let mut g = game(5, 3, jumps);
            play(&mut g, &["a1h", "c1h"]);
            assert!(illegal(&g, "d1v"), "jumps={jumps}");
            // A wall that closes a pocket with nobody in it is fine: a2h
            // then a1v shut a1 and a2 off from the rest.
            let mut g = game(5, 3, jumps);
            play(&mut g, &["a2h", "a1v"]);
            assert_eq!((g.walls_left(0), g.walls_left(1)), (2, 2));
            // Both pawns still move freely; a1 can no longer be reached.
            assert_eq!(g.distance(0), 4);
            play(&mut g, &["b1", "c4"]);
            assert!(illegal(&g, "a1"), "jumps={jumps}");
            assert!(legal(&g, "b2"), "jumps={jumps}");
        }
    }

    // ---- text ----

    #[test]
    fn every_move_form_round_trips() {
        let g = game(9, 10, true);
        for (text, mv) in [
            ("e2", QuoridorMove::Pawn(9 + 4)),
            ("a1", QuoridorMove::Pawn(0)),
            ("i9", QuoridorMove::Pawn(80)),
            ("e3h", QuoridorMove::HWall(2 * 9 + 4)),
            ("e3v", QuoridorMove::VWall(2 * 9 + 4)),
            ("h8v", QuoridorMove::VWall(7 * 9 + 7)),
        ] {
            assert_eq!(g.parse_move(text), Ok(mv));
            assert_eq!(g.move_text(mv), text);
        }
        assert_eq!(g.parse_move("  E3H "), Ok(QuoridorMove::HWall(22)));
        let g11 = game(11, 15, true);
        assert_eq!(g11.parse_move("k11"), Ok(QuoridorMove::Pawn(120)));
        assert_eq!(g11.move_text(QuoridorMove::VWall(9 * 11 + 9)), "j10v");
    }

    #[test]
    fn malformed_moves_are_syntax_errors() {
        let mut g = game(9, 10, true);
        for t in [
            "", " ", "e", "3", "e0", "e05", "e10", "j1", "z9", "e3x", "e3hh", "e2 e3", "e-1",
            "ééé", "pas",
        ] {
            assert!(
                matches!(g.parse_move(t), Err(MoveError::Syntax(_))),
                "{t:?}"
            );
            assert!(
                matches!(g.play_checked(t), Err(MoveError::Syntax(_))),
                "{t:?}"
            );
        }
        assert_eq!(g.ply(), 0, "nothing was played");
        // `pass` is a move text, legal only for a player with no other move.
        assert_eq!(g.parse_move("pass"), Ok(QuoridorMove::Pass));
        assert!(matches!(g.play_checked("pass"), Err(MoveError::Illegal(_))));
        let g5 = game(5, 3, true);
        assert!(matches!(g5.parse_move("f1"), Err(MoveError::Syntax(_))));
        assert!(matches!(g5.parse_move("a6"), Err(MoveError::Syntax(_))));
    }

    // ---- game end ----

    #[test]
    fn reaching_the_goal_row_wins() {
        let mut g = game(3, 1, true);
        play(&mut g, &["a1", "c3", "a2", "c2"]);
        assert_eq!(g.turn(), Turn::Player(0));
        play(&mut g, &["a3"]);
        assert_eq!(g.turn(), Turn::Over);
        // The search reward: the share of the result, a ten-thousandth a
        // ply nearer 1/2 (a quicker win is worth more).
        assert_eq!((g.reward(0), g.reward(1)), (1.0 - 5e-4, 5e-4));
        let o = g.outcome();
        assert_eq!((o.scores, o.winners), (vec![1.0, 0.0], vec![0]));
        assert_eq!(g.move_count(), 0);
        assert_eq!(g.clone().play_checked("c1"), Err(MoveError::GameOver));
        assert!(g.render().contains("p1 wins"));
        assert_eq!(g.evaluate(0), 1.0);
        assert_eq!(g.evaluate(1), -1.0);
        // Player 2 wins on row 1.
        let mut g = game(3, 1, true);
        play(&mut g, &["a1", "b2", "a2", "b1"]);
        assert_eq!(g.outcome().winners, vec![1]);
    }

    #[test]
    fn the_ply_cap_draws() {
        let mut g = Quoridor::new(9, 10, true, 4).expect("options");
        play(&mut g, &["e2", "e8", "e1"]);
        assert!(!g.is_over());
        play(&mut g, &["e9"]);
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!((g.reward(0), g.reward(1)), (0.5, 0.5));
        let o = g.outcome();
        assert_eq!(o.scores, vec![0.5, 0.5]);
        assert!(o.winners.is_empty());
        assert!(g.render().contains("draw"));
        assert_eq!(g.evaluate(0), 0.0);
    }

    #[test]
    fn random_games_end() {
        let mut rng = Rng::seed_from_u64(9);
        let mut buf = Vec::new();
        for n in [3, 5, 7, 9, 11] {
            for _ in 0..20 {
                let mut g = Quoridor::new(n, n * n / 8, true, 400).expect("options");
                while !g.is_over() {
                    let mv = g.random_move(&mut rng, &mut buf);
                    g.apply(mv);
                }
                assert!(g.ply() <= 400);
                let r = g.reward(0) + g.reward(1);
                assert_eq!(r, 1.0);
            }
        }
    }

    // ---- options and seats ----

    fn from_options(words: &[&str]) -> Result<Quoridor, OptionError> {
        let options = Options::parse(Quoridor::OPTIONS, words)?;
        Quoridor::new_game(&options)
    }

    #[test]
    fn options_and_defaults() {
        let g = from_options(&[]).expect("defaults");
        assert_eq!(
            (g.size(), g.walls_left(0), g.walls_left(1), g.jumps()),
            (9, 10, 10, true)
        );
        assert_eq!(g.render().matches("ply 0/400").count(), 1);
        let g = from_options(&["size=5"]).expect("5x5");
        assert_eq!(g.walls_left(0), 3, "auto = 25/8");
        let g = from_options(&["size=11"]).expect("11x11");
        assert_eq!(g.walls_left(0), 15);
        let g = from_options(&["size=5", "walls=5", "jumps=false", "max_plies=50"]).expect("seed");
        assert_eq!((g.walls_left(1), g.jumps()), (5, false));
        assert!(g.render().contains("ply 0/50"));
        for even in ["size=4", "size=8", "size=10"] {
            assert!(
                matches!(from_options(&[even]), Err(OptionError::Invalid(_))),
                "{even}"
            );
        }
        assert!(from_options(&["size=13"]).is_err());
        assert!(from_options(&["walls=-1"]).is_err());
        assert!(from_options(&["max_plies=0"]).is_err());
        assert!(from_options(&["colour=red"]).is_err());
    }

    #[test]
    fn seats() {
        let g = game(9, 10, true);
        assert_eq!(
            (g.seat_name(0), g.seat_name(1)),
            ("p1".to_string(), "p2".to_string())
        );
        for (t, s) in [
            ("p1", 0),
            ("P2", 1),
            ("1", 0),
            ("2", 1),
            ("black", 0),
            ("White", 1),
            ("b", 0),
        ] {
            assert_eq!(g.parse_seat(t), Some(s), "{t}");
        }
        for t in ["0", "3", "p3", "red", ""] {
            assert_eq!(g.parse_seat(t), None, "{t}");
        }
        assert_eq!(g.turn(), Turn::Player(0));
        assert!(g.render().contains("p1 to move"));
    }

    // ---- hooks ----

    #[test]
    fn render_shows_pawns_and_walls() {
        let mut g = game(5, 3, true);
        play(&mut g, &["b2h", "c3v"]);
        let r = g.render();
        print!("{r}");
        assert!(r.contains(" 1 ") && r.contains(" 2 "));
        assert!(r.contains("-------"), "a horizontal wall spans two squares");
        assert!(r.contains("|"));
        assert!(r.contains("walls left 2"));
        assert!(r.contains("p1 to move"));
        // The row of c3 (row 3) shows a wall east of c3.
        let row3 = r
            .lines()
            .find(|l| l.trim_start().starts_with("3 |"))
            .expect("row 3");
        assert_eq!(row3.matches('|').count(), 3, "{row3}");
    }

    #[test]
    fn evaluation_is_antisymmetric_and_bounded() {
        let mut rng = Rng::seed_from_u64(3);
        let mut buf = Vec::new();
        let mut g = game(9, 10, true);
        for _ in 0..60 {
            if g.is_over() {
                break;
            }
            let (a, b) = (g.evaluate(0), g.evaluate(1));
            assert!((a + b).abs() < 1e-12 && a.abs() <= 1.0, "{a} {b}");
            let mv = g.random_move(&mut rng, &mut buf);
            g.apply(mv);
        }
        // Being closer to the goal is better.
        let mut g = game(9, 10, true);
        play(&mut g, &["e2", "a1h", "e3", "c1h"]);
        assert!(g.evaluate(0) > 0.0 && g.evaluate(1) < 0.0);
    }

    #[test]
    fn hash_keys_follow_the_position() {
        let mut a = game(9, 10, true);
        let mut b = game(9, 10, true);
        assert_eq!(a.hash_key(), b.hash_key());
        play(&mut a, &["e2", "e8", "a1h", "b5v"]);
        play(&mut b, &["a1h", "b5v", "e2", "e8"]);
        assert_eq!(a.hash_key(), b.hash_key(), "transposition");
        play(&mut a, &["e3"]);
        assert_ne!(a.hash_key(), b.hash_key());
        let mut c = game(9, 10, true);
        play(&mut c, &["a1v", "b5v", "e2", "e8"]);
        assert_ne!(c.hash_key(), b.hash_key(), "orientation matters");
    }

    #[test]
    fn random_moves_are_uniform() {
        // Positions: walls in hand; no walls in hand; pawns face to face.
        let mut with_walls = game(3, 1, true);
        play(&mut with_walls, &["a1h"]);
        let mut no_walls = game(5, 1, true);
        play(&mut no_walls, &["a1h", "a4h", "c2"]);
        let mut facing = game(5, 0, true);
        play(&mut facing, &["c2", "c4", "c3"]);
        let mut rng = Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        for g in [&with_walls, &no_walls, &facing] {
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let draws = 4000 * legal.len();
            let mut counts = std::collections::HashMap::new();
            for _ in 0..draws {
                *counts
                    .entry(g.random_move(&mut rng, &mut buf))
                    .or_insert(0usize) += 1;
            }
            assert_eq!(counts.len(), legal.len(), "{legal:?}");
            for mv in &legal {
                let c = counts.get(mv).copied().unwrap_or(0);
                // Expected 4000, standard deviation about 63.
                assert!((3600..=4400).contains(&c), "{mv:?}: {c} of {draws}");
            }
        }
    }

    #[test]
    fn rules_player_is_legal_and_beats_random() {
        let mut rng = Rng::seed_from_u64(11);
        let mut buf = Vec::new();
        let mut rules_wins = 0;
        for game_no in 0..40 {
            let mut g = game(5, 3, true);
            let rules_seat = game_no % 2;
            while !g.is_over() {
                let mv = if g.turn() == Turn::Player(rules_seat) {
                    let mv = g.rules_move(&mut rng).expect("a move");
                    assert!(g.is_legal(mv), "{mv:?}");
                    mv
                } else {
                    g.random_move(&mut rng, &mut buf)
                };
                g.apply(mv);
            }
            if g.outcome().winners == vec![rules_seat] {
                rules_wins += 1;
            }
        }
        assert!(rules_wins >= 36, "{rules_wins} of 40");
    }

    #[test]
    fn rules_player_walls_when_behind() {
        // p2 is far ahead; p1, to move with walls, should place one.
        let mut g = game(9, 10, true);
        play(
            &mut g,
            &[
                "a1h", "e8", "c1h", "e7", "g1h", "e6", "a3h", "e5", "c3h", "e4",
            ],
        );
        let mut rng = Rng::seed_from_u64(1);
        let mv = g.rules_move(&mut rng).expect("a move");
        assert!(
            matches!(mv, QuoridorMove::HWall(_) | QuoridorMove::VWall(_)),
            "{mv:?}"
        );
        let before = g.distance(1);
        g.apply(mv);
        assert!(g.distance(1) > before);
    }

    // ---- position text ----

    #[test]
    fn position_text_round_trips() {
        let mut rng = Rng::seed_from_u64(21);
        let mut buf = Vec::new();
        for (n, jumps) in [(5, true), (9, true), (9, false), (11, true)] {
            for _ in 0..10 {
                let mut g = Quoridor::new(n, n * n / 8 + 2, jumps, 400).expect("options");
                for _ in 0..rng.gen_range(0..40) {
                    if g.is_over() {
                        break;
                    }
                    let mv = g.random_move(&mut rng, &mut buf);
                    g.apply(mv);
                }
                if g.is_over() {
                    continue;
                }
                let text = g.position_text().expect("text");
                let mut h = Quoridor::new(n, n * n / 8 + 2, jumps, 400).expect("options");
                h.set_position(&text).expect("own text");
                assert_eq!(h.position_text(), Some(text.clone()));
                assert_eq!(h.hash_key(), g.hash_key(), "{text}");
                let (mut a, mut b) = (Vec::new(), Vec::new());
                g.legal_moves(&mut a);
                h.legal_moves(&mut b);
                assert_eq!(a, b, "{text}");
                assert_eq!(h.ply(), 0);
            }
        }
        let g = game(9, 10, true);
        assert_eq!(g.position_text().as_deref(), Some("e1 e9 10 10 p1"));
    }

    #[test]
    fn bad_positions_are_refused_and_change_nothing() {
        let mut g = game(5, 3, true);
        play(&mut g, &["b2h"]);
        let before = g.clone();
        for t in [
            "",
            "c1 c5 3 3",
            "c1 c5 3 3 p3",
            "c1 f5 3 3 p1",
            "c1 c5 x 3 p1",
            "c1 c5 3 300 p1",
            "c3 c3 3 3 p1",
            "c5 c3 3 3 p1",
            "c1 c5 3 3 p1 c3",
            "c1 c5 3 3 p1 e3h",
            "c1 c5 3 3 p1 b3h c3h",
            "c1 c5 3 3 p1 b3h b3v",
            "c1 c5 3 3 p1 a4h c4h d4v",
        ] {
            assert!(
                matches!(g.set_position(t), Err(PositionError::Invalid(_))),
                "{t:?}"
            );
            assert_eq!(g, before, "{t:?}");
        }
        g.set_position("c3 c4 0 1 p2 c4h")
            .expect("a legal position");
        assert_eq!(pawn_moves(&g), sorted(&["b4", "d4", "c2"]));
        let mut shared = game(5, 3, false);
        shared
            .set_position("c3 c3 3 3 p1")
            .expect("sharing without jumps");
    }
}
