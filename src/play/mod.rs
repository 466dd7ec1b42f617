//! A game in play: the live game with its clock, offers and adjudication (`live`), and the
//! analysis that follows the position shown, by the built-in engine or a Hub engine
//! (`analysis`).

pub mod analysis;
mod live;

pub use live::{LiveGame, MoveTime, Notice, Offer, Options, read_clock_comment};
