//! Engine matches: two engines play pairs of games from each opening (each side once), in
//! parallel, under a real clock or at a fixed time a move; the games are kept as PDN and the
//! result is summed up as a score and an Elo difference with its error margin.

use crate::clock::{Tick, TimeControl};
use crate::engine::eval::Model;
use crate::engine::{self, Level};
use crate::hub::client::{HubEngine, command_line, level_line, move_time_line, nodes_line};
use crate::play::{LiveGame, Notice, Options};
use crate::rules::board::Position;
use crate::rules::game::{Game, Outcome, Reason};
use crate::rules::moves::Move;
use crate::rules::notation::{parse_fen, parse_move};
use crate::rules::pdn::PdnGame;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub mod sprt;

/// Who plays in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The built-in engine at a level.
    Engine(Level),
    /// An external Hub engine started with this command.
    Hub(String),
}

impl std::str::FromStr for Contender {
    type Err = String;
    fn from_str(s: &str) -> Result<Contender, String> {
        match s.split_once(':') {
            None if s == "engine" => Ok(Contender::Engine(Level::MAX)),
            Some(("engine", l)) => l.parse().map(Contender::Engine),
            Some(("hub", c)) if !c.trim().is_empty() => Ok(Contender::Hub(command_line(c))),
            _ => Err(format!(
                "{s:?} is not an engine (engine, engine:<1-10|max>, hub:<command>)"
            )),
        }
    }
}

impl std::fmt::Display for Contender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contender::Engine(l) => write!(f, "draughts engine:{l}"),
            Contender::Hub(c) => write!(f, "hub:{c}"),
        }
    }
}

/// A player ready to move.
enum Seat {
    Engine(Level, Box<engine::Searcher>, Option<&'static engine::Book>),
    Hub(Box<HubEngine>),
}

impl Seat {
    fn open(
        c: &Contender,
        weights: &Option<Arc<Model>>,
        settings: &MatchSettings,
    ) -> Result<Seat, String> {
        match c {
            Contender::Engine(l) => {
                let mut searcher =
                    engine::Searcher::new(engine::DEFAULT_TABLE_MB, settings.tablebase.clone());
                searcher.set_model(weights.clone());
                let book = settings
                    .book
                    .then(|| engine::book::builtin(settings.variant));
                Ok(Seat::Engine(*l, Box::new(searcher), book))
            }
            Contender::Hub(cmd) => HubEngine::start(cmd)
                .map(|e| Seat::Hub(Box::new(e)))
                .map_err(|e| e.to_string()),
        }
    }
}

/// The lines of an openings file with their numbers: `#` comments and blank lines left out.
fn opening_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
}

/// One opening's moves in PDN text (`32-28 19-23`, move numbers allowed), each checked to be
/// legal in turn from the variant's start.
fn opening_moves(line: &str, variant: Variant) -> Result<Vec<Move>, String> {
    let mut pos = Position::start(variant);
    let mut moves = Vec::new();
    for word in line.split_whitespace() {
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() && word.contains('.'));
        let word = word.trim_start_matches('.');
        if word.is_empty() {
            continue;
        }
        let mv = parse_move(&pos, word).map_err(|e| e.to_string())?;
        pos = pos.play(&mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Where a match game starts: a position and the moves played from it before the engines
/// take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The first position: the variant's start, or a position set up (a ballot, an ending).
    pub start: Position,
    /// The opening's moves from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// Moves from the variant's start.
    pub fn from_moves(moves: Vec<Move>, variant: Variant) -> Opening {
        Opening {
            start: Position::start(variant),
            moves,
        }
    }

    /// The position the engines start from.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, m| pos.play(m))
    }
}

