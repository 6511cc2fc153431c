//! Four-player Quoridor, one rule at a time: seats, start squares, goal
//! sides and turn order; jumps over one pawn, diagonals when a wall, the
//! edge or another pawn is behind it, never onto a pawn or through a wall;
//! walls that would cut off any one of the four; the winner and the
//! ranking by distance; a boxed-in pawn's pass; options and position text.
//! (Inside `mod quoridor` so that `cargo test quoridor` selects them.)

mod quoridor {
    use crate::common::PlayText as _;
    use rand::SeedableRng;
    use tabula::games::quoridor::{Quoridor, Quoridor4, QuoridorMove};
    use tabula::model::game::{Game, MoveError, PositionError, Rng, Turn};
    use tabula::model::options::Options;

    fn game() -> Quoridor4 {
        Quoridor4::new(9, 5, true, 400).expect("options")
    }

    /// The 9x9 four-player game set to `position`.
    fn at(position: &str) -> Quoridor4 {
        let mut g = game();
        if let Err(e) = g.set_position(position) {
            panic!("{position}: {e}");
        }
        g
    }

    fn play(g: &mut Quoridor4, moves: &[&str]) {
        for m in moves {
            if let Err(e) = g.play_checked(m) {
                panic!("{m}: {e}\n{}", g.render());
            }
        }
    }

