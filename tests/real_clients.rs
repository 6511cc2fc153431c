//! tabula against real GTP programs (issue 40, item 4): Edax 4.6's `-gtp`
//! through `tabula match` (scripts/edax-match.sh), and GRhino through
//! GoGui's gogui-twogtp (scripts/twogtp-grhino.sh). Each runs where the
//! programs are given (`EDAX`; `TWOGTP` and `GRHINO`) and says SKIPPED
//! elsewhere, so CI needs neither. The scripts take the programs as given:
//! the project builds no other project's source. GRhino refuses every
//! pass it is told, so gogui-twogtp marks some games ERR whatever tabula
//! does; the test holds tabula to no error of its own (it needs the
//! engine to take `play <colour> pass` after the game's end).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::scratch;

/// A program named by an environment variable, if it is there.
fn given(var: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os(var)?);
    path.exists().then_some(path)
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

#[test]
fn edax_plays_whole_games_through_tabula_match() {
    let Some(edax) = given("EDAX") else {
        eprintln!(
            "SKIPPED edax_plays_whole_games_through_tabula_match: set EDAX to an Edax 4.6 \
             binary (github.com/abulmo/edax-reversi)"
        );
        return;
    };
    let dir = scratch("edax-match");
    let out = Command::new("bash")
        .arg(script("edax-match.sh"))
        .arg(&edax)
        .arg("2")
        .env("TABULA", env!("CARGO_BIN_EXE_tabula"))
        .env("TABULA_MOVETIME", "50")
        .env("EDAX_LEVEL", "2")
        .env("MATCH_OUT", &dir)
        .output()
        .expect("bash runs the script");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.ends_with("2 games, 0 forfeits\n"), "{text}");
}

#[test]
fn grhino_plays_whole_games_through_gogui_twogtp() {
    let (Some(twogtp), Some(grhino)) = (given("TWOGTP"), given("GRHINO")) else {
        eprintln!(
            "SKIPPED grhino_plays_whole_games_through_gogui_twogtp: set TWOGTP to \
             gogui-twogtp.jar (GoGui 1.6) and GRHINO to gtp-rhino"
        );
        return;
    };
    let dir = scratch("twogtp-grhino");
    let out = Command::new("bash")
        .arg(script("twogtp-grhino.sh"))
        .arg(&twogtp)
        .arg(&grhino)
        .arg("2")
        .env("TABULA", env!("CARGO_BIN_EXE_tabula"))
        .env("TABULA_MOVETIME", "50")
        .env("GRHINO_LEVEL", "1")
        .env("TWOGTP_OUT", &dir)
        .output()
        .expect("bash runs the script");
    let text = String::from_utf8_lossy(&out.stdout);
    // Every game is played and both programs give the same result.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.contains('\t'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(
        rows.len(),
        2,
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for row in &rows {
        assert_eq!(row[1], row[2], "the programs' results differ: {text}");
        // ERR rows: only GRhino's refusal of a pass it is told (it takes
        // none: docs/protocols.md); never tabula refusing a pass or a
        // `genmove` after the game's end (`the game is over`).
        if row.get(11) == Some(&"1") {
            let why = row.get(12).copied().unwrap_or("");
            assert!(
                why == "GTP GRhino: syntax error",
                "an error of tabula's: {text}"
            );
        }
    }
}
