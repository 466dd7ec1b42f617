//! Review of a played game: every position searched by the engine or, where the tablebases hold
//! it, given its exact value under the rules' move limits; every move judged by what it cost; a
//! summary per player; and the game written back as annotated PDN.
//!
//! A move's cost is the expected score it gives away. An evaluation `s` (hundredths of a man, for
//! the side to move) stands for the expected score `σ(s / 100)` — a man up scores about 73%, the
//! logistic scale the evaluation's weights are trained on — and a forced or tablebase result for
//! 1, ½ or 0. A move that gives away at least [`INACCURACY`], [`MISTAKE`] or [`BLUNDER`] of a
//! point is marked `?!`, `?` or `??`: losing a man from an equal position (about 0.23) is a
//! blunder, a quarter of a man there (about 0.06) goes unmarked. A tablebase change (win → draw,
//! draw → loss) costs half a point or more and so is always a blunder, proven by the tables. A
//! move the position forces (the only legal move, a capture among them) is not judged.
//!
//! Positions are searched on several threads at once, each thread taking a stretch of the game
//! and working back from its end, so that what a later position taught its table helps the one
//! before; a forced position takes its value from the position after it without a search.

pub mod background;

use crate::engine::search::{Limits, MATE, Searcher, TB_WIN, is_decisive};
use crate::play::verdict::{Decision, verdict};
use crate::rules::board::Position;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::line_texts;
use crate::rules::pdn::{Line, PdnGame, PdnMove};
use crate::rules::piece::Color;
use crate::tablebase::{Tablebase, TbError, Wdl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Expected score given away by an inaccuracy (`?!`, NAG `$6`).
pub const INACCURACY: f64 = 0.07;
/// Expected score given away by a mistake (`?`, NAG `$2`).
pub const MISTAKE: f64 = 0.14;
/// Expected score given away by a blunder (`??`, NAG `$4`).
pub const BLUNDER: f64 = 0.22;
/// The evaluation that stands for σ(1) ≈ 73% of the points: one man.
const SCALE: f64 = 100.0;

/// The expected score of the side to move for a score in the engine's units.
pub fn expected(score: i32) -> f64 {
    if is_decisive(score) {
        if score > 0 { 1.0 } else { 0.0 }
    } else {
        1.0 / (1.0 + (-f64::from(score) / SCALE).exp())
    }
}

/// What a move is judged to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// The only legal move: not judged.
    Forced,
    /// The engine's (or the tables') best move.
    Best,
    /// Another move that gives away less than an inaccuracy.
    Good,
    /// Gives away at least [`INACCURACY`].
    Inaccuracy,
    /// Gives away at least [`MISTAKE`].
    Mistake,
    /// Gives away at least [`BLUNDER`].
    Blunder,
}

impl Judgement {
    /// The judgement of a move that gives away `loss` of a point.
    pub fn of_loss(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    /// The move-strength sign (`?!`, `?`, `??`) of a marked move.
    pub fn sign(self) -> Option<&'static str> {
        match self {
            Judgement::Inaccuracy => Some("?!"),
            Judgement::Mistake => Some("?"),
            Judgement::Blunder => Some("??"),
            _ => None,
        }
    }

    /// The PDN numeric annotation glyph of a marked move (`$6`, `$2`, `$4`).
    pub fn nag(self) -> Option<&'static str> {
        match self {
            Judgement::Inaccuracy => Some("$6"),
            Judgement::Mistake => Some("$2"),
            Judgement::Blunder => Some("$4"),
            _ => None,
        }
    }

    /// The judgement in a word.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Forced => "forced",
            Judgement::Best => "best",
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// Whether the move is marked as an error.
    pub fn is_error(self) -> bool {
        self >= Judgement::Inaccuracy
    }
}

/// Where a position's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A search to this depth.
    Search {
        /// The deepest completed iteration.
        depth: u32,
    },
    /// The tablebases with the move limits in force: exact.
    Tablebase(Decision),
    /// The only legal move, valued by the position after it.
    Forced,
    /// The game is over in this position.
    Over,
}

