//! The published site in a real browser (headless Chromium): the tables a reader sees are the
//! command line's standings and crosstable, the game viewer shows the rules core's position at
//! every ply of a real game, and a page without script still has the moves.

use draughts::Variant;
use draughts::rules::pdn::{read_bytes, write_game};
use std::path::{Path, PathBuf};

mod common;
use common::{club, stderr, stdout};
#[path = "support/browser.rs"]
mod browser;
use browser::{Page, attribute, dom, points, rows, text};

fn ok(db: &Path, args: &[&str]) -> String {
    let o = club(db, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A Swiss of five over three rounds (a bye each round, Eva absent in round 2, Dirk withdrawn
/// before round 3 so his game is a forfeit) and a round robin of four whose first game is `game`,
/// published to `site/`.
struct Club {
    dir: tempfile::TempDir,
    db: PathBuf,
    site: PathBuf,
}

fn the_club(game: Option<&str>) -> Club {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    for n in ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fay"] {
        ok(
            &db,
            &["member", "add", n, "--contact", &format!("{n}@example.org")],
        );
    }
    ok(
        &db,
        &[
            "tournament",
            "create",
            "Club Open",
            "--system",
            "swiss",
            "--rounds",
            "3",
            "--tiebreaks",
            "buchholz,sb",
        ],
    );
    ok(
        &db,
        &[
            "tournament",
            "enter",
            "Club Open",
            "Ann",
            "Bob",
            "Cor",
            "Dirk",
            "Eva",
        ],
    );
    ok(
        &db,
        &["tournament", "absent", "Club Open", "Eva", "--round", "2"],
    );
    let results = ["2-0", "1-1", "0-2"];
    for round in 1..=3 {
        if round == 3 {
            ok(&db, &["tournament", "pair", "Club Open"]);
            ok(&db, &["tournament", "withdraw", "Club Open", "Dirk"]);
        } else {
            ok(&db, &["tournament", "pair", "Club Open"]);
        }
        let shown: serde_json::Value = serde_json::from_str(&ok(
            &db,
            &[
                "tournament",
                "show",
                "Club Open",
                "--round",
                &round.to_string(),
                "--json",
            ],
        ))
        .expect("JSON");
        for (i, p) in shown.as_array().expect("pairings").iter().enumerate() {
            let (Some(w), Some(b)) = (p["white"].as_str(), p["black"].as_str()) else {
                continue;
            };
            if !p["result"].is_null() {
                continue;
            }
            ok(
                &db,
                &[
                    "tournament",
                    "result",
                    "Club Open",
                    "--round",
                    &round.to_string(),
                    w,
                    results[i % 3],
                    b,
                ],
            );
        }
    }
    ok(&db, &["tournament", "create", "Autumn"]);
    ok(
        &db,
        &["tournament", "enter", "Autumn", "Ann", "Bob", "Cor", "Fay"],
    );
    ok(&db, &["tournament", "pair", "Autumn"]);
    let shown: serde_json::Value =
        serde_json::from_str(&ok(&db, &["tournament", "show", "Autumn", "--json"])).expect("JSON");
    let boards = shown.as_array().expect("pairings");
    if let Some(game) = game {
        let p = &boards[0];
        let text = game
            .replace("%WHITE%", p["white"].as_str().unwrap_or(""))
            .replace("%BLACK%", p["black"].as_str().unwrap_or(""));
        let file = dir.path().join("game.pdn");
        std::fs::write(&file, text).expect("the game file");
        ok(
            &db,
            &[
                "tournament",
                "import",
                "Autumn",
                file.to_str().expect("utf-8"),
            ],
        );
    }
    for p in boards.iter().skip(usize::from(game.is_some())) {
        let (w, b) = (
            p["white"].as_str().unwrap_or(""),
            p["black"].as_str().unwrap_or(""),
        );
        ok(
            &db,
            &[
                "tournament",
                "result",
                "Autumn",
                "--round",
                "1",
                w,
                "1-1",
                b,
            ],
        );
    }
    let site = dir.path().join("site");
    ok(
        &db,
        &[
            "publish",
            "--out",
            site.to_str().expect("utf-8"),
            "--title",
            "DC Test",
        ],
    );
    Club { dir, db, site }
}

fn url(site: &Path, path: &str) -> String {
    format!("file://{}/{path}", site.display())
}

fn page_of(c: &Club, tournament: &str) -> String {
    let id: serde_json::Value =
        serde_json::from_str(&ok(&c.db, &["tournament", "list", "--json"])).expect("JSON");
    let t = id
        .as_array()
        .expect("tournaments")
        .iter()
        .find(|t| t["name"] == tournament)
        .expect("the tournament");
    let slug = tournament.to_lowercase().replace(' ', "-");
    format!("tournaments/{}-{slug}.html", t["id"])
}

/// The standings and crosstable a reader sees at `address` (the tournament's page) equal the
/// command line's.
fn assert_tables(c: &Club, tournament: &str, address: &str) {
    let html = dom(address);
    let page = Page::parse(&html);
    let standings: serde_json::Value = serde_json::from_str(&ok(
        &c.db,
        &["tournament", "standings", tournament, "--json"],
    ))
    .expect("JSON");
    let table = page.by_id("standings-table").expect("the standings table");
    let seen = rows(&table);
    let want = standings.as_array().expect("rows");
    assert_eq!(seen.len(), want.len(), "{tournament}");
    let t: serde_json::Value =
        serde_json::from_str(&ok(&c.db, &["tournament", "list", "--json"])).expect("JSON");
    let breaks: Vec<String> = t
        .as_array()
        .and_then(|all| all.iter().find(|x| x["name"] == tournament))
        .and_then(|x| x["tiebreaks"].as_array().cloned())
        .expect("tie-breaks")
        .iter()
        .map(|b| b.as_str().unwrap_or("").to_string())
        .collect();
    for (cells, row) in seen.iter().zip(want) {
        let name = text(&cells[1]).replace(" withdrawn", "");
        assert_eq!(text(&cells[0]), row["place"].to_string(), "{name}");
        assert_eq!(name, row["name"].as_str().unwrap_or(""));
        assert_eq!(
            points(&text(&cells[2])),
            row["points"].as_f64().unwrap_or(-1.0),
            "{name}"
        );
        assert_eq!(text(&cells[3]), row["games"].to_string(), "{name}");
        for (i, b) in breaks.iter().enumerate() {
            let want = row["tiebreaks"][b].as_f64().unwrap_or(-1.0);
            assert_eq!(points(&text(&cells[4 + i])), want, "{name} {b}");
        }
    }
    let cross: serde_json::Value = serde_json::from_str(&ok(
        &c.db,
        &["tournament", "crosstable", tournament, "--json"],
    ))
    .expect("JSON");
    let table = page.by_id("crosstable-table").expect("the crosstable");
    let seen = rows(&table);
    let cells = cross["cells"].as_array().expect("cells");
    assert_eq!(seen.len(), cells.len());
    for (i, (row, want)) in seen.iter().zip(cells).enumerate() {
        let want = want.as_array().expect("a row");
        let name = text(&row[1]).replace(" withdrawn", "");
        assert_eq!(name, cross["standings"][i]["name"].as_str().unwrap_or(""));
        for (j, w) in want.iter().enumerate() {
            let shown = text(&row[2 + j]);
            let got: Vec<f64> = if i == j {
                assert_eq!(shown, "×");
                Vec::new()
            } else {
                shown.split_whitespace().map(points).collect()
            };
            let w: Vec<f64> = w
                .as_array()
                .expect("points")
                .iter()
                .map(|p| p.as_f64().unwrap_or(-1.0))
                .collect();
            assert_eq!(got, w, "{tournament}: {name} against column {}", j + 1);
        }
    }
}

#[test]
fn the_published_standings_and_crosstables_are_the_command_lines() {
    let c = the_club(None);
    for t in ["Club Open", "Autumn"] {
        assert_tables(&c, t, &url(&c.site, &page_of(&c, t)));
    }
    // The same from the club server, live.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["serve", "--http", "127.0.0.1:0", "--db"])
        .arg(&c.db)
        .arg("--host-key")
        .arg(c.dir.path().join("host_key"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut server = Killed(child);
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.0.stdout.take().expect("stdout")),
        &mut first,
    )
    .expect("the server says where it listens");
    let web = first.trim().trim_start_matches("web pages on ").to_string();
    for t in ["Club Open", "Autumn"] {
        assert_tables(&c, t, &format!("{web}/{}", page_of(&c, t)));
    }
    // Byes, the absence, the withdrawal and the forfeit are on the Swiss's page as a reader
    // sees it.
    let html = dom(&url(&c.site, &page_of(&c, "Club Open")));
    for mark in ["bye", "Absent: Eva", "withdrawn"] {
        assert!(html.contains(mark), "{mark}");
    }
    assert!(html.contains("+ –") || html.contains("– +"), "the forfeit");
    let _ = &c.dir;
}

/// A child process killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A real game from the corpus (Sijbrands's games, as Moby Dam's author collected them), with
/// its players replaced by the pairing's.
fn real_game() -> Option<(String, usize)> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/pdn/international/mobydam_sijbgant.pdn");
    let Ok(bytes) = std::fs::read(&file) else {
        eprintln!(
            "SKIPPED: {} is absent; the viewer is not checked against a real game",
            file.display()
        );
        return None;
    };
    let mut game = read_bytes(&bytes, Variant::International)
        .into_iter()
        .nth(4)
        .expect("the fifth game")
        .expect("it reads");
    game.tags = vec![
        ("Event".into(), "Autumn".into()),
        ("Round".into(), "1".into()),
        ("White".into(), "%WHITE%".into()),
        ("Black".into(), "%BLACK%".into()),
    ];
    if game.result == draughts::rules::pdn::GameResult::Unfinished {
        game.set_result(draughts::rules::pdn::GameResult::Draw);
    }
    let plies = game.line.moves.len();
    Some((write_game(&game), plies))
}

#[test]
fn the_viewer_shows_the_rules_position_at_every_ply() {
    let Some((text_of_game, plies)) = real_game() else {
        return;
    };
    let c = the_club(Some(&text_of_game));
    let games: Vec<PathBuf> = std::fs::read_dir(c.site.join("games"))
        .expect("games")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    assert_eq!(games.len(), 1);
    let page = games[0].clone();
    // The positions by the rules core.
    let record = std::fs::read(page.with_extension("pdn")).expect("the game's PDN");
    let game = read_bytes(&record, Variant::International)
        .remove(0)
        .expect("the record reads");
    let mut positions = vec![game.start];
    for m in &game.line.moves {
        let next = positions.last().expect("a position").play(&m.mv);
        positions.push(next);
    }
    assert_eq!(positions.len(), plies + 1);
    let check = |ply: usize| {
        let html = dom(&format!("file://{}#ply={ply}", page.display()));
        let dom = Page::parse(&html);
        let board = dom.by_id("board").expect("the board");
        assert_eq!(attribute(&board, "data-ply"), Some(ply.to_string()));
        let squares = dom.all("g", Some(("data-square", None)));
        assert_eq!(squares.len(), 50);
        for sq in squares {
            let n: u32 = attribute(&sq, "data-square")
                .and_then(|s| s.parse().ok())
                .expect("a number");
            let shown = attribute(&sq, "data-piece").unwrap_or_default();
            let square = draughts::Square::new(n, Variant::International).expect("a square");
            let want = match positions[ply].piece_at(square) {
                None => "",
                Some(p) => match (p.color, p.kind) {
                    (draughts::Color::White, draughts::Kind::Man) => "w",
                    (draughts::Color::White, draughts::Kind::King) => "W",
                    (draughts::Color::Black, draughts::Kind::Man) => "b",
                    (draughts::Color::Black, draughts::Kind::King) => "B",
                },
            };
            assert_eq!(shown, want, "ply {ply}, square {n}");
        }
    };
    // Two browsers at a time: the machine has two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let ply = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if ply > plies {
                        return;
                    }
                    check(ply);
                }
            });
        }
    });
}

