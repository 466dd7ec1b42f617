//! The verdict on a game's position for an arbiter: the tablebase value joined with the move
//! limits of the rules, and the line that proves it.
//!
//! The tables know only who wins with best play and in how many plies; the rules may end the
//! game drawn before that (FMJD 6.2–6.4, Frisian Art. 18 and 21, WCDF 1.32.2). The verdict plays the
//! tables' line — the winner's fastest win against the loser's longest defence — through a
//! [`Game`], which applies every one of those rules, so the decision is what the rules make of
//! best play, not an estimate of it.
//!
//! Tables of results only (`--metric wdl`, the way the six-piece set is usually built) hold no
//! lengths. They decide a draw, which no move limit can change, and a win while none of the
//! endings against a lone king (FMJD 6.3, 6.4, Frisian Art. 18) is being counted; with one of
//! those counting, only the length of the win can tell, and the verdict says it is undecided.

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
    /// `winner` wins with best play by tables of results only, with no ending against a lone
    /// king being counted; how long the win takes, and so whether a move limit that comes into
    /// force on the way ends it first, is not in these tables.
    WinByResult {
        /// Who wins.
        winner: Color,
    },
    /// `winner` wins with best play, but `rule` is counting and tables of results only cannot
    /// say whether the win comes in time.
    Undecided {
        /// Who wins without the rule.
        winner: Color,
        /// The rule that may end the game drawn first.
        rule: Reason,
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
            Decision::WinByResult { winner } => write!(
                f,
                "{winner} wins with best play (tables of results only: the length of the win, and so a move limit it may meet on the way, is not judged)"
            ),
            Decision::Undecided { winner, rule } => write!(
                f,
                "undecided: {winner} wins with best play, but the {} is counting and tables of results only cannot say whether the win comes in time (its DTW table can)",
                rule.describe()
            ),
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
    /// The tables' result for the side to move, ignoring the move limits.
    pub result: Wdl,
    /// Plies to the end of the game with best play: `None` for a draw, and for a win or a loss
    /// in tables of results only.
    pub plies: Option<u32>,
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
    let (result, plies) = value(tb, &pos)?;
    let judged = |decision, line| {
        Ok(Some(Verdict {
            result,
            plies,
            limits: limits.clone(),
            decision,
            line,
        }))
    };
    if let Some(o) = game.outcome() {
        return judged(Decision::Over(o), Vec::new());
    }
    let winner = match result {
        Wdl::Draw => return judged(Decision::Draw, Vec::new()),
        Wdl::Win => pos.side_to_move(),
        Wdl::Loss => pos.side_to_move().opposite(),
    };
    let Some(plies) = plies else {
        let ending = limits.iter().find(|l| {
            matches!(
                l.reason,
                Reason::SixteenMoves | Reason::FiveMoves | Reason::TwoKingsAgainstOne
            )
        });
        return judged(
            match ending {
                Some(l) => Decision::Undecided {
                    winner,
                    rule: l.reason,
                },
                None => Decision::WinByResult { winner },
            },
            Vec::new(),
        );
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
    judged(decision, line)
}

/// The tables' result for `pos` and, when they hold it, the length of a win or a loss. A slice
/// built for results only has no length: its result alone, which the caller judges.
fn value(tb: &Tablebase, pos: &Position) -> Result<(Wdl, Option<u32>), TbError> {
    Ok(match tb.dtw_if_held(pos)? {
        None => (tb.wdl(pos)?, None),
        Some(Dtw::Draw) => (Wdl::Draw, None),
        Some(d) => (d.wdl(), Some(d.plies())),
    })
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
        assert_eq!((v.result, v.plies), (Wdl::Draw, None));
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
        assert_eq!((late.result, late.plies), (Wdl::Win, Some(17)));
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
        let (Wdl::Win, Some(plies)) = (v.result, v.plies) else {
            panic!("the walk ends in a win: {:?} {:?}", v.result, v.plies)
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

    /// Tables of results only of `variant` up to three pieces, in a directory of their own.
    fn results_only(variant: Variant) -> (tempfile::TempDir, Tablebase) {
        use crate::tablebase::format::Metric;
        use crate::tablebase::memory::{Bytes, Limits};
        let dir = tempfile::TempDir::new().unwrap();
        let limits = Limits {
            budget: Bytes(1 << 30),
            split: None,
            metric: Metric::Wdl,
        };
        crate::tablebase::generate::generate_all(
            variant,
            3,
            dir.path(),
            crate::tablebase::progress::Report::Quiet,
            limits,
        )
        .unwrap();
        let tb = Tablebase::open(dir.path()).unwrap();
        (dir, tb)
    }

    #[test]
    fn tables_of_results_only_decide_draws_and_wins_outside_the_lone_king_endings() {
        let (_dir, tb) = results_only(Variant::English);
        let judge = |fen: &str| {
            verdict(
                &Game::from_position(parse_fen(fen, Variant::English).unwrap()),
                &tb,
            )
            .unwrap()
            .unwrap()
        };
        // One king each, far apart: no win, so no move limit matters.
        let draw = judge("W:WK1:BK32");
        assert_eq!(draw.decision, Decision::Draw);
        // Two kings against one win; the 40-move count (WCDF 1.32.2) is no ending against a
        // lone king, so the result decides, and the words say the length is not judged.
        let win = judge("W:WK1,K2:BK32");
        assert_eq!(
            win.decision,
            Decision::WinByResult {
                winner: Color::White
            }
        );
        assert_eq!((win.result, win.plies), (Wdl::Win, None));
        assert!(win.line.is_empty());
        assert!(
            win.decision.to_string().contains("not judged"),
            "{}",
            win.decision
        );
        // The same from the loser's side.
        let loss = judge("B:WK1,K2:BK32");
        assert_eq!(
            loss.decision,
            Decision::WinByResult {
                winner: Color::White
            }
        );
        assert_eq!(loss.result, Wdl::Loss);
    }

    #[test]
    fn tables_of_results_only_leave_a_win_undecided_while_a_lone_king_ending_counts() {
        // Frisian Art. 18: two kings against one must win within seven moves. With distances,
        // `W:WK31,K4:BK23` is a win in 17 plies that comes too late (above); results alone
        // cannot tell, and the verdict says so.
        let (_dir, tb) = results_only(Variant::Frisian);
        let game = Game::from_position(parse_fen("W:WK31,K4:BK23", Variant::Frisian).unwrap());
        let v = verdict(&game, &tb).unwrap().unwrap();
        assert_eq!(
            v.decision,
            Decision::Undecided {
                winner: Color::White,
                rule: Reason::TwoKingsAgainstOne
            }
        );
        assert!(v.decision.to_string().contains("DTW"), "{}", v.decision);
    }
}
