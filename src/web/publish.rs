//! Publishing: every path of the site written to a new folder beside the target, flushed to
//! disk, then swapped into place in one step (Linux's `renameat2` exchange, or two renames where
//! the file system cannot exchange), so a reader sees the old site or the new one and never half
//! of either, and a publish stopped on the way leaves the old site as it was.
//!
//! Only a folder this program published (it holds a `.draughts-site` mark) or an empty one is
//! ever replaced: a mistyped `--out` cannot wipe out somebody's files.

use super::site::{Options, Site};
use crate::club::{ClubError, Store};
use std::path::{Path, PathBuf};

/// The mark a published site carries.
pub const MARK: &str = ".draughts-site";

/// What can go wrong publishing.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// The club database.
    #[error(transparent)]
    Club(#[from] ClubError),
    /// A file or folder.
    #[error("{}: {message}", path.display())]
    Io {
        /// Which.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The target is something this program did not publish.
    #[error(
        "{}: not a site published by draughts (no {MARK} in it) and not empty; \
         choose another --out or empty it",
        .0.display()
    )]
    NotOurs(PathBuf),
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> PublishError + '_ {
    move |e| PublishError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// What a publish wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    /// Files written.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
}

/// Whether `dir` may be replaced: it does not exist, is empty, or holds the mark.
fn replaceable(dir: &Path) -> Result<bool, PublishError> {
    match std::fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(io(dir)(e)),
        Ok(mut entries) => Ok(dir.join(MARK).is_file() || entries.next().is_none()),
    }
}

/// Writes the site of `store` to `out`, replacing what a former publish put there; `progress`
/// is told each file written (done, of).
pub fn publish(
    store: &Store,
    options: &Options,
    out: &Path,
    mut progress: impl FnMut(usize, usize),
) -> Result<Published, PublishError> {
    if !replaceable(out)? {
        return Err(PublishError::NotOurs(out.to_path_buf()));
    }
    let site = Site::new(store, options)?;
    let paths = site.paths()?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".into());
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    // Folders left by a publish that was stopped are ours to clear.
    let prefix = format!(".{name}.new-");
    if let Ok(entries) = std::fs::read_dir(&parent) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let fresh = parent.join(format!("{prefix}{}", std::process::id()));
    std::fs::create_dir(&fresh).map_err(io(&fresh))?;
    let mut written = Published { files: 0, bytes: 0 };
    let total = paths.len();
    for (i, path) in paths.iter().enumerate() {
        let Some(file) = site.render(path)? else {
            continue;
        };
        let target = fresh.join(path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::write(&target, &file.bytes).map_err(io(&target))?;
        written.files += 1;
        written.bytes += file.bytes.len() as u64;
        progress(i + 1, total);
    }
    let mark = fresh.join(MARK);
    std::fs::write(&mark, "published by draughts club publish\n").map_err(io(&mark))?;
    // One flush of the file system instead of one per file: the swap below must not be on disk
    // before the files it makes visible.
    let folder = std::fs::File::open(&fresh).map_err(io(&fresh))?;
    rustix::fs::syncfs(&folder).map_err(|e| io(&fresh)(e.into()))?;
    swap(&fresh, out)?;
    Ok(written)
}

/// Puts `fresh` where `out` is, removing the old `out`.
fn swap(fresh: &Path, out: &Path) -> Result<(), PublishError> {
    if !out.exists() {
        return std::fs::rename(fresh, out).map_err(io(out));
    }
    let exchanged = rustix::fs::renameat_with(
        rustix::fs::CWD,
        fresh,
        rustix::fs::CWD,
        out,
        rustix::fs::RenameFlags::EXCHANGE,
    );
    match exchanged {
        // `fresh` now holds the old site.
        Ok(()) => std::fs::remove_dir_all(fresh).map_err(io(fresh)),
        Err(_) => {
            // No exchange on this file system: two renames, the old site kept aside until the
            // new one is in place.
            let old = fresh.with_extension("old");
            std::fs::rename(out, &old).map_err(io(out))?;
            std::fs::rename(fresh, out).map_err(io(out))?;
            std::fs::remove_dir_all(&old).map_err(io(&old))
        }
    }
}
