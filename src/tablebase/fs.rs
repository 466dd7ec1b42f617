//! Files: atomic writes, read-only memory maps of tables, and the writable map of a job's
//! scratch values. Every `unsafe` of the tablebase code is here.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapMut};

use crate::tablebase::error::TbError;

fn io_error(path: &Path, source: std::io::Error) -> TbError {
    TbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `bytes` to `path` so that the file is either absent or complete: a temporary file in the
/// same directory is written and synced, then renamed over `path`, and the directory is synced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TbError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp: PathBuf = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temp)
            .map_err(|e| io_error(&temp, e))?;
        f.write_all(bytes).map_err(|e| io_error(&temp, e))?;
        f.sync_all().map_err(|e| io_error(&temp, e))?;
        fs::rename(&temp, path).map_err(|e| io_error(path, e))?;
        // The rename is durable only once the directory entry is on disk.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io_error(dir, e))
    })();
    if result.is_err() {
        // A leftover temporary file is harmless (never read), but tidy up when we can.
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Removes the temporary files [`write_atomic`] left in `dir` when its process was killed
/// before the rename (a table's temporary file is as large as the table). A temporary file
/// names the process that wrote it; one whose process still runs is left alone. Where running
/// processes cannot be told (no `/proc`), nothing is removed: leftovers are never read.
pub fn remove_stale_temporaries(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit_once('.'))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !proc.join(pid.to_string()).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Maps a table file read-only.
pub fn map(path: &Path) -> Result<Mmap, TbError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    // SAFETY: the map is read-only and table files are never modified in place: the generator
    // writes a temporary file and renames it over the old one, which leaves an existing map on
    // the old inode intact. The file's size is checked against its header before any access
    // beyond the header, so no read falls past the end of the mapping. Someone truncating the file
    // by hand while it is mapped could still cause SIGBUS; that is outside what a program can
    // guard against with a map, and the documentation says table files are immutable.
    #[allow(unsafe_code)]
    let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
    Ok(map)
}

/// A job's scratch file of `len` bytes, opened (created when missing, its bytes kept when it
/// is there) and mapped writable, with an exclusive lock held as long as the returned file is
/// open. Fails when another process holds the lock (it is generating the same job).
pub fn map_scratch(path: &Path, len: u64) -> Result<(File, MmapMut), TbError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    file.try_lock().map_err(|e| {
        let busy = std::io::Error::new(
            std::io::ErrorKind::WouldBlock,
            format!("another process is generating this job ({e})"),
        );
        io_error(path, busy)
    })?;
    file.set_len(len).map_err(|e| io_error(path, e))?;
    // SAFETY: the file was opened by this process, sized just above and locked exclusively, and
    // every program that writes scratch files takes that lock first, so no one else resizes or
    // writes it while it is mapped. The map is private to the generator and only read and
    // written through the returned value.
    #[allow(unsafe_code)]
    let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| io_error(path, e))?;
    Ok((file, map))
}