    fn texts(g: &Quoridor4, keep: impl Fn(&QuoridorMove) -> bool) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut out: Vec<String> = moves
            .into_iter()
            .filter(keep)
            .map(|m| g.move_text(m))
            .collect();
        out.sort();
        out
    }

    fn pawn_moves(g: &Quoridor4) -> Vec<String> {
        texts(g, |m| matches!(m, QuoridorMove::Pawn(_)))
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        out.sort();
        out
    }

    fn illegal(g: &Quoridor4, text: &str) -> bool {
        matches!(g.clone().play_checked(text), Err(MoveError::Illegal(_)))
    }

    // ---- seats and the start ----

    #[test]
    fn start_squares_goals_and_clockwise_turns() {
        let g = game();
        assert_eq!(g.num_seats(), 4);
        assert_eq!(g.position_text().as_deref(), Some("e1 a5 e9 i5 5 5 5 5 p1"));
        let picture = g.render();
        for line in [
            "p1 (pawn 1) on e1, walls left 5, goal row 9",
            "p2 (pawn 2) on a5, walls left 5, goal column i",
            "p3 (pawn 3) on e9, walls left 5, goal row 1",
            "p4 (pawn 4) on i5, walls left 5, goal column a",
            "p1 to move, ply 0/400",
        ] {
            assert!(picture.contains(line), "{line}\n{picture}");
        }
        assert!(picture.contains("  5 | 2   .   .   .   .   .   .   .   4 | 5"));
        assert_eq!(
            (0..4).map(|s| g.distance(s)).collect::<Vec<_>>(),
            vec![8; 4]
        );
        // Clockwise: south, west, north, east, and round again.
        let mut g = game();
        for (seat, mv) in [(0, "e2"), (1, "b5"), (2, "e8"), (3, "h5"), (0, "e3")] {
            assert_eq!(g.turn(), Turn::Player(seat));
            play(&mut g, &[mv]);
        }
        assert_eq!(g.turn(), Turn::Player(1));
        assert_eq!(g.position_text().as_deref(), Some("e3 b5 e8 h5 5 5 5 5 p2"));
    }

    #[test]
    fn seat_names() {
        let g = game();
        for (text, seat) in [("p1", 0), ("P2", 1), ("3", 2), ("p4", 3)] {
            assert_eq!(g.parse_seat(text), Some(seat), "{text}");
        }
        for text in [
            "p5", "5", "0", "p0", "black", "white", "p", "p+1", "p01", "",
        ] {
            assert_eq!(g.parse_seat(text), None, "{text}");
        }
        // Two players keep the GTP colours.
        let two = Quoridor::new(9, 10, true, 400).expect("options");
        assert_eq!(two.parse_seat("white"), Some(1));
        assert_eq!(two.parse_seat("p3"), None);
    }

    #[test]
    fn options() {
        let open = |words: &[&str]| {
            let options = Options::parse(Quoridor4::OPTIONS, words)?;
            Quoridor4::new_game(&options)
        };
        let g = open(&["players=4"]).expect("players=4");
        assert_eq!((g.size(), g.walls_left(0), g.walls_left(3)), (9, 5, 5));
        // auto = size*size/16 rounded down.
        assert_eq!(
            open(&["players=4", "size=5"]).expect("5x5").walls_left(2),
            1
        );
        assert_eq!(
            open(&["players=4", "size=11"]).expect("11").walls_left(1),
            7
        );
        let g = open(&["players=4", "walls=8", "jumps=false", "max_plies=40"]).expect("options");
        assert_eq!((g.walls_left(1), g.jumps()), (8, false));
        assert!(open(&["players=3"]).is_err());
        assert!(
            open(&["players=2"]).is_err(),
            "the two-player game is another type"
        );
        assert!(open(&["players=4", "size=8"]).is_err());
    }

    // ---- jumps ----

    #[test]
    fn straight_jump_over_one_pawn() {
        let g = at("e4 e5 e9 i5 5 5 5 5 p1");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4", "e6"]));
        assert!(illegal(&g, "e5") && illegal(&g, "d5") && illegal(&g, "f5"));
    }

    #[test]
    fn a_pawn_behind_makes_the_jump_diagonal() {
        // p3 behind p2: no jump over two pawns, so d5 and f5.
        let g = at("e4 e5 e6 i5 5 5 5 5 p1");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4", "d5", "f5"]));
        assert!(illegal(&g, "e6") && illegal(&g, "e7"));
    }

    #[test]
    fn a_wall_behind_makes_the_jump_diagonal() {
        let g = at("e4 e5 e9 i5 5 5 5 5 p1 e5h");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4", "d5", "f5"]));
    }

    #[test]
    fn the_edge_behind_makes_the_jump_diagonal() {
        // p2 on the top edge (not its goal side: column i): the diagonals
        // are on p1's goal row.
        let mut g = at("e8 e9 a9 i5 5 5 5 5 p1");
        assert_eq!(pawn_moves(&g), sorted(&["e7", "d8", "f8", "d9", "f9"]));
        play(&mut g, &["f9"]);
        assert_eq!(g.outcome().winners, vec![0]);
        // Sideways against the west edge, for p4 moving west.
        let g = at("e1 b5 e9 c5 5 5 5 5 p4");
        assert_eq!(pawn_moves(&g), sorted(&["c4", "c6", "d5", "a5"]));
        let g = at("e1 a5 e9 b5 5 5 5 5 p4");
        assert_eq!(pawn_moves(&g), sorted(&["b4", "b6", "c5", "a4", "a6"]));
    }

    #[test]
    fn diagonals_stop_at_walls_and_pawns() {
        // p3 behind p2; d5v closes d5 off from e5, p4 stands on f5.
        let g = at("e4 e5 e6 f5 5 5 5 5 p1 d5v");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4"]));
        let g = at("e4 e5 e6 f5 5 5 5 5 p1");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4", "d5"]));
    }

    #[test]
    fn two_pawns_offering_one_diagonal_give_it_once() {
        // p2 north of p1 with a wall behind it, p4 east of p1 with a wall
        // behind it: f5 is a diagonal of both.
        let g = at("e4 e5 e9 f4 5 5 5 5 p1 e5h f4v");
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let f5 = g.parse_move("f5").expect("square");
        assert_eq!(moves.iter().filter(|&&m| m == f5).count(), 1);
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "d5", "f5", "f3"]));
        assert_eq!(g.move_count(), moves.len());
    }

    #[test]
    fn without_jumps_pawns_share_squares() {
        let mut g = Quoridor4::new(9, 5, false, 400).expect("options");
        g.set_position("e4 e5 e6 i5 5 5 5 5 p1").expect("position");
        assert_eq!(pawn_moves(&g), sorted(&["e3", "d4", "f4", "e5"]));
        g.set_position("e5 e5 e5 e5 5 5 5 5 p3")
            .expect("all on one square");
        assert!(g.render().contains(" all "));
    }

    // ---- walls ----

    /// Each pawn in a corner pocket of two squares with one wall placed;
    /// the wall that would close the pocket is illegal.
    const POCKETS: &str = "a1 a9 i9 i1 5 5 5 5 p1 a1h a8h h8h h1h";

    #[test]
    fn no_wall_may_cut_off_any_of_the_four() {
        let g = at(POCKETS);
        for (seat, closing) in [(0, "b1v"), (1, "b8v"), (2, "g8v"), (3, "g1v")] {
            assert!(illegal(&g, closing), "{closing} cuts p{} off", seat + 1);
        }
        assert!(!illegal(&g, "c1v") && !illegal(&g, "e5h"));
        // With that pawn out of its pocket, the same wall is legal: it is
        // that player's path the rule protects.
        for (closing, position) in [
            ("b1v", "e1 a9 i9 i1 5 5 5 5 p1 a1h a8h h8h h1h"),
            ("b8v", "a1 a5 i9 i1 5 5 5 5 p1 a1h a8h h8h h1h"),
            ("g8v", "a1 a9 e9 i1 5 5 5 5 p1 a1h a8h h8h h1h"),
            ("g1v", "a1 a9 i9 i5 5 5 5 5 p1 a1h a8h h8h h1h"),
        ] {
            let g = at(position);
            assert!(!illegal(&g, closing), "{closing} in {position}");
        }
        // And a position whose walls already cut someone off is refused.
        let mut g = game();
        for position in [
            "a1 a9 i9 i1 5 5 5 5 p1 a1h b1v",
            "a1 a9 i9 i1 5 5 5 5 p1 a8h b8v",
            "a1 a9 i9 i1 5 5 5 5 p1 h8h g8v",
            "a1 a9 i9 i1 5 5 5 5 p1 h1h g1v",
        ] {
            assert!(
                matches!(g.set_position(position), Err(PositionError::Invalid(_))),
                "{position}"
            );
        }
    }

    #[test]
    fn walls_in_hand_are_counted_per_player() {
        let mut g = at("e1 a5 e9 i5 1 0 5 5 p1");
        play(&mut g, &["c3h"]);
        assert!(illegal(&g, "e6h"), "p2 has no walls");
        play(&mut g, &["b5", "a7h", "h5"]);
        assert!(illegal(&g, "e6h"), "p1 spent its only wall");
        assert_eq!(
            g.position_text().as_deref(),
            Some("e1 b5 e9 h5 0 0 4 5 p1 c3h a7h")
        );
    }

    // ---- pass ----

    #[test]
    fn a_boxed_in_pawn_without_walls_passes() {
        // p1 on a1: a1v closes the east; north is p2, and behind it p3, so
        // no straight jump; the diagonal b2 is behind a1v too.
        let mut g = at("a1 a2 a3 i5 0 5 5 5 p1 a1v");
        assert_eq!(texts(&g, |_| true), vec!["pass".to_string()]);
        assert_eq!(g.move_count(), 1);
        let mut rng = Rng::seed_from_u64(1);
        let mut buf = Vec::new();
        assert_eq!(g.random_move(&mut rng, &mut buf), QuoridorMove::Pass);
        assert!(g.rules_move(&mut rng) == Some(QuoridorMove::Pass));
        play(&mut g, &["pass"]);
        assert_eq!(g.turn(), Turn::Player(1));
        assert_eq!(g.ply(), 1);
        // With a wall in hand, walls are the moves, and no pass.
        let g = at("a1 a2 a3 i5 1 5 5 5 p1 a1v");
        let moves = texts(&g, |_| true);
        assert!(moves.len() > 100 && !moves.contains(&"pass".to_string()));
        assert!(illegal(&g, "pass"));
    }

    // ---- the end ----

    #[test]
    fn the_first_to_arrive_wins_and_the_others_rank_by_distance() {
        // p2 steps onto column i; p4 is 1 from its goal, p1 7, p3 8.
        let mut g = at("e2 h5 e9 b5 5 5 5 5 p2");
        play(&mut g, &["i5"]);
        assert_eq!(g.turn(), Turn::Over);
        let o = g.outcome();
        assert_eq!(o.winners, vec![1]);
        assert_eq!(o.scores, vec![1.0 / 3.0, 1.0, 0.0, 2.0 / 3.0]);
        assert!(g.render().contains("game over: p2 wins after 1 plies"));
        assert_eq!(g.evaluate(1), 1.0);
        assert_eq!(g.evaluate(2), -1.0);
        // The search reward: the same order, a ten-thousandth a ply nearer
        // 1/2.
        let r: Vec<f64> = (0..4).map(|s| g.reward(s)).collect();
        assert!(r[1] > r[3] && r[3] > r[0] && r[0] > r[2], "{r:?}");
        assert!((r[1] - 0.9999).abs() < 1e-12);
        assert_eq!(g.clone().play_checked("e3"), Err(MoveError::GameOver));
    }

    #[test]
    fn the_ply_cap_ranks_everyone_by_distance() {
        let mut g = Quoridor4::new(9, 5, true, 4).expect("options");
        play(&mut g, &["e2", "b5", "e8", "i4"]);
        assert_eq!(g.turn(), Turn::Over);
        let o = g.outcome();
        // p1, p2 and p3 are 7 from their goals and share the first three
        // places; p4 is 8 away.
        assert_eq!(o.winners, vec![0, 1, 2]);
        assert_eq!(o.scores, vec![4.0 / 6.0, 4.0 / 6.0, 4.0 / 6.0, 0.0]);
        assert!(g.render().contains("ranked by distance"));
        // All level: a draw for all four.
        let mut g = Quoridor4::new(9, 5, true, 4).expect("options");
        play(&mut g, &["e2", "b5", "e8", "h5"]);
        let o = g.outcome();
        assert_eq!(o.winners, vec![0, 1, 2, 3]);
        assert_eq!(o.scores, vec![0.5; 4]);
        assert_eq!(g.reward(2), 0.5);
    }

    #[test]
    fn random_games_end_and_rank() {
        let mut rng = Rng::seed_from_u64(4);
        let mut buf = Vec::new();
        for n in [3, 5, 7, 9, 11] {
            for _ in 0..20 {
                let mut g = Quoridor4::new(n, n * n / 16, true, 400).expect("options");
                while !g.is_over() {
                    let mv = g.random_move(&mut rng, &mut buf);
                    g.apply(mv);
                }
                assert!(g.ply() <= 400);
                let o = g.outcome();
                let total: f64 = o.scores.iter().sum();
                assert!((total - 2.0).abs() < 1e-9, "{:?}", o.scores);
                assert!(!o.winners.is_empty());
            }
        }
    }

    // ---- position text ----

    #[test]
    fn position_text_round_trips_and_refuses_nonsense() {
        let mut g = game();
        play(&mut g, &["e2", "c4h", "e8", "f6v"]);
        let text = g.position_text().expect("text");
        assert_eq!(text, "e2 a5 e8 i5 5 4 5 4 p1 c4h f6v");
        let h = at(&text);
        assert_eq!(h.position_text(), Some(text));
        assert_eq!(h.hash_key(), g.hash_key());
        // Every seat's pawn and walls are in the key.
        let keys: Vec<Option<u64>> = [
            "e2 a5 e8 i5 5 4 5 4 p1",
            "e2 a5 e8 i4 5 4 5 4 p1",
            "e2 a5 e7 i5 5 4 5 4 p1",
            "e2 a5 e8 i5 5 4 5 3 p1",
            "e2 a5 e8 i5 5 4 4 4 p1",
            "e2 a5 e8 i5 5 4 5 4 p3",
        ]
        .iter()
        .map(|p| at(p).hash_key())
        .collect();
        for i in 0..keys.len() {
            assert!(keys[i + 1..].iter().all(|k| *k != keys[i]), "{i}");
        }
        let mut g = game();
        for bad in [
            "e1 a5 e9 i5 5 5 5 p1",           // a wall count short
            "e1 a5 e9 5 5 5 5 p1",            // a pawn short
            "e1 e1 e9 i5 5 5 5 5 p1",         // two pawns on one square
            "e1 i5 e9 a5 5 5 5 5 p1",         // p2 on its goal column
            "e1 a5 e1 i5 5 5 5 5 p1",         // p3 on its goal row and on p1
            "e1 a5 e9 i5 5 5 5 5 p5",         // no such player
            "e1 a5 e9 i5 5 5 5 5 black",      // colours are for two players
            "e1 a5 e9 i5 5 5 5 5 p1 e4h e4v", // crossing walls
            "e1 a5 e9 j5 5 5 5 5 p1",         // off the board
        ] {
            assert!(
                matches!(g.set_position(bad), Err(PositionError::Invalid(_))),
                "{bad}"
            );
        }
        assert_eq!(g.position_text().as_deref(), Some("e1 a5 e9 i5 5 5 5 5 p1"));
    }

    #[test]
    fn evaluation_is_bounded_and_favours_the_leader() {
        let mut rng = Rng::seed_from_u64(6);
        let mut buf = Vec::new();
        let mut g = game();
        for _ in 0..200 {
            if g.is_over() {
                break;
            }
            for s in 0..4 {
                let v = g.evaluate(s);
                assert!(v.abs() < 1.0, "{v}");
            }
            let mv = g.random_move(&mut rng, &mut buf);
            g.apply(mv);
        }
        // p2 two steps ahead of everyone.
        let g = at("e1 c5 e9 i5 5 5 5 5 p1");
        assert!(g.evaluate(1) > 0.0);
        assert!((0..4).filter(|&s| s != 1).all(|s| g.evaluate(s) < 0.0));
    }
}
