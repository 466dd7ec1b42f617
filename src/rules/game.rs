//! A game: the moves played from a start position, and how (and why) it ended.
#![forbid(unsafe_code)]

use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::notation::{MoveTextError, parse_move};
use crate::rules::piece::{Color, Kind};
use crate::rules::variant::Variant;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move has no legal move: no pieces left, or all blocked (FMJD 7.2.2–7.2.3,
    /// Frisian Art. 20a/f, WCDF 1.30).
    NoMoves,
    /// The same position with the same side to move for the third time (FMJD 6.1, WCDF 1.32.1).
    Repetition,
    /// 25 moves each with only kings moving and no capture (FMJD 6.2).
    KingMoves25,
    /// Three pieces with a king against a lone king: 16 more moves each (FMJD 6.3).
    SixteenMoves,
    /// Two pieces with a king, or a king, against a lone king: 5 more moves each (FMJD 6.4).
    FiveMoves,
    /// Two kings against one king not won within seven moves (Frisian Art. 18).
    TwoKingsAgainstOne,
    /// One king each and no shot possible or forced (Frisian Art. 21.1).
    KingAgainstKing,
    /// 40 moves each without a man advancing or a capture (WCDF 1.32.2).
    FortyMoves,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player's time ran out.
    TimeForfeit,
    /// Decided by an arbiter or an endgame tablebase.
    Adjudication,
    /// A player left the game and did not come back in time.
    Forfeit,
}

impl Reason {
    /// A short phrase for players.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::NoMoves => "no legal move",
            Reason::Repetition => "threefold repetition",
            Reason::KingMoves25 => "25 moves with only kings (FMJD 6.2)",
            Reason::SixteenMoves => "16-move rule (FMJD 6.3)",
            Reason::FiveMoves => "5-move rule (FMJD 6.4)",
            Reason::TwoKingsAgainstOne => "two kings against one not won in 7 moves (Art. 18)",
            Reason::KingAgainstKing => "king against king (Art. 21)",
            Reason::FortyMoves => "40-move rule (WCDF 1.32.2)",
            Reason::Resignation => "resignation",
            Reason::Forfeit => "forfeit (did not return)",
            Reason::Agreement => "agreement",
            Reason::TimeForfeit => "time forfeit",
            Reason::Adjudication => "adjudication",
        }
    }
}

/// The end of a game: who won (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason.describe()),
            None => write!(f, "draw ({})", self.reason.describe()),
        }
    }
}

/// A move that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game is over.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// The move is not legal in the current position.
    #[error("not a legal move in this position")]
    Illegal,
    /// The move text does not name one legal move.
    #[error(transparent)]
    Text(#[from] MoveTextError),
}

/// The endings with a move limit, and how many plies into one the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// FMJD 6.3.
    Sixteen,
    /// FMJD 6.4.
    Five,
    /// Frisian Art. 18; counts the moves of the side with two kings.
    TwoKings(Color),
}

/// A move-count rule in force in a game's position, and how far it still lets the game go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLimit {
    /// The draw the rule gives when its count runs out.
    pub reason: Reason,
    /// What is left: plies of both sides, or moves of one side (Frisian Art. 18).
    pub left: u32,
    /// `None`: `left` counts plies of both sides; `Some(side)`: moves of that side only.
    pub counted: Option<Color>,
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.counted {
            None => write!(
                f,
                "{}: {} each left ({} plies)",
                self.reason.describe(),
                moves(self.left / 2),
                self.left
            ),
            Some(side) => write!(
                f,
                "{}: {side} has {} left",
                self.reason.describe(),
                moves(self.left)
            ),
        }
    }
}

/// A number of moves in words: `1 move`, `3 moves`.
fn moves(n: u32) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// State after each ply.
#[derive(Clone, Copy, Debug)]
struct Ply {
    position: Position,
    hash: u64,
    /// Plies since a man moved or a piece was captured.
    quiet: u32,
    /// The limited ending the position is in, and the plies (or moves, Art. 18) counted in it.
    ending: Option<(Ending, u32)>,
}

