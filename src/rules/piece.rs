//! Colours and pieces.
#![forbid(unsafe_code)]

use std::fmt;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Light pieces: squares 31–50 (10×10) or 21–32 (8×8) at the start.
    White,
    /// Dark pieces: squares 1–20 (10×10) or 1–12 (8×8) at the start.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `W` or `B`, as FEN writes it.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An uncrowned piece.
    Man,
    /// A crowned piece.
    King,
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// The piece's letter in diagrams and Hub positions: `w b` for men, `W B` for kings.
    pub fn letter(self) -> char {
        match (self.color, self.kind) {
            (Color::White, Kind::Man) => 'w',
            (Color::Black, Kind::Man) => 'b',
            (Color::White, Kind::King) => 'W',
            (Color::Black, Kind::King) => 'B',
        }
    }
}
