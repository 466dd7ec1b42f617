//! Static evaluation, per variant, from the side to move's point of view, in hundredths of a man.
//!
//! Every weight lives in [`Weights`]; the features read the position's bitboards directly.

use crate::rules::board::Position;
use crate::rules::geometry::{DL, DR, Geometry, UL, UR};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use std::sync::OnceLock;

/// The weights of the evaluation terms for one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per row a man has advanced, by row (index 0 = own back row).
    pub advance: [i32; 10],
    /// A man on one of the central files.
    pub centre: i32,
    /// A man left on its own back row (guarding against promotion) while the opponent has men.
    pub back_guard: i32,
    /// A man in the middle of the board with both squares behind it held by its own men.
    pub outpost: i32,
    /// A man with nothing in front of it that can stop it, by rows left to promotion (1, 2, 3).
    pub runaway: [i32; 3],
    /// Per square a king can move to.
    pub king_mobility: i32,
    /// Per man of difference between the two wings.
    pub imbalance: i32,
    /// Having the move (a small tempo bonus).
    pub tempo: i32,
}

/// The weights for a variant.
pub fn weights(variant: Variant) -> Weights {
    match variant {
        Variant::International => Weights {
            man: 100,
            king: 300,
            advance: [0, 1, 2, 3, 5, 7, 9, 12, 16, 0],
            centre: 4,
            back_guard: 4,
            outpost: 6,
            runaway: [120, 80, 45],
            king_mobility: 2,
            imbalance: 3,
            tempo: 2,
        },
        Variant::Frisian => Weights {
            man: 100,
            king: 350,
            advance: [0, 1, 2, 3, 5, 7, 9, 12, 16, 0],
            centre: 4,
            back_guard: 4,
            outpost: 5,
            runaway: [140, 90, 50],
            king_mobility: 3,
            imbalance: 2,
            tempo: 2,
        },
        Variant::English => Weights {
            man: 100,
            king: 150,
            advance: [0, 2, 3, 5, 7, 9, 12, 0, 0, 0],
            centre: 5,
            back_guard: 8,
            outpost: 4,
            runaway: [60, 40, 25],
            king_mobility: 2,
            imbalance: 2,
            tempo: 2,
        },
    }
}

/// Row (0 at the top) and file of every bit, per board.
struct Layout {
    row: [u8; 64],
    file: [u8; 64],
}

fn layout(g: &'static Geometry) -> &'static Layout {
    static TEN: OnceLock<Layout> = OnceLock::new();
    static EIGHT: OnceLock<Layout> = OnceLock::new();
    let cell = if g.width == 5 { &TEN } else { &EIGHT };
    cell.get_or_init(|| {
        let mut l = Layout {
            row: [0; 64],
            file: [0; 64],
        };
        for bit in 0..64 {
            let n = g.number_of[bit];
            if n != 0 {
                let (r, f) = g.coords_of_number(n);
                l.row[bit] = r as u8;
                l.file[bit] = f as u8;
            }
        }
        l
    })
}

fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            i
        })
    })
}

