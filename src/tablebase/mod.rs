//! Endgame tablebases: every position of a few pieces, solved by retrograde analysis, stored in
//! compressed files that are probed through memory maps.
//!
//! A *slice* is all positions of one [`Material`] with its side to move playing up the board
//! (positions with Black to move are turned round first). Each slice has a WDL file (two bits a
//! position, capture positions left as "don't care") and a DTW file (distance to the end in plies
//! for every position). `generate` writes them, `probe` reads them, `verify` checks them.

pub mod bench;
pub mod format;
mod fs;
pub mod generate;
pub mod index;
pub mod material;
pub mod plan;
pub mod probe;
pub mod progress;
pub mod value;
pub mod verify;

#[cfg(test)]
pub(crate) mod tests;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use format::TableKind;
pub use index::{Indexer, Placement, Walker};
pub use material::{Material, MaterialError};
pub use probe::Tablebase;
pub use value::{Dtw, Wdl};

use crate::variant::Variant;

/// Everything that can go wrong with tablebase files.
#[derive(Debug, Error)]
pub enum TbError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is not a valid table: foreign, damaged, truncated or for other rules.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A slice that is needed has no table in the directory.
    #[error("no {kind} table for {material} in {} (generate it with `draughts tb generate`)", dir.display())]
    Missing {
        /// The directory searched.
        dir: PathBuf,
        /// The material.
        material: Material,
        /// `wdl` or `dtw`.
        kind: &'static str,
    },
    /// The slices a job needs are not all present.
    #[error("{job} needs {} first; missing in {}", missing.join(", "), dir.display())]
    MissingDependencies {
        /// The job asked for.
        job: Material,
        /// The missing slices.
        missing: Vec<String>,
        /// The directory.
        dir: PathBuf,
    },
    /// The position lies outside the tables (too many pieces).
    #[error("{pieces} pieces: the tables cover at most {max} pieces")]
    TooManyPieces {
        /// Pieces in the position.
        pieces: u32,
        /// Most pieces the tables can answer.
        max: u32,
    },
    /// The tables are of another variant than the one asked for.
    #[error("the tables are for {tables}, not {wanted}")]
    WrongVariant {
        /// Variant of the tables.
        tables: &'static str,
        /// Variant asked for (of a position, or on the command line).
        wanted: &'static str,
    },
    /// The side to move has pieces and the opponent none: no game reaches such a position.
    #[error("the opponent of the side to move has no pieces; the game is already over")]
    NotAGamePosition,
    /// A stored value disagrees with the values of the position's moves.
    #[error("{}: position {fen}: stored {stored}, but its moves give {derived}", path.display())]
    Inconsistent {
        /// The table file.
        path: PathBuf,
        /// The position.
        fen: String,
        /// What the file says.
        stored: String,
        /// What the moves say.
        derived: String,
    },
    /// The directory holds no table files.
    #[error("no table files in {}", dir.display())]
    Empty {
        /// The directory.
        dir: PathBuf,
    },
}

/// The file of one slice in a directory: `<dir>/<material>.<wdl|dtw>`.
pub fn table_path(dir: &Path, material: Material, kind: TableKind) -> PathBuf {
    dir.join(format!("{material}.{}", kind.extension()))
}

/// The default directory of a variant's tables: `tablebases/<variant>`.
pub fn default_dir(variant: Variant) -> PathBuf {
    Path::new("tablebases").join(variant.name().to_lowercase())
}
