//! The crate's layout: no import cycle among its modules, and no source file over 700 lines.
//!
//! The module graph is read from the sources: a module is a file of `src/` (`lib.rs` is the
//! crate root, `a/mod.rs` and `a.rs` are `a`), and module A depends on module B when A names
//! an item of B through a path (`use crate::b::Item`, `super::b::f()`, `use b::Item` for a
//! child module `b`). A path is charged to the deepest module it names, so that a parent
//! declaring its children (`pub mod b;`) is no dependency, while a parent re-exporting a
//! child's item (`pub use b::Item;`) is one, and so is a child using its parent's items. Unit
//! test modules (`#[cfg(test)] mod tests`, and `tests.rs` files) are left out: tests may use
//! anything.

// Test helpers fail the test loudly on unexpected input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// Longest source file allowed in `src/`, in lines.
const MAX_LINES: usize = 700;

type Module = Vec<String>;

fn src_dir() -> PathBuf {
    Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    )
    .join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file of `src/` defines.
fn module_of(file: &Path) -> Module {
    let relative = file.strip_prefix(src_dir()).unwrap();
    let mut parts: Module = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "lib" || p == "mod") {
        parts.pop();
    }
    parts
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The source without comments and without the contents of string and character literals.
fn strip(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal, or a lifetime (kept).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The text without its unit test modules (`#[cfg(test)] mod … { … }` or `;`).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        if !after.starts_with("mod ") {
            out.push_str("#[cfg(test)]");
            rest = &rest[at + "#[cfg(test)]".len()..];
            continue;
        }
        let start = rest.len() - after.len();
        let open = rest[start..].find(['{', ';']).map(|i| start + i).unwrap();
        if rest.as_bytes()[open] == b';' {
            rest = &rest[open + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = open;
        for (i, b) in rest.bytes().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_ident(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_owned());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// Expands a use tree (`a::{b, c::{self, D}}`) into its paths.
fn expand(tokens: &[String], pos: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        let Some(token) = tokens.get(*pos) else {
            out.push(path);
            return;
        };
        match token.as_str() {
            "{" => {
                *pos += 1;
                loop {
                    match tokens.get(*pos).map(String::as_str) {
                        Some("}") => {
                            *pos += 1;
                            return;
                        }
                        Some(",") => *pos += 1,
                        None => return,
                        _ => expand(tokens, pos, &path, out),
                    }
                }
            }
            "::" => *pos += 1,
            "self" => {
                // `a::{self}` names `a`; a leading `self` stays a path segment.
                if path.is_empty() {
                    path.push("self".to_owned());
                }
                *pos += 1;
            }
            "*" => *pos += 1,
            "as" => *pos += 2,
            "," | "}" => {
                out.push(path);
                return;
            }
            ident => {
                path.push(ident.to_owned());
                *pos += 1;
            }
        }
    }
}

/// Every path of `code` that starts at `crate`, `super`, `self` or a name imported by `use`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let toks = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "use" {
            let end = toks[i..]
                .iter()
                .position(|t| t == ";")
                .map_or(toks.len(), |p| i + p);
            let tree = &toks[i + 1..end];
            let mut pos = 0;
            let mut expanded = Vec::new();
            expand(tree, &mut pos, &[], &mut expanded);
            out.extend(expanded);
            i = end + 1;
            continue;
        }
        if matches!(toks[i].as_str(), "crate" | "super" | "self")
            && toks.get(i + 1).is_some_and(|t| t == "::")
            && !(i > 0 && toks[i - 1] == "::")
        {
            let mut path = vec![toks[i].clone()];
            let mut j = i + 1;
            while toks.get(j).is_some_and(|t| t == "::")
                && toks.get(j + 1).is_some_and(|t| t.chars().all(is_ident))
            {
                path.push(toks[j + 1].clone());
                j += 2;
            }
            out.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// The module of the crate that `path`, written in `current`, names (the deepest one), if
/// any.
fn resolve(path: &[String], current: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let mut segments = path.iter().peekable();
    let mut base: Module = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("super") | Some("self") => {
            let mut base = current.clone();
            while let Some(s) = segments.peek() {
                match s.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
            base
        }
        Some(first) => {
            let mut child = current.clone();
            child.push(first.to_owned());
            if !modules.contains(&child) {
                return None;
            }
            current.clone()
        }
        None => return None,
    };
    for segment in segments {
        let mut deeper = base.clone();
        deeper.push(segment.clone());
        if !modules.contains(&deeper) {
            break;
        }
        base = deeper;
    }
    Some(base)
}

/// Who depends on whom, and each module's file.
fn graph() -> (
    BTreeMap<Module, BTreeSet<Module>>,
    BTreeMap<Module, PathBuf>,
) {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let files: BTreeMap<Module, PathBuf> = files
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|f| (module_of(&f), f))
        .collect();
    let modules: BTreeSet<Module> = files.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (module, file) in &files {
        let code = without_tests(&strip(&fs::read_to_string(file).unwrap()));
        let targets: BTreeSet<Module> = paths(&code)
            .iter()
            .filter_map(|p| resolve(p, module, &modules))
            .filter(|target| target != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    (edges, files)
}

/// The groups of modules that depend on each other (strongly connected, more than one).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(m) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<Module, BTreeSet<Module>> =
        edges.keys().map(|m| (m.clone(), reach(m))).collect();
    let mut groups: Vec<Vec<Module>> = Vec::new();
    let mut placed = BTreeSet::new();
    for m in edges.keys() {
        if placed.contains(m) || !reachable[m].contains(m) {
            continue;
        }
        let group: Vec<Module> = edges
            .keys()
            .filter(|n| reachable[m].contains(*n) && reachable[*n].contains(m))
            .cloned()
            .collect();
        placed.extend(group.iter().cloned());
        groups.push(group);
    }
    groups
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let (edges, _) = graph();
    // The reader sees the crate: the session module names the engine's items.
    let module = |path: &str| -> Module { path.split("::").map(str::to_owned).collect() };
    assert!(
        edges[&module("socketio::session")].contains(&module("socketio::engine")),
        "{edges:?}"
    );
    let groups = cycles(&edges);
    let report: Vec<String> = groups
        .iter()
        .map(|group| {
            let members: Vec<String> = group.iter().map(name).collect();
            let links: Vec<String> = group
                .iter()
                .flat_map(|m| {
                    edges[m]
                        .iter()
                        .filter(|t| group.contains(t))
                        .map(move |t| format!("{} → {}", name(m), name(t)))
                })
                .collect();
            format!("{{{}}}: {}", members.join(", "), links.join("; "))
        })
        .collect();
    assert!(
        groups.is_empty(),
        "import cycles in the actors crate:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_graph_reader_sees_the_dependencies() {
    // The reader itself: a use tree, a path in code, a child module, a parent's item.
    let modules: BTreeSet<Module> = [
        vec![],
        vec!["a".to_owned()],
        vec!["a".to_owned(), "b".to_owned()],
        vec!["c".to_owned()],
    ]
    .into_iter()
    .collect();
    let code = strip(
        "use crate::{a::{self, b::Thing}, c};\n// crate::nothing\nfn f() { super::Top; \"crate::no\"; }\n#[cfg(test)]\nmod tests { use crate::c::X; }",
    );
    let code = without_tests(&code);
    let current = vec!["a".to_owned(), "b".to_owned()];
    let found: BTreeSet<Module> = paths(&code)
        .iter()
        .filter_map(|p| resolve(p, &current, &modules))
        .collect();
    let expected: BTreeSet<Module> = [
        vec!["a".to_owned()],
        vec!["a".to_owned(), "b".to_owned()],
        vec!["c".to_owned()],
    ]
    .into_iter()
    .collect();
    assert_eq!(found, expected);
    let mut edges = BTreeMap::new();
    edges.insert(vec!["a".to_owned()], [vec!["c".to_owned()]].into());
    edges.insert(vec!["c".to_owned()], [vec!["a".to_owned()]].into());
    edges.insert(vec![], BTreeSet::new());
    assert_eq!(cycles(&edges).len(), 1);
}

#[test]
fn no_source_file_is_over_700_lines() {
    let mut all = Vec::new();
    rust_files(&src_dir(), &mut all);
    let long: Vec<String> = all
        .iter()
        .map(|f| (f, fs::read_to_string(f).unwrap().lines().count()))
        .filter(|(_, lines)| *lines > MAX_LINES)
        .map(|(f, lines)| format!("{}: {lines}", f.display()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}
