//! `draughts hub`: the engine side of the Hub protocol.
//!
//! Commands are read one per line; a search runs in its own thread so `stop`, `ping` and
//! `ponder-hit` are answered while it thinks. Lines the engine cannot use get an `error` line
//! saying why, and the engine carries on.

use super::{
    HubError, Line, move_text, parse_move, parse_position, quote, variant_name, variant_of,
};
use crate::bounded::{self, MAX_PROTOCOL_LINE};
use crate::clock::MAX_SECONDS;
use crate::engine::eval::Model;
use crate::engine::search::{DEFAULT_TABLE_MB, MATE, MAX_THREADS, TB_WIN, is_decisive};
use crate::engine::{Info, Limits, Searcher};
use crate::rules::board::Position;
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Output, line: &str) {
    // A GUI that has gone away cannot be told anything; the next read ends the loop.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A score as Hub engines write it: men with two decimals; a forced end of the game in `p`
/// plies is `99.xx` (100 − p/100), a tablebase win `89.xx`.
pub fn score_text(score: i32) -> String {
    let value = if !is_decisive(score) {
        f64::from(score) / 100.0
    } else if score.abs() > TB_WIN + 1000 {
        let plies = MATE - score.abs();
        (100.0 - f64::from(plies) / 100.0).copysign(f64::from(score))
    } else {
        let plies = TB_WIN - score.abs();
        (90.0 - f64::from(plies) / 100.0).copysign(f64::from(score))
    };
    format!("{value:.2}")
}

fn info_line(info: &Info, root: &Position) -> String {
    let secs = info.time.as_secs_f64();
    let mut pos = *root;
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|m| {
            let t = move_text(m);
            pos = pos.play(m);
            t
        })
        .collect();
    format!(
        "info depth={} mean-depth={} score={} nodes={} time={secs:.3} nps={:.0} pv={}",
        info.depth,
        info.depth,
        score_text(info.score),
        info.nodes,
        info.nodes as f64 / secs.max(1e-6),
        quote(&pv.join(" "))
    )
}

/// The time controls a `level` line sets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<f64>,
    time: Option<f64>,
    inc: f64,
    moves: Option<u32>,
    infinite: bool,
}

impl Level {
    fn parse(line: &Line) -> Result<Level, HubError> {
        // A GUI's time past what a clock holds means "no hurry": read as the bound.
        let seconds = |name| Ok::<_, HubError>(line.number(name)?.map(|t| t.min(MAX_SECONDS)));
        Ok(Level {
            depth: line.number("depth")?.map(|d| d as u32),
            nodes: line.number("nodes")?.map(|n| n as u64),
            move_time: seconds("move-time")?,
            time: seconds("time")?,
            inc: seconds("inc")?.unwrap_or(0.0),
            moves: line.number("moves")?.map(|m| m as u32),
            infinite: line.words.iter().any(|w| w == "infinite")
                || line.args.contains_key("infinite"),
        })
    }

    /// Search limits: a share of the time left (of the moves to go, or of 30), most of the
    /// increment, up to twice that when the search is unsettled, never more than a third of
    /// what is left.
    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        if self.infinite {
            return limits;
        }
        if let Some(t) = self.move_time {
            let d = Duration::from_secs_f64(t);
            limits.time = Some(d);
            limits.max_time = Some(d);
        } else if let Some(left) = self.time {
            let share = left / f64::from(self.moves.unwrap_or(30).clamp(1, 30) + 2);
            let budget = (share + self.inc * 0.8).min(left / 3.0).max(0.01);
            limits.time = Some(Duration::from_secs_f64(budget));
            limits.max_time = Some(Duration::from_secs_f64(
                (budget * 2.0).min(left / 3.0).max(0.01),
            ));
        } else if self.depth.is_none() && self.nodes.is_none() {
            limits.time = Some(Duration::from_secs(10));
            limits.max_time = limits.time;
        }
        limits
    }
}

