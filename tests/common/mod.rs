//! Helpers shared by the end-to-end tests: run the binary, read its output.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `draughts` with `args` and waits for it.
pub fn draughts<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output as text.
// Each test crate compiles this file on its own; not every one reads standard output.
#[allow(dead_code)]
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `draughts club --db <db>` with `args`.
// Each test crate compiles this file on its own; not every one works on a club database.
#[allow(dead_code)]
pub fn club(db: &Path, args: &[&str]) -> Output {
    let mut all: Vec<&OsStr> = vec![OsStr::new("club"), OsStr::new("--db"), db.as_os_str()];
    all.extend(args.iter().map(OsStr::new));
    draughts(&all)
}
