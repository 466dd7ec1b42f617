//! A game in play: the live game with its clock, offers and adjudication (`live`), and the
//! analysis that follows the position shown, by the built-in engine or a Hub engine
//! (`analysis`), and the arbiter's verdict on a position the tablebases hold (`verdict`).

pub mod analysis;
mod live;
pub mod review;
pub mod verdict;

pub use live::{LiveGame, MoveTime, Notice, Offer, Options, read_clock_comment};
