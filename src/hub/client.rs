//! Driving an external Hub engine (Scan, or another `draughts hub`): start it, shake hands, and
//! ask it for moves.

use super::{HubError, Line, move_text, parse_move, position_text, variant_name};
use crate::clock::{Clock, Tick};
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The command line that starts a Hub engine: a bare path gets the `hub` argument that Hub
/// engines (Scan and its kin) expect; a line with arguments is kept as written.
pub fn command_line(text: &str) -> String {
    let text = text.trim();
    if text.contains(' ') {
        text.to_string()
    } else {
        format!("{text} hub")
    }
}

/// A running external engine.
pub struct HubEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id` line arguments (name, version, …).
    pub id: Vec<(String, String)>,
    /// The variants it declares.
    pub variants: Vec<String>,
}

/// How long an engine may take to answer anything but a search.
const ANSWER: Duration = Duration::from_secs(30);

impl HubEngine {
    /// Starts `command` (a program and its arguments, split on spaces; a Hub engine is usually
    /// started with the argument `hub`) and shakes hands (`hub` … `wait`, `init` … `ready`).
    pub fn start(command: &str) -> Result<HubEngine, HubError> {
        let mut parts = command.split_whitespace();
        let program = parts
            .next()
            .ok_or_else(|| HubError("no engine command given".into()))?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| HubError(format!("cannot start {program}: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| HubError("the engine has no input".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| HubError("the engine has no output".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = HubEngine {
            child,
            stdin,
            lines,
            id: Vec::new(),
            variants: Vec::new(),
        };
        engine.send("hub")?;
        loop {
            let line = engine.receive(ANSWER)?;
            match line.command.as_str() {
                "wait" => break,
                "id" => engine.id = line.args.into_iter().collect(),
                "param" if line.args.get("name").is_some_and(|n| n == "variant") => {
                    engine.variants = line
                        .args
                        .get("values")
                        .map(|v| v.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_else(|| vec!["normal".into()]);
                }
                _ => {}
            }
        }
        engine.send("init")?;
        loop {
            if engine.receive(ANSWER)?.command == "ready" {
                break;
            }
        }
        Ok(engine)
    }

    /// The engine's name from its `id` line.
    pub fn name(&self) -> String {
        self.id
            .iter()
            .find(|(k, _)| k == "name")
            .map_or_else(|| "hub engine".into(), |(_, v)| v.clone())
    }

    fn send(&mut self, line: &str) -> Result<(), HubError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| HubError(format!("the engine stopped listening: {e}")))
    }

    fn receive(&mut self, wait: Duration) -> Result<Line, HubError> {
        self.next_line(wait)?
            .ok_or_else(|| HubError("the engine did not answer in time".into()))
    }

    /// The engine's next line within `wait` (`None` when none came).
    pub fn next_line(&mut self, wait: Duration) -> Result<Option<Line>, HubError> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => return Line::parse(&text).map(Some),
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(HubError("the engine exited".into()));
                }
            }
        }
    }

    /// Asks for a move in the game from `start` with `moves` played, under a Hub `level` line
    /// (e.g. `level time=300 inc=3`), waiting at most `patience` for the answer.
    pub fn best_move(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: &str,
        patience: Duration,
    ) -> Result<Move, HubError> {
        let pos = self.go(start, moves, level, "think")?;
        loop {
            let reply = self.receive(patience)?;
            if reply.command == "done" {
                let text = reply
                    .args
                    .get("move")
                    .ok_or_else(|| HubError("the engine gave no move".into()))?;
                return parse_move(&pos, text)
                    .map_err(|e| HubError(format!("the engine's move: {e}")));
            }
        }
    }

    /// Starts a search (`go think`, `go analyze`) of the game from `start` with `moves` played,
    /// under a `level` line; returns the position searched.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: &str,
        mode: &str,
    ) -> Result<Position, HubError> {
        let variant = start.variant();
        let name = variant_name(variant)
            .ok_or_else(|| HubError(format!("Hub engines do not play {}", variant.name())))?;
        if !self.variants.is_empty() && !self.variants.iter().any(|v| v == name) {
            return Err(HubError(format!("the engine does not play {name}")));
        }
        self.send(&format!("set-param name=variant value={name}"))?;
        let mut pos = *start;
        let mut texts = Vec::new();
        for m in moves {
            texts.push(move_text(m));
            pos = pos.play(m);
        }
        let mut line = format!("pos pos={}", position_text(start));
        if !texts.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", texts.join(" ")));
        }
        self.send(&line)?;
        self.send(level)?;
        self.send(&format!("go {mode}"))?;
        Ok(pos)
    }

    /// Stops the running search and waits for its `done`.
    pub fn stop_search(&mut self) -> Result<(), HubError> {
        self.send("stop")?;
        while self.receive(ANSWER)?.command != "done" {}
        Ok(())
    }

    /// Tells the engine to stop and quit.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A request to a remote player's thread.
struct Request {
    start: Position,
    moves: Vec<Move>,
    level: String,
    patience: Duration,
    reply: std::sync::mpsc::Sender<Result<Move, HubError>>,
}

/// An external Hub engine as a player: it lives in its own thread (started on the first
/// question), so a slow or stuck engine never blocks the caller.
pub struct RemotePlayer {
    requests: std::sync::mpsc::Sender<Request>,
}

impl RemotePlayer {
    /// A player backed by the engine `command` (started when first asked).
    pub fn spawn(command: String) -> RemotePlayer {
        let (requests, inbox) = channel::<Request>();
        std::thread::spawn(move || {
            let mut engine: Option<HubEngine> = None;
            for req in inbox {
                if engine.is_none() {
                    match HubEngine::start(&command) {
                        Ok(e) => engine = Some(e),
                        Err(e) => {
                            let _ = req.reply.send(Err(e));
                            continue;
                        }
                    }
                }
                let e = engine.as_mut().expect("started just above");
                let answer = e.best_move(&req.start, &req.moves, &req.level, req.patience);
                if answer.is_err() {
                    // A confused engine is restarted for the next question.
                    if let Some(old) = engine.take() {
                        old.quit();
                    }
                }
                let _ = req.reply.send(answer);
            }
            if let Some(e) = engine {
                e.quit();
            }
        });
        RemotePlayer { requests }
    }

    /// Asks for a move; the answer arrives on the returned channel.
    pub fn ask(
        &self,
        start: Position,
        moves: Vec<Move>,
        level: String,
        patience: Duration,
    ) -> Receiver<Result<Move, HubError>> {
        let (reply, answer) = channel();
        let request = Request {
            start,
            moves,
            level,
            patience,
            reply: reply.clone(),
        };
        if self.requests.send(request).is_err() {
            let _ = reply.send(Err(HubError("the engine's thread has ended".into())));
        }
        answer
    }
}

/// The Hub `level` line of `side`'s clock: the time left, the increment of its stage and the
/// moves to go in it, in seconds.
pub fn level_line(clock: &Clock, side: Color, now: Tick) -> String {
    let mut line = format!(
        "level time={:.1} inc={:.1}",
        clock.remaining(side, now).as_secs_f64(),
        clock.current_stage(side).increment.as_secs_f64()
    );
    if let (_, Some(m)) = clock.stage(side) {
        line.push_str(&format!(" moves={m}"));
    }
    line
}

/// The Hub `level` line of a fixed time a move.
pub fn move_time_line(t: Duration) -> String {
    format!("level move-time={:.3}", t.as_secs_f64())
}

/// The Hub `level` line of a fixed number of nodes a move.
pub fn nodes_line(nodes: u64) -> String {
    format!("level nodes={nodes}")
}
