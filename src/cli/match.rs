//! `draughts match`: engine against engine from openings, both colours, in parallel.

use super::MAX_MOVE_SECONDS;
use anyhow::Result;
use draughts::Variant;
use draughts::bounded;
use draughts::clock::TimeControl;
use draughts::engine::eval::Model;
use draughts::rules::pdn;
use draughts::tablebase;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// The most nodes a move `--nodes` searches: days of search at any engine's rate.
const MAX_NODES: u64 = 1_000_000_000_000;

/// Arguments of `draughts match`.
#[derive(clap::Args)]
pub(crate) struct MatchArgs {
    /// Engine A: engine, engine:<1-10|max>, or hub:<command>.
    #[arg(long)]
    engine_a: String,
    /// Engine B.
    #[arg(long)]
    engine_b: String,
    /// Number of games (with --sprt: the most it may play).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Stop as soon as a sequential probability ratio test decides between two Elo
    /// differences, as in `--sprt 0,20` (A no better than 0, or at least 20 better); a bound
    /// may be negative (`--sprt -30,0`: A at least 30 worse, or no worse).
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// SPRT: chance of accepting ELO1 when ELO0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// SPRT: chance of accepting ELO0 when ELO1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// Time control for both (the clock syntax).
    #[arg(long, default_value = "1m+1s")]
    tc: String,
    /// Both think this many seconds a move, all of it, without a clock (instead of --tc).
    #[arg(long, value_name = "SECONDS", conflicts_with = "tc")]
    move_time: Option<f64>,
    /// Both search this many nodes a move, without a clock (instead of --tc or --move-time):
    /// games that do not depend on the machine's speed or load, for versions of one engine.
    #[arg(long, conflicts_with_all = ["tc", "move_time"], value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Openings file: one opening a line, moves from the start or a position in FEN [default: every two-ply start].
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once [default: half the cores, at least one].
    #[arg(long)]
    concurrency: Option<usize>,
    /// Write every game to this PDN file.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Tablebases for adjudication [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Moves (plies) after which a game is adjudicated drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Weights for engine A when it is the built-in engine: a file, `initial` (the hand-set
    /// start) or `builtin` (the shipped ones, the default).
    #[arg(long)]
    weights_a: Option<String>,
    /// The built-in engine thinks from the first move instead of playing its opening book.
    #[arg(long)]
    no_book: bool,
    /// Weights for engine B when it is the built-in engine.
    #[arg(long)]
    weights_b: Option<String>,
}

/// Plays the match, printing each game's result and then the score.
pub(crate) fn run(args: MatchArgs) -> Result<ExitCode> {
    let MatchArgs {
        engine_a,
        engine_b,
        games,
        sprt,
        alpha,
        beta,
        tc,
        move_time,
        nodes,
        variant,
        openings,
        concurrency,
        pdn: out,
        tablebases,
        max_plies,
        weights_a,
        weights_b,
        no_book,
    } = args;
    use draughts::arena::sprt::{self, Sprt, Verdict};
    use draughts::arena::{self, Contender, MatchSettings, Pace};
    let variant: Variant = variant.parse()?;
    let sprt = sprt
        .map(|bounds| {
            let t = Sprt::parse(&bounds)?;
            Sprt::new(t.elo0, t.elo1, alpha, beta)
        })
        .transpose()
        .map_err(|e| anyhow::anyhow!("--sprt: {e}"))?;
    let a: Contender = engine_a
        .parse()
        .map_err(|e| anyhow::anyhow!("--engine-a: {e}"))?;
    let b: Contender = engine_b
        .parse()
        .map_err(|e| anyhow::anyhow!("--engine-b: {e}"))?;
    let pace = match (nodes, move_time) {
        (Some(n), _) => Pace::Nodes(n),
        (None, Some(t)) if t.is_finite() && t > 0.0 && t <= MAX_MOVE_SECONDS => {
            Pace::MoveTime(std::time::Duration::from_secs_f64(t))
        }
        (None, Some(t)) => {
            anyhow::bail!("--move-time {t}: expected seconds above 0, at most {MAX_MOVE_SECONDS}")
        }
        (None, None) => {
            Pace::Clock(TimeControl::parse(&tc).map_err(|e| anyhow::anyhow!("--tc: {e}"))?)
        }
    };
    let lines = match &openings {
        Some(f) => {
            let text = bounded::read_text(f, bounded::MAX_TEXT_FILE, "openings file")?;
            arena::read_openings(&text, variant)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?
        }
        None => arena::two_ply_openings(variant),
    };
    let weights = |name: Option<String>, flag: &str| -> Result<_> {
        Ok(match name {
            Some(n) => Some(Arc::new(
                super::learn::weights(Some(&n), variant, Model::initial)
                    .map_err(|e| anyhow::anyhow!("{flag}: {e:#}"))?,
            )),
            None => None,
        })
    };
    let weights = [
        weights(weights_a, "--weights-a")?,
        weights(weights_b, "--weights-b")?,
    ];
    let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
    let settings = MatchSettings {
        variant,
        a,
        b,
        pace,
        tablebase: tablebase::open_if_present(&dir, variant).map_err(anyhow::Error::msg)?,
        max_plies,
        weights,
        book: !no_book,
    };
    let threads = concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    });
    // Scores by game number, for the SPRT's pairs, and its verdict once it has one.
    let scores = Mutex::new(vec![None; games]);
    let verdict = Mutex::new(None);
    let played = arena::run(&settings, &lines, games, threads, &|i, p| {
        let result = pdn::result_text(p.pdn.result, variant);
        let termination = p.pdn.tag("Termination").unwrap_or("");
        let mut line = format!(
            "game {}/{games}: {} - {}: {result} ({termination})",
            i + 1,
            p.pdn.tag("White").unwrap_or("?"),
            p.pdn.tag("Black").unwrap_or("?"),
        );
        let mut flow = ControlFlow::Continue(());
        if let Some(test) = &sprt {
            // A poisoned lock means another game's report panicked; the match goes on unstopped.
            if let (Ok(mut scores), Ok(mut verdict)) = (scores.lock(), verdict.lock()) {
                scores[i] = Some(p.score_a);
                let pairs = sprt::pairs(&scores);
                let (lower, upper) = test.bounds();
                line += &format!("; LLR {:.2} [{lower:.2}, {upper:.2}]", test.llr(&pairs));
                if verdict.is_none() {
                    *verdict = test.verdict(&pairs);
                }
                if verdict.is_some() {
                    flow = ControlFlow::Break(());
                }
            }
        }
        outln!("{line}");
        flow
    })
    .map_err(anyhow::Error::msg)?;
    let played: Vec<_> = played.into_iter().map(|(_, p)| p).collect();
    if let Some(path) = &out {
        let text = pdn::write_games(played.iter().map(|p| &p.pdn));
        draughts::config::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    outln!(
        "{} vs {}: {}",
        settings.a,
        settings.b,
        arena::summarise(&played)
    );
    if let Some(test) = &sprt {
        let decided = match verdict.into_inner().ok().flatten() {
            Some(Verdict::H1) => format!("H1 accepted: A is at least {} Elo better", test.elo1),
            Some(Verdict::H0) => format!("H0 accepted: A is not {} Elo better", test.elo1),
            None => format!("no verdict within {games} games"),
        };
        outln!(
            "SPRT {},{} (alpha {}, beta {}): {decided}",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta
        );
    }
    Ok(ExitCode::SUCCESS)
}
