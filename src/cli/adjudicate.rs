//! `draughts adjudicate`: an arbiter's verdict on a position — the tablebase value, the move
//! limits of the rules in force and the decision they give, with the proving line as PDN; outside
//! the tables, the engine's assessment, marked as such.

use anyhow::{Context, Result};
use draughts::engine::{DEFAULT_TABLE_MB, Limits, Searcher, score_words};
use draughts::play::verdict::{Decision, Verdict, verdict};
use draughts::rules::game::{Game, MoveLimit};
use draughts::rules::notation::{line_texts, parse_fen, to_fen};
use draughts::rules::pdn::{PdnGame, write_game};
use draughts::tablebase::{self, Wdl};
use draughts::{Color, Move, Position, Variant};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `draughts adjudicate`.
#[derive(clap::Args)]
pub(crate) struct AdjudicateArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// The position (FEN).
    #[arg(long)]
    fen: String,
    /// Moves played from that position (PDN move text, move numbers allowed): they count
    /// towards the move limits, and the verdict is on the position after them.
    #[arg(long, default_value = "")]
    moves: String,
    /// Tablebase directory [default: tablebases/<variant>].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Seconds the engine thinks when the tables do not hold the position.
    #[arg(long, default_value_t = 5.0)]
    time: f64,
    /// JSON for machines.
    #[arg(long)]
    json: bool,
}

/// The engine's view of a position outside the tables.
struct Assessment {
    score: i32,
    depth: u32,
    pv: Vec<Move>,
}

