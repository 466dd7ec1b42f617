//! `draughts review`: every move of a game judged by the engine and the tablebases, a summary per
//! player, and the game written back as annotated PDN.

use anyhow::{Context, Result, bail};
use draughts::bounded;
use draughts::engine::{DEFAULT_TABLE_MB, score_words};
use draughts::play::review::{self, Judgement, PositionValue, Review, Settings, Source};
use draughts::rules::notation::{line_texts, move_text};
use draughts::rules::pdn::{self, PdnGame};
use draughts::tablebase::progress::{Progress, Report};
use draughts::tablebase::{self, Tablebase};
use draughts::{Color, Move, Position, Variant};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Arguments of `draughts review`.
/// The time a position gets at most when only a depth is asked for: a deep search of a quiet
/// middlegame can take minutes, and a review of a long game must still end.
const DEPTH_CAP_SECONDS: f64 = 60.0;

#[derive(clap::Args)]
pub(crate) struct ReviewArgs {
    /// The PDN file.
    file: PathBuf,
    /// Which game of the file (1 for the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// Every game of the file with moves (a round, a match, a tournament's export).
    #[arg(long, conflicts_with = "game")]
    all: bool,
    /// Every game of the file whose Round tag is this (a round of `tournament export`).
    #[arg(long, conflicts_with_all = ["game", "all"])]
    round: Option<String>,
    /// Seconds of search for each position [default: 1; with --depth, a cap of 60].
    #[arg(long)]
    time: Option<f64>,
    /// Depth of search for each position (the same review every run); with --time, whichever
    /// comes first. Without --time a position gets at most 60 s, so no review runs unbounded.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Positions searched at once [default: the machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: Option<u16>,
    /// Transposition table of each thread, in MB.
    #[arg(long, default_value_t = DEFAULT_TABLE_MB as u16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hash: u16,
    /// Variant of games without a GameType tag.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Tablebase directory [default: tablebases/<variant>]; positions they hold take their
    /// exact value.
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Write the game with the review's comments, signs and better moves to this PDN file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// JSON for machines.
    #[arg(long)]
    json: bool,
}

