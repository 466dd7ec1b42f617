//! What the evaluation sees of a position, read the same way when playing and when training.
//!
//! Each side is seen from its own point of view, moving up the board: the other side's pieces
//! are turned half round ([`Geometry::flip`]) so that one set of weights serves both. A side's
//! view gives a **pattern index** for every region of 4 × 4 squares (its 8 dark squares, each
//! empty, own man or opposing man: 3⁸ configurations; kings count as empty there and are valued
//! by the whole-board terms) and a handful of **whole-board terms** ([`Global`]).

use crate::rules::board::Position;
use crate::rules::geometry::{DL, DR, Geometry, UL, UR};
use crate::rules::piece::Color;
use std::sync::OnceLock;

/// Dark squares in one region.
pub const REGION_SQUARES: usize = 8;
/// Configurations of one region: each square empty, own man or opposing man.
pub const CONFIGURATIONS: usize = 6561;
/// The most regions a board has (28 on 10 × 10, 15 on 8 × 8).
pub const MAX_REGIONS: usize = 28;

/// The whole-board terms, counted for one side from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    /// Men.
    Man,
    /// Kings.
    King,
    /// Having at least one king (the first king is worth more than the next).
    FirstKing,
    /// Men one row from promotion that nothing can stop.
    Runaway1,
    /// Men two rows from promotion that nothing can stop.
    Runaway2,
    /// Men three rows from promotion that nothing can stop.
    Runaway3,
    /// Squares the kings can move to.
    KingMobility,
    /// Difference between the men on the two wings.
    Imbalance,
    /// Rows advanced, summed over the men.
    Advance,
    /// Forward steps the men have to empty squares.
    ManMoves,
    /// Men without a forward step.
    Frozen,
    /// Men, counted only when both sides have kings.
    MenAmongKings,
    /// Kings times the opposing men.
    KingsAgainstMen,
}

impl Global {
    /// Every term, in the order of the weights.
    pub const ALL: [Global; 13] = [
        Global::Man,
        Global::King,
        Global::FirstKing,
        Global::Runaway1,
        Global::Runaway2,
        Global::Runaway3,
        Global::KingMobility,
        Global::Imbalance,
        Global::Advance,
        Global::ManMoves,
        Global::Frozen,
        Global::MenAmongKings,
        Global::KingsAgainstMen,
    ];

    /// Its name in the weights' report.
    pub fn name(self) -> &'static str {
        match self {
            Global::Man => "man",
            Global::King => "king",
            Global::FirstKing => "first king",
            Global::Runaway1 => "runaway (1 row to go)",
            Global::Runaway2 => "runaway (2 rows)",
            Global::Runaway3 => "runaway (3 rows)",
            Global::KingMobility => "king mobility",
            Global::Imbalance => "wing imbalance",
            Global::Advance => "advance",
            Global::ManMoves => "man moves",
            Global::Frozen => "frozen men",
            Global::MenAmongKings => "men among kings",
            Global::KingsAgainstMen => "kings × opposing men",
        }
    }
}

/// Number of whole-board terms.
pub const GLOBALS: usize = Global::ALL.len();

/// One side's pieces, seen from its own side of the board (its men move towards row 0).
#[derive(Clone, Copy, Debug)]
pub struct View {
    men: u64,
    kings: u64,
    opp_men: u64,
    opp_kings: u64,
}

impl View {
    /// The position as `color` sees it.
    #[inline]
    pub fn of(pos: &Position, color: Color) -> View {
        let v = View::unturned(pos, color);
        match color {
            Color::White => v,
            Color::Black => {
                let g = pos.variant().geometry();
                View {
                    men: g.flip(v.men),
                    kings: g.flip(v.kings),
                    opp_men: g.flip(v.opp_men),
                    opp_kings: g.flip(v.opp_kings),
                }
            }
        }
    }

    /// `color`'s pieces and the other side's, the board as it stands.
    #[inline]
    fn unturned(pos: &Position, color: Color) -> View {
        let (own, opp) = match color {
            Color::White => (pos.white, pos.black),
            Color::Black => (pos.black, pos.white),
        };
        View {
            men: own & !pos.kings,
            kings: own & pos.kings,
            opp_men: opp & !pos.kings,
            opp_kings: opp & pos.kings,
        }
    }
}

