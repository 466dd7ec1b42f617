//! Where the tables live: one file per slice and kind, one directory per variant.

use std::path::{Path, PathBuf};

use crate::rules::variant::Variant;
use crate::tablebase::format::TableKind;
use crate::tablebase::material::Material;

/// The file of one slice in a directory: `<dir>/<material>.<wdl|dtw>`.
pub fn table_path(dir: &Path, material: Material, kind: TableKind) -> PathBuf {
    dir.join(format!("{material}.{}", kind.extension()))
}

/// The default directory of a variant's tables: `tablebases/<variant>`.
pub fn default_dir(variant: Variant) -> PathBuf {
    Path::new("tablebases").join(variant.name().to_lowercase())
}
