//! The computer opponent: iterative-deepening alpha-beta over material and mobility, with
//! capture sequences searched to the end, run in a background thread so the screen and the clocks
//! never wait for it.

use crate::board::{Color, Kind, Position};
use crate::clock::Clock;
use crate::moves::Move;
use crate::variant::Variant;
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

    /// Deepest full-width search in plies.
    fn depth(self) -> u32 {
        u32::from(self.0) + 1
    }

    /// The longest the level thinks about a move when the clock allows (untimed games too).
    pub fn time_cap(self) -> Duration {
        let n = u64::from(self.0);
        Duration::from_millis(100 * n * n)
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

const WIN: i32 = 100_000;

fn king_value(variant: Variant) -> i32 {
    match variant {
        Variant::English => 160,
        Variant::International => 320,
        Variant::Frisian => 350,
    }
}

/// Material, mobility and advancement from the side to move's view.
fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let g = pos.variant().geometry();
    let rows = g.squares * 2 / g.width;
    let king = king_value(pos.variant());
    let mut score = 0;
    for (sq, piece) in pos.pieces() {
        let value = match piece.kind {
            Kind::King => king,
            Kind::Man => {
                let (row, _) = g.coords_of_number(sq.number());
                // Rows advanced towards promotion (White promotes at the top).
                let advanced = if piece.color == Color::White {
                    rows - 1 - row
                } else {
                    row
                };
                100 + 2 * advanced as i32
            }
        };
        score += if piece.color == us { value } else { -value };
    }
    score + 3 * pos.legal_moves().len() as i32
}

/// Whether the side to move stands clearly worse by a shallow look (the engine then accepts a
/// draw offer).
pub fn stands_worse(pos: &Position) -> bool {
    let stop = AtomicBool::new(false);
    let mut search = Search {
        stop: &stop,
        deadline: None,
        nodes: 0,
        path: vec![pos.zobrist()],
    };
    search.search(pos, 3, -WIN - 1, WIN + 1, 0) < -60
}

struct Search<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: u64,
    /// Hashes of the positions on the path, for repetitions.
    path: Vec<u64>,
}

impl Search<'_> {
    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if self.stop.load(Ordering::Relaxed) {
                return true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stop.load(Ordering::Relaxed)
    }

    /// Negamax with alpha-beta; captures are always searched (never cut by the depth).
    fn search(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if self.out_of_time() {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -WIN + ply;
        }
        let hash = pos.zobrist();
        if self
            .path
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
        {
            return 0;
        }
        if depth == 0 && !moves.iter().any(Move::is_capture) {
            return evaluate(pos);
        }
        let depth = depth.saturating_sub(1);
        let mut best = -WIN;
        for mv in moves.iter() {
            let next = pos.play(mv);
            self.path.push(next.zobrist());
            let score = -self.search(&next, depth, -beta, -alpha, ply + 1);
            self.path.pop();
            if score > best {
                best = score;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// A small random number from the process's hash seed and the time.
fn random(bound: i32) -> i32 {
    if bound == 0 {
        return 0;
    }
    let seed = RandomState::new().hash_one(Instant::now());
    (seed % (2 * bound as u64 + 1)) as i32 - bound
}

/// The move the engine chooses in `pos` at `level` within `budget`, given the hashes of the game's
/// earlier positions (to avoid repeating). `None` only if there is no legal move.
pub fn choose(
    pos: &Position,
    history: &[u64],
    level: Level,
    budget: Option<Duration>,
    stop: &AtomicBool,
) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.len() <= 1 {
        return moves.iter().next().copied();
    }
    let started = Instant::now();
    let mut search = Search {
        stop,
        deadline: budget.map(|b| started + b),
        nodes: 0,
        path: history.to_vec(),
    };
    search.path.push(pos.zobrist());
    let noise: Vec<i32> = moves.iter().map(|_| random(level.noise())).collect();
    let mut best = moves.as_slice()[0];
    for depth in 1..=level.depth() {
        let mut alpha = -WIN - 1;
        let mut chosen = None;
        for (mv, n) in moves.iter().zip(&noise) {
            let next = pos.play(mv);
            search.path.push(next.zobrist());
            let score = -search.search(&next, depth - 1, -WIN - 1, -alpha + n, 1) + n;
            search.path.pop();
            if search.stop.load(Ordering::Relaxed) {
                break;
            }
            if score > alpha {
                alpha = score;
                chosen = Some(*mv);
            }
        }
        if search.stop.load(Ordering::Relaxed) {
            // An unfinished iteration's best move is still better informed if it was found.
            if let Some(mv) = chosen
                && depth > 1
            {
                best = mv;
            }
            break;
        }
        if let Some(mv) = chosen {
            best = mv;
        }
        if alpha.abs() > WIN - 1000 {
            break;
        }
    }
    Some(best)
}

/// How long to think with this clock: a share of the time left plus most of the increment, never
/// more than a third of what is left.
pub fn budget(clock: &Clock, side: Color, now: Duration) -> Duration {
    let left = clock.remaining(side, now);
    let (_, moves_to_go) = clock.stage(side);
    let stage = clock
        .control()
        .stages()
        .get(clock.stage(side).0 - 1)
        .copied();
    let increment = stage.map_or(Duration::ZERO, |s| s.increment);
    let delay = stage.map_or(Duration::ZERO, |s| s.delay);
    let share = left / moves_to_go.map_or(30, |m| m.clamp(1, 30) + 2);
    let budget = share + increment * 4 / 5 + delay * 4 / 5;
    budget.min(left / 3)
}

/// A search running in the background.
pub struct Thinking {
    result: Receiver<Option<Move>>,
    stop: Arc<AtomicBool>,
}

impl Thinking {
    /// Starts thinking about `pos`.
    pub fn start(
        pos: Position,
        history: Vec<u64>,
        level: Level,
        budget: Option<Duration>,
    ) -> Thinking {
        let (tx, result) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        thread::spawn(move || {
            // The receiver may be gone (the game was abandoned): nothing to report then.
            let _ = tx.send(choose(&pos, &history, level, budget, &flag));
        });
        Thinking { result, stop }
    }

    /// The chosen move once the search is done (`Some(None)` if there was no legal move).
    pub fn poll(&self) -> Option<Option<Move>> {
        match self.result.try_recv() {
            Ok(mv) => Some(mv),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
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
    use crate::notation::{parse_fen, parse_move};

    fn best(variant: Variant, fen: &str, level: u8) -> Move {
        let pos = parse_fen(fen, variant).unwrap();
        let stop = AtomicBool::new(false);
        choose(&pos, &[], Level::new(level).unwrap(), None, &stop).unwrap()
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
    }

    #[test]
    fn one_legal_move_is_played_at_once() {
        let pos = parse_fen("W:W28:B23", Variant::International).unwrap();
        let only = parse_move(&pos, "28x19").unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(choose(&pos, &[], Level::MAX, None, &stop), Some(only));
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let pos = Position::start(Variant::International);
        let t = Thinking::start(pos, vec![], Level::MAX, None);
        t.stop();
        let mv = loop {
            if let Some(mv) = t.poll() {
                break mv;
            }
            thread::yield_now();
        };
        assert!(pos.legal_moves().iter().any(|m| Some(*m) == mv));
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