/// What the command line sets before the GUI's parameters.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Tablebase directory [default: tablebases/<variant> when present].
    pub tablebases: Option<PathBuf>,
    /// Evaluation weights other than the shipped ones.
    pub weights: Option<Arc<Model>>,
    /// Search threads (the `threads` parameter's start value; 0 counts as 1).
    pub threads: usize,
    /// Whether `go think` plays from the opening book (the `book` parameter's start value).
    pub book: bool,
}

struct Engine {
    out: Output,
    variant: Variant,
    hash: usize,
    threads: usize,
    book: bool,
    tablebase_dir: Option<PathBuf>,
    tablebase: Option<Arc<Tablebase>>,
    /// Evaluation weights other than the shipped ones (`draughts hub --weights`).
    weights: Option<Arc<Model>>,
    searcher: Option<Searcher>,
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
    /// Set on `ponder-hit`: the search may now end by the clock.
    ponder: Option<Arc<Mutex<Option<Limits>>>>,
    root: Position,
    history: Vec<u64>,
    level: Level,
}

impl Engine {
    fn searcher(&mut self) -> Searcher {
        self.finish();
        self.searcher.take().unwrap_or_else(|| {
            let mut s = Searcher::new(self.hash, self.tablebase.clone());
            s.set_model(self.weights.clone());
            s.set_threads(self.threads);
            s
        })
    }

    /// Waits for a running search to end (it prints its own `done`).
    fn finish(&mut self) {
        if let Some((handle, _)) = self.running.take()
            && let Ok(s) = handle.join()
        {
            self.searcher = Some(s);
        }
    }

    fn stop(&mut self) {
        if let Some((_, flag)) = &self.running {
            flag.store(true, Ordering::Relaxed);
        }
        self.finish();
    }

    fn error(&self, why: &str) {
        send(&self.out, &format!("error {}", quote(why)));
    }

    fn load_tablebase(&mut self) {
        let dir = self
            .tablebase_dir
            .clone()
            .unwrap_or_else(|| crate::tablebase::default_dir(self.variant));
        self.tablebase = if dir.is_dir() {
            match Tablebase::open_for(&dir, self.variant) {
                Ok(tb) if tb.max_pieces() > 0 => Some(Arc::new(tb)),
                Ok(_) => None,
                Err(e) => {
                    self.error(&format!("tablebases not loaded: {e}"));
                    None
                }
            }
        } else {
            None
        };
        self.searcher = None;
    }

