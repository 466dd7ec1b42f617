//! Reviews run on a thread of their own, for screens that must never wait: games are reviewed
//! one after another, each on the settings' threads; the screen reads the progress and takes the
//! finished reviews when it draws. Dropping the handle cancels what is left.

use super::{Review, ReviewError, Settings, review};
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::tablebase::Tablebase;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Where the reviewing thread is, shared with it.
#[derive(Default)]
struct Shared {
    game: AtomicUsize,
    done: AtomicUsize,
    total: AtomicUsize,
}

/// How far a background review is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The game being reviewed (index into the games given).
    pub game: usize,
    /// Its positions valued so far.
    pub done: usize,
    /// Its positions in all (0 until its review has started).
    pub total: usize,
}

impl Progress {
    /// The share of `games` games done: those finished plus the running one's part, 0 to 1.
    pub fn ratio(&self, games: usize) -> f64 {
        if games == 0 {
            return 1.0;
        }
        let part = if self.total == 0 {
            0.0
        } else {
            self.done as f64 / self.total as f64
        };
        ((self.game as f64 + part) / games as f64).clamp(0.0, 1.0)
    }
}

/// What [`Background::poll`] found.
#[derive(Debug)]
pub enum Event {
    /// Game `.0` (index into the games given) was reviewed, or its review failed.
    Reviewed(usize, Result<Box<Review>, ReviewError>),
    /// Every game was reviewed (or the review was cancelled); nothing more will come.
    Finished,
}

/// Reviews of games running on a thread of their own.
pub struct Background {
    shared: Arc<Shared>,
    cancel: Arc<AtomicBool>,
    results: Receiver<(usize, Result<Box<Review>, ReviewError>)>,
    finished: bool,
}

impl Background {
    /// Starts reviewing `games` (each a start and its moves) one after another.
    pub fn start(
        games: Vec<(Position, Vec<Move>)>,
        tables: Option<Arc<Tablebase>>,
        settings: Settings,
    ) -> Background {
        let shared = Arc::new(Shared::default());
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (s, c) = (Arc::clone(&shared), Arc::clone(&cancel));
        // Not joined: dropping the handle cancels the review, and the thread ends within a
        // search's reaction time, sending to a receiver that is gone.
        std::thread::spawn(move || {
            for (i, (start, moves)) in games.into_iter().enumerate() {
                if c.load(Ordering::Relaxed) {
                    break;
                }
                s.done.store(0, Ordering::Relaxed);
                s.total.store(0, Ordering::Relaxed);
                s.game.store(i, Ordering::Relaxed);
                let result = review(
                    start,
                    &moves,
                    tables.clone(),
                    settings,
                    &mut |done, total| {
                        s.done.store(done, Ordering::Relaxed);
                        s.total.store(total, Ordering::Relaxed);
                    },
                    &c,
                );
                if tx.send((i, result.map(Box::new))).is_err() {
                    break;
                }
            }
        });
        Background {
            shared,
            cancel,
            results: rx,
            finished: false,
        }
    }

    /// How far it is.
    pub fn progress(&self) -> Progress {
        Progress {
            game: self.shared.game.load(Ordering::Relaxed),
            done: self.shared.done.load(Ordering::Relaxed),
            total: self.shared.total.load(Ordering::Relaxed),
        }
    }

    /// The next finished game, [`Event::Finished`] once (after the last one), or `None` when
    /// nothing new has come.
    pub fn poll(&mut self) -> Option<Event> {
        if self.finished {
            return None;
        }
        match self.results.try_recv() {
            Ok((i, r)) => Some(Event::Reviewed(i, r)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.finished = true;
                Some(Event::Finished)
            }
        }
    }

    /// Whether reviews are still coming.
    pub fn running(&self) -> bool {
        !self.finished
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;
    use std::time::{Duration, Instant};

    #[test]
    fn games_come_in_order_then_finished_once() {
        let start = Position::start(Variant::International);
        let moves = |n: usize| {
            let mut pos = start;
            let mut out = Vec::new();
            for _ in 0..n {
                let m = *pos
                    .legal_moves()
                    .iter()
                    .next()
                    .expect("the opening has moves");
                pos = pos.play(&m);
                out.push(m);
            }
            out
        };
        let settings = Settings {
            time: Some(Duration::from_secs(5)),
            depth: Some(2),
            threads: 1,
            hash_mb: 1,
        };
        let mut job = Background::start(vec![(start, moves(3)), (start, moves(5))], None, settings);
        let mut seen = Vec::new();
        let since = Instant::now();
        while job.running() {
            assert!(since.elapsed() < Duration::from_secs(60), "no end");
            match job.poll() {
                Some(Event::Reviewed(i, r)) => seen.push((i, r.expect("reviewed").moves.len())),
                Some(Event::Finished) => assert!(!job.running()),
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        assert_eq!(seen, [(0, 3), (1, 5)]);
        assert!(job.poll().is_none(), "Finished comes once");
    }

    #[test]
    fn the_ratio_counts_finished_games_and_the_running_one() {
        let p = |game, done, total| Progress { game, done, total };
        assert_eq!(p(0, 0, 0).ratio(4), 0.0);
        assert_eq!(p(1, 5, 10).ratio(4), 0.375);
        assert_eq!(p(3, 10, 10).ratio(4), 1.0);
        assert_eq!(p(0, 0, 0).ratio(0), 1.0, "nothing to do is done");
    }
}
