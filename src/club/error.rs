//! What can go wrong with the club database.

use std::path::PathBuf;

/// What can go wrong with the club database.
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    /// The database could not be opened, read or written.
    #[error("{}: {message}", path.display())]
    Database {
        /// The file (empty inside a transaction).
        path: PathBuf,
        /// What SQLite or the migration said.
        message: String,
    },
    /// The input is malformed or names nothing (exit code 2).
    #[error("{0}")]
    BadInput(String),
    /// The request is well formed but the club's rules refuse it (exit code 1).
    #[error("{0}")]
    Refused(String),
    /// The acting member's role does not allow it; says who may (exit code 1).
    #[error("{0}")]
    Denied(String),
}

/// Converts a database error inside a transaction (where the file is not at hand).
pub(crate) fn db(e: rusqlite::Error) -> ClubError {
    ClubError::Database {
        path: PathBuf::new(),
        message: e.to_string(),
    }
}