/// Reads an openings file: one opening a line, either moves in PDN text from the variant's
/// start (`32-28 19-23`, move numbers allowed) or a position in FEN (`W:W31-50:B1-20`, as the
/// engine authors' ballot files write them, or an ending to play out), with `#` comments; each
/// is checked to be legal in the variant.
pub fn read_openings(text: &str, variant: Variant) -> Result<Vec<Opening>, String> {
    let out = opening_lines(text)
        .map(|(n, line)| {
            let opening = if line.starts_with(['W', 'B']) && line.contains(':') {
                parse_fen(line, variant)
                    .map(|start| Opening {
                        start,
                        moves: Vec::new(),
                    })
                    .map_err(|e| e.to_string())
            } else {
                opening_moves(line, variant).map(|moves| Opening::from_moves(moves, variant))
            };
            opening.map_err(|e| format!("line {n}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// Every two-ply start of a variant (used when no openings file is given).
pub fn two_ply_openings(variant: Variant) -> Vec<Opening> {
    let start = Position::start(variant);
    let mut out = Vec::new();
    for a in start.legal_moves().iter() {
        let after = start.play(a);
        for b in after.legal_moves().iter() {
            out.push(Opening::from_moves(vec![*a, *b], variant));
        }
    }
    out
}

/// The result of one game for engine A: 1, ½ or 0, and how it ended.
#[derive(Clone, Debug)]
pub struct Played {
    /// The record.
    pub pdn: PdnGame,
    /// Engine A's score.
    pub score_a: f64,
    /// Whether it was decided by adjudication (tablebases or the move cap).
    pub adjudicated: bool,
}

/// How long the engines of a match think.
#[derive(Clone, Debug)]
pub enum Pace {
    /// A game clock, each engine budgeting its own time.
    Clock(TimeControl),
    /// A fixed time a move, used in full, without a clock (the way engine authors compare
    /// searches: neither side's time management plays a part).
    MoveTime(Duration),
    /// A fixed number of nodes a move, without a clock: games that do not depend on the
    /// machine's speed or load, for comparing versions of one engine (nodes are not comparable
    /// between different programs).
    Nodes(u64),
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The variant.
    pub variant: Variant,
    /// Engine A.
    pub a: Contender,
    /// Engine B.
    pub b: Contender,
    /// How long the engines think.
    pub pace: Pace,
    /// Tablebases for adjudication and for the built-in engine.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Evaluation weights for the built-in engine as A and as B, other than the shipped ones
    /// (comparing versions).
    pub weights: [Option<Arc<Model>>; 2],
    /// Whether the built-in engine plays from its opening book.
    pub book: bool,
}

fn engine_move(seat: &mut Seat, live: &LiveGame, pace: &Pace, now: Tick) -> Result<Move, String> {
    let side = live.position().side_to_move();
    // What the engine is told: its budget, or for a Hub engine the level line and how long to
    // wait for its move.
    let (budget, hub_level) = match (pace, live.clock()) {
        (Pace::MoveTime(t), _) => (
            engine::Budget::Fixed(*t),
            (move_time_line(*t), *t + HUB_GRACE),
        ),
        (Pace::Nodes(n), _) => (
            engine::Budget::Nodes(*n),
            (nodes_line(*n), nodes_patience(*n)),
        ),
        (Pace::Clock(_), Some(clock)) => (
            engine::Budget::Clock(engine::budget(clock, side, now)),
            (
                level_line(clock, side, now),
                clock.remaining(side, now) + HUB_GRACE,
            ),
        ),
        (Pace::Clock(_), None) => return Err("a match game under a clock has none".into()),
    };
    match seat {
        Seat::Engine(level, searcher, book) => {
            let history: Vec<u64> = live.game().positions().map(Position::zobrist).collect();
            let stop = AtomicBool::new(false);
            engine::choose(
                searcher,
                live.position(),
                &history,
                *level,
                budget,
                *book,
                &stop,
            )
            .map(|c| c.mv)
            .ok_or_else(|| "no legal move".to_string())
        }
        Seat::Hub(engine) => {
            let game = live.game();
            let (line, patience) = hub_level;
            engine
                .best_move(game.start(), game.moves(), &line, patience)
                .map_err(|e| e.to_string())
        }
    }
}

/// How much longer than its time a Hub engine may take to answer before it loses the game.
const HUB_GRACE: Duration = Duration::from_secs(5);

/// The slowest search a Hub engine told to search a number of nodes is waited for, in nodes a
/// second: far below any engine's rate, even on a machine busy with other work.
const SLOWEST_NODE_RATE: u64 = 20_000;

/// How long a Hub engine told to search `nodes` nodes may take before it loses the game.
fn nodes_patience(nodes: u64) -> Duration {
    Duration::from_secs(nodes / SLOWEST_NODE_RATE) + HUB_GRACE
}

/// Plays one game from `opening`, engine A with `a_color`.
pub fn play_game(
    settings: &MatchSettings,
    opening: &Opening,
    a_color: Color,
    round: usize,
) -> Result<Played, String> {
    let mut seats = [
        Seat::open(&settings.a, &settings.weights[0], settings)?,
        Seat::open(&settings.b, &settings.weights[1], settings)?,
    ];
    let mut game = Game::from_position(opening.start);
    for m in &opening.moves {
        game.play(m).map_err(|e| e.to_string())?;
    }
    let options = Options {
        clock: match &settings.pace {
            Pace::Clock(tc) => Some(tc.clone()),
            Pace::MoveTime(_) | Pace::Nodes(_) => None,
        },
        casual: false,
        tablebase: settings.tablebase.clone(),
        adjudicate: settings.tablebase.is_some(),
    };
    let mut live = LiveGame::new(game, options);
    let (white, black) = if a_color == Color::White {
        (settings.a.to_string(), settings.b.to_string())
    } else {
        (settings.b.to_string(), settings.a.to_string())
    };
    live.set_tag("Event", "draughts match");
    live.set_tag("Round", &round.to_string());
    live.set_tag("White", &white);
    live.set_tag("Black", &black);
    let started = Instant::now();
    live.start_clock(started.elapsed());
    let mut adjudicated = false;
    while live.outcome().is_none() {
        if live.game().moves().len() >= settings.max_plies {
            live.end_by_adjudication(
                Outcome {
                    winner: None,
                    reason: Reason::Adjudication,
                },
                "draw by adjudication: move limit of the match",
                started.elapsed(),
            );
            adjudicated = true;
            break;
        }
        if let Some((o, _)) = live.proposal().cloned() {
            // A proven tablebase result ends a match game.
            let loser = o.winner.map(Color::opposite).unwrap_or(Color::White);
            live.accept_proposal(loser, started.elapsed());
            adjudicated = true;
            break;
        }
        let side = live.position().side_to_move();
        let seat = if side == a_color {
            &mut seats[0]
        } else {
            &mut seats[1]
        };
        let mv = match engine_move(seat, &live, &settings.pace, started.elapsed()) {
            Ok(mv) => mv,
            Err(e) => {
                // An engine that cannot move (crash, illegal move) loses the game.
                let n = live.resign(side, started.elapsed());
                if let Notice::Ended(..) = n {
                    live.set_tag("Termination", &format!("{side} engine failed: {e}"));
                }
                break;
            }
        };
        if let Ok(notices) = live.play(&mv, started.elapsed()) {
            adjudicated |= notices
                .iter()
                .any(|n| matches!(n, Notice::Ended(o, _) if o.reason == Reason::Adjudication));
        }
        live.tick(started.elapsed());
    }
    for seat in seats {
        if let Seat::Hub(e) = seat {
            e.quit();
        }
    }
    let outcome = live.outcome();
    let score_a = match outcome.and_then(|o| o.winner) {
        Some(c) if c == a_color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Ok(Played {
        pdn: live.pdn(),
        score_a,
        adjudicated,
    })
}

/// The match score from engine A's side and the Elo difference with its 95% margin.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games.
    pub games: usize,
    /// A's wins, draws, losses.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// Games decided by adjudication.
    pub adjudicated: usize,
    /// Elo difference (A minus B); infinite for a whitewash.
    pub elo: f64,
    /// Half-width of the 95% confidence interval.
    pub margin: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points = self.wins as f64 + self.draws as f64 / 2.0;
        write!(
            f,
            "{points}/{} (+{} ={} -{}), ",
            self.games, self.wins, self.draws, self.losses
        )?;
        if self.elo.is_finite() {
            // Rounded first so that a tiny negative difference does not print as "-0".
            let elo = self.elo.round() + 0.0;
            write!(f, "Elo {elo:+} ± ")?;
            if self.margin.is_finite() {
                write!(f, "{:.0}", self.margin)?;
            } else {
                f.write_str("∞")?;
            }
        } else {
            write!(f, "Elo {}∞", if self.elo > 0.0 { '+' } else { '-' })?;
        }
        write!(
            f,
            ", draws {}, adjudicated {}",
            self.draws, self.adjudicated
        )
    }
}

fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Sums up played games.
pub fn summarise(games: &[Played]) -> Summary {
    let n = games.len();
    let wins = games.iter().filter(|g| g.score_a == 1.0).count();
    let draws = games.iter().filter(|g| g.score_a == 0.5).count();
    let losses = n - wins - draws;
    let adjudicated = games.iter().filter(|g| g.adjudicated).count();
    if n == 0 {
        return Summary {
            games: 0,
            wins,
            draws,
            losses,
            adjudicated,
            elo: 0.0,
            margin: f64::INFINITY,
        };
    }
    let s = games.iter().map(|g| g.score_a).sum::<f64>() / n as f64;
    let variance = games.iter().map(|g| (g.score_a - s).powi(2)).sum::<f64>() / n as f64;
    let sd = (variance / n as f64).sqrt();
    let (lo, hi) = (elo_of(s - 1.96 * sd), elo_of(s + 1.96 * sd));
    Summary {
        games: n,
        wins,
        draws,
        losses,
        adjudicated,
        elo: elo_of(s),
        margin: (hi - lo) / 2.0,
    }
}

/// Plays up to `games` games (pairs from successive openings, colours reversed within a pair)
/// on `threads` threads; `progress` is told of each finished game, and when it breaks no new
/// game starts (those under way are finished and returned).
pub fn run(
    settings: &MatchSettings,
    openings: &[Opening],
    games: usize,
    threads: usize,
    progress: &(dyn Fn(usize, &Played) -> ControlFlow<()> + Sync),
) -> Result<Vec<(usize, Played)>, String> {
    let jobs: Vec<(usize, &Opening, Color)> = (0..games)
        .map(|i| {
            let opening = &openings[(i / 2) % openings.len()];
            let a_color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            (i, opening, a_color)
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results = std::sync::Mutex::new(Vec::new());
    let failure = std::sync::Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(round, opening, a_color)) = jobs.get(i) else {
                        break;
                    };
                    match play_game(settings, opening, a_color, round + 1) {
                        Ok(p) => {
                            if progress(round, &p).is_break() {
                                stop.store(true, Ordering::Relaxed);
                            }
                            if let Ok(mut r) = results.lock() {
                                r.push((round, p));
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or(None) {
        return Err(e);
    }
    let mut played = results.into_inner().unwrap_or_default();
    played.sort_by_key(|(i, _)| *i);
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(score: f64) -> Played {
        Played {
            pdn: PdnGame::new(Position::start(Variant::English)),
            score_a: score,
            adjudicated: false,
        }
    }

    #[test]
    fn elo_and_margin() {
        let even: Vec<Played> = [1.0, 0.0, 0.5, 0.5].into_iter().map(played).collect();
        let s = summarise(&even);
        assert_eq!((s.wins, s.draws, s.losses), (1, 2, 1));
        assert!(s.elo.abs() < 1e-9);
        // 75%: +190.8 Elo.
        let good: Vec<Played> = [1.0, 1.0, 1.0, 0.0, 1.0, 0.5, 0.5, 1.0, 0.0, 1.0]
            .into_iter()
            .map(played)
            .collect();
        let s = summarise(&good);
        assert!((s.elo - elo_of(0.7)).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
        assert!(s.margin > 50.0 && s.margin.is_finite(), "{s:?}");
        assert_eq!(summarise(&[played(1.0)]).elo, f64::INFINITY);
        assert_eq!(
            summarise(&[played(1.0), played(0.0)]).to_string(),
            "1/2 (+1 =0 -1), Elo +0 ± ∞, draws 0, adjudicated 0"
        );
        assert!(summarise(&[played(0.0)]).to_string().contains("Elo -∞"));
    }

    #[test]
    fn contenders_parse() {
        assert_eq!(
            "engine:3".parse(),
            Ok(Contender::Engine(Level::new(3).unwrap()))
        );
        assert_eq!(
            "hub:/opt/scan".parse(),
            Ok(Contender::Hub("/opt/scan hub".into()))
        );
        assert!("scan".parse::<Contender>().is_err());
    }

    #[test]
    fn openings_are_read_and_checked() {
        let v = Variant::International;
        let o = read_openings("# two lines\n1. 32-28 19-23\n33-29 # comment\n", v).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[0].start, Position::start(v));
        assert!(read_openings("32-29\n", v).unwrap_err().contains("line 1"));
        assert!(read_openings("# nothing\n", v).is_err());
        // Positions too: a ballot in FEN beside an opening in moves.
        let starts = read_openings(
            "W:W26,32-50:B1-15,17-21 # after 31-26 16-21\n32-28 19-23\n",
            v,
        )
        .unwrap();
        assert_eq!(starts.len(), 2);
        assert_eq!(
            starts[0].position(),
            parse_fen("W:W26,32-50:B1-15,17-21", v).unwrap()
        );
        assert!(starts[0].moves.is_empty());
        let after = parse_fen("W:W28,31,33-50:B1-18,20,23", v).unwrap();
        assert_eq!(starts[1].position(), after);
        assert!(
            read_openings("32-28\nW:W99:B1\n", v)
                .unwrap_err()
                .contains("line 2")
        );
        assert_eq!(two_ply_openings(v).len(), 81);
        // The openings that ship with the program are legal.
        for (v, text) in [
            (
                Variant::International,
                include_str!("../openings/international.txt"),
            ),
            (Variant::Frisian, include_str!("../openings/frisian.txt")),
            (Variant::English, include_str!("../openings/english.txt")),
        ] {
            assert_eq!(read_openings(text, v).unwrap().len(), 40, "{v}");
        }
    }

    #[test]
    fn a_short_match_between_two_levels() {
        let settings = MatchSettings {
            variant: Variant::English,
            a: Contender::Engine(Level::new(3).unwrap()),
            b: Contender::Engine(Level::new(1).unwrap()),
            pace: Pace::Clock(TimeControl::parse("2s+0.1s").unwrap()),
            tablebase: None,
            max_plies: 60,
            book: true,
            weights: [None, None],
        };
        let openings = two_ply_openings(Variant::English);
        let games: Vec<Played> = run(
            &settings,
            &openings,
            2,
            2,
            &|_, _| ControlFlow::Continue(()),
        )
        .unwrap()
        .into_iter()
        .map(|(_, p)| p)
        .collect();
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(g.pdn.result != crate::rules::pdn::GameResult::Unfinished);
            assert!(g.pdn.line.moves.len() >= 2);
        }
        // Colours alternate within a pair, from the same opening.
        assert_eq!(games[0].pdn.tag("White"), Some("draughts engine:3"));
        assert_eq!(games[1].pdn.tag("Black"), Some("draughts engine:3"));
        assert_eq!(games[0].pdn.line.moves[..2], games[1].pdn.line.moves[..2]);
    }

    #[test]
    fn a_game_from_a_position_set_up_starts_there_and_records_it() {
        // An ending to play out, as an openings file's FEN line gives it: a man up and the
        // move, for White, at a fixed time a move.
        let fen = "W:W22,23:B10";
        let settings = MatchSettings {
            variant: Variant::English,
            a: Contender::Engine(Level::new(3).unwrap()),
            b: Contender::Engine(Level::new(3).unwrap()),
            pace: Pace::MoveTime(Duration::from_millis(20)),
            tablebase: None,
            max_plies: 200,
            book: false,
            weights: [None, None],
        };
        let opening = &read_openings(fen, Variant::English).unwrap()[0];
        let played = play_game(&settings, opening, Color::White, 1).unwrap();
        assert_eq!(played.pdn.tag("FEN"), Some(fen));
        assert_eq!(played.pdn.tag("SetUp"), Some("1"));
        // The first move is one of the set-up position's (from the start, 22 and 23 are empty).
        let start = parse_fen(fen, Variant::English).unwrap();
        assert!(
            start
                .legal_moves()
                .iter()
                .any(|m| *m == played.pdn.line.moves[0].mv)
        );
    }

    #[test]
    fn at_a_number_of_nodes_a_move_a_game_is_the_same_on_any_machine() {
        // Without a clock and without a book, a search of so many nodes does not depend on
        // the time it takes: the same game twice, move for move, however busy the machine.
        let level = Contender::Engine(Level::MAX);
        let settings = MatchSettings {
            variant: Variant::International,
            a: level.clone(),
            b: level,
            pace: Pace::Nodes(3_000),
            tablebase: None,
            max_plies: 30,
            book: false,
            weights: [None, None],
        };
        let opening = &two_ply_openings(Variant::International)[5];
        let moves = |p: Played| -> Vec<Move> { p.pdn.line.moves.iter().map(|m| m.mv).collect() };
        let first = moves(play_game(&settings, opening, Color::White, 1).unwrap());
        let second = moves(play_game(&settings, opening, Color::White, 1).unwrap());
        assert_eq!(first.len(), 30, "played to the move cap");
        assert_eq!(first, second);
    }

    #[test]
    fn a_match_stops_when_told() {
        let level = Contender::Engine(Level::new(1).unwrap());
        let settings = MatchSettings {
            variant: Variant::English,
            a: level.clone(),
            b: level,
            pace: Pace::Clock(TimeControl::parse("1s+0.1s").unwrap()),
            tablebase: None,
            max_plies: 20,
            book: false,
            weights: [None, None],
        };
        let openings = two_ply_openings(Variant::English);
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let games = run(&settings, &openings, 6, 1, &|_, _| {
            seen.fetch_add(1, Ordering::Relaxed);
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].0, 0);
        assert_eq!(seen.load(Ordering::Relaxed), 1);
    }
}
