//! The rules core: the three variants' boards, pieces, moves and games, their notations, and
//! perft. Pure: no I/O, no terminal, database or network, and nothing else of this crate.
//!
//! Inside, the dependencies run one way: `geometry` → `piece` → `variant` → `board` → `moves` →
//! `movegen` (and `zobrist`) → `notation` → `game` → `pdn`; `perft` counts with `movegen`.
#![forbid(unsafe_code)]

pub mod board;
pub mod game;
pub mod geometry;
pub(crate) mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod piece;
pub mod variant;
mod zobrist;

pub use board::{Position, Setup, SetupError, Square};
pub use moves::{Move, MoveList};
pub use piece::{Color, Kind, Piece};
pub use variant::Variant;
