//! Retrograde solving of one part of a job: the whole job, or one of its sub-slices.
//!
//! 1. *Seed.* Every position is generated forward once. Moves that leave the part (captures and
//!    promotions, which reach finished slices, and in a sub-slice the men's moves, which reach
//!    finished sub-slices) have known values: the best of them is the position's *exit*. The
//!    other moves are counted.
//! 2. *Levels.* Values are settled in order of distance: at level `L` the exits worth `L` are
//!    settled, then every position settled at `L` updates its predecessors in the part (found by
//!    un-moving the opponent's pieces): a loss at `L` makes each predecessor a win at `L + 1`; a
//!    win at `L` uses up one of the predecessor's moves, and a predecessor whose moves are all
//!    used up is a loss at `L + 1` (or later, if an exit loses more slowly). Ascending levels
//!    make wins as short and losses as long as they can be.
//! 3. Whatever is unsettled at the end is a draw.
//!
//! Both steps run in parallel over chunks of the part; predecessors are updated with atomics.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rules::board::Position;
use crate::rules::movegen;
use crate::rules::moves::MoveList;
use crate::rules::piece::Color;
use crate::rules::variant::{RuleSet, Variant};
use crate::tablebase::index::{Indexer, Placement, Walker};
use crate::tablebase::progress::Progress;
use crate::tablebase::store::{Store, normalize, position_of};
use crate::tablebase::subslice::{CAPTURE, Part};
use crate::tablebase::value::Dtw;

/// Positions handled by one parallel task.
const CHUNK: usize = 1 << 14;

/// Settled values in memory: 0 = not settled, else the DTW code + 1.
#[inline(always)]
fn packed(v: Dtw) -> u16 {
    v.code() + 1
}

#[inline(always)]
fn unpacked(p: u16) -> Dtw {
    Dtw::from_code(p - 1)
}

/// What a part is solved against.
pub(crate) struct Job<'a> {
    /// The variant.
    pub variant: Variant,
    /// Finished slices, for captures and promotions.
    pub store: &'a Store,
    /// The job's slices: the job's material and, when it is another one, its partner.
    pub ixs: &'a [Indexer],
    /// In a sub-slice: the values of each slice (top bit: the position must capture), final
    /// wherever the men stand further advanced than in the part. `None` for a whole job.
    pub finished: Option<Vec<&'a [u16]>>,
}

impl Job<'_> {
    /// The slice of the job holding positions of `m`.
    #[inline]
    fn slice_of(&self, m: crate::tablebase::material::Material) -> usize {
        usize::from(self.ixs[0].material() != m)
    }

    /// The slice holding the positions reached by a move from `slice` (the other side to move).
    #[inline]
    fn other(&self, slice: usize) -> usize {
        if self.ixs.len() == 2 { 1 - slice } else { 0 }
    }
}

/// Walks a part's positions in its own numbering, from slice range to slice range.
struct Cursor<'a> {
    part: &'a Part,
    ixs: &'a [Indexer],
    segment: usize,
    walker: Walker<'a>,
    /// The part's number of the position the walker stands on.
    at: u64,
}

impl<'a> Cursor<'a> {
    fn new(part: &'a Part, ixs: &'a [Indexer], local: u64) -> Cursor<'a> {
        let segment = part.segment_of(local);
        let s = part.segments()[segment];
        Cursor {
            part,
            ixs,
            segment,
            walker: Walker::new(&ixs[s.slice], s.start + local - s.local),
            at: local,
        }
    }

    /// The slice and placement of the current position.
    #[inline]
    fn current(&self) -> (usize, Placement) {
        (
            self.part.segments()[self.segment].slice,
            self.walker.placement(),
        )
    }

    /// Steps to the next position of the part (none after the last: the cursor is then spent).
    #[inline]
    fn advance(&mut self) {
        self.at += 1;
        let s = &self.part.segments()[self.segment];
        if self.at < s.local + s.len {
            self.walker.advance();
        } else if let Some(next) = self.part.segments().get(self.segment + 1) {
            self.segment += 1;
            self.walker = Walker::new(&self.ixs[next.slice], next.start);
        }
    }
}

/// One part being solved. A position's state word holds its settled value (low 16 bits, 0 while
/// unsettled) and its count of unrefuted moves inside the part (next 8 bits), so that the update
/// of a predecessor touches one word.
struct Work {
    state: Vec<AtomicU32>,
    exit: Vec<u16>,
}

const LEFT_ONE: u32 = 1 << 16;

#[inline(always)]
fn value_of(state: u32) -> u16 {
    state as u16
}

#[inline(always)]
fn left_of(state: u32) -> u32 {
    (state >> 16) & 0xFF
}

