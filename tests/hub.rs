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

#[test]
fn an_external_hub_engine_plays_a_side_in_the_tui() {
    use draughts::tui::app::{App, Screen};
    use draughts::tui::board::ColorDepth;
    use draughts::tui::setup::{GameSetup, PlayerKind};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let command = format!(
        "{} hub --tablebases /nonexistent",
        env!("CARGO_BIN_EXE_draughts")
    );
    let mut app = App::new(draughts::config::Config::default(), None, ColorDepth::None);
    let setup = GameSetup {
        black: PlayerKind::Hub(command),
        clock: Some(draughts::clock::TimeControl::parse("1m+1s").expect("a control")),
        ..GameSetup::new(Variant::International)
    };
    let start = std::time::Instant::now();
    app.start_game(setup, start.elapsed());
    for c in "32-28".chars() {
        app.key(
            KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
            start.elapsed(),
        );
    }
    app.key(
        KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
        start.elapsed(),
    );
    loop {
        app.tick(start.elapsed());
        let Screen::Play(p) = &app.screen else {
            panic!("left the game")
        };
        if p.live.game().moves().len() == 2 {
            break;
        }
        assert!(!p.remote_failed, "{}", p.message);
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no answer: {}",
            p.message
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn an_external_hub_engine_analyses_and_follows_new_positions() {
    use draughts::play::analysis::{Analysis, Analyst};
    use draughts::rules::notation::move_text;
    let command = format!("{} hub", env!("CARGO_BIN_EXE_draughts"));
    let mut analysis = Analysis::start(Analyst::Hub(command), None);
    let start = Position::start(Variant::International);
    let wait_for = |a: &mut Analysis, at: Position| {
        let until = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            a.poll();
            assert!(a.error.is_none(), "{:?}", a.error);
            if let Some(r) = &a.latest
                && r.depth >= 4
                && at
                    .legal_moves()
                    .iter()
                    .any(|m| move_text(&at, m) == r.pv[0])
            {
                return r.clone();
            }
            assert!(std::time::Instant::now() < until, "{:?}", a.latest);
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let first = start.legal_moves().as_slice()[0];
    analysis.set(&start, &[first]);
    let r = wait_for(&mut analysis, start.play(&first));
    assert!(
        r.score.starts_with('+') || r.score.starts_with('-'),
        "{r:?}"
    );
    // A new position stops the old search; the lines that follow are about the new one.
    analysis.set(&start, &[]);
    wait_for(&mut analysis, start);
}
