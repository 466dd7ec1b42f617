//! A real browser for end-to-end tests of the web pages: Debian's Chromium, headless, each run
//! with a profile of its own, giving the page's DOM after its scripts have run; and a small walk
//! over that DOM (parsed with html5ever) to read tables and attributes back.
// Each test crate that includes this file uses a part of it.
#![allow(dead_code)]

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use std::process::Command;

/// The browser's program.
pub fn chromium() -> String {
    for name in ["/usr/bin/chromium", "chromium", "chromium-browser"] {
        if Command::new(name).arg("--version").output().is_ok() {
            return name.to_string();
        }
    }
    panic!("Chromium is installed (apt-get install chromium; .ci/run installs it)");
}

/// The flags every run takes: headless, and nothing that reaches for the network by itself.
fn base(profile: &std::path::Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// The DOM of `url` after its scripts have run.
pub fn dom(url: &str) -> String {
    let profile = tempfile::tempdir().expect("a profile folder");
    let out = Command::new(chromium())
        .args(base(profile.path()))
        .args(["--virtual-time-budget=2000", "--dump-dom", url])
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A screenshot of `url` at `width`×`height` into `png`.
pub fn screenshot(url: &str, width: u32, height: u32, png: &std::path::Path) {
    let profile = tempfile::tempdir().expect("a profile folder");
    let out = Command::new(chromium())
        .args(base(profile.path()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A parsed page.
pub struct Page {
    root: Handle,
}

impl Page {
    pub fn parse(html: &str) -> Page {
        let dom = html5ever::parse_document(RcDom::default(), Default::default())
            .from_utf8()
            .read_from(&mut html.as_bytes())
            .expect("the page parses");
        Page { root: dom.document }
    }

    /// Every element named `tag` with `attr` (any value when `value` is `None`), in order.
    pub fn all(&self, tag: &str, attr: Option<(&str, Option<&str>)>) -> Vec<Handle> {
        let mut out = Vec::new();
        collect(&self.root, tag, attr, &mut out);
        out
    }

    /// The element with this id.
    pub fn by_id(&self, id: &str) -> Option<Handle> {
        let mut out = Vec::new();
        collect(&self.root, "*", Some(("id", Some(id))), &mut out);
        out.into_iter().next()
    }
}

fn collect(node: &Handle, tag: &str, attr: Option<(&str, Option<&str>)>, out: &mut Vec<Handle>) {
    if let NodeData::Element { name, .. } = &node.data
        && (tag == "*" || &*name.local == tag)
        && attr.is_none_or(|(a, v)| attribute(node, a).is_some_and(|x| v.is_none_or(|v| x == v)))
    {
        out.push(node.clone());
    }
    for child in node.children.borrow().iter() {
        collect(child, tag, attr, out);
    }
}

/// An element's attribute.
pub fn attribute(node: &Handle, name: &str) -> Option<String> {
    match &node.data {
        NodeData::Element { attrs, .. } => attrs
            .borrow()
            .iter()
            .find(|a| &*a.name.local == name)
            .map(|a| a.value.to_string()),
        _ => None,
    }
}

/// The text inside a node, its white space folded.
pub fn text(node: &Handle) -> String {
    fn walk(n: &Handle, out: &mut String) {
        match &n.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            _ => {
                for c in n.children.borrow().iter() {
                    walk(c, out);
                }
            }
        }
    }
    let mut s = String::new();
    walk(node, &mut s);
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The element children of a node named `tag`.
pub fn children(node: &Handle, tag: &str) -> Vec<Handle> {
    node.children
        .borrow()
        .iter()
        .filter(|c| matches!(&c.data, NodeData::Element { name, .. } if &*name.local == tag))
        .cloned()
        .collect()
}

/// A table's body rows, each as its cells (`th` and `td`) in order.
pub fn rows(table: &Handle) -> Vec<Vec<Handle>> {
    let Some(body) = children(table, "tbody").into_iter().next() else {
        return Vec::new();
    };
    children(&body, "tr")
        .iter()
        .map(|tr| {
            tr.children
                .borrow()
                .iter()
                .filter(|c| {
                    matches!(&c.data, NodeData::Element { name, .. }
                        if &*name.local == "td" || &*name.local == "th")
                })
                .cloned()
                .collect()
        })
        .collect()
}

/// Points as the pages write them (`3½`, `½`, `12`, `13.25`), as a number.
pub fn points(text: &str) -> f64 {
    let t = text.trim();
    match t.strip_suffix('½') {
        Some("") => 0.5,
        Some(whole) => whole.parse::<f64>().expect("points") + 0.5,
        None => t.parse().unwrap_or_else(|_| panic!("points {t:?}")),
    }
}
