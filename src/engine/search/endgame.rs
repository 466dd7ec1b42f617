//! Exact values from the endgame tables: a quiet position inside the tree within them, and the
//! best move of a root within them.

use super::Searcher;
use super::score::TB_WIN;
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::tablebase::{Dtw, Tablebase, Wdl};

impl Searcher {
    /// The tables, when they hold positions such as `pos`: of its variant, with no more pieces.
    #[inline(always)]
    fn tables_for(&self, pos: &Position) -> Option<&Tablebase> {
        self.tablebase
            .as_deref()
            .filter(|tb| pos.variant() == tb.variant() && pos.piece_count() <= tb.max_pieces())
    }

    /// Exact value of a position from the tablebases, if it is within them and quiet.
    pub(super) fn probe(&self, pos: &Position, ply: i32) -> Option<i32> {
        let tb = self.tables_for(pos)?;
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
}
