//! The layering lib.rs states, checked on the source: a game never knows a
//! search, the engine, the match runner or the protocol (the tools that
//! need both live in `src/lab/`); the engine never knows the protocol, the
//! match runner, the lab or the GUI, and its parts never stand on its
//! facade; the game model never knows the control (the solver is an extra).

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
    let above = [
        "crate::search",
        "crate::engine",
        "crate::arena",
        "crate::protocol",
        "crate::lab",
        "crate::gui",
        "crate::bench",
    ];
    names_none_of("src/games", 10, &above);
}

/// Reads the sources under `folder` (at least `least` files), asserts that
/// none names any of `above`, and returns them.
fn names_none_of(folder: &str, least: usize, above: &[&str]) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(folder),
        &mut files,
    );
    assert!(files.len() >= least, "the sources of {folder} are read");
    let found = naming(&files, above);
    assert!(
        found.is_empty(),
        "{folder} naming a layer above it:\n{}",
        found.join("\n")
    );
    files
}

/// The lines of `files` that name one of `names`, as `file:line: name`.
fn naming(files: &[std::path::PathBuf], names: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("source");
        for (i, line) in text.lines().enumerate() {
            if let Some(name) = names.iter().find(|a| line.contains(*a)) {
                found.push(format!("{}:{}: {name}", file.display(), i + 1));
            }
        }
    }
    found
}

#[test]
fn the_engine_names_no_layer_above_it_and_its_parts_not_the_facade() {
    let above = [
        "crate::protocol",
        "crate::arena",
        "crate::lab",
        "crate::gui",
        "crate::bench",
    ];
    let files = names_none_of("src/engine", 7, &above);
    // The facade (mod.rs) is built from its parts: a part names its
    // siblings (`crate::engine::table`, `super::error`), never an item of
    // the facade. Only `startup`, which configures an `Engine`, stands on it.
    // A part is a file (`table.rs`) or a folder (`time/mod.rs`).
    let parts: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let stem = f.file_stem()?.to_str()?;
            let named = if stem == "mod" {
                f.parent()?.file_name()?.to_str()?
            } else {
                stem
            };
            Some(named.to_string())
        })
        .collect();
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut upward = Vec::new();
    for file in &files {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let folder = file.parent();
        if folder == Some(engine.as_path()) && (stem == "mod" || stem == "startup") {
            continue;
        }
        // `super` is the facade in a top file (`table.rs`) and in a
        // folder part's mod.rs (`time/mod.rs`); in the rest of a folder
        // part (`time/clock.rs`) it is that part.
        let at_top = folder == Some(engine.as_path())
            || (stem == "mod" && folder.and_then(Path::parent) == Some(engine.as_path()));
        let text = std::fs::read_to_string(file).expect("source");
        for (i, line) in text.lines().enumerate() {
            // Top-level imports only: a unit test's `use super::*` is its own.
            let Some(path) = line
                .strip_prefix("use crate::engine::")
                .or_else(|| line.strip_prefix("use super::").filter(|_| at_top))
            else {
                continue;
            };
            let first: String = path
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !parts.contains(&first) {
                upward.push(format!("{}:{}: {line}", file.display(), i + 1));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "engine parts importing from the facade:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_game_model_names_no_control() {
    // The solver, which polls a `Control`, is a game's extra
    // (src/extras.rs), not a method of the trait.
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game.rs");
    let found = naming(&[game], &["crate::control", "Control"]);
    assert!(
        found.is_empty(),
        "game.rs naming the control:\n{}",
        found.join("\n")
    );
}
