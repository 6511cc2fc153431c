//! GoGui and Quoridor (issue 40, item 5): GoGui cannot draw walls, so
//! tabula must not look like a game ruler for Quoridor (GoGui 1.6.0 quits
//! with its own exception when a ruler refuses the game), must list no
//! command it refuses (issue 48), and must refuse the board GoGui sets
//! up (`boardsize 19`) with the reason and where the game is played,
//! while Othello stays a ruler GoGui draws.

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
    // No command listed is refused: GoGui asks the board size and tells
    // its version only where they are listed.
    for c in ["gogui-rules_board_size", "gogui-version"] {
        assert!(!names.contains(&c), "{c} listed for Quoridor:\n{listed}");
    }
    assert!(names.contains(&"genmove"), "{listed}");
    for game in ["quoridor", "hearts", "wizard", "ninetynine"] {
        let listed = replies(game, "list_commands\n");
        let names: Vec<String> = listed
            .lines()
            .map(|l| l.trim_start_matches("= ").to_string())
            .filter(|l| l.starts_with("gogui-"))
            .collect();
        for c in &names {
            let reply = replies(game, &format!("{c}\n"));
            assert!(
                reply.starts_with('='),
                "{game}: {c} listed and refused: {reply}"
            );
        }
    }
    // Asked anyway, refused with the reason and where to play it.
    let version = replies("quoridor", "gogui-version 1.6.0\n");
    assert!(
        version.starts_with("? GoGui cannot show Quoridor: its walls are not points"),
        "{version}"
    );
    // GoGui then sets its board (`boardsize 19`): the refusal it shows
    // says where the game is played.
    for game in ["quoridor", "hearts"] {
        let size = replies(game, "boardsize 19\n");
        assert!(
            size.starts_with('?') && size.contains("tabula gui"),
            "{game}: {size}"
        );
    }
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
