//! Checks of the server's layering, read from the sources under `src/`:
//!
//! - the HTTP handlers (`crate::routes`) are the top layer: nothing but `startup.rs` (which mounts
//!   them) imports them; what lower layers need lives in `crate::services` or below;
//! - only `live.rs` hands events to the realtime actors (`emit_all`, `emit_all_except`,
//!   `emit_room`, `emit_user`), and no event is made from a bare name (`ServerEvent::from_parts`):
//!   every live event has one typed definition in `actors/src/events.rs` and one function in
//!   `live.rs` that says who hears it;
//! - every top-level module has its place in the layer order of docs/architecture.md
//!   ([`LAYERS`]) and imports only modules of its own layer or below; `pages/` (the pure
//!   rendering of what the outside world reads) imports only `domain` and `post_view`;
//! - no process-wide mutable state (`static` of a `Mutex`, `RwLock`, `Cell`, `RefCell`, `Notify`
//!   or an atomic): caches and signals live in the application state or the app data of the
//!   server that uses them, so two servers in one process share nothing;
//! - the import graph of the top-level modules (`crate::x::…` paths, per module) has no cycle: it
//!   is layered (see docs/architecture.md), and an import that closes a cycle fails with the
//!   edges that close it.
//!
//! Unit-test modules (`#[cfg(test)] mod …` at the end of a file) and comments are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod handlers;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its unit-test module.
fn code(text: &str) -> String {
    let text = match text.find("\n#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| match line.find(" // ") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The server crate's `src/` (the directory cargo gives the test when it runs, else the one it
/// was built from).
fn src_root() -> PathBuf {
    Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    )
    .join("src")
}

/// Whether `path` is this file or one of its parts (`src/architecture/`), which name modules and
/// patterns in their own checks.
fn is_architecture(root: &Path, path: &Path) -> bool {
    let file = path.strip_prefix(root).unwrap_or(path);
    file == Path::new("architecture.rs") || file.starts_with("architecture")
}

struct Source {
    /// Path under `src/`, with `/` separators.
    file: String,
    /// Top-level module (`persistence` for `src/persistence/posts.rs`); `None` for the crate roots.
    module: Option<String>,
    /// The file's own module (`persistence::posts`; `""` for the crate roots).
    path: String,
    /// The paths its code names from the crate's root ([`module_paths`]).
    paths: BTreeSet<Vec<String>>,
}

impl Source {
    /// Whether the code names the top-level module `module`.
    fn uses(&self, module: &str) -> bool {
        self.paths
            .iter()
            .any(|p| p.first().is_some_and(|m| m == module))
    }
}

fn read_sources() -> Vec<Source> {
    let root = src_root();
    let mut files = Vec::new();
    sources(&root, &mut files);
    files
        .into_iter()
        // This file and its parts name modules in their own checks.
        .filter(|path| !is_architecture(&root, path))
        .map(|path| {
            let file = path
                .strip_prefix(&root)
                .expect("under src/")
                .to_string_lossy()
                .replace('\\', "/");
            let first = file.split('/').next().unwrap_or("");
            let module = match first {
                "lib.rs" | "main.rs" => None,
                _ => Some(first.trim_end_matches(".rs").to_string()),
            };
            let text = std::fs::read_to_string(&path).expect("a source file is readable");
            let path = module_of(&file);
            let paths = module_paths(&code(&text), &path);
            Source {
                file,
                module,
                path,
                paths,
            }
        })
        .collect()
}

/// The top-level module graph: each module with the modules it imports.
fn module_graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        if let Some(module) = &source.module {
            graph.entry(module.clone()).or_default();
        }
    }
    let known: BTreeSet<String> = graph.keys().cloned().collect();
    for source in sources {
        let Some(module) = &source.module else {
            continue;
        };
        for used in source.paths.iter().filter_map(|p| p.first()) {
            if used != module && known.contains(used) {
                graph
                    .entry(module.clone())
                    .or_default()
                    .insert(used.clone());
            }
        }
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        out: Vec<BTreeSet<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.graph[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = BTreeSet::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.out.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out
}

/// The edges that close a cycle: both ends in one strongly connected component.
fn cycle_edges(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for component in cycles(graph) {
        for from in &component {
            for to in &graph[from] {
                if component.contains(to) {
                    out.insert((from.clone(), to.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn nothing_outside_startup_imports_the_handlers() {
    let offenders: Vec<String> = read_sources()
        .into_iter()
        .filter(|s| s.module.as_deref() != Some("routes"))
        .filter(|s| s.file != "startup.rs")
        .filter(|s| s.uses("routes"))
        .map(|s| s.file)
        .collect();
    assert!(
        offenders.is_empty(),
        "these files import `crate::routes` (the HTTP handlers); move what they need into \
         `crate::services` or below: {offenders:?}"
    );
}

/// The layers of docs/architecture.md, top to bottom, with the top-level modules of each: a module
/// may import modules of its own layer and of the layers below it, never above.
const LAYERS: [(&str, &[&str]); 8] = [
    ("wiring", &["startup", "cli"]),
    (
        "HTTP",
        &["routes", "auth_extractors", "extract", "middleware"],
    ),
    (
        "services",
        &[
            "services",
            "operations",
            "audit",
            "export",
            "backup",
            "pages",
        ],
    ),
    ("application state", &["state"]),
    (
        "handles the state holds",
        &[
            "auth",
            "live",
            "counting",
            "ratelimit",
            "guest_cache",
            "mail",
            "payments",
            "webpush",
            "error",
        ],
    ),
    (
        "storage and read models",
        &["persistence", "feeds", "search", "post_view"],
    ),
    (
        "infrastructure",
        &[
            "cipher",
            "redis_pool",
            "geoip",
            "geojson",
            "metrics",
            "net",
            "config",
            "telemetry",
            "security_headers",
        ],
    ),
    ("domain", &["domain"]),
];

/// What `pages/` may import: it renders values it is given.
const PAGES_MAY_IMPORT: [&str; 2] = ["domain", "post_view"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

#[test]
fn every_import_follows_the_layer_order() {
    let sources = read_sources();
    let graph = module_graph(&sources);
    let unplaced: Vec<&String> = graph.keys().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "give these modules their layer in src/architecture.rs's LAYERS and docs/architecture.md: \
         {unplaced:?}"
    );
    let mut upward = Vec::new();
    for (module, used) in &graph {
        let from = layer_of(module).expect("placed");
        for target in used {
            let to = layer_of(target).expect("placed");
            let pure_breach = module == "pages" && !PAGES_MAY_IMPORT.contains(&target.as_str());
            if to < from || pure_breach {
                let files: Vec<&str> = sources
                    .iter()
                    .filter(|s| s.module.as_deref() == Some(module.as_str()) && s.uses(target))
                    .map(|s| s.file.as_str())
                    .collect();
                upward.push(format!(
                    "{module} ({}) imports {target} ({}) in {files:?}",
                    LAYERS[from].0, LAYERS[to].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports against the layer order (docs/architecture.md, \"Top to bottom\"): move the code \
         down, or what it needs up\n{}",
        upward.join("\n")
    );
}

/// The code lines of every source file under `src/` but `except` (paths under `src/`) for which
/// `matches` holds, as `src/<file>:<line>: <code>`.
fn code_lines_where(except: &[&str], matches: impl Fn(&str) -> bool) -> Vec<String> {
    let root = src_root();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut found = Vec::new();
    for path in files {
        let file = path
            .strip_prefix(&root)
            .expect("under src/")
            .to_string_lossy()
            .replace('\\', "/");
        if is_architecture(&root, &path) || except.contains(&file.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file is readable");
        for line in code(&text).lines().filter(|l| matches(l)) {
            let at = text.lines().position(|l| l == line).map_or(0, |n| n + 1);
            found.push(format!("src/{file}:{at}: {}", line.trim()));
        }
    }
    found
}

#[test]
fn no_process_wide_mutable_state() {
    const MUTABLE: [&str; 6] = ["Mutex<", "RwLock<", "Cell<", "Notify", "Atomic", "RefCell<"];
    let found = code_lines_where(&[], |line| {
        let t = line.trim_start();
        let is_static = t.starts_with("static ")
            || t.starts_with("pub static ")
            || t.starts_with("pub(crate) static ");
        is_static && MUTABLE.iter().any(|m| t.contains(m))
    });
    assert!(
        found.is_empty(),
        "process-wide mutable state; keep it in the application state (src/state.rs) or the \
         server's app data instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_route_is_registered_from_the_route_table() {
    // routes/mod.rs registers the table; web_app.rs the built app's files and its fallback;
    // openapi.rs the API viewer's files.
    let found = code_lines_where(
        &["routes/mod.rs", "routes/web_app.rs", "routes/openapi.rs"],
        |line| {
            [
                ".route(",
                "web::resource(",
                "web::scope(",
                "web::get()",
                "Files::new(",
            ]
            .iter()
            .any(|m| line.contains(m))
        },
    );
    assert!(
        found.is_empty(),
        "routes are declared once, in src/routes/table.rs (a page of the site too, marked \
         `.site()`), so the authorization matrix and the API document see them:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_handler_module_re_exports_another_layer() {
    let found: Vec<String> = code_lines_where(&[], |line| {
        let t = line.trim_start();
        t.starts_with("pub use crate::") || t.starts_with("pub(crate) use crate::")
    })
    .into_iter()
    .filter(|at| at.starts_with("src/routes/"))
    .collect();
    assert!(
        found.is_empty(),
        "a handler module re-exports what lives elsewhere; import it from where it lives:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_live_rs_emits_and_every_event_is_typed() {
    const EMITS: [&str; 4] = [
        ".emit_all(",
        ".emit_all_except(",
        ".emit_room(",
        ".emit_user(",
    ];
    let found = code_lines_where(&["live.rs"], |line| {
        line.contains("ServerEvent::from_parts") || EMITS.iter().any(|e| line.contains(e))
    });
    assert!(
        found.is_empty(),
        "live events are emitted only by src/live.rs, each typed in actors/src/events.rs; add a \
         function there and call it:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_import_cycle_among_the_modules() {
    let graph = module_graph(&read_sources());
    let edges: Vec<String> = cycle_edges(&graph)
        .iter()
        .map(|(a, b)| format!("{a} → {b}"))
        .collect();
    let components: Vec<String> = cycles(&graph)
        .iter()
        .map(|c| c.iter().cloned().collect::<Vec<_>>().join(" ↔ "))
        .collect();
    assert!(
        edges.is_empty(),
        "import cycles among the top-level modules {components:?}, closed by these edges (a \
         lower module takes the narrow handle it needs, or the code that needs the upper one \
         moves up):\n{}",
        edges.join("\n")
    );
}

/// The module path of a file under `src/` (`routes::user::delete_account` for
/// `routes/user/delete_account.rs`, `persistence` for `persistence/mod.rs`, `""` for the roots).
fn module_of(file: &str) -> String {
    let mut parts: Vec<&str> = file.trim_end_matches(".rs").split('/').collect();
    if matches!(parts.last(), Some(&("mod" | "lib" | "main"))) {
        parts.pop();
    }
    parts.join("::")
}

/// The paths a file's code names from the crate's root or its parent modules (`crate::a::b::c`,
/// `super::x`, `self::y`, one level of `{…}` groups), as module paths to resolve: each the full
/// path as written, the module it is in being found by its longest known prefix.
fn module_paths(code: &str, module: &str) -> BTreeSet<Vec<String>> {
    let here: Vec<String> = module
        .split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let (base, len): (Vec<String>, usize) = if rest.starts_with("crate::") {
            (Vec::new(), "crate::".len())
        } else if rest.starts_with("super::") || rest.starts_with("self::") {
            // `self` is the file's own module (a `mod.rs` its directory's), `super` its parent.
            let mut base = here.clone();
            let mut len = 0;
            if rest.starts_with("self::") {
                len = "self::".len();
            }
            while code[at + len..].starts_with("super::") {
                base.pop();
                len += "super::".len();
            }
            (base, len)
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        // Part of a longer name (`$crate::`, `my_super::`): not a path of ours.
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'_' | b'$'))
        {
            at += len;
            continue;
        }
        let mut path = base;
        let mut tail = &code[at + len..];
        loop {
            let name = ident(tail);
            if name.is_empty() {
                break;
            }
            path.push(name.to_string());
            tail = &tail[name.len()..];
            match tail.strip_prefix("::") {
                Some(t) => tail = t,
                None => break,
            }
        }
        if let Some(group) = tail.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for entry in group[..end].split(',') {
                let mut p = path.clone();
                p.extend(
                    entry
                        .trim()
                        .split("::")
                        .map(ident)
                        .take_while(|s| !s.is_empty())
                        .map(str::to_string),
                );
                out.insert(p);
            }
        }
        out.insert(path);
        at += len;
    }
    out
}

/// Every module (one per file) with the modules its code names, a module's own ancestors and
/// descendants left out (a `mod.rs` that declares its children and the children that use what it
/// holds are one module's parts, not layers).
fn file_graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<&str> = sources.iter().map(|s| s.path.as_str()).collect();
    let related = |a: &str, b: &str| {
        a.is_empty()
            || b.is_empty()
            || a == b
            || a.starts_with(&format!("{b}::"))
            || b.starts_with(&format!("{a}::"))
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        let entry = graph.entry(source.path.clone()).or_default();
        for path in &source.paths {
            let target = (1..=path.len())
                .rev()
                .map(|k| path[..k].join("::"))
                .find(|m| known.contains(m.as_str()));
            if let Some(target) = target {
                if !related(&source.path, &target) {
                    entry.insert(target);
                }
            }
        }
    }
    graph
}

#[test]
fn no_import_cycle_among_the_files() {
    let graph = file_graph(&read_sources());
    let edges: Vec<String> = cycle_edges(&graph)
        .iter()
        .map(|(a, b)| format!("{a} → {b}"))
        .collect();
    assert!(
        edges.is_empty(),
        "import cycles between the files' modules, closed by these edges (move what both need \
         below them):\n{}",
        edges.join("\n")
    );
}

#[test]
fn the_file_reader_resolves_parents_and_groups() {
    let paths = module_paths(
        &code("use super::likes::{self, Kind};\nuse crate::persistence::{posts::Post, Db};\nlet x = super::super::auth::run();\nmacro_rules! m { () => { $crate::x } }"),
        "persistence::bookmarks",
    );
    let has = |p: &str| paths.contains(&p.split("::").map(str::to_string).collect::<Vec<_>>());
    assert!(has("persistence::likes::self"), "{paths:?}");
    assert!(has("persistence::posts::Post"), "{paths:?}");
    assert!(has("auth::run"), "{paths:?}");
    assert!(
        !paths.iter().any(|p| p.first().is_some_and(|s| s == "x")),
        "{paths:?}"
    );
    assert_eq!(
        module_of("routes/user/delete_account.rs"),
        "routes::user::delete_account"
    );
    assert_eq!(module_of("persistence/mod.rs"), "persistence");
}

#[test]
fn the_reader_sees_crate_paths_and_groups() {
    let paths = module_paths(
        &code(
            "use crate::error::ApiResult;\nuse crate::{auth::AuthUser, persistence::{posts, Db}};\n\
             // crate::routes in a comment\nlet x = crate::live::run();\nmacro_rules! m { () => { $crate::x } }",
        ),
        "",
    );
    let modules = ["error", "auth", "persistence", "live", "routes", "x"];
    let uses: BTreeSet<String> = paths
        .iter()
        .filter_map(|p| p.first())
        .filter(|m| modules.contains(&m.as_str()))
        .cloned()
        .collect();
    let want: BTreeSet<String> = ["error", "auth", "persistence", "live"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(uses, want);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert(
        "b".to_string(),
        BTreeSet::from(["a".to_string(), "c".to_string()]),
    );
    graph.insert("c".to_string(), BTreeSet::new());
    let edges = cycle_edges(&graph);
    assert_eq!(
        edges,
        BTreeSet::from([
            ("a".to_string(), "b".to_string()),
            ("b".to_string(), "a".to_string())
        ])
    );
}

/// Longest source file of the server crate, in lines before its unit-test module (the actors
/// crate checks its own in `actors/tests/layout.rs`; the web app's ESLint `max-lines` is 500).
const MAX_FILE_LINES: usize = 700;

/// Lines of a source file before its `#[cfg(test)]` unit-test module.
fn lines_before_tests(text: &str) -> usize {
    text.lines()
        .take_while(|line| !line.starts_with("#[cfg(test)]"))
        .count()
}

#[test]
fn no_source_file_is_over_the_limit() {
    let mut files = Vec::new();
    sources(&src_root(), &mut files);
    let over: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).expect("a source file is readable");
            let lines = lines_before_tests(&text);
            (lines > MAX_FILE_LINES).then(|| format!("{} ({lines} lines)", path.display()))
        })
        .collect();
    assert!(
        over.is_empty(),
        "split these files by concern (at most {MAX_FILE_LINES} lines before their tests):\n{}",
        over.join("\n")
    );
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
}
