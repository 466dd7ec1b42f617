//! The verdict on a game's position for an arbiter: the tablebase value joined with the move
//! limits of the rules, and the line that proves it.
//!
//! The tables know only who wins with best play and in how many plies; the rules may end the
//! game drawn before that (FMJD 6.2–6.4, Frisian Art. 18 and 21, WCDF 1.32.2). The verdict plays the
//! tables' line — the winner's fastest win against the loser's longest defence — through a
//! [`Game`], which applies every one of those rules, so the decision is what the rules make of
//! best play, not an estimate of it.

use crate::rules::board::Position;
use crate::rules::game::{Game, MoveLimit, Outcome, Reason};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::tablebase::{Dtw, Tablebase, TbError, Wdl};
use std::fmt;

/// What the rules and the tables make of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The game is already over.
    Over(Outcome),
    /// `winner` wins with best play, `plies` from now, within every move limit.
    Win {
        /// Who wins.
        winner: Color,
        /// Plies to the end of the game.
        plies: u32,
    },
    /// A draw with best play.
    Draw,
    /// `winner` would win in `plies`, but `rule` ends the game drawn first.
    DrawByLimit {
        /// Who would win without the rule.
        winner: Color,
        /// Plies the shortest win takes.
        plies: u32,
        /// The rule that ends the game first.
        rule: Reason,
    },
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Decision::Over(o) => write!(f, "the game is over: {o}"),
            Decision::Win { winner, plies } => write!(f, "{winner} wins (in {plies} plies)"),
            Decision::Draw => write!(f, "draw: no side can force a win"),
            Decision::DrawByLimit {
                winner,
                plies,
                rule,
            } => write!(
                f,
                "draw: {winner}'s shortest win takes {plies} plies and the {} ends the game first",
                rule.describe()
            ),
        }
    }
}

/// The verdict on a position the tables hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The tables' value for the side to move, ignoring the move limits.
    pub value: Dtw,
    /// The move-count rules in force, with what each still allows.
    pub limits: Vec<MoveLimit>,
    /// The decision.
    pub decision: Decision,
    /// Best play from the position to the end the decision names (empty for a draw by the
    /// tables, whose proof is the tables themselves).
    pub line: Vec<Move>,
}

/// The verdict on `game`'s current position, or `None` when the tables do not hold it (another
/// variant, or more pieces than they have).
pub fn verdict(game: &Game, tb: &Tablebase) -> Result<Option<Verdict>, TbError> {
    let pos = *game.position();
    if pos.variant() != tb.variant() || pos.piece_count() > tb.max_pieces() {
        return Ok(None);
    }
    let limits = game.move_limits();
    if let Some(o) = game.outcome() {
        return Ok(Some(Verdict {
            value: value(tb, &pos)?,
            limits,
            decision: Decision::Over(o),
            line: Vec::new(),
        }));
    }
    let value = value(tb, &pos)?;
    let (winner, plies) = match value {
        Dtw::Draw => {
            return Ok(Some(Verdict {
                value,
                limits,
                decision: Decision::Draw,
                line: Vec::new(),
            }));
        }
        Dtw::Win(p) => (pos.side_to_move(), p),
        Dtw::Loss(p) => (pos.side_to_move().opposite(), p),
    };
    // Best play, ply by ply; the distance falls by one each ply, so `plies` bounds the line
    // (the extra ply only guards against damaged tables).
    let mut played = game.clone();
    let mut line = Vec::new();
    while played.outcome().is_none() && line.len() <= plies as usize {
        let Some((mv, _)) = tb.best_move(played.position())? else {
            break;
        };
        if played.play(&mv).is_err() {
            break;
        }
        line.push(mv);
    }
    let decision = match played.outcome() {
        Some(Outcome {
            winner: None,
            reason,
        }) => Decision::DrawByLimit {
            winner,
            plies,
            rule: reason,
        },
        _ => Decision::Win { winner, plies },
    };
    Ok(Some(Verdict {
        value,
        limits,
        decision,
        line,
    }))
}