#[test]
fn without_script_a_game_page_still_has_its_moves_and_final_position() {
    let game = "[Event \"Autumn\"]\n[Round \"1\"]\n[White \"%WHITE%\"]\n[Black \"%BLACK%\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
    let c = the_club(Some(game));
    let games: Vec<PathBuf> = std::fs::read_dir(c.site.join("games"))
        .expect("games")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    // With the script, the page opens where the address says.
    let html = dom(&format!("file://{}#ply=2", games[0].display()));
    let page = Page::parse(&html);
    assert_eq!(
        text(&page.by_id("position").expect("caption")),
        "After 1... 19-23."
    );
    assert!(attribute(&page.by_id("controls").expect("controls"), "hidden").is_none());
    // Without it (the script file gone, so nothing runs): the moves, the final position, and no
    // buttons that would not work.
    std::fs::remove_file(c.site.join("assets/viewer.js")).expect("the script");
    let html = dom(&format!("file://{}#ply=2", games[0].display()));
    let page = Page::parse(&html);
    let moves: Vec<String> = page
        .all("a", Some(("data-ply", None)))
        .iter()
        .map(text)
        .collect();
    assert_eq!(moves, ["32-28", "19-23", "28x19", "14x23"]);
    let caption = page.by_id("position").expect("the caption");
    assert!(
        text(&caption).starts_with("Final position"),
        "{}",
        text(&caption)
    );
    let controls = page.by_id("controls").expect("the controls");
    assert!(attribute(&controls, "hidden").is_some());
    let board = page.by_id("board").expect("the board");
    assert_eq!(attribute(&board, "data-ply"), None);
}

