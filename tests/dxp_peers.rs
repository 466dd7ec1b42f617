//! `draughts dxp` against the reference programs over real DXP, as `scripts/strength.sh` plays
//! them: Moby Dam and Scan 2.0, each served by the peers' script (`../shared/peers/
//! mobydam-serve.sh`, `scan-serve.sh`) on a loopback port, with its opening book. Each test plays
//! whole games from the first 2-move ballot and checks that both are played out and recorded;
//! Scan also under a game clock that each program manages itself. Without `../shared/peers` the
//! tests say so and pass.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

mod common;
#[path = "support/peers.rs"]
mod peers;
use common::{draughts, stderr, stdout};
use draughts::rules::Variant;
use draughts::rules::pdn::{GameResult, read_games};

/// The peers' folder, its programs built, or `None` (with a message) when it is absent.
fn peers(peer: &str) -> Option<PathBuf> {
    peers::built(&format!(
        "{peer} cannot be served; the DXP games against it are not played"
    ))
    .map(|(dir, _)| dir)
}

/// A peer served on a loopback port until dropped.
struct Served {
    script: Child,
    port: u16,
    _work: tempfile::TempDir,
}

impl Served {
    /// Runs `script` (from the peers' folder) on a free port, thinking `ms` milliseconds a move
    /// (0: managing the game clock), and waits until it listens.
    fn start(peers: &Path, script: &str, ms: u32) -> Served {
        let work = tempfile::tempdir().expect("temp dir");
        // A port the system has just handed out and taken back: free unless another process
        // takes it in the next moment.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let mut child = Command::new("bash")
            .arg(peers.join(script))
            .args([port.to_string(), ms.to_string()])
            .arg(work.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs the serve script");
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        while !line.contains("listening") {
            line.clear();
            let read = out.read_line(&mut line).expect("the script's output");
            if read == 0 {
                let status = child.wait().expect("the script ends");
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut err);
                }
                panic!("{script} ended ({status}) before listening: {err}");
            }
        }
        Served {
            script: child,
            port,
            _work: work,
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        // SIGTERM, not kill(): the script's trap stops the engine it started.
        let _ = Command::new("kill")
            .arg(self.script.id().to_string())
            .status();
        let _ = self.script.wait();
    }
}

/// The first ballot of the file the strength script plays, as an openings file of one line.
fn first_ballot(peers: &Path, dir: &Path) -> PathBuf {
    let file = peers.join("mobydam/test/2-move ballots matchfile.fen");
    let text = std::fs::read_to_string(&file).expect("the ballots file");
    let path = dir.join("ballot.fen");
    std::fs::write(
        &path,
        format!("{}\n", text.lines().next().expect("a ballot")),
    )
    .unwrap();
    path
}

/// Plays `games` games against the served peer with `timing` and checks they were played out:
/// every game ended by the rules (no legal move, a draw rule) or the peer's flag, none by ours
/// or unfinished, each of some length, all recorded and replayable.
fn play(served: &Served, peers: &Path, games: usize, timing: &[&str]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = dir.path().join("games.pdn");
    let ballot = first_ballot(peers, dir.path());
    let mut args = vec![
        "dxp".to_string(),
        "--connect".to_string(),
        format!("127.0.0.1:{}", served.port),
        "--games".to_string(),
        games.to_string(),
        "--openings".to_string(),
        ballot.to_string_lossy().into_owned(),
        "--tablebases".to_string(),
        "/nonexistent".to_string(),
        "--pdn".to_string(),
        pdn.to_string_lossy().into_owned(),
    ];
    args.extend(timing.iter().map(|s| s.to_string()));
    // The scripts say they listen once they have started the engine, which may still be
    // loading its book and weights: a refused connection is tried again, for up to 30 s.
    let mut out = draughts(&args);
    for _ in 0..60 {
        if out.status.success() || !stderr(&out).contains("Connection refused") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        out = draughts(&args);
    }
    let text = stdout(&out);
    assert!(out.status.success(), "{}\n{text}", stderr(&out));
    let finished: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("game ") && !l.contains(" against "))
        .collect();
    assert_eq!(finished.len(), games, "{text}");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.contains(&format!("/{games} "))),
        "the last line scores the match: {text}"
    );
    let check = draughts(&["pdn", "check", pdn.to_str().unwrap()]);
    assert!(
        stdout(&check).contains(&format!("games={games} ok={games}")),
        "{}",
        stdout(&check)
    );
    let saved = std::fs::read_to_string(&pdn).unwrap();
    let mut read = 0;
    for game in read_games(&saved, Variant::International) {
        let game = game.unwrap_or_else(|e| panic!("{e}\n{saved}"));
        assert!(
            game.line.moves.len() >= 20,
            "a game of {} plies: {saved}",
            game.line.moves.len()
        );
        assert!(
            matches!(game.result, GameResult::Win(_) | GameResult::Draw),
            "{saved}"
        );
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let why = tag("Termination");
        // The peer's own flag may fall on a busy machine (its time is counted on our side of
        // the connection, as an arbiter's clock would); ours never may.
        let peer = if tag("White").starts_with("draughts") {
            "Black"
        } else {
            "White"
        };
        assert!(
            why.contains("no legal move")
                || why.contains("draw")
                || why.ends_with(&format!("{peer} ran out of time")),
            "ended by the rules or the peer's flag, not {why:?}: {saved}"
        );
        read += 1;
    }
    assert_eq!(read, games, "{saved}");
}

/// The first ballot in both colours against the peer `script` serves, 50 ms a move each.
fn both_colours_at_50_ms(peer: &str, script: &str) {
    let Some(peers) = peers(peer) else {
        return;
    };
    let served = Served::start(&peers, script, 50);
    play(&served, &peers, 2, &["--move-time", "0.05", "--time", "10"]);
}

#[test]
fn moby_dam_plays_a_ballot_in_both_colours() {
    both_colours_at_50_ms("Moby Dam", "mobydam-serve.sh");
}

#[test]
fn scan_plays_a_ballot_in_both_colours() {
    both_colours_at_50_ms("Scan 2.0", "scan-serve.sh");
}

#[test]
fn scan_and_ours_each_manage_a_game_clock() {
    let Some(peers) = peers("Scan 2.0") else {
        return;
    };
    // 0 ms a move: Scan divides the game time the request hands it, as in `strength.sh --clock`.
    let served = Served::start(&peers, "scan-serve.sh", 0);
    play(&served, &peers, 1, &["--time", "1"]);
}
