//! `draughts engine`: analyse a position, or measure the search.

use super::MAX_MOVE_SECONDS;
use anyhow::Result;
use clap::Subcommand;
use draughts::engine::DEFAULT_TABLE_MB;
use draughts::rules::notation::{move_text, parse_fen};
use draughts::tablebase;
use draughts::{Position, Variant};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The `engine` commands.
#[derive(Subcommand)]
pub(crate) enum EngineCommand {
    /// Search a position and print each iteration: depth, score, nodes, time, principal variation.
    Analyse {
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// The position (FEN); the initial position when absent.
        #[arg(long)]
        fen: Option<String>,
        /// Deepest iteration.
        #[arg(long)]
        depth: Option<u32>,
        /// Seconds to think [default: 10 when no depth is given].
        #[arg(long)]
        time: Option<f64>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = DEFAULT_TABLE_MB as u16, value_parser = clap::value_parser!(u16).range(1..=8192))]
        hash: u16,
        /// Tablebase directory [default: tablebases/<variant> when present].
        #[arg(long)]
        tablebases: Option<PathBuf>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play the engine against itself and write the games as PDN (the evaluation's training data).
    Selfplay(super::learn::SelfplayArgs),
    /// Fit the evaluation's weights to the positions of PDN games.
    Train(super::learn::TrainArgs),
    /// Build an opening book from the openings of PDN games, each move checked by a search.
    Book(super::learn::BookArgs),
    /// Search the benchmark positions to a fixed depth and report nodes and speed.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// Runs an engine command.
pub(crate) fn run(command: EngineCommand) -> Result<ExitCode> {
    use draughts::engine::{BENCH_POSITIONS, Limits, Searcher};
    match command {
        EngineCommand::Analyse {
            variant,
            fen,
            depth,
            time,
            hash,
            tablebases,
            threads,
        } => {
            let variant: Variant = variant.parse()?;
            let pos = match &fen {
                Some(f) => parse_fen(f, variant)?,
                None => Position::start(variant),
            };
            let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
            let tb = tablebase::open_if_present(&dir, variant).map_err(anyhow::Error::msg)?;
            let mut searcher = Searcher::new(usize::from(hash), tb);
            searcher.set_threads(threads);
            let time = match (time, depth) {
                (Some(t), _) if t.is_finite() && (0.0..=MAX_MOVE_SECONDS).contains(&t) => {
                    Some(std::time::Duration::from_secs_f64(t))
                }
                (Some(t), _) => {
                    anyhow::bail!("--time {t}: expected seconds, 0 to {MAX_MOVE_SECONDS}")
                }
                (None, None) => Some(std::time::Duration::from_secs(10)),
                (None, Some(_)) => None,
            };
            let limits = Limits {
                depth,
                time,
                max_time: time,
                nodes: None,
            };
            let started = Instant::now();
            let outcome = searcher.search(&pos, &[], limits, &mut |info| {
                let r = draughts::play::analysis::builtin_report(info, &pos);
                outln!(
                    "depth={} score={} nodes={} time={:.3} nps={} pv={}",
                    r.depth,
                    r.score,
                    r.nodes,
                    info.time.as_secs_f64(),
                    r.nps,
                    r.pv.join(" ")
                );
            });
            // The whole search, the iteration the time cut short included: the node rate to
            // set beside another engine's over the same time.
            let secs = started.elapsed().as_secs_f64();
            let best = outcome
                .best
                .map_or("none (no legal move)".into(), |mv| move_text(&pos, &mv));
            outln!(
                "best={best} nodes={} time={secs:.3} nps={:.0}",
                outcome.nodes,
                outcome.nodes as f64 / secs.max(1e-9)
            );
        }
        EngineCommand::Selfplay(args) => super::learn::selfplay(args)?,
        EngineCommand::Train(args) => super::learn::train_weights(args)?,
        EngineCommand::Book(args) => super::learn::book(args)?,
        EngineCommand::Bench { depth, threads } => {
            let started = Instant::now();
            let mut total = 0u64;
            for (variant, fen) in BENCH_POSITIONS {
                let pos = parse_fen(fen, *variant)?;
                let mut searcher = Searcher::new(DEFAULT_TABLE_MB, None);
                searcher.set_threads(threads);
                let t = Instant::now();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let o = searcher.search(&pos, &[], limits, &mut |_| {});
                let secs = t.elapsed().as_secs_f64();
                total += o.nodes;
                outln!(
                    "{:<13} depth={} nodes={} time={secs:.3} nps={:.0} best={} score={}",
                    variant.name(),
                    o.depth,
                    o.nodes,
                    o.nodes as f64 / secs.max(1e-9),
                    o.best.map_or("-".into(), |m| move_text(&pos, &m)),
                    draughts::engine::score_words(o.score)
                );
            }
            let secs = started.elapsed().as_secs_f64();
            outln!(
                "total nodes={total} time={secs:.3} nps={:.0}",
                total as f64 / secs.max(1e-9)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
