//! Two `draughts dxp` processes play each other over loopback TCP.

use std::io::{BufRead, BufReader, Read};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
use common::{draughts, stderr, stdout};
use draughts::dxp::{Acceptance, Channel, EndReason, Message, find_move, move_message};
use draughts::rules::notation::to_fen;
use draughts::rules::pdn::{GameResult, read_games};
use draughts::rules::{Color, Move, Position, Variant};

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

/// The follower's next message, parsed.
fn next_message(channel: &mut Channel<TcpStream>) -> Message {
    loop {
        if let Some(text) = channel.receive().expect("the initiator is connected") {
            return Message::parse(&text, Variant::International)
                .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    }
}

/// A follower whose first move comes in just after its minute has run out: the initiator ends
/// that game on the flag, tells the follower so (it waits for a reply to its move and would not
/// end the game itself) and asks for the next game.
#[test]
fn a_move_just_after_the_flag_ends_the_game_and_the_session_goes_on() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("bound").to_string();
    let follower = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("the initiator connects");
        let mut channel = Channel::new(stream);
        let mut ends = Vec::new();
        for (game, colour) in [(1, Color::Black), (2, Color::White)] {
            let Message::GameRequest { follower, .. } = next_message(&mut channel) else {
                panic!("game {game} starts with a request");
            };
            assert_eq!(
                follower, colour,
                "the colours alternate from White for the initiator"
            );
            channel
                .send(&Message::GameAccept {
                    name: "Late".into(),
                    code: Acceptance::Accepted,
                })
                .expect("sent");
            if colour == Color::White {
                // The second game: resigned at once, which the initiator acknowledges.
                channel
                    .send(&Message::GameEnd {
                        reason: EndReason::Resign,
                        stop: false,
                    })
                    .expect("sent");
                ends.push(next_message(&mut channel));
                continue;
            }
            let pos = Position::start(Variant::International);
            let Message::Move {
                from, to, captured, ..
            } = next_message(&mut channel)
            else {
                panic!("White moves first");
            };
            let pos = pos.play(&find_move(&pos, from, to, &captured).expect("a legal move"));
            // Past the minute by a little, so that the move is on its way when the flag falls.
            std::thread::sleep(Duration::from_millis(60_030));
            let mv = *pos.legal_moves().iter().next().expect("Black can move");
            channel.send(&move_message(&mv, 60)).expect("sent");
            ends.push(next_message(&mut channel));
            channel
                .send(&Message::GameEnd {
                    reason: EndReason::Unknown,
                    stop: false,
                })
                .expect("sent");
        }
        ends
    });
    let initiator = draughts(&[
        "dxp",
        "--connect",
        &addr,
        "--games",
        "2",
        "--time",
        "1",
        "--tablebases",
        "/nonexistent",
    ]);
    let report = stdout(&initiator);
    assert!(initiator.status.success(), "{report}{}", stderr(&initiator));
    let ends = follower.join().expect("the follower played both games");
    assert!(
        ends.iter().all(|m| matches!(m, Message::GameEnd { .. })),
        "{ends:?}"
    );
    assert!(
        report.contains("game 1: 2-0 (White wins (time forfeit): Black ran out of time)"),
        "{report}"
    );
    assert!(
        report.contains("game 2: 0-2"),
        "the second game, resigned by White: {report}"
    );
}
