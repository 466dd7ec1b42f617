//! The shape of the code: the rules core depends on nothing else of the crate and does no I/O, and
//! no two files import each other, directly or around a circle.
//!
//! The import graph is read from the sources themselves: the module tree is followed from
//! `src/lib.rs` and `src/main.rs` through their `mod` declarations, every `use` tree and every
//! `crate::`/`super::` path in the code is resolved to the file that defines it (through a
//! `pub use` re-export to the file it names), and the strongly connected components of the graph
//! are the circles. Test modules (`#[cfg(test)]`) are left out: a test may look anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// A module: which crate it belongs to (the library or the binary) and its path in that crate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ModPath {
    krate: &'static str,
    path: Vec<String>,
}

/// Every module file of both crates, by module path.
struct Tree {
    files: BTreeMap<ModPath, PathBuf>,
    /// For each file, the text without comments and test modules.
    code: BTreeMap<PathBuf, String>,
}

/// The text without `//` comments and without everything from a `#[cfg(test)]` module on.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            let next = lines.next().unwrap_or("");
            if next.trim_end().ends_with('{') {
                break;
            }
            continue;
        }
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The `mod name;` declarations of a file (not inline modules).
fn declared_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code.lines() {
        let t = line.trim();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        if let Some(rest) = t.strip_prefix("mod ")
            && let Some(name) = rest.strip_suffix(';')
        {
            // A raw identifier (`mod r#match;`) names the file without its `r#`.
            let name = name.trim();
            out.push(name.strip_prefix("r#").unwrap_or(name).to_string());
        }
    }
    out
}

fn load_tree() -> Tree {
    let mut tree = Tree {
        files: BTreeMap::new(),
        code: BTreeMap::new(),
    };
    for (krate, root) in [("lib", "lib.rs"), ("bin", "main.rs")] {
        let mut stack = vec![(Vec::<String>::new(), src().join(root))];
        while let Some((path, file)) = stack.pop() {
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let code = code_of(&text);
            let dir = if path.is_empty() || file.ends_with("mod.rs") {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
            for child in declared_modules(&code) {
                let flat = dir.join(format!("{child}.rs"));
                let nested = dir.join(&child).join("mod.rs");
                let child_file = if flat.exists() { flat } else { nested };
                let mut child_path = path.clone();
                child_path.push(child);
                stack.push((child_path, child_file));
            }
            tree.code.insert(file.clone(), code);
            tree.files.insert(ModPath { krate, path }, file);
        }
    }
    tree
}

/// Splits a `use` tree (`a::b::{c, d::{e as f}, *}`) into its paths.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn parse(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        if let Some(open) = s.find('{') {
            let head: Vec<String> = s[..open]
                .split("::")
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect();
            let mut base = prefix.to_vec();
            base.extend(head);
            let inner = &s[open + 1..s.rfind('}').unwrap_or(s.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parse(&inner[start..i], &base, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            parse(&inner[start..], &base, out);
        } else if !s.is_empty() {
            let s = s.split(" as ").next().unwrap_or(s);
            let mut path = prefix.to_vec();
            path.extend(
                s.split("::")
                    .map(str::trim)
                    .filter(|p| !p.is_empty() && (prefix.is_empty() || *p != "self"))
                    .map(String::from),
            );
            out.push(path);
        }
    }
    let mut out = Vec::new();
    parse(tree, &[], &mut out);
    out
}

/// The `use` statements of a file as paths, with whether each is a `pub use` re-export.
fn uses(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = &rest[..i];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let lead = before[line_start..].trim();
        let is_stmt = lead.is_empty() || lead.starts_with("pub");
        let after = &rest[i + 4..];
        let Some(end) = after.find(';') else { break };
        if is_stmt && (i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')) {
            let public = lead.starts_with("pub");
            for path in expand_use(&after[..end]) {
                out.push((public, path));
            }
            rest = &after[end + 1..];
        } else {
            rest = after;
        }
    }
    out
}

/// Paths written in the code itself (`crate::a::b`, `super::c`, `draughts::d`), outside `use`.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for root in ["crate::", "super::", "draughts::"] {
        let mut rest = code;
        while let Some(i) = rest.find(root) {
            let boundary = i == 0
                || !rest[..i]
                    .ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':' || c == '$');
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            if boundary {
                out.push(
                    tail[..end]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect(),
                );
            }
            rest = &rest[i + root.len()..];
        }
    }
    out
}

impl Tree {
    /// The file a path names, seen from the module `from`: the deepest module on the path, or the
    /// file a `pub use` there re-exports the next name from.
    fn resolve(&self, from: &ModPath, path: &[String], depth: usize) -> Option<PathBuf> {
        let (krate, mut abs): (&'static str, Vec<String>) = match path.first()?.as_str() {
            "crate" => (from.krate, path[1..].to_vec()),
            "draughts" => ("lib", path[1..].to_vec()),
            "self" => (from.krate, [&from.path[..], &path[1..]].concat()),
            "super" => {
                let mut base = from.path.clone();
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (from.krate, [&base[..], rest].concat())
            }
            first => {
                let mut child = from.path.clone();
                child.push(first.to_string());
                let key = ModPath {
                    krate: from.krate,
                    path: child,
                };
                if !self.files.contains_key(&key) {
                    return None; // another crate, or a name in scope
                }
                (from.krate, [&from.path[..], path].concat())
            }
        };
        let mut module = abs.clone();
        loop {
            let key = ModPath {
                krate,
                path: module.clone(),
            };
            if let Some(file) = self.files.get(&key) {
                let item = abs.get(module.len());
                if depth < 8
                    && let Some(item) = item
                {
                    for (public, export) in uses(&self.code[file]) {
                        if public && export.last() == Some(item) && export.len() > 1 {
                            return self
                                .resolve(&key, &export, depth + 1)
                                .or(Some(file.clone()));
                        }
                    }
                }
                return Some(file.clone());
            }
            module.pop()?;
            abs.truncate(module.len() + 1);
        }
    }

