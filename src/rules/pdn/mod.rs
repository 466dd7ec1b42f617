//! PDN 3.0: reading and writing files of games with tags, comments, variations and annotations.
//!
//! Reading is lenient where real files differ harmlessly from the standard (`:` as capture
//! separator, leading zeros, spaces inside moves, full capture paths, CRLF, Latin-1) and strict
//! where the game itself is at stake: every move is replayed and must be legal. An error names the
//! line, column and reason, and only ends the game it is in.
#![forbid(unsafe_code)]

mod lex;
mod read;
mod record;
mod write;

pub use lex::decode;
pub use read::{MAX_VARIATION_DEPTH, PdnError, read_bytes, read_games};
pub use record::{GameResult, Line, PdnGame, PdnMove, result_text};
pub use write::{move_number, write_game, write_games};

#[cfg(test)]
mod tests;