/// The value of one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionValue {
    /// Who is to move.
    pub side: Color,
    /// The score for the side to move (hundredths of a man; see [`crate::engine::score_words`]).
    pub score: i32,
    /// Best play from here as far as it is known (the best move first).
    pub line: Vec<Move>,
    /// Where the value comes from.
    pub source: Source,
}

impl PositionValue {
    /// The score from White's side (for graphs and `%eval`).
    pub fn white_score(&self) -> i32 {
        match self.side {
            Color::White => self.score,
            Color::Black => -self.score,
        }
    }

    /// The best move, if the position has one.
    pub fn best(&self) -> Option<Move> {
        self.line.first().copied()
    }

    /// Whether the value is the tables' exact one.
    pub fn is_exact(&self) -> bool {
        matches!(self.source, Source::Tablebase(_) | Source::Over)
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Its index in the game (0 for the first move).
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// The expected score it gave away (0 for the best move).
    pub loss: f64,
    /// The judgement.
    pub judgement: Judgement,
    /// Whether the tablebases prove the judgement (both positions exact).
    pub proven: bool,
}

/// One player's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// The player's colour.
    pub side: Color,
    /// Moves judged (forced ones are not).
    pub judged: usize,
    /// Mean accuracy of the judged moves, 0 to 100 (100 when none was judged).
    pub accuracy: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// The ply of the player's costliest error (the turning point of their game), if any.
    pub turning_point: Option<usize>,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The start position.
    pub start: Position,
    /// The value of every position, the start's first and the final one's last.
    pub values: Vec<PositionValue>,
    /// Every move reviewed, in order.
    pub moves: Vec<MoveReview>,
    /// White's and Black's summaries, the first mover's first.
    pub players: [PlayerSummary; 2],
}

