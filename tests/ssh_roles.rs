//! Who may do what on the club server, end to end: members sign in with the system OpenSSH
//! client in a real terminal (tmux) and use the club screens. A plain member is refused every
//! change with the message that says who may, and the club's tables are the same byte for byte
//! afterwards, with no audit row; an organiser's changes go through and the audit names them; a
//! tournament's arbiter runs that tournament and no other. Deactivating a member or removing a
//! key ends their session; an address that fails to sign in too often is blocked.

use std::path::Path;
use std::process::Command;

mod common;
use common::{club, stderr, stdout};
#[path = "support/ssh.rs"]
mod ssh;
#[path = "support/tmux.rs"]
mod tmux;
use ssh::{keygen, member_with_key, serve, ssh_args, ssh_session};
use tmux::Tmux;

/// Every table of the club but the audit, row by row, read straight from the file.
fn tables(db: &Path) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the club database");
    let names: Vec<String> = {
        let mut stmt = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'audit'
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .expect("the schema");
        stmt.query_map([], |r| r.get(0))
            .expect("the schema")
            .collect::<Result<_, _>>()
            .expect("the schema")
    };
    let mut rows = Vec::new();
    for t in names {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {t} ORDER BY rowid"))
            .expect("a table");
        let n = stmt.column_count();
        let all = stmt
            .query_map([], |r| {
                let mut line = format!("{t}:");
                for i in 0..n {
                    line.push_str(&format!(" {:?}", r.get_ref(i)?));
                }
                Ok(line)
            })
            .expect("rows");
        for row in all {
            rows.push(row.expect("a row"));
        }
    }
    rows
}

