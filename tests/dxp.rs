//! Two `draughts dxp` processes play each other over loopback TCP.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

mod common;
use common::{draughts, stderr, stdout};
use draughts::rules::notation::to_fen;
use draughts::rules::pdn::{GameResult, read_games};
use draughts::rules::{Move, Variant};

#[test]
fn two_processes_play_a_match_over_loopback() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let (follower_pdn, initiator_pdn) = (dir.join("follower.pdn"), dir.join("initiator.pdn"));
    let mut follower = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args([
            "dxp",
            "--listen",
            "127.0.0.1:0",
            "--level",
            "3",
            "--name",
            "Follower",
        ])
        .arg("--pdn")
        .arg(&follower_pdn)
        .args(["--tablebases", "/nonexistent"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(follower.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_string();

    let initiator = draughts(&[
        "dxp",
        "--connect",
        &addr,
        "--level",
        "4",
        "--name",
        "Initiator",
        "--games",
        "2",
        "--two-ply",
        "--time",
        "1",
        "--pdn",
        initiator_pdn.to_str().unwrap(),
        "--tablebases",
        "/nonexistent",
    ]);
    assert!(initiator.status.success(), "{}", stderr(&initiator));
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = follower.wait().unwrap();
    assert!(status.success(), "{rest}");

    // Each side saw two finished games with the same results, and says so at the end.
    let theirs = stdout(&initiator);
    let results = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("game ") && l.contains(" ("))
            .filter(|l| !l.contains(" against "))
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(results(&theirs).len(), 2, "{theirs}");
    assert_eq!(results(&theirs), results(&rest), "{theirs}\n---\n{rest}");
    let last = |text: &str| text.lines().last().unwrap_or("").to_string();
    assert!(last(&theirs).starts_with("Initiator: "), "{theirs}");
    assert!(last(&rest).starts_with("Follower: "), "{rest}");
    // Both records hold both games, move for move the same.
    for file in [&follower_pdn, &initiator_pdn] {
        let check = draughts(&["pdn", "check", file.to_str().unwrap()]);
        assert!(
            stdout(&check).contains("games=2 ok=2"),
            "{}",
            stdout(&check)
        );
    }
    // Read by the PDN reader, not by line: clock comments wrap lines at different places when
    // the two programs' clocks read differently, so only the parsed games can be compared.
    let games = |path: &std::path::Path| -> Vec<(String, Vec<Move>, GameResult)> {
        let text = std::fs::read_to_string(path).unwrap();
        read_games(&text, Variant::International)
            .into_iter()
            .map(|g| {
                let g = g.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let moves = g.line.moves.iter().map(|m| m.mv).collect();
                (to_fen(&g.start), moves, g.result)
            })
            .collect()
    };
    let (follower_games, initiator_games) = (games(&follower_pdn), games(&initiator_pdn));
    assert_eq!(follower_games.len(), 2);
    assert!(follower_games.iter().all(|(_, moves, _)| moves.len() >= 2));
    assert_eq!(follower_games, initiator_games);
    let saved = std::fs::read_to_string(&initiator_pdn).unwrap();
    assert!(saved.contains("[White \"Initiator\"]") && saved.contains("[White \"Follower\"]"));
    assert!(saved.contains("[TimeControl \"1m\"]"), "{saved}");
    // Both games of the pair start from the same two-ply opening, each side once with White.
    let fens: Vec<&str> = saved.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 2, "{saved}");
    assert_eq!(fens[0], fens[1]);
    assert!(fens[0].starts_with("[FEN \"W:"), "{saved}");
}

#[test]
fn dxp_refuses_what_it_cannot_do() {
    let o = draughts(&["dxp", "--connect", "127.0.0.1:1", "--variant", "english"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("50-square"), "{}", stderr(&o));
    let o = draughts(&["dxp"]);
    assert_eq!(o.status.code(), Some(2));
    // Nothing listens on port 1: a clear error, not a panic.
    let o = draughts(&[
        "dxp",
        "--connect",
        "127.0.0.1:1",
        "--tablebases",
        "/nonexistent",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("connection"), "{}", stderr(&o));
}
