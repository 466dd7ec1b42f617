//! draughts: International, Frisian and English draughts — rules, formats, and the tools built on
//! them.
//!
//! The rules core (`geometry`, `variant`, `board`, `moves`, `movegen`, `notation`, `pdn`, `game`,
//! `perft`) does no I/O and depends on no terminal, database or network crate.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod arena;
pub mod board;
pub mod geometry;
mod movegen;
pub mod moves;
pub mod perft;
pub mod variant;
mod zobrist;

pub use board::{Color, Kind, Piece, Position, Setup, SetupError, Square};
pub use moves::{Move, MoveList};
pub use variant::Variant;
pub mod clock;
pub mod club;
pub mod config;
pub mod date;
pub mod dxp;
pub mod engine;
pub mod game;
pub mod hub;
pub mod lobby;
pub mod notation;
pub mod pdn;
pub mod play;
pub mod ssh;
pub mod tablebase;
pub mod tui;
