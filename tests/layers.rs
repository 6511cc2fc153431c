//! The layering lib.rs states, checked on the source: a game never knows a
//! search, the engine, the match runner or the protocol (the tools that
//! need both live in `src/tools/lab/`); the engine never knows the protocol, the
//! match runner, the lab or the GUI, and its parts never stand on its
//! facade; the game model never knows the control (the solver is an extra);
//! the files of the match runner (src/arena/), of the protocol
//! (src/protocol/) and of the lab (src/tools/lab/) import each other
//! without a circle; the rooms of the match runner stand on floors
//! (`ARENA_FLOORS`), none naming a floor above its own and no two naming
//! each other.

use std::path::{Path, PathBuf};

/// The Rust sources under `dir`, every depth (also the registry's
/// name scan's).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
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
        "crate::tools::lab",
        "crate::gui",
        "crate::tools::bench",
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
        "crate::tools::lab",
        "crate::gui",
        "crate::tools::bench",
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
    // (src/model/extras.rs), not a method of the trait: of the model, only
    // the extras name the control.
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/model");
    let files: Vec<_> = [
        "game.rs",
        "options.rs",
        "played.rs",
        "pictures.rs",
        "mod.rs",
    ]
    .iter()
    .map(|f| model.join(f))
    .collect();
    let found = naming(&files, &["crate::control", "Control"]);
    assert!(
        found.is_empty(),
        "the game model naming the control:\n{}",
        found.join("\n")
    );
}

/// The files of `folder` (under src/) import each other without a
/// circle: read a file's `use` lines, its `crate::`/`super::`/`self::`
/// paths and its `mod` lines, resolve each to the file that defines it,
/// and fail on any circle. A `mod x;` line is an import of `x`, so a
/// file that imports from its own folder's mod.rs (a re-export or an
/// item there) closes a circle: it climbs back up.
fn assert_no_circles(folder: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src, folder);
    assert!(
        found.is_empty(),
        "import circles between the files of {folder}:\n{}",
        found.join("\n")
    );
}

/// The import circles between sibling files that are kept, as pairs of
/// paths under src/, each named with its reason in docs/architecture.md
/// ("kept circles"). None now: the last (games/othello's eval.rs and
/// probcut.rs, through a test of probcut.rs) was cut by moving that test
/// to eval.rs.
const KEPT_CIRCLES: &[[&str; 2]] = &[];

/// The import circles between sibling files of each folder of `src`
/// (engine/, gui/, games/ with games/othello/, and every other), but
/// those of `kept`: as [`assert_no_circles`], but a file may use a module
/// that encloses it (its folder's mod.rs, as a game's files use its
/// state), so only circles between siblings (or cousins) count. Each
/// circle is said as `folder: a.rs (line) -> b.rs ...`.
fn sibling_circles(src: &Path, kept: &[[&str; 2]]) -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(src)
        .expect("src")
        .filter_map(|e| {
            let path = e.ok()?.path();
            path.is_dir()
                .then(|| path.file_name()?.to_str().map(String::from))?
        })
        .collect();
    folders.sort();
    let mut found = Vec::new();
    for folder in &folders {
        for (on, said) in circles_between(src, folder, Upward::Allowed) {
            let on: Vec<String> = on.iter().map(|f| format!("{folder}/{f}")).collect();
            let is_kept = kept
                .iter()
                .any(|pair| on.len() == 2 && pair.iter().all(|f| on.iter().any(|o| o == f)));
            if !is_kept {
                found.push(format!("{folder}: {said}"));
            }
        }
    }
    found
}

#[test]
fn no_import_circle_between_sibling_files_but_the_kept() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for folder in ["engine", "gui", "games/othello"] {
        assert!(src.join(folder).is_dir(), "{folder} is read");
    }
    let found = sibling_circles(&src, KEPT_CIRCLES);
    assert!(
        found.is_empty(),
        "import circles between sibling files of src/ (kept: {KEPT_CIRCLES:?}):\n{}",
        found.join("\n")
    );
    // Each kept circle is still there: one cut leaves the list.
    let unkept = sibling_circles(&src, &[]);
    assert_eq!(unkept.len(), KEPT_CIRCLES.len(), "{unkept:?}");
}

