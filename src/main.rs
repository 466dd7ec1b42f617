use anyhow::Result;
use clap::{Parser, Subcommand};
use draughts::notation::{move_text, parse_fen};
use draughts::{Position, Variant, pdn, perft};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Draughts for clubs: International, Frisian and English.
#[derive(Parser)]
#[command(name = "draughts", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft {
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Deepest depth; every depth from 1 up to it is printed.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Start from this position instead of the initial one.
        #[arg(long)]
        fen: Option<String>,
        /// Print each root move's count at the deepest depth.
        #[arg(long)]
        divide: bool,
    },
    /// Read and check PDN files.
    Pdn {
        #[command(subcommand)]
        command: PdnCommand,
    },
}

#[derive(Subcommand)]
enum PdnCommand {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("draughts: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let Some(command) = cli.command else {
        use clap::CommandFactory;
        Cli::command().print_help()?;
        return Ok(ExitCode::SUCCESS);
    };
    match command {
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => {
            let variant: Variant = variant.parse()?;
            let pos = match fen {
                Some(f) => {
                    parse_fen(&f, variant).map_err(|e| anyhow::anyhow!("bad FEN {f:?}: {e}"))?
                }
                None => Position::start(variant),
            };
            if divide {
                let start = Instant::now();
                let mut total = 0;
                for (mv, n) in perft::divide(&pos, depth) {
                    println!("{} {n}", move_text(&pos, &mv));
                    total += n;
                }
                report(depth, total, start);
            } else {
                for d in 1..=depth {
                    let start = Instant::now();
                    let n = perft::perft(&pos, d);
                    report(d, n, start);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Pdn {
            command: PdnCommand::Check { variant, files },
        } => {
            let variant: Variant = variant.parse()?;
            let mut all_ok = true;
            for file in files {
                let name = file.display();
                let bytes = match std::fs::read(&file) {
                    Ok(b) => b,
                    Err(e) => {
                        println!("{name}: cannot read: {e}");
                        all_ok = false;
                        continue;
                    }
                };
                let games = pdn::read_bytes(&bytes, variant);
                let errors: Vec<&pdn::PdnError> =
                    games.iter().filter_map(|g| g.as_ref().err()).collect();
                println!(
                    "{name} games={} ok={} errors={}",
                    games.len(),
                    games.len() - errors.len(),
                    errors.len()
                );
                for e in &errors {
                    println!("{name}:{e}");
                }
                all_ok &= errors.is_empty();
            }
            Ok(if all_ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

fn report(depth: u32, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("depth={depth} nodes={nodes} time={secs:.3} nps={nps}");
}
