//! The engine: evaluation, search, levels, time management, and a background thread to think in
//! so the screen and the clocks never wait for it.

pub mod book;
pub mod eval;
pub mod learn;
pub mod search;
mod table;

pub use book::Book;
pub use search::{DEFAULT_TABLE_MB, Info, Limits, Outcome, Searcher};

use crate::clock::Clock;
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// A playing strength: 1 (beginner) to 10 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The strongest level.
    pub const MAX: Level = Level(10);

    /// A level from 1 to 10.
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Deepest iteration in plies in `variant`; none at full strength (time decides). Above
    /// level 6 (the last with noise) English adds two plies a level: on its 8×8 board, with few
    /// moves open, one more ply of the full search gains next to nothing (the ladder measured
    /// level 7 at +6 ± 12 over level 6 with one, +54 ± 22 with two).
    fn depth(self, variant: Variant) -> Option<u32> {
        let n = u32::from(self.0);
        let step = if variant == Variant::English { 2 } else { 1 };
        (self.0 < 10).then_some(if n <= 6 { n + 1 } else { 7 + step * (n - 6) })
    }

    /// The longest the level thinks about a move when the clock allows (untimed games too).
    pub fn time_cap(self) -> Duration {
        let n = u64::from(self.0);
        Duration::from_millis(100 * n * n)
    }

    /// The level's rating on its variant's Elo ladder (`scripts/ladder.sh`: each level against
    /// the next at 3 s + 0.05 s, 200 games a step, level 1 at 1000). A scale of the engine's own,
    /// not a federation's rating, and one per variant: levels of different variants do not
    /// compare.
    pub fn rating(self, variant: Variant) -> u32 {
        const INTERNATIONAL: [u32; 10] =
            [1000, 1326, 1756, 2094, 2346, 2561, 2637, 2762, 2847, 3224];
        const FRISIAN: [u32; 10] = [1000, 1326, 1676, 1991, 2257, 2503, 2612, 2745, 2853, 3356];
        const ENGLISH: [u32; 10] = [1000, 1225, 1491, 1696, 1849, 1953, 1986, 2028, 2061, 2202];
        let ladder = match variant {
            Variant::International => &INTERNATIONAL,
            Variant::Frisian => &FRISIAN,
            Variant::English => &ENGLISH,
        };
        ladder[usize::from(self.0) - 1]
    }

    /// Random noise added to the root moves' scores, so that low levels make human mistakes.
    fn noise(self) -> i32 {
        match self.0 {
            1 => 250,
            2 => 150,
            3 => 90,
            4 => 50,
            5 => 25,
            6 => 10,
            _ => 0,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level(5)
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Level::MAX);
        }
        s.parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| format!("{s:?} is not an engine level (1 to 10, or max)"))
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Level::MAX {
            f.write_str("max")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A score for people: men for the side to move (`+0.35`), or a forced end of the game
/// (`win-end-in-7`) or a tablebase result (`loss-tb-in-12`) in plies.
pub fn score_words(score: i32) -> String {
    use search::{MATE, TB_WIN, is_decisive};
    if !is_decisive(score) {
        return format!("{:+.2}", f64::from(score) / 100.0);
    }
    let (base, what) = if score.abs() > TB_WIN + 1000 {
        (MATE, "end")
    } else {
        (TB_WIN, "tb")
    };
    let plies = base - score.abs();
    let who = if score > 0 { "win" } else { "loss" };
    format!("{who}-{what}-in-{plies}")
}

/// Whether the side to move stands clearly worse by a short search (the engine then accepts a
/// draw offer).
pub fn stands_worse(pos: &Position) -> bool {
    let mut s = Searcher::new(4, None);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    s.search(pos, &[], limits, &mut |_| {}).score < -60
}

/// Positions for `draughts engine bench`: openings and middlegames of each variant.
pub const BENCH_POSITIONS: &[(Variant, &str)] = &[
    (Variant::International, "W:W31-50:B1-20"),
    (
        Variant::International,
        "W:W27,28,31,32,33,36,37,38,39,41,42,43,44,46,47,48:B3,5,8,9,11,12,13,14,16,17,18,19,21,22,24,26",
    ),
    (Variant::Frisian, "W:W31-50:B1-20"),
    (Variant::English, "B:W21-32:B1-12"),
    (
        Variant::English,
        "W:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,8,9,10,12,14",
    ),
];

/// A random number from the process's hash seed and the time (no generator to keep: variety
/// between games is all it is for).
pub fn random_u64() -> u64 {
    RandomState::new().hash_one(Instant::now())
}

/// A small random number from -`bound` to `bound`.
fn random(bound: i32) -> i32 {
    if bound == 0 {
        return 0;
    }
    (random_u64() % (2 * bound as u64 + 1)) as i32 - bound
}

/// How long the engine may think about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// No clock: the level's own cap ([`Level::time_cap`]) bounds the thinking.
    Untimed,
    /// A share of a clock ([`budget`]): the search aims at it and takes up to twice as long
    /// when its best move keeps changing.
    Clock(Duration),
    /// A fixed time a move (a match at so many seconds a move): all of it is used.
    Fixed(Duration),
    /// A fixed number of nodes a move, without a clock: the same search whatever the machine's
    /// speed or load (a match between versions on a busy machine).
    Nodes(u64),
}