/// The tables' value of `pos`. Tables built for results only decide a draw (no move limit can
/// change it) but not a win, whose length the limits are judged by: that is an error saying so.
fn value(tb: &Tablebase, pos: &Position) -> Result<Dtw, TbError> {
    match tb.dtw(pos) {
        Err(TbError::Missing {
            kind: "dtw",
            dir,
            material,
        }) => match tb.wdl(pos)? {
            Wdl::Draw => Ok(Dtw::Draw),
            _ => Err(TbError::NoDistance { dir, material }),
        },
        found => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Reason;
    use crate::rules::notation::parse_fen;
    use crate::rules::variant::Variant;
    use crate::tablebase::tests::tables;

    fn judge(variant: Variant, fen: &str) -> Verdict {
        let game = Game::from_position(parse_fen(fen, variant).unwrap());
        verdict(&game, tables(variant)).unwrap().unwrap()
    }

    #[test]
    fn two_kings_against_one_is_a_draw() {
        // FMJD 6.4 is in force, and the tables find no win.
        let v = judge(Variant::International, "W:WK47,K48:BK3");
        assert_eq!(v.decision, Decision::Draw);
        assert_eq!(v.value, Dtw::Draw);
        assert_eq!(v.limits[1].reason, Reason::FiveMoves);
        assert!(v.line.is_empty());
    }

    #[test]
    fn a_win_within_the_limit_is_a_win_and_its_line_ends_in_it() {
        let v = judge(Variant::International, "W:WK46,K47,K48:BK5");
        assert_eq!(
            v.decision,
            Decision::Win {
                winner: Color::White,
                plies: 3
            }
        );
        let mut g =
            Game::from_position(parse_fen("W:WK46,K47,K48:BK5", Variant::International).unwrap());
        for mv in &v.line {
            g.play(mv).unwrap();
        }
        assert_eq!(v.line.len(), 3);
        assert_eq!(g.outcome().unwrap().winner, Some(Color::White));
    }

    #[test]
    fn frisian_two_kings_must_win_within_seven_moves() {
        // Art. 18: 17 plies is White's ninth move, too late; 13 plies its seventh, in time.
        let late = judge(Variant::Frisian, "W:WK31,K4:BK23");
        assert_eq!(late.value, Dtw::Win(17));
        assert_eq!(
            late.decision,
            Decision::DrawByLimit {
                winner: Color::White,
                plies: 17,
                rule: Reason::TwoKingsAgainstOne
            }
        );
        let in_time = judge(Variant::Frisian, "W:WK7,K40:BK33");
        assert_eq!(
            in_time.decision,
            Decision::Win {
                winner: Color::White,
                plies: 13
            }
        );
    }

    #[test]
    fn frisian_king_against_king_is_a_draw_unless_a_shot_decides_it() {
        // Art. 21.1: one king each, neither can shoot nor must be shot: a draw at once.
        let quiet = judge(Variant::Frisian, "W:WK47:BK4");
        assert_eq!(
            quiet.decision,
            Decision::Over(Outcome {
                winner: None,
                reason: Reason::KingAgainstKing
            })
        );
        // White's king takes Black's at once: the tables' win, one ply.
        let shot = judge(Variant::Frisian, "W:WK28:BK23");
        assert_eq!(
            shot.decision,
            Decision::Win {
                winner: Color::White,
                plies: 1
            }
        );
    }

    /// A walk of `plies` more plies from `game` that captures nothing and repeats no position,
    /// ending with White to move and a win that needs at least three plies.
    fn walk(game: &mut Game, tb: &Tablebase, plies: usize, seen: &mut Vec<u64>) -> bool {
        if plies == 0 {
            return matches!(tb.dtw(game.position()), Ok(Dtw::Win(p)) if p >= 3);
        }
        let moves: Vec<Move> = game.position().legal_moves().iter().copied().collect();
        for mv in moves {
            let next = game.position().play(&mv);
            if next.piece_count() < 4 || seen.contains(&next.zobrist()) {
                continue;
            }
            game.play(&mv).expect("a legal move");
            seen.push(next.zobrist());
            if game.outcome().is_none() && walk(game, tb, plies - 1, seen) {
                return true;
            }
            seen.pop();
            game.undo();
        }
        false
    }

    #[test]
    fn three_kings_whose_win_comes_after_the_sixteen_moves_only_draw() {
        // FMJD 6.3: three kings against a lone king must win within 16 moves each. After 15
        // moves each that change nothing, a win that needs two more White moves is too late.
        let tb = tables(Variant::International);
        let start = parse_fen("W:WK47,K48,K49:BK23", Variant::International).unwrap();
        let mut game = Game::from_position(start);
        let mut seen = vec![start.zobrist()];
        assert!(
            walk(&mut game, tb, 30, &mut seen),
            "a quiet walk of 15 moves each"
        );
        let v = verdict(&game, tb).unwrap().unwrap();
        let Dtw::Win(plies) = v.value else {
            panic!("the walk ends in a win: {:?}", v.value)
        };
        assert_eq!(v.limits[1].reason, Reason::SixteenMoves);
        assert_eq!(v.limits[1].left, 2, "two plies: one move each");
        assert_eq!(
            v.decision,
            Decision::DrawByLimit {
                winner: Color::White,
                plies,
                rule: Reason::SixteenMoves
            }
        );
        // The same position at the start of the ending is a win.
        let fresh = Game::from_position(*game.position());
        let v = verdict(&fresh, tb).unwrap().unwrap();
        assert_eq!(
            v.decision,
            Decision::Win {
                winner: Color::White,
                plies
            }
        );
    }

    #[test]
    fn outside_the_tables_there_is_no_verdict() {
        let game = Game::new(Variant::International);
        assert_eq!(
            verdict(&game, tables(Variant::International)).unwrap(),
            None
        );
    }

    #[test]
    fn tables_of_results_only_decide_draws_and_say_what_a_win_needs() {
        use crate::tablebase::format::Metric;
        use crate::tablebase::memory::{Bytes, Limits};
        let dir = tempfile::TempDir::new().unwrap();
        let limits = Limits {
            budget: Bytes(1 << 30),
            split: None,
            metric: Metric::Wdl,
        };
        crate::tablebase::generate::generate_all(
            Variant::English,
            3,
            dir.path(),
            crate::tablebase::progress::Report::Quiet,
            limits,
        )
        .unwrap();
        let tb = Tablebase::open(dir.path()).unwrap();
        let judge = |fen: &str| {
            verdict(
                &Game::from_position(parse_fen(fen, Variant::English).unwrap()),
                &tb,
            )
        };
        // One king each, far apart: no win, so no move limit matters.
        let draw = judge("W:WK1:BK32").unwrap().unwrap();
        assert_eq!(draw.decision, Decision::Draw);
        // Two kings against one win, but how soon is not in these tables.
        let err = judge("W:WK1,K2:BK32").unwrap_err();
        assert!(matches!(err, TbError::NoDistance { .. }), "{err}");
        assert!(err.to_string().contains("--metric dtw"), "{err}");
    }
}