/// Solves a part; returns the value of each of its positions in its numbering: the DTW code,
/// with [`CAPTURE`] set where the position must capture.
pub(crate) fn solve<R: RuleSet>(job: &Job<'_>, part: &Part, progress: &Progress) -> Vec<u16> {
    let n = part.positions() as usize;
    let mut work = Work {
        state: (0..n).map(|_| AtomicU32::new(0)).collect(),
        exit: vec![0; n],
    };

    // Seed: exits and move counts.
    let deepest = AtomicU64::new(0);
    {
        let state = &work.state;
        work.exit
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, exits)| {
                let start = c * CHUNK;
                let mut cursor = Cursor::new(part, job.ixs, start as u64);
                let mut list = MoveList::new();
                let mut chunk_deepest = 0;
                for (j, exit) in exits.iter_mut().enumerate() {
                    let pos = position_of(job.variant, cursor.current().1);
                    let (e, n) = seed::<R>(job, &pos, &mut list);
                    *exit = e;
                    // With no move inside the part the exit is the value.
                    let settled = if n == 0 { e & !CAPTURE } else { 0 };
                    state[start + j].store((n as u32) << 16 | settled as u32, Relaxed);
                    if e & !CAPTURE != 0 {
                        chunk_deepest = chunk_deepest.max(unpacked(e & !CAPTURE).plies());
                    }
                    cursor.advance();
                }
                deepest.fetch_max(chunk_deepest as u64, Relaxed);
                progress.inc(exits.len() as u64);
            });
    }
    let deepest_exit = deepest.into_inner() as u32;

    // Levels.
    let mut level = 0u32;
    loop {
        settle_exits(&work, level);
        let frontier = propagate::<R>(job, part, &work, level, progress);
        if frontier == 0 && level > deepest_exit {
            break;
        }
        level += 1;
    }

    // The values, written over the exits (no longer needed) so that no third array is made.
    let Work { state, mut exit } = work;
    let drawn = AtomicU64::new(0);
    exit.par_chunks_mut(CHUNK)
        .zip(state.par_chunks(CHUNK))
        .for_each(|(exits, states)| {
            let mut draws = 0;
            for (e, s) in exits.iter_mut().zip(states) {
                let code = match value_of(s.load(Relaxed)) {
                    0 => {
                        draws += 1;
                        Dtw::Draw.code()
                    }
                    v => v - 1,
                };
                debug_assert!(code & CAPTURE == 0, "distances stay below 32768 plies");
                *e = code | (*e & CAPTURE);
            }
            drawn.fetch_add(draws, Relaxed);
        });
    progress.inc(drawn.into_inner());
    exit
}

/// A position's exit (best value among moves that leave the part, with the capture flag, 0 when
/// there is none) and the number of its moves that stay in the part.
#[inline]
fn seed<R: RuleSet>(job: &Job<'_>, pos: &Position, list: &mut MoveList) -> (u16, u8) {
    movegen::generate::<R>(pos, list);
    if list.is_empty() {
        return (packed(Dtw::Loss(0)), 0);
    }
    let top = R::RULES.geometry.top_row;
    let capture = list.as_slice()[0].is_capture();
    let mut best: Option<Dtw> = None;
    let mut inside = 0u8;
    for mv in list.iter() {
        let man = pos.kings & (1u64 << mv.from) == 0;
        let promotes = man && (1u64 << mv.to) & top != 0;
        let reached = if capture || promotes {
            job.store.value(&movegen::make::<R>(pos, mv))
        } else if let (true, Some(finished)) = (man, &job.finished) {
            let (m, p) = normalize(&movegen::make::<R>(pos, mv));
            let slice = job.slice_of(m);
            Dtw::from_code(finished[slice][job.ixs[slice].rank(p) as usize] & !CAPTURE)
        } else {
            inside += 1;
            continue;
        };
        let v = reached.before();
        if best.is_none_or(|b| v.preference() > b.preference()) {
            best = Some(v);
        }
    }
    let exit = best.map_or(0, packed);
    if capture {
        (exit | CAPTURE, 0)
    } else {
        (exit, inside)
    }
}

/// Settles the positions whose exit is worth `level`: a win always, a loss once no move inside
/// the part is left.
fn settle_exits(w: &Work, level: u32) {
    w.state
        .par_chunks(CHUNK)
        .zip(w.exit.par_chunks(CHUNK))
        .for_each(|(states, exits)| {
            for (state, &e) in states.iter().zip(exits) {
                let e = e & !CAPTURE;
                let s = state.load(Relaxed);
                if e == 0 || value_of(s) != 0 {
                    continue;
                }
                let done = match unpacked(e) {
                    Dtw::Win(p) => p == level,
                    Dtw::Loss(p) => p == level && left_of(s) == 0,
                    Dtw::Draw => false,
                };
                if done {
                    state.store(s | e as u32, Relaxed);
                }
            }
        });
}