/// A game: start position, moves, and outcome once it is over.
#[derive(Clone, Debug)]
pub struct Game {
    plies: Vec<Ply>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

fn lone_king(pos: &Position, color: Color) -> bool {
    pos.count(color, Kind::King) == 1 && pos.count(color, Kind::Man) == 0
}

fn ending_of(pos: &Position) -> Option<Ending> {
    for strong in [Color::White, Color::Black] {
        let weak = strong.opposite();
        if !lone_king(pos, weak) {
            continue;
        }
        let kings = pos.count(strong, Kind::King);
        let men = pos.count(strong, Kind::Man);
        match pos.variant() {
            Variant::International if kings >= 1 && kings + men == 3 => {
                return Some(Ending::Sixteen);
            }
            Variant::International if kings >= 1 && kings + men <= 2 => {
                return Some(Ending::Five);
            }
            Variant::Frisian if kings == 2 && men == 0 => return Some(Ending::TwoKings(strong)),
            _ => {}
        }
    }
    None
}

impl Game {
    /// A game from the variant's starting position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A game from any position.
    pub fn from_position(position: Position) -> Game {
        let mut game = Game {
            plies: vec![Ply {
                position,
                hash: position.zobrist(),
                quiet: 0,
                ending: ending_of(&position).map(|e| (e, 0)),
            }],
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.position().variant()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.plies[0].position
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.plies[self.plies.len() - 1].position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before each move, in order (the start position first).
    pub fn positions(&self) -> impl Iterator<Item = &Position> {
        self.plies.iter().map(|p| &p.position)
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Zobrist hash of the current position.
    pub fn hash(&self) -> u64 {
        self.plies[self.plies.len() - 1].hash
    }

    /// Plays a legal move of the current position.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        let before = *self.position();
        let Some(mv) = before.legal_moves().iter().find(|m| *m == mv).copied() else {
            return Err(GameError::Illegal);
        };
        let after = before.play(&mv);
        let last = self.plies[self.plies.len() - 1];
        let man_moved = before
            .piece_at(mv.from())
            .is_some_and(|p| p.kind == Kind::Man);
        let quiet = if mv.is_capture() || man_moved {
            0
        } else {
            last.quiet + 1
        };
        let ending = ending_of(&after).map(|e| {
            let counted = match (last.ending, e) {
                (Some((prev, n)), Ending::TwoKings(strong)) if prev == e => {
                    n + u32::from(before.side_to_move() == strong)
                }
                (Some((prev, n)), _) if prev == e => n + 1,
                _ => 0,
            };
            (e, counted)
        });
        self.plies.push(Ply {
            position: after,
            hash: after.zobrist(),
            quiet,
            ending,
        });
        self.moves.push(mv);
        self.outcome = self.judge();
        Ok(())
    }

    /// Plays the move named by `text` (`32-28`, `28x19`, long form).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        let mv = parse_move(self.position(), text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.plies.pop();
        self.outcome = self.judge();
        Some(mv)
    }

    /// Ends the game for a reason outside the board: resignation, agreement, time, adjudication.
    /// Does nothing if the game is already over.
    pub fn end(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
        }
    }

    /// Whether a win `plies` plies from now (the loser's last move included, the game ending on
    /// the winner's move) comes before the move limit of the ending the game is in: FMJD 6.3
    /// (16 moves each) and 6.4 (5 moves each), Frisian Article 18 (seven moves of the side with
    /// two kings). True outside those endings.
    pub fn limit_allows(&self, plies: u32) -> bool {
        let ply = &self.plies[self.plies.len() - 1];
        match ply.ending {
            Some((Ending::Sixteen, n)) => plies <= 32u32.saturating_sub(n),
            Some((Ending::Five, n)) => plies <= 10u32.saturating_sub(n),
            Some((Ending::TwoKings(strong), n)) => {
                let to_move = u32::from(ply.position.side_to_move() == strong);
                (plies + to_move) / 2 <= 7u32.saturating_sub(n)
            }
            None => true,
        }
    }

    /// The move-count rules that can end the game from its current position, with what each
    /// still allows: FMJD 6.2 (25 moves each with only kings moving, while kings are on the
    /// board), 6.3 and 6.4 (the endings against a lone king), Frisian Art. 18 (two kings against
    /// one) and WCDF 1.32.2 (40 moves each without a man moving or a capture, while kings are
    /// on the board).
    pub fn move_limits(&self) -> Vec<MoveLimit> {
        let ply = &self.plies[self.plies.len() - 1];
        let each = |reason, total: u32, used: u32| MoveLimit {
            reason,
            left: total.saturating_sub(used),
            counted: None,
        };
        let kings = ply.position.kings != 0;
        let mut limits = Vec::new();
        match ply.position.variant() {
            Variant::International if kings => {
                limits.push(each(Reason::KingMoves25, 50, ply.quiet))
            }
            Variant::English if kings => limits.push(each(Reason::FortyMoves, 80, ply.quiet)),
            _ => {}
        }
        match ply.ending {
            Some((Ending::Sixteen, n)) => limits.push(each(Reason::SixteenMoves, 32, n)),
            Some((Ending::Five, n)) => limits.push(each(Reason::FiveMoves, 10, n)),
            Some((Ending::TwoKings(strong), n)) => limits.push(MoveLimit {
                reason: Reason::TwoKingsAgainstOne,
                left: 7u32.saturating_sub(n),
                counted: Some(strong),
            }),
            None => {}
        }
        limits
    }

