//! Input read with a bound: a file no larger than its kind may be, a line no longer than a
//! protocol allows. What a user or another program hands over is never buffered without a limit;
//! going past one is an error that says which limit and where, never a crash or a machine out of
//! memory.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest PDN file read (collections of several hundred thousand games fit).
pub const MAX_PDN_FILE: u64 = 128 << 20;
/// The largest TRF, members CSV, openings or book file read.
pub const MAX_TEXT_FILE: u64 = 16 << 20;
/// The largest settings file read.
pub const MAX_SETTINGS_FILE: u64 = 1 << 20;
/// The longest line of the Hub protocol, in bytes.
pub const MAX_PROTOCOL_LINE: usize = 64 << 10;

/// Why bounded input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BoundedError {
    /// The file could not be opened or read.
    // Not marked as the error's source: the message already says it, and a chain printed in
    // full (`{:#}`) would say it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// The file is larger than its kind may be.
    #[error("{path}: larger than {limit} bytes, the most a {what} may have")]
    TooLarge {
        /// The file.
        path: String,
        /// The limit, in bytes.
        limit: u64,
        /// What kind of file it was read as.
        what: &'static str,
    },
    /// The file is not UTF-8 text.
    #[error("{path}: not UTF-8 text (byte {offset})")]
    NotText {
        /// The file.
        path: String,
        /// Where the first invalid byte is.
        offset: usize,
    },
}

impl BoundedError {
    /// What is wrong, without the file's name (for a caller that names it itself).
    pub fn reason(&self) -> String {
        match self {
            BoundedError::Io { error, .. } => error.to_string(),
            BoundedError::TooLarge { limit, what, .. } => {
                format!("larger than {limit} bytes, the most a {what} may have")
            }
            BoundedError::NotText { offset, .. } => format!("not UTF-8 text (byte {offset})"),
        }
    }
}

/// The bytes of the file at `path`, when it has at most `limit` of them (`what` names its kind
/// in the error).
pub fn read_file(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, BoundedError> {
    let io = |error| BoundedError::Io {
        path: path.display().to_string(),
        error,
    };
    let mut bytes = Vec::new();
    File::open(path)
        .map_err(io)?
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedError::TooLarge {
            path: path.display().to_string(),
            limit,
            what,
        });
    }
    Ok(bytes)
}

/// The text of the file at `path`, as [`read_file`], which must be UTF-8.
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, BoundedError> {
    String::from_utf8(read_file(path, limit, what)?).map_err(|e| BoundedError::NotText {
        path: path.display().to_string(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, without its `\n` or `\r\n` (invalid UTF-8 replaced).
    Text(String),
    /// A line longer than the limit: its bytes were skipped up to its end, and this many there
    /// were.
    TooLong(usize),
}

/// The next line of `reader`, holding at most `limit` bytes of it; `None` at the end of the
/// input. A longer line is skipped, not buffered, so the next one can still be read.
pub fn read_line(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut length = 0usize;
    let mut any = false;
    let mut last = None;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        // One byte past the limit is kept: it may be the `\r` of a `\r\n`.
        let room = (limit + 1).saturating_sub(line.len()).min(part.len());
        line.extend_from_slice(&part[..room]);
        length += part.len();
        last = part.last().copied().or(last);
        reader.consume(used);
        if done {
            break;
        }
    }
    if last == Some(b'\r') {
        length -= 1;
    }
    if length > limit {
        return Ok(Some(Line::TooLong(length)));
    }
    line.truncate(length);
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&line).into_owned(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        // A small buffer, so lines span several reads.
        let mut r = BufReader::with_capacity(3, input);
        std::iter::from_fn(|| read_line(&mut r, limit).unwrap()).collect()
    }

    #[test]
    fn lines_are_split_and_over_long_ones_skipped() {
        let t = |s: &str| Line::Text(s.into());
        assert_eq!(
            lines(b"go\r\nabcdefghij\nquit\n\nlast", 6),
            vec![t("go"), Line::TooLong(10), t("quit"), t(""), t("last")]
        );
        assert_eq!(lines(b"", 6), vec![]);
        assert_eq!(lines(b"abcdef\r\n", 6), vec![t("abcdef")]);
        // A megabyte without its end costs the limit, not the megabyte.
        let huge = vec![b'x'; 1 << 20];
        assert_eq!(lines(&huge, 64), vec![Line::TooLong(1 << 20)]);
    }

    #[test]
    fn files_past_their_limit_are_refused() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let path = dir.join("f.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text(&path, 10, "test file").unwrap(), "0123456789");
        let e = read_text(&path, 9, "test file").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("f.txt: larger than 9 bytes, the most a test file may have"),
            "{e}"
        );
        assert_eq!(
            e.reason(),
            "larger than 9 bytes, the most a test file may have"
        );
        std::fs::write(&path, b"ok\xff").unwrap();
        assert!(matches!(
            read_text(&path, 10, "test file"),
            Err(BoundedError::NotText { offset: 2, .. })
        ));
        assert!(matches!(
            read_file(&dir.join("missing"), 10, "test file"),
            Err(BoundedError::Io { .. })
        ));
    }
}