/// The squares a side's whole-board terms count on, seen from the side's own end of the board:
/// read on the board as it stands, Black's terms then need no turned view (turning a board costs
/// four bit reversals).
struct Orientation {
    /// The rows one, two and three rows short of promotion.
    to_go: [u64; 3],
    /// Bit `k` of the rows a man has advanced, as squares: plane `k` holds the rows whose
    /// advance has bit `k` set, so the advance summed over the men is four bit counts.
    advance_planes: [u64; 4],
    /// The squares on the side's left half of the board.
    left: u64,
}

/// Where each region's squares are, and the masks the whole-board terms use, for one board.
pub struct Tables {
    /// Per region, the bit of its first square in each of its four rows (the second is the next
    /// bit: a region covers two neighbouring dark squares of a row).
    regions: Vec<[u8; 4]>,
    /// White's men's way up the board, and Black's down it.
    orientations: [Orientation; 2],
    /// Dark squares a row.
    width: usize,
    /// For a row's own men and opposing men (`own · 32 + opposing`, a bit per square of the
    /// row), the two-square ternary value (0–8) of each pair of neighbouring squares, pair `c`
    /// in bits `16c..16c + 16`: the regions' digits, four regions side by side in one word.
    pairs: Box<[u64; 1024]>,
    /// Per region, the region the other side sees on the same squares once the board is turned
    /// half round, and for each of that region's digits the digit of this one on its square.
    turned: Vec<(usize, [usize; REGION_SQUARES])>,
}