/// Reviews the game and prints (or writes) the result.
pub(crate) fn run(args: ReviewArgs) -> Result<ExitCode> {
    let default_variant: Variant = args.variant.parse()?;
    let bytes = bounded::read_file(&args.file, bounded::MAX_PDN_FILE, "PDN file")?;
    let name = args.file.display();
    let all = pdn::read_bytes(&bytes, default_variant);
    let games: Vec<PdnGame> = match (&args.round, args.all) {
        (None, false) => {
            let index = usize::try_from(args.game - 1).unwrap_or(usize::MAX);
            match all.into_iter().nth(index) {
                Some(Ok(g)) => vec![g],
                Some(Err(e)) => bail!("{name}:{e}"),
                None => bail!("{name} has no game {}", args.game),
            }
        }
        (round, _) => {
            let mut chosen = Vec::new();
            for (i, g) in all.into_iter().enumerate() {
                match g {
                    Ok(g) if round.is_none() || g.tag("Round") == round.as_deref() => {
                        chosen.push(g)
                    }
                    Ok(_) => {}
                    Err(e) => eprintln!("{name}: game {} left out: {e}", i + 1),
                }
            }
            // Forfeits and unplayed pairings have nothing to review.
            chosen.retain(|g| !g.line.moves.is_empty());
            if chosen.is_empty() {
                bail!(
                    "{name} has no game with moves{}",
                    match round {
                        Some(r) => format!(" in round {r}"),
                        None => String::new(),
                    }
                );
            }
            chosen
        }
    };
    let variant = games[0].variant;
    let dir = args
        .tablebases
        .clone()
        .unwrap_or_else(|| tablebase::default_dir(variant));
    let tables = tablebase::open_if_present(&dir, variant).map_err(anyhow::Error::msg)?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let seconds = match (args.time, args.depth) {
        (Some(t), _) => t,
        (None, Some(_)) => DEPTH_CAP_SECONDS,
        (None, None) => 1.0,
    };
    if !seconds.is_finite() {
        anyhow::bail!("--time must be a number of seconds");
    }
    let settings = Settings {
        time: Some(Duration::from_secs_f64(seconds.clamp(0.01, 3600.0))),
        depth: args.depth,
        threads,
        hash_mb: usize::from(args.hash),
    };
    let how = match (args.depth, args.time) {
        (Some(d), None) => format!("depth {d} a position"),
        (Some(d), Some(t)) => format!("depth {d} or {t} s a position"),
        (None, _) => format!("{seconds} s a position"),
    };
    let annotator = format!("draughts review, {how}");
    let report = if args.json {
        Report::Quiet
    } else {
        Report::for_stdout()
    };
    let everything = Instant::now();
    let mut annotated = Vec::new();
    let mut reports = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let tables = tables.clone().filter(|t| t.variant() == game.variant);
        let label = match games.len() {
            1 => "review".to_string(),
            n => format!("game {}/{n}", i + 1),
        };
        let moves: Vec<Move> = game.line.moves.iter().map(|m| m.mv).collect();
        let started = Instant::now();
        let mut bar: Option<Progress> = None;
        let cancel = AtomicBool::new(false);
        let result = review::review(
            game.start,
            &moves,
            tables.clone(),
            settings,
            &mut |done, total| {
                let b = bar.get_or_insert_with(|| Progress::start(report, &label, total as u64));
                if done > 0 {
                    b.inc(1);
                }
            },
            &cancel,
        )?;
        let elapsed = started.elapsed();
        if let Some(b) = bar {
            b.finish(&format!("{} positions", result.values.len()));
        }
        if args.json {
            reports.push(json_report(game, &result, &how, elapsed, tables.as_deref()));
        } else {
            if i > 0 {
                outln!();
            }
            print_report(game, &result, &how, threads, elapsed, tables.as_deref());
        }
        annotated.push(review::annotate(game, &result, &annotator));
    }
    if let Some(out) = &args.out {
        draughts::config::write_atomic(out, pdn::write_games(&annotated).as_bytes())
            .with_context(|| out.display().to_string())?;
    }
    if args.json {
        match reports.len() {
            1 => outln!("{}", reports.remove(0)),
            _ => outln!("{}", Value::Array(reports)),
        }
    } else {
        if games.len() > 1 {
            outln!(
                "\n{} games reviewed in {:.1} s",
                games.len(),
                everything.elapsed().as_secs_f64()
            );
        }
        if let Some(out) = &args.out {
            outln!("Annotated games written to {}", out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A position's value in words, from White's side, with where it comes from.
fn value_words(v: &PositionValue) -> String {
    let text = review::eval_text(v.white_score());
    match v.source {
        Source::Tablebase(_) => format!("{text} (tables)"),
        _ => text,
    }
}

fn player_line(review: &Review, positions: &[Position], side: Color) -> String {
    let p = review
        .players
        .iter()
        .find(|p| p.side == side)
        .expect("both sides have a summary");
    let mut line = format!(
        "{side}: accuracy {:.0}% over {}; {}, {}, {}",
        p.accuracy,
        count(p.judged, "judged move", "judged moves"),
        count(p.inaccuracies, "inaccuracy", "inaccuracies"),
        count(p.mistakes, "mistake", "mistakes"),
        count(p.blunders, "blunder", "blunders"),
    );
    if let Some(ply) = p.turning_point {
        let r = &review.moves[ply];
        line.push_str(&format!(
            "; turning point {} {}{} ({} → {})",
            review::move_label(&review.start, ply),
            move_text(&positions[ply], &r.mv),
            r.judgement.sign().unwrap_or(""),
            review::eval_text(review.values[ply].white_score()),
            review::eval_text(review.values[ply + 1].white_score()),
        ));
    }
    line
}

fn print_report(
    game: &PdnGame,
    review: &Review,
    how: &str,
    threads: usize,
    elapsed: Duration,
    tables: Option<&Tablebase>,
) {
    let players = format!(
        "{} – {}",
        game.tag("White").unwrap_or("?"),
        game.tag("Black").unwrap_or("?")
    );
    outln!(
        "Review of {players} ({}): {how}, {threads} {}, {}, {:.1} s",
        game.variant,
        if threads == 1 { "thread" } else { "threads" },
        tables.map_or("no tablebases".to_string(), |t| format!(
            "tablebases up to {} pieces",
            t.max_pieces()
        )),
        elapsed.as_secs_f64()
    );
    let positions = review.positions();
    for r in &review.moves {
        let pos = &positions[r.ply];
        let (before, after) = (&review.values[r.ply], &review.values[r.ply + 1]);
        let mut line = format!(
            "{:>7} {:<12} {:>16}",
            review::move_label(&review.start, r.ply),
            format!(
                "{}{}",
                move_text(pos, &r.mv),
                r.judgement.sign().unwrap_or("")
            ),
            value_words(after)
        );
        match r.judgement {
            Judgement::Forced => line.push_str("  forced"),
            Judgement::Best | Judgement::Good => {}
            j => {
                line.push_str(&format!("  {} ({} lost)", j.name(), percent(r.loss)));
                if let Some(best) = before.best() {
                    line.push_str(&format!(
                        ", best {} {}",
                        move_text(pos, &best),
                        value_words(before)
                    ));
                }
                if r.proven {
                    line.push_str(", proven by the tables");
                }
            }
        }
        outln!("{}", line.trim_end());
    }
    outln!("Result: {}", pdn::result_text(game.result, game.variant));
    let first = game.variant.rules().first_player;
    for side in [first, first.opposite()] {
        outln!("{}", player_line(review, &positions, side));
    }
}

/// `n` things in words: `1 blunder`, `2 blunders`.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// An expected score lost, as a percentage of a point.
fn percent(loss: f64) -> String {
    format!("{:.0}%", loss * 100.0)
}

fn json_report(
    game: &PdnGame,
    review: &Review,
    how: &str,
    elapsed: Duration,
    tables: Option<&Tablebase>,
) -> Value {
    let positions = review.positions();
    let side = |c: Color| c.to_string().to_lowercase();
    let moves: Vec<Value> = review
        .moves
        .iter()
        .map(|r| {
            let pos = &positions[r.ply];
            let (before, after) = (&review.values[r.ply], &review.values[r.ply + 1]);
            json!({
                "ply": r.ply,
                "number": review::move_label(&review.start, r.ply),
                "side": side(r.side),
                "move": move_text(pos, &r.mv),
                "before": review::eval_text(before.white_score()),
                "after": review::eval_text(after.white_score()),
                "exact": after.is_exact(),
                "best": before.best().map(|b| move_text(pos, &b)),
                "line": line_texts(pos, &before.line).join(" "),
                "loss": (r.loss * 1000.0).round() / 1000.0,
                "judgement": r.judgement.name(),
                "nag": r.judgement.nag(),
                "proven": r.proven,
                "score_words": score_words(after.score),
            })
        })
        .collect();
    let players: Vec<Value> = review
        .players
        .iter()
        .map(|p| {
            json!({
                "side": side(p.side),
                "accuracy": (p.accuracy * 10.0).round() / 10.0,
                "judged": p.judged,
                "inaccuracies": p.inaccuracies,
                "mistakes": p.mistakes,
                "blunders": p.blunders,
                "turning_point": p.turning_point.map(|ply| json!({
                    "ply": ply,
                    "number": review::move_label(&review.start, ply),
                    "move": move_text(&positions[ply], &review.moves[ply].mv),
                })),
            })
        })
        .collect();
    json!({
        "white": game.tag("White"),
        "black": game.tag("Black"),
        "variant": game.variant.to_string(),
        "result": pdn::result_text(game.result, game.variant),
        "settings": how,
        "tablebase_pieces": tables.map(|t| t.max_pieces()),
        "seconds": (elapsed.as_secs_f64() * 10.0).round() / 10.0,
        "thresholds": {
            "inaccuracy": review::INACCURACY,
            "mistake": review::MISTAKE,
            "blunder": review::BLUNDER,
        },
        "moves": moves,
        "players": players,
    })
}
