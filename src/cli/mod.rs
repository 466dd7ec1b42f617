//! The command line: one module per command family, each with its clap arguments and its
//! handler, which turns them into calls of the library and prints the results.

/// `println!` for the command line: see [`output::write`].
macro_rules! outln {
    () => { $crate::cli::output::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::output::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` for the command line: see [`output::write`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write(format_args!($($arg)*)) };
}

/// The longest fixed time a move a command takes (`--move-time`, `--time`): a day, far beyond any
/// match or analysis; longer is a typing slip.
pub(crate) const MAX_MOVE_SECONDS: f64 = 86_400.0;

pub(crate) mod adjudicate;
pub(crate) mod club;
pub(crate) mod dxp;
pub(crate) mod engine;
pub(crate) mod hub;
pub(crate) mod learn;
pub(crate) mod r#match;
pub(crate) mod output;
pub(crate) mod pdn;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod publish;
pub(crate) mod reference;
pub(crate) mod review;
pub(crate) mod serve;
pub(crate) mod tb;
pub(crate) mod tournament;
