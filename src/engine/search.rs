//! The search: iterative deepening principal-variation search with a transposition table,
//! capture sequences always searched to the end, killer and history move ordering, late-move
//! reductions, repetition detection, exact tablebase values inside the tree and a cache of the
//! leaves' values; on more than one thread, lazy SMP: helper threads search the same root a ply
//! ahead, sharing only the transposition table, and the main thread's result is the search's.
//! The tree search is compiled once per variant (its rules as a type), so a node calls its
//! variant's move generator, move making and evaluation directly. This file is the tree below
//! the root; the root's iterations, the clock and the helper threads are in `deepening`.

use super::eval::model::material_unit;
use super::eval::{Model, builtin};
use super::table::{EXACT, Entry, LOWER, Table, UPPER};
use crate::rules::board::Position;
use crate::rules::movegen::{generate, has_capture, make, quiet_count_or_captures};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::variant::{CapturePriority, RuleSet, Variant};
use crate::tablebase::Tablebase;
use evals::Evals;
pub use limits::Limits;
use ordering::{Frame, MoveOrdering};
pub use report::{Info, Outcome};
pub use score::{MATE, TB_WIN, is_decisive};
use score::{MAX_PLY, from_table, table_cut, to_table};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A child position and its hash.
type Child = (Position, u64);

const INF: i32 = 32_000;
/// ProbCut's shallowest node.
const PROBCUT_DEPTH: i32 = 3;
/// ProbCut's margin a ply of the depth it stands for (hundredths of a man): the deeper the
/// search it spares, the surer the shallow one must be.
const PROBCUT_MARGIN_PER_PLY: i32 = 5;
/// Lazy evaluation's margin: a quiet leaf whose material alone is two men beyond the window is
/// not evaluated further. Of the leaves so cut, the whole evaluation would have come back inside
/// the window for one in a hundred in a tactical middle game (the Woldouby position, where a
/// third of the leaves are cut) and one in 100,000 in the bench positions (nearly two in three
/// cut); with one man and a half, for one in thirty on Woldouby.
const LAZY_MARGIN: i32 = 200;
/// The least depth at which the children's table entries are asked for a cutoff before any is
/// searched (below it, making every child costs more than the searches it spares).
const ETC_DEPTH: i32 = 5;
/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;
/// The table's size in MB unless asked otherwise: every engine seat (the play screen, matches,
/// Hub and DXP) and analysis use it.
pub const DEFAULT_TABLE_MB: usize = 64;

/// A searcher: its table and ordering heuristics persist between searches of one game.
pub struct Searcher {
    table: Arc<Table>,
    /// Killer moves and history scores.
    ordering: MoveOrdering,
    tablebase: Option<Arc<Tablebase>>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    path: Vec<u64>,
    aborted: bool,
    /// One frame per ply, lent to the search while it runs.
    frames: Vec<Frame>,
    /// Evaluation weights other than the shipped ones (training and matches between versions).
    model: Option<Arc<Model>>,
    /// The values of the leaves evaluated lately.
    evals: Evals,
    /// The other threads' searchers, sharing the table (empty on one thread).
    helpers: Vec<Searcher>,
    /// A helper's nodes so far, published every 1,024 nodes for the main thread's reports.
    counter: Arc<AtomicU64>,
    /// A helper's last completed iteration, for the main thread ([`deepening::Completed`]).
    completed: Arc<AtomicU64>,
    /// The best move's index at the root after the last completed iteration.
    root_best: usize,
    /// The best root move so far in the running iteration and its score: after the first
    /// move's search, only a move proven better replaces it, so an iteration cut short by the
    /// clock still tells the better move when it found one.
    root_partial: Option<(usize, i32)>,
    /// A root the tables hold with results only, for this search: the root moves kept to and
    /// the material not probed.
    results_root: Option<endgame::ResultsRoot>,
    /// Whether the node about to be searched has its table slot at hand (asked for a move
    /// ahead, or read already): set by its caller just before the call, read on entry.
    warm: bool,
    /// Whether a ProbCut search is running (none is nested in another).
    in_probcut: bool,
}

impl Searcher {
    /// A searcher with a transposition table of `megabytes` MB.
    pub fn new(megabytes: usize, tablebase: Option<Arc<Tablebase>>) -> Searcher {
        Searcher::sharing(Arc::new(Table::new(megabytes)), tablebase)
    }

