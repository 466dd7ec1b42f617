//! Moves and fixed-capacity move lists.
#![forbid(unsafe_code)]

use crate::rules::board::Square;
use crate::rules::geometry::{BOARD8, BOARD10, Geometry};

/// Most landing squares a capture can have before its last: one side has at most 20 pieces, so a
/// capture takes at most 20 and stops on at most 19 squares between its start and its end.
pub const MAX_PATH: usize = 20;

/// Capacity of a [`MoveList`]. A side has at most 20 pieces; a flying king has at most 17 simple
/// moves, so simple moves stay below 340; the distinct captures of one position stay far below.
pub const MAX_MOVES: usize = 512;

/// A move: from, to, the squares it lands on between, and the pieces it captures.
///
/// Only move generation builds moves, so a `Move` is always legal in the position it came from.
/// Two capture routes with the same start, end and captured set are the same move.
#[derive(Clone, Copy)]
pub struct Move {
    pub(crate) captured: u64,
    pub(crate) from: u8,
    pub(crate) to: u8,
    /// Dark squares per row of the board the move belongs to, to turn bits into square numbers.
    pub(crate) width: u8,
    pub(crate) path_len: u8,
    /// The landings in `path[..path_len]`; what follows is unspecified and never read.
    pub(crate) path: [u8; MAX_PATH],
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let route: Vec<String> = self.route().iter().map(Square::to_string).collect();
        let sep = if self.is_capture() { "x" } else { "-" };
        write!(f, "Move({}", route.join(sep))?;
        if self.is_capture() {
            let taken: Vec<String> = self.captured().iter().map(Square::to_string).collect();
            write!(f, " takes {}", taken.join(","))?;
        }
        write!(f, ")")
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured).hash(state);
    }
}

impl Move {
    #[inline(always)]
    pub(crate) fn quiet(from: u32, to: u32, width: u32) -> Move {
        Move {
            captured: 0,
            from: from as u8,
            to: to as u8,
            width: width as u8,
            path_len: 0,
            path: [0; MAX_PATH],
        }
    }

    fn geometry(&self) -> &'static Geometry {
        if self.width == 5 { &BOARD10 } else { &BOARD8 }
    }

    /// The square the piece starts on.
    pub fn from(&self) -> Square {
        Square::from_bit(self.from, self.geometry())
    }

    /// The square the piece ends on (equal to `from` for a capture round a loop).
    pub fn to(&self) -> Square {
        Square::from_bit(self.to, self.geometry())
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Number of pieces captured.
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The squares of the captured pieces, in square order.
    pub fn captured(&self) -> Vec<Square> {
        let g = self.geometry();
        let mut out = Vec::with_capacity(self.captured.count_ones() as usize);
        let mut rest = self.captured;
        while rest != 0 {
            out.push(Square::from_bit(rest.trailing_zeros() as u8, g));
            rest &= rest - 1;
        }
        out.sort();
        out
    }

    /// The squares the piece stops on between `from` and `to`, in order: at a change of direction
    /// the turning square, otherwise the square just behind a captured piece.
    pub fn landings(&self) -> Vec<Square> {
        let g = self.geometry();
        self.path[..self.path_len as usize]
            .iter()
            .map(|&b| Square::from_bit(b, g))
            .collect()
    }

    /// `from`, the landings and `to`: every square the piece stops on.
    pub fn route(&self) -> Vec<Square> {
        let mut squares = vec![self.from()];
        squares.extend(self.landings());
        squares.push(self.to());
        squares
    }
}

/// A list of moves with a fixed capacity, filled without allocating.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::quiet(0, 0, 5); MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        // MAX_MOVES bounds the moves of any position of at most 20 pieces a side (see there).
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Adds a capture unless the same move (same from, to and captured set) is already listed.
    #[inline]
    pub(crate) fn push_capture(&mut self, mv: Move) {
        if !self.as_slice().contains(&mv) {
            self.push(mv);
        }
    }

    /// Keeps the moves `keep` accepts, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
