//! How results are printed: a table for people, JSON or CSV for machines, and what happens when
//! standard output goes away.

use std::io::Write;

/// How a listing is printed.
#[derive(clap::Args)]
pub(crate) struct OutputArgs {
    /// JSON for machines.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// CSV for spreadsheets.
    #[arg(long)]
    pub(crate) csv: bool,
}

/// Writes to standard output. When the reader has gone (`draughts … | head`) the program ends
/// quietly with success, as other command-line tools do, where `print!` would panic; any other
/// failure to write (a full disk) ends it with the reason and exit code 2, so output is never
/// lost unnoticed.
pub(crate) fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("draughts: writing the output: {e}");
        std::process::exit(2);
    }
}
