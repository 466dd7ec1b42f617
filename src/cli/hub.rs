//! `draughts hub`: the engine speaking the Hub protocol on standard input and output.

use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `draughts hub`.
#[derive(clap::Args)]
pub(crate) struct HubArgs {
    /// Tablebase directory [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Evaluation weights file to play with instead of the shipped ones (comparing versions),
    /// or `initial` (the hand-set start); used for the variant it was trained for.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The variant the weights are for.
    #[arg(long, default_value = "international", requires = "weights")]
    weights_variant: String,
}

/// Serves Hub commands until the GUI quits.
pub(crate) fn run(args: HubArgs) -> Result<ExitCode> {
    let HubArgs {
        tablebases,
        weights,
        weights_variant,
    } = args;
    let model = match &weights {
        Some(path) if path.as_os_str() == "initial" => {
            let variant: draughts::Variant = weights_variant.parse()?;
            Some(std::sync::Arc::new(draughts::engine::eval::Model::initial(
                variant,
            )))
        }
        Some(path) => {
            let variant: draughts::Variant = weights_variant.parse()?;
            let bytes = std::fs::read(path).with_context(|| path.display().to_string())?;
            let model = draughts::engine::eval::Model::from_bytes(&bytes, variant)
                .with_context(|| path.display().to_string())?;
            Some(std::sync::Arc::new(model))
        }
        None => None,
    };
    let stdin = std::io::stdin().lock();
    draughts::hub::server::serve(stdin, Box::new(std::io::stdout()), tablebases, model)?;
    Ok(ExitCode::SUCCESS)
}
