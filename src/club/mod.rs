//! The club's memory: members (and, as they land, ratings, tournaments and games) in one SQLite
//! database shared by the TUI, the command line and the club server.

pub mod access;
pub mod audit;
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
