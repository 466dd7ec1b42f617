//! The club's memory: members and their roles, ratings, tournaments and games in one SQLite
//! database shared by the TUI, the command line and the club server. Every change goes through
//! `store`'s one write path, which checks who acts against `access`'s table and appends to the
//! `audit`; the pairing systems (`pairing`, `dutch`, `keizer`, `matching`) are pure functions
//! below it.

pub mod access;
pub mod audit;
pub mod backup;
pub mod criteria;
pub mod dutch;
mod error;
pub mod games;
pub mod keizer;
pub mod matching;
pub mod members;
pub mod online;
pub mod pairing;
pub mod rating;
pub mod ratings;
pub mod settings;
pub mod store;
pub mod tiebreak;
pub mod tournament;
pub mod trf;

pub use error::ClubError;
pub use store::Store;
