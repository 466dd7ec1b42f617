//! The club server's web pages, live: `draughts serve --http` beside SSH. A result recorded on
//! the command line is on the next request; a move made in a game between two SSH terminals
//! reaches a browser following the game (headless Chromium, asked through its DevTools); and
//! the server keeps its bounds — only its own paths, no methods but GET and HEAD, no bodies, a
//! cap on a request's head, a time to send it, a limit on connections, and ETags.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{club, stderr, stdout};
#[path = "support/ssh.rs"]
mod ssh;
#[path = "support/tmux.rs"]
mod tmux;
use ssh::{Server, member_with_key, ssh_session};
#[path = "support/browser.rs"]
mod browser;
use browser::{Watch, http_get};

fn ok(db: &Path, args: &[&str]) -> String {
    let o = club(db, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `draughts serve` with `args`; the server, its SSH port (if any) and its web address.
fn serve(db: &Path, host_key: &Path, args: &[&str]) -> (Server, Option<String>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .arg("serve")
        .args(args)
        .arg("--db")
        .arg(db)
        .arg("--host-key")
        .arg(host_key)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    // Killed and waited for when dropped, whatever happens below.
    let mut server = Server(child);
    let mut out = BufReader::new(server.0.stdout.take().expect("stdout"));
    let mut ssh_port = None;
    loop {
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("the server says where it listens");
        let line = line.trim().to_string();
        if let Some(web) = line.strip_prefix("web pages on http://") {
            return (server, ssh_port, web.to_string());
        }
        if line.starts_with("listening on") {
            ssh_port = line.rsplit(':').next().map(String::from);
        }
        assert!(!line.is_empty(), "the server ended before listening");
    }
}

/// The HTML5 parse errors of a page.
fn parse_errors(html: &str) -> Vec<String> {
    use html5ever::tendril::TendrilSink;
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            exact_errors: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), opts)
        .from_utf8()
        .read_from(&mut html.as_bytes())
        .expect("parsed");
    dom.errors.borrow().iter().map(|e| e.to_string()).collect()
}

#[test]
fn a_result_shows_on_the_next_request_and_a_move_reaches_a_browser_following_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let text = db.display().to_string();
    let ton = member_with_key(dir.path(), &text, "Ton");
    let anna = member_with_key(dir.path(), &text, "Anna");
    for n in ["Cor", "Dirk"] {
        ok(&db, &["member", "add", n]);
    }
    ok(&db, &["tournament", "create", "Cup"]);
    ok(
        &db,
        &["tournament", "enter", "Cup", "Cor", "Dirk", "Ton", "Anna"],
    );
    ok(&db, &["tournament", "pair", "Cup"]);
    let (_server, ssh_port, web) = serve(
        &db,
        &dir.path().join("host_key"),
        &[
            "--listen",
            "127.0.0.1:0",
            "--http",
            "127.0.0.1:0",
            "--title",
            "DC Live",
        ],
    );
    let ssh_port = ssh_port.expect("an SSH port");

    // A result recorded on the command line is on the next request.
    let (status, page) = http_get(&web, "/tournaments/1-cup.html");
    assert_eq!(status, 200, "{page}");
    assert!(!page.contains("2–0"), "no result yet");
    ok(
        &db,
        &[
            "tournament",
            "result",
            "Cup",
            "--round",
            "1",
            "Cor",
            "2-0",
            "Anna",
        ],
    );
    let (_, page) = http_get(&web, "/tournaments/1-cup.html");
    assert!(page.contains("2–0"), "{page}");

    // Ton and Anna play over SSH; a browser follows the game.
    let session = |key: &Path, user: &str| ssh_session(&ssh_port, key, user, (110, 32));
    let t = session(&ton, "ton");
    t.wait_for("Club lobby — Ton");
    t.keys(&["c"]);
    t.wait_for("New challenge");
    t.keys(&["Up", "Enter"]);
    t.wait_for("Challenge up");
    let a = session(&anna, "anna");
    a.wait_for("Ton → anyone");
    a.keys(&["Enter"]);
    a.wait_for("Both players are at the board");
    let white_is_ton = t.wait_for("you play").contains("you play White");
    let (white, black) = if white_is_ton { (&t, &a) } else { (&a, &t) };
    let (_, list) = http_get(&web, "/live.html");
    assert!(list.contains("Ton") && list.contains("Anna"), "{list}");
    let id = list
        .split("href=\"live/")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .expect("the game's page")
        .to_string();
    let (status, page) = http_get(&web, &format!("/live/{id}.html"));
    assert_eq!(status, 200);
    assert_eq!(parse_errors(&page), Vec::<String>::new());
    assert_eq!(parse_errors(&list), Vec::<String>::new());
    let mut watch = Watch::open(&format!("http://{web}/live/{id}.html"));
    let moves = "document.querySelector('[data-live]').getAttribute('data-moves')";
    watch.until(moves, &serde_json::json!("0"));
    white.line("32-28");
    black.wait_for("White played 32-28");
    let seen = watch.until(moves, &serde_json::json!("1"));
    eprintln!(
        "the browser showed 32-28 {} ms after the other terminal",
        seen.as_millis()
    );
    assert_eq!(
        watch.eval("document.querySelector('[data-square=\"28\"]').getAttribute('data-piece')"),
        serde_json::json!("w")
    );
    black.line("19-23");
    white.wait_for("Black played 19-23");
    watch.until(moves, &serde_json::json!("2"));
    assert_eq!(
        watch.eval("document.getElementById('live-moves').textContent"),
        serde_json::json!("32-2819-23")
    );
    black.line(":resign");
    white.wait_for("Black resigned");
    watch.until(
        "document.getElementById('status').textContent.includes('resign')",
        &serde_json::json!(true),
    );
}