#[test]
fn no_import_circle_between_files_of_the_arena() {
    assert_no_circles("arena");
}

#[test]
fn no_import_circle_between_files_of_the_protocol() {
    assert_no_circles("protocol");
}

#[test]
fn no_import_circle_between_files_of_the_lab() {
    assert_no_circles("tools/lab");
}

/// An empty folder of this test process's own under the system's
/// temporary folder, for a made-up source tree (`tag` tells the tests
/// apart).
fn scratch_tree(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("tabula-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    root
}

/// Writes the source file `path` of the made-up tree at `root`.
fn write_source(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
    std::fs::write(path, text).expect("written");
}

#[test]
fn the_circle_check_finds_circles_however_the_import_is_written() {
    let root = scratch_tree("layers");
    let write = |path: &str, text: &str| write_source(&root, path, text);
    // A leaf, and a chain that a test module's `use super::*`, a comment,
    // a string and a `{` in a char literal do not close.
    write(
        "m/mod.rs",
        "//! m\npub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\npub use self::a::A;\n",
    );
    write("m/a.rs", "pub struct A;\n");
    write(
        "m/b.rs",
        "use super::a::A; // crate::m::c\nconst S: &str = \"super::c\"; const C: char = '{';\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::m::a::A;\n}\n",
    );
    write("m/c.rs", "use crate::m::{a::A, b};\n");
    write("m/d.rs", "fn f() { let _ = super::c::X; }\n");
    write(
        "m/e.rs",
        "use self::inner::X;\nmod inner { pub struct X; }\n",
    );
    assert_eq!(circles(&root, "m"), Vec::<String>::new(), "no circle yet");
    // Each way of closing one is found.
    let cases = [
        ("m/a.rs", "pub struct A;\nuse super::d::D;\n", "super::"),
        (
            "m/a.rs",
            "pub struct A;\nuse crate::m::{e, d::D};\n",
            "a grouped use",
        ),
        (
            "m/a.rs",
            "pub struct A;\nfn f() { crate::m::c::g(); }\n",
            "a path in code",
        ),
        ("m/d.rs", "use super::A;\n", "a re-export of mod.rs"),
        (
            "m/c.rs",
            "use crate::m::a::A;\nmod t { use super::super::d::D; }\n",
            "super::super",
        ),
    ];
    for (file, text, how) in cases {
        let before = std::fs::read_to_string(root.join(file)).unwrap();
        write(file, text);
        if file != "m/c.rs" {
            // Somebody must import the file back for a circle.
            write("m/c.rs", "use crate::m::{a::A, b};\nuse super::d::D;\n");
        } else {
            write("m/d.rs", "use super::c::X;\n");
        }
        let found = circles(&root, "m");
        assert!(!found.is_empty(), "a circle closed by {how} is found");
        write(file, &before);
        write("m/c.rs", "use crate::m::{a::A, b};\n");
        write("m/d.rs", "fn f() { let _ = super::c::X; }\n");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_sibling_check_lets_a_file_use_its_mod_rs_but_finds_siblings() {
    let root = scratch_tree("siblings");
    let write = |path: &str, text: &str| write_source(&root, path, text);
    write(
        "m/mod.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub struct S;\n",
    );
    write("m/a.rs", "use super::S;\npub struct A;\n");
    write("m/b.rs", "use crate::m::S;\nuse super::a::A;\n");
    write("m/c.rs", "pub mod d;\n");
    write("m/c/d.rs", "use super::super::b;\nuse crate::m::c;\n");
    let sibling = |root: &Path| circles_between(root, "m", Upward::Allowed);
    assert_eq!(circles(&root, "m").len(), 3, "each file using mod.rs");
    assert_eq!(sibling(&root), Vec::new(), "mod.rs and c.rs enclose");
    write(
        "m/a.rs",
        "use super::S;\npub struct A;\nfn f() { super::c::d::g(); }\n",
    );
    let found = sibling(&root);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["a.rs", "c/d.rs", "b.rs"], "a cousin's circle");
    // A kept pair is let pass, and only that pair.
    write("m/a.rs", "use super::b::B;\npub struct A;\n");
    assert_eq!(sibling_circles(&root, &[]).len(), 1, "a and b");
    assert_eq!(sibling_circles(&root, &[["m/b.rs", "m/a.rs"]]).len(), 0);
    assert_eq!(sibling_circles(&root, &[["m/b.rs", "m/c.rs"]]).len(), 1);
    let _ = std::fs::remove_dir_all(&root);
}

/// A file's module path from the crate root `src`: `arena/run/mod.rs` is
/// [arena, run], `arena/run/play.rs` [arena, run, play].
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The import circles between the files of `src/<folder>`, each said as
/// `a.rs -> b.rs (line) -> ... -> a.rs`; an import of the folder's own
/// mod.rs counts.
fn circles(src: &Path, folder: &str) -> Vec<String> {
    circles_between(src, folder, Upward::Counts)
        .into_iter()
        .map(|(_, said)| said)
        .collect()
}

/// Whether a file's import of a module that encloses it (its folder's
/// mod.rs, `endgame.rs` for `endgame/kernel.rs`) counts as an arrow.
#[derive(Clone, Copy, PartialEq)]
enum Upward {
    /// It does: the folder's files stand apart from their mod.rs.
    Counts,
    /// It does not: a folder's files may use the types of their own
    /// mod.rs (a game's state lives there), and only circles between
    /// siblings (or cousins) are found.
    Allowed,
}

/// The import circles between the files of `src/<folder>`, each as the
/// files on it (their paths under the folder) and said as
/// `a.rs -> b.rs (line) -> ... -> a.rs`.
fn circles_between(src: &Path, folder: &str, upward: Upward) -> Vec<(Vec<String>, String)> {
    let mut files = Vec::new();
    rust_files(&src.join(folder), &mut files);
    files.sort();
    let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let root: Vec<String> = folder.split('/').map(str::to_string).collect();
    // The file that defines a path: its longest prefix that is a module.
    let file_of = |path: &[String]| -> Option<usize> {
        (root.len()..=path.len())
            .rev()
            .find_map(|n| modules.iter().position(|m| m.as_slice() == &path[..n]))
    };
    // edges[from] = (to, line) of the first import of `to`.
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); files.len()];
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).expect("source");
        for (path, line) in imports(&text, &modules[i]) {
            if let Some(to) = file_of(&path)
                && to != i
                && !(upward == Upward::Allowed && modules[i].starts_with(&modules[to]))
                && !edges[i].iter().any(|(t, _)| *t == to)
            {
                edges[i].push((to, line));
            }
        }
    }
    let name = |i: usize| {
        files[i].strip_prefix(src.join(folder)).map_or_else(
            |_| files[i].display().to_string(),
            |p| p.display().to_string(),
        )
    };
    // A circle through each file, found once: the shortest way back to it.
    let mut found: Vec<(Vec<String>, String)> = Vec::new();
    let mut in_circle = vec![false; files.len()];
    for start in 0..files.len() {
        if in_circle[start] {
            continue;
        }
        // Breadth first from `start`, remembering how each file was reached.
        let mut came_from: Vec<Option<(usize, usize)>> = vec![None; files.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        let mut back = None;
        'search: while let Some(f) = queue.pop_front() {
            for &(to, line) in &edges[f] {
                if to == start {
                    back = Some((f, line));
                    break 'search;
                }
                if came_from[to].is_none() {
                    came_from[to] = Some((f, line));
                    queue.push_back(to);
                }
            }
        }
        let Some((last, _)) = back else { continue };
        let mut said = name(start);
        // Walk forward: start -> ... -> last -> start.
        let mut order = vec![start];
        let mut at = last;
        let mut chain = Vec::new();
        while at != start {
            chain.push(at);
            at = came_from[at].expect("reached").0;
        }
        chain.reverse();
        order.extend(chain);
        for (k, &f) in order.iter().enumerate() {
            let next = order.get(k + 1).copied().unwrap_or(start);
            let line = edges[f].iter().find(|(t, _)| *t == next).map_or(0, |e| e.1);
            said.push_str(&format!(" (line {line}) -> {}", name(next)));
            in_circle[f] = true;
        }
        found.push((order.iter().map(|&f| name(f)).collect(), said));
    }
    found
}

