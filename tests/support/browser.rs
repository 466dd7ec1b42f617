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

/// A browser left open on a page, asked about it through the DevTools protocol (a WebSocket):
/// for pages that change after they are loaded, as a game followed live does.
pub struct Watch {
    child: std::process::Child,
    socket: tungstenite::WebSocket<std::net::TcpStream>,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GET over HTTP/1.1 on loopback, read to its Content-Length: the status and the body
/// (status 0 when the server closed the connection first).
pub fn http_get(host: &str, path: &str) -> (u16, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut s = std::net::TcpStream::connect(host).expect("the server takes connections");
    s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .expect("a timeout");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    if s.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut reader = BufReader::new(s);
    let mut status = 0;
    let mut length: Option<usize> = None;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return (status, String::new());
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if status == 0 {
            status = l
                .split_whitespace()
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
        } else if let Some((k, v)) = l.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().ok();
        }
    }
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            let _ = reader.read_exact(&mut body);
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

impl Watch {
    /// Opens `url` in a headless browser and connects to the page.
    pub fn open(url: &str) -> Watch {
        Watch::sized(url, (1280, 900))
    }

    /// Opens `url` in a headless browser window of `width`×`height` and connects to the page.
    pub fn sized(url: &str, (width, height): (u32, u32)) -> Watch {
        use std::io::{BufRead, BufReader};
        let profile = tempfile::tempdir().expect("a profile folder");
        let mut child = Command::new(chromium())
            .args(base(profile.path()))
            .arg(format!("--window-size={width},{height}"))
            .args(["--remote-debugging-port=0", url])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("chromium runs");
        let stderr = child.stderr.take().expect("its standard error");
        let mut lines = BufReader::new(stderr).lines();
        let port = loop {
            let line = lines
                .next()
                .expect("chromium says where DevTools listen")
                .expect("a line");
            if let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
                break rest.split('/').next().expect("a port").to_string();
            }
        };
        // Its standard error is drained, so the browser never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        let host = format!("127.0.0.1:{port}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let target = loop {
            let (_, body) = http_get(&host, "/json/list");
            let list: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            let page = list.as_array().and_then(|l| {
                l.iter()
                    .find(|t| {
                        t["type"] == "page"
                            && t["url"]
                                .as_str()
                                .is_some_and(|u| u.starts_with("http") || u.starts_with("file"))
                    })
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str().map(String::from))
            });
            if let Some(p) = page {
                break p;
            }
            assert!(std::time::Instant::now() < deadline, "no page in {body}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        let stream = std::net::TcpStream::connect(&host).expect("DevTools take connections");
        let (socket, _) = tungstenite::client(target.as_str(), stream).expect("a DevTools socket");
        Watch {
            child,
            socket,
            next: 0,
            _profile: profile,
        }
    }

    /// Evaluates `expression` in the page; its value.
    pub fn eval(&mut self, expression: &str) -> serde_json::Value {
        let answer = self.call(
            "Runtime.evaluate",
            serde_json::json!({ "expression": expression, "returnByValue": true }),
        );
        answer["result"]["value"].clone()
    }

    /// Calls a DevTools method on the page; its result.
    pub fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let id = self.next;
        let call = serde_json::json!({ "id": id, "method": method, "params": params });
        self.socket
            .send(tungstenite::Message::text(call.to_string()))
            .expect("the call is sent");
        loop {
            let msg = self.socket.read().expect("an answer");
            let Ok(text) = msg.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            if v["id"] == id {
                return v["result"].clone();
            }
        }
    }

    /// Waits until `expression` gives `want` (30 seconds at most); how long it took.
    pub fn until(&mut self, expression: &str, want: &serde_json::Value) -> std::time::Duration {
        let start = std::time::Instant::now();
        loop {
            let got = self.eval(expression);
            if &got == want {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "{expression} stayed {got}, never {want}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
