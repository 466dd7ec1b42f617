//! `draughts club` end to end: members through the command line, exit codes, formats, and
//! several processes writing one database at once.

mod common;

use common::{club, stderr, stdout};
use std::path::Path;

#[test]
fn members_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let o = club(
        &db,
        &[
            "member",
            "add",
            "Ton Sijbrands",
            "--rating",
            "international=1650",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "added #1 Ton Sijbrands");

    // Refused by the rules: exit 1; bad input: exit 2; one line saying why.
    let o = club(&db, &["member", "add", "TON SIJBRANDS"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("exists already"), "{}", stderr(&o));
    let o = club(&db, &["member", "add", "Baba Sy", "--rating", "chess=1500"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));

    let csv = dir.path().join("members.csv");
    std::fs::write(
        &csv,
        "name,federation_id,contact,english\nBaba Sy,,b@example.org,1500\nIser Kuperman,KNDB-1,,\n",
    )
    .expect("csv");
    let o = club(
        &db,
        &["member", "import", csv.to_str().expect("utf-8 path")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = club(&db, &["member", "deactivate", "Iser Kuperman"]);
    assert!(o.status.success(), "{}", stderr(&o));

    let o = club(&db, &["member", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let names: Vec<&str> = list
        .as_array()
        .expect("an array")
        .iter()
        .map(|m| m["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["Baba Sy", "Ton Sijbrands"]);
    let o = club(&db, &["member", "list", "--all", "--csv"]);
    let text = stdout(&o);
    assert!(text.contains("Iser Kuperman,KNDB-1,,no"), "{text}");
    let o = club(&db, &["member", "list", "--search", "example.org"]);
    assert!(
        stdout(&o).contains("Baba Sy") && !stdout(&o).contains("Ton"),
        "{}",
        stdout(&o)
    );

    // An SSH key from a file, as ssh-keygen writes it; its fingerprint is ssh-keygen's.
    let keygen = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "ton@club", "-f"])
        .arg(dir.path().join("ton"))
        .status()
        .expect("ssh-keygen (openssh-client) is installed; .ci/run installs it");
    assert!(keygen.success());
    let pubfile = dir.path().join("ton.pub");
    let pubpath = pubfile.to_str().expect("utf-8 path");
    let o = club(&db, &["member", "add-key", "Ton Sijbrands", pubpath]);
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = std::process::Command::new("ssh-keygen")
        .arg("-lf")
        .arg(&pubfile)
        .output()
        .expect("ssh-keygen -lf");
    let fingerprint = String::from_utf8_lossy(&printed.stdout)
        .split_whitespace()
        .nth(1)
        .expect("a fingerprint")
        .to_string();
    assert_eq!(stdout(&o).trim(), format!("added {fingerprint}"));
    let o = club(&db, &["member", "keys", "Ton Sijbrands"]);
    assert!(stdout(&o).starts_with(&fingerprint), "{}", stdout(&o));
    let o = club(&db, &["member", "add-key", "Baba Sy", pubpath]);
    assert_eq!(o.status.code(), Some(1), "one key, one member");
    let o = club(
        &db,
        &["member", "add-key", "Baba Sy", "ssh-ed25519 nonsense"],
    );
    assert_eq!(o.status.code(), Some(2));

    // Export, then import into a new database: the same members.
    let o = club(&db, &["member", "export"]);
    std::fs::write(&csv, &o.stdout).expect("csv");
    let other = dir.path().join("other.sqlite");
    let o = club(
        &other,
        &["member", "import", csv.to_str().expect("utf-8 path")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Ids and roles are the database's own (the first member of the new club owns it);
    // everything else carries over.
    let members = |db: &Path| {
        let o = club(db, &["member", "list", "--all", "--json"]);
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let mut owners = Vec::new();
        for m in v.as_array_mut().expect("an array") {
            let m = m.as_object_mut().expect("an object");
            m.remove("id");
            if m.remove("role") == Some(serde_json::json!("owner")) {
                owners.push(m["name"].as_str().expect("a name").to_string());
            }
        }
        (v, owners)
    };
    let (ours, our_owners) = members(&db);
    let (theirs, their_owners) = members(&other);
    assert_eq!(ours, theirs);
    assert_eq!(our_owners, ["Ton Sijbrands"]);
    assert_eq!(their_owners, ["Baba Sy"]);
}

#[test]
fn concurrent_writers_lose_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    assert!(club(&db, &["member", "list"]).status.success());
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let db = db.clone();
            std::thread::spawn(move || {
                for i in 0..15 {
                    let name = format!("Writer {w} member {i}");
                    let o = club(&db, &["member", "add", &name]);
                    assert!(o.status.success(), "{name}: {}", stderr(&o));
                }
            })
        })
        .collect();
    for w in writers {
        w.join().expect("writer thread");
    }
    let o = club(&db, &["member", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(list.as_array().expect("an array").len(), 60);
}

#[test]
fn a_database_from_a_newer_program_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    std::fs::write(
        &db,
        b"not a database at all, but long enough to look like a header....",
    )
    .expect("file");
    let o = club(&db, &["member", "list"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("club.sqlite"), "{}", stderr(&o));
}

#[test]
fn a_round_robin_on_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    for name in ["Ann", "Bob", "Cor", "Dirk", "Eva"] {
        assert!(club(&db, &["member", "add", name]).status.success());
    }
    let ok = |args: &[&str]| {
        let o = club(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let o = club(
        &db,
        &["tournament", "create", "X", "--tiebreaks", "sb,coin-toss"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("coin-toss"), "{}", stderr(&o));
    ok(&[
        "tournament",
        "create",
        "Club RR",
        "--tc",
        "80m+1m",
        "--tiebreaks",
        "sb,buchholz,wins",
    ]);
    ok(&[
        "tournament",
        "enter",
        "Club RR",
        "Ann",
        "Bob",
        "Cor",
        "Dirk",
        "Eva",
    ]);
    let round1 = ok(&["tournament", "pair", "Club RR"]);
    // Berger, 5 players (6 with the bye): 1-6, 2-5, 3-4 → Ann has the bye.
    assert!(
        round1.contains("Bob – Eva") && round1.contains("Cor – Dirk"),
        "{round1}"
    );
    assert!(round1.contains("Ann – (bye)"), "{round1}");
    let o = club(&db, &["tournament", "pair", "Club RR"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "missing results refuse the next round"
    );
    assert!(stderr(&o).contains("missing result"), "{}", stderr(&o));
    let result = |w: &str, r: &str, b: &str| {
        club(
            &db,
            &["tournament", "result", "Club RR", "--round", "1", w, r, b],
        )
    };
    assert!(result("Bob", "2-0", "Eva").status.success());
    assert!(result("Cor", "1-1", "Dirk").status.success());
    let o = result("Bob", "3-0", "Eva");
    assert_eq!(o.status.code(), Some(2));
    ok(&["tournament", "pair", "Club RR"]);
    let table: serde_json::Value =
        serde_json::from_str(&ok(&["tournament", "standings", "Club RR", "--json"])).expect("JSON");
    let row = |name: &str| {
        table
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["name"] == name)
            .cloned()
            .expect("a row")
    };
    // Round 1: Bob won (2), Cor and Dirk drew (1 each), Ann had a bye (2); round 2 gives Dirk
    // the bye (2 more).
    assert_eq!(row("Bob")["points"], 2.0);
    assert_eq!(row("Cor")["points"], 1.0);
    assert_eq!(row("Dirk")["points"], 3.0);
    assert_eq!(row("Ann")["points"], 2.0);
    assert_eq!(row("Eva")["points"], 0.0);
    // Ratings follow the rated results: everyone starts at 1200, Bob beat Eva.
    let history: serde_json::Value =
        serde_json::from_str(&ok(&["rating", "history", "Bob", "--json"])).expect("JSON");
    let h = &history.as_array().expect("entries")[0];
    assert_eq!(
        (h["opponent"].as_str(), h["before"].as_f64()),
        (Some("Eva"), Some(1200.0))
    );
    assert_eq!(h["after"].as_f64(), Some(1220.0));
    let list = ok(&["rating", "list"]);
    assert!(
        list.lines().next().is_some_and(|l| l.contains("Bob")),
        "{list}"
    );
    let csv = ok(&["tournament", "standings", "Club RR", "--csv"]);
    assert_eq!(
        csv.lines().next(),
        Some("place,name,points,games,sb,buchholz,wins")
    );
    let cross = ok(&["tournament", "crosstable", "Club RR"]);
    assert!(cross.contains("Bob") && cross.contains('×'), "{cross}");
    let x: serde_json::Value =
        serde_json::from_str(&ok(&["tournament", "crosstable", "Club RR", "--json"]))
            .expect("JSON");
    let names: Vec<&str> = x["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["name"].as_str().expect("a name"))
        .collect();
    let (bob, eva) = (
        names.iter().position(|n| *n == "Bob").expect("Bob"),
        names.iter().position(|n| *n == "Eva").expect("Eva"),
    );
    assert_eq!(x["cells"][bob][eva], serde_json::json!([2.0]));
    assert_eq!(x["cells"][eva][bob], serde_json::json!([0.0]));
    // Round 2's games come in as PDN; the export has every game with its tags.
    let pdn = dir.path().join("round2.pdn");
    std::fs::write(
        &pdn,
        "[Round \"2\"]\n[White \"Eva\"]\n[Black \"Cor\"]\n[Result \"0-2\"]\n1. 32-28 0-2\n\n\
         [Round \"2\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-1\"]\n1-1\n",
    )
    .expect("pdn");
    ok(&[
        "tournament",
        "import",
        "Club RR",
        pdn.to_str().expect("utf-8 path"),
    ]);
    let export = ok(&["tournament", "export", "Club RR"]);
    let games = draughts::rules::pdn::read_games(&export, draughts::Variant::International);
    assert_eq!(games.len(), 4, "{export}");
    assert!(games.iter().all(Result::is_ok), "{export}");
    assert!(
        export.contains("[Event \"Club RR\"]") && export.contains("1. 32-28"),
        "{export}"
    );
    // Games from elsewhere join the archive; the export holds every recorded game.
    let famous = dir.path().join("famous.pdn");
    std::fs::write(
        &famous,
        "[Event \"Worlds\"]\n[White \"Sijbrands\"]\n[Black \"Baba Sy\"]\n1. 32-28 *\n",
    )
    .expect("pdn");
    ok(&["archive", "import", famous.to_str().expect("utf-8 path")]);
    let all: serde_json::Value =
        serde_json::from_str(&ok(&["archive", "list", "--json"])).expect("JSON");
    assert_eq!(all.as_array().expect("games").len(), 3, "{all}");
    let every = ok(&["archive", "export"]);
    assert_eq!(
        draughts::rules::pdn::read_games(&every, draughts::Variant::International).len(),
        3
    );
    let shown = ok(&["tournament", "show", "Club RR", "--round", "2"]);
    assert!(
        shown.contains("Eva – Cor") && shown.contains("Ann – Bob"),
        "{shown}"
    );
}

#[test]
fn a_process_killed_mid_write_leaves_the_database_consistent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let csv = dir.path().join("many.csv");
    let mut text = String::from("name,contact\n");
    for i in 0..200_000 {
        text.push_str(&format!("Member number {i},m{i}@example.org\n"));
    }
    std::fs::write(&csv, text).expect("csv");
    assert!(club(&db, &["member", "add", "Before"]).status.success());
    for wait in [50u64, 150, 400] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_draughts"))
            .args(["club", "--db"])
            .arg(&db)
            .args(["member", "import"])
            .arg(&csv)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(wait));
        // SIGKILL: no chance to clean up.
        let _ = child.kill();
        let _ = child.wait();
        let o = club(&db, &["member", "list", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let n = list.as_array().expect("an array").len();
        // All of the import or none of it, and what was there before is still there.
        assert!(n == 1 || n == 200_001, "after {wait} ms: {n} members");
        if n == 200_001 {
            break;
        }
    }
    let conn = rusqlite::Connection::open(&db).expect("open");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity check");
    assert_eq!(check, "ok");
}

#[test]
fn a_swiss_on_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let names = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fay"];
    for name in names {
        assert!(club(&db, &["member", "add", name]).status.success());
    }
    let o = club(&db, &["tournament", "create", "Open", "--system", "swiss"]);
    assert_eq!(o.status.code(), Some(2), "a Swiss needs --rounds");
    let o = club(
        &db,
        &[
            "tournament",
            "create",
            "Open",
            "--system",
            "swiss",
            "--rounds",
            "3",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut entry = vec!["tournament", "enter", "Open"];
    entry.extend(names);
    assert!(club(&db, &entry).status.success());
    let mut met = std::collections::HashSet::new();
    for round in 1..=3 {
        assert!(club(&db, &["tournament", "pair", "Open"]).status.success());
        let o = club(
            &db,
            &[
                "tournament",
                "show",
                "Open",
                "--round",
                &round.to_string(),
                "--json",
            ],
        );
        let games: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        for g in games.as_array().expect("games") {
            let (w, b) = (
                g["white"].as_str().expect("white"),
                g["black"].as_str().expect("black"),
            );
            assert!(
                met.insert((w.min(b).to_string(), w.max(b).to_string())),
                "rematch {w}-{b}"
            );
            let o = club(
                &db,
                &[
                    "tournament",
                    "result",
                    "Open",
                    "--round",
                    &round.to_string(),
                    w,
                    "1-1",
                    b,
                ],
            );
            assert!(o.status.success(), "{}", stderr(&o));
        }
    }
    let o = club(&db, &["tournament", "pair", "Open"]);
    assert_eq!(o.status.code(), Some(1), "three rounds only");
}

#[test]
fn an_organisers_season_from_the_readme() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let ok = |args: &[&str]| {
        let o = club(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    // Thirty members from a CSV file.
    let mut csv = String::from("name,international\n");
    for i in 1..=30 {
        csv.push_str(&format!("Member {i:02},{}\n", 1300 + 17 * i));
    }
    let file = dir.path().join("members.csv");
    std::fs::write(&file, csv).expect("csv");
    ok(&["member", "import", file.to_str().expect("utf-8 path")]);
    let names: Vec<String> = (1..=30).map(|i| format!("Member {i:02}")).collect();

    // A 7-round Swiss for all thirty.
    ok(&[
        "tournament",
        "create",
        "Club Open",
        "--system",
        "swiss",
        "--rounds",
        "7",
    ]);
    let mut enter = vec!["tournament", "enter", "Club Open"];
    enter.extend(names.iter().map(String::as_str));
    ok(&enter);
    let results = ["2-0", "1-1", "0-2"];
    for round in 1..=7 {
        ok(&["tournament", "pair", "Club Open"]);
        let r = round.to_string();
        let games: serde_json::Value = serde_json::from_str(&ok(&[
            "tournament",
            "show",
            "Club Open",
            "--round",
            &r,
            "--json",
        ]))
        .expect("JSON");
        for (i, g) in games.as_array().expect("games").iter().enumerate() {
            let (w, b) = (
                g["white"].as_str().expect("white"),
                g["black"].as_str().expect("black"),
            );
            ok(&[
                "tournament",
                "result",
                "Club Open",
                "--round",
                &r,
                w,
                results[(i + round) % 3],
                b,
            ]);
        }
    }
    // A 10-player round robin, one result corrected afterwards.
    ok(&["tournament", "create", "Club RR", "--system", "round-robin"]);
    let mut enter = vec!["tournament", "enter", "Club RR"];
    enter.extend(names[..10].iter().map(String::as_str));
    ok(&enter);
    for round in 1..=9 {
        ok(&["tournament", "pair", "Club RR"]);
        let r = round.to_string();
        let games: serde_json::Value = serde_json::from_str(&ok(&[
            "tournament",
            "show",
            "Club RR",
            "--round",
            &r,
            "--json",
        ]))
        .expect("JSON");
        for g in games.as_array().expect("games") {
            let (w, b) = (
                g["white"].as_str().expect("white"),
                g["black"].as_str().expect("black"),
            );
            ok(&[
                "tournament",
                "result",
                "Club RR",
                "--round",
                &r,
                w,
                "2-0",
                b,
            ]);
        }
    }
    let before = ok(&["rating", "history", "Member 01", "--json"]);
    let first: serde_json::Value = serde_json::from_str(&ok(&[
        "tournament",
        "show",
        "Club RR",
        "--round",
        "1",
        "--json",
    ]))
    .expect("JSON");
    let g = &first[0];
    let (w, b) = (
        g["white"].as_str().expect("white"),
        g["black"].as_str().expect("black"),
    );
    ok(&[
        "tournament",
        "result",
        "Club RR",
        "--round",
        "1",
        w,
        "0-2",
        b,
    ]);
    let after = ok(&["rating", "history", "Member 01", "--json"]);
    assert_ne!(before, after, "the correction re-ran the ratings");

    let standings: serde_json::Value =
        serde_json::from_str(&ok(&["tournament", "standings", "Club RR", "--json"])).expect("JSON");
    let total: f64 = standings
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["points"].as_f64().expect("points"))
        .sum();
    assert_eq!(total, 45.0 * 2.0, "45 games at 2 points each");
    let cross = ok(&["tournament", "crosstable", "Club RR"]);
    assert_eq!(cross.lines().count(), 11, "{cross}");
    let swiss: serde_json::Value =
        serde_json::from_str(&ok(&["tournament", "standings", "Club Open", "--json"]))
            .expect("JSON");
    assert_eq!(swiss.as_array().expect("rows").len(), 30);
    assert!(ok(&["rating", "list"]).lines().count() >= 30);
}

/// An arbiter swaps two players so that round 2 repeats round 1: the swap is made with a warning,
/// and `tournament check` names the rematches (C.04.3 C1) and exits 1.
#[test]
fn check_finds_a_hand_made_rematch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let ok = |args: &[&str]| {
        let o = club(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    for (name, rating) in [
        ("Ann", "2000"),
        ("Bob", "1900"),
        ("Cor", "1800"),
        ("Dirk", "1700"),
    ] {
        ok(&[
            "member",
            "add",
            name,
            "--rating",
            &format!("international={rating}"),
        ]);
    }
    ok(&[
        "tournament",
        "create",
        "Cup",
        "--system",
        "swiss",
        "--rounds",
        "3",
    ]);
    ok(&["tournament", "enter", "Cup", "Ann", "Bob", "Cor", "Dirk"]);
    ok(&["tournament", "pair", "Cup"]);
    let round1: serde_json::Value =
        serde_json::from_slice(&ok(&["tournament", "show", "Cup", "--json"]).stdout).expect("JSON");
    let games: Vec<(String, String)> = round1
        .as_array()
        .expect("pairings")
        .iter()
        .map(|p| {
            (
                p["white"].as_str().unwrap().to_string(),
                p["black"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (w, b) in &games {
        ok(&["tournament", "result", "Cup", w, "1-1", b, "--round", "1"]);
    }
    ok(&["tournament", "pair", "Cup"]);
    let o = ok(&["tournament", "check", "Cup"]);
    assert!(
        stdout(&o).contains("round 2: 0 finding(s)"),
        "the program's own pairing keeps the criteria: {}",
        stdout(&o)
    );
    // Round 1 was a–b and c–d. Putting b in the place of a's round-2 opponent repeats both.
    let (a, b) = (&games[0].0, &games[0].1);
    let shown: serde_json::Value =
        serde_json::from_slice(&ok(&["tournament", "show", "Cup", "--json"]).stdout).expect("JSON");
    let c = shown
        .as_array()
        .expect("pairings")
        .iter()
        .filter(|p| p["round"] == 2)
        .find_map(|p| {
            let (w, bl) = (p["white"].as_str()?, p["black"].as_str()?);
            (w == a).then_some(bl).or((bl == a).then_some(w))
        })
        .expect("a plays in round 2")
        .to_string();
    let c = &c;
    let o = ok(&["tournament", "swap", "Cup", b, c]);
    assert!(
        stderr(&o).contains("warning: C.04.3 C1"),
        "the swap is allowed with a warning: {}",
        stderr(&o)
    );
    let o = club(&db, &["tournament", "check", "Cup", "--round", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("C.04.3 C1") && text.contains(a.as_str()) && text.contains(b.as_str()),
        "{text}"
    );
    assert!(stderr(&o).contains("absolute criteri"), "{}", stderr(&o));
    let o = club(&db, &["tournament", "check", "Cup", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let found: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rematches = found
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["article"] == "C.04.3 C1" && f["absolute"] == true)
        .count();
    assert_eq!(rematches, 2, "{found}");
    // Round 1 had nothing to break.
    let o = ok(&["tournament", "check", "Cup", "--round", "1"]);
    assert!(
        stdout(&o).contains("round 1: 0 finding(s)"),
        "{}",
        stdout(&o)
    );
    // Paired again, round 2 gives everyone the colour they did not have (C.12 lets the Dutch
    // system exchange S2 for it). Reversing a board's colours breaks no absolute criterion but
    // leaves two preferences unmet where the Dutch pairing leaves none.
    ok(&["tournament", "unpair", "Cup"]);
    ok(&["tournament", "pair", "Cup"]);
    let o = ok(&["tournament", "check", "Cup"]);
    assert!(
        stdout(&o).contains("round 2: 0 finding(s)"),
        "{}",
        stdout(&o)
    );
    let shown: serde_json::Value = serde_json::from_slice(
        &ok(&["tournament", "show", "Cup", "--round", "2", "--json"]).stdout,
    )
    .expect("JSON");
    let white = shown[0]["white"].as_str().expect("a board").to_string();
    ok(&["tournament", "swap", "Cup", &white]);
    let o = ok(&["tournament", "check", "Cup"]);
    let text = stdout(&o);
    assert!(
        text.contains("C.04.3 C.12") && text.contains(&white),
        "a quality criterion, with the players: {text}"
    );
    assert!(
        text.contains("2 finding(s), 0 against an absolute criterion"),
        "{text}"
    );
}

#[test]
fn roles_arbiters_reports_and_the_audit_on_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let ok = |args: &[&str]| {
        let o = club(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    for n in ["Ann", "Bob", "Cor", "Dirk", "Eva"] {
        ok(&["member", "add", n]);
    }
    // The first member owns the club; roles are given and shown.
    assert_eq!(
        ok(&["member", "role", "Bob", "organiser"]).trim(),
        "#2 Bob is organiser"
    );
    let list = ok(&["member", "list"]);
    assert!(
        list.lines()
            .any(|l| l.contains("Ann") && l.ends_with("owner")),
        "{list}"
    );
    assert!(
        list.lines()
            .any(|l| l.contains("Bob") && l.ends_with("organiser")),
        "{list}"
    );
    let o = club(&db, &["member", "role", "Ann", "member"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("last owner"), "{}", stderr(&o));
    let o = club(&db, &["member", "deactivate", "Ann"]);
    assert_eq!(o.status.code(), Some(1));
    let o = club(&db, &["member", "role", "Cor", "captain"]);
    assert_eq!(o.status.code(), Some(2));

    // A tournament whose reports the opponent confirms, with an arbiter.
    ok(&["tournament", "create", "Cup", "--reports", "opponent"]);
    ok(&["tournament", "enter", "Cup", "Bob", "Cor", "Dirk", "Eva"]);
    ok(&["tournament", "pair", "Cup"]);
    assert_eq!(
        ok(&["tournament", "arbiter", "Cup", "Ann"]).trim(),
        "Ann is an arbiter of Cup"
    );
    assert_eq!(ok(&["tournament", "arbiters", "Cup"]).trim(), "Ann");
    ok(&["tournament", "arbiter", "Cup", "Ann", "--remove"]);
    assert_eq!(ok(&["tournament", "arbiters", "Cup"]).trim(), "");
    ok(&["tournament", "reports", "Cup", "arbiter"]);
    // Nothing reported: nothing to confirm.
    let o = club(
        &db,
        &["tournament", "confirm", "Cup", "--round", "1", "Bob", "Eva"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no reported result"), "{}", stderr(&o));
    // The local user is no player: a report is not theirs to make.

    // The audit: every change, by the local user, filtered by member, tournament and date.
    let all: serde_json::Value = serde_json::from_str(&ok(&["audit", "--json"])).expect("JSON");
    let all = all.as_array().expect("an array");
    assert_eq!(all.len(), 12, "{all:#?}");
    assert!(
        all.iter()
            .all(|e| e["actor_kind"] == "local" && e["actor_id"].is_null())
    );
    let role = &all[5];
    assert_eq!(
        (
            role["action"].as_str(),
            role["old"].as_str(),
            role["new"].as_str()
        ),
        (Some("member role"), Some("member"), Some("organiser"))
    );
    let bob: serde_json::Value =
        serde_json::from_str(&ok(&["audit", "--member", "Bob", "--json"])).expect("JSON");
    assert_eq!(bob.as_array().map(Vec::len), Some(2), "{bob:#?}");
    let cup: serde_json::Value =
        serde_json::from_str(&ok(&["audit", "--tournament", "Cup", "--json"])).expect("JSON");
    let actions: Vec<&str> = cup
        .as_array()
        .expect("an array")
        .iter()
        .map(|e| e["action"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        actions,
        [
            "tournament create",
            "tournament enter",
            "tournament pair",
            "tournament arbiter",
            "tournament arbiter",
            "tournament reports"
        ]
    );
    let text = ok(&["audit", "--since", "2000-01-01"]);
    assert_eq!(text.lines().count(), 12, "{text}");
    assert!(
        text.contains("tournament reports") && text.contains("[opponent → arbiter]"),
        "{text}"
    );
    assert_eq!(ok(&["audit", "--since", "2999-01-01"]), "");
    let o = club(&db, &["audit", "--since", "yesterday"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not a date"), "{}", stderr(&o));
}