/// Updates the predecessors of every position settled at `level` with a win or a loss. Returns
/// how many positions were on that level.
fn propagate<R: RuleSet>(
    job: &Job<'_>,
    part: &Part,
    w: &Work,
    level: u32,
    progress: &Progress,
) -> u64 {
    // Wins take an odd number of plies and losses an even number, so a level holds one kind.
    let losing_level = level.is_multiple_of(2);
    let here = packed(if losing_level {
        Dtw::Loss(level)
    } else {
        Dtw::Win(level)
    });
    let win_next = packed(Dtw::Win(level + 1));
    let loss_next = packed(Dtw::Loss(level + 1));
    // In a sub-slice the men's moves lead out of it, so only the kings are moved back.
    let men_too = job.finished.is_none();
    let settled = AtomicU64::new(0);
    w.state
        .par_chunks(CHUNK)
        .enumerate()
        .for_each(|(c, states)| {
            let start = (c * CHUNK) as u64;
            let mut cursor: Option<Cursor<'_>> = None;
            let mut count = 0u64;
            for (j, s) in states.iter().enumerate() {
                if value_of(s.load(Relaxed)) != here {
                    continue;
                }
                count += 1;
                let local = start + j as u64;
                let (slice, p) = match &mut cursor {
                    Some(c) if local - c.at < 64 => {
                        while c.at < local {
                            c.advance();
                        }
                        c.current()
                    }
                    _ => cursor.insert(Cursor::new(part, job.ixs, local)).current(),
                };
                let to = job.other(slice);
                predecessors::<R>(job.variant, p, men_too, |q| {
                    let i = part
                        .local(to, job.ixs[to].rank(q))
                        .expect("a king's move keeps the men where they are, in the part")
                        as usize;
                    let state = &w.state[i];
                    if value_of(state.load(Relaxed)) != 0 {
                        return;
                    }
                    // Only one kind of write happens on a level, so these need no retry loop:
                    // on a losing level every writer sets the same win; on a winning level only
                    // the update that uses up the last move settles the position.
                    if losing_level {
                        state.fetch_or(win_next as u32, Relaxed);
                        return;
                    }
                    if left_of(state.fetch_sub(LEFT_ONE, Relaxed)) != 1 {
                        return;
                    }
                    let e = w.exit[i] & !CAPTURE;
                    let settle = match e {
                        0 => loss_next,
                        e => match unpacked(e) {
                            Dtw::Win(_) => return,
                            Dtw::Draw => e,
                            Dtw::Loss(p) if p <= level + 1 => loss_next,
                            Dtw::Loss(_) => return,
                        },
                    };
                    state.fetch_or(settle as u32, Relaxed);
                });
            }
            settled.fetch_add(count, Relaxed);
            progress.inc(count);
        });
    settled.into_inner()
}

/// Calls `f` with every position (turned round, so its side to move plays up) from which the
/// opponent of `p`'s side to move reached `p` with a simple move that is legal there: a move
/// back by one of its kings, or by one of its men when `men_too`, that leaves a position where
/// it had no capture.
#[inline]
fn predecessors<R: RuleSet>(
    variant: Variant,
    p: Placement,
    men_too: bool,
    mut f: impl FnMut(Placement),
) {
    let g = R::RULES.geometry;
    let empty = g.board & !(p.us | p.them);
    let us = g.flip(p.us);
    let mut visit = |them: u64, kings: u64| {
        let q = Placement {
            us: g.flip(them),
            them: us,
            kings: g.flip(kings),
        };
        // Checking the capture here is cheaper than the memory access it saves.
        if !movegen::has_capture::<R>(&position_of(variant, q)) {
            f(q);
        }
    };
    let mut men = if men_too { p.them & !p.kings } else { 0 };
    while men != 0 {
        let bit = men & men.wrapping_neg();
        men &= men - 1;
        for &d in movegen::forward(Color::Black) {
            let back = g.shift(bit, crate::rules::geometry::REVERSE[d]) & empty;
            if back != 0 {
                visit(p.them ^ bit ^ back, p.kings);
            }
        }
    }
    let mut kings = p.them & p.kings;
    while kings != 0 {
        let bit = kings & kings.wrapping_neg();
        kings &= kings - 1;
        for d in movegen::DIAGONALS {
            let mut back = g.shift(bit, d) & empty;
            while back != 0 {
                visit(p.them ^ bit ^ back, p.kings ^ bit ^ back);
                if !R::RULES.flying_kings {
                    break;
                }
                back = g.shift(back, d) & empty;
            }
        }
    }
}