    /// Every file each file imports.
    fn graph(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut graph = BTreeMap::new();
        for (module, file) in &self.files {
            let code = &self.code[file];
            let paths = uses(code)
                .into_iter()
                .map(|(_, p)| p)
                .chain(inline_paths(code));
            let mut targets = BTreeSet::new();
            for path in paths {
                if let Some(target) = self.resolve(module, &path, 0)
                    && &target != file
                {
                    targets.insert(target);
                }
            }
            graph.insert(file.clone(), targets);
        }
        graph
    }
}

/// The strongly connected components with more than one file (Tarjan).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn no_import_circles_between_files() {
    let tree = load_tree();
    let graph = tree.graph();
    let found = circles(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|c| {
            let mut text = c.iter().map(|f| relative(f)).collect::<Vec<_>>().join(", ");
            for a in c {
                for b in &graph[a] {
                    if c.contains(b) {
                        text.push_str(&format!("\n    {} -> {}", relative(a), relative(b)));
                    }
                }
            }
            text
        })
        .collect();
    assert!(
        found.is_empty(),
        "import circles:\n  {}",
        described.join("\n  ")
    );
}

#[test]
fn the_circle_finder_finds_circles() {
    let g = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        for (a, b) in edges {
            graph.entry(a.into()).or_default().insert(b.into());
            graph.entry(b.into()).or_default();
        }
        graph
    };
    assert!(circles(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
    assert_eq!(
        circles(&g(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
        vec![vec![PathBuf::from("a"), "b".into(), "c".into()]]
    );
}

#[test]
fn use_trees_expand_to_paths() {
    let paths = expand_use("crate::rules::{board::{Position, Square as Sq}, piece::Color, self}");
    let text: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        text,
        [
            "crate::rules::board::Position",
            "crate::rules::board::Square",
            "crate::rules::piece::Color",
            "crate::rules",
        ]
    );
}

#[test]
fn the_graph_sees_known_imports() {
    let tree = load_tree();
    let graph = tree.graph();
    let movegen = src().join("rules/movegen.rs");
    let board = src().join("rules/board.rs");
    assert!(graph[&movegen].contains(&board), "movegen imports board");
    // A name imported through a re-export counts as an import of the file that defines it.
    let lib = src().join("lib.rs");
    assert!(
        graph[&lib].contains(&board),
        "lib re-exports Position from rules::board"
    );
}

/// A source file past about 800 lines says near its top why it must be one file.
#[test]
fn long_files_say_why() {
    let tree = load_tree();
    for file in tree.files.values() {
        let text = std::fs::read_to_string(file).unwrap();
        let lines = text.lines().count();
        if lines > 820 {
            let head: String = text.lines().take(20).collect::<Vec<_>>().join("\n");
            assert!(
                head.contains("past 800 lines"),
                "{} has {lines} lines and does not say at its top why it is one file",
                relative(file)
            );
        }
    }
}

/// The rules core does no I/O, uses no terminal, database or network crate, and names nothing of
/// this crate outside `rules`.
#[test]
fn rules_core_depends_on_nothing_above_it() {
    let forbidden = [
        "std::fs",
        "std::io",
        "std::net",
        "std::process",
        "std::thread",
        "std::env",
        "ratatui",
        "crossterm",
        "rusqlite",
        "russh",
        "tokio",
        "memmap2",
        "zstd",
        "indicatif",
        "println!",
        "eprintln!",
        "print!(",
    ];
    let tree = load_tree();
    let core: Vec<(&ModPath, &PathBuf)> = tree
        .files
        .iter()
        .filter(|(m, _)| m.krate == "lib" && m.path.first().map(String::as_str) == Some("rules"))
        .collect();
    assert!(core.len() >= 14, "the rules core has its files: {core:?}");
    let root = tree
        .files
        .iter()
        .find(|(m, _)| m.path == ["rules"])
        .unwrap()
        .1;
    assert!(
        std::fs::read_to_string(root)
            .unwrap()
            .contains("#![forbid(unsafe_code)]"),
        "the rules core forbids unsafe code"
    );
    for (module, file) in core {
        let text = std::fs::read_to_string(file).unwrap();
        let name = relative(file);
        for word in forbidden {
            assert!(!text.contains(word), "{name} uses {word}");
        }
        let paths = uses(&text)
            .into_iter()
            .map(|(_, p)| p)
            .chain(inline_paths(&text));
        for path in paths {
            if let Some(target) = tree.resolve(module, &path, 0) {
                assert!(
                    target.starts_with(src().join("rules")),
                    "{name} depends on {} ({})",
                    relative(&target),
                    path.join("::")
                );
            }
        }
    }
}
