//! Helpers shared by the end-to-end tests: run the binary, read its output.

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Runs `draughts` with `args` and waits for it.
pub fn draughts<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
