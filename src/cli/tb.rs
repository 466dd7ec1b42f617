//! `draughts tb`: generate, probe, check and plan the endgame tablebases.

use anyhow::Result;
use clap::Subcommand;
use draughts::Variant;
use draughts::rules::notation::{move_text, parse_fen};
use draughts::tablebase::format::Metric;
use draughts::tablebase::memory::{Bytes, Limits};
use draughts::tablebase::progress::Report;
use draughts::tablebase::{self, Material, Tablebase, Wdl};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Which tables: a variant and their directory.
#[derive(clap::Args)]
pub(crate) struct TablesArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Directory of the tables [default: tablebases/<variant>].
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl TablesArgs {
    fn resolve(self) -> Result<(Variant, PathBuf)> {
        let variant: Variant = self.variant.parse()?;
        let dir = self.dir.unwrap_or_else(|| tablebase::default_dir(variant));
        Ok((variant, dir))
    }
}

/// The `tb` commands.
#[derive(Subcommand)]
pub(crate) enum TbCommand {
    /// Compute every slice of 2 up to --pieces pieces (finished slices are kept), or one --slice.
    Generate {
        /// Largest number of pieces.
        #[arg(long, required_unless_present = "slice", conflicts_with = "slice")]
        pieces: Option<u32>,
        /// Compute only this job (a slice such as kk-k and its partner); its dependencies must exist.
        #[arg(long)]
        slice: Option<String>,
        #[command(flatten)]
        tables: TablesArgs,
        /// Worker threads [default: all cores].
        #[arg(long)]
        threads: Option<usize>,
        /// The most memory the jobs may use (12G, 512M); a job that needs more is refused before
        /// anything is generated [default: three quarters of the memory available].
        #[arg(long, value_name = "SIZE")]
        memory: Option<Bytes>,
        /// Cut every job with men into sub-slices of at most this many positions, solved in the
        /// order in which men advance [default: only jobs that do not fit the memory whole].
        #[arg(long, value_name = "POSITIONS", value_parser = clap::value_parser!(u64).range(1..))]
        split: Option<u64>,
        /// wdl: win/draw/loss tables only (what adjudication and the engine's search read), or
        /// dtw: the distances too (what the move limits of the rules need).
        #[arg(long, default_value = "dtw", value_parser = ["wdl", "dtw"])]
        metric: String,
    },
    /// Print the value of a position and of each of its moves, best first.
    Probe {
        /// The position.
        #[arg(long)]
        fen: String,
        #[command(flatten)]
        tables: TablesArgs,
    },
    /// Figures of every slice: positions, results, longest win, file sizes.
    Stats {
        #[command(flatten)]
        tables: TablesArgs,
    },
    /// Check every checksum and re-derive every stored value from its moves.
    Verify {
        #[command(flatten)]
        tables: TablesArgs,
        /// Worker threads [default: all cores].
        #[arg(long)]
        threads: Option<usize>,
        /// Check only this job (a slice such as kkm-kkm and its partner) [default: every slice].
        #[arg(long)]
        slice: Option<String>,
        /// The most memory the slices held for the check may use (12G, 512M): beyond it they are
        /// read from their files [default: three quarters of the memory available].
        #[arg(long, value_name = "SIZE")]
        memory: Option<Bytes>,
    },
    /// Measure probe latency on the largest slices present.
    Bench {
        #[command(flatten)]
        tables: TablesArgs,
        /// Positions to probe.
        #[arg(long, default_value_t = 200)]
        positions: usize,
    },
    /// Print the job graph for a scheduler (GNU make, a job array).
    Plan {
        /// Largest number of pieces.
        #[arg(long)]
        pieces: u32,
        /// make (a Makefile), json (the graph with each job's positions and memory) or slurm (a
        /// bash script that submits one sbatch job array per level of the graph).
        #[arg(long, default_value = "make")]
        format: String,
        #[command(flatten)]
        tables: TablesArgs,
        /// The memory each job may use: a job that does not fit whole is planned in sub-slices,
        /// and each job is run with this budget [default: every job whole, with what it needs].
        #[arg(long, value_name = "SIZE")]
        memory: Option<Bytes>,
        /// The tables each job builds: wdl (win/draw/loss only) or dtw (the distances too).
        #[arg(long, default_value = "dtw", value_parser = ["wdl", "dtw"])]
        metric: String,
    },
}