/// Sends raw bytes and reads what comes back until the server closes or `wait` passes.
fn raw(host: &str, request: &[u8], wait: Duration) -> String {
    let mut s = TcpStream::connect(host).expect("a connection");
    s.set_read_timeout(Some(wait)).expect("a timeout");
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn status_of(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[test]
fn the_web_server_keeps_its_bounds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    ok(&db, &["member", "add", "Ann"]);
    let (_server, ssh, web) = serve(
        &db,
        &dir.path().join("host_key"),
        &[
            "--http",
            "127.0.0.1:0",
            "--http-connections",
            "3",
            "--http-header-seconds",
            "1",
        ],
    );
    assert_eq!(ssh, None, "--http alone serves no SSH");
    let get = |path: &str| {
        raw(
            &web,
            format!("GET {path} HTTP/1.0\r\n\r\n").as_bytes(),
            Duration::from_secs(10),
        )
    };
    let home = get("/");
    assert_eq!(status_of(&home), 200, "{home}");
    for h in [
        "content-security-policy: default-src 'none'",
        "x-content-type-options: nosniff",
        "etag: \"",
    ] {
        assert!(home.to_lowercase().contains(h), "{h}: {home}");
    }
    // Only the site's own paths, however they are written.
    for path in [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/games/..%2f..%2fclub.sqlite",
        "/club.sqlite",
        "/assets/../../Cargo.toml",
        "//etc/passwd",
    ] {
        let answer = get(path);
        assert_eq!(status_of(&answer), 404, "{path}: {answer}");
        assert!(
            !answer.contains("root:") && !answer.contains("SQLite"),
            "{path}"
        );
    }
    // Nothing but GET and HEAD, and no bodies.
    let post = raw(
        &web,
        b"POST / HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc",
        Duration::from_secs(10),
    );
    assert_eq!(status_of(&post), 405, "{post}");
    let body = raw(
        &web,
        b"GET / HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc",
        Duration::from_secs(10),
    );
    assert_eq!(status_of(&body), 413, "{body}");
    let head = raw(&web, b"HEAD / HTTP/1.0\r\n\r\n", Duration::from_secs(10));
    assert_eq!(status_of(&head), 200);
    assert!(!head.contains("<html"), "{head}");
    // An unchanged page is not sent again.
    let etag = home
        .lines()
        .find_map(|l| {
            l.to_lowercase()
                .strip_prefix("etag: ")
                .map(|_| l[6..].trim().to_string())
        })
        .expect("an ETag");
    let again = raw(
        &web,
        format!("GET / HTTP/1.0\r\nIf-None-Match: {etag}\r\n\r\n").as_bytes(),
        Duration::from_secs(10),
    );
    assert_eq!(status_of(&again), 304, "{again}");
    // An oversized head is refused.
    let big = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Junk: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    let answer = raw(&web, big.as_bytes(), Duration::from_secs(10));
    let s = status_of(&answer);
    assert!(s == 431 || s == 400 || answer.is_empty(), "{answer}");
    // A client that never finishes its request's head is closed after the time it has.
    let started = Instant::now();
    let slow = raw(
        &web,
        b"GET / HTTP/1.1\r\nHost: x\r\n",
        Duration::from_secs(20),
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "held {:?}",
        started.elapsed()
    );
    assert!(!slow.contains("<html"), "{slow}");
    // Three connections at most: a fourth is closed at once while three are held.
    let held: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(&web).expect("a connection");
            s.write_all(b"GET / HTTP/1.1\r\n").expect("a start");
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let fourth = raw(&web, b"GET / HTTP/1.0\r\n\r\n", Duration::from_secs(5));
    assert_eq!(fourth, "", "a fourth connection was served");
    drop(held);
    // The held ones time out or go; then the server answers again.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if status_of(&get("/")) == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the server never recovered");
        std::thread::sleep(Duration::from_millis(100));
    }
}
