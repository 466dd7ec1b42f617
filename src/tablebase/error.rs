//! What can go wrong with tablebase files.

use std::path::PathBuf;

use thiserror::Error;

use crate::tablebase::format::Metric;
use crate::tablebase::material::Material;
use crate::tablebase::memory::{Bytes, Need};

/// The refusal of a plan that does not fit, with the figures of each job that is too large.
fn over_budget(budget: Bytes, jobs: &[Need]) -> String {
    let list: Vec<String> = jobs
        .iter()
        .map(|n| {
            format!(
                "{} needs {} ({} positions, and {} of the slices it reads)",
                n.job, n.bytes, n.positions, n.held
            )
        })
        .collect();
    format!(
        "{} job(s) need more memory than the budget of {budget}: {}; nothing was generated \
         (give more with --memory, or generate fewer pieces)",
        jobs.len(),
        list.join("; ")
    )
}

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
    /// Jobs that need more memory than the budget allows (nothing was generated).
    #[error("{}", over_budget(*budget, jobs))]
    OverBudget {
        /// The budget.
        budget: Bytes,
        /// The jobs that do not fit, with what each needs.
        jobs: Vec<Need>,
    },
    /// The slices a job needs are not all present.
    #[error(
        "{job} needs the {} tables of {} first; missing in {}",
        metric.name(),
        missing.join(", "),
        dir.display()
    )]
    MissingDependencies {
        /// The job asked for.
        job: Material,
        /// The missing slices.
        missing: Vec<String>,
        /// The tables the job builds, and so reads.
        metric: Metric,
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
