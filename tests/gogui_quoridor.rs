//! GoGui and Quoridor (issue 40, item 5): GoGui cannot draw walls, so
//! tabula must not look like a game ruler for Quoridor (GoGui 1.6.0 quits
//! with its own exception when a ruler refuses the game), and must refuse
//! the game where GoGui asks before setting one up (`gogui-version`),
//! with the reason, while Othello stays a ruler GoGui draws.

use crate::common::run_engine;

/// The engine's replies to `input`, started with `--game game`.
fn replies(game: &str, input: &str) -> String {
    let out = run_engine(1, &["--game", game], input);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const RULER: [&str; 3] = [
    "gogui-rules_game_id",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
];

#[test]
fn quoridor_does_not_present_itself_to_gogui_as_a_ruler() {
    let listed = replies("quoridor", "list_commands\n");
    let names: Vec<&str> = listed.lines().map(|l| l.trim_start_matches("= ")).collect();
    for c in RULER {
        assert!(!names.contains(&c), "{c} listed for Quoridor:\n{listed}");
    }
    for c in ["gogui-rules_board_size", "gogui-version", "genmove"] {
        assert!(names.contains(&c), "{c} not listed:\n{listed}");
    }
    // GoGui 1.6's attach: refused with the reason, before any game.
    let version = replies("quoridor", "gogui-version 1.6.0\n");
    assert!(
        version.starts_with("? GoGui cannot show Quoridor: its walls are not points"),
        "{version}"
    );
    // Othello: a ruler, and its version is taken.
    let listed = replies("othello", "list_commands\ngogui-version 1.6.0\n");
    for c in RULER {
        assert!(
            listed.lines().any(|l| l.trim_start_matches("= ") == c),
            "{listed}"
        );
    }
    assert!(listed.ends_with("kgs-time_settings\n\n= \n\n"), "{listed}");
}
