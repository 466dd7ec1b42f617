//! Analysis in the background: an analyst (the built-in engine or an external Hub engine) works
//! on one position at a time in its own thread and reports its lines as they deepen; giving it
//! another position stops the old search at once.

use crate::engine::search::{DEFAULT_TABLE_MB, Info, Limits, Searcher};
use crate::hub::client::HubEngine;
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::notation::{line_texts, move_text};
use crate::tablebase::Tablebase;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;

/// Who analyses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analyst {
    /// The built-in engine.
    BuiltIn,
    /// An external Hub engine started with this command.
    Hub(String),
}

/// One line of analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Depth reached.
    pub depth: u32,
    /// The score for the side to move, in words (`+0.35`, `win-end-in-7`).
    pub score: String,
    /// The principal variation in move text.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

enum Job {
    Analyse {
        id: u64,
        start: Position,
        moves: Vec<Move>,
    },
    Quit,
}

/// A running analysis.
pub struct Analysis {
    jobs: Sender<Job>,
    reports: Receiver<(u64, Result<Report, String>)>,
    stop: Arc<AtomicBool>,
    id: u64,
    /// The game being analysed (start and moves), to notice a change without replaying it.
    current: Option<(Position, Vec<Move>)>,
    /// The deepest line of the current position so far.
    pub latest: Option<Report>,
    /// Why the analyst failed, if it did.
    pub error: Option<String>,
    /// Who analyses.
    pub analyst: Analyst,
}

/// A search's progress report as a line of analysis of `root`.
pub fn builtin_report(info: &Info, root: &Position) -> Report {
    let pv = line_texts(root, &info.pv);
    Report {
        depth: info.depth,
        score: crate::engine::score_words(info.score),
        pv,
        nodes: info.nodes,
        nps: (info.nodes as f64 / info.time.as_secs_f64().max(1e-6)) as u64,
    }
}

/// A Hub `info` line as a report; its moves are read against `root` into move text.
fn hub_report(line: &crate::hub::Line, root: &Position) -> Option<Report> {
    let number = |name: &str| line.args.get(name).and_then(|v| v.parse::<f64>().ok());
    let mut pos = *root;
    let mut pv = Vec::new();
    for word in line
        .args
        .get("pv")
        .map_or("", String::as_str)
        .split_whitespace()
    {
        let Ok(mv) = crate::hub::parse_move(&pos, word) else {
            break;
        };
        pv.push(move_text(&pos, &mv));
        pos = pos.play(&mv);
    }
    let score = number("score").map_or_else(|| "?".into(), |s| format!("{s:+.2}"));
    let nodes = number("nodes").unwrap_or(0.0) as u64;
    Some(Report {
        depth: number("depth")? as u32,
        score,
        pv,
        nodes,
        nps: number("nps").map_or(0, |n| n as u64),
    })
}

/// The newest job waiting (older ones are out of date).
fn newest(jobs: &Receiver<Job>, mut job: Job) -> Job {
    while let Ok(next) = jobs.try_recv() {
        job = next;
    }
    job
}

fn builtin_worker(
    mut searcher: Searcher,
    jobs: Receiver<Job>,
    out: Sender<(u64, Result<Report, String>)>,
) {
    while let Ok(job) = jobs.recv() {
        let Job::Analyse { id, start, moves } = newest(&jobs, job) else {
            return;
        };
        searcher.reset_stop();
        let mut pos = start;
        let mut history = Vec::with_capacity(moves.len());
        for m in &moves {
            history.push(pos.zobrist());
            pos = pos.play(m);
        }
        let forced = pos.legal_moves();
        if let [only] = forced.as_slice() {
            // A forced move is played at once in games; here the line behind it matters.
            let child = pos.play(only);
            history.push(pos.zobrist());
            let first = move_text(&pos, only);
            let lift = |mut r: Report, score: i32| {
                r.pv.insert(0, first.clone());
                r.depth += 1;
                r.score = crate::engine::score_words(score);
                r
            };
            if child.legal_moves().is_empty() {
                let info = Info {
                    depth: 0,
                    score: 0,
                    nodes: 1,
                    time: Duration::ZERO,
                    pv: Vec::new(),
                };
                let r = lift(
                    builtin_report(&info, &child),
                    crate::engine::search::MATE - 1,
                );
                let _ = out.send((id, Ok(r)));
                continue;
            }
            searcher.search(&child, &history, Limits::default(), &mut |info| {
                let mut score = -info.score;
                if crate::engine::search::is_decisive(score) {
                    score -= score.signum();
                }
                let _ = out.send((id, Ok(lift(builtin_report(info, &child), score))));
            });
            continue;
        }
        searcher.search(&pos, &history, Limits::default(), &mut |info| {
            let _ = out.send((id, Ok(builtin_report(info, &pos))));
        });
    }
}

