//! Board geometry shared by all variants: the padded bit layout, direction shifts and masks.
//!
//! Both boards (10×10 and 8×8) use the same layout. The dark squares are numbered row by row from
//! the top, `w` squares to a row (5 or 4); bit `i + i / (2w)` holds square number `i + 1`, so one
//! unused "ghost" bit follows every pair of rows. With that padding each direction is one constant
//! shift for every square: a diagonal step is `w` or `w + 1` bits, a vertical step (two rows, one
//! dark square) `2w + 1`, a horizontal step (two files, one dark square) 1. Masks of the squares
//! that have a neighbour in a direction keep shifts from wrapping round the board edge.
#![forbid(unsafe_code)]

/// Number of directions: four diagonals, then vertical and horizontal (used by Frisian captures).
pub const DIRECTIONS: usize = 8;

/// Up-left (towards square 1 and the left edge, seen from White).
pub const UL: usize = 0;
/// Up-right.
pub const UR: usize = 1;
/// Down-left.
pub const DL: usize = 2;
/// Down-right.
pub const DR: usize = 3;
/// Up two rows, same file.
pub const UP: usize = 4;
/// Down two rows, same file.
pub const DOWN: usize = 5;
/// Left two files, same row.
pub const LEFT: usize = 6;
/// Right two files, same row.
pub const RIGHT: usize = 7;

/// Whether `d` is one of the four diagonal directions (the first four).
#[inline(always)]
pub const fn is_diagonal(d: usize) -> bool {
    d < 4
}

/// Whether a step in direction `d` goes to a higher bit (down the board, or right).
#[inline(always)]
const fn towards_higher_bits(d: usize) -> bool {
    matches!(d, DL | DR | DOWN | RIGHT)
}

/// The opposite of each direction.
pub const REVERSE: [usize; DIRECTIONS] = [DR, DL, UR, UL, DOWN, UP, RIGHT, LEFT];

/// Row and file change of one step in each direction (rows grow downwards, files to the right).
const DELTA: [(i32, i32); DIRECTIONS] = [
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
    (-2, 0),
    (2, 0),
    (0, -2),
    (0, 2),
];

/// Layout tables of one board size.
#[derive(Debug)]
pub struct Geometry {
    /// Dark squares per row (5 on 10×10, 4 on 8×8).
    pub width: u32,
    /// Number of playable squares.
    pub squares: u32,
    /// Bits that are squares of the board.
    pub board: u64,
    /// Bit shift of one step in each direction (negative: towards square 1).
    pub offset: [i32; DIRECTIONS],
    /// Squares that have a neighbour in each direction.
    pub can_step: [u64; DIRECTIONS],
    /// The top row (White's promotion row) and the bottom row (Black's).
    pub top_row: u64,
    /// The bottom row.
    pub bottom_row: u64,
    /// Bit index of square number `n` (index 0 unused).
    pub bit_of: [u8; 51],
    /// Square number of each bit (0 for ghost bits and bits beyond the board).
    pub number_of: [u8; 64],
    /// For each direction and bit: the neighbouring square's bit (0 off the board).
    pub step: [[u64; 64]; DIRECTIONS],
    /// For each direction and bit: the bit two steps away (a jump's landing square).
    pub jump: [[u64; 64]; DIRECTIONS],
    /// For each bit: its diagonal neighbours, and all eight neighbours.
    pub around: [[u64; 64]; 2],
    /// For each direction and bit: every square beyond it that way, up to the edge.
    pub ray: [[u64; 64]; DIRECTIONS],
}

const fn coords(index: u32, w: u32) -> (i32, i32) {
    let row = index / w;
    let col = index % w;
    let file = if row.is_multiple_of(2) {
        2 * col + 1
    } else {
        2 * col
    };
    (row as i32, file as i32)
}

const fn index_at(row: i32, file: i32, w: u32) -> Option<u32> {
    let size = 2 * w as i32;
    if row < 0 || file < 0 || row >= size || file >= size || (row + file) % 2 == 0 {
        return None;
    }
    Some(row as u32 * w + file as u32 / 2)
}

