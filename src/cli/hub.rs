//! `draughts hub`: the engine speaking the Hub protocol on standard input and output.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `draughts hub`.
#[derive(clap::Args)]
pub(crate) struct HubArgs {
    /// Tablebase directory [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
}

/// Serves Hub commands until the GUI quits.
pub(crate) fn run(args: HubArgs) -> Result<ExitCode> {
    let HubArgs { tablebases } = args;
    let stdin = std::io::stdin().lock();
    draughts::hub::server::serve(stdin, Box::new(std::io::stdout()), tablebases)?;
    Ok(ExitCode::SUCCESS)
}
