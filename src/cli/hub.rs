//! `draughts hub`: the engine speaking the Hub protocol on standard input and output.

use anyhow::Result;
use draughts::engine::eval::Model;
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
    weights: Option<String>,
    /// The variant the weights are for.
    #[arg(long, default_value = "international", requires = "weights")]
    weights_variant: String,
    /// Search threads (the Hub `threads` parameter can change it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Think from the first move instead of playing the opening book's moves (the Hub `book`
    /// parameter can change it).
    #[arg(long)]
    no_book: bool,
}

/// Serves Hub commands until the GUI quits.
pub(crate) fn run(args: HubArgs) -> Result<ExitCode> {
    let HubArgs {
        tablebases,
        weights,
        weights_variant,
        threads,
        no_book,
    } = args;
    let model = match weights.as_deref() {
        Some(name) => {
            let variant = weights_variant.parse()?;
            let model = super::learn::weights(Some(name), variant, Model::initial)?;
            Some(std::sync::Arc::new(model))
        }
        None => None,
    };
    let stdin = std::io::stdin().lock();
    let settings = draughts::hub::server::Settings {
        tablebases,
        weights: model,
        threads,
        book: !no_book,
    };
    draughts::hub::server::serve(stdin, Box::new(std::io::stdout()), settings)?;
    Ok(ExitCode::SUCCESS)
}