    fn sharing(table: Arc<Table>, tablebase: Option<Arc<Tablebase>>) -> Searcher {
        Searcher {
            table,
            ordering: MoveOrdering::new(MAX_PLY),
            tablebase,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            deadline: None,
            node_limit: None,
            path: Vec::new(),
            aborted: false,
            frames: (0..MAX_PLY).map(|_| Frame::new()).collect(),
            model: None,
            evals: Evals::new(),
            helpers: Vec::new(),
            counter: Arc::new(AtomicU64::new(0)),
            completed: Arc::new(AtomicU64::new(0)),
            root_best: 0,
            root_partial: None,
            results_root: None,
            warm: false,
            in_probcut: false,
        }
    }

    /// Searches on `threads` threads (1 to [`MAX_THREADS`]) from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut h = Searcher::sharing(Arc::clone(&self.table), self.tablebase.clone());
            h.model = self.model.clone();
            self.helpers.push(h);
        }
    }

    /// The threads a search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Evaluates with `model` instead of the shipped weights (`None`: the shipped ones again).
    pub fn set_model(&mut self, model: Option<Arc<Model>>) {
        for h in &mut self.helpers {
            h.model = model.clone();
            h.evals.clear();
        }
        self.model = model;
        self.evals.clear();
    }

    /// The weights that value the positions of the variant `R`: those set for it, else the
    /// shipped ones.
    #[inline(always)]
    fn model_of<R: RuleSet>(&self) -> &Model {
        match &self.model {
            Some(m) if m.variant() == R::VARIANT => m,
            _ => builtin(R::VARIANT),
        }
    }

    /// The value of `pos`, a position of the variant `R`.
    fn evaluate<R: RuleSet>(&self, pos: &Position) -> i32 {
        let v = self.model_of::<R>().evaluate_in::<R>(pos);
        v / drawish::<R>(pos, v)
    }

    /// The flag that stops the search at once when set (from any thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Clears the stop flag before a new search (a set flag stops the next search at once).
    pub fn reset_stop(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.forget_order();
        for h in &mut self.helpers {
            h.forget_order();
        }
    }

    fn forget_order(&mut self) {
        self.ordering = MoveOrdering::new(MAX_PLY);
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.counter.store(self.nodes, Ordering::Relaxed);
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let many = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || many || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The value of `pos` (hash `key`) searched `depth` plies deep within `alpha`..`beta`;
    /// `reversible` plies (king moves without capture) lead to it, the only ones in which a
    /// position can repeat. `frames` holds this ply's frame and those of the plies below it.
    /// Compiled once per variant: `R` is `pos`'s rules, chosen once at the root. And once per
    /// kind of node: a `PV` node may have an open window (the root, a PV node's first child and
    /// its re-searches); every other node has a null one (`beta == alpha + 1`) and is not the
    /// root, so there the tests of the window and of the root are constants, and a re-search
    /// is no code at all: the same tree as one function for both, with 1.6% fewer instructions
    /// and 5–6% fewer branches (Woldouby to depth 22, the middlegame to depth 20).
    #[allow(clippy::too_many_arguments)]
    fn negamax<R: RuleSet, const PV: bool>(
        &mut self,
        frames: &mut [Frame],
        pos: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        reversible: usize,
    ) -> i32 {
        debug_assert_eq!(
            pos.variant(),
            R::VARIANT,
            "a search compiled for another variant"
        );
        debug_assert!(
            PV || beta - alpha == 1,
            "a null-window node with an open window"
        );
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let root = PV && ply == 0;
        // A window that only asks whether the value reaches `beta`.
        let zero = !PV || beta - alpha == 1;
        if !root {
            // A position seen before with the same side to move, since the last man move or
            // capture (on this path or in the game).
            let n = self.path.len();
            let window = reversible.min(n - 1);
            if self.path[n - 1 - window..n - 1]
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&h| h == key)
            {
                return 0;
            }
        }
        // The table before anything else when the node is searched anyway (a hit spares the
        // moves); a leaf never asks it. A node one or two plies from the horizon whose slot
        // its parent asked for just before the call (its first child's) lists its moves first:
        // the slot is still on its way from memory, and the listing fills the wait (4% faster on
        // the bench than reading first). One whose slot was asked for a move ahead, while its
        // elder brother was searched, or that was searched already (a re-search, ProbCut's
        // search of the same node) finds the slot at hand and reads it first: a hit then spares
        // the listing (the same tree with 2.3% fewer instructions on Woldouby, whose shallow
        // nodes the table cuts often). Only below ProbCut's depth: its search of this same node
        // would write over the listed moves.
        let late_probe = !root && !self.warm && (1..PROBCUT_DEPTH).contains(&depth);
        let mut entry = None;
        if depth >= 1 && !late_probe {
            entry = self.table.probe(key);
            if let Some(score) = table_cut(entry, depth, alpha, beta, ply) {
                return score;
            }
        }
        // ProbCut: at a node that only has to prove `beta`, a search of two fifths of the depth
        // that clears `beta` by a margin growing with the depth stands for the full one, and
        // its value less the margin is the node's. Not inside another ProbCut search (its
        // shallow tree is searched in full), nor near a proven result. Everywhere, the opening
        // included, with this margin: a fixed margin of 0.9 man at half the depth, kept out of
        // the opening and nested, was 29 Elo weaker at 300,000 nodes a move (docs/strength.md,
        // "Version against version").
        let margin = depth * PROBCUT_MARGIN_PER_PLY;
        if !root
            && !self.in_probcut
            && depth >= PROBCUT_DEPTH
            && zero
            && !is_decisive(beta + margin)
        {
            let bound = beta + margin;
            self.warm = true;
            self.in_probcut = true;
            let score = self.negamax::<R, false>(
                frames,
                pos,
                key,
                depth * 2 / 5,
                bound - 1,
                bound,
                ply,
                reversible,
            );
            self.in_probcut = false;
            if self.aborted {
                return 0;
            }
            if score >= bound {
                return score - margin;
            }
        }
        let (frame, deeper) = frames
            .split_first_mut()
            .expect("a frame per ply: the search returns before MAX_PLY");
        // A quiet leaf with a choice of moves is evaluated without listing them (most nodes
        // are such leaves); the same decisions as below, in the same order. One whose material
        // alone lies far outside the window returns the window's bound: the rest of the
        // evaluation would not bring it back, and the pattern reads are its largest cost. A
        // leaf that must capture has its captures listed by the same look that found them.
        let mut listed = false;
        if depth < 1 && !root && ply < MAX_PLY - 1 {
            match quiet_count_or_captures::<R>(pos, &mut frame.moves) {
                Some(n) if n > 1 => {
                    if let Some(v) = self.probe(pos, ply as i32) {
                        return v;
                    }
                    // The material's value is the floor of `scaled / unit`: compared as
                    // `scaled` with the bounds times the unit, it needs no division.
                    if let Some(scaled) = self.model_of::<R>().scaled_material_in::<R>(pos)
                        && !may_be_drawish::<R>(pos)
                    {
                        let unit = material_unit::<R>();
                        if scaled >= (beta + LAZY_MARGIN) * unit {
                            return beta;
                        }
                        if scaled < (alpha - LAZY_MARGIN + 1) * unit {
                            return alpha;
                        }
                    }
                    let k = evals::key::<R>(pos);
                    if let Some(v) = self.evals.get(k) {
                        return v;
                    }
                    let v = self.evaluate::<R>(pos);
                    self.evals.put(k, v);
                    return v;
                }
                Some(_) => {}
                None => listed = true,
            }
        }
        if !listed {
            generate::<R>(pos, &mut frame.moves);
        }
        if root && let Some(r) = &self.results_root {
            frame.moves.retain(|m| r.moves.as_slice().contains(m));
        }
        if late_probe {
            entry = self.table.probe(key);
            if let Some(score) = table_cut(entry, depth, alpha, beta, ply) {
                return score;
            }
        }
        if frame.moves.is_empty() {
            return -MATE + ply as i32;
        }
        let capture = frame.moves.as_slice()[0].is_capture();
        if !root
            && !capture
            && let Some(v) = self.probe(pos, ply as i32)
        {
            return v;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate::<R>(pos);
        }
        // Captures are forced, so a position with one is never a leaf; a single reply costs
        // no depth either (a forced line is as good as one move). The table keeps the depth
        // the node was asked for: a probe at that depth stands for this search, the extension
        // included. A node below the horizon (asked for less than a ply) neither asks nor
        // fills it: its subtree is small, and the memory stall of a probe costs more than it
        // spares.
        let asked = depth;
        let depth = if depth >= 1 && !root && frame.moves.len() == 1 {
            depth + 1
        } else {
            depth.max(1)
        };
        // The table's move is always tried first: its child's slot is asked for now, so that
        // its wait on memory overlaps the ordering instead of following it.
        if depth >= 2
            && let Some(mv) = entry.and_then(|e| frame.moves.as_slice().get(e.best as usize))
        {
            let mut scratch = (*pos, key);
            self.child_of::<R>(pos, key, mv, false, &mut scratch);
        }
        // Enhanced transposition cutoff: at a deep node that only has to prove `beta`, a child
        // the table already proves to refute the opponent spares searching the others first.
        // The children's slots are asked for a batch at a time before any is read, so their
        // waits on memory overlap instead of following one another.
        if !root && depth >= ETC_DEPTH && zero {
            const BATCH: usize = 16;
            let mut keys = [0u64; BATCH];
            let mut scratch = (*pos, key);
            for (b, batch) in frame.moves.as_slice().chunks(BATCH).enumerate() {
                for (k, mv) in keys.iter_mut().zip(batch) {
                    self.child_of::<R>(pos, key, mv, false, &mut scratch);
                    *k = scratch.1;
                }
                for (k, &child) in keys[..batch.len()].iter().enumerate() {
                    let Some(e) = self.table.probe(child) else {
                        continue;
                    };
                    let score = -from_table(e.score, ply + 1);
                    if i32::from(e.depth) >= depth - 1 && e.bound != LOWER && score >= beta {
                        // Kept as this node's bound, so its next visit cuts at the probe.
                        self.keep(key, score, asked, LOWER, b * BATCH + k, ply);
                        return score;
                    }
                }
            }
        }
        self.ordering.order(
            frame,
            entry.map(|e| e.best as usize),
            ply,
            R::RULES.priority != CapturePriority::Free,
        );
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_index = frame.nth(0);
        // Each child's table slot is asked for one move ahead, while the move before it is
        // searched: a slot asked for just before its probe is still on its way from memory.
        // At the horizon the children read no table, so each is made when its turn comes (a
        // node cut by its first move, the most common, then makes no second). The two children
        // live in place, written once by the move and read from there (a position copied just
        // after it was written waits for the writes to land).
        let leaf = depth <= 1;
        let first = frame.moves.as_slice()[frame.nth(0)];
        // The second slot holds the parent until the second child is written over it.
        let mut kids = [(*pos, key); 2];
        self.child_of::<R>(pos, key, &first, leaf, &mut kids[0]);
        for n in 0..frame.moves.len() {
            if n == 1 {
                // The third move is needed from now on: the order past the first two was left.
                frame.sort_rest();
            }
            let i = frame.nth(n);
            let mv = frame.moves.as_slice()[i];
            if leaf {
                if n > 0 {
                    self.child_of::<R>(pos, key, &mv, leaf, &mut kids[n & 1]);
                }
            } else if n + 1 < frame.moves.len() {
                let ahead = &frame.moves.as_slice()[frame.nth(n + 1)];
                self.child_of::<R>(pos, key, ahead, leaf, &mut kids[(n + 1) & 1]);
            }
            let (next, next_key) = (&kids[n & 1].0, kids[n & 1].1);
            // Late-move pruning: one or two plies from the horizon, a node that only has to
            // prove its bound skips its late quiet moves that leave the other side no capture
            // (from the eighth move, the eleventh two plies up) once a move has a value: the
            // ordering put them last, and a move that offers a capture (a sacrifice, where most
            // shots start) is never skipped (docs/strength.md, "Version against version").
            if zero
                && depth <= 2
                && n >= 4 + 3 * depth as usize
                && best > -MATE + MAX_PLY as i32
                && !mv.is_capture()
                && !has_capture::<R>(next)
            {
                continue;
            }
            let next_reversible = if is_reversible(pos, &mv) {
                reversible + 1
            } else {
                0
            };
            self.path.push(next_key);
            // The searches of a child with a null window.
            let mut child = |s: &mut Searcher, depth: i32, alpha: i32, beta: i32, warm: bool| {
                s.warm = warm;
                -s.negamax::<R, false>(
                    deeper,
                    next,
                    next_key,
                    depth,
                    alpha,
                    beta,
                    ply + 1,
                    next_reversible,
                )
            };
            // A PV node's first child, and a later one that lands inside the window, is
            // searched as a PV node with the full window. Every path sets `score` before it is
            // read: a PV node's first child only by that full search.
            let mut score = -INF;
            let full = if n == 0 {
                if !PV {
                    score = child(self, depth - 1, -beta, -alpha, false);
                }
                PV
            } else {
                // Late quiet moves are searched less deeply first.
                let reduce = if depth >= 3 && n >= 3 && !mv.is_capture() && !has_capture::<R>(next)
                {
                    1 + i32::from(n >= 8 && depth >= 6)
                } else {
                    0
                };
                score = child(self, depth - 1 - reduce, -alpha - 1, -alpha, true);
                if score > alpha && reduce > 0 {
                    score = child(self, depth - 1, -alpha - 1, -alpha, true);
                }
                PV && score > alpha && score < beta
            };
            if full {
                self.warm = n > 0;
                score = -self.negamax::<R, true>(
                    deeper,
                    next,
                    next_key,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    next_reversible,
                );
            }
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_index = i;
            }
            if root && score > alpha {
                self.root_partial = Some((i, score));
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    self.ordering.cut(frame, n, depth, ply);
                }
                break;
            }
        }
        if root {
            self.root_best = best_index;
        }
        let bound = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        if asked >= 1 {
            self.keep(key, best, asked, bound, best_index, ply);
        }
        best
    }

    /// Keeps a node's result in the table: `score` (at `ply`) as a `bound` for a search asked
    /// for `depth` plies (before any extension), its best move the `best`th generated.
    fn keep(&self, key: u64, score: i32, depth: i32, bound: u8, best: usize, ply: usize) {
        self.table.store(
            key,
            Entry {
                key,
                score: to_table(score, ply),
                depth: depth.min(127) as i8,
                bound,
                best: best as u8,
            },
        );
    }

    /// The position after `mv` and its hash, written into `child`, with its table slot asked
    /// for. A child of a node at the horizon (`leaf`) never reads the table, and its hash is
    /// only needed to find a repetition: it gets none (0) after a man move or a capture, which
    /// no earlier position can recur past. The hashes folded from that 0 below it differ from
    /// the true ones by one constant (a hash folds in only what a move changes), so the
    /// repetitions among them are still found.
    #[inline(always)]
    fn child_of<R: RuleSet>(
        &self,
        pos: &Position,
        key: u64,
        mv: &Move,
        leaf: bool,
        child: &mut Child,
    ) {
        child.0 = make::<R>(pos, mv);
        child.1 = if leaf & !is_reversible(pos, mv) {
            0
        } else {
            pos.zobrist_after_in::<R>(key, mv, &child.0)
        };
        if !leaf {
            self.table.prefetch(child.1);
        }
    }
}

