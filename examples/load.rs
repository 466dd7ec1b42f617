//! Load test client for `draughts serve` (run by `scripts/load-test.sh`): opens pairs of SSH
//! sessions as club members, each pair challenges, accepts and plays a game through the real
//! TUI (keys in, screen bytes out, read back through a terminal emulator), and reports the move
//! latency: from one player's Enter to the move showing on the opponent's screen.
//!
//! `cargo run --release --example load -- <port> <keys dir> <pairs> <plies> [think ms]`; the keys
//! dir holds `m<i>` private keys of members named `M<i>`. Each player waits `think ms` (default
//! 0: as fast as the server answers) before each of its moves, as a member thinks.

use draughts::rules::game::Game;
use draughts::rules::notation::move_text;
use draughts::rules::variant::Variant;
use russh::keys::{PrivateKeyWithHashAlg, load_secret_key};
use russh::{ChannelMsg, client};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

const COLS: u16 = 110;
const ROWS: u16 = 32;
const PATIENCE: Duration = Duration::from_secs(20);

struct Trusting;

impl client::Handler for Trusting {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        // Loopback only, against the server the script just started.
        Ok(true)
    }
}

/// One member's terminal: keys go out, the screen is kept by a terminal emulator.
struct Terminal {
    name: String,
    handle: client::Handle<Trusting>,
    channel: russh::ChannelId,
    screen: Arc<Mutex<vt100::Parser>>,
    changed: Arc<Notify>,
}

impl Terminal {
    async fn open(port: u16, key: &Path, name: &str) -> Result<Terminal, String> {
        let key = load_secret_key(key, None).map_err(|e| format!("{}: {e}", key.display()))?;
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect(config, ("127.0.0.1", port), Trusting)
            .await
            .map_err(|e| e.to_string())?;
        let auth = handle
            .authenticate_publickey(name, PrivateKeyWithHashAlg::new(Arc::new(key), None))
            .await
            .map_err(|e| e.to_string())?;
        if !auth.success() {
            return Err(format!("{name}: key refused"));
        }
        let mut channel = handle
            .channel_open_session()
            .await
            .map_err(|e| e.to_string())?;
        channel
            .request_pty(true, "xterm-256color", COLS.into(), ROWS.into(), 0, 0, &[])
            .await
            .map_err(|e| e.to_string())?;
        channel
            .request_shell(true)
            .await
            .map_err(|e| e.to_string())?;
        let id = channel.id();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let changed = Arc::new(Notify::new());
        let (s, c) = (Arc::clone(&screen), Arc::clone(&changed));
        tokio::spawn(async move {
            while let Some(msg) = channel.wait().await {
                if let ChannelMsg::Data { data } = msg {
                    if let Ok(mut p) = s.lock() {
                        p.process(&data);
                    }
                    c.notify_waiters();
                }
            }
        });
        Ok(Terminal {
            name: name.to_string(),
            handle,
            channel: id,
            screen,
            changed,
        })
    }

    async fn send(&self, bytes: &[u8]) -> Result<(), String> {
        self.handle
            .data(self.channel, bytes.to_vec())
            .await
            .map_err(|_| format!("{}: the connection is gone", self.name))
    }

    fn contents(&self) -> String {
        self.screen
            .lock()
            .map(|p| p.screen().contents())
            .unwrap_or_default()
    }

    /// Waits until the screen shows `text`.
    async fn wait_for(&self, text: &str) -> Result<(), String> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let notified = self.changed.notified();
            if self.contents().contains(text) {
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!(
                    "{}: never showed {text:?}:\n{}",
                    self.name,
                    self.contents()
                ));
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(200)), notified).await;
        }
    }
}

const DOWN: &[u8] = b"\x1b[B";
const RIGHT: &[u8] = b"\x1b[C";

/// One pair's game: `a` challenges `b` (casual, 10 minutes, `a` White), `b` accepts, they play
/// `plies` moves (fewer if the game ends), `a` resigns. Returns the latencies.
async fn pair(
    a: Terminal,
    b: Terminal,
    plies: usize,
    think: Duration,
) -> Result<Vec<Duration>, String> {
    a.wait_for("Club lobby").await?;
    b.wait_for("Club lobby").await?;
    a.send(b"c").await?;
    a.wait_for("New challenge").await?;
    a.send(DOWN).await?;
    a.send(&[0x7f; 8]).await?;
    a.send(b"10m\r").await?;
    a.send(RIGHT).await?;
    a.send(DOWN).await?;
    a.send(RIGHT).await?;
    a.send(DOWN).await?;
    a.send(format!("{}\r\r", b.name).as_bytes()).await?;
    b.wait_for("to you").await?;
    b.send(b"\r").await?;
    a.wait_for("you play White").await?;
    b.wait_for("Both players are at the board").await?;
    let mut game = Game::new(Variant::International);
    let mut latencies = Vec::new();
    for ply in 0..plies {
        let pos = *game.position();
        let moves = pos.legal_moves();
        let Some(mv) = moves.iter().nth(ply * 7 % moves.len().max(1)).copied() else {
            break;
        };
        let text = move_text(&pos, &mv);
        let (mover, other) = if ply % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let seen = format!("{} played {text}", pos.side_to_move());
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        let start = Instant::now();
        mover.send(format!("{text}\r").as_bytes()).await?;
        other.wait_for(&seen).await?;
        latencies.push(start.elapsed());
        if game.play(&mv).is_err() || game.outcome().is_some() {
            break;
        }
    }
    a.send(b":resign\r").await?;
    b.wait_for("resigned").await?;
    for t in [&a, &b] {
        t.send(b":q\r").await?;
        t.wait_for("Club lobby").await?;
        t.send(b"qq").await?;
    }
    Ok(latencies)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (port, keys, pairs, plies, think) = match args.as_slice() {
        [port, keys, pairs, plies] => (port, keys, pairs, plies, "0"),
        [port, keys, pairs, plies, think] => (port, keys, pairs, plies, think.as_str()),
        _ => return Err("usage: load <port> <keys dir> <pairs> <plies> [think ms]".into()),
    };
    let think = Duration::from_millis(think.parse().map_err(|e| format!("think ms: {e}"))?);
    let port: u16 = port.parse().map_err(|e| format!("port: {e}"))?;
    let pairs: usize = pairs.parse().map_err(|e| format!("pairs: {e}"))?;
    let plies: usize = plies.parse().map_err(|e| format!("plies: {e}"))?;
    let keys = PathBuf::from(keys);
    let started = Instant::now();
    let mut terminals = Vec::new();
    for i in 0..pairs * 2 {
        let name = format!("M{i}");
        terminals.push(Terminal::open(port, &keys.join(format!("m{i}")), &name).await?);
    }
    println!(
        "{} sessions open in {:.1} s",
        terminals.len(),
        started.elapsed().as_secs_f64()
    );
    // Every session is in: the script reads the server's memory now.
    println!("READY");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut games = Vec::new();
    let mut it = terminals.into_iter();
    while let (Some(a), Some(b)) = (it.next(), it.next()) {
        games.push(tokio::spawn(pair(a, b, plies, think)));
    }
    let mut all = Vec::new();
    let mut failed = 0;
    for g in games {
        match g.await {
            Ok(Ok(l)) => all.extend(l),
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("{e}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    all.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} games, {failed} failed, {} moves; latency at the client, ms: median {:.1}, p95 {:.1}, p99 {:.1}, max {:.1}; {:.1} s in all",
        pairs,
        all.len(),
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.95)),
        ms(percentile(&all, 0.99)),
        ms(percentile(&all, 1.0)),
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    Ok(())
}
