//! The order a node tries its moves in: the table's move, captures by size, two killer moves
//! per ply, then quiet moves by their history scores — what the search learnt from earlier
//! cutoffs, kept between the searches of one game.

use crate::rules::moves::{MAX_MOVES, Move, MoveList};

/// One ply's room: its moves and the order to try them in, kept for the whole search so that
/// no node builds a list (a move list is large: it has room for the most moves any position has).
pub(super) struct Frame {
    pub(super) moves: MoveList,
    /// Sort keys, highest first (after [`MoveOrdering::order`] only the first two; the rest once
    /// [`Frame::sort_rest`] has run): a move's score times [`MAX_MOVES`] plus its place from the
    /// end of the list, so that of two moves with the same score the one listed first goes
    /// first, and the move is read back from the key (one word a move to sort, not two).
    order: [i32; MAX_MOVES],
}

impl Frame {
    pub(super) fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            order: [0; MAX_MOVES],
        }
    }

    /// Sorts the moves after the first two, highest key first (an insertion sort: the lists are
    /// short, and nothing is allocated); [`MoveOrdering::order`] put the two highest in front.
    pub(super) fn sort_rest(&mut self) {
        let n = self.moves.len();
        if n <= 3 {
            // At most one move after the first two.
            return;
        }
        let order = &mut self.order[2..n];
        for i in 1..order.len() {
            let key = order[i];
            let mut at = i;
            while at > 0 && order[at - 1] < key {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = key;
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

/// A move's origin and destination in one number (a killer move), so that one comparison
/// tells whether a move is it.
fn squares(from: u8, to: u8) -> u16 {
    u16::from_le_bytes([from, to])
}

/// A square's bit as an index of the history table: every bit is below 64, and the mask shows
/// it to the compiler, so scoring a move's history costs no bounds check (two a move, at every
/// node that orders its moves).
#[inline(always)]
fn cell(bit: u8) -> usize {
    usize::from(bit) & 63
}

/// The bound of a move's history score.
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// Killer moves and history scores, by origin and destination square.
pub(super) struct MoveOrdering {
    killers: Vec<[u16; 2]>,
    history: Box<[[i32; 64]; 64]>,
}

impl MoveOrdering {
    /// Nothing learnt yet (a new game), for searches of up to `plies` plies.
    pub(super) fn new(plies: usize) -> MoveOrdering {
        MoveOrdering {
            killers: vec![[0; 2]; plies],
            history: Box::new([[0; 64]; 64]),
        }
    }

    /// The history score of the move from `from` to `to`.
    pub(super) fn history(&self, from: u8, to: u8) -> i32 {
        self.history[cell(from)][cell(to)]
    }

    /// Moves the history score of the move from `from` to `to` by `bonus`, less the more it
    /// already leans that way, so that scores stay within ±[`HISTORY_MAX`] (a bonus is a depth
    /// squared, below it) and recent cutoffs outweigh old ones.
    pub(super) fn reward(&mut self, from: u8, to: u8, bonus: i32) {
        let h = &mut self.history[cell(from)][cell(to)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Orders the frame's moves: the table's move, then captures by size, killers, then by
    /// history. Only the two highest go in front here: most nodes are cut off by one of them,
    /// and the rest are sorted when a node reaches its third move ([`Frame::sort_rest`]). The
    /// scores are chosen without a branch per move (which class a move falls in is as good as
    /// a coin toss to the processor), and a node's moves are all captures or none (a capture is
    /// forced), so that is asked once.
    ///
    /// `equal_captures` says that the variant's priority rule keeps only captures of the same
    /// size (the most pieces, or the highest value, which comes with as many pieces): its
    /// captures then keep the order they were listed in, the table's move first.
    pub(super) fn order(
        &self,
        frame: &mut Frame,
        tt_best: Option<usize>,
        ply: usize,
        equal_captures: bool,
    ) {
        let Frame { moves, order } = frame;
        let tt = tt_best.unwrap_or(usize::MAX);
        if moves.as_slice().first().is_some_and(|m| m.is_capture()) {
            if equal_captures {
                keys(moves, order, tt, |_| CAPTURE);
                if tt >= moves.len() {
                    // The keys fall in list order: the two highest are in front already.
                    return;
                }
            } else {
                keys(moves, order, tt, |m| CAPTURE + m.capture_count() as i32);
            }
        } else {
            let [k1, k2] = self.killers[ply];
            keys(moves, order, tt, |m| {
                let pair = squares(m.from, m.to);
                let s = self.history(m.from, m.to);
                let s = if pair == k2 { KILLER_2 } else { s };
                if pair == k1 { KILLER_1 } else { s }
            });
        }
        let n = moves.len();
        if n < 2 {
            return;
        }
        // The two highest keys (all differ: each holds its move's place), by minimum and
        // maximum, then moved to the front; a key tells its place in the list.
        let (mut first, mut second) = (order[0].max(order[1]), order[0].min(order[1]));
        for &k in &order[2..n] {
            second = second.max(k.min(first));
            first = first.max(k);
        }
        let place = |k: i32| MAX_MOVES - 1 - (k as usize & (MAX_MOVES - 1));
        let (a, b) = (place(first), place(second));
        order.swap(0, a);
        // The second highest may just have been moved from the front.
        order.swap(1, if b == 0 { a } else { b });
    }

    /// The `n`th move tried (in `frame`'s order), a quiet one, cut off at `depth` and `ply`: it
    /// becomes the ply's first killer and gains in history, the quiet moves tried before it
    /// lose as much (a node with a capture has only captures).
    pub(super) fn cut(&mut self, frame: &Frame, n: usize, depth: i32, ply: usize) {
        let mv = frame.moves.as_slice()[frame.nth(n)];
        let k = &mut self.killers[ply];
        if k[0] != squares(mv.from, mv.to) {
            k[1] = k[0];
            k[0] = squares(mv.from, mv.to);
        }
        let bonus = depth * depth;
        for k in 0..n {
            let m = frame.moves.as_slice()[frame.nth(k)];
            self.reward(m.from, m.to, -bonus);
        }
        self.reward(mv.from, mv.to, bonus);
    }
}

/// Writes each move's sort key: its `score` (the table's move's above every other) times
/// [`MAX_MOVES`] plus its place from the end of the list.
#[inline(always)]
fn keys(moves: &MoveList, order: &mut [i32; MAX_MOVES], tt: usize, score: impl Fn(&Move) -> i32) {
    for (i, m) in moves.iter().enumerate() {
        let s = score(m);
        order[i] =
            (if i == tt { TABLE_MOVE } else { s }) * MAX_MOVES as i32 + (MAX_MOVES - 1 - i) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_move_then_killers_then_history_and_ties_in_list_order() {
        let mut frame = Frame::new();
        // Six quiet moves, listed 0..6.
        let pairs: [(u8, u8); 6] = [(31, 27), (32, 27), (32, 28), (33, 28), (33, 29), (34, 29)];
        for (from, to) in pairs {
            frame
                .moves
                .push(Move::quiet(u32::from(from), u32::from(to), 5));
        }
        let mut ordering = MoveOrdering::new(4);
        // Move 4 a killer, move 2 the second; move 5 has a good history, moves 0 and 1 none.
        ordering.killers[1] = [
            squares(pairs[4].0, pairs[4].1),
            squares(pairs[2].0, pairs[2].1),
        ];
        ordering.reward(pairs[5].0, pairs[5].1, 100);
        ordering.order(&mut frame, Some(3), 1, true);
        // The two highest are in front before the rest is sorted.
        assert_eq!((frame.nth(0), frame.nth(1)), (3, 4));
        frame.sort_rest();
        let tried: Vec<usize> = (0..6).map(|n| frame.nth(n)).collect();
        // The table's move, the killers, history 100, then the two at 0 in the order listed.
        assert_eq!(tried, vec![3, 4, 2, 5, 0, 1]);
    }

    /// Four captures of 1, 3, 2 and 3 pieces, listed in that order.
    fn captures() -> Frame {
        let mut frame = Frame::new();
        for (k, taken) in [0b1u64, 0b111 << 8, 0b11 << 16, 0b111 << 24]
            .into_iter()
            .enumerate()
        {
            let mut mv = Move::quiet(40 + k as u32, 30 + k as u32, 5);
            mv.captured = taken;
            frame.moves.push(mv);
        }
        frame
    }

    #[test]
    fn captures_go_by_size_under_free_choice_and_in_list_order_under_a_priority_rule() {
        let ordering = MoveOrdering::new(2);
        let tried = |frame: &mut Frame| -> Vec<usize> {
            frame.sort_rest();
            (0..frame.moves.len()).map(|n| frame.nth(n)).collect()
        };
        // Free choice (English): the most pieces first, ties in list order.
        let mut frame = captures();
        ordering.order(&mut frame, None, 1, false);
        assert_eq!(tried(&mut frame), vec![1, 3, 2, 0]);
        // A priority rule lists captures of one size only: they keep the list's order.
        let mut frame = captures();
        ordering.order(&mut frame, None, 1, true);
        assert_eq!(tried(&mut frame), vec![0, 1, 2, 3]);
        // The table's move first either way.
        let mut frame = captures();
        ordering.order(&mut frame, Some(2), 1, true);
        assert_eq!(tried(&mut frame), vec![2, 0, 1, 3]);
        let mut frame = captures();
        ordering.order(&mut frame, Some(0), 1, false);
        assert_eq!(tried(&mut frame), vec![0, 1, 3, 2]);
    }

    proptest::proptest! {
        /// The two highest put in front, then the rest sorted, give the order of one stable
        /// sort of the moves by class (the table's move, the first killer, the second, then
        /// history), ties in list order.
        #[test]
        fn the_order_is_one_stable_sort_by_class_and_history(
            pairs in proptest::collection::vec((0u8..50, 0u8..50), 1..40),
            rewards in proptest::collection::vec((0usize..40, -400i32..400), 0..30),
            tt in proptest::option::of(0usize..45),
            killers in (0usize..45, 0usize..45),
        ) {
            let mut frame = Frame::new();
            for &(from, to) in &pairs {
                frame.moves.push(Move::quiet(u32::from(from), u32::from(to), 5));
            }
            let mut ordering = MoveOrdering::new(2);
            for &(i, bonus) in &rewards {
                if let Some(&(from, to)) = pairs.get(i) {
                    ordering.reward(from, to, bonus);
                }
            }
            // Killers from the list, or (an index past it) moves it does not hold.
            let killer = |i: usize| pairs.get(i).map_or(squares(60, 61 + i as u8 % 2), |&(f, t)| squares(f, t));
            let (k1, k2) = (killer(killers.0), killer(killers.1));
            if k1 != k2 {
                ordering.killers[1] = [k1, k2];
            }
            let [k1, k2] = ordering.killers[1];
            let class = |i: usize| {
                let (from, to) = pairs[i];
                if Some(i) == tt {
                    (3, 0)
                } else if squares(from, to) == k1 {
                    (2, 0)
                } else if squares(from, to) == k2 {
                    (1, 0)
                } else {
                    (0, ordering.history(from, to))
                }
            };
            let mut expected: Vec<usize> = (0..pairs.len()).collect();
            expected.sort_by_key(|&i| std::cmp::Reverse(class(i)));
            ordering.order(&mut frame, tt.filter(|&t| t < pairs.len()), 1, true);
            frame.sort_rest();
            let tried: Vec<usize> = (0..pairs.len()).map(|n| frame.nth(n)).collect();
            proptest::prop_assert_eq!(tried, expected);
        }
    }
}
