//! Squares and the position: who stands where and who is to move.
#![forbid(unsafe_code)]

use crate::rules::geometry::Geometry;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::variant::Variant;
use std::fmt;

/// A playable square, numbered as the rule texts do (1..=50 on 10×10, 1..=32 on 8×8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this number, if the variant's board has it.
    pub fn new(number: u32, variant: Variant) -> Option<Square> {
        (1..=variant.geometry().squares)
            .contains(&number)
            .then_some(Square(number as u8))
    }

    /// Its number.
    #[inline]
    pub fn number(self) -> u8 {
        self.0
    }

    pub(crate) fn from_bit(bit: u8, geometry: &Geometry) -> Square {
        Square(geometry.number_of[bit as usize])
    }

    pub(crate) fn bit(self, geometry: &Geometry) -> u64 {
        1u64 << geometry.bit_of[self.0 as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Frisian Article 17 bookkeeping: the king that made the latest simple moves of one side, and how
/// many in a row. Zero everywhere in the other variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct KingRun {
    pub(crate) bit: u8,
    pub(crate) count: u8,
}

/// A position: pieces, side to move, and the per-side state some rules need.
///
/// Built only from a validated [`Setup`] (or FEN), so it always satisfies the variant's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
    pub(crate) side: Color,
    pub(crate) variant: Variant,
    pub(crate) king_run: [KingRun; 2],
}

/// Why a setup is not a position of its variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A square number the board does not have.
    #[error("square {square} is not on the {variant} board (1-{max})")]
    SquareOutOfRange {
        /// The number given.
        square: u32,
        /// The variant.
        variant: Variant,
        /// The highest square number.
        max: u32,
    },
    /// A square given a piece twice.
    #[error("square {0} is given twice")]
    SquareTwice(u32),
    /// More pieces than a side has in the game.
    #[error("{color} has {count} pieces, more than the {max} of the game")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// Its pieces.
        count: u32,
        /// The limit.
        max: u32,
    },
}

/// A position under construction: pieces placed one by one, then validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant whose board and rules apply.
    pub variant: Variant,
    /// The side to move.
    pub side_to_move: Color,
    /// Pieces by square number.
    pub pieces: Vec<(u32, Piece)>,
}

impl Setup {
    /// Validates the setup into a position.
    pub fn into_position(self) -> Result<Position, SetupError> {
        let geometry = self.variant.geometry();
        let mut pos = Position {
            white: 0,
            black: 0,
            kings: 0,
            side: self.side_to_move,
            variant: self.variant,
            king_run: [KingRun::default(); 2],
        };
        for (number, piece) in self.pieces {
            let square = Square::new(number, self.variant).ok_or(SetupError::SquareOutOfRange {
                square: number,
                variant: self.variant,
                max: geometry.squares,
            })?;
            let bit = square.bit(geometry);
            if (pos.white | pos.black) & bit != 0 {
                return Err(SetupError::SquareTwice(number));
            }
            match piece.color {
                Color::White => pos.white |= bit,
                Color::Black => pos.black |= bit,
            }
            if piece.kind == Kind::King {
                pos.kings |= bit;
            }
        }
        let max = self.variant.rules().pieces_per_side;
        for color in [Color::White, Color::Black] {
            let count = pos.side_bits(color).count_ones();
            if count > max {
                return Err(SetupError::TooManyPieces { color, count, max });
            }
        }
        Ok(pos)
    }
}

impl Position {
    /// The starting position of a variant.
    pub fn start(variant: Variant) -> Position {
        let g = variant.geometry();
        let rows = variant.rules().pieces_per_side / g.width;
        let mut black = 0;
        let mut white = 0;
        for n in 1..=rows * g.width {
            black |= 1u64 << g.bit_of[n as usize];
            white |= 1u64 << g.bit_of[(g.squares + 1 - n) as usize];
        }
        Position {
            white,
            black,
            kings: 0,
            side: variant.rules().first_player,
            variant,
            king_run: [KingRun::default(); 2],
        }
    }

    /// The variant whose rules apply.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub(crate) fn side_bits(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        if square.number() as u32 > self.variant.geometry().squares {
            return None;
        }
        let bit = square.bit(self.variant.geometry());
        let color = if self.white & bit != 0 {
            Color::White
        } else if self.black & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings & bit != 0 {
            Kind::King
        } else {
            Kind::Man
        };
        Some(Piece { color, kind })
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (1..=self.variant.geometry().squares as u8).filter_map(move |n| {
            let square = Square(n);
            self.piece_at(square).map(|p| (square, p))
        })
    }

    /// Number of pieces on the board.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        (self.white | self.black).count_ones()
    }

    /// Number of pieces of a colour and kind.
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        let side = self.side_bits(color);
        match kind {
            Kind::King => (side & self.kings).count_ones(),
            Kind::Man => (side & !self.kings).count_ones(),
        }
    }

    /// The same position seen from the other side: the board turned half round, colours swapped.
    /// Only defined for variants where both colours' rules are mirror images, which all three are.
    pub fn flipped(&self) -> Position {
        let g = self.variant.geometry();
        let turn = |b: u64| g.flip(b);
        let mut run = [KingRun::default(); 2];
        for (i, r) in self.king_run.iter().enumerate() {
            if r.count > 0 {
                run[1 - i] = KingRun {
                    bit: turn(1u64 << r.bit).trailing_zeros() as u8,
                    count: r.count,
                };
            }
        }
        Position {
            white: turn(self.black),
            black: turn(self.white),
            kings: turn(self.kings),
            side: self.side.opposite(),
            variant: self.variant,
            king_run: run,
        }
    }

    /// The Frisian Article 17 count of the side's king: its square and its consecutive simple
    /// moves, if it has made any.
    pub fn king_run(&self, color: Color) -> Option<(Square, u8)> {
        let run = self.king_run[color.index()];
        (run.count > 0).then(|| {
            (
                Square::from_bit(run.bit, self.variant.geometry()),
                run.count,
            )
        })
    }
}

impl fmt::Display for Position {
    /// A text diagram: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.variant.geometry();
        let size = 2 * g.width;
        for row in 0..size {
            for file in 0..size {
                let c = match g.number_at(row, file) {
                    None => ' ',
                    Some(n) => self.piece_at(Square(n)).map_or('.', Piece::letter),
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}
