//! Scores in the search and in its table: proven results (a forced end of the game, a
//! tablebase value) counted in plies, and what a table entry proves at a node.

use crate::engine::table::{EXACT, Entry, LOWER, UPPER};

/// The side to move has no move: lost, at `ply` from the root.
pub const MATE: i32 = 30_000;
/// A tablebase win, less the ply it is found at.
pub const TB_WIN: i32 = 20_000;
/// The deepest ply a search reaches.
pub(super) const MAX_PLY: usize = 128;

/// Whether a score is a proven result (a mate or a tablebase value) rather than an estimate.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN - MAX_PLY as i32
}

/// Mate and tablebase scores count plies from the root; the table keeps them from the node, so a
/// position reached at another ply reads the right distance.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if is_decisive(score) {
        score + score.signum() * ply as i32
    } else {
        score
    }
}

/// A score read from the table, counted again from the root: [`to_table`] undone.
pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if is_decisive(score) {
        score - score.signum() * ply as i32
    } else {
        score
    }
}

/// The score `entry` proves at a node searched `depth` plies deep within `alpha`..`beta` (never
/// at the root, which must choose a move).
pub(super) fn table_cut(
    entry: Option<Entry>,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    let e = entry?;
    if ply == 0 || i32::from(e.depth) < depth {
        return None;
    }
    let score = from_table(e.score, ply);
    let hit = match e.bound {
        EXACT => true,
        LOWER => score >= beta,
        UPPER => score <= alpha,
        _ => false,
    };
    hit.then_some(score)
}