    fn handle(&mut self, line: &Line) -> Result<bool, HubError> {
        match line.command.as_str() {
            "hub" => {
                send(
                    &self.out,
                    &format!("id name=draughts version={}", env!("CARGO_PKG_VERSION")),
                );
                send(
                    &self.out,
                    "param name=variant value=normal type=enum values=\"normal frisian\"",
                );
                send(
                    &self.out,
                    &format!(
                        "param name=hash value={} type=int min=1 max=8192",
                        self.hash
                    ),
                );
                send(
                    &self.out,
                    &format!(
                        "param name=threads value={} type=int min=1 max={MAX_THREADS}",
                        self.threads
                    ),
                );
                send(
                    &self.out,
                    &format!("param name=book value={} type=bool", self.book),
                );
                send(&self.out, "param name=tablebases value=\"\" type=string");
                send(&self.out, "wait");
            }
            "init" => {
                self.load_tablebase();
                self.root = Position::start(self.variant);
                self.history.clear();
                send(&self.out, "ready");
            }
            "set-param" => {
                let name = line.args.get("name").map(String::as_str).unwrap_or("");
                let value = line.args.get("value").cloned().unwrap_or_default();
                match name {
                    "variant" => {
                        self.variant = variant_of(&value).ok_or_else(|| {
                            HubError(format!("variant {value:?}: normal or frisian"))
                        })?;
                        self.stop();
                        self.root = Position::start(self.variant);
                        self.history.clear();
                        self.load_tablebase();
                    }
                    "hash" => {
                        let mb: usize = value
                            .parse()
                            .ok()
                            .filter(|m| (1..=8192).contains(m))
                            .ok_or_else(|| HubError(format!("hash {value:?}: 1 to 8192 (MB)")))?;
                        self.stop();
                        self.hash = mb;
                        self.searcher = None;
                    }
                    "threads" => {
                        let n: usize = value
                            .parse()
                            .ok()
                            .filter(|n| (1..=MAX_THREADS).contains(n))
                            .ok_or_else(|| {
                                HubError(format!("threads {value:?}: 1 to {MAX_THREADS}"))
                            })?;
                        self.stop();
                        self.threads = n;
                        if let Some(s) = &mut self.searcher {
                            s.set_threads(n);
                        }
                    }
                    "book" => {
                        self.book = match value.as_str() {
                            "true" => true,
                            "false" => false,
                            _ => return Err(HubError(format!("book {value:?}: true or false"))),
                        };
                    }
                    "tablebases" => {
                        self.stop();
                        self.tablebase_dir = (!value.is_empty()).then(|| PathBuf::from(value));
                        self.load_tablebase();
                    }
                    other => return Err(HubError(format!("unknown parameter {other:?}"))),
                }
            }
            "new-game" => {
                self.stop();
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "pos" => {
                self.stop();
                let start = match line.args.get("pos") {
                    Some(p) => parse_position(p, self.variant)?,
                    None => Position::start(self.variant),
                };
                let mut pos = start;
                let mut history = Vec::new();
                if let Some(moves) = line.args.get("moves") {
                    for m in moves.split_whitespace() {
                        let mv = parse_move(&pos, m)?;
                        history.push(pos.zobrist());
                        pos = pos.play(&mv);
                    }
                }
                self.root = pos;
                self.history = history;
            }
            "level" => self.level = Level::parse(line)?,
            "go" => {
                let mode = line.words.first().map(String::as_str).unwrap_or("think");
                if !["think", "ponder", "analyze", "analyse"].contains(&mode) {
                    return Err(HubError(format!("go {mode:?}: think, ponder or analyze")));
                }
                self.go(mode);
            }
            "stop" => self.stop(),
            "ponder-hit" => {
                if let Some(slot) = &self.ponder
                    && let Ok(mut s) = slot.lock()
                {
                    *s = Some(self.level.limits());
                }
            }
            "ping" => send(&self.out, "pong"),
            "quit" => {
                self.stop();
                return Ok(false);
            }
            other => return Err(HubError(format!("unknown command {other:?}"))),
        }
        Ok(true)
    }

    fn go(&mut self, mode: &str) {
        // A forced move is played at once: there is nothing to think about.
        let moves = self.root.legal_moves();
        if mode == "think" && moves.len() == 1 {
            send(
                &self.out,
                &format!("done move={}", move_text(&moves.as_slice()[0])),
            );
            return;
        }
        // So is a move of the opening book.
        if mode == "think"
            && self.book
            && let Some(mv) = crate::engine::book::builtin(self.variant)
                .pick(&self.root, crate::engine::random_u64())
        {
            send(&self.out, &format!("done move={}", move_text(&mv)));
            return;
        }
        let mut searcher = self.searcher();
        searcher.reset_stop();
        let flag = searcher.stop_flag();
        let root = self.root;
        let history = self.history.clone();
        let out = Arc::clone(&self.out);
        let thinking = mode == "think";
        let limits = if thinking {
            self.level.limits()
        } else {
            Limits::default()
        };
        // While pondering or analysing the search runs until `stop`; `ponder-hit` hands it the
        // clock, enforced by a watcher.
        let ponder_slot = Arc::new(Mutex::new(None::<Limits>));
        self.ponder = (mode == "ponder").then(|| Arc::clone(&ponder_slot));
        let watcher_flag = Arc::clone(&flag);
        let done = Arc::new(AtomicBool::new(false));
        let watcher_done = Arc::clone(&done);
        if mode == "ponder" {
            std::thread::spawn(move || {
                while !watcher_done.load(Ordering::Relaxed) {
                    let hit = ponder_slot.lock().ok().and_then(|s| *s);
                    if let Some(l) = hit {
                        let wait = l.time.unwrap_or(Duration::from_secs(1));
                        let until = std::time::Instant::now() + wait;
                        while std::time::Instant::now() < until {
                            if watcher_done.load(Ordering::Relaxed) {
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(2));
                        }
                        watcher_flag.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            });
        }
        let handle = std::thread::spawn(move || {
            let outcome = searcher.search(&root, &history, limits, &mut |info| {
                send(&out, &info_line(info, &root));
            });
            done.store(true, Ordering::Relaxed);
            let mut line = match outcome.best {
                Some(mv) => format!("done move={}", move_text(&mv)),
                None => "done".to_string(),
            };
            if let Some(reply) = outcome.pv.get(1) {
                line.push_str(&format!(" ponder={}", move_text(reply)));
            }
            send(&out, &line);
            searcher
        });
        self.running = Some((handle, flag));
    }
}

/// Runs the Hub protocol on `input` and `output` until `quit` or the end of the input.
pub fn serve(
    mut input: impl BufRead,
    output: Box<dyn Write + Send>,
    settings: Settings,
) -> io::Result<()> {
    let mut engine = Engine {
        weights: settings.weights,
        out: Arc::new(Mutex::new(output)),
        variant: Variant::International,
        hash: DEFAULT_TABLE_MB,
        threads: settings.threads.clamp(1, MAX_THREADS),
        book: settings.book,
        tablebase_dir: settings.tablebases,
        tablebase: None,
        searcher: None,
        running: None,
        ponder: None,
        root: Position::start(Variant::International),
        history: Vec::new(),
        level: Level::default(),
    };
    while let Some(line) = bounded::read_line(&mut input, MAX_PROTOCOL_LINE)? {
        let line = match line {
            bounded::Line::Text(text) => text,
            bounded::Line::TooLong(n) => {
                engine.error(&format!(
                    "a line of {n} bytes, longer than the {MAX_PROTOCOL_LINE} a Hub line may have"
                ));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let parsed = match Line::parse(&line) {
            Ok(l) => l,
            Err(e) => {
                engine.error(&e.0);
                continue;
            }
        };
        match engine.handle(&parsed) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => engine.error(&e.0),
        }
    }
    engine.stop();
    Ok(())
}

/// The Hub variant names this engine plays.
pub fn variants() -> Vec<&'static str> {
    Variant::ALL
        .iter()
        .filter_map(|v| variant_name(*v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a script of lines and returns everything the engine wrote.
    fn run(script: &str) -> String {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0
                    .lock()
                    .map_err(|_| io::Error::other("poisoned"))?
                    .extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        serve(
            script.as_bytes(),
            Box::new(Shared(Arc::clone(&buffer))),
            Settings {
                tablebases: Some(PathBuf::from("/nonexistent")),
                ..Settings::default()
            },
        )
        .unwrap();
        let bytes = buffer.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    /// The session's `done` line names a legal move of the International start.
    fn assert_plays_from_the_start(out: &str) {
        let done = out
            .lines()
            .find(|l| l.starts_with("done move="))
            .expect("a move");
        let mv = done
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .trim_start_matches("move=");
        assert!(
            parse_move(&Position::start(Variant::International), mv).is_ok(),
            "{out}"
        );
    }

    #[test]
    fn an_over_long_line_is_an_error_and_the_session_goes_on() {
        let long = format!("pos pos={}\n", "W".repeat(1 << 20));
        let out = run(&format!("hub\ninit\n{long}ping\nquit\n"));
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{out}");
        assert!(errors[0].contains("a line of 1048584 bytes"), "{out}");
        assert!(out.lines().any(|l| l == "pong"), "{out}");
    }

    #[test]
    fn times_past_the_clock_s_bound_are_read_as_the_bound() {
        let level = |text| Level::parse(&Line::parse(text).unwrap()).unwrap().limits();
        let bound = Duration::from_secs_f64(MAX_SECONDS);
        let limits = level("level time=1e300 inc=1e300");
        assert_eq!(limits.time, Some(bound / 3), "{limits:?}");
        assert_eq!(limits.max_time, Some(bound / 3), "{limits:?}");
        let limits = level("level move-time=1e300");
        assert_eq!(limits.time, Some(bound), "{limits:?}");
        // The search under such a deadline still ends at its depth.
        let out = run("hub\ninit\npos\nlevel move-time=1e300 depth=3\ngo think\nping\nquit\n");
        assert_plays_from_the_start(&out);
    }

    #[test]
    fn handshake_and_a_search() {
        let out = run("hub\ninit\npos\nlevel depth=4\ngo think\nping\nquit\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("id name=draughts"), "{out}");
        assert!(lines.contains(&"wait") && lines.contains(&"ready"), "{out}");
        assert!(out.contains("param name=variant"), "{out}");
        assert_plays_from_the_start(&out);
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("info depth="))
                .count(),
            4,
            "{out}"
        );
        assert!(lines.contains(&"pong"));
    }

    #[test]
    fn plays_book_moves_when_the_book_is_on() {
        let out = run(
            "hub\nset-param name=book value=yes\nset-param name=book value=true\ninit\npos\nlevel depth=30\ngo think\nquit\n",
        );
        assert!(
            out.contains("param name=book value=false type=bool"),
            "{out}"
        );
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{out}");
        assert!(errors[0].contains("true or false"), "{out}");
        // Answered from the book: no search, so no `info` line.
        assert!(!out.contains("info "), "{out}");
        let start = Position::start(Variant::International);
        let done = out
            .lines()
            .find(|l| l.starts_with("done move="))
            .expect(&out);
        let text = done.trim_start_matches("done move=");
        let book = crate::engine::book::builtin(Variant::International).moves(&start);
        assert!(book.iter().any(|m| move_text(&m.mv) == text), "{out}");
    }

    #[test]
    fn searches_on_the_threads_it_is_given() {
        let out = run(
            "hub\nset-param name=threads value=2\nset-param name=threads value=0\ninit\npos\nlevel depth=4\ngo think\nquit\n",
        );
        assert!(
            out.contains(&format!(
                "param name=threads value=1 type=int min=1 max={MAX_THREADS}"
            )),
            "{out}"
        );
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{out}");
        assert!(
            errors[0].contains("threads") && errors[0].contains("1 to"),
            "{out}"
        );
        assert_plays_from_the_start(&out);
        assert!(out.contains("info depth=4"), "{out}");
    }

    #[test]
    fn positions_moves_and_variants() {
        let pos = super::super::position_text(&Position::start(Variant::Frisian));
        let out = run(&format!(
            "set-param name=variant value=frisian\npos pos={pos} moves=\"32-28 19-23\"\nlevel depth=2\ngo think\nquit\n"
        ));
        let done = out.lines().find(|l| l.starts_with("done")).expect("done");
        // White must capture 28x19 after 32-28 19-23.
        assert!(done.starts_with("done move=28x19x23"), "{out}");
    }

    #[test]
    fn bad_lines_get_errors_and_the_engine_carries_on() {
        let out = run(
            "frobnicate\npos pos=nonsense\npos moves=\"32-29\"\nlevel time=soon\nset-param name=variant value=chess\ngo fly\nping\nquit\n",
        );
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 6, "{out}");
        assert!(errors[2].contains("32-29"), "{out}");
        assert!(out.contains("pong"));
    }

    #[test]
    fn analysis_runs_until_stopped() {
        let out = run("pos\ngo analyze\nstop\nquit\n");
        assert!(out.lines().any(|l| l.starts_with("done move=")), "{out}");
    }

    #[test]
    fn scores_as_hub_engines_write_them() {
        assert_eq!(score_text(125), "1.25");
        assert_eq!(score_text(-30), "-0.30");
        assert_eq!(score_text(MATE - 7), "99.93");
        assert_eq!(score_text(-(TB_WIN - 12)), "-89.88");
        assert_eq!(variants(), ["normal", "frisian"]);
    }
}
