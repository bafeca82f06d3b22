//! The layout of these tests (docs/architecture.md, "Tests"): every file is a declared module (a
//! file left out of its folder's `mod.rs` would never run), `main.rs` declares folders only, no
//! test file imports another (what tests share lives in `support/`), and each support file adds at
//! most one `impl TestApp` block.

use std::path::{Path, PathBuf};

/// A path from the binary's root (spelled in two parts so this file does not match itself).
const CRATE: &str = concat!("crate", "::");

fn root() -> PathBuf {
    Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    )
    .join("tests/api")
}

/// The `.rs` files under `dir`, as paths relative to `tests/api`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root()).unwrap().to_path_buf());
        }
    }
}

fn read(relative: &Path) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap()
}

/// The `mod name;` lines of a file.
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim_start_matches("pub ");
            line.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn every_file_is_a_module_and_no_test_file_imports_another() {
    let mut all = Vec::new();
    files(&root(), &mut all);
    assert!(all.len() > 10, "found only {all:?}");
    let mut broken = Vec::new();
    for file in &all {
        let text = read(file);
        let parent = file.parent().unwrap();
        let name = file.file_stem().unwrap().to_str().unwrap();
        // Declared by the folder's mod.rs (main.rs for the folders themselves).
        match (parent.as_os_str().is_empty(), name) {
            (true, "main") => {}
            (true, _) => broken.push(format!("{}: a test file outside a folder", file.display())),
            (false, "mod") => {
                let folder = parent.to_str().unwrap();
                if parent.components().count() > 1
                    || !declared(&read(Path::new("main.rs")))
                        .iter()
                        .any(|m| m == folder)
                {
                    broken.push(format!("{folder}/ is not declared in main.rs"));
                }
            }
            (false, _) => {
                if !declared(&read(&parent.join("mod.rs")))
                    .iter()
                    .any(|m| m == name)
                {
                    broken.push(format!("{} is not declared in its mod.rs", file.display()));
                }
            }
        }
        let in_support = file.starts_with("support");
        if in_support {
            let blocks = text
                .lines()
                .filter(|l| l.starts_with("impl TestApp {"))
                .count();
            if blocks > 1 {
                broken.push(format!(
                    "{}: {blocks} `impl TestApp` blocks",
                    file.display()
                ));
            }
        } else {
            for (at, _) in text.match_indices(CRATE) {
                let rest = &text[at + CRATE.len()..];
                if !rest.starts_with("support") {
                    let line = text[at..].lines().next().unwrap_or_default();
                    broken.push(format!("{}: imports a test file ({line})", file.display()));
                }
            }
        }
    }
    for folder in declared(&read(Path::new("main.rs"))) {
        if !root().join(&folder).join("mod.rs").is_file() {
            broken.push(format!(
                "main.rs declares {folder}, which is not a folder with a mod.rs"
            ));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