const fn bit_index(index: u32, w: u32) -> u32 {
    index + index / (2 * w)
}

impl Geometry {
    /// Builds the tables for a board with `w` dark squares per row.
    pub const fn new(w: u32) -> Geometry {
        let squares = 2 * w * w;
        let mut board = 0u64;
        let mut can_step = [0u64; DIRECTIONS];
        let mut top_row = 0u64;
        let mut bottom_row = 0u64;
        let mut bit_of = [0u8; 51];
        let mut number_of = [0u8; 64];
        let mut step = [[0u64; 64]; DIRECTIONS];
        let mut jump = [[0u64; 64]; DIRECTIONS];
        let mut around = [[0u64; 64]; 2];
        let mut ray = [[0u64; 64]; DIRECTIONS];
        let mut i = 0;
        while i < squares {
            let bit = bit_index(i, w);
            board |= 1 << bit;
            bit_of[i as usize + 1] = bit as u8;
            number_of[bit as usize] = i as u8 + 1;
            let (row, file) = coords(i, w);
            if row == 0 {
                top_row |= 1 << bit;
            }
            if row == 2 * w as i32 - 1 {
                bottom_row |= 1 << bit;
            }
            let mut d = 0;
            while d < DIRECTIONS {
                let (dr, df) = DELTA[d];
                if let Some(n) = index_at(row + dr, file + df, w) {
                    can_step[d] |= 1 << bit;
                    step[d][bit as usize] = 1 << bit_index(n, w);
                    if is_diagonal(d) {
                        around[0][bit as usize] |= 1 << bit_index(n, w);
                    }
                    around[1][bit as usize] |= 1 << bit_index(n, w);
                }
                if let Some(n) = index_at(row + 2 * dr, file + 2 * df, w) {
                    jump[d][bit as usize] = 1 << bit_index(n, w);
                }
                let mut k = 1;
                while let Some(n) = index_at(row + k * dr, file + k * df, w) {
                    ray[d][bit as usize] |= 1 << bit_index(n, w);
                    k += 1;
                }
                d += 1;
            }
            i += 1;
        }
        let (wi, row2) = (w as i32, 2 * w as i32 + 1);
        Geometry {
            width: w,
            squares,
            board,
            offset: [-(wi + 1), -wi, wi, wi + 1, -row2, row2, -1, 1],
            can_step,
            top_row,
            bottom_row,
            bit_of,
            number_of,
            step,
            jump,
            around,
            ray,
        }
    }

    /// Moves every bit of `b` one step in direction `d`, dropping bits that would leave the board.
    #[inline(always)]
    pub fn shift(&self, b: u64, d: usize) -> u64 {
        self.step_bits(b & self.can_step[d], d)
    }

    /// Moves every bit of `b` one step in the diagonal direction `d` without the edge mask: a
    /// bit that leaves the board lands on a ghost bit or past the board's bits, never on a square
    /// (the layout's ghost bit after every pair of rows is there for that), so the result taken
    /// with a set of squares is [`Geometry::shift`]'s. For the capture test, which every node
    /// runs and whose every result is taken with such a set.
    #[inline(always)]
    pub fn shift_diagonal(&self, b: u64, d: usize) -> u64 {
        debug_assert!(is_diagonal(d), "a diagonal direction");
        self.step_bits(b, d)
    }

    /// Every bit of `b` moved by direction `d`'s offset, wherever it lands.
    #[inline(always)]
    fn step_bits(&self, b: u64, d: usize) -> u64 {
        let off = self.offset[d];
        // The sign told by the direction, not read from the table: with a direction known where
        // the shift is written, the branch goes, even on a board known only at run time.
        if towards_higher_bits(d) {
            b << off
        } else {
            b >> -off
        }
    }