/// The engine's move and what its search saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// The full-strength search behind it; `None` for a forced move, a book move or a weaker
    /// level's pick.
    pub seen: Option<Seen>,
}

/// How far a search saw: what a match report prints beside the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The deepest completed iteration.
    pub depth: u32,
    /// The move's score for the side that played it (hundredths of a man).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The move the engine chooses in `pos` at `level` within `budget`, given the hashes of the game's
/// earlier positions (to avoid repeating), playing from `book` while it holds the position, and
/// what its search saw. `None` only if there is no legal move. The search stops when `stop` is
/// set. The searcher (with its tablebases) can be kept from move to move, so its table remembers
/// the game.
pub fn choose(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    level: Level,
    budget: Budget,
    book: Option<&Book>,
    stop: &AtomicBool,
) -> Option<Choice> {
    let unseen = |mv: Move| Choice { mv, seen: None };
    let moves = pos.legal_moves();
    if moves.len() <= 1 {
        return moves.iter().next().copied().map(unseen);
    }
    if let Some(mv) = book.and_then(|b| b.pick(pos, random_u64())) {
        return Some(unseen(mv));
    }
    let flag = searcher.stop_flag();
    flag.store(stop.load(Ordering::Relaxed), Ordering::Relaxed);
    let (time, max_time, nodes) = match budget {
        Budget::Untimed => (Some(level.time_cap()), Some(level.time_cap() * 2), None),
        Budget::Clock(t) => (Some(t), Some(t * 2), None),
        Budget::Fixed(t) => (Some(t), Some(t), None),
        Budget::Nodes(n) => (None, None, Some(n)),
    };
    let limits = Limits {
        depth: level.depth(pos.variant()),
        time,
        max_time,
        nodes,
    };
    if level.noise() == 0 {
        let stop_watch = Arc::clone(&flag);
        let done = AtomicBool::new(false);
        return std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        stop_watch.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let outcome = searcher.search(pos, history, limits, &mut |_| {});
            done.store(true, Ordering::Relaxed);
            outcome.best.map(|mv| Choice {
                mv,
                seen: Some(Seen {
                    depth: outcome.depth,
                    score: outcome.score,
                    nodes: outcome.nodes,
                }),
            })
        });
    }
    // Weaker levels: each root move gets a shallow score plus noise, so they err like people.
    let depth = level
        .depth(pos.variant())
        .unwrap_or(4)
        .saturating_sub(1)
        .max(1);
    let mut best = (i32::MIN, moves.as_slice()[0]);
    for mv in moves.iter() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let next = pos.play(mv);
        let mut path = history.to_vec();
        path.push(pos.zobrist());
        let reply = searcher.search(
            &next,
            &path,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &mut |_| {},
        );
        let score = if next.legal_moves().is_empty() {
            search::MATE
        } else {
            -reply.score
        } + random(level.noise());
        if score > best.0 {
            best = (score, *mv);
        }
    }
    Some(unseen(best.1))
}

/// How long to think with this clock: a share of the time left plus most of the increment, never
/// more than a third of what is left.
pub fn budget(clock: &Clock, side: Color, now: Duration) -> Duration {
    let left = clock.remaining(side, now);
    let (_, moves_to_go) = clock.stage(side);
    let stage = clock.current_stage(side);
    let (increment, delay) = (stage.increment, stage.delay);
    let share = left / moves_to_go.map_or(30, |m| m.clamp(1, 30) + 2);
    let budget = share + increment * 4 / 5 + delay * 4 / 5;
    budget.min(left / 3)
}

/// A search running in the background, on a searcher lent to it for the time: the searcher
/// comes back with the move, so that its table and move ordering serve the game's next move as
/// they do in `draughts match` and the Hub and DXP servers (the levels' ratings were measured so).
pub struct Thinking {
    result: Receiver<(Option<Move>, Box<Searcher>)>,
    stop: Arc<AtomicBool>,
}

/// What a background search ends with.
pub struct Thought {
    /// The chosen move (`None` if there was no legal move).
    pub mv: Option<Move>,
    /// The searcher, to think with again; `None` if its thread died (a new one takes its place).
    pub searcher: Option<Box<Searcher>>,
}

