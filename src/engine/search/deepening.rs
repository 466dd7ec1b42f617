//! Iterative deepening: the root searched one ply deeper at a time within an aspiration window
//! around the last score, the time kept, each completed iteration reported, the principal
//! variation read back from the table; and on more than one thread the helpers of lazy SMP,
//! which search the same root from their own threads and share only the table.

use super::report::{Info, Outcome};
use super::score::{MATE, MAX_PLY, is_decisive};
use super::{INF, Limits, Searcher};
use crate::rules::board::Position;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variant::with_rules;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Half the first aspiration window, in hundredths of a man.
const ASPIRATION: i32 = 25;

/// Sets the helpers' stop flags when the main search ends, even by a panic (the scope that
/// runs the helpers would otherwise wait for them for ever).
struct StopHelpers(Vec<Arc<AtomicBool>>);

impl Drop for StopHelpers {
    fn drop(&mut self) {
        for flag in &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

impl Searcher {
    /// The principal variation from the table.
    fn pv(&self, root: &Position, first: Move) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = root.play(&first);
        let mut seen = vec![root.zobrist(), pos.zobrist()];
        while line.len() < 32 {
            let Some(e) = self.table.probe(pos.zobrist()) else {
                break;
            };
            let moves = pos.legal_moves();
            let Some(&mv) = moves.as_slice().get(e.best as usize) else {
                break;
            };
            pos = pos.play(&mv);
            if seen.contains(&pos.zobrist()) {
                break;
            }
            seen.push(pos.zobrist());
            line.push(mv);
        }
        line
    }

    /// Searches `root` (with `history`, the hashes of the game's earlier positions, for
    /// repetitions) within `limits`, reporting each completed iteration to `info`.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: Limits,
        info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let started = Instant::now();
        self.aborted = false;
        self.nodes = 0;
        self.node_limit = limits.nodes;
        self.deadline = limits.max_time.or(limits.time).map(|t| started + t);
        let mut moves = root.legal_moves();
        let mut outcome = Outcome {
            best: moves.iter().next().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: moves.iter().next().copied().into_iter().collect(),
        };
        // A forced move is still searched when asked: its score is what an analyst or a weak
        // level's root scoring wants (players that only need the move skip the search).
        if moves.is_empty() {
            outcome.score = -MATE;
            return outcome;
        }
        if let Some(best) = self.tablebase_move(root) {
            outcome.best = Some(best.0);
            outcome.score = best.1;
            outcome.pv = vec![best.0];
            info(&Info {
                depth: 1,
                score: best.1,
                nodes: 0,
                time: started.elapsed(),
                pv: outcome.pv.clone(),
            });
            return outcome;
        }
        self.results_root = self.results_only_root(root);
        if let Some(r) = &self.results_root {
            moves = r.moves.clone();
            outcome.best = moves.iter().next().copied();
            outcome.pv = outcome.best.into_iter().collect();
        }
        self.path = history.to_vec();
        self.path.push(root.zobrist());
        self.table.new_search();
        let mut helpers = std::mem::take(&mut self.helpers);
        let stops = StopHelpers(helpers.iter().map(Searcher::stop_flag).collect());
        let counters: Vec<Arc<AtomicU64>> =
            helpers.iter().map(|h| Arc::clone(&h.counter)).collect();
        let helper_nodes = || {
            counters
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .sum::<u64>()
        };
        let mut outcome = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().enumerate() {
                h.reset_stop();
                // Zeroed here, not in the helper's thread, so no report counts the last search.
                h.counter.store(0, Ordering::Relaxed);
                h.completed.store(0, Ordering::Relaxed);
                h.results_root.clone_from(&self.results_root);
                scope.spawn(move || h.help(root, history, i));
            }
            let outcome = self.deepen(root, &moves, limits, started, outcome, info, &helper_nodes);
            drop(stops);
            outcome
        });
        outcome.nodes = self.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        // A helper that completed a deeper iteration than the main thread, within the depth
        // asked for, knows the better move.
        let deepest = helpers
            .iter()
            .filter_map(|h| Completed::unpack(h.completed.load(Ordering::Relaxed)))
            .max_by_key(|c| c.depth);
        if let Some(c) = deepest
            && c.depth > outcome.depth
            && limits.depth.is_none_or(|d| c.depth <= d)
            && let Some(&best) = moves.as_slice().get(c.best)
        {
            outcome.best = Some(best);
            outcome.score = c.score;
            outcome.depth = c.depth;
            outcome.pv = self.pv(root, best);
        }
        self.helpers = helpers;
        outcome
    }

    /// The main thread's iterative deepening.
    #[allow(clippy::too_many_arguments)]
    fn deepen(
        &mut self,
        root: &Position,
        moves: &MoveList,
        limits: Limits,
        started: Instant,
        mut outcome: Outcome,
        info: &mut dyn FnMut(&Info),
        helper_nodes: &dyn Fn() -> u64,
    ) -> Outcome {
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 2)
            .min(MAX_PLY as u32 - 2);
        let mut last_best = None;
        let mut frames = std::mem::take(&mut self.frames);
        let root_key = root.zobrist();
        for depth in 1..=max_depth {
            // The game's history comes without its moves: every position of it may repeat.
            let reversible = self.path.len() - 1;
            self.root_partial = None;
            let score = self.aspire(
                &mut frames,
                root,
                root_key,
                depth as i32,
                outcome.score,
                reversible,
            );
            if self.aborted {
                // The first move searched is the last iteration's best; a move that beat it
                // before the clock ran out is the better choice.
                if let Some((i, score)) = self.root_partial
                    && depth > 1
                {
                    let best = moves.as_slice()[i];
                    outcome.best = Some(best);
                    outcome.score = score;
                    outcome.pv = self.pv(root, best);
                }
                break;
            }
            let best = moves.as_slice()[self.root_best];
            let unstable =
                last_best.is_some_and(|b| b != best) || (depth > 4 && score < outcome.score - 30);
            last_best = Some(best);
            outcome = Outcome {
                best: Some(best),
                score,
                depth,
                nodes: self.nodes + helper_nodes(),
                pv: self.pv(root, best),
            };
            info(&Info {
                depth,
                score,
                nodes: outcome.nodes,
                time: started.elapsed(),
                pv: outcome.pv.clone(),
            });
            if is_decisive(score) && depth as i32 > MATE - score.abs() + 2 {
                break;
            }
            // Start no iteration that cannot finish (the next one takes a few times longer),
            // unless the time is fixed: then every moment of it is used.
            if let Some(t) = limits.time
                && limits.max_time.is_some_and(|m| m > t)
            {
                let spent = started.elapsed();
                let target = if unstable {
                    limits.max_time.unwrap_or(t)
                } else {
                    t
                };
                if spent * 5 / 2 > target {
                    break;
                }
            }
        }
        self.frames = frames;
        outcome
    }

    /// The root searched `depth` plies deep within an aspiration window around `last`, the
    /// score of the iteration before, widened on each side it fails on: most iterations land
    /// near it, and a narrow window cuts more.
    fn aspire(
        &mut self,
        frames: &mut [super::Frame],
        root: &Position,
        root_key: u64,
        depth: i32,
        last: i32,
        reversible: usize,
    ) -> i32 {
        let mut delta = ASPIRATION;
        let (mut low, mut high) = if depth >= 5 && !is_decisive(last) {
            (last - delta, last + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = with_rules!(root.variant(), R => self.negamax::<R, true>(
                frames, root, root_key, depth, low, high, 0, reversible,
            ));
            if self.aborted || (low < score && score < high) {
                return score;
            }
            delta *= 2;
            if score <= low {
                low = if delta > 8 * ASPIRATION {
                    -INF
                } else {
                    score - delta
                };
            } else {
                high = if delta > 8 * ASPIRATION {
                    INF
                } else {
                    score + delta
                };
            }
        }
    }

    /// A helper thread's search: iterative deepening of the same root with aspiration windows,
    /// each helper of an even index a ply ahead of the main thread, until its stop flag is set;
    /// each completed iteration is published for the main thread.
    fn help(&mut self, root: &Position, history: &[u64], index: usize) {
        self.aborted = false;
        self.nodes = 0;
        self.node_limit = None;
        self.deadline = None;
        self.path = history.to_vec();
        self.path.push(root.zobrist());
        let mut frames = std::mem::take(&mut self.frames);
        let reversible = self.path.len() - 1;
        let first = 1 + i32::from(index.is_multiple_of(2));
        let mut last = 0;
        for depth in first..MAX_PLY as i32 - 2 {
            let score = self.aspire(&mut frames, root, root.zobrist(), depth, last, reversible);
            if self.aborted {
                break;
            }
            last = score;
            let done = Completed {
                depth: depth as u32,
                best: self.root_best,
                score,
            };
            self.completed.store(done.pack(), Ordering::Relaxed);
        }
        self.frames = frames;
    }
}

/// A helper's completed iteration: its depth, the index of its best root move among the root's
/// moves (the main thread's list) and its score, packed in one word so that the main thread
/// reads all three at once (0: none yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Completed {
    depth: u32,
    best: usize,
    score: i32,
}

impl Completed {
    fn pack(self) -> u64 {
        (u64::from(self.depth) << 32)
            | ((self.best as u64 & 0xffff) << 16)
            | u64::from(self.score as i16 as u16)
    }

    fn unpack(word: u64) -> Option<Completed> {
        let depth = (word >> 32) as u32;
        (depth > 0).then_some(Completed {
            depth,
            best: ((word >> 16) & 0xffff) as usize,
            score: i32::from(word as u16 as i16),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_completed_iteration_reads_back_as_written(
            depth in 1u32..126,
            best in 0usize..256,
            score in -MATE..=MATE,
        ) {
            let c = Completed { depth, best, score };
            prop_assert_eq!(Completed::unpack(c.pack()), Some(c));
        }
    }

    #[test]
    fn no_iteration_reads_as_none() {
        assert_eq!(Completed::unpack(0), None);
    }
}