    /// What a flying piece on bit `at` sees in direction `d` among the `occupied` squares: the
    /// empty squares up to the first occupied one, and that square (0 when the ray meets none).
    /// One look-up and a bit scan instead of a step per square: kings cross the board.
    #[inline(always)]
    pub fn sight(&self, at: u32, d: usize, occupied: u64) -> (u64, u64) {
        let ray = self.ray[d][at as usize];
        let blockers = ray & occupied;
        if blockers == 0 {
            return (ray, 0);
        }
        // Directions with a positive offset run towards higher bits: their nearest blocker is
        // the lowest.
        let first = if towards_higher_bits(d) {
            blockers.trailing_zeros()
        } else {
            63 - blockers.leading_zeros()
        };
        let hit = 1u64 << first;
        (ray & !(self.ray[d][first as usize] | hit), hit)
    }

    /// The empty squares a flying piece on bit `at` sees in direction `d` among the `occupied`
    /// squares: [`Geometry::sight`]'s first half without its branch, for counting a king's
    /// moves, where whether a ray is blocked is as good as a coin toss to the processor. The
    /// squares short of the nearest blocker are those below its bit (above it, for a ray
    /// towards lower bits), taken by a mask made from that bit alone; with no blocker the mask
    /// is every bit (a shift by 0). A blocker's bit is never the top one (no board reaches it,
    /// checked below the boards), so no shift is by 64.
    #[inline(always)]
    pub fn seen(&self, at: u32, d: usize, occupied: u64) -> u64 {
        let ray = self.ray[d][at as usize];
        let blockers = ray & occupied;
        if towards_higher_bits(d) {
            ray & (blockers & blockers.wrapping_neg()).wrapping_sub(1)
        } else {
            ray & u64::MAX.wrapping_shl(64 - blockers.leading_zeros())
        }
    }

    /// The first of the `occupied` squares a flying piece on bit `at` meets in direction `d`
    /// (0 when the ray meets none): [`Geometry::sight`]'s second half without its branch, for
    /// the capture search, where whether a ray is blocked is as good as a coin toss to the
    /// processor.
    #[inline(always)]
    pub fn first_hit(&self, at: u32, d: usize, occupied: u64) -> u64 {
        let blockers = self.ray[d][at as usize] & occupied;
        if towards_higher_bits(d) {
            blockers & blockers.wrapping_neg()
        } else {
            // With no blocker the shift is by 0 (64 masked to 6 bits) and the mask takes the
            // top bit away again.
            (1u64 << 63 >> (blockers.leading_zeros() & 63)) & blockers
        }
    }

    /// The simple moves of the `kings` among the `occupied` squares: every empty square each
    /// sees along the four diagonals when they fly, else the empty neighbours.
    #[inline(always)]
    pub fn king_moves(&self, kings: u64, occupied: u64, flying: bool) -> u32 {
        if !flying {
            let empty = self.board & !occupied;
            return [UL, UR, DL, DR]
                .into_iter()
                .map(|d| (self.shift(kings, d) & empty).count_ones())
                .sum();
        }
        let (mut pieces, mut n) = (kings, 0);
        while pieces != 0 {
            let at = pieces.trailing_zeros();
            pieces &= pieces - 1;
            for d in [UL, UR, DL, DR] {
                n += self.seen(at, d, occupied).count_ones();
            }
        }
        n
    }

    /// The board turned half round: square `n` goes to square `squares + 1 - n`. The padded layout
    /// is symmetric under that turn, so it is a bit reversal and one shift.
    #[inline(always)]
    pub fn flip(&self, b: u64) -> u64 {
        b.reverse_bits() >> (63 - self.bit_of[self.squares as usize] as u32)
    }

    /// Row (0 at the top) and file (0 at the left) of a square number.
    pub fn coords_of_number(&self, number: u8) -> (u32, u32) {
        let (r, f) = coords(number as u32 - 1, self.width);
        (r as u32, f as u32)
    }

    /// Square number at a row and file, if that is a dark square of the board.
    pub fn number_at(&self, row: u32, file: u32) -> Option<u8> {
        index_at(row as i32, file as i32, self.width).map(|i| i as u8 + 1)
    }
}

