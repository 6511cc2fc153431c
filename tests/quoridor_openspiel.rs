//! Quoridor where OpenSpiel is: `notation=openspiel` numbers the rows from
//! p2's side (pawn `c<r>` is OpenSpiel's `c<N+1-r>`, wall `c<r>h|v` is
//! `c<N-r>h|v`), `length=openspiel` ends a game as a draw at 4·N² plies,
//! and OpenSpiel's own GTPBot plays whole games against tabula where
//! `open_spiel` is installed. (Inside `mod quoridor` so that `cargo test
//! quoridor` selects them.)

mod quoridor {
    use std::path::Path;
    use std::process::{Command, Stdio};

    use crate::common::{self, PlayText as _};
    use tabula::games::quoridor::{Quoridor, QuoridorMove};
    use tabula::model::game::{Game, Turn};
    use tabula::model::options::{OptionError, Options};

    fn texts(g: &Quoridor) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.into_iter().map(|m| g.move_text(m)).collect()
    }

    /// A move text with its row number replaced by `f(row)`.
    fn renumbered(text: &str, f: impl Fn(u32) -> u32) -> String {
        let col = &text[..1];
        let digits: String = text[1..].chars().take_while(char::is_ascii_digit).collect();
        let rest = &text[1 + digits.len()..];
        format!("{col}{}{rest}", f(digits.parse().expect("a row")))
    }

    #[test]
    fn openspiel_notation_numbers_the_rows_from_the_other_side() {
        for n in [5u32, 9] {
            let size = format!("size={n}");
            let mut ours: Quoridor = common::new_game(&[&size]);
            let mut theirs: Quoridor = common::new_game(&[&size, "notation=openspiel"]);
            // A few plies of walls and steps, the same moves in both.
            for ply in 0..12 {
                let mut moves = Vec::new();
                ours.legal_moves(&mut moves);
                for &mv in &moves {
                    let (a, b) = (ours.move_text(mv), theirs.move_text(mv));
                    let want = match mv {
                        QuoridorMove::Pawn(_) => renumbered(&a, |r| n + 1 - r),
                        _ => renumbered(&a, |r| n - r),
                    };
                    assert_eq!(b, want, "{a} at ply {ply}");
                    assert_eq!(theirs.parse_move(&b), Ok(mv), "{b}");
                }
                let mv = moves[(ply * 7 + 3) % moves.len()];
                ours.apply(mv);
                theirs.apply(mv);
            }
            // The board is the same; only the texts differ.
            let (a, b) = (
                ours.position_text().unwrap(),
                theirs.position_text().unwrap(),
            );
            let mut back: Quoridor = common::new_game(&[&size, "notation=openspiel"]);
            back.set_position(&b).expect("its own position text");
            assert_eq!(back.position_text().unwrap(), b);
            let mut plain: Quoridor = common::new_game(&[&size]);
            plain.set_position(&a).expect("position");
            assert_eq!(texts(&plain), texts(&ours));
        }
        // OpenSpiel's start: p1 on e9, moving first to e8; p2 on e1.
        let g: Quoridor = common::new_game(&["notation=openspiel"]);
        let pawn: Vec<String> = texts(&g).into_iter().filter(|t| t.len() == 2).collect();
        assert_eq!(pawn.iter().filter(|t| t.as_str() == "e8").count(), 1);
        assert!(g.position_text().unwrap().starts_with("e9 e1 10 10 p1"));
        assert!(
            g.render().contains("  1 | .   .   .   .   2"),
            "{}",
            g.render()
        );
    }

    #[test]
    fn openspiel_writes_a_pass_as_the_pawns_square() {
        // OpenSpiel's pass is the mover's own square (a pawn boxed in by
        // the other pawns and walls, with no walls in hand: four players).
        let g: Quoridor = common::new_game(&["notation=openspiel"]);
        assert_eq!(g.move_text(QuoridorMove::Pass), "e9");
        assert_eq!(g.parse_move("e9"), Ok(QuoridorMove::Pass));
        assert_eq!(g.parse_move("pass"), Ok(QuoridorMove::Pass));
        // tabula's notation: the own square is a pawn move (an illegal one).
        let plain: Quoridor = common::new_game(&[]);
        assert_eq!(plain.move_text(QuoridorMove::Pass), "pass");
        assert_eq!(plain.parse_move("e1"), Ok(QuoridorMove::Pawn(4)));
    }

    /// p1 on a1 and p2 on e3 of 5x5 walk back and forth; p2 steps onto row
    /// 1 with the 100th ply (4·5²).
    fn walk_to_the_cap(options: &[&str]) -> Quoridor {
        let mut g: Quoridor = common::new_game(options);
        g.set_position("a1 e3 0 0 p1").expect("position");
        for k in 0..50 {
            let p1 = if k % 2 == 0 { "a2" } else { "a1" };
            g.play_checked(p1).expect(p1);
            let p2 = match k {
                49 => "e1",
                _ if k % 2 == 0 => "e2",
                _ => "e3",
            };
            assert_eq!(g.turn(), Turn::Player(1), "ply {}", g.ply());
            g.play_checked(p2).expect(p2);
        }
        g
    }

    #[test]
    fn openspiel_length_is_a_draw_at_four_n_squared_plies() {
        let g = walk_to_the_cap(&["size=5", "length=openspiel"]);
        assert_eq!((g.ply(), g.turn()), (100, Turn::Over));
        // The winning step on the cap's ply is a draw, as OpenSpiel has it.
        let o = g.outcome();
        assert!(o.winners.is_empty(), "{o:?}");
        assert_eq!(o.scores, vec![0.5, 0.5]);
        // tabula's own cap: the same step wins.
        let g = walk_to_the_cap(&["size=5", "max_plies=100"]);
        assert_eq!(g.outcome().winners, vec![1]);
        // 324 on 9x9.
        let g: Quoridor = common::new_game(&["length=openspiel"]);
        assert!(g.render().contains("ply 0/324"), "{}", g.render());
        // Both caps at once are refused.
        let err = Quoridor::new_game(
            &Options::parse(Quoridor::OPTIONS, &["length=openspiel", "max_plies=50"]).unwrap(),
        )
        .expect_err("two caps");
        assert!(matches!(err, OptionError::Invalid(_)), "{err}");
    }

    /// OpenSpiel's GTPBot (`pip install open_spiel`) plays whole Quoridor
    /// games against tabula at 9x9 and 5x5, the legal moves compared at
    /// every ply and the results at the end; says SKIPPED without it.
    #[test]
    fn openspiel_gtp_bot_plays_whole_quoridor_games() {
        let present = Command::new("python3")
            .args(["-c", "import pyspiel, open_spiel.python.bots.gtp"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !present {
            eprintln!(
                "SKIPPED openspiel_gtp_bot_plays_whole_quoridor_games: open_spiel is not \
                 installed (pip install open_spiel)"
            );
            return;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openspiel-gtp.py");
        let out = Command::new("python3")
            .arg(script)
            .args(["--tabula", env!("CARGO_BIN_EXE_tabula")])
            .args(["--games", "0", "--quoridor", "9:2", "--quoridor", "5:2"])
            .args([
                "--check-legal",
                "--movetime",
                "20",
                "--mcts-simulations",
                "10",
            ])
            .stderr(Stdio::null())
            .output()
            .expect("python3 runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("quoridor 9x9: tabula"), "{text}");
        assert!(text.contains("quoridor 5x5: tabula"), "{text}");
        assert_eq!(text.matches("failed 0").count(), 2, "{text}");
        assert_eq!(
            text.matches(" walls\n").count(),
            4,
            "four whole games: {text}"
        );
    }
}