impl Thinking {
    /// A new game's searcher, with the table size every engine seat uses.
    pub fn searcher(tablebase: Option<Arc<Tablebase>>) -> Box<Searcher> {
        Box::new(Searcher::new(DEFAULT_TABLE_MB, tablebase))
    }

    /// Starts thinking about `pos` with `searcher`.
    pub fn start(
        mut searcher: Box<Searcher>,
        pos: Position,
        history: Vec<u64>,
        level: Level,
        budget: Budget,
        book: Option<&'static Book>,
    ) -> Thinking {
        let (tx, result) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        thread::spawn(move || {
            let best =
                choose(&mut searcher, &pos, &history, level, budget, book, &flag).map(|c| c.mv);
            // The receiver may be gone (the game was abandoned): nothing to report then.
            let _ = tx.send((best, searcher));
        });
        Thinking { result, stop }
    }

    /// The chosen move and the searcher once the search is done.
    pub fn poll(&self) -> Option<Thought> {
        match self.result.try_recv() {
            Ok((mv, searcher)) => Some(Thought {
                mv,
                searcher: Some(searcher),
            }),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Thought {
                mv: None,
                searcher: None,
            }),
        }
    }

    /// Asks the search to stop; `poll` then returns its best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::rules::notation::{parse_fen, parse_move};

    fn best(variant: Variant, fen: &str, level: u8) -> Move {
        let pos = parse_fen(fen, variant).unwrap();
        let stop = AtomicBool::new(false);
        choose(
            &mut Searcher::new(16, None),
            &pos,
            &[],
            Level::new(level).unwrap(),
            Budget::Untimed,
            None,
            &stop,
        )
        .unwrap()
        .mv
    }

    #[test]
    fn bench_positions_are_legal() {
        for (v, fen) in BENCH_POSITIONS {
            let pos = parse_fen(fen, *v).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!pos.legal_moves().is_empty(), "{fen}");
        }
    }

    #[test]
    fn levels_above_six_add_a_ply_each_and_two_in_english() {
        let depth = |n, v| Level::new(n).unwrap().depth(v);
        assert_eq!(depth(6, Variant::English), Some(7));
        assert_eq!(depth(6, Variant::International), Some(7));
        assert_eq!(depth(7, Variant::International), Some(8));
        assert_eq!(depth(9, Variant::Frisian), Some(10));
        assert_eq!(depth(7, Variant::English), Some(9));
        assert_eq!(depth(9, Variant::English), Some(13));
        assert_eq!(depth(10, Variant::English), None);
    }

    #[test]
    fn levels_parse() {
        assert_eq!("max".parse::<Level>(), Ok(Level::MAX));
        assert_eq!("3".parse::<Level>().map(Level::number), Ok(3));
        assert!("0".parse::<Level>().is_err());
        assert!("11".parse::<Level>().is_err());
        assert!("x".parse::<Level>().is_err());
    }

    #[test]
    fn takes_the_bigger_material_gain() {
        // English captures are free (WCDF 1.20): a single and a double jump are both legal.
        let fen = "W:W27:B23,15,24";
        let pos = parse_fen(fen, Variant::English).unwrap();
        let counts: Vec<u32> = pos.legal_moves().iter().map(Move::capture_count).collect();
        assert!(counts.contains(&1) && counts.contains(&2), "{counts:?}");
        assert_eq!(best(Variant::English, fen, 10).capture_count(), 2);
    }

    #[test]
    fn does_not_hang_a_man() {
        let fen = "W:W32,45:B22";
        let pos = parse_fen(fen, Variant::International).unwrap();
        let safe: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !pos.play(m).has_capture())
            .collect();
        assert!(!safe.is_empty() && safe.len() < pos.legal_moves().len());
        for level in [6, 10] {
            assert!(safe.contains(&best(Variant::International, fen, level)));
        }
        // 41-37 gives a man to the only reply, 32x41. The weak levels score each root move by
        // a search of the reply, and a reply with one legal move must be scored like any other
        // (it once scored 0, so every sacrifice met by a forced capture looked even); their
        // noise (at most 25 from level 5 up) is far below a man.
        let fen = "W:W41,48:B10,32";
        let pos = parse_fen(fen, Variant::International).unwrap();
        let sacrifice = parse_move(&pos, "41-37").unwrap();
        assert_eq!(pos.play(&sacrifice).legal_moves().len(), 1);
        for level in [5, 6, 7] {
            for _ in 0..12 {
                assert_ne!(
                    best(Variant::International, fen, level),
                    sacrifice,
                    "{level}"
                );
            }
        }
    }

    #[test]
    fn plays_the_book_move_without_thinking() {
        // The stop flag is set, so a search answers at once with the move it has; the book's
        // only move here is another one, and it is the one played.
        let pos = Position::start(Variant::International);
        let stop = AtomicBool::new(true);
        let mut s = Searcher::new(16, None);
        let without = choose(&mut s, &pos, &[], Level::MAX, Budget::Untimed, None, &stop)
            .expect("the start has moves")
            .mv;
        let mv = *pos
            .legal_moves()
            .iter()
            .find(|&&m| m != without)
            .expect("the start has nine moves");
        let text = format!(
            "{} international\nW:W31-50:B1-20\t{} 1 50% -\n",
            book::MAGIC,
            crate::rules::notation::move_text(&pos, &mv)
        );
        let b = Book::parse(&text, Variant::International).unwrap();
        for level in [1, 10] {
            let level = Level::new(level).unwrap();
            let got = choose(&mut s, &pos, &[], level, Budget::Untimed, Some(&b), &stop);
            // A book move is played without a search behind it.
            assert_eq!(got, Some(Choice { mv, seen: None }));
        }
    }

    #[test]
    fn a_full_strength_search_tells_what_it_saw_and_a_weak_level_does_not() {
        let pos = Position::start(Variant::International);
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(16, None);
        let fixed = Budget::Fixed(Duration::from_millis(50));
        let strong = choose(&mut s, &pos, &[], Level::MAX, fixed, None, &stop).unwrap();
        let seen = strong.seen.expect("a full-strength search reports");
        assert!(seen.depth >= 1 && seen.nodes > 0, "{seen:?}");
        assert!(pos.legal_moves().iter().any(|m| *m == strong.mv));
        let weak = choose(
            &mut s,
            &pos,
            &[],
            Level::new(1).unwrap(),
            fixed,
            None,
            &stop,
        )
        .unwrap();
        assert_eq!(weak.seen, None);
    }

    #[test]
    fn one_legal_move_is_played_at_once() {
        let pos = parse_fen("W:W28:B23", Variant::International).unwrap();
        let only = parse_move(&pos, "28x19").unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            choose(
                &mut Searcher::new(16, None),
                &pos,
                &[],
                Level::MAX,
                Budget::Untimed,
                None,
                &stop
            ),
            Some(Choice {
                mv: only,
                seen: None
            })
        );
    }

    /// The result of a search in the background, waited for.
    fn thought(t: &Thinking) -> Thought {
        loop {
            if let Some(thought) = t.poll() {
                return thought;
            }
            thread::yield_now();
        }
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let pos = Position::start(Variant::International);
        let searcher = Thinking::searcher(None);
        let t = Thinking::start(searcher, pos, vec![], Level::MAX, Budget::Untimed, None);
        t.stop();
        let mv = thought(&t).mv;
        assert!(pos.legal_moves().iter().any(|m| Some(*m) == mv));
    }

    #[test]
    fn thinking_gives_its_searcher_back_with_what_it_learnt() {
        // Level 7 searches 8 plies, without noise. The searcher back from the search in the
        // background answers the same question again from its table, in a fraction of the
        // nodes a new one needs.
        let pos = parse_fen(
            "W:W27,28,31,32,33,36,37,38,39,41,42,43,44,46,47,48:B3,5,8,9,11,12,13,14,16,17,18,19,21,22,24,26",
            Variant::International,
        )
        .unwrap();
        let level = Level::new(7).unwrap();
        let t = Thinking::start(
            Thinking::searcher(None),
            pos,
            vec![],
            level,
            Budget::Untimed,
            None,
        );
        let back = thought(&t);
        assert!(back.mv.is_some());
        let mut kept = back.searcher.expect("the search ended normally");
        let stop = AtomicBool::new(false);
        let nodes = |s: &mut Searcher| {
            choose(s, &pos, &[], level, Budget::Untimed, None, &stop)
                .and_then(|c| c.seen)
                .expect("a full search of a position with a choice of moves")
                .nodes
        };
        let (again, fresh) = (nodes(&mut kept), nodes(&mut Thinking::searcher(None)));
        assert!(again * 4 < fresh, "{again} nodes again, {fresh} afresh");
    }

    #[test]
    fn budget_respects_the_clock() {
        let clock = Clock::new(TimeControl::parse("5m+3s").unwrap());
        let b = budget(&clock, Color::White, Duration::ZERO);
        assert!(
            b > Duration::from_secs(5) && b < Duration::from_secs(100),
            "{b:?}"
        );
        let clock = Clock::new(TimeControl::parse("2s").unwrap());
        assert!(budget(&clock, Color::White, Duration::ZERO) <= Duration::from_millis(667));
    }
}
