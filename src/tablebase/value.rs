//! Values of tablebase positions, and their compact codes.

use std::fmt;

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses against best play.
    Loss,
}

impl Wdl {
    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Win, draw or loss with the distance to the end of the game in plies (half-moves), for the side
/// to move: the winner ends the game as fast as it can, the loser as late as it can. A loss in 0
/// plies is a position with no legal move; wins always take an odd number of plies, losses an even
/// number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtw {
    /// The side to move wins; the opponent is left without a move after this many plies.
    Win(u32),
    /// A draw with best play.
    Draw,
    /// The side to move loses; it is left without a move after this many plies.
    Loss(u32),
}

impl Dtw {
    /// The result without the distance.
    pub fn wdl(self) -> Wdl {
        match self {
            Dtw::Win(_) => Wdl::Win,
            Dtw::Draw => Wdl::Draw,
            Dtw::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to the end of the game (0 for a draw).
    pub fn plies(self) -> u32 {
        match self {
            Dtw::Win(p) | Dtw::Loss(p) => p,
            Dtw::Draw => 0,
        }
    }

    /// The value of the position before the move that reached this one (played by the opponent
    /// of this position's side to move).
    pub fn before(self) -> Dtw {
        match self {
            Dtw::Win(p) => Dtw::Loss(p + 1),
            Dtw::Draw => Dtw::Draw,
            Dtw::Loss(p) => Dtw::Win(p + 1),
        }
    }

    /// Orders values from the side to move's view: quick wins first, long losses before quick
    /// ones. Larger is better.
    pub fn preference(self) -> i64 {
        match self {
            Dtw::Win(p) => i64::MAX / 2 - p as i64,
            Dtw::Draw => 0,
            Dtw::Loss(p) => -(i64::MAX / 2) + p as i64,
        }
    }

    /// The code stored in a DTW file: 0 for a draw, else plies + 1.
    pub(crate) fn code(self) -> u16 {
        match self {
            Dtw::Draw => 0,
            Dtw::Win(p) | Dtw::Loss(p) => p as u16 + 1,
        }
    }

    /// The value of a DTW file code (the parity of the plies tells a win from a loss).
    pub(crate) fn from_code(code: u16) -> Dtw {
        match code {
            0 => Dtw::Draw,
            c if (c - 1) % 2 == 1 => Dtw::Win(c as u32 - 1),
            c => Dtw::Loss(c as u32 - 1),
        }
    }
}

impl fmt::Display for Dtw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result={} dtw={}", self.wdl(), self.plies())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order() {
        for v in [
            Dtw::Draw,
            Dtw::Loss(0),
            Dtw::Win(1),
            Dtw::Loss(8),
            Dtw::Win(201),
        ] {
            assert_eq!(Dtw::from_code(v.code()), v);
        }
        assert!(Dtw::Win(1).preference() > Dtw::Win(3).preference());
        assert!(Dtw::Win(99).preference() > Dtw::Draw.preference());
        assert!(Dtw::Draw.preference() > Dtw::Loss(40).preference());
        assert!(Dtw::Loss(40).preference() > Dtw::Loss(2).preference());
        assert_eq!(Dtw::Loss(0).before(), Dtw::Win(1));
    }
}