mod deepening;
mod endgame;
mod evals;
mod limits;
mod ordering;
mod report;
mod score;

/// How much of `value` the material leaves, as a divisor, in International draughts, where
/// kings fly: a side with three pieces or fewer against a side with a king draws unless a shot
/// wins at once (FMJD 6.3 and 6.4 draw the endings against a lone king after 16 and 5 moves):
/// an eighth; as many kings on both sides and men within one of each other, half.
#[inline(always)]
fn drawish<R: RuleSet>(pos: &Position, value: i32) -> i32 {
    if R::VARIANT != Variant::International || value == 0 || pos.kings == 0 {
        return 1;
    }
    let (strong, weak) = if (value > 0) == (pos.side_to_move() == Color::White) {
        (pos.white, pos.black)
    } else {
        (pos.black, pos.white)
    };
    let weak_kings = (weak & pos.kings).count_ones();
    if weak_kings == 0 {
        return 1;
    }
    if strong.count_ones() <= 3 {
        return 8;
    }
    let strong_kings = (strong & pos.kings).count_ones();
    let (strong_men, weak_men) = (
        strong.count_ones() - strong_kings,
        weak.count_ones() - weak_kings,
    );
    if strong_kings == weak_kings && strong_men.abs_diff(weak_men) <= 1 {
        2
    } else {
        1
    }
}

/// Whether [`drawish`] may divide some value: in International draughts, a side with three
/// pieces or fewer and a king on the board, or kings on both sides.
#[inline(always)]
fn may_be_drawish<R: RuleSet>(pos: &Position) -> bool {
    R::VARIANT == Variant::International
        && pos.kings != 0
        && (pos.white.count_ones() <= 3
            || pos.black.count_ones() <= 3
            || (pos.kings & pos.white != 0 && pos.kings & pos.black != 0))
}

/// Whether `mv` is a king's move without capture, after which the position before it can recur.
#[inline(always)]
fn is_reversible(pos: &Position, mv: &Move) -> bool {
    // Both halves taken, without a branch between them: which way it goes follows the moves,
    // not a pattern the processor can guess.
    !mv.is_capture() & (pos.kings & (1u64 << mv.from) != 0)
}

#[cfg(test)]
mod tests;