    /// How often the current position has occurred (with the same side to move), counting now.
    pub fn repetitions(&self) -> usize {
        let last = &self.plies[self.plies.len() - 1];
        // Positions before a man move or capture can never come back.
        self.plies
            .iter()
            .rev()
            .take(last.quiet as usize + 1)
            .step_by(2)
            .filter(|p| p.hash == last.hash && p.position == last.position)
            .count()
    }

    /// The outcome the rules give the current position, if any.
    fn judge(&self) -> Option<Outcome> {
        let ply = &self.plies[self.plies.len() - 1];
        let pos = &ply.position;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Some(Outcome {
                winner: Some(pos.side_to_move().opposite()),
                reason: Reason::NoMoves,
            });
        }
        let draw = |reason| {
            Some(Outcome {
                winner: None,
                reason,
            })
        };
        match pos.variant() {
            Variant::International => {
                if self.repetitions() >= 3 {
                    return draw(Reason::Repetition);
                }
                if ply.quiet >= 50 {
                    return draw(Reason::KingMoves25);
                }
                match ply.ending {
                    Some((Ending::Sixteen, n)) if n >= 32 => return draw(Reason::SixteenMoves),
                    Some((Ending::Five, n)) if n >= 10 => return draw(Reason::FiveMoves),
                    _ => {}
                }
            }
            Variant::Frisian => {
                if let Some((Ending::TwoKings(_), n)) = ply.ending
                    && n >= 7
                {
                    return draw(Reason::TwoKingsAgainstOne);
                }
                if lone_king(pos, Color::White)
                    && lone_king(pos, Color::Black)
                    && !pos.has_capture()
                    && !legal.iter().all(|m| pos.play(m).has_capture())
                {
                    return draw(Reason::KingAgainstKing);
                }
            }
            Variant::English => {
                if self.repetitions() >= 3 {
                    return draw(Reason::Repetition);
                }
                if ply.quiet >= 80 {
                    return draw(Reason::FortyMoves);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use std::collections::HashSet;

    fn game(variant: Variant, fen: &str) -> Game {
        Game::from_position(parse_fen(fen, variant).unwrap())
    }

    fn play_all(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    /// Plays `limit` quiet king moves that repeat no earlier position and give the opponent no
    /// capture, backtracking where a line runs dry; returns the plies played (fewer only if the
    /// game ended on the last one).
    fn wander(game: &mut Game, limit: usize) -> usize {
        wander_to(game, limit, &|_| true)
    }

    /// As [`wander`], ending in a position that satisfies `accept`.
    fn wander_to(game: &mut Game, limit: usize, accept: &dyn Fn(&Game) -> bool) -> usize {
        fn extend(
            game: &mut Game,
            seen: &mut HashSet<u64>,
            left: usize,
            accept: &dyn Fn(&Game) -> bool,
        ) -> bool {
            if left == 0 {
                return accept(game);
            }
            if game.outcome().is_some() {
                return false;
            }
            let pos = *game.position();
            let candidates: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    let next = pos.play(m);
                    !m.is_capture()
                        && pos.piece_at(m.from()).is_some_and(|p| p.kind == Kind::King)
                        && !next.has_capture()
                        && !seen.contains(&next.zobrist())
                })
                .collect();
            for mv in candidates {
                game.play(&mv).unwrap();
                seen.insert(game.hash());
                if extend(game, seen, left - 1, accept) {
                    return true;
                }
                seen.remove(&game.hash());
                game.undo();
            }
            false
        }
        let mut seen: HashSet<u64> = game.positions().map(|p| p.zobrist()).collect();
        let before = game.moves().len();
        if !extend(game, &mut seen, limit, accept) {
            panic!(
                "no line of {limit} fresh safe king moves from\n{}",
                game.position()
            );
        }
        game.moves().len() - before
    }

    /// Wanders `plies - 1` plies with the game still going, then one more that ends it in a draw
    /// for `reason`.
    fn assert_draw_after(game: &mut Game, plies: usize, reason: Reason) {
        assert_eq!(wander(game, plies - 1), plies - 1);
        assert_eq!(game.outcome(), None, "before ply {plies}");
        wander(game, 1);
        assert_eq!(game.outcome(), draw(reason));
    }

    fn draw(reason: Reason) -> Option<Outcome> {
        Some(Outcome {
            winner: None,
            reason,
        })
    }

    #[test]
    fn no_legal_move_loses() {
        // FMJD 7.2.2: blocked; 7.2.3: no pieces.
        let g = game(Variant::International, "W:W46:B41,37");
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                reason: Reason::NoMoves
            })
        );
        let mut g = game(Variant::English, "B:W18:B14");
        play_all(&mut g, "14x23");
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                reason: Reason::NoMoves
            })
        );
        assert!(matches!(g.play_text("1-5"), Err(GameError::Over(_))));
    }

    #[test]
    fn threefold_repetition_international_and_english() {
        // FMJD 6.1: the same position for the third time with the same side to move.
        let mut g = game(Variant::International, "W:WK46,K47,K48:BK3,K4,K5");
        play_all(&mut g, "48-42 3-8 42-48 8-3 48-42 3-8 42-48");
        assert_eq!(g.outcome(), None);
        play_all(&mut g, "8-3");
        assert_eq!(g.outcome(), draw(Reason::Repetition));
        // WCDF 1.32.1.
        let mut g = game(Variant::English, "B:WK29,K30,K31:BK1,K2,K3");
        play_all(&mut g, "1-5 29-25 5-1 25-29 1-5 29-25 5-1");
        assert_eq!(g.outcome(), None);
        play_all(&mut g, "25-29");
        assert_eq!(g.outcome(), draw(Reason::Repetition));
        // Frisian has no repetition rule.
        let mut g = game(Variant::Frisian, "W:WK46,K47,K48:BK3,K4,K5");
        play_all(&mut g, "48-42 3-8 42-48 8-3 48-42 3-8 42-48 8-3");
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn twenty_five_king_moves() {
        // FMJD 6.2: 25 moves (each) with only kings moving and no capture.
        let mut g = game(Variant::International, "W:WK47,K48,36:BK3,K4,15");
        assert_draw_after(&mut g, 50, Reason::KingMoves25);
        // A man move starts the count again.
        let mut g = game(Variant::International, "W:WK47,K48,36:BK3,K4,15");
        let safe_man_move = |g: &Game| {
            let pos = *g.position();
            pos.legal_moves().iter().copied().find(|m| {
                pos.piece_at(m.from()).unwrap().kind == Kind::Man && !pos.play(m).has_capture()
            })
        };
        wander_to(&mut g, 40, &|g| safe_man_move(g).is_some());
        g.play(&safe_man_move(&g).unwrap()).unwrap();
        assert_eq!(wander(&mut g, 49), 49);
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn sixteen_move_rule() {
        // FMJD 6.3: three kings (or two and a man, or one and two men) against a king.
        let mut g = game(Variant::International, "W:WK47,K48,K49:BK3");
        assert_draw_after(&mut g, 32, Reason::SixteenMoves);
        let mut g = game(Variant::International, "B:WK46,36,37:BK5");
        assert_eq!(ending_of(g.position()), Some(Ending::Sixteen));
        g.end(Outcome {
            winner: None,
            reason: Reason::Agreement,
        });
        assert_eq!(g.outcome(), draw(Reason::Agreement));
    }

    #[test]
    fn five_move_rule() {
        // FMJD 6.4: two kings, king and man, or a king against a king.
        for fen in ["W:WK47,K48:BK3", "W:WK47:BK3", "B:WK47,36:BK3"] {
            let mut g = game(Variant::International, fen);
            assert_eq!(wander(&mut g, 9), 9, "{fen}");
            assert_eq!(g.outcome(), None, "{fen}");
            wander(&mut g, 1);
            assert_eq!(g.outcome(), draw(Reason::FiveMoves), "{fen}");
        }
    }

    #[test]
    fn frisian_two_kings_against_one() {
        // Art. 18: the side with two kings must win within seven moves.
        let mut g = game(Variant::Frisian, "W:WK47,K48:BK3");
        assert_draw_after(&mut g, 13, Reason::TwoKingsAgainstOne);
    }

    #[test]
    fn move_limits_bound_the_wins_that_count() {
        // FMJD 6.3: 16 moves each = 32 plies from entering the ending.
        let mut g = game(Variant::International, "W:WK47,K48,K49:BK3");
        assert!(g.limit_allows(31) && g.limit_allows(32) && !g.limit_allows(33));
        wander(&mut g, 2);
        assert!(g.limit_allows(29) && !g.limit_allows(31));
        // FMJD 6.4: 5 moves each.
        let g = game(Variant::International, "W:WK47,36:BK3");
        assert!(g.limit_allows(9) && !g.limit_allows(11));
        // Frisian Art. 18: the win must come on one of the strong side's seven moves.
        let mut g = game(Variant::Frisian, "W:WK47,K48:BK3");
        assert!(g.limit_allows(13) && !g.limit_allows(15));
        wander(&mut g, 1);
        assert!(g.limit_allows(12) && !g.limit_allows(14));
        // No limited ending: any length.
        assert!(Game::new(Variant::English).limit_allows(1000));
    }

    #[test]
    fn the_limits_in_force_count_down_as_the_articles_say() {
        let limit = |reason, left, counted| MoveLimit {
            reason,
            left,
            counted,
        };
        // FMJD 6.2 and 6.3 at once: kings on the board, three against a lone king.
        let mut g = game(Variant::International, "W:WK47,K48,K49:BK3");
        assert_eq!(
            g.move_limits(),
            [
                limit(Reason::KingMoves25, 50, None),
                limit(Reason::SixteenMoves, 32, None)
            ]
        );
        wander(&mut g, 5);
        assert_eq!(
            g.move_limits(),
            [
                limit(Reason::KingMoves25, 45, None),
                limit(Reason::SixteenMoves, 27, None)
            ]
        );
        assert_eq!(
            g.move_limits()[1].to_string(),
            "16-move rule (FMJD 6.3): 13 moves each left (27 plies)"
        );
        // FMJD 6.4.
        let g = game(Variant::International, "B:WK47,36:BK3");
        assert_eq!(g.move_limits()[1], limit(Reason::FiveMoves, 10, None));
        // Frisian Art. 18 counts the moves of the side with two kings, here Black's.
        let mut g = game(Variant::Frisian, "W:WK47:BK3,K4");
        assert_eq!(
            g.move_limits(),
            [limit(Reason::TwoKingsAgainstOne, 7, Some(Color::Black))]
        );
        wander(&mut g, 3);
        assert_eq!(g.move_limits()[0].left, 6);
        assert_eq!(
            g.move_limits()[0].to_string(),
            "two kings against one not won in 7 moves (Art. 18): Black has 6 moves left"
        );
        // WCDF 1.32.2 while kings are on the board; nothing in the opening.
        let mut g = game(Variant::English, "B:WK29,K30,21:BK1,K2,12");
        wander(&mut g, 10);
        assert_eq!(g.move_limits(), [limit(Reason::FortyMoves, 70, None)]);
        assert!(Game::new(Variant::International).move_limits().is_empty());
    }

    #[test]
    fn frisian_king_against_king() {
        // Art. 21.1: one king each, no shot possible and none forced: a draw at once.
        assert_eq!(
            game(Variant::Frisian, "W:WK47:BK5").outcome(),
            draw(Reason::KingAgainstKing)
        );
        // Every move of the side to move walks into a shot (the corner king must stay on the
        // long diagonal): play on.
        assert_eq!(game(Variant::Frisian, "W:WK46:BK5").outcome(), None);
        // The side to move can capture: play on (and win).
        let mut g = game(Variant::Frisian, "W:WK46:BK28");
        assert_eq!(g.outcome(), None);
        play_all(&mut g, "46x23");
        assert_eq!(g.outcome().unwrap().winner, Some(Color::White));
    }

    #[test]
    fn english_forty_move_rule() {
        // WCDF 1.32.2: 40 moves each without a man advancing or a capture.
        let mut g = game(Variant::English, "B:WK29,K30,21:BK1,K2,12");
        assert_draw_after(&mut g, 80, Reason::FortyMoves);
    }

    #[test]
    fn undo_restores_state() {
        let mut g = Game::new(Variant::International);
        let start_hash = g.hash();
        play_all(&mut g, "32-28 19-23 28x19 14x23");
        assert_eq!(g.moves().len(), 4);
        for _ in 0..4 {
            g.undo().unwrap();
        }
        assert_eq!(g.hash(), start_hash);
        assert_eq!(*g.position(), Position::start(Variant::International));
        assert!(g.undo().is_none());
    }
}