/// Judges the position and prints the verdict.
pub(crate) fn run(args: AdjudicateArgs) -> Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let start = parse_fen(&args.fen, variant).context("--fen")?;
    let mut game = Game::from_position(start);
    for text in args.moves.split_whitespace().filter(|w| !w.ends_with('.')) {
        game.play_text(text)
            .with_context(|| format!("--moves: {text} after {} plies", game.moves().len()))?;
    }
    let dir = args
        .tablebases
        .unwrap_or_else(|| tablebase::default_dir(variant));
    let tb = tablebase::open_if_present(&dir, variant).map_err(anyhow::Error::msg)?;
    let judged = match &tb {
        Some(tb) => verdict(&game, tb)?,
        None => None,
    };
    let pos = *game.position();
    let assessment = match &judged {
        Some(_) => None,
        None if game.outcome().is_some() => None,
        None => Some(assess(&game, args.time)),
    };
    let limits = game.move_limits();
    let line = judged
        .as_ref()
        .filter(|v| !v.line.is_empty())
        .map(|v| proving_line(&game, v));
    if args.json {
        outln!(
            "{}",
            json_report(&game, judged.as_ref(), assessment.as_ref(), line.as_deref())
        );
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "Position: {} ({} to move, {} pieces)",
        to_fen(&pos),
        pos.side_to_move(),
        pos.piece_count()
    );
    if limits.is_empty() {
        outln!("Move limits: none in force");
    } else {
        outln!("Move limits in force:");
        for l in &limits {
            outln!("  {l}");
        }
    }
    match (&judged, &assessment) {
        (Some(v), _) => {
            outln!("Tablebase: {}", value_words(v, pos.side_to_move()));
            outln!("Decision: {}", v.decision);
            if let Some(text) = &line {
                outln!("Proving line:\n{text}");
            }
        }
        (None, Some(a)) => {
            match &tb {
                Some(tb) if pos.piece_count() > tb.max_pieces() => outln!(
                    "Tablebase: not held ({} pieces; the tables in {} go up to {})",
                    pos.piece_count(),
                    dir.display(),
                    tb.max_pieces()
                ),
                _ => outln!("Tablebase: none for {variant} in {}", dir.display()),
            }
            outln!(
                "Assessment (the engine's opinion after {:.1} s, not a proof): {} for {} at depth {}",
                args.time,
                score_words(a.score),
                pos.side_to_move(),
                a.depth
            );
            outln!("Engine line: {}", line_words(&pos, &a.pv));
        }
        (None, None) => outln!(
            "Decision: the game is over: {}",
            game.outcome().map_or_else(String::new, |o| o.to_string())
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// A search of `time` seconds from the game's position, its history counting for repetitions.
fn assess(game: &Game, time: f64) -> Assessment {
    let pos = *game.position();
    let history: Vec<u64> = game.positions().map(Position::zobrist).collect();
    let mut searcher = Searcher::new(DEFAULT_TABLE_MB, None);
    let time = Duration::from_secs_f64(time.clamp(0.01, 3600.0));
    let limits = Limits {
        time: Some(time),
        max_time: Some(time),
        ..Limits::default()
    };
    let o = searcher.search(&pos, &history[..history.len() - 1], limits, &mut |_| {});
    Assessment {
        score: o.score,
        depth: o.depth,
        pv: o.pv,
    }
}

/// The position and the verdict's line as a PDN game: the FEN, the moves of `--moves` and the
/// best play after them, with the decision as its result.
fn proving_line(game: &Game, v: &Verdict) -> String {
    let mut played = game.clone();
    for mv in &v.line {
        if played.play(mv).is_err() {
            break;
        }
    }
    let decision = v.decision.to_string();
    let mut pdn = PdnGame::from_game(&played, &[("Event", "draughts adjudicate")]);
    pdn.set_result(match v.decision {
        Decision::Win { winner, .. } | Decision::WinByResult { winner } => {
            draughts::rules::pdn::GameResult::Win(winner)
        }
        Decision::Undecided { .. } => draughts::rules::pdn::GameResult::Unfinished,
        Decision::Over(o) => o
            .winner
            .map_or(draughts::rules::pdn::GameResult::Draw, |w| {
                draughts::rules::pdn::GameResult::Win(w)
            }),
        Decision::Draw | Decision::DrawByLimit { .. } => draughts::rules::pdn::GameResult::Draw,
    });
    pdn.tags.push(("Termination".into(), decision));
    write_game(&pdn)
}

/// The tables' value in words.
fn value_words(v: &Verdict, to_move: Color) -> String {
    let winner = match v.result {
        Wdl::Draw => return "draw with best play".to_string(),
        Wdl::Win => to_move,
        Wdl::Loss => to_move.opposite(),
    };
    match v.plies {
        Some(p) => format!("{winner} wins in {p} plies with best play (move limits aside)"),
        None => format!(
            "{winner} wins with best play (move limits aside; results only, the length is not in these tables)"
        ),
    }
}

/// Moves from `pos` in move text.
fn line_words(pos: &Position, moves: &[Move]) -> String {
    line_texts(pos, moves).join(" ")
}

fn limit_json(l: &MoveLimit) -> Value {
    json!({
        "rule": l.reason.describe(),
        "left": l.left,
        "counts": match l.counted {
            None => "plies of both sides".to_string(),
            Some(side) => format!("moves of {side}"),
        },
        "text": l.to_string(),
    })
}

fn json_report(
    game: &Game,
    judged: Option<&Verdict>,
    assessment: Option<&Assessment>,
    line: Option<&str>,
) -> Value {
    let pos = *game.position();
    let side = |c: Color| c.to_string().to_lowercase();
    let tablebase = judged.map(|v| match v.result {
        Wdl::Draw => json!({"value": "draw"}),
        result => json!({"value": result.name(), "plies": v.plies}),
    });
    let decision = match judged.map(|v| v.decision) {
        Some(Decision::Win { winner, plies }) => {
            json!({"result": "win", "winner": side(winner), "plies": plies})
        }
        Some(Decision::WinByResult { winner }) => {
            json!({"result": "win", "winner": side(winner), "plies": Value::Null})
        }
        Some(Decision::Undecided { winner, rule }) => {
            json!({"result": "undecided", "winner_without_it": side(winner), "by": rule.describe()})
        }
        Some(Decision::Draw) => json!({"result": "draw", "by": "tablebase"}),
        Some(Decision::DrawByLimit {
            winner,
            plies,
            rule,
        }) => {
            json!({"result": "draw", "by": rule.describe(), "winner_without_it": side(winner), "plies": plies})
        }
        Some(Decision::Over(o)) => json!({"result": "over", "text": o.to_string()}),
        None => Value::Null,
    };
    json!({
        "fen": to_fen(&pos),
        "to_move": side(pos.side_to_move()),
        "limits": game.move_limits().iter().map(limit_json).collect::<Vec<_>>(),
        "tablebase": tablebase,
        "decision": decision,
        "decision_text": judged.map(|v| v.decision.to_string()),
        "line": judged.map(|v| line_words(&pos, &v.line)),
        "pdn": line,
        "assessment": assessment.map(|a| json!({
            "note": "the engine's opinion, not a proof",
            "score": score_words(a.score),
            "depth": a.depth,
            "line": line_words(&pos, &a.pv),
        })),
    })
}