/// Runs a tablebase command.
pub(crate) fn run(command: TbCommand) -> Result<ExitCode> {
    match command {
        TbCommand::Generate {
            tables,
            pieces,
            slice,
            threads: t,
            memory,
            split,
            metric,
        } => {
            let (variant, dir) = tables.resolve()?;
            threads(t)?;
            let limits = Limits {
                budget: memory.unwrap_or_else(tablebase::memory::default_budget),
                split,
                metric: metric.parse().map_err(anyhow::Error::msg)?,
            };
            let report = Report::for_stdout();
            let start = Instant::now();
            let jobs = match (pieces, slice) {
                (_, Some(slice)) => {
                    let m: Material = slice.parse()?;
                    vec![tablebase::generate::generate_job(
                        variant, m, &dir, report, limits,
                    )?]
                }
                (Some(p), None) => {
                    anyhow::ensure!(
                        (2..=tablebase::material::MAX_PIECES).contains(&p),
                        "--pieces must be between 2 and {}",
                        tablebase::material::MAX_PIECES
                    );
                    tablebase::generate::generate_all(variant, p, &dir, report, limits)?
                }
                (None, None) => anyhow::bail!("give --pieces or --slice"),
            };
            let made: Vec<_> = jobs.iter().filter(|j| !j.skipped).collect();
            let positions: u64 = made.iter().map(|j| j.positions).sum();
            let secs = start.elapsed().as_secs_f64();
            let peak = made
                .iter()
                .filter_map(|j| j.peak)
                .max()
                .map_or(String::new(), |p| format!(" peak_bytes={}", p.0));
            let sub_slices: usize = made.iter().map(|j| j.sub_slices).sum();
            // Where jobs were cut, their scratch files are mapped: the private peak is the one
            // the budget weighs.
            let private = made
                .iter()
                .filter(|j| j.sub_slices > 0)
                .filter_map(|j| j.private_peak)
                .max()
                .map_or(String::new(), |p| format!(" private_peak_bytes={}", p.0));
            outln!(
                "generated {} jobs ({} already present) positions={positions} sub_slices={sub_slices} time={secs:.1}s rate={:.0}/s{peak}{private} dir={}",
                made.len(),
                jobs.len() - made.len(),
                positions as f64 / secs.max(1e-9),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Probe { tables, fen } => {
            let (variant, dir) = tables.resolve()?;
            let pos =
                parse_fen(&fen, variant).map_err(|e| anyhow::anyhow!("bad FEN {fen:?}: {e}"))?;
            let tb = Tablebase::open_for(&dir, variant)?;
            let wdl = tb.wdl(&pos)?;
            let value = match tb.dtw_if_held(&pos)? {
                Some(value) => value,
                // Built for results only: each move's result, without distances.
                None => {
                    outln!("result={wdl} dtw=none");
                    let mut moves = Vec::new();
                    for mv in pos.legal_moves().iter() {
                        moves.push((move_text(&pos, mv), tb.wdl(&pos.play(mv))?.flip()));
                    }
                    let rank = |w: &Wdl| match w {
                        Wdl::Win => 0,
                        Wdl::Draw => 1,
                        Wdl::Loss => 2,
                    };
                    moves.sort_by_key(|(_, w)| rank(w));
                    for (text, w) in moves {
                        outln!("{text} result={w} dtw=none");
                    }
                    return Ok(ExitCode::SUCCESS);
                }
            };
            anyhow::ensure!(
                wdl == value.wdl(),
                "{}: WDL table says {wdl}, DTW table says {}",
                dir.display(),
                value.wdl()
            );
            outln!("{value}");
            let mut moves = Vec::new();
            for mv in pos.legal_moves().iter() {
                moves.push((move_text(&pos, mv), tb.dtw(&pos.play(mv))?.before()));
            }
            moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.preference()));
            for (text, v) in moves {
                outln!("{text} {v}");
            }
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Stats { tables } => {
            let (variant, dir) = tables.resolve()?;
            let tb = Tablebase::open_for(&dir, variant)?;
            let stats = tb.stats()?;
            let bits = |bytes: u64, n: u64| bytes as f64 * 8.0 / n.max(1) as f64;
            for s in &stats {
                outln!(
                    "{:<12} positions={} wins={} draws={} losses={} longest_win={} wdl_bytes={} dtw_bytes={} wdl_bits={:.3} dtw_bits={:.3}",
                    s.material.to_string(),
                    s.positions,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    s.wdl_bytes,
                    s.dtw_bytes,
                    bits(s.wdl_bytes, s.positions),
                    bits(s.dtw_bytes, s.positions)
                );
            }
            let sum =
                |f: fn(&tablebase::probe::SliceStats) -> u64| stats.iter().map(f).sum::<u64>();
            let positions = sum(|s| s.positions);
            outln!(
                "total slices={} positions={} wins={} draws={} losses={} longest_win={} wdl_bytes={} dtw_bytes={} wdl_bits={:.3} dtw_bits={:.3}",
                stats.len(),
                positions,
                sum(|s| s.wins),
                sum(|s| s.draws),
                sum(|s| s.losses),
                stats.iter().map(|s| s.longest_win).max().unwrap_or(0),
                sum(|s| s.wdl_bytes),
                sum(|s| s.dtw_bytes),
                bits(sum(|s| s.wdl_bytes), positions),
                bits(sum(|s| s.dtw_bytes), positions)
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Verify {
            tables,
            threads: t,
            slice,
            memory,
        } => {
            let (variant, dir) = tables.resolve()?;
            threads(t)?;
            let start = Instant::now();
            let report = Report::for_stdout();
            let budget = memory.unwrap_or_else(tablebase::memory::default_budget);
            let summary = match slice {
                Some(slice) => {
                    let job: Material = slice.parse()?;
                    tablebase::verify::verify_job(variant, &dir, job, budget, report)?
                }
                None => tablebase::verify::verify(variant, &dir, budget, report)?,
            };
            outln!(
                "verified slices={} positions={} time={:.1}s: all consistent",
                summary.slices,
                summary.positions,
                start.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Bench { tables, positions } => {
            let (variant, dir) = tables.resolve()?;
            anyhow::ensure!(positions > 0, "--positions must be at least 1");
            let t = tablebase::bench::probe_latency(&dir, variant, positions)?;
            let dtw = match (t.dtw_cold_ns, t.dtw_cached_ns) {
                (Some(cold), Some(cached)) => format!(
                    " dtw_cold_us={:.2} dtw_cached_us={:.3}",
                    cold / 1000.0,
                    cached / 1000.0
                ),
                _ => " dtw=none".to_string(),
            };
            outln!(
                "probe positions={} wdl_cold_us={:.2} wdl_cached_us={:.3}{dtw}",
                t.positions,
                t.wdl_cold_ns / 1000.0,
                t.wdl_cached_ns / 1000.0
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Plan {
            tables,
            pieces,
            format,
            memory,
            metric,
        } => {
            let (variant, dir) = tables.resolve()?;
            let metric: Metric = metric.parse().map_err(anyhow::Error::msg)?;
            match format.as_str() {
                "make" => {
                    let program = std::env::current_exe()?;
                    out!(
                        "{}",
                        tablebase::plan::makefile(
                            variant,
                            pieces,
                            &dir,
                            &program.display().to_string(),
                            memory,
                            metric
                        )?
                    );
                }
                "json" => out!(
                    "{}",
                    tablebase::plan::json(variant, pieces, memory, metric)?
                ),
                "slurm" => {
                    let program = std::env::current_exe()?;
                    out!(
                        "{}",
                        tablebase::plan::slurm(
                            variant,
                            pieces,
                            &dir,
                            &program.display().to_string(),
                            memory,
                            metric
                        )?
                    );
                }
                other => anyhow::bail!("unknown plan format {other:?} (make, json or slurm)"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Sizes rayon's pool when `--threads` is given.
fn threads(n: Option<usize>) -> Result<()> {
    if let Some(n) = n {
        anyhow::ensure!(n > 0, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()?;
    }
    Ok(())
}
