//! `draughts pdn`: reading and checking PDN files.

use anyhow::Result;
use clap::Subcommand;
use draughts::Variant;
use draughts::bounded;
use draughts::rules::pdn;
use std::path::PathBuf;
use std::process::ExitCode;

/// The `pdn` commands.
#[derive(Subcommand)]
pub(crate) enum PdnCommand {
    /// Read each file, replay every game legally, report per file and every error.
    Check {
        /// Variant of games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Checks every file; exit code 1 when any game has an error.
pub(crate) fn run(command: PdnCommand) -> Result<ExitCode> {
    let PdnCommand::Check { variant, files } = command;
    let variant: Variant = variant.parse()?;
    let mut all_ok = true;
    for file in files {
        let name = file.display();
        let bytes = match bounded::read_file(&file, bounded::MAX_PDN_FILE, "PDN file") {
            Ok(b) => b,
            Err(e) => {
                outln!("cannot read {e}");
                all_ok = false;
                continue;
            }
        };
        let games = pdn::read_bytes(&bytes, variant);
        let errors: Vec<&pdn::PdnError> = games.iter().filter_map(|g| g.as_ref().err()).collect();
        outln!(
            "{name} games={} ok={} errors={}",
            games.len(),
            games.len() - errors.len(),
            errors.len()
        );
        for e in &errors {
            outln!("{name}:{e}");
        }
        all_ok &= errors.is_empty();
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
