//! Endgame tablebases: every position of a few pieces, solved by retrograde analysis, stored in
//! compressed files that are probed through memory maps.
//!
//! A *slice* is all positions of one [`Material`] with its side to move playing up the board
//! (positions with Black to move are turned round first). Each slice has a WDL file (two bits a
//! position, capture positions left as "don't care") and a DTW file (distance to the end in plies
//! for every position). `generate` writes them, `probe` reads them, `verify` checks them.

pub mod bench;
mod blocks;
mod error;
pub mod format;
mod fs;
pub mod generate;
pub mod index;
mod layout;
pub mod material;
pub mod memory;
pub mod plan;
pub mod probe;
pub mod progress;
mod solve;
mod store;
mod subslice;
pub mod value;
pub mod verify;

#[cfg(test)]
mod metric_tests;
#[cfg(test)]
mod split_tests;
#[cfg(test)]
pub(crate) mod tests;

pub use error::TbError;
pub use format::TableKind;
pub use index::{Indexer, Placement, Walker};
pub use layout::{default_dir, table_path};
pub use material::{Material, MaterialError};
pub use probe::{Tablebase, open_if_present};
pub use value::{Dtw, Wdl};
