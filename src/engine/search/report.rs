//! What a search tells its caller: a report after each iteration, and its outcome.

use crate::rules::moves::Move;
use std::time::Duration;

/// A progress report after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Score for the side to move (hundredths of a man; near ±30000 a forced end, near ±20000 a
    /// tablebase result).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play (`None` only without legal moves).
    pub best: Option<Move>,
    /// Its score.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}
