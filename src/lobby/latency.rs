//! Move latency measured inside the server: from the moment the key that made a move arrived on
//! its session to the moment the changed frame has been written for every terminal showing the
//! game (the mover's, the opponent's, the spectators'). Measured here rather than by a client,
//! so that the figure does not depend on where the client runs.
//!
//! Each session is one thread: it says when the input it is handling arrived
//! ([`input_arrived`]) and when it has written a frame ([`frame_written`]); a change to a game
//! made by that input is stamped with the arrival time, every session showing the game owes a
//! frame for it, and the move's latency is recorded when the last of them is written.

use hdrhistogram::Histogram;
use std::cell::{Cell, RefCell};
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

thread_local! {
    /// When the input this session is handling arrived.
    static CAUSE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Changes this session has taken in but not yet shown: the room and the change's version.
    static OWED: RefCell<Vec<(Weak<dyn Shows>, u64)>> = const { RefCell::new(Vec::new()) };
}

/// The session thread is handling input that arrived at `at` (`None`: not input, e.g. a timer).
pub fn input_arrived(at: Option<Instant>) {
    CAUSE.set(at);
}

/// When the input being handled on this thread arrived.
pub(super) fn cause() -> Option<Instant> {
    CAUSE.get()
}

/// What shows changes on terminals: a game's room.
pub(super) trait Shows: Send + Sync {
    /// A session has written a frame showing change `version` at `now`.
    fn shown(&self, version: u64, now: Instant);
}

/// This session's next frame shows change `version` of `room`.
pub(super) fn owe(room: Weak<dyn Shows>, version: u64) {
    OWED.with_borrow_mut(|owed| owed.push((room, version)));
}

/// The session thread has written a frame: every change it took in is now on its terminal.
pub fn frame_written() {
    let owed = OWED.with_borrow_mut(std::mem::take);
    let now = Instant::now();
    for (room, version) in owed {
        if let Some(room) = room.upgrade() {
            room.shown(version, now);
        }
    }
}

/// A change waiting for the frames that show it.
#[derive(Debug)]
pub(super) struct Awaited {
    /// The room's version after the change.
    pub version: u64,
    /// When the key that made it arrived.
    pub since: Instant,
    /// Frames still to be written.
    pub frames: usize,
}

/// Latencies recorded since the server started and since the last report.
#[derive(Debug)]
pub struct Latency {
    histograms: Mutex<[Histogram<u64>; 2]>,
}

/// Percentiles of a set of latencies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// How many moves.
    pub count: u64,
    /// The median.
    pub median: Duration,
    /// The 95th percentile.
    pub p95: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// The largest.
    pub max: Duration,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "{} moves; latency ms: median {:.1}, p95 {:.1}, p99 {:.1}, max {:.1}",
            self.count,
            ms(self.median),
            ms(self.p95),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// Latencies are kept in microseconds, from 1 µs to an hour, to three significant digits.
fn histogram() -> Histogram<u64> {
    // The bounds are constants within what the histogram supports.
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

impl Default for Latency {
    fn default() -> Latency {
        Latency {
            histograms: Mutex::new([histogram(), histogram()]),
        }
    }
}

impl Latency {
    /// Records one move's latency.
    pub(super) fn record(&self, latency: Duration) {
        let micros = (latency.as_micros() as u64).clamp(1, 3_600_000_000);
        let mut h = self.histograms.lock().unwrap_or_else(|e| e.into_inner());
        for h in h.iter_mut() {
            // Within the bounds just clamped to.
            let _ = h.record(micros);
        }
    }

    /// The moves since the server started (`since_start`) or since the last report, which this
    /// one then ends; `None` when there were none.
    pub fn report(&self, since_start: bool) -> Option<Summary> {
        let mut h = self.histograms.lock().unwrap_or_else(|e| e.into_inner());
        let i = usize::from(!since_start);
        let summary = summarize(&h[i]);
        if !since_start {
            h[1].reset();
        }
        summary
    }
}

fn summarize(h: &Histogram<u64>) -> Option<Summary> {
    if h.is_empty() {
        return None;
    }
    let at = |q: f64| Duration::from_micros(h.value_at_quantile(q));
    Some(Summary {
        count: h.len(),
        median: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        max: Duration::from_micros(h.max()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_what_was_recorded() {
        let l = Latency::default();
        assert_eq!(l.report(true), None);
        for ms in 1..=100 {
            l.record(Duration::from_millis(ms));
        }
        let s = l.report(false).unwrap();
        assert_eq!(s.count, 100);
        let near = |d: Duration, ms: u64| d.abs_diff(Duration::from_millis(ms)).as_micros() < 200;
        assert!(near(s.median, 50), "{s}");
        assert!(near(s.p95, 95), "{s}");
        assert!(near(s.p99, 99), "{s}");
        assert!(near(s.max, 100), "{s}");
        // The report ended the period; the total since the start remains.
        assert_eq!(l.report(false), None);
        l.record(Duration::from_millis(7));
        assert_eq!(l.report(false).unwrap().count, 1);
        assert_eq!(l.report(true).unwrap().count, 101);
    }
}
