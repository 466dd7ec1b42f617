//! The order a node tries its moves in: the table's move, captures by size, two killer moves
//! per ply, then quiet moves by their history scores — what the search learnt from earlier
//! cutoffs, kept between the searches of one game.

use crate::rules::moves::{MAX_MOVES, MoveList};

/// One ply's room: its moves and the order to try them in, kept for the whole search so that
/// no node builds a list (a move list is large: it has room for the most moves any position has).
pub(super) struct Frame {
    pub(super) moves: MoveList,
    /// Sort keys, highest first: a move's score times [`MAX_MOVES`] plus its place from the end
    /// of the list, so that of two moves with the same score the one listed first goes first,
    /// and the move is read back from the key (one word a move to sort, not two).
    order: [i32; MAX_MOVES],
}

impl Frame {
    pub(super) fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            order: [0; MAX_MOVES],
        }
    }

    /// The index in the list of the `n`th move to try.
    #[inline(always)]
    pub(super) fn nth(&self, n: usize) -> usize {
        MAX_MOVES - 1 - (self.order[n] as usize & (MAX_MOVES - 1))
    }
}

/// Scores of the move classes above history (whose scores stay within ±[`HISTORY_MAX`]).
const KILLER_2: i32 = 1 << 20;
const KILLER_1: i32 = 2 << 20;
const CAPTURE: i32 = 3 << 20;
/// The table's move: the highest score whose key fits in 32 bits.
const TABLE_MOVE: i32 = (4 << 20) - 1;
const _: () = assert!(
    MAX_MOVES.is_power_of_two()
        && (TABLE_MOVE as i64 + 1) * MAX_MOVES as i64 - 1 <= i32::MAX as i64
);

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
                TABLE_MOVE
            } else if m.is_capture() {
                CAPTURE + m.capture_count() as i32
            } else if self.killers[ply][0] == (m.from, m.to) {
                KILLER_1
            } else if self.killers[ply][1] == (m.from, m.to) {
                KILLER_2
            } else {
                self.history(m.from, m.to)
            };
            let key = s * MAX_MOVES as i32 + (MAX_MOVES - 1 - i) as i32;
            let mut at = i;
            while at > 0 && order[at - 1] < key {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = key;
        }
    }

    /// The `n`th move tried (in `frame`'s order), a quiet one, cut off at `depth` and `ply`: it
    /// becomes the ply's first killer and gains in history, the quiet moves tried before it
    /// lose as much (a node with a capture has only captures).
    pub(super) fn cut(&mut self, frame: &Frame, n: usize, depth: i32, ply: usize) {
        let mv = frame.moves.as_slice()[frame.nth(n)];
        let k = &mut self.killers[ply];
        if k[0] != (mv.from, mv.to) {
            k[1] = k[0];
            k[0] = (mv.from, mv.to);
        }
        let bonus = depth * depth;
        for k in 0..n {
            let m = frame.moves.as_slice()[frame.nth(k)];
            self.reward(m.from, m.to, -bonus);
        }
        self.reward(mv.from, mv.to, bonus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    #[test]
    fn the_table_move_then_killers_then_history_and_ties_in_list_order() {
        let mut frame = Frame::new();
        // Six quiet moves, listed 0..6.
        let squares: [(u8, u8); 6] = [(31, 27), (32, 27), (32, 28), (33, 28), (33, 29), (34, 29)];
        for (from, to) in squares {
            frame
                .moves
                .push(Move::quiet(u32::from(from), u32::from(to), 5));
        }
        let mut ordering = MoveOrdering::new(4);
        // Move 4 a killer, move 2 the second; move 5 has a good history, moves 0 and 1 none.
        ordering.killers[1] = [squares[4], squares[2]];
        ordering.reward(squares[5].0, squares[5].1, 100);
        ordering.order(&mut frame, Some(3), 1);
        let tried: Vec<usize> = (0..6).map(|n| frame.nth(n)).collect();
        // The table's move, the killers, history 100, then the two at 0 in the order listed.
        assert_eq!(tried, vec![3, 4, 2, 5, 0, 1]);
    }
}
