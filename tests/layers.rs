//! The layering lib.rs states, checked on the source: a game never knows a
//! search, the engine, the match runner or the protocol (the tools that
//! need both live in `src/lab/`).

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn a_game_never_names_a_layer_above_it() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut files = Vec::new();
    rust_files(&games, &mut files);
    assert!(files.len() > 10, "the games' sources are read");
    let above = [
        "crate::search",
        "crate::engine",
        "crate::arena",
        "crate::protocol",
        "crate::lab",
        "crate::gui",
        "crate::bench",
    ];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source");
        for (i, line) in text.lines().enumerate() {
            if let Some(name) = above.iter().find(|a| line.contains(*a)) {
                found.push(format!("{}:{}: {name}", file.display(), i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "games naming a layer above them:\n{}",
        found.join("\n")
    );
}
