//! `draughts pdn`: reading and checking PDN files, and taking positions from their games.

use anyhow::Result;
use clap::Subcommand;
use draughts::bounded;
use draughts::rules::notation::to_fen;
use draughts::rules::pdn;
use draughts::rules::piece::Kind;
use draughts::{Color, Variant};
use std::collections::HashSet;
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
    /// Print, as FEN lines, the first quiet position of each game with a given number of
    /// pieces: an openings file of endings for `draughts match --openings`.
    Positions {
        /// Variant of games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
        /// The number of pieces on the board.
        #[arg(long)]
        pieces: u32,
        /// Only positions where neither side is ahead by more than this many pieces.
        #[arg(long, default_value_t = 0)]
        imbalance: u32,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Runs a `pdn` command.
pub(crate) fn run(command: PdnCommand) -> Result<ExitCode> {
    match command {
        PdnCommand::Check { variant, files } => check(&variant, files),
        PdnCommand::Positions {
            variant,
            pieces,
            imbalance,
            files,
        } => positions(&variant, pieces, imbalance, files),
    }
}

/// Prints each game's first quiet position of `pieces` pieces within `imbalance`, once each:
/// the side to move has no capture, so the position is where play, not a forced exchange,
/// goes on.
fn positions(variant: &str, pieces: u32, imbalance: u32, files: Vec<PathBuf>) -> Result<ExitCode> {
    let variant: Variant = variant.parse()?;
    let mut seen = HashSet::new();
    for file in files {
        let bytes = bounded::read_file(&file, bounded::MAX_PDN_FILE, "PDN file")?;
        for game in pdn::read_bytes(&bytes, variant).into_iter().flatten() {
            let played = game.game();
            let found = played.positions().find(|p| {
                let side = |c| p.count(c, Kind::Man) + p.count(c, Kind::King);
                p.piece_count() == pieces
                    && side(Color::White).abs_diff(side(Color::Black)) <= imbalance
                    && !p.has_capture()
            });
            if let Some(p) = found.filter(|p| seen.insert(p.zobrist())) {
                outln!("{}", to_fen(p));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks every file; exit code 1 when any game has an error.
fn check(variant: &str, files: Vec<PathBuf>) -> Result<ExitCode> {
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