fn hub_worker(command: String, jobs: Receiver<Job>, out: Sender<(u64, Result<Report, String>)>) {
    let mut engine = match HubEngine::start(&command) {
        Ok(e) => e,
        Err(e) => {
            let _ = out.send((0, Err(e.to_string())));
            return;
        }
    };
    let mut pending = jobs.recv().ok();
    while let Some(job) = pending.take() {
        let Job::Analyse { id, start, moves } = newest(&jobs, job) else {
            break;
        };
        let fail = |e: crate::hub::HubError| {
            let _ = out.send((id, Err(e.to_string())));
        };
        let root = match engine.go(&start, &moves, "level infinite", "analyze") {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
        loop {
            match jobs.try_recv() {
                Ok(next) => {
                    if let Err(e) = engine.stop_search() {
                        return fail(e);
                    }
                    pending = Some(next);
                    break;
                }
                Err(TryRecvError::Disconnected) => {
                    engine.quit();
                    return;
                }
                Err(TryRecvError::Empty) => {}
            }
            match engine.next_line(Duration::from_millis(50)) {
                Ok(Some(line)) if line.command == "info" => {
                    if let Some(r) = hub_report(&line, &root) {
                        let _ = out.send((id, Ok(r)));
                    }
                }
                Ok(Some(line)) if line.command == "done" => {
                    pending = jobs.recv().ok();
                    break;
                }
                Ok(_) => {}
                Err(e) => return fail(e),
            }
        }
    }
    engine.quit();
}

impl Analysis {
    /// Starts an analyst in its own thread; it waits for a position.
    pub fn start(analyst: Analyst, tablebase: Option<Arc<Tablebase>>) -> Analysis {
        let (jobs, job_rx) = channel();
        let (out, reports) = channel();
        let stop = match &analyst {
            Analyst::BuiltIn => {
                let searcher = Searcher::new(DEFAULT_TABLE_MB, tablebase);
                let stop = searcher.stop_flag();
                std::thread::spawn(move || builtin_worker(searcher, job_rx, out));
                stop
            }
            Analyst::Hub(command) => {
                let command = command.clone();
                std::thread::spawn(move || hub_worker(command, job_rx, out));
                Arc::new(AtomicBool::new(false))
            }
        };
        Analysis {
            jobs,
            reports,
            stop,
            id: 0,
            current: None,
            latest: None,
            error: None,
            analyst,
        }
    }

    /// Analyses the position after `moves` from `start` (nothing changes if it already does).
    pub fn set(&mut self, start: &Position, moves: &[Move]) {
        if self
            .current
            .as_ref()
            .is_some_and(|(s, m)| s == start && m.as_slice() == moves)
        {
            return;
        }
        self.current = Some((*start, moves.to_vec()));
        self.id += 1;
        self.latest = None;
        // Stop first, then send: the worker clears the flag when it takes the new job.
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.jobs.send(Job::Analyse {
            id: self.id,
            start: *start,
            moves: moves.to_vec(),
        });
    }

    /// Takes in the reports that arrived; returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok((id, report)) = self.reports.try_recv() {
            match report {
                Ok(r) if id == self.id => {
                    self.latest = Some(r);
                    changed = true;
                }
                Ok(_) => {}
                Err(e) => {
                    self.error = Some(e);
                    changed = true;
                }
            }
        }
        changed
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.jobs.send(Job::Quit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::variant::Variant;
    use std::time::Instant;

    fn wait_for(a: &mut Analysis, what: impl Fn(&Report) -> bool) -> Report {
        let until = Instant::now() + Duration::from_secs(30);
        while Instant::now() < until {
            a.poll();
            if let Some(r) = &a.latest
                && what(r)
            {
                return r.clone();
            }
            assert!(a.error.is_none(), "{:?}", a.error);
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no such report in time: {:?}", a.latest);
    }

    #[test]
    fn lines_deepen_and_follow_the_position() {
        let v = Variant::International;
        let start = Position::start(v);
        let mut a = Analysis::start(Analyst::BuiltIn, None);
        a.set(&start, &[]);
        let r = wait_for(&mut a, |r| r.depth >= 6);
        assert!(!r.pv.is_empty() && r.nodes > 0, "{r:?}");
        assert!(
            start
                .legal_moves()
                .iter()
                .any(|m| move_text(&start, m) == r.pv[0])
        );
        // A position with a forced win: the line switches to it and says so.
        let won = parse_fen("W:W28:B22", v).unwrap();
        a.set(&won, &[]);
        let r = wait_for(&mut a, |r| r.score.starts_with("win"));
        assert_eq!(r.pv[0], "28x17", "{r:?}");
        // The same position again changes nothing.
        a.set(&won, &[]);
        assert!(a.latest.is_some());
    }
}
