//! The `draughts` binary: parses the command line, hands each command to its module in `cli`,
//! and maps errors to exit codes.

mod cli;

use clap::{CommandFactory, Parser, Subcommand};
use draughts::club::ClubError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Draughts for clubs: International, Frisian and English.
#[derive(Parser)]
#[command(name = "draughts", version)]
struct Cli {
    /// Draw pieces with ASCII letters (automatic when the locale is not UTF-8).
    #[arg(long, global = true)]
    ascii: bool,
    /// Settings file [default: $DRAUGHTS_CONFIG or ~/.config/draughts/config.toml].
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (the home screen opens without a command).
    Play(cli::play::PlayArgs),
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft(cli::perft::PerftArgs),
    /// The club database: members, tournaments, games, ratings and the archive.
    Club {
        /// Database file [default: $DRAUGHTS_DB or ~/.local/share/draughts/club.sqlite].
        #[arg(long, global = true, value_name = "FILE")]
        db: Option<PathBuf>,
        #[command(subcommand)]
        command: cli::club::ClubCommand,
    },
    /// Play an engine match: pairs of games from each opening, colours reversed.
    Match(cli::r#match::MatchArgs),
    /// Play other programs over DXP (the DamExchange protocol, TCP port 27531).
    Dxp(cli::dxp::DxpArgs),
    /// Run the club's SSH server: members `ssh -p 2222 host` into the club TUI.
    Serve(cli::serve::ServeArgs),
    /// Speak the Hub protocol on standard input and output (for Hub GUIs such as Scan's).
    Hub(cli::hub::HubArgs),
    /// The engine: analyse a position, or measure the search.
    Engine {
        #[command(subcommand)]
        command: cli::engine::EngineCommand,
    },
    /// Read and check PDN files.
    Pdn {
        #[command(subcommand)]
        command: cli::pdn::PdnCommand,
    },
    /// An arbiter's verdict on a position: tablebase value, the move limits in force, the
    /// decision and its proving line.
    Adjudicate(cli::adjudicate::AdjudicateArgs),
    /// Every move of a game judged by the engine and the tablebases; annotated PDN.
    Review(cli::review::ReviewArgs),
    /// Endgame tablebases: generate, probe, check.
    Tb {
        #[command(subcommand)]
        command: cli::tb::TbCommand,
    },
    /// Print a completion script for a shell (bash, zsh, fish, powershell, elvish).
    ///
    /// For bash: `draughts completions bash > ~/.local/share/bash-completion/completions/draughts`.
    Completions(cli::reference::CompletionsArgs),
    /// Write the man pages, one per command, to a directory.
    ///
    /// For example `draughts man ~/.local/share/man/man1`, then `man draughts-club-tournament`.
    Man(cli::reference::ManArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => cli::play::run(cli.ascii, cli.config, None),
        Some(Command::Play(args)) => cli::play::run(cli.ascii, cli.config, Some(args)),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Club { db, command }) => cli::club::run(db, command),
        Some(Command::Match(args)) => cli::r#match::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Serve(args)) => cli::serve::run(args),
        Some(Command::Hub(args)) => cli::hub::run(args),
        Some(Command::Engine { command }) => cli::engine::run(command),
        Some(Command::Pdn { command }) => cli::pdn::run(command),
        Some(Command::Tb { command }) => cli::tb::run(command),
        Some(Command::Adjudicate(args)) => cli::adjudicate::run(args),
        Some(Command::Review(args)) => cli::review::run(args),
        Some(Command::Completions(args)) => cli::reference::completions(Cli::command(), args),
        Some(Command::Man(args)) => cli::reference::man(Cli::command(), args),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("draughts: {e:#}");
            // Refused by the club's rules or the actor's role: 1; bad input or a broken file: 2.
            match e.downcast_ref::<ClubError>() {
                Some(ClubError::Refused(_) | ClubError::Denied(_)) => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}