impl Review {
    /// Both players' accuracy and counts of errors in a line, the first mover first:
    /// `White 93% (0?! 1? 0??), Black 97% (0?! 0? 0??)`.
    pub fn summary(&self) -> String {
        self.players
            .iter()
            .map(|p| {
                format!(
                    "{} {:.0}% ({}?! {}? {}??)",
                    p.side, p.accuracy, p.inaccuracies, p.mistakes, p.blunders
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The positions of the game reviewed, the start's first and the final one's last.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start;
        let mut out = vec![pos];
        for r in &self.moves {
            pos = pos.play(&r.mv);
            out.push(pos);
        }
        out
    }
}

/// How hard the review looks at each position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Time for each position.
    pub time: Option<Duration>,
    /// Depth for each position (with `time`: whichever comes first).
    pub depth: Option<u32>,
    /// Positions searched at once (each on its own thread).
    pub threads: usize,
    /// Transposition table of each thread, in MB.
    pub hash_mb: usize,
}

/// The `Annotator` tag of a record reviewed at `time` a position.
pub fn annotator(time: Duration) -> String {
    format!("draughts review, {} s a position", time.as_secs_f64())
}

impl Settings {
    /// `time` a position on `threads` threads, with the 32 MB table a thread that a screen's
    /// background review uses.
    pub fn timed(time: Duration, threads: usize) -> Settings {
        Settings {
            time: Some(time),
            depth: None,
            threads,
            hash_mb: 32,
        }
    }
}

/// Why a review did not finish.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The tablebases failed to give a value.
    #[error("tablebase: {0}")]
    Tablebase(TbError),
    /// The review was cancelled.
    #[error("review cancelled")]
    Cancelled,
    /// Neither a time nor a depth was given: the search would not end.
    #[error("a review needs a time or a depth for each position")]
    Unbounded,
}

// By hand, not `#[from]`: the message carries the tables' error, so it is not also its
// source (a chain printed in full would say it twice).
impl From<TbError> for ReviewError {
    fn from(e: TbError) -> ReviewError {
        ReviewError::Tablebase(e)
    }
}

/// The accuracy of a move that gives away `loss` of a point: 100 for none, falling
/// exponentially (the curve lichess fits to its players' games, on a 0–100 scale).
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One position to value, with what the workers need of it.
struct Job {
    position: Position,
    /// The game up to here, when the tables hold the position (for the verdict and its limits).
    game: Option<Game>,
    /// Whether the position has exactly one legal move.
    forced: bool,
}

/// Reviews the game played from `start` with `moves`, calling `progress(done, total)` as
/// positions are valued. Moves the rules no longer allow (after the game ended) are left out.
/// Setting `cancel` stops the review within one search's reaction time.
pub fn review(
    start: Position,
    moves: &[Move],
    tables: Option<Arc<Tablebase>>,
    settings: Settings,
    progress: &mut dyn FnMut(usize, usize),
    cancel: &AtomicBool,
) -> Result<Review, ReviewError> {
    if settings.time.is_none() && settings.depth.is_none() {
        return Err(ReviewError::Unbounded);
    }
    let tables = tables.filter(|t| t.variant() == start.variant());
    let held = |p: &Position| {
        tables
            .as_ref()
            .is_some_and(|t| p.piece_count() <= t.max_pieces())
    };
    // The game replayed: the rules end it where they end it, and bound its length.
    let mut game = Game::from_position(start);
    let mut played = Vec::new();
    let mut jobs = Vec::new();
    let mut hashes = Vec::new();
    loop {
        let position = *game.position();
        jobs.push(Job {
            position,
            game: held(&position).then(|| game.clone()),
            forced: game.outcome().is_none() && position.legal_moves().len() == 1,
        });
        hashes.push(position.zobrist());
        let Some(mv) = moves.get(played.len()) else {
            break;
        };
        if game.outcome().is_some() || game.play(mv).is_err() {
            break;
        }
        played.push(*mv);
    }
    let last = jobs.len() - 1;
    let over = game.outcome();
    let mut values: Vec<Option<PositionValue>> = vec![None; jobs.len()];
    let searched: Vec<usize> = (0..jobs.len())
        .filter(|&i| {
            if i == last {
                over.is_none()
            } else {
                !jobs[i].forced
            }
        })
        .collect();
    if let Some(o) = over {
        let side = jobs[last].position.side_to_move();
        values[last] = Some(PositionValue {
            side,
            score: match o.winner {
                None => 0,
                Some(w) if w == side => MATE,
                Some(_) => -MATE,
            },
            line: Vec::new(),
            source: Source::Over,
        });
    }
    let total = searched.len();
    progress(0, total);
    let workers = settings.threads.clamp(1, total.max(1));
    let searchers: Vec<Searcher> = (0..workers)
        .map(|_| Searcher::new(settings.hash_mb, tables.clone()))
        .collect();
    let stops: Vec<_> = searchers.iter().map(Searcher::stop_flag).collect();
    let limits = Limits {
        depth: settings.depth,
        time: settings.time,
        max_time: settings.time,
        nodes: None,
    };
    let (tx, rx) = channel::<Result<(usize, PositionValue), ReviewError>>();
    let chunk = total.div_ceil(workers).max(1);
    let outcome = std::thread::scope(|scope| {
        for (w, mut searcher) in searchers.into_iter().enumerate() {
            let mine: Vec<usize> = searched
                .iter()
                .skip(w * chunk)
                .take(chunk)
                .copied()
                .collect();
            let (tx, jobs, hashes, tables) = (tx.clone(), &jobs, &hashes, &tables);
            scope.spawn(move || {
                for &i in mine.iter().rev() {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let value = value_of(&mut searcher, &jobs[i], &hashes[..i], tables, limits);
                    if tx.send(value.map(|v| (i, v))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok((i, v))) => {
                    values[i] = Some(v);
                    done += 1;
                    progress(done, total);
                }
                Ok(Err(e)) => {
                    stops.iter().for_each(|s| s.store(true, Ordering::Relaxed));
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if cancel.load(Ordering::Relaxed) {
                stops.iter().for_each(|s| s.store(true, Ordering::Relaxed));
                return Err(ReviewError::Cancelled);
            }
        }
        Ok(())
    });
    outcome?;
    if cancel.load(Ordering::Relaxed) {
        return Err(ReviewError::Cancelled);
    }
    // Forced positions, from the end back: the only move's value is the next position's.
    for i in (0..last).rev() {
        if values[i].is_none() {
            let next = values[i + 1].as_ref().expect(
                "positions are valued from the end back, and all but forced ones are searched",
            );
            let mut line = vec![played[i]];
            line.extend_from_slice(&next.line);
            values[i] = Some(PositionValue {
                side: jobs[i].position.side_to_move(),
                score: -next.score,
                line,
                source: Source::Forced,
            });
        }
    }
    let values: Vec<PositionValue> = values
        .into_iter()
        .map(|v| v.expect("every position is searched, over or forced"))
        .collect();
    let reviews: Vec<MoveReview> = played
        .iter()
        .enumerate()
        .map(|(ply, &mv)| judge(ply, mv, &values, jobs[ply].forced))
        .collect();
    let first = start.variant().rules().first_player;
    let players = [first, first.opposite()].map(|side| summary(side, &reviews));
    Ok(Review {
        start,
        values,
        moves: reviews,
        players,
    })
}

/// The value of one position: the tables' verdict where they hold it, else a search.
fn value_of(
    searcher: &mut Searcher,
    job: &Job,
    history: &[u64],
    tables: &Option<Arc<Tablebase>>,
    limits: Limits,
) -> Result<PositionValue, ReviewError> {
    if let (Some(game), Some(tb)) = (&job.game, tables) {
        match table_value(game, tb) {
            Ok(Some(v)) => return Ok(v),
            // A partial set of tables: the slice is not there, so the engine judges.
            Ok(None) | Err(TbError::Missing { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let outcome = searcher.search(&job.position, history, limits, &mut |_| {});
    let side = job.position.side_to_move();
    let line = match outcome.pv.is_empty() {
        true => outcome.best.into_iter().collect(),
        false => outcome.pv,
    };
    Ok(PositionValue {
        side,
        score: outcome.score,
        line,
        source: Source::Search {
            depth: outcome.depth,
        },
    })
}

/// The tables' verdict on the game's position under the move limits in force, as a value.
fn table_value(game: &Game, tb: &Tablebase) -> Result<Option<PositionValue>, TbError> {
    let Some(v) = verdict(game, tb)? else {
        return Ok(None);
    };
    let side = game.position().side_to_move();
    let score = match v.decision {
        Decision::Win { winner, plies } if winner == side => TB_WIN - plies as i32,
        Decision::Win { plies, .. } => plies as i32 - TB_WIN,
        Decision::Over(o) => match o.winner {
            None => 0,
            Some(w) if w == side => MATE,
            Some(_) => -MATE,
        },
        Decision::Draw | Decision::DrawByLimit { .. } => 0,
        // Tables of results only give no length to score a win by: the search, which probes
        // them, values the position.
        Decision::WinByResult { .. } | Decision::Undecided { .. } => return Ok(None),
    };
    // A drawn position's best move is any that keeps the draw: the tables' choice.
    let line = match v.line.is_empty() {
        true => drawing_move(tb, game.position())?.into_iter().collect(),
        false => v.line,
    };
    Ok(Some(PositionValue {
        side,
        score,
        line,
        source: Source::Tablebase(v.decision),
    }))
}

/// The tables' move in a drawn position: their best, or with results only the first move
/// that keeps the draw.
fn drawing_move(tb: &Tablebase, pos: &Position) -> Result<Option<Move>, TbError> {
    match tb.best_move(pos) {
        Ok(best) => Ok(best.map(|(m, _)| m)),
        Err(TbError::Missing { kind: "dtw", .. }) => {
            for mv in pos.legal_moves().iter() {
                if tb.wdl(&pos.play(mv))? == Wdl::Draw {
                    return Ok(Some(*mv));
                }
            }
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The judgement of the move played at `ply`.
fn judge(ply: usize, mv: Move, values: &[PositionValue], forced: bool) -> MoveReview {
    let (before, after) = (&values[ply], &values[ply + 1]);
    let loss = (expected(before.score) - expected(-after.score)).max(0.0);
    let judgement = if forced {
        Judgement::Forced
    } else if before.best() == Some(mv) {
        Judgement::Best
    } else {
        Judgement::of_loss(loss)
    };
    MoveReview {
        ply,
        side: before.side,
        mv,
        loss: if forced { 0.0 } else { loss },
        judgement,
        proven: before.is_exact() && after.is_exact(),
    }
}

/// One side's summary of the judged moves.
fn summary(side: Color, reviews: &[MoveReview]) -> PlayerSummary {
    let judged: Vec<&MoveReview> = reviews
        .iter()
        .filter(|r| r.side == side && r.judgement != Judgement::Forced)
        .collect();
    let count = |j: Judgement| judged.iter().filter(|r| r.judgement == j).count();
    let accuracy = if judged.is_empty() {
        100.0
    } else {
        judged.iter().map(|r| accuracy(r.loss)).sum::<f64>() / judged.len() as f64
    };
    let turning_point = judged
        .iter()
        .filter(|r| r.judgement.is_error())
        .max_by(|a, b| a.loss.total_cmp(&b.loss).then(b.ply.cmp(&a.ply)))
        .map(|r| r.ply);
    PlayerSummary {
        side,
        judged: judged.len(),
        accuracy,
        inaccuracies: count(Judgement::Inaccuracy),
        mistakes: count(Judgement::Mistake),
        blunders: count(Judgement::Blunder),
        turning_point,
    }
}

/// A score from White's side as a `%eval` value: men (`+1.25`), or a forced end in moves
/// (`#7` White wins, `#-7` Black wins).
pub fn eval_text(white_score: i32) -> String {
    if !is_decisive(white_score) {
        return format!("{:+.2}", f64::from(white_score) / 100.0);
    }
    let base = if white_score.abs() > TB_WIN + 1000 {
        MATE
    } else {
        TB_WIN
    };
    let moves = ((base - white_score.abs()).max(1) + 1) / 2;
    if white_score > 0 {
        format!("#{moves}")
    } else {
        format!("#-{moves}")
    }
}

/// The words of a judged move's comment: what it cost and what the tables prove.
fn verdict_words(r: &MoveReview, before: &PositionValue, after: &PositionValue) -> String {
    let mut words = format!(
        "{}{} ({} → {})",
        r.judgement.name()[..1].to_uppercase(),
        &r.judgement.name()[1..],
        eval_text(before.white_score()),
        eval_text(after.white_score())
    );
    if r.proven {
        let class = |v: &PositionValue, side: Color| {
            let score = if v.side == side { v.score } else { -v.score };
            match score.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            }
        };
        words.push_str(&format!(
            ", proven by the tablebases: {} → {}",
            class(before, r.side),
            class(after, r.side)
        ));
    }
    words
}

/// The move number and dots of the ply `ply` of a game from `start` (`12.` or `12...`).
pub fn move_label(start: &Position, ply: usize) -> String {
    let n = crate::rules::pdn::move_number(start, ply);
    let first = start.variant().rules().first_player;
    let first_moves = ply.is_multiple_of(2) == (start.side_to_move() == first);
    if first_moves {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// The game with the review written in: a `%eval` comment after every reviewed move (from
/// White's side), the sign of every error as a NAG with what it cost, and the best move with the
/// engine's line as a variation. What the game already had is kept.
pub fn annotate(pdn: &PdnGame, review: &Review, annotator: &str) -> PdnGame {
    let mut out = pdn.clone();
    match out.tags.iter_mut().find(|(k, _)| k == "Annotator") {
        Some(tag) => tag.1 = annotator.to_string(),
        None => out
            .tags
            .push(("Annotator".to_string(), annotator.to_string())),
    }
    let positions = review.positions();
    for (r, m) in review.moves.iter().zip(out.line.moves.iter_mut()) {
        let pos = positions[r.ply];
        let (before, after) = (&review.values[r.ply], &review.values[r.ply + 1]);
        let mut comment = format!("[%eval {}]", eval_text(after.white_score()));
        if r.judgement.is_error() {
            m.annotations.extend(r.judgement.nag().map(str::to_string));
            comment.push(' ');
            comment.push_str(&verdict_words(r, before, after));
            let texts = line_texts(&pos, &before.line);
            if let Some(best) = texts.first() {
                comment.push_str(&format!("; best {best}"));
                let mut moves: Vec<PdnMove> = before.line[..texts.len()]
                    .iter()
                    .map(|&mv| PdnMove::new(mv))
                    .collect();
                moves[0]
                    .comments
                    .push(format!("[%eval {}]", eval_text(before.white_score())));
                m.variations.push(Line {
                    intro: Vec::new(),
                    moves,
                });
            }
        }
        m.comments.push(comment);
    }
    out
}

#[cfg(test)]
mod tests;
