//! `draughts perft`: count the leaf nodes of the legal move tree, depth by depth or divided by
//! root move.

use anyhow::Result;
use draughts::rules::notation::{move_text, parse_fen};
use draughts::rules::perft;
use draughts::{Position, Variant};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `draughts perft`.
#[derive(clap::Args)]
pub(crate) struct PerftArgs {
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
}

/// Counts and prints each depth (or each root move's count at the deepest).
pub(crate) fn run(args: PerftArgs) -> Result<ExitCode> {
    let PerftArgs {
        variant,
        depth,
        fen,
        divide,
    } = args;
    let variant: Variant = variant.parse()?;
    let pos = match fen {
        Some(f) => parse_fen(&f, variant).map_err(|e| anyhow::anyhow!("bad FEN {f:?}: {e}"))?,
        None => Position::start(variant),
    };
    if divide {
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in perft::divide(&pos, depth) {
            outln!("{} {n}", move_text(&pos, &mv));
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

fn report(depth: u32, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    outln!("depth={depth} nodes={nodes} time={secs:.3} nps={nps}");
}
