//! tabula's GGF export loaded in Edax (scripts/check-ggf-edax.sh): runs
//! where Edax is found (`EDAX`, or `edax` / `lEdax-*` on PATH) and is
//! skipped with its reason elsewhere, so CI needs no Edax.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::scratch;

/// The Edax binary: `EDAX`, else `edax` or `lEdax-*` on PATH.
fn edax() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("EDAX") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        std::fs::read_dir(&dir).ok()?.flatten().find_map(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            (name == "edax" || name.starts_with("lEdax-")).then(|| entry.path())
        })
    })
}

#[test]
fn edax_loads_every_exported_othello_game_to_tabulas_result() {
    let Some(edax) = edax() else {
        eprintln!(
            "SKIPPED edax_loads_every_exported_othello_game: no Edax (set EDAX, or put edax \
             on PATH; build it from github.com/abulmo/edax-reversi)"
        );
        return;
    };
    let dir = scratch("ggf-edax");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check-ggf-edax.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("2")
        .env("EDAX", &edax)
        .env("TABULA", env!("CARGO_BIN_EXE_tabula"))
        .env("CHECK_OUT", &dir)
        .output()
        .expect("bash runs the check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Three matches of two games (from the start, from positions,
    // adjudicated), each game loaded and matching.
    assert!(text.contains("6 games, 6 loaded, 0 mismatches"), "{text}");
    assert_eq!(text.matches(": ok").count(), 6, "{text}");
    assert!(text.contains("Edax solves the same margin"), "{text}");
}