/// Every file of a folder, by path, with its bytes.
fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a folder").flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                let rel = e.path().strip_prefix(root).expect("inside").to_path_buf();
                files.push((rel, std::fs::read(e.path()).expect("a file")));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_publish_killed_on_the_way_leaves_the_previous_site_as_it_was() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let names: Vec<String> = (1..=40).map(|i| format!("Player {i:02}")).collect();
    for n in &names {
        ok(&db, &["member", "add", n]);
    }
    ok(
        &db,
        &[
            "tournament",
            "create",
            "Big Swiss",
            "--system",
            "swiss",
            "--rounds",
            "4",
        ],
    );
    let mut enter = vec!["tournament", "enter", "Big Swiss"];
    enter.extend(names.iter().map(String::as_str));
    ok(&db, &enter);
    for round in 1..=4 {
        ok(&db, &["tournament", "pair", "Big Swiss"]);
        let shown: serde_json::Value = serde_json::from_str(&ok(
            &db,
            &[
                "tournament",
                "show",
                "Big Swiss",
                "--round",
                &round.to_string(),
                "--json",
            ],
        ))
        .expect("JSON");
        let mut text = String::new();
        for p in shown.as_array().expect("pairings") {
            let (Some(w), Some(b)) = (p["white"].as_str(), p["black"].as_str()) else {
                continue;
            };
            text.push_str(&format!(
                "[Event \"Big Swiss\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"1-1\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-1\n\n"
            ));
        }
        let file = dir.path().join("round.pdn");
        std::fs::write(&file, text).expect("the round's games");
        ok(
            &db,
            &[
                "tournament",
                "import",
                "Big Swiss",
                file.to_str().expect("utf-8"),
            ],
        );
    }
    let site = dir.path().join("site");
    let out = site.to_str().expect("utf-8");
    ok(&db, &["publish", "--out", out]);
    let old = snapshot(&site);
    ok(&db, &["member", "add", "Newcomer"]);
    // A publish stopped (SIGKILL) once it has begun writing.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args([
            "club",
            "--db",
            db.to_str().expect("utf-8"),
            "publish",
            "--out",
            out,
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("publish starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a progress line").expect("text");
    assert!(first.starts_with("publish: started"), "{first}");
    child.kill().expect("killed");
    child.wait().expect("ended");
    let after = snapshot(&site);
    let leftover = std::fs::read_dir(dir.path())
        .expect("the folder")
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with(".site.new-"));
    let new_member = after
        .iter()
        .any(|(p, _)| p.to_string_lossy().contains("newcomer"));
    // The old site whole, or the new one whole: never a mixture; stopped on the way, the old.
    if leftover || !new_member {
        assert!(after == old, "a stopped publish changed the site");
    }
    eprintln!(
        "stopped {} the swap",
        if leftover { "before" } else { "after" }
    );
    // The next publish clears what the stopped one left and puts the new site in place.
    ok(&db, &["publish", "--out", out]);
    let done = snapshot(&site);
    assert!(
        done.iter()
            .any(|(p, _)| p.to_string_lossy().contains("newcomer"))
    );
    assert!(
        !std::fs::read_dir(dir.path())
            .expect("the folder")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(".site.new-"))
    );
}

