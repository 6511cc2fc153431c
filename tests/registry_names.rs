//! The registry answers, the edges ask: no game's name is written as a
//! string literal in the sources outside `src/games/` (each game's module
//! and the registry). The edges ask the registry (`tabula::games`) what a
//! game is, or name a game's fact by its module's `NAME`, so that a new
//! game is served by what the registry says of it, not by a list of names.
//!
//! Test code is not scanned: `#[cfg(test)]` modules (from the attribute to
//! the module's closing brace) and comment lines. The page's assets (HTML,
//! JavaScript) are not Rust and are not scanned here; the page's shell
//! (app.js) is checked for every registered game's name by
//! `gui_the_page_s_shell_names_no_game_and_games_js_holds_every_game_s_page`
//! in gui_server.rs, and the games' page code lives in their folders.

use std::path::Path;

/// The lines of `text` outside `#[cfg(test)]` modules and comments, with
/// their numbers (from 1); the layering check reads the same.
pub(crate) fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip to the end of the item the attribute is on: its braces
            // balanced (braces inside strings are rare enough in tests).
            let mut depth = 0i64;
            let mut opened = false;
            for (_, l) in lines.by_ref() {
                for c in l.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                if opened && depth <= 0 {
                    break;
                }
                // An attribute on a one-line item (`use`, `mod x;`).
                if !opened && l.trim_end().ends_with(';') {
                    break;
                }
            }
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        out.push((i + 1, line));
    }
    out
}

/// Every `file:line: "name"` under `src/` (outside `src/games/`) that
/// writes a registered game's name as a string literal.
fn literal_names(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    crate::layers::rust_files(&root.join("src"), &mut files);
    files.retain(|f| !f.starts_with(root.join("src/games")));
    assert!(files.len() > 50, "the sources are read");
    let quoted: Vec<String> = tabula::games::names()
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect();
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source");
        for (n, line) in code_lines(&text) {
            for q in &quoted {
                if line.contains(q.as_str()) {
                    let shown = file.strip_prefix(root).unwrap_or(file);
                    found.push(format!("{}:{n}: {q}", shown.display()));
                }
            }
        }
    }
    found
}

#[test]
fn no_game_name_is_a_literal_outside_the_games() {
    let found = literal_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        found.is_empty(),
        "game names written outside src/games/ (ask tabula::games, or name the \
         game's module NAME):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_code_and_skips_tests_and_comments() {
    let text = "fn a() { f(\"othello\") }\n\
                // \"othello\" in a comment\n\
                #[cfg(test)]\n\
                mod tests {\n    fn b() { g(\"othello\") }\n}\n\
                fn c() {}\n";
    let lines = code_lines(text);
    let numbers: Vec<usize> = lines.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, vec![1, 7]);
}
