//! A consistent copy of the club database while it is in use.
//!
//! Copying the file with `cp` while a server writes can catch it between two writes, and the
//! WAL file beside it holds changes the main file does not have yet. SQLite's online backup
//! copies every page in one step inside one read transaction, so the copy is the database as
//! it was at one moment; writers are not held up (WAL). The copy is written beside the
//! destination, checked (`integrity_check`, the schema version), flushed, and only then
//! renamed over it, so a backup that fails leaves the previous one as it was.

use super::error::ClubError;
use super::store::Store;
use rusqlite::Connection;
use rusqlite::backup::{Backup, StepResult};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    /// The backup file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The schema version of the copy (the same as the database's).
    pub schema: u32,
}

/// Writes a consistent copy of `store`'s database to `dest`, replacing it atomically.
pub fn backup(store: &Store, dest: &Path) -> Result<Copied, ClubError> {
    let fail = |message: String| ClubError::Database {
        path: dest.to_path_buf(),
        message,
    };
    if same_file(store.path(), dest) {
        return Err(ClubError::BadInput(format!(
            "{}: a backup must go to another file than the database",
            dest.display()
        )));
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    let name = dest
        .file_name()
        .ok_or_else(|| ClubError::BadInput(format!("{}: not a file name", dest.display())))?;
    let partial = dir.join(format!(
        ".{}.partial-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = copy_to(store, &partial).and_then(|schema| {
        std::fs::rename(&partial, dest).map_err(|e| e.to_string())?;
        // The rename is durable only once the directory is on disk too.
        std::fs::File::open(&dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| e.to_string())?;
        let bytes = std::fs::metadata(dest).map_err(|e| e.to_string())?.len();
        Ok(Copied {
            path: dest.to_path_buf(),
            bytes,
            schema,
        })
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result.map_err(fail)
}

/// Copies every page into a new file at `path`, checks the copy and flushes it; the copy's
/// schema version.
fn copy_to(store: &Store, path: &Path) -> Result<u32, String> {
    let _ = std::fs::remove_file(path);
    {
        let mut dst = Connection::open(path).map_err(|e| e.to_string())?;
        copy_pages(store.conn(), &mut dst).map_err(|e| format!("copying: {e}"))?;
        let check: String = dst
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        if check != "ok" {
            return Err(format!("the copy failed its integrity check: {check}"));
        }
        // Fold the copy's WAL back into the file, so the backup is one self-contained file.
        dst.pragma_update(None, "journal_mode", "DELETE")
            .map_err(|e| e.to_string())?;
    }
    let schema: u32 = Connection::open(path)
        .and_then(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
        .map_err(|e| e.to_string())?;
    let expected = store.schema_version().map_err(|e| e.to_string())?;
    if schema != expected {
        return Err(format!(
            "the copy has schema version {schema}, the database {expected}"
        ));
    }
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| e.to_string())?;
    Ok(schema)
}

/// Copies all pages in one step: one read transaction, so the copy is one moment's database.
/// A writer holding a lock is waited for, at most ten seconds like every club connection.
fn copy_pages(src: &Connection, dst: &mut Connection) -> rusqlite::Result<()> {
    let backup = Backup::new(src, dst)?;
    for _ in 0..200 {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    Err(rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
        Some("the database stayed locked for ten seconds".into()),
    ))
}

/// Whether two paths name one file (the destination may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::access::Actor;
    use crate::club::members;

    #[test]
    fn a_backup_is_the_database_at_that_moment_and_opens_as_a_club() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = Store::open(&dir.path().join("club.sqlite")).expect("club");
        let owner = Actor::local();
        members::add(&mut store, &owner, "Ann", &Default::default()).expect("Ann");
        members::add(&mut store, &owner, "Bob", &Default::default()).expect("Bob");
        let dest = dir.path().join("backups").join("club-1.sqlite");
        let copied = backup(&store, &dest).expect("backup");
        assert_eq!(copied.path, dest);
        assert!(copied.bytes > 0);
        // One self-contained file: no WAL beside it, and no partial file left.
        let left: Vec<String> = std::fs::read_dir(dir.path().join("backups"))
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["club-1.sqlite"]);
        // Changes after the backup are not in it.
        members::add(&mut store, &owner, "Cor", &Default::default()).expect("Cor");
        let restored = Store::open(&dest).expect("the backup opens as a club");
        let names: Vec<String> = members::list(&restored, true, None)
            .expect("members")
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names, ["Ann", "Bob"]);
    }

    #[test]
    fn a_backup_onto_the_database_itself_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("club.sqlite");
        let mut store = Store::open(&path).expect("club");
        members::add(&mut store, &Actor::local(), "Ann", &Default::default()).expect("Ann");
        let err = backup(&store, &path).expect_err("refused");
        assert!(matches!(err, ClubError::BadInput(_)), "{err}");
        assert_eq!(members::list(&store, true, None).expect("members").len(), 1);
    }

    #[test]
    fn a_failed_backup_leaves_the_previous_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("club.sqlite")).expect("club");
        // The destination is a directory: the rename fails after the copy was made.
        let dest = dir.path().join("taken");
        std::fs::create_dir(&dest).expect("dir");
        std::fs::write(dest.join("keep"), "x").expect("file");
        assert!(backup(&store, &dest).is_err());
        assert!(dest.join("keep").exists());
        let partials = std::fs::read_dir(dir.path())
            .expect("dir")
            .filter(|e| {
                e.as_ref()
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .contains("partial")
            })
            .count();
        assert_eq!(partials, 0);
    }
}
