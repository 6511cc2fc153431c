//! Othello rules: flips, passes, game end, position text, move text, and
//! the bitboard implementation against a deliberately naive one.

// In a module so that `cargo test othello` selects these tests by name.
mod othello {
    use rand::{Rng as _, SeedableRng};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use crate::common::PlayText as _;
    use tabula::games::othello::bitboard::stable_discs;
    use tabula::games::othello::{BLACK, Othello, PASS, WHITE, endgame};
    use tabula::model::game::{Game, MoveError, PositionError, Rng, Turn};
    use tabula::model::options::Options;
    use tabula::search::{Budget, Control};

    /// A board from a picture: 8 rows of 8 characters (`X`, `O`, `.`), then
    /// the side to move.
    fn board(rows: &[&str; 8], side: char) -> Othello {
        let text: String = rows.concat();
        let mut g = Othello::start();
        g.set_position(&format!("{text} {side}")).unwrap();
        g
    }

    fn legal_names(g: &Othello) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
        names.sort();
        names
    }

    // ---------------------------------------------------------------------------
    // The naive reference: an array board and one ray walk per direction.

    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, -1),
        (1, -1),
        (-1, 1),
    ];

    #[derive(Clone)]
    struct Naive {
        /// 1 black, -1 white, 0 empty; index = row * 8 + column.
        cells: [i8; 64],
        /// 1 black to move, -1 white.
        side: i8,
    }

    impl Naive {
        fn from(g: &Othello) -> Naive {
            let mut cells = [0i8; 64];
            for (i, c) in cells.iter_mut().enumerate() {
                if g.black() >> i & 1 == 1 {
                    *c = 1;
                } else if g.white() >> i & 1 == 1 {
                    *c = -1;
                }
            }
            Naive {
                cells,
                side: if g.side_to_move() == BLACK { 1 } else { -1 },
            }
        }

        fn flips(&self, who: i8, sq: usize) -> Vec<usize> {
            let mut all = Vec::new();
            if self.cells[sq] != 0 {
                return all;
            }
            for (dc, dr) in STEPS {
                let mut run = Vec::new();
                let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
                while (0..8).contains(&c) && (0..8).contains(&r) {
                    let i = (r * 8 + c) as usize;
                    if self.cells[i] == -who {
                        run.push(i);
                    } else {
                        if self.cells[i] == who {
                            all.extend(run);
                        }
                        break;
                    }
                    c += dc;
                    r += dr;
                }
            }
            all
        }

        fn placements(&self, who: i8) -> Vec<u8> {
            (0..64)
                .filter(|&sq| !self.flips(who, sq).is_empty())
                .map(|sq| sq as u8)
                .collect()
        }

        /// Placements, or a lone pass, or nothing at the end.
        fn legal(&self) -> Vec<u8> {
            let mine = self.placements(self.side);
            if !mine.is_empty() {
                return mine;
            }
            if self.placements(-self.side).is_empty() {
                Vec::new()
            } else {
                vec![PASS]
            }
        }

        fn play(&mut self, mv: u8) {
            if mv != PASS {
                for i in self.flips(self.side, mv as usize) {
                    self.cells[i] = self.side;
                }
                self.cells[mv as usize] = self.side;
            }
            self.side = -self.side;
        }

        fn count(&self, who: i8) -> i32 {
            self.cells.iter().filter(|&&c| c == who).count() as i32
        }

        /// Exact minimax of the final margin for the side to move, empties to
        /// the winner.
        fn solve(&self) -> i32 {
            let moves = self.legal();
            if moves.is_empty() {
                let diff = self.count(self.side) - self.count(-self.side);
                let empties = self.count(0);
                return match diff.signum() {
                    1 => diff + empties,
                    -1 => diff - empties,
                    _ => 0,
                };
            }
            moves
                .iter()
                .map(|&m| {
                    let mut c = self.clone();
                    c.play(m);
                    -c.solve()
                })
                .max()
                .unwrap_or(i32::MIN)
        }
    }

    fn sorted_moves(g: &Othello) -> Vec<u8> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.sort();
        moves
    }

    #[test]
    fn bitboards_match_the_naive_rules_over_random_games() {
        let mut rng = Rng::seed_from_u64(7);
        let mut buf = Vec::new();
        let mut passes = 0;
        let mut early_ends = 0;
        for _ in 0..3000 {
            let mut g = Othello::start();
            let mut n = Naive::from(&g);
            // Discs found stable must keep their colour to the end.
            let (mut stable_b, mut stable_w) = (0u64, 0u64);
            loop {
                let moves = sorted_moves(&g);
                assert_eq!(moves, n.legal(), "\n{}", g.render());
                assert_eq!(g.move_count(), moves.len());
                assert_eq!(g.is_over(), moves.is_empty());
                assert_eq!(
                    g.black() & stable_b,
                    stable_b,
                    "a stable black disc flipped\n{}",
                    g.render()
                );
                assert_eq!(
                    g.white() & stable_w,
                    stable_w,
                    "a stable white disc flipped\n{}",
                    g.render()
                );
                stable_b |= stable_discs(g.black(), g.white());
                stable_w |= stable_discs(g.white(), g.black());
                if moves.is_empty() {
                    break;
                }
                if moves == [PASS] {
                    passes += 1;
                }
                let mv = g.random_move(&mut rng, &mut buf);
                assert!(moves.contains(&mv));
                g.apply(mv);
                n.play(mv);
            }
            if g.empties() != 0 {
                early_ends += 1;
            }
            assert_eq!(g.disc_counts(), (n.count(1) as u32, n.count(-1) as u32));
            let (raw, _) = g.final_margins();
            assert_eq!(raw, n.count(1) - n.count(-1));
        }
        // The games did reach the interesting cases.
        assert!(
            passes > 0 && early_ends > 0,
            "passes {passes}, early ends {early_ends}"
        );
    }

    /// A second or two in release; unoptimised, the naive minimax crawls.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn solver_matches_naive_minimax_on_random_endgames() {
        let mut rng = Rng::seed_from_u64(11);
        let mut buf = Vec::new();
        let control = Control::unlimited();
        let mut checked = 0;
        while checked < 60 {
            let mut g = Othello::start();
            // Play at random until 5 to 9 empties remain: the last-moves code
            // and the table-driven search both take part.
            let target = rng.gen_range(5..=9);
            while !g.is_over() && g.empties().count_ones() > target {
                let mv = g.random_move(&mut rng, &mut buf);
                g.apply(mv);
            }
            if g.is_over() {
                continue;
            }
            let (mv, score) = g.solve(&control, 16 << 20).unwrap();
            assert_eq!(score, Naive::from(&g).solve(), "\n{}", g.render());
            // The move reaches the score.
            let mut child = g;
            child.apply(mv);
            assert_eq!(-Naive::from(&child).solve(), score, "\n{}", g.render());
            checked += 1;
        }
    }

    // ---------------------------------------------------------------------------
    // Flips and move generation on hand-made positions.

    #[test]
    fn start_position_and_openings() {
        let g = Othello::new_game(&Options::default()).unwrap();
        assert_eq!(g, Othello::start());
        assert_eq!(g.turn(), Turn::Player(BLACK));
        assert_eq!(legal_names(&g), ["c4", "d3", "e6", "f5"]);
        assert_eq!(
            g.position_text().unwrap(),
            format!("{}OX------XO{} X", "-".repeat(27), "-".repeat(27))
        );
        assert_eq!(g.disc_counts(), (2, 2));
    }

    #[test]
    fn flips_in_all_eight_directions() {
        let g = board(
            &[
                "........", //
                ".X.X.X..", //
                "..OOO...", //
                ".XO.OX..", //
                "..OOO...", //
                ".X.X.X..", //
                "........", //
                "........",
            ],
            'X',
        );
        let mut h = g;
        h.play_checked("d4").unwrap();
        assert_eq!(h.white(), 0, "\n{}", h.render());
        assert_eq!(h.disc_counts(), (17, 0));
        assert_eq!(h.side_to_move(), WHITE);
    }

    #[test]
    fn only_bracketed_lines_flip() {
        // From c4: left b4 is closed by a4 (flips); right runs into the edge,
        // down meets a gap, down-right meets an empty square (no flips).
        let mut g = board(
            &[
                "........", //
                "........", //
                "........", //
                "XO.OOOOO", //
                "..OO....", //
                "........", //
                "..O.....", //
                "..X.....",
            ],
            'X',
        );
        g.play_checked("c4").unwrap();
        assert_eq!(
            g.black(),
            (1 << 24) | (1 << 25) | (1 << 26) | (1 << 58),
            "\n{}",
            g.render()
        );
        assert_eq!(g.white().count_ones(), 8);
    }

    #[test]
    fn no_wrap_across_the_board_edge() {
        // h1 then a2 b2 are consecutive squares in index order, not a line:
        // black has no move at all.
        let g = board(
            &[
                "........", //
                "OX......", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........",
            ],
            'X',
        );
        assert_eq!(legal_names(&g), ["pass"]);
        // The mirror image: a3 then h2 g2.
        let g = board(
            &[
                "........", //
                "......XO", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........",
            ],
            'X',
        );
        assert_eq!(legal_names(&g), ["pass"]);
        // Diagonals and the row wrap: h1 (+9) a3 b4; a8 (-1) h7 g7;
        // h6 (-7) a6 b5; a4 (+7) h4 g5 would all wrap.
        let g = board(
            &[
                "........", //
                "........", //
                "O.......", //
                ".X.....O", //
                ".X....X.", //
                "O.......", //
                "......XO", //
                "........",
            ],
            'X',
        );
        let names = legal_names(&g);
        for sq in ["h1", "a8", "h6", "a4"] {
            assert!(!names.contains(&sq.to_string()), "{sq} in {names:?}");
        }
        assert_eq!(sorted_moves(&g), Naive::from(&g).legal());
    }

    #[test]
    fn forced_pass_is_the_only_move() {
        // Black's b1 cannot bracket white's corner; white can play c1.
        let mut g = board(
            &[
                "OX......", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........",
            ],
            'X',
        );
        assert_eq!(g.turn(), Turn::Player(BLACK));
        assert!(g.must_pass());
        assert_eq!(legal_names(&g), ["pass"]);
        assert_eq!(g.move_count(), 1);
        let mut rng = Rng::seed_from_u64(1);
        assert_eq!(g.random_move(&mut rng, &mut Vec::new()), PASS);
        assert_eq!(g.rules_move(&mut rng), Some(PASS));
        assert!(matches!(g.play_checked("c1"), Err(MoveError::Illegal(_))));
        assert_eq!(g.play_checked("PASS"), Ok(PASS));
        assert_eq!(g.side_to_move(), WHITE);
        assert_eq!(legal_names(&g), ["c1"]);
        // Pass is illegal when a placement exists.
        let mut s = Othello::start();
        assert!(matches!(s.play_checked("pass"), Err(MoveError::Illegal(_))));
        assert_eq!(s, Othello::start());
    }

    #[test]
    fn game_ends_with_empty_squares_when_nobody_can_move() {
        let mut g = board(
            &[
                "XXX.....", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                ".......O",
            ],
            'O',
        );
        assert_eq!(g.turn(), Turn::Over);
        assert!(g.is_over());
        assert_eq!(g.move_count(), 0);
        assert!(legal_names(&g).is_empty());
        assert_eq!(g.play_checked("d1"), Err(MoveError::GameOver));
        assert_eq!(g.final_margins(), (2, 62));
        assert_eq!(g.final_score_text(), "B+62");
        assert_eq!(g.reward(BLACK), 1.0);
        assert_eq!(g.reward(WHITE), 0.0);
        let o = g.outcome();
        assert_eq!(o.scores, vec![3.0, 1.0]);
        assert_eq!(o.winners, vec![BLACK]);
        assert_eq!(g.evaluate(BLACK), 1.0);
        assert_eq!(g.evaluate(WHITE), -1.0);
        assert_eq!(g.solve(&Control::unlimited(), 16 << 20), None);
        assert_eq!(g.rules_move(&mut Rng::seed_from_u64(0)), None);
    }

    #[test]
    fn full_board_results() {
        // White wins 40-24.
        let mut text = "O".repeat(40) + &"X".repeat(24);
        text.push_str(" X");
        let mut g = Othello::start();
        g.set_position(&text).unwrap();
        assert!(g.is_over());
        assert_eq!(g.final_margins(), (-16, -16));
        assert_eq!(g.final_score_text(), "W+16");
        assert_eq!(g.reward(WHITE), 1.0);
        assert_eq!(g.outcome().winners, vec![WHITE]);
        // A draw.
        let text = "XO".repeat(32) + " O";
        g.set_position(&text).unwrap();
        assert!(g.is_over());
        assert_eq!(g.final_score_text(), "0");
        assert_eq!(g.reward(BLACK), 0.5);
        assert_eq!(g.reward(WHITE), 0.5);
        assert!(g.outcome().winners.is_empty());
        assert_eq!(g.outcome().scores, vec![32.0, 32.0]);
    }

    #[test]
    fn raw_and_tournament_margins_differ_with_empties() {
        // White 3, black 1, 60 empties, game over (no bracket possible).
        let g = board(
            &[
                "X.......", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                ".....OOO",
            ],
            'X',
        );
        assert!(g.is_over());
        assert_eq!(g.final_margins(), (-2, -62));
        assert_eq!(g.final_score_text(), "W+62");
    }

    // ---------------------------------------------------------------------------
    // Text: positions, moves, seats, the picture.

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

    #[test]
    fn obf_round_trip() {
        let mut g = Othello::start();
        g.set_position(FFO1).unwrap();
        assert_eq!(g.position_text().unwrap(), FFO1);
        assert_eq!(g.side_to_move(), BLACK);
        // With the FFO move list and trailing spaces, or dots for empties.
        let mut h = Othello::start();
        h.set_position(&format!("{FFO1}; G8:+18; H1:+12;  \n"))
            .unwrap();
        assert_eq!(h, g);
        h.set_position(&format!("{} ", FFO1.replace('-', ".")))
            .unwrap();
        assert_eq!(h, g);
        // White to move.
        let white = FFO1.replace(" X", " O");
        h.set_position(&white).unwrap();
        assert_eq!(h.side_to_move(), WHITE);
        assert_eq!(h.position_text().unwrap(), white);
        assert_eq!(h.black(), g.black());
        // Every position of a random game survives the round trip.
        let mut rng = Rng::seed_from_u64(3);
        let mut s = Othello::start();
        while !s.is_over() {
            let mut t = Othello::start();
            t.set_position(&s.position_text().unwrap()).unwrap();
            assert_eq!(t, s);
            assert_eq!(t.hash_key(), s.hash_key());
            let mv = s.random_move(&mut rng, &mut Vec::new());
            s.apply(mv);
        }
    }

    #[test]
    fn obf_errors_leave_the_state_alone() {
        let mut g = Othello::start();
        g.play_checked("d3").unwrap();
        let before = g;
        let board = &FFO1[..64];
        let bad = [
            (String::new(), "expected 64 squares"),
            (board.to_string(), "expected 64 squares"),
            (format!("{} X", &board[..63]), "63 squares"),
            (format!("{board}- X"), "65 squares"),
            (format!("{}Z{} X", &board[..10], &board[11..]), "'Z' on c2"),
            (format!("{board} Y"), "side to move 'Y'"),
            (format!("{board} XO"), "side to move 'XO'"),
            (format!("{board} X extra"), "expected 64 squares"),
        ];
        for (text, needle) in bad {
            match g.set_position(&text) {
                Err(PositionError::Invalid(m)) => assert!(m.contains(needle), "{text:?}: {m}"),
                other => panic!("{text:?} gave {other:?}"),
            }
            assert_eq!(g, before, "{text:?} changed the state");
        }
    }

    #[test]
    fn move_text_and_parsing() {
        let g = Othello::start();
        assert_eq!(g.parse_move("d3"), Ok(19));
        assert_eq!(g.parse_move("D3"), Ok(19));
        assert_eq!(g.parse_move("a1"), Ok(0));
        assert_eq!(g.parse_move("h8"), Ok(63));
        assert_eq!(g.parse_move("Pass"), Ok(PASS));
        assert_eq!(g.move_text(19), "d3");
        assert_eq!(g.move_text(PASS), "pass");
        for sq in 0..64u8 {
            assert_eq!(g.parse_move(&g.move_text(sq)), Ok(sq));
        }
        for bad in [
            "",
            "i1",
            "a0",
            "a9",
            "d",
            "d33",
            "3d",
            "passe",
            "ä1",
            "\u{1F600}",
        ] {
            assert!(
                matches!(g.parse_move(bad), Err(MoveError::Syntax(_))),
                "{bad:?}"
            );
        }
        let mut h = g;
        assert!(matches!(h.play_checked("a1"), Err(MoveError::Illegal(_))));
        assert!(matches!(h.play_checked("z9"), Err(MoveError::Syntax(_))));
        assert_eq!(h, g);
    }

    #[test]
    fn seats() {
        let g = Othello::start();
        assert_eq!(g.num_seats(), 2);
        assert_eq!(g.seat_name(BLACK), "black");
        assert_eq!(g.seat_name(WHITE), "white");
        for t in ["black", "B", "x", "X", "0", "Black"] {
            assert_eq!(g.parse_seat(t), Some(BLACK), "{t}");
        }
        for t in ["white", "W", "o", "O", "1", "WHITE"] {
            assert_eq!(g.parse_seat(t), Some(WHITE), "{t}");
        }
        for t in ["", "2", "red", "bl"] {
            assert_eq!(g.parse_seat(t), None, "{t}");
        }
    }

    #[test]
    fn render_shows_coordinates_discs_and_status() {
        let g = Othello::start();
        let r = g.render();
        assert!(r.contains("a b c d e f g h"), "{r}");
        assert!(r.contains("4 . . . O X . . ."), "{r}");
        assert!(r.contains("5 . . . X O . . ."), "{r}");
        assert!(r.contains("black to move"), "{r}");
        assert!(r.contains("X (black) 2, O (white) 2"), "{r}");
    }

    // ---------------------------------------------------------------------------
    // Hooks.

    #[test]
    fn evaluation_rules_move_and_hash() {
        let mut rng = Rng::seed_from_u64(5);
        let mut g = Othello::start();
        let mut seen = std::collections::HashMap::new();
        while !g.is_over() {
            let e = g.evaluate(BLACK);
            assert!((-1.0..=1.0).contains(&e));
            assert_eq!(e, -g.evaluate(WHITE));
            let mv = g.rules_move(&mut rng).unwrap();
            assert!(g.is_legal(mv));
            let key = g.hash_key().unwrap();
            if let Some(prev) = seen.insert(key, g) {
                assert_eq!(prev, g, "hash collision");
            }
            g.apply(if rng.r#gen::<bool>() {
                mv
            } else {
                g.random_move(&mut rng, &mut Vec::new())
            });
        }
        // The greedy player takes a corner when it can.
        let g = board(
            &[
                "........", //
                ".O......", //
                "..X.....", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........",
            ],
            'X',
        );
        assert_eq!(g.rules_move(&mut rng), Some(0));
    }

    #[test]
    fn solve_passes_at_the_root_and_stops_on_request() {
        // Black must pass; white then takes everything.
        let g = board(
            &[
                "OX......", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........", //
                "........",
            ],
            'X',
        );
        // The registry's solver counts the empties as the size.
        let solver = tabula::games::extras::<Othello>().solver.expect("a solver");
        assert_eq!((solver.size)(&g), 62);
        assert_eq!(
            (solver.solve)(&g, &Control::unlimited(), 16 << 20).map(|s| s.moves),
            Some(vec![(PASS, -64)])
        );
        assert_eq!(g.solve(&Control::unlimited(), 16 << 20), Some((PASS, -64)));
        // A raised stop flag ends the solve with nothing.
        let mut s = Othello::start();
        s.set_position("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
            .unwrap();
        let stopped = Control::new(Arc::new(AtomicBool::new(true)), &Budget::default());
        assert_eq!(
            endgame::solve_exact(s.player(), s.opponent(), &stopped, 16 << 20),
            None
        );
        assert_eq!(s.solve(&stopped, 16 << 20), None);
    }
}