/// The 10×10 board (International and Frisian).
pub const BOARD10: Geometry = Geometry::new(5);
/// The 8×8 board (English).
pub const BOARD8: Geometry = Geometry::new(4);

// [`Geometry::seen`] needs every board's top bit (63) off the board.
const _: () = assert!(BOARD10.board >> 63 == 0 && BOARD8.board >> 63 == 0);

#[cfg(test)]
mod tests {
    use super::*;

    fn check(g: &Geometry) {
        let w = g.width;
        assert_eq!(g.board.count_ones(), g.squares);
        for n in 1..=g.squares as u8 {
            let bit = g.bit_of[n as usize];
            assert_eq!(g.number_of[bit as usize], n);
            let (row, file) = g.coords_of_number(n);
            let turned = g.bit_of[g.squares as usize + 1 - n as usize];
            assert_eq!(g.flip(1 << bit), 1 << turned, "square {n} turned");
            for (d, delta) in DELTA.iter().enumerate() {
                let target = index_at(row as i32 + delta.0, file as i32 + delta.1, w);
                let shifted = g.shift(1 << bit, d);
                match target {
                    Some(i) => assert_eq!(shifted, 1 << bit_index(i, w), "square {n} dir {d}"),
                    None => assert_eq!(shifted, 0, "square {n} dir {d} should leave the board"),
                }
                assert_eq!(g.step[d][bit as usize], shifted);
                if is_diagonal(d) {
                    assert_eq!(
                        g.shift_diagonal(1 << bit, d) & g.board,
                        shifted,
                        "square {n} dir {d} unmasked"
                    );
                }
                assert_eq!(g.jump[d][bit as usize], g.shift(shifted, d));
                let mut beyond = 0;
                let mut at = shifted;
                while at != 0 {
                    beyond |= at;
                    at = g.shift(at, d);
                }
                assert_eq!(g.ray[d][bit as usize], beyond, "square {n} ray {d}");
            }
        }
    }

    #[test]
    fn sight_stops_at_the_first_occupied_square() {
        // Occupancies from a fixed xorshift sequence, each checked against stepping square by
        // square from every square in every direction.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for g in [&BOARD10, &BOARD8] {
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occupied = x & (x >> 3) & g.board;
                for n in 1..=g.squares as usize {
                    let at = u32::from(g.bit_of[n]);
                    for d in 0..DIRECTIONS {
                        let (mut seen, mut hit) = (0, 0);
                        let mut sq = g.shift(1 << at, d);
                        while sq != 0 {
                            if sq & occupied != 0 {
                                hit = sq;
                                break;
                            }
                            seen |= sq;
                            sq = g.shift(sq, d);
                        }
                        assert_eq!(g.sight(at, d, occupied), (seen, hit), "square {n} dir {d}");
                        assert_eq!(g.first_hit(at, d, occupied), hit, "square {n} dir {d}");
                        assert_eq!(g.seen(at, d, occupied), seen, "square {n} dir {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_direction_is_one_shift_on_both_boards() {
        check(&BOARD10);
        check(&BOARD8);
    }

    #[test]
    fn numbering_follows_the_rule_texts() {
        // FMJD 2.6.2: left side 6-16-26-36-46, right side 5-15-25-35-45.
        for n in [6, 16, 26, 36, 46] {
            assert_eq!(BOARD10.coords_of_number(n).1, 0);
        }
        for n in [5, 15, 25, 35, 45] {
            assert_eq!(BOARD10.coords_of_number(n).1, 9);
        }
        // WCDF 1.4 / 1.11: the near left corner is a playing square, 32 is in the double corner.
        assert_eq!(BOARD8.coords_of_number(29), (7, 0));
        assert_eq!(BOARD8.coords_of_number(32), (7, 6));
        assert_eq!(BOARD10.number_at(9, 0), Some(46));
        assert_eq!(BOARD10.number_at(9, 1), None);
    }
}