/// The paths a source file names (from its `use` lines, its `mod x;`
/// lines and the `crate::`, `super::`, `self::` paths in its code), as
/// paths from the crate root, with their line numbers; `module` is the
/// file's own path. Comments and literals are skipped; inside an inline
/// `mod m { ... }`, `super` and `self` are of that module.
fn imports(text: &str, module: &[String]) -> Vec<(Vec<String>, usize)> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    // The inline modules open, with the brace depth each opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let here = |inline: &[(String, usize)]| -> Vec<String> {
        module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect()
    };
    // A path's first segments made absolute; `None` for an outside crate.
    let absolute = |segments: &[String], here: &[String]| -> Option<Vec<String>> {
        let mut at: Vec<String>;
        let mut rest = segments;
        match segments.first().map(String::as_str) {
            Some("crate") => {
                at = Vec::new();
                rest = &segments[1..];
            }
            Some("self") => {
                at = here.to_vec();
                rest = &segments[1..];
            }
            Some("super") => {
                at = here.to_vec();
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop();
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        at.extend(rest.iter().filter(|s| *s != "self" && *s != "*").cloned());
        Some(at)
    };
    let mut i = 0;
    while i < tokens.len() {
        let (tok, line) = (&tokens[i].0, tokens[i].1);
        match tok.as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            "mod" if i + 2 < tokens.len() => {
                let name = tokens[i + 1].0.clone();
                match tokens[i + 2].0.as_str() {
                    ";" => {
                        let mut path = here(&inline);
                        path.push(name);
                        out.push((path, line));
                    }
                    "{" => inline.push((name, depth)),
                    _ => {}
                }
            }
            "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| t.0 == ";")
                    .map_or(tokens.len(), |p| i + p);
                let mut paths = Vec::new();
                use_tree(&tokens[i + 1..end], &mut Vec::new(), &mut paths);
                let at = here(&inline);
                for p in paths {
                    if let Some(abs) = absolute(&p, &at) {
                        out.push((abs, line));
                    }
                }
                i = end;
                continue;
            }
            "crate" | "super" | "self" if tokens.get(i + 1).is_some_and(|t| t.0 == "::") => {
                let mut path = vec![tok.clone()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|t| t.0 == "::")
                    && tokens.get(j + 1).is_some_and(|t| is_ident(&t.0))
                {
                    path.push(tokens[j + 1].0.clone());
                    j += 2;
                }
                if let Some(abs) = absolute(&path, &here(&inline)) {
                    out.push((abs, line));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Expands a use tree (`a::b::{c, d::e as f, g::*}`) into its paths.
fn use_tree(tokens: &[(String, usize)], prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut i = 0;
    let start = prefix.len();
    // Leading `::` (a 2015-style absolute path) is skipped.
    while i < tokens.len() {
        let t = tokens[i].0.as_str();
        match t {
            "::" => {}
            "{" => {
                // The group's items, split at its top-level commas.
                let mut level = 0;
                let mut item_start = i + 1;
                let mut j = i + 1;
                while j < tokens.len() {
                    match tokens[j].0.as_str() {
                        "{" => level += 1,
                        "}" if level == 0 => break,
                        "}" => level -= 1,
                        "," if level == 0 => {
                            use_tree(&tokens[item_start..j], prefix, out);
                            item_start = j + 1;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                use_tree(&tokens[item_start..j.min(tokens.len())], prefix, out);
                prefix.truncate(start);
                return;
            }
            "as" => break,
            "*" => break,
            _ if is_ident(t) => prefix.push(t.to_string()),
            _ => {}
        }
        i += 1;
    }
    if !prefix.is_empty() {
        out.push(prefix.clone());
    }
    prefix.truncate(start);
}

/// The tokens of Rust source that matter to its paths (identifiers, `::`,
/// braces, commas, `*`, `;`), with their line numbers; comments, strings
/// and char literals are skipped.
fn tokens(text: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut level = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    level += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    level -= 1;
                    i += 2;
                    if level == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && (i == 0 || !ident_char(chars[i - 1]) || chars[i - 1] == 'b')
            && {
                let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                chars.get(i + 1 + hashes) == Some(&'"')
            }
        {
            // A raw string: ends at a quote followed by as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{7f}'), or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident_char(c) {
            let start = i;
            while i < chars.len() && ident_char(chars[i]) {
                i += 1;
            }
            out.push((chars[start..i].iter().collect(), line));
        } else if c == ':' && next == Some(':') {
            out.push(("::".to_string(), line));
            i += 2;
        } else {
            if "{},*;".contains(c) {
                out.push((c.to_string(), line));
            }
            i += 1;
        }
    }
    out
}

/// The top-level rooms of src/ (a folder or a file under it) and the
/// rooms each one's code names (tests inside the files left out: a test
/// may stand on anything), read as the circle check reads paths.
fn room_imports(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut rooms = std::collections::BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        let room = module.first().cloned().expect("a room");
        if matches!(room.as_str(), "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("source");
        let code: Vec<&str> = crate::registry_names::code_lines(&text)
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        let code = code.join("\n");
        let named: &mut std::collections::BTreeSet<String> = rooms.entry(room.clone()).or_default();
        for (path, _) in imports(&code, &module) {
            if let Some(first) = path.first()
                && *first != room
                && (src.join(first).is_dir() || src.join(format!("{first}.rs")).is_file())
            {
                named.insert(first.clone());
            }
        }
    }
    rooms
}

#[test]
fn no_two_top_level_rooms_import_each_other_even_round_about() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rooms = room_imports(&src);
    assert!(rooms.len() >= 12, "the rooms of src/ are read: {rooms:?}");
    // Depth first: a room met again while its own descent is open
    // closes a circle.
    fn visit<'a>(
        room: &'a str,
        rooms: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        open: &mut Vec<&'a str>,
        done: &mut std::collections::BTreeSet<&'a str>,
        found: &mut Vec<String>,
    ) {
        if done.contains(room) {
            return;
        }
        if let Some(at) = open.iter().position(|r| *r == room) {
            found.push(format!("{} -> {room}", open[at..].join(" -> ")));
            return;
        }
        open.push(room);
        for next in rooms.get(room).into_iter().flatten() {
            visit(next, rooms, open, done, found);
        }
        open.pop();
        done.insert(room);
    }
    let (mut open, mut done, mut found) =
        (Vec::new(), std::collections::BTreeSet::new(), Vec::new());
    for room in rooms.keys() {
        visit(room, &rooms, &mut open, &mut done, &mut found);
    }
    assert!(
        found.is_empty(),
        "rooms of src/ importing each other round about:\n{}",
        found.join("\n")
    );
    let upward = arrows_up(&rooms, HOUSE);
    assert!(
        upward.is_empty(),
        "rooms of src/ naming a room on their own floor or above:\n{}",
        upward.join("\n")
    );
}

/// The floors of src/, from the ground up, as docs/architecture.md draws
/// them: a room names only rooms on floors below its own. A new room must
/// be given its floor here.
const HOUSE: &[&[&str]] = &[
    &["control", "files", "json", "memory"],
    &["model"],
    &["games"],
    &["search"],
    &["engine"],
    &["arena"],
    &["gui", "protocol", "tools"],
    &["added_games"],
];

/// The arrows of `rooms` that do not go down `floors` (to a room on the
/// same floor or above), and the rooms no floor holds, as text.
fn arrows_up(
    rooms: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    floors: &[&[&str]],
) -> Vec<String> {
    let floor_of = |room: &str| floors.iter().position(|f| f.contains(&room));
    let mut found = Vec::new();
    for (room, named) in rooms {
        let Some(low) = floor_of(room) else {
            found.push(format!("{room}: on no floor"));
            continue;
        };
        for other in named {
            match floor_of(other) {
                Some(high) if high < low => {}
                Some(high) => found.push(format!("{room} (floor {low}) -> {other} (floor {high})")),
                None => found.push(format!("{other}: on no floor")),
            }
        }
    }
    found
}

#[test]
fn the_floor_check_finds_an_arrow_up_and_a_room_on_no_floor() {
    let rooms: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = [
        ("model", vec!["control"]),
        ("control", vec!["model"]),
        ("games", vec!["model", "lost"]),
    ]
    .into_iter()
    .map(|(r, n)| (r.to_string(), n.into_iter().map(String::from).collect()))
    .collect();
    let found = arrows_up(&rooms, &[&["control"], &["model"], &["games"]]);
    assert_eq!(
        found,
        ["control (floor 0) -> model (floor 1)", "lost: on no floor"]
    );
}

/// The rooms of src/arena/ (a folder or a top file; arena's own mod.rs,
/// the facade for users outside, left out) and, for each room, the
/// rooms its code names with the first place it names each, as
/// `file:line` (tests inside the files left out).
fn arena_room_imports(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(&src.join("arena"), &mut files);
    files.sort();
    let mut rooms = std::collections::BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        let Some(room) = module.get(1).cloned() else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("source");
        // The code's lines in their places (a test's lines blank), so
        // that line numbers stay the file's.
        let code = crate::registry_names::code_lines(&text);
        let mut kept = vec![""; text.lines().count()];
        for (i, line) in code {
            kept[i - 1] = line;
        }
        let named: &mut std::collections::BTreeMap<String, String> =
            rooms.entry(room.clone()).or_default();
        for (path, line) in imports(&kept.join("\n"), &module) {
            if path.first().is_some_and(|a| a == "arena")
                && let Some(other) = path.get(1)
                && *other != room
            {
                let at = file.strip_prefix(src).unwrap_or(file).display();
                named
                    .entry(other.clone())
                    .or_insert_with(|| format!("src/{at}:{line}"));
            }
        }
    }
    rooms
}

#[test]
fn no_two_arena_rooms_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rooms = arena_room_imports(&src);
    assert!(rooms.len() >= 8, "the rooms of arena/ are read: {rooms:?}");
    let mut pairs = Vec::new();
    for (a, names) in &rooms {
        for (b, at) in names {
            if a < b
                && let Some(back) = rooms.get(b).and_then(|n| n.get(a))
            {
                pairs.push(format!("{a} <-> {b}: {at} names {b}, {back} names {a}"));
            }
        }
    }
    assert!(
        pairs.is_empty(),
        "{} pairs of arena rooms import each other:\n{}",
        pairs.len(),
        pairs.join("\n")
    );
}

/// The floors of src/arena/, from the bottom up: a room names rooms of its
/// own floor or below, never above (docs/architecture.md, "The match
/// runner's floors", says why each room stands where it does).
const ARENA_FLOORS: &[&[&str]] = &[
    &["ground", "seed"],
    &["record", "engines"],
    &["stats", "config"],
    &["clock", "output"],
    &["error"],
    &["run", "merge"],
];

#[test]
fn no_arena_room_imports_from_a_floor_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rooms = arena_room_imports(&src);
    let floor_of = |room: &str| ARENA_FLOORS.iter().position(|f| f.contains(&room));
    let unplaced: Vec<&String> = rooms.keys().filter(|r| floor_of(r).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "arena rooms on no floor of ARENA_FLOORS: {unplaced:?}"
    );
    let mut upward = Vec::new();
    for (room, names) in &rooms {
        for (named, at) in names {
            if floor_of(named) > floor_of(room) {
                upward.push(format!("{at}: {room} names {named}, a floor above it"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "arena rooms importing from a floor above:\n{}",
        upward.join("\n")
    );
}
