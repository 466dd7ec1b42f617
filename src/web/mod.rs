//! The club's results on the web: the same records the terminal shows, as pages a browser reads.
//!
//! `site` reads what is published from the club database (read-only: nothing here writes to the
//! club); `routes` says which pages and files there are and gives each one's bytes; `publish`
//! writes them to a folder as a static site. The pages: `home` (tournaments, recent games, rating lists), `tournament`
//! (standings, crosstable, rounds; a round's page for printing), `member` (ratings and their
//! history, tournaments, games), `game` (the game viewer). Below them `layout` (the frame every
//! page shares), `board` (the board in SVG) and `chart` (line charts in SVG).
//!
//! `http` serves the same pages live from the club server, with `live` (the games in progress
//! and each one's event stream).
//!
//! The pages are written with maud: its templates are Rust, checked when the program is built
//! (a misspelt field is a compile error, not a blank on a page), escape everything they are given
//! unless told otherwise, and need no template files at run time.

mod board;
mod chart;
mod game;
mod home;
pub mod http;
mod layout;
mod live;
mod member;
pub mod publish;
mod routes;
pub mod site;
mod tournament;

pub use publish::{PublishError, Published, publish};
pub use site::{File, Options, Site};

#[cfg(test)]
pub(crate) mod tests;