/// The evaluation terms of one side, from its own point of view.
fn side_score(pos: &Position, color: Color, w: &Weights) -> i32 {
    let g = pos.variant().geometry();
    let l = layout(g);
    let n = (g.width * 2) as usize;
    let (own, other) = match color {
        Color::White => (pos.white, pos.black),
        Color::Black => (pos.black, pos.white),
    };
    let occupied = pos.white | pos.black;
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let other_men = other & !pos.kings;
    // "Forward" directions and rows counted from this side's back row.
    let (fwd, back) = match color {
        Color::White => ([UL, UR], [DL, DR]),
        Color::Black => ([DL, DR], [UL, UR]),
    };
    let advanced = |bit: usize| -> usize {
        let r = l.row[bit] as usize;
        match color {
            Color::White => n - 1 - r,
            Color::Black => r,
        }
    };
    let mut s = men.count_ones() as i32 * w.man + kings.count_ones() as i32 * w.king;
    let (mut left, mut right) = (0i32, 0i32);
    for bit in bits(men) {
        let adv = advanced(bit);
        s += w.advance[adv.min(9)];
        let file = l.file[bit] as usize;
        if (2..n - 2).contains(&file) {
            s += w.centre;
        }
        if file < n / 2 {
            left += 1;
        } else {
            right += 1;
        }
        if adv == 0 && other_men != 0 {
            s += w.back_guard;
        }
        let behind = back.iter().map(|&d| g.step[d][bit]).fold(0, |a, b| a | b);
        if (3..=5).contains(&adv)
            && behind != 0
            && behind & men == behind
            && behind.count_ones() == 2
        {
            s += w.outpost;
        }
        // A runaway: every square of its forward cone up to promotion is empty of opponents and
        // the squares directly ahead are free.
        let to_go = n - 1 - adv;
        if (1..=3).contains(&to_go) {
            let mut cone = 1u64 << bit;
            let mut blocked = false;
            for _ in 0..to_go {
                let mut next = 0u64;
                for b in bits(cone) {
                    for &d in &fwd {
                        next |= g.step[d][b];
                    }
                }
                if next & other != 0 || next == 0 {
                    blocked = true;
                    break;
                }
                cone = next;
            }
            let ahead = fwd.iter().map(|&d| g.step[d][bit]).fold(0, |a, b| a | b);
            if !blocked && ahead & !occupied != 0 {
                s += w.runaway[to_go - 1];
            }
        }
    }
    s -= (left - right).abs() * w.imbalance;
    if kings != 0 {
        let mut mobility = 0;
        for bit in bits(kings) {
            for d in [UL, UR, DL, DR] {
                let mut b = g.step[d][bit];
                while b != 0 && b & occupied == 0 {
                    mobility += 1;
                    if !pos.variant().rules().flying_kings {
                        break;
                    }
                    b = g.step[d][b.trailing_zeros() as usize];
                }
            }
        }
        s += mobility * w.king_mobility;
    }
    s
}

/// The position's value for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let w = weights(pos.variant());
    let us = pos.side_to_move();
    side_score(pos, us, &w) - side_score(pos, us.opposite(), &w) + w.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

    fn eval(v: Variant, fen: &str) -> i32 {
        evaluate(&parse_fen(fen, v).unwrap())
    }

    #[test]
    fn the_start_is_level_and_colour_symmetric() {
        for v in Variant::ALL {
            let start = Position::start(v);
            let e = evaluate(&start);
            assert_eq!(e, weights(v).tempo, "{v}");
            assert_eq!(evaluate(&start.flipped()), e, "{v}");
        }
    }

    #[test]
    fn material_and_kings_count() {
        let v = Variant::International;
        assert!(eval(v, "W:W31,32:B19") > eval(v, "W:W31:B19,20"));
        assert!(eval(v, "W:WK31:B19") > eval(v, "W:W31:B19"));
        // A king is worth several men.
        assert!(eval(v, "W:WK46:B1,2") > 0);
    }

    #[test]
    fn a_runaway_man_is_worth_more_than_a_blocked_one() {
        let v = Variant::International;
        // White man on 7 (one row from promotion) with nothing ahead, against one on 16 blocked.
        assert!(eval(v, "W:W7:B45") > eval(v, "W:W17:B45,1,2"));
        assert!(eval(v, "W:W7:B45") > eval(v, "W:W37:B45"));
    }

    #[test]
    fn flipping_colours_keeps_the_value() {
        for (v, fen) in [
            (Variant::International, "W:W31,32,33,K40:B10,12,19"),
            (Variant::English, "B:W21,22,K30:B5,9,K14"),
            (Variant::Frisian, "W:W28,K46:B3,4,K20"),
        ] {
            let p = parse_fen(fen, v).unwrap();
            assert_eq!(evaluate(&p), evaluate(&p.flipped()), "{v} {fen}");
        }
    }
}
