//! The order a node tries its moves in: the table's move, captures by size, two killer moves
//! per ply, then quiet moves by their history scores — what the search learnt from earlier
//! cutoffs, kept between the searches of one game.

use crate::rules::moves::{MAX_MOVES, MoveList};

/// One ply's room: its moves and the order to try them in, kept for the whole search so that
/// no node builds a list (a move list is large: it has room for the most moves any position has).
pub(super) struct Frame {
    pub(super) moves: MoveList,
    pub(super) order: [(i64, u16); MAX_MOVES],
}

impl Frame {
    pub(super) fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            order: [(0, 0); MAX_MOVES],
        }
    }
}

/// The bound of a move's history score.
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// Killer moves and history scores, by origin and destination square.
pub(super) struct MoveOrdering {
    killers: Vec<[(u8, u8); 2]>,
    history: Box<[[i32; 64]; 64]>,
}

impl MoveOrdering {
    /// Nothing learnt yet (a new game), for searches of up to `plies` plies.
    pub(super) fn new(plies: usize) -> MoveOrdering {
        MoveOrdering {
            killers: vec![[(0, 0); 2]; plies],
            history: Box::new([[0; 64]; 64]),
        }
    }

    /// The history score of the move from `from` to `to`.
    pub(super) fn history(&self, from: u8, to: u8) -> i32 {
        self.history[from as usize][to as usize]
    }

    /// Moves the history score of the move from `from` to `to` by `bonus`, less the more it
    /// already leans that way, so that scores stay within ±[`HISTORY_MAX`] (a bonus is a depth
    /// squared, below it) and recent cutoffs outweigh old ones.
    pub(super) fn reward(&mut self, from: u8, to: u8, bonus: i32) {
        let h = &mut self.history[from as usize][to as usize];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Orders the frame's moves: the table's move, then captures by size, killers, then by
    /// history (a stable insertion sort: the lists are short, and nothing is allocated).
    pub(super) fn order(&self, frame: &mut Frame, tt_best: Option<usize>, ply: usize) {
        let Frame { moves, order } = frame;
        for (i, m) in moves.iter().enumerate() {
            let s = if Some(i) == tt_best {
                i64::MAX
            } else if m.is_capture() {
                1_000_000_000 + i64::from(m.capture_count())
            } else if self.killers[ply][0] == (m.from, m.to) {
                900_000_000
            } else if self.killers[ply][1] == (m.from, m.to) {
                800_000_000
            } else {
                i64::from(self.history(m.from, m.to))
            };
            let mut at = i;
            while at > 0 && order[at - 1].0 < s {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = (s, i as u16);
        }
    }

    /// The `n`th move tried (in `frame`'s order), a quiet one, cut off at `depth` and `ply`: it
    /// becomes the ply's first killer and gains in history, the quiet moves tried before it
    /// lose as much (a node with a capture has only captures).
    pub(super) fn cut(&mut self, frame: &Frame, n: usize, depth: i32, ply: usize) {
        let mv = frame.moves.as_slice()[frame.order[n].1 as usize];
        let k = &mut self.killers[ply];
        if k[0] != (mv.from, mv.to) {
            k[1] = k[0];
            k[0] = (mv.from, mv.to);
        }
        let bonus = depth * depth;
        for tried in &frame.order[..n] {
            let m = frame.moves.as_slice()[tried.1 as usize];
            self.reward(m.from, m.to, -bonus);
        }
        self.reward(mv.from, mv.to, bonus);
    }
}
