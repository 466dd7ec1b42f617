//! Exact values from the endgame tables: a quiet position inside the tree within them, and the
//! best move of a root within them.
//!
//! With distances (DTW) the root's best move is the tables' own. Tables of results only (WDL,
//! the way the six-piece set is usually built) say which moves keep the root's result but not
//! which of them makes progress: in a won ending every waiting move keeps the win too, and a
//! search that took each at the tables' word would mark time until a move limit or a repetition
//! drew the game. So at such a root the search keeps to the moves that hold the result, and
//! within the root's own material it evaluates and searches rather than probes, until a capture
//! or a promotion reaches a material whose result the tables give exactly.

use super::Searcher;
use super::score::TB_WIN;
use crate::rules::board::Position;
use crate::rules::moves::{Move, MoveList};
use crate::tablebase::{Dtw, Tablebase, Wdl};

impl Searcher {
    /// The tables, when they hold positions such as `pos`: of its variant, with no more pieces.
    #[inline(always)]
    fn tables_for(&self, pos: &Position) -> Option<&Tablebase> {
        self.tablebase
            .as_deref()
            .filter(|tb| pos.variant() == tb.variant() && pos.piece_count() <= tb.max_pieces())
    }

    /// Exact value of a position from the tablebases, if it is within them and quiet (and not
    /// of the material of a root held by results only, where the search must tell progress).
    pub(super) fn probe(&self, pos: &Position, ply: i32) -> Option<i32> {
        let tb = self.tables_for(pos)?;
        if self
            .results_root
            .as_ref()
            .is_some_and(|r| r.material == material(pos))
        {
            return None;
        }
        Some(match tb.wdl(pos).ok()? {
            Wdl::Win => TB_WIN - ply,
            Wdl::Draw => 0,
            Wdl::Loss => -TB_WIN + ply,
        })
    }

    /// At the root of a position the tables hold: the move with the best distance (fastest win,
    /// slowest loss, or any draw), and its score.
    pub(super) fn tablebase_move(&self, root: &Position) -> Option<(Move, i32)> {
        let tb = self.tables_for(root)?;
        tb.best_move(root).ok()?.map(|(m, d)| {
            let score = match d {
                Dtw::Win(p) => TB_WIN - p as i32,
                Dtw::Draw => 0,
                Dtw::Loss(p) => -TB_WIN + p as i32,
            };
            (m, score)
        })
    }

    /// A root the tables hold with results only: its material and the moves that keep its
    /// result (`None` when the tables do not hold it).
    pub(super) fn results_only_root(&self, root: &Position) -> Option<ResultsRoot> {
        let tb = self.tables_for(root)?;
        let result = tb.wdl(root).ok()?;
        let mut moves = MoveList::new();
        for mv in root.legal_moves().iter() {
            if tb.wdl(&root.play(mv)).ok()?.flip() == result {
                moves.push(*mv);
            }
        }
        (!moves.is_empty()).then(|| ResultsRoot {
            material: material(root),
            moves,
        })
    }
}

/// A root within tables of results only: what the search keeps to there.
#[derive(Clone, Debug)]
pub(super) struct ResultsRoot {
    /// The root's men and kings of each side, the material whose positions are searched, not
    /// probed.
    material: [u32; 4],
    /// The root moves that keep the tables' result, in the order of the move list.
    pub(super) moves: MoveList,
}

/// Men and kings of each side.
fn material(pos: &Position) -> [u32; 4] {
    [
        (pos.white & !pos.kings).count_ones(),
        (pos.white & pos.kings).count_ones(),
        (pos.black & !pos.kings).count_ones(),
        (pos.black & pos.kings).count_ones(),
    ]
}
