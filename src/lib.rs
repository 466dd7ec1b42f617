//! draughts: International, Frisian and English draughts — rules, formats, and the tools built on
//! them.
//!
//! The layers, from the bottom up (each uses only those below it):
//! - [`rules`]: the rules core — boards, pieces, moves, games, notations, PDN, perft. Pure.
//! - [`clock`] and [`date`]: time controls and today's date. Pure. [`bounded`]: input read
//!   with a limit (files, protocol lines).
//! - [`tablebase`] and [`engine`]: endgame tables and the search built on the rules.
//! - [`hub`]: the Hub protocol — the engine as a Hub engine, and Hub engines as players.
//! - [`play`], [`club`] and [`config`]: a game in play and its analysis; the club's members,
//!   ratings and tournaments; the settings file.
//! - [`lobby`], [`dxp`], [`arena`]: the club server's shared state, DXP games, engine matches.
//! - [`tui`] and [`ssh`]: the terminal screens, and the club server that runs them over SSH.
//! - [`web`]: the club's results as web pages, published to a folder or served live.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod rules;

pub use rules::{Color, Kind, Move, MoveList, Piece, Position, Setup, SetupError, Square, Variant};

pub mod arena;
pub mod bounded;
pub mod clock;
pub mod club;
pub mod config;
pub mod date;
pub mod dxp;
pub mod engine;
pub mod hub;
pub mod lobby;
pub mod play;
pub mod ssh;
pub mod tablebase;
pub mod tui;
pub mod web;
