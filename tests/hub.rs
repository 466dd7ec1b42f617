//! `draughts hub` end to end: the protocol over real pipes, and the Hub client driving the binary
//! as an external engine.

use draughts::hub::client::HubEngine;
use draughts::{Position, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn the_binary_speaks_hub_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["hub", "--tablebases", "/nonexistent"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "hub\ninit\npos\nlevel move-time=0.2\ngo think\nping\nquit"
    )
    .expect("write");
    drop(stdin);
    let lines: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("a line"))
        .collect();
    assert!(child.wait().expect("exit").success());
    assert!(
        lines.iter().any(|l| l.starts_with("id name=draughts")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "ready"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "pong"), "{lines:?}");
}

#[test]
fn the_client_plays_against_the_binary_as_an_external_engine() {
    let command = format!(
        "{} hub --tablebases /nonexistent",
        env!("CARGO_BIN_EXE_draughts")
    );
    let mut engine = HubEngine::start(&command).expect("the engine starts");
    assert_eq!(engine.name(), "draughts");
    assert!(engine.variants.iter().any(|v| v == "frisian"));
    let start = Position::start(Variant::International);
    let mut moves = Vec::new();
    let mut pos = start;
    for _ in 0..6 {
        let mv = engine
            .best_move(
                &start,
                &moves,
                "level move-time=0.05",
                Duration::from_secs(30),
            )
            .expect("a move");
        assert!(pos.legal_moves().iter().any(|m| *m == mv));
        pos = pos.play(&mv);
        moves.push(mv);
    }
    let english = Position::start(Variant::English);
    assert!(
        engine
            .best_move(&english, &[], "level depth=2", Duration::from_secs(5))
            .is_err()
    );
    engine.quit();
    assert!(HubEngine::start("/no/such/engine hub").is_err());
}