#[test]
fn the_pages_read_on_a_phone_follow_the_readers_colours_and_keys() {
    let c = the_club(Some(
        "[Event \"Autumn\"]\n[Round \"1\"]\n[White \"%WHITE%\"]\n[Black \"%BLACK%\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n",
    ));
    let game = std::fs::read_dir(c.site.join("games"))
        .expect("games")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "html"))
        .expect("a game page");
    let pages = [
        url(&c.site, "index.html"),
        url(&c.site, &page_of(&c, "Club Open")),
        format!("file://{}", game.display()),
    ];
    for page in &pages {
        // 360 pixels wide, as a phone: the page itself never scrolls sideways (wide tables
        // scroll in place).
        let mut w = browser::Watch::open(page);
        w.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": true }),
        );
        w.until("innerWidth", &serde_json::json!(360));
        w.until(
            "document.readyState === 'complete' && document.documentElement.scrollWidth <= innerWidth",
            &serde_json::json!(true),
        );
        // Light by default, dark when the reader's system says so.
        let light = w.eval("getComputedStyle(document.body).backgroundColor");
        w.call(
            "Emulation.setEmulatedMedia",
            serde_json::json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
        );
        let dark = w.eval("getComputedStyle(document.body).backgroundColor");
        assert_eq!(light, serde_json::json!("rgb(253, 252, 248)"), "{page}");
        assert_eq!(dark, serde_json::json!("rgb(22, 21, 15)"), "{page}");
    }
    // The viewer by keys: End, Home and the arrows move through the game.
    let mut w = browser::Watch::open(&pages[2]);
    let ply = "document.getElementById('board').getAttribute('data-ply')";
    w.until(ply, &serde_json::json!("4"));
    for (key, want) in [
        ("Home", "0"),
        ("ArrowRight", "1"),
        ("ArrowRight", "2"),
        ("End", "4"),
        ("ArrowLeft", "3"),
    ] {
        w.call(
            "Input.dispatchKeyEvent",
            serde_json::json!({ "type": "keyDown", "key": key, "code": key }),
        );
        w.until(ply, &serde_json::json!(want));
    }
    assert_eq!(
        w.eval("location.hash"),
        serde_json::json!("#ply=3"),
        "the address follows the position"
    );
    // A click on a move shows it.
    w.eval("document.querySelector('.movelist a[data-ply=\"2\"]').click()");
    w.until(ply, &serde_json::json!("2"));
}