impl Tables {
    /// The tables of a board.
    pub fn of(g: &'static Geometry) -> &'static Tables {
        static TEN: OnceLock<Tables> = OnceLock::new();
        static EIGHT: OnceLock<Tables> = OnceLock::new();
        let cell = if g.width == 5 { &TEN } else { &EIGHT };
        cell.get_or_init(|| Tables::build(g))
    }

    fn build(g: &Geometry) -> Tables {
        let w = g.width as usize;
        let size = 2 * w;
        let mut regions = Vec::new();
        for top in 0..=size - 4 {
            for col in 0..=w - 2 {
                regions.push(std::array::from_fn(|k| (row_start(top + k, w) + col) as u8));
            }
        }
        let mut left = 0;
        let mut rows = vec![0u64; size];
        for n in 1..=g.squares as u8 {
            let bit = 1u64 << g.bit_of[n as usize];
            let (r, f) = g.coords_of_number(n);
            rows[r as usize] |= bit;
            if (f as usize) < w {
                left |= bit;
            }
        }
        let mut advance_planes = [0; 4];
        for (r, &row) in rows.iter().enumerate() {
            for (k, plane) in advance_planes.iter_mut().enumerate() {
                if (size - 1 - r) >> k & 1 == 1 {
                    *plane |= row;
                }
            }
        }
        let digit = |own: usize, opp: usize, col: usize| (own >> col & 1) + 2 * (opp >> col & 1);
        let pairs = Box::new(std::array::from_fn(|i| {
            let (own, opp) = (i >> 5, i & 31);
            (0..w - 1)
                .map(|c| ((digit(own, opp, c) + 3 * digit(own, opp, c + 1)) as u64) << (16 * c))
                .sum()
        }));
        let turned = regions
            .iter()
            .map(|starts| {
                let here = squares(starts);
                let there = here.map(|b| g.flip(1u64 << b).trailing_zeros() as u8);
                // The half turn maps the board's layout onto itself, so every region's squares
                // are another region's (the tests check it on every board).
                let q = regions
                    .iter()
                    .position(|s| {
                        let mut a = squares(s);
                        let mut b = there;
                        a.sort_unstable();
                        b.sort_unstable();
                        a == b
                    })
                    .expect("a turned region is a region");
                let theirs = squares(&regions[q]);
                let digits = std::array::from_fn(|e| {
                    there
                        .iter()
                        .position(|&b| b == theirs[e])
                        .expect("the same squares")
                });
                (q, digits)
            })
            .collect();
        let turn = |b: u64| g.flip(b);
        let orientations = [
            Orientation {
                to_go: [rows[1], rows[2], rows[3]],
                advance_planes,
                left,
            },
            Orientation {
                to_go: [1, 2, 3].map(|r| turn(rows[r])),
                advance_planes: advance_planes.map(turn),
                left: turn(left),
            },
        ];
        Tables {
            regions,
            orientations,
            width: w,
            pairs,
            turned,
        }
    }

    /// The region and configuration the other side sees where this side sees `configuration`
    /// in `region`: the same squares, the board turned half round, own and opposing men swapped.
    pub fn turned(&self, region: usize, configuration: usize) -> (usize, usize) {
        let (q, digits) = self.turned[region];
        let mut own = [0usize; REGION_SQUARES];
        let mut c = configuration;
        for d in &mut own {
            *d = c % 3;
            c /= 3;
        }
        let mut theirs = 0;
        for &d in digits.iter().rev() {
            // Empty stays empty; an own man (1) is the other side's opposing man (2).
            theirs = theirs * 3 + [0, 2, 1][own[d]];
        }
        (q, theirs)
    }

    /// Number of regions of the board.
    pub fn regions(&self) -> usize {
        self.regions.len()
    }

    /// The bits of a region's squares, in the order of the configuration's ternary digits.
    pub fn squares(&self, region: usize) -> [u8; REGION_SQUARES] {
        squares(&self.regions[region])
    }

    /// Calls `f(region, configuration)` for every region of the view.
    #[inline(always)]
    pub fn for_each_pattern(&self, v: &View, f: impl FnMut(usize, usize)) {
        // A board of known size: every loop below has a fixed length.
        if self.width == 5 {
            self.patterns::<5>(v, f);
        } else {
            self.patterns::<4>(v, f);
        }
    }

    /// [`Tables::for_each_pattern`] on a board of `W` dark squares a row.
    #[inline(always)]
    fn patterns<const W: usize>(&self, v: &View, mut f: impl FnMut(usize, usize)) {
        let mask = (1u64 << W) - 1;
        let mut rows = [0u64; 10];
        // Each row's start a constant: the loop is unrolled and every shift takes an immediate.
        for (r, row) in rows.iter_mut().enumerate().take(2 * W) {
            let start = row_start(r, W);
            let own = (v.men >> start) & mask;
            let opp = (v.opp_men >> start) & mask;
            *row = self.pairs[(own << 5 | opp) as usize];
        }
        // The W - 1 regions of four rows side by side, one in each 16-bit part of the word: a
        // region's value is at most 3⁸ - 1, so no part carries into the next.
        for top in 0..2 * W - 3 {
            let four = rows[top] + 9 * rows[top + 1] + 81 * rows[top + 2] + 729 * rows[top + 3];
            for c in 0..W - 1 {
                f(top * (W - 1) + c, (four >> (16 * c)) as usize & 0xFFFF);
            }
        }
    }

    /// The whole-board terms of the view, in the order of [`Global::ALL`].
    pub fn globals(&self, v: &View, g: &Geometry, flying_kings: bool) -> [i32; GLOBALS] {
        self.terms::<false>(v, g, flying_kings)
    }

    /// `color`'s whole-board terms in `pos` on its board `g`: the same as [`Tables::globals`] of
    /// its view, read without turning the board. Always inlined: the evaluation is compiled
    /// once per variant, and with `g` known there each step across the board is a constant.
    #[inline(always)]
    pub fn globals_of(
        &self,
        pos: &Position,
        color: Color,
        g: &Geometry,
        flying_kings: bool,
    ) -> [i32; GLOBALS] {
        let v = &View::unturned(pos, color);
        match color {
            Color::White => self.terms::<false>(v, g, flying_kings),
            Color::Black => self.terms::<true>(v, g, flying_kings),
        }
    }

    /// The whole-board terms of a side whose men move up the board, or down it (`DOWN`: Black's
    /// men on the board as it stands); the directions are constants, so each shift is one
    /// instruction.
    #[inline(always)]
    fn terms<const DOWN: bool>(
        &self,
        v: &View,
        g: &Geometry,
        flying_kings: bool,
    ) -> [i32; GLOBALS] {
        let o = &self.orientations[usize::from(DOWN)];
        // The directions that lead back from a square to the squares a man steps from onto it.
        let behind = if DOWN { [UL, UR] } else { [DR, DL] };
        let mut out = [0; GLOBALS];
        let men = v.men.count_ones() as i32;
        out[Global::Man as usize] = men;
        out[Global::King as usize] = v.kings.count_ones() as i32;
        out[Global::FirstKing as usize] = i32::from(v.kings != 0);
        out[Global::Advance as usize] = (o.advance_planes.iter().enumerate())
            .map(|(k, &plane)| ((v.men & plane).count_ones() << k) as i32)
            .sum();
        let left = (v.men & o.left).count_ones() as i32;
        out[Global::Imbalance as usize] = (2 * left - men).abs();
        let opp = v.opp_men | v.opp_kings;
        let occupied = v.men | v.kings | opp;
        let empty = g.board & !occupied;
        // The squares with an empty square ahead one way, and the other: a man there has that
        // step (the same count as the steps' targets, with shifts the frozen men need anyway).
        let free = [g.shift(empty, behind[0]), g.shift(empty, behind[1])];
        out[Global::ManMoves as usize] =
            ((v.men & free[0]).count_ones() + (v.men & free[1]).count_ones()) as i32;
        // The squares with a square ahead in `set`.
        let below = |set: u64| g.shift(set, behind[0]) | g.shift(set, behind[1]);
        let step_free = free[0] | free[1];
        out[Global::Frozen as usize] = (v.men & !step_free).count_ones() as i32;
        if v.kings != 0 && v.opp_kings != 0 {
            out[Global::MenAmongKings as usize] = men;
        }
        out[Global::KingsAgainstMen as usize] =
            (v.kings.count_ones() * v.opp_men.count_ones()) as i32;
        // A runaway: no opposing piece in its forward cone up to promotion, and a free square
        // directly ahead. The squares whose cone meets an opposing piece within k rows are
        // those below one, k times over.
        let mut reach = below(opp);
        let mut blocked = reach;
        for (k, global) in [Global::Runaway1, Global::Runaway2, Global::Runaway3]
            .into_iter()
            .enumerate()
        {
            if k > 0 {
                reach = below(reach);
                blocked |= reach;
            }
            out[global as usize] = (v.men & o.to_go[k] & step_free & !blocked).count_ones() as i32;
        }
        out[Global::KingMobility as usize] = g.king_moves(v.kings, occupied, flying_kings) as i32;
        out
    }
}

/// The bit of row `r`'s first square on a board of `w` dark squares a row: a ghost bit follows
/// every pair of rows.
const fn row_start(r: usize, w: usize) -> usize {
    r * w + r / 2
}

/// The bits of a region's squares (given by the first bit of each of its rows), in the order of
/// the configuration's ternary digits.
fn squares(starts: &[u8; 4]) -> [u8; REGION_SQUARES] {
    std::array::from_fn(|d| starts[d / 2] + (d % 2) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::variant::Variant;

    fn view(v: Variant, fen: &str, color: Color) -> (Position, View) {
        let p = parse_fen(fen, v).unwrap();
        (p, View::of(&p, color))
    }

    #[test]
    fn regions_cover_every_square() {
        for v in [Variant::International, Variant::English] {
            let g = v.geometry();
            let t = Tables::of(g);
            assert_eq!(t.regions(), if g.width == 5 { 28 } else { 15 });
            assert!(t.regions() <= MAX_REGIONS);
            let mut covered = 0u64;
            for starts in &t.regions {
                let mut region = 0u64;
                for &s in starts {
                    region |= 3u64 << s;
                }
                assert_eq!((region & g.board).count_ones(), 8, "{v}");
                covered |= region;
            }
            assert_eq!(covered & g.board, g.board, "{v}");
        }
    }

    #[test]
    fn a_turned_region_is_what_the_other_side_sees() {
        for (v, fen) in [
            (
                Variant::International,
                "W:W16,17,28,31,33,46:B1,7,22,30,45,K50",
            ),
            (Variant::Frisian, "B:W6,27,34,K41:B3,19,20,24,36"),
            (Variant::English, "B:W21,22,K30,32:B1,5,9,K14,19"),
        ] {
            let p = parse_fen(fen, v).unwrap();
            let t = Tables::of(v.geometry());
            let mut white = Vec::new();
            let mut black = vec![0; t.regions()];
            t.for_each_pattern(&View::of(&p, Color::White), |r, i| white.push((r, i)));
            t.for_each_pattern(&View::of(&p, Color::Black), |r, i| black[r] = i);
            let mut seen = vec![false; t.regions()];
            for (r, i) in white {
                let (q, theirs) = t.turned(r, i);
                assert_eq!(theirs, black[q], "{v}: region {r}");
                assert!(!seen[q], "{v}: two regions turn into {q}");
                seen[q] = true;
            }
        }
    }

    #[test]
    fn a_rows_start_is_where_the_board_puts_its_squares() {
        // The patterns read each row at its formula's shift: every dark square of row r must be
        // one of the w bits from there (checked against the board's own numbering).
        for v in [Variant::International, Variant::English] {
            let g = v.geometry();
            let w = g.width as usize;
            let mut seen = vec![0u64; 2 * w];
            for n in 1..=g.squares as u8 {
                let (r, _) = g.coords_of_number(n);
                let bit = usize::from(g.bit_of[n as usize]);
                let start = row_start(r as usize, w);
                assert!((start..start + w).contains(&bit), "{v}: square {n}");
                seen[r as usize] |= 1 << (bit - start);
            }
            assert!(seen.iter().all(|&row| row == (1 << w) - 1), "{v}");
        }
    }

    #[test]
    fn a_region_reads_its_own_squares() {
        // The first region of 10 × 10 holds squares 1, 2, 6, 7, 11, 12, 16, 17 in that order.
        let v = Variant::International;
        let (_, w) = view(v, "W:W16,17:B1,7,30", Color::White);
        let mut first = None;
        Tables::of(v.geometry()).for_each_pattern(&w, |r, i| {
            if r == 0 {
                first = Some(i);
            }
        });
        // Own men on digits 6 and 7, opposing men (value 2) on digits 0 and 3.
        assert_eq!(first, Some(729 + 2187 + 2 + 2 * 27));
    }

    #[test]
    fn black_sees_what_white_sees_when_the_board_is_turned() {
        for (v, fen) in [
            (Variant::International, "W:W31,32,33,K40:B10,12,19,K3"),
            (Variant::English, "B:W21,22,K30:B5,9,K14"),
        ] {
            let (p, _) = view(v, fen, Color::White);
            let t = Tables::of(v.geometry());
            let turned = p.flipped();
            let mut a = Vec::new();
            let mut b = Vec::new();
            t.for_each_pattern(&View::of(&p, Color::Black), |r, i| a.push((r, i)));
            t.for_each_pattern(&View::of(&turned, Color::White), |r, i| b.push((r, i)));
            assert_eq!(a, b, "{v}");
            let rules = v.rules();
            assert_eq!(
                t.globals(
                    &View::of(&p, Color::Black),
                    v.geometry(),
                    rules.flying_kings
                ),
                t.globals(
                    &View::of(&turned, Color::White),
                    v.geometry(),
                    rules.flying_kings
                ),
            );
        }
    }

    #[test]
    fn whole_board_terms_count_what_they_say() {
        let v = Variant::International;
        let g = v.geometry();
        let t = Tables::of(g);
        // White: a free man on 7 (one row to go), a man on 16 (three rows; 1 and 2... ahead are
        // free but Black's 11 blocks its cone), a king on 46 that can reach 5 squares along the
        // long diagonal and 0 elsewhere... counted below.
        let (_, w) = view(v, "W:W7,16,K46:B11,45", Color::White);
        let got = t.globals(&w, g, true);
        assert_eq!(got[Global::Man as usize], 2);
        assert_eq!(got[Global::King as usize], 1);
        assert_eq!(got[Global::FirstKing as usize], 1);
        assert_eq!(got[Global::Runaway1 as usize], 1);
        assert_eq!(got[Global::Runaway3 as usize], 0);
        // 46 → 41, 37, 32, 28, 23, 19, 14, 10, 5 along the empty long diagonal.
        assert_eq!(got[Global::KingMobility as usize], 9);
        // Rows advanced: 7 is in row 1 (8 up), 16 in row 3 (6 up).
        assert_eq!(got[Global::Advance as usize], 14);
        // 7 is on file 2 (left), 16 on file 0 (left).
        assert_eq!(got[Global::Imbalance as usize], 2);
        let (_, w) = view(v, "W:W16:B45", Color::White);
        assert_eq!(t.globals(&w, g, true)[Global::Runaway3 as usize], 1);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]
        /// Black's view reads what White's view of the board turned half round reads, patterns
        /// and whole-board terms, and each side's terms read on the board as it stands are
        /// those of its view, in every position of a random game.
        #[test]
        fn black_reads_the_turned_board_in_every_position(
            variant in 0usize..3,
            picks in proptest::collection::vec(proptest::prelude::any::<u16>(), 1..150),
        ) {
            let v = Variant::ALL[variant];
            let (g, t, flying) = (v.geometry(), Tables::of(v.geometry()), v.rules().flying_kings);
            let mut pos = Position::start(v);
            for pick in picks {
                let (black, turned) = (View::of(&pos, Color::Black), View::of(&pos.flipped(), Color::White));
                let (mut a, mut b) = (Vec::new(), Vec::new());
                t.for_each_pattern(&black, |r, i| a.push((r, i)));
                t.for_each_pattern(&turned, |r, i| b.push((r, i)));
                proptest::prop_assert_eq!(a, b, "{:?}", pos);
                proptest::prop_assert_eq!(t.globals(&black, g, flying), t.globals(&turned, g, flying), "{:?}", pos);
                for color in [Color::White, Color::Black] {
                    let view = View::of(&pos, color);
                    proptest::prop_assert_eq!(t.globals_of(&pos, color, g, flying), t.globals(&view, g, flying), "{:?}", pos);
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves.as_slice()[usize::from(pick) % moves.len()]);
            }
        }
    }

    #[test]
    fn kings_on_one_diagonal_block_each_other() {
        let v = Variant::International;
        let g = v.geometry();
        let t = Tables::of(g);
        let mobility = |fen: &str| {
            t.globals(&view(v, fen, Color::White).1, g, true)[Global::KingMobility as usize]
        };
        // 46 reaches 41, 37, 32 and stops at its own king on 28; 28 reaches 23, 19, 14, 10, 5
        // up, 32, 37, 41 down, 22, 17, 11, 6 up-left and 33, 39, 44, 50 down-right.
        assert_eq!(mobility("W:WK46,K28:B45"), 3 + 5 + 3 + 4 + 4);
        // A man on 17 shortens the up-left ray to 22.
        assert_eq!(mobility("W:WK46,K28:B17"), 3 + 5 + 3 + 1 + 4);
        // English kings do not fly: one step each way from a central square.
        let e = Variant::English;
        let got = Tables::of(e.geometry()).globals(
            &view(e, "W:WK14:B1", Color::White).1,
            e.geometry(),
            false,
        );
        assert_eq!(got[Global::KingMobility as usize], 4);
    }

    #[test]
    fn the_terms_between_the_sides_count_what_they_say() {
        let v = Variant::International;
        let g = v.geometry();
        let t = Tables::of(g);
        let terms = |fen: &str, color: Color| t.globals(&view(v, fen, color).1, g, true);
        // White's 7 can step to 1 and to 2; 16, on the edge, only to 11, which Black holds.
        let w = terms("W:W7,16,K46:B11,45", Color::White);
        assert_eq!(w[Global::ManMoves as usize], 2);
        assert_eq!(w[Global::Frozen as usize], 1);
        // White's king against Black's two men; Black has no king, so no men among kings.
        assert_eq!(w[Global::KingsAgainstMen as usize], 2);
        assert_eq!(w[Global::MenAmongKings as usize], 0);
        // Black's 11 steps to 17 (16 is White's), 45 to 50 (the edge is beside it).
        let b = terms("W:W7,16,K46:B11,45", Color::Black);
        assert_eq!(b[Global::ManMoves as usize], 2);
        assert_eq!(b[Global::Frozen as usize], 0);
        assert_eq!(b[Global::KingsAgainstMen as usize], 0);
        // Once Black has a king too, both sides' men are men among kings.
        let fen = "W:W7,16,K46:B11,45,K3";
        assert_eq!(terms(fen, Color::White)[Global::MenAmongKings as usize], 2);
        assert_eq!(terms(fen, Color::Black)[Global::MenAmongKings as usize], 2);
        assert_eq!(
            terms(fen, Color::Black)[Global::KingsAgainstMen as usize],
            2
        );
    }
}