/// The audit as `draughts club audit --json` gives it.
fn audit(db: &Path) -> Vec<serde_json::Value> {
    let o = club(db, &["audit", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice::<serde_json::Value>(&o.stdout)
        .expect("JSON")
        .as_array()
        .expect("an array")
        .clone()
}

fn ok(db: &Path, args: &[&str]) {
    let o = club(db, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

/// The club screens of a session started in the lobby.
fn to_club(t: &Tmux, lobby: &str) {
    t.wait_for(lobby);
    t.keys(&["q"]);
    t.wait_for("New game");
    t.keys(&["c"]);
    t.wait_for("Club: Members");
}

/// Ann owns the club (added first), Olga organises it, Eva arbitrates "Autumn"; Bob, Cor, Dirk
/// and Fay play "Autumn" and "Winter", round robins with round 1 paired (board 1 Bob – Fay,
/// board 2 Cor – Dirk), Autumn's board 2 already 1-1. Bob, Olga and Eva have keys.
struct Club {
    dir: tempfile::TempDir,
    db: std::path::PathBuf,
    bob: std::path::PathBuf,
    olga: std::path::PathBuf,
    eva: std::path::PathBuf,
}

fn the_club() -> Club {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let text = db.display().to_string();
    ok(&db, &["member", "add", "Ann"]);
    let bob = member_with_key(dir.path(), &text, "Bob");
    for n in ["Cor", "Dirk"] {
        ok(&db, &["member", "add", n]);
    }
    let eva = member_with_key(dir.path(), &text, "Eva");
    ok(&db, &["member", "add", "Fay"]);
    let olga = member_with_key(dir.path(), &text, "Olga");
    ok(&db, &["member", "role", "Olga", "organiser"]);
    for t in ["Autumn", "Winter"] {
        ok(&db, &["tournament", "create", t]);
        ok(
            &db,
            &["tournament", "enter", t, "Bob", "Cor", "Dirk", "Fay"],
        );
        ok(&db, &["tournament", "pair", t]);
    }
    ok(
        &db,
        &[
            "tournament",
            "result",
            "Autumn",
            "--round",
            "1",
            "Cor",
            "1-1",
            "Dirk",
        ],
    );
    ok(&db, &["tournament", "arbiter", "Autumn", "Eva"]);
    Club {
        dir,
        db,
        bob,
        olga,
        eva,
    }
}

#[test]
fn a_member_is_refused_an_organiser_allowed_and_an_arbiter_kept_to_their_tournament() {
    let c = the_club();
    let (_server, port) = serve(&c.db, &c.dir.path().join("host_key"), &[]);
    let session = |key: &Path, user: &str| ssh_session(&port, key, user, (150, 40));

    // Bob, a plain member: every change refused with who may, and nothing changes.
    let before = tables(&c.db);
    let rows = audit(&c.db).len();
    let bob = session(&c.bob, "bob");
    to_club(&bob, "Club lobby — Bob");
    let screen = bob.screen();
    assert!(
        !screen.contains("a adds a member") && !screen.contains("(de)activates"),
        "{screen}"
    );
    // Ann, first in the list, is selected.
    bob.keys(&["d"]);
    bob.wait_for("only an organiser can deactivate or reactivate members");
    bob.keys(&["a"]);
    bob.wait_for("only an organiser can add members");
    bob.keys(&["Tab"]);
    bob.wait_for("Club: Tournaments");
    bob.keys(&["n"]);
    bob.wait_for("only an organiser can create tournaments");
    // Winter, the newest, first.
    bob.keys(&["Enter"]);
    let page = bob.wait_for("┌ Winter ");
    assert!(!page.contains("p pair next"), "{page}");
    bob.keys(&["p"]);
    bob.wait_for("only an organiser or this tournament's arbiter can pair rounds");
    bob.keys(&["Down", "1"]);
    bob.wait_for("only an organiser or this tournament's arbiter can record results");
    bob.keys(&["Escape"]);
    bob.wait_for("Tab switches lists");
    bob.keys(&["Down", "Enter"]);
    bob.wait_for("┌ Autumn ");
    bob.keys(&["Down", "0"]);
    bob.wait_for("only an organiser or this tournament's arbiter can record results");
    bob.keys(&["Escape"]);
    bob.wait_for("Tab switches lists");
    bob.keys(&["Tab", "Tab"]);
    bob.wait_for("Club: Settings");
    bob.keys(&["e"]);
    bob.wait_for("only an organiser can change the club's settings");
    assert_eq!(
        tables(&c.db),
        before,
        "a refused change changed the records"
    );
    assert_eq!(audit(&c.db).len(), rows, "a refused change was audited");

    // Olga, an organiser: the same changes go through, each audited with her name. Bob stays
    // signed in, in the lobby, until she deactivates him.
    bob.keys(&["Escape"]);
    bob.wait_for("New game");
    bob.keys(&["l"]);
    bob.wait_for("Club lobby — Bob");
    let olga = session(&c.olga, "olga");
    to_club(&olga, "Club lobby — Olga");
    olga.keys(&["Down", "d"]);
    olga.wait_for("Bob is inactive");
    let gone = bob.wait_for("EXITED");
    assert!(gone.contains("your access to the club has ended"), "{gone}");
    let again = Command::new("ssh")
        .args(ssh_args(&port, &c.bob))
        .args(["bob@127.0.0.1", "true"])
        .output()
        .expect("ssh runs");
    assert_eq!(again.status.code(), Some(255), "{}", stderr(&again));
    olga.keys(&["a"]);
    olga.wait_for("Name of the new member");
    olga.line("Zed");
    olga.wait_for("Added #8 Zed");
    olga.keys(&["Tab"]);
    olga.wait_for("Club: Tournaments");
    olga.keys(&["n"]);
    olga.wait_for(" New tournament ");
    olga.line("Spring");
    olga.wait_for("Created #3 Spring");
    olga.keys(&["Down", "Enter"]);
    olga.wait_for("┌ Winter ");
    olga.keys(&["1"]);
    olga.wait_for("Recorded Bob – Fay");
    olga.keys(&["Down", "="]);
    olga.wait_for("Recorded Cor – Dirk");
    olga.keys(&["p"]);
    olga.wait_for("Round 2 paired");
    olga.keys(&["Escape"]);
    olga.wait_for("Tab switches lists");
    olga.keys(&["Down", "Enter"]);
    olga.wait_for("┌ Autumn ");
    olga.keys(&["Down", "1"]);
    olga.wait_for("Recorded Cor – Dirk");
    olga.keys(&["Escape"]);
    olga.wait_for("Tab switches lists");
    olga.keys(&["Tab", "Tab"]);
    olga.wait_for("Club: Settings");
    olga.keys(&["Down", "e", "BSpace", "BSpace"]);
    olga.line("32");
    olga.wait_for("k-provisional = 32; ratings recomputed");
    olga.keys(&["Tab"]);
    olga.wait_for("Olga (#7)");
    let all = audit(&c.db);
    let hers: Vec<&serde_json::Value> = all[rows..].iter().collect();
    let actions: Vec<&str> = hers
        .iter()
        .map(|e| e["action"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        actions,
        [
            "member active",
            "member add",
            "tournament create",
            "tournament result",
            "tournament result",
            "tournament pair",
            "tournament result",
            "settings"
        ]
    );
    for e in &hers {
        assert_eq!(
            (
                e["actor"].as_str(),
                e["actor_kind"].as_str(),
                e["actor_id"].as_i64()
            ),
            (Some("Olga"), Some("member"), Some(7)),
            "{e}"
        );
    }
    let correction = hers[6];
    assert_eq!(
        (correction["old"].as_str(), correction["new"].as_str()),
        (Some("1-1"), Some("2-0"))
    );

    // Eva arbitrates Autumn: she records and pairs there, and is refused in Winter.
    let rows = audit(&c.db).len();
    let eva = session(&c.eva, "eva");
    to_club(&eva, "Club lobby — Eva");
    eva.keys(&["Tab"]);
    eva.wait_for("Club: Tournaments");
    eva.keys(&["Down", "Down", "Enter"]);
    let page = eva.wait_for("┌ Autumn ");
    assert!(
        page.contains("p pair next") && page.contains("arbiter: Eva"),
        "{page}"
    );
    eva.keys(&["="]);
    eva.wait_for("Recorded Bob – Fay");
    eva.keys(&["p"]);
    eva.wait_for("Round 2 paired");
    eva.keys(&["Escape"]);
    eva.wait_for("Tab switches lists");
    eva.keys(&["Up", "Enter"]);
    let page = eva.wait_for("┌ Winter ");
    assert!(!page.contains("p pair next"), "{page}");
    let winter = tables(&c.db);
    eva.keys(&["1"]);
    eva.wait_for("only an organiser or this tournament's arbiter can record results");
    eva.keys(&["p"]);
    eva.wait_for("only an organiser or this tournament's arbiter can pair rounds");
    assert_eq!(tables(&c.db), winter);
    // Autumn is tournament #1.
    let actions: Vec<(String, String, Option<i64>)> = audit(&c.db)[rows..]
        .iter()
        .map(|e| {
            (
                e["actor"].as_str().unwrap_or("").to_string(),
                e["action"].as_str().unwrap_or("").to_string(),
                e["tournament_id"].as_i64(),
            )
        })
        .collect();
    let eva_did = |action: &str| ("Eva".to_string(), action.to_string(), Some(1));
    assert_eq!(
        actions,
        [eva_did("tournament result"), eva_did("tournament pair")]
    );

    // Her key removed on the command line, in another process: her session ends at once.
    let keys = club(&c.db, &["member", "keys", "Eva"]);
    let fingerprint = stdout(&keys)
        .split_whitespace()
        .next()
        .expect("Eva's key")
        .to_string();
    ok(&c.db, &["member", "remove-key", &fingerprint]);
    let gone = eva.wait_for("EXITED");
    assert!(gone.contains("your access to the club has ended"), "{gone}");
    olga.wait_for("Olga (#7)");
}

#[test]
fn an_address_that_fails_to_sign_in_too_often_is_blocked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let member = member_with_key(dir.path(), &db.display().to_string(), "Ton");
    let stranger = dir.path().join("stranger");
    keygen(&stranger);
    let log = dir.path().join("serve.log");
    let log_text = log.display().to_string();
    let (_server, port) = serve(
        &db,
        &dir.path().join("host_key"),
        &[
            "--signin-failures",
            "3",
            "--block-minutes",
            "1",
            "--log",
            &log_text,
        ],
    );
    let try_key = |key: &Path| {
        Command::new("ssh")
            .args(ssh_args(&port, key))
            .args(["x@127.0.0.1", "true"])
            .output()
            .expect("ssh runs")
    };
    // The member's key works before.
    let fine = try_key(&member);
    assert!(
        !stderr(&fine).contains("Permission denied"),
        "{}",
        stderr(&fine)
    );
    for _ in 0..3 {
        let o = try_key(&stranger);
        assert!(stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    }
    // Blocked: now even the right key is refused from this address.
    let o = try_key(&member);
    assert!(stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(
        text.contains("127.0.0.1: blocked for 1 min after 3 failed sign-ins in a minute"),
        "{text}"
    );
    assert!(text.contains("the address is blocked"), "{text}");
}
