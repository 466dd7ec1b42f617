//! A set of evaluation weights for one variant, its file format, and the evaluation itself.
//!
//! Every weight comes in two phases, the opening's (all pieces on the board) and the ending's
//! (none), and a position takes them in proportion to the pieces it still has: what a
//! formation is worth changes as the board empties (a back-row guard matters early, an advanced
//! man late), and one weight for all of a game must split the difference.
//!
//! The file is zstd-compressed: a magic line, the variant, the counts, then little-endian `i16`
//! weights in quarters of a hundredth of a man, each as its opening and ending value (pattern
//! weights region by region, then the whole-board terms, then the tempo). Everything is checked
//! before use: a damaged or foreign file is an error, never a wrong evaluation. A file may hold
//! fewer whole-board terms than the program knows (its header counts them: a file written before
//! the later terms were added, or a variant not trained with them); the rest are zero.

use super::features::{CONFIGURATIONS, GLOBALS, Global, MAX_REGIONS, Tables, View};
use crate::rules::board::Position;
use crate::rules::piece::Color;
use crate::rules::variant::{RuleSet, Variant, with_rules};
use thiserror::Error;

/// Weights are kept in quarters of the evaluation's unit (a hundredth of a man).
pub const QUANTUM: i32 = 4;
/// Phases of every weight: the opening's, the ending's.
pub const PHASES: usize = 2;
const MAGIC: &[u8; 16] = b"draughts-eval 2\n";
/// No weights file is larger than this once decompressed (the largest board needs 0.8 MB).
const MAX_DECOMPRESSED: usize = 1 << 21;
/// A power of two above every configuration's index (3⁸ = 6,561 < 2¹³).
const INDEX_BOUND: usize = 1 << 13;
/// The narrow weights' room: every region's configurations in turn, and past the last region's
/// start room for any index below [`INDEX_BOUND`]. A read at a region's start plus an index
/// masked to that bound is then provably inside it and carries no bounds check; without the
/// checks a leaf's 28 reads go out together (the bench positions to depth 14 in 0.95 of the
/// time, Woldouby to depth 26 in 0.86).
const NARROW_ROOM: usize = CONFIGURATIONS * (MAX_REGIONS - 1) + INDEX_BOUND;
/// The most pieces a variant's full board has.
const MAX_FULL: usize = 40;

/// A weight in its two phases: `[opening, ending]`.
pub type Phased<T> = [T; PHASES];

/// Why a weights file cannot be used.
#[derive(Debug, Error)]
pub enum ModelError {
    /// Not zstd data, or damaged.
    #[error("not a weights file: {0}")]
    Compression(String),
    /// Something in the file is wrong.
    #[error("weights file: {0}")]
    Invalid(String),
}

/// The weights of the evaluation for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    variant: Variant,
    /// Region by region, one weight per configuration.
    patterns: Vec<Phased<i16>>,
    globals: [Phased<i16>; GLOBALS],
    /// How many of the whole-board terms the weights have (the first ones of [`Global::ALL`]);
    /// the rest are zero.
    ///
    /// [`Global::ALL`]: super::features::Global::ALL
    terms: usize,
    tempo: Phased<i16>,
    /// The whole-board terms' weights, both phases in one word (opening × 2³² + ending): one
    /// multiplication a term instead of two.
    packed_globals: [i64; GLOBALS],
    /// The men's and the kings' weights blended for each count of pieces on the board, up to a
    /// full board: [`Model::material_in`] is then two products and one division, where blending
    /// its phases at each call took six products (the search asks it at most of its leaves).
    blended: [[i32; 2]; MAX_FULL + 1],
    /// Region by region, for each configuration of White's men and Black's men on its squares,
    /// White's pattern weight less the one Black's view of the same squares gets, both phases
    /// packed in one word: the evaluation then reads each region once instead of once per side.
    board: Board,
}

/// The packed pattern weights of [`Model::board`]: opening × 2¹⁶ + ending in 32 bits when no
/// sum over the regions can pass 16 bits (every trained file: half the memory, so more of it
/// stays in the processor's cache), else opening × 2³² + ending in 64.
#[derive(Clone, Debug, PartialEq)]
enum Board {
    Narrow(Box<[i32; NARROW_ROOM]>),
    Wide(Vec<i64>),
}

impl Board {
    /// The opening's and the ending's sums over the regions of `view`.
    #[inline(always)]
    fn sums(&self, t: &Tables, view: &View) -> (i32, i32) {
        // The low half is the ending's sum, its borrow taken from the high half, the opening's.
        match self {
            Board::Narrow(b) => {
                let mut packed = 0i32;
                // The mask changes no index (all are below the bound); it shows the compiler
                // the read is in bounds.
                t.for_each_pattern(view, |r, i| {
                    packed += b[r * CONFIGURATIONS + (i & (INDEX_BOUND - 1))];
                });
                let ending = i32::from(packed as i16);
                ((packed - ending) >> 16, ending)
            }
            Board::Wide(b) => {
                let mut packed = 0i64;
                t.for_each_pattern(view, |r, i| packed += b[r * CONFIGURATIONS + i]);
                let ending = packed as i32;
                (((packed - i64::from(ending)) >> 32) as i32, ending)
            }
        }
    }
}

impl Model {
    /// A model from weights in evaluation units (the trainer's output), rounded to the file's
    /// precision; `globals` are the first whole-board terms (at most all of them), the rest zero.
    pub fn from_units(
        variant: Variant,
        patterns: &[Phased<f64>],
        globals: &[Phased<f64>],
        tempo: Phased<f64>,
    ) -> Model {
        let q = |x: Phased<f64>| {
            x.map(|x| (x * f64::from(QUANTUM)).round().clamp(-32767.0, 32767.0) as i16)
        };
        let patterns: Vec<Phased<i16>> = patterns.iter().map(|&x| q(x)).collect();
        assert!(
            globals.len() <= GLOBALS,
            "more whole-board terms than there are"
        );
        let terms = globals.len();
        let globals = std::array::from_fn(|i| globals.get(i).map_or([0; PHASES], |&x| q(x)));
        Model {
            variant,
            board: board_weights(variant, &patterns),
            patterns,
            packed_globals: pack(&globals),
            blended: blend_material(variant, &globals),
            globals,
            terms,
            tempo: q(tempo),
        }
    }

    /// The weights in evaluation units: patterns, whole-board terms, tempo.
    pub fn units(&self) -> (Vec<Phased<f64>>, Vec<Phased<f64>>, Phased<f64>) {
        let u = |x: Phased<i16>| x.map(|x| f64::from(x) / f64::from(QUANTUM));
        (
            self.patterns.iter().map(|&x| u(x)).collect(),
            self.globals.iter().map(|&x| u(x)).collect(),
            u(self.tempo),
        )
    }

    /// The variant the weights are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// How many whole-board terms the weights have: the first ones of [`Global::ALL`] (training
    /// fits those and leaves the rest at zero).
    ///
    /// [`Global::ALL`]: super::features::Global::ALL
    pub fn terms(&self) -> usize {
        self.terms
    }

    /// The value of `pos` for the side to move, in hundredths of a man.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        with_rules!(pos.variant(), R => self.evaluate_in::<R>(pos))
    }

    /// [`Model::evaluate`] compiled for one variant: its board's steps and masks are constants.
    #[inline(always)]
    pub(crate) fn evaluate_in<R: RuleSet>(&self, pos: &Position) -> i32 {
        debug_assert_eq!(self.variant, R::VARIANT, "weights of another variant");
        let g = R::RULES.geometry;
        let t = Tables::of(g);
        let flying = R::RULES.flying_kings;
        let (mut opening, mut ending) = self.board.sums(t, &View::of(pos, Color::White));
        let gw = t.globals_of(pos, Color::White, g, flying);
        let gb = t.globals_of(pos, Color::Black, g, flying);
        // Terms the weights do not have are zero: not added. Each phase's sum is far inside
        // 32 bits, so the low half is the ending's and the high half, its borrow returned, the
        // opening's.
        let mut packed = 0i64;
        for k in 0..self.terms {
            packed += self.packed_globals[k] * i64::from(gw[k] - gb[k]);
        }
        let e = packed as i32;
        opening += ((packed - i64::from(e)) >> 32) as i32;
        ending += e;
        if pos.side_to_move() == Color::Black {
            opening = -opening;
            ending = -ending;
        }
        opening += i32::from(self.tempo[0]);
        ending += i32::from(self.tempo[1]);
        blend::<R>(pos, opening, ending)
    }

    /// The value of the men and kings alone for the side to move, weighed as in
    /// [`Model::evaluate`]: a cheap first estimate the rest of the evaluation refines. `None`
    /// when the weights have no men's and kings' terms (they would value every position at 0).
    #[inline]
    pub fn material(&self, pos: &Position) -> Option<i32> {
        with_rules!(pos.variant(), R => self.material_in::<R>(pos))
    }

    /// [`Model::material`] compiled for one variant.
    #[inline(always)]
    pub(crate) fn material_in<R: RuleSet>(&self, pos: &Position) -> Option<i32> {
        self.scaled_material_in::<R>(pos)
            .map(|scaled| scaled.div_euclid(material_unit::<R>()))
    }

    /// [`Model::material_in`] before its division: the value times [`material_unit`], whose
    /// floor it is. A test of the value against a bound is then a test of this against the
    /// bound times the unit, a constant product: no division.
    #[inline(always)]
    pub(crate) fn scaled_material_in<R: RuleSet>(&self, pos: &Position) -> Option<i32> {
        debug_assert_eq!(self.variant, R::VARIANT, "weights of another variant");
        if self.terms <= Global::King as usize {
            return None;
        }
        let count = |b: u64| b.count_ones() as i32;
        let man = count(pos.white & !pos.kings) - count(pos.black & !pos.kings);
        let king = count(pos.white & pos.kings) - count(pos.black & pos.kings);
        const { assert!(2 * R::RULES.pieces_per_side as usize <= MAX_FULL) };
        let full = 2 * R::RULES.pieces_per_side;
        let [m, k] = self.blended[pos.piece_count().min(full) as usize];
        let scaled = m * man + k * king;
        Some(if pos.side_to_move() == Color::Black {
            -scaled
        } else {
            scaled
        })
    }

    /// The file's bytes (compressed).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(MAGIC.len() + 8 + 4 * self.patterns.len() + 64);
        raw.extend_from_slice(MAGIC);
        raw.push(variant_code(self.variant));
        let regions = self.patterns.len() / CONFIGURATIONS;
        raw.extend_from_slice(&(regions as u16).to_le_bytes());
        raw.extend_from_slice(&(self.terms as u16).to_le_bytes());
        raw.push(PHASES as u8);
        for w in self
            .patterns
            .iter()
            .chain(&self.globals[..self.terms])
            .chain(std::iter::once(&self.tempo))
            .flatten()
        {
            raw.extend_from_slice(&w.to_le_bytes());
        }
        // Level 19: the file ships in the repository and is written once per training run.
        zstd::bulk::compress(&raw, 19).expect("compressing a buffer in memory cannot fail")
    }

    /// Reads a weights file for `variant`, checking everything.
    pub fn from_bytes(bytes: &[u8], variant: Variant) -> Result<Model, ModelError> {
        let raw = zstd::bulk::decompress(bytes, MAX_DECOMPRESSED)
            .map_err(|e| ModelError::Compression(e.to_string()))?;
        let invalid = |s: String| Err(ModelError::Invalid(s));
        let Some(rest) = raw.strip_prefix(MAGIC.as_slice()) else {
            return invalid("it does not start with the weights file's magic line".into());
        };
        if rest.len() < 6 {
            return invalid("the header is cut short".into());
        }
        if rest[0] != variant_code(variant) {
            return invalid(format!(
                "the weights are for another variant than {variant}"
            ));
        }
        let regions = usize::from(u16::from_le_bytes([rest[1], rest[2]]));
        let globals = usize::from(u16::from_le_bytes([rest[3], rest[4]]));
        let phases = usize::from(rest[5]);
        let expected = Tables::of(variant.geometry()).regions();
        if regions != expected || globals > GLOBALS || phases != PHASES {
            return invalid(format!(
                "{regions} regions, {globals} terms and {phases} phases, where {variant} needs \
                 {expected}, at most {GLOBALS} and {PHASES}"
            ));
        }
        let data = &rest[6..];
        let count = PHASES * (regions * CONFIGURATIONS + globals + 1);
        if data.len() != 2 * count {
            return invalid(format!(
                "{} bytes of weights, {} expected",
                data.len(),
                2 * count
            ));
        }
        // The length was checked above, so every weight is there.
        let mut weights = data.chunks_exact(4).map(|c| {
            [
                i16::from_le_bytes([c[0], c[1]]),
                i16::from_le_bytes([c[2], c[3]]),
            ]
        });
        let patterns: Vec<Phased<i16>> = weights.by_ref().take(regions * CONFIGURATIONS).collect();
        let read: Vec<Phased<i16>> = weights.by_ref().take(globals).collect();
        let tempo = weights.next().unwrap_or_default();
        let terms = globals;
        let globals = std::array::from_fn(|k| read.get(k).copied().unwrap_or_default());
        Ok(Model {
            variant,
            board: board_weights(variant, &patterns),
            patterns,
            packed_globals: pack(&globals),
            blended: blend_material(variant, &globals),
            globals,
            terms,
            tempo,
        })
    }
}

/// [`Model::board`]'s packed weights from the pattern weights of one side's view.
fn board_weights(variant: Variant, patterns: &[Phased<i16>]) -> Board {
    let t = Tables::of(variant.geometry());
    let weights: Vec<Phased<i64>> = (0..patterns.len())
        .map(|k| {
            let (r, c) = (k / CONFIGURATIONS, k % CONFIGURATIONS);
            let (q, theirs) = t.turned(r, c);
            let [o, e] = patterns[k];
            let [to, te] = patterns[q * CONFIGURATIONS + theirs];
            [i64::from(o) - i64::from(to), i64::from(e) - i64::from(te)]
        })
        .collect();
    // Each half of the narrow word holds its phase's sum over the regions exactly as long as
    // the largest weight times the regions stays below 2¹⁵.
    let largest = weights.iter().flatten().map(|w| w.abs()).max().unwrap_or(0);
    if largest * (patterns.len() / CONFIGURATIONS) as i64 <= i64::from(i16::MAX) {
        let mut narrow = vec![0i32; NARROW_ROOM];
        for (packed, &[o, e]) in narrow.iter_mut().zip(&weights) {
            *packed = ((o << 16) + e) as i32;
        }
        Board::Narrow(
            narrow
                .into_boxed_slice()
                .try_into()
                .expect("a vector of the room's length"),
        )
    } else {
        Board::Wide(weights.iter().map(|&[o, e]| (o << 32) + e).collect())
    }
}

/// [`Model::blended`] from the whole-board weights: for each count of pieces, the men's and the
/// kings' weights taken as [`blend`] takes them, before its division.
fn blend_material(variant: Variant, globals: &[Phased<i16>; GLOBALS]) -> [[i32; 2]; MAX_FULL + 1] {
    let full = 2 * variant.rules().pieces_per_side as i32;
    let [man, king] = [Global::Man, Global::King].map(|g| globals[g as usize].map(i32::from));
    std::array::from_fn(|share| {
        let share = (share as i32).min(full);
        [man, king].map(|[opening, ending]| opening * share + ending * (full - share))
    })
}

/// The unit of [`Model::scaled_material_in`]: the divisor of [`blend`].
#[inline(always)]
pub(crate) const fn material_unit<R: RuleSet>() -> i32 {
    QUANTUM * 2 * R::RULES.pieces_per_side as i32
}

/// [`Model::packed_globals`] from the whole-board weights.
fn pack(globals: &[Phased<i16>; GLOBALS]) -> [i64; GLOBALS] {
    globals.map(|[o, e]| (i64::from(o) << 32) + i64::from(e))
}

/// The opening's and the ending's values (in quanta) taken in proportion to the pieces `pos`
/// still has against the pieces of a full board, in hundredths of a man. The divisor is a
/// constant of the variant, so the division compiles to a multiplication.
#[inline(always)]
fn blend<R: RuleSet>(pos: &Position, opening: i32, ending: i32) -> i32 {
    let full = 2 * R::RULES.pieces_per_side as i32;
    let share = (pos.piece_count() as i32).min(full);
    (opening * share + ending * (full - share)).div_euclid(material_unit::<R>())
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::International => 1,
        Variant::Frisian => 2,
        Variant::English => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::builtin;
    use proptest::prelude::*;

    /// The evaluation as its definition reads: each side's view looked up in the pattern
    /// weights on its own, then the whole-board terms and the tempo.
    fn by_views(m: &Model, pos: &Position) -> i32 {
        let g = pos.variant().geometry();
        let t = Tables::of(g);
        let flying = pos.variant().rules().flying_kings;
        let (white, black) = (View::of(pos, Color::White), View::of(pos, Color::Black));
        let (mut opening, mut ending) = (0i32, 0i32);
        for (view, sign) in [(&white, 1), (&black, -1)] {
            t.for_each_pattern(view, |r, i| {
                let [o, e] = m.patterns[r * CONFIGURATIONS + i];
                opening += sign * i32::from(o);
                ending += sign * i32::from(e);
            });
        }
        let (gw, gb) = (t.globals(&white, g, flying), t.globals(&black, g, flying));
        for k in 0..GLOBALS {
            opening += i32::from(m.globals[k][0]) * (gw[k] - gb[k]);
            ending += i32::from(m.globals[k][1]) * (gw[k] - gb[k]);
        }
        if pos.side_to_move() == Color::Black {
            (opening, ending) = (-opening, -ending);
        }
        opening += i32::from(m.tempo[0]);
        ending += i32::from(m.tempo[1]);
        let full = 2 * pos.variant().rules().pieces_per_side as i32;
        let share = (pos.piece_count() as i32).min(full);
        (opening * share + ending * (full - share)).div_euclid(QUANTUM * full)
    }

    #[test]
    fn material_weighs_men_and_kings_as_the_evaluation_does() {
        // Men worth 100 in the opening and 120 in the ending, kings 300 and 250, nothing else:
        // the evaluation is the material.
        let v = Variant::International;
        let n = Tables::of(v.geometry()).regions() * CONFIGURATIONS;
        let m = Model::from_units(
            v,
            &vec![[0.0; PHASES]; n],
            &[[100.0, 120.0], [300.0, 250.0]],
            [0.0; PHASES],
        );
        // Two men and a king up with 5 of 40 pieces left: (500 · 5 + 490 · 35) / 40 = 491.25.
        let parse = crate::rules::notation::parse_fen;
        let pos = parse("W:W28,31,32,K50:B3", v).unwrap();
        assert_eq!(m.material(&pos), Some(491));
        assert_eq!(m.material(&pos), Some(m.evaluate(&pos)));
        let black = parse("B:W28,31,32,K50:B3", v).unwrap();
        assert_eq!(m.material(&black), Some(-492));
        assert_eq!(m.material(&black), Some(m.evaluate(&black)));
        // The shipped weights: the start is level.
        let start = Position::start(v);
        assert_eq!(builtin(v).material(&start), Some(0));
        // Weights without the men's term say nothing.
        let bare = Model::from_units(v, &vec![[0.0; PHASES]; n], &[], [0.0; PHASES]);
        assert_eq!(bare.material(&pos), None);
    }

    #[test]
    fn weights_with_fewer_terms_read_back_and_count_the_rest_as_zero() {
        let v = Variant::English;
        let n = Tables::of(v.geometry()).regions() * CONFIGURATIONS;
        let patterns: Vec<Phased<f64>> = (0..n).map(|k| [(k % 7) as f64, -1.5]).collect();
        let fewer = GLOBALS - 4;
        let globals: Vec<Phased<f64>> = (0..GLOBALS)
            .map(|k| {
                if k < fewer {
                    [k as f64 + 1.0, 2.0]
                } else {
                    [0.0; 2]
                }
            })
            .collect();
        let short = Model::from_units(v, &patterns, &globals[..fewer], [0.5, 0.25]);
        let full = Model::from_units(v, &patterns, &globals, [0.5, 0.25]);
        assert_eq!(short.terms(), fewer);
        assert_eq!(Model::from_bytes(&short.to_bytes(), v).unwrap(), short);
        assert_eq!(short.units(), full.units());
        let pos = crate::rules::notation::parse_fen("B:W21,22,K30:B5,9,K14", v).unwrap();
        assert_eq!(short.evaluate(&pos), full.evaluate(&pos));
        // The file is shorter by the missing terms' weights, each two phases of two bytes.
        let size = |m: &Model| {
            zstd::bulk::decompress(&m.to_bytes(), MAX_DECOMPRESSED)
                .unwrap()
                .len()
        };
        assert_eq!(size(&full) - size(&short), 4 * 4);
        // A file with more terms than the program knows is refused.
        let mut more = zstd::bulk::decompress(&full.to_bytes(), MAX_DECOMPRESSED).unwrap();
        more[MAGIC.len() + 3..MAGIC.len() + 5].copy_from_slice(&(GLOBALS as u16 + 1).to_le_bytes());
        more.extend_from_slice(&[0; 4]);
        let bytes = zstd::bulk::compress(&more, 1).unwrap();
        assert!(Model::from_bytes(&bytes, v).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Reading each region once with the two sides' weights folded together gives the
        /// value of reading it from each side, in every position of a random game.
        #[test]
        fn one_read_a_region_is_the_two_sides_reads(
            variant in 0usize..3,
            picks in proptest::collection::vec(any::<u16>(), 1..120),
        ) {
            let v = Variant::ALL[variant];
            let m = builtin(v);
            let mut pos = Position::start(v);
            for pick in picks {
                prop_assert_eq!(m.evaluate(&pos), by_views(m, &pos), "{:?}", pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves.as_slice()[usize::from(pick) % moves.len()]);
            }
        }

        /// The material read from the blended table is its definition, the two phases' material
        /// blended by the pieces on the board; and a bound tested on the scaled value, as the
        /// search's lazy evaluation tests it, is the same test on the value.
        #[test]
        fn the_blended_material_is_its_phases_blended(
            variant in 0usize..3,
            picks in proptest::collection::vec(any::<u16>(), 1..120),
            delta in -2i32..=2,
        ) {
            use crate::rules::piece::Kind;
            let v = Variant::ALL[variant];
            let m = builtin(v);
            let full = 2 * v.rules().pieces_per_side as i32;
            let [mo, me] = m.globals[Global::Man as usize].map(i32::from);
            let [ko, ke] = m.globals[Global::King as usize].map(i32::from);
            let mut pos = Position::start(v);
            for pick in picks {
                let side = pos.side_to_move();
                let lead = |kind| {
                    pos.count(side, kind) as i32 - pos.count(side.opposite(), kind) as i32
                };
                let (man, king) = (lead(Kind::Man), lead(Kind::King));
                let share = (pos.piece_count() as i32).min(full);
                let value = ((mo * man + ko * king) * share + (me * man + ke * king) * (full - share))
                    .div_euclid(QUANTUM * full);
                prop_assert_eq!(m.material(&pos), Some(value), "{:?}", pos);
                let (scaled, unit) = with_rules!(v, R => (
                    m.scaled_material_in::<R>(&pos).expect("the shipped weights value men"),
                    material_unit::<R>(),
                ));
                let bound = value + delta;
                prop_assert_eq!(scaled >= bound * unit, value >= bound);
                prop_assert_eq!(scaled < (bound + 1) * unit, value <= bound);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves.as_slice()[usize::from(pick) % moves.len()]);
            }
        }

        /// The same for weights far from the shipped ones, at the ends of their range (the
        /// wide packing) and at the end of the narrow packing's.
        #[test]
        fn folding_holds_at_the_ends_of_the_weights_range(
            seed in any::<u64>(),
            variant in 0usize..3,
            narrow in any::<bool>(),
        ) {
            let v = Variant::ALL[variant];
            let regions = Tables::of(v.geometry()).regions();
            // The largest weight whose folded difference (twice it) still packs narrow.
            let limit = f64::from(i16::MAX / regions as i16 / 2) / f64::from(QUANTUM);
            let ends = if narrow {
                [-limit, limit, 0.0, -3.25]
            } else {
                [-8192.0, 8191.75, 0.0, -3.25]
            };
            let mut x = seed | 1;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ends[(x % 4) as usize]
            };
            let patterns: Vec<Phased<f64>> =
                (0..regions * CONFIGURATIONS).map(|_| [next(), next()]).collect();
            let m = Model::from_units(v, &patterns, &[[1.0, 2.0]; GLOBALS], [0.5, 0.25]);
            prop_assert_eq!(matches!(m.board, Board::Narrow(_)), narrow);
            let mut pos = Position::start(v);
            for pick in 0..40u64 {
                prop_assert_eq!(m.evaluate(&pos), by_views(&m, &pos), "{:?}", pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves.as_slice()[((seed >> (pick % 32)) % moves.len() as u64) as usize]);
            }
        }
    }
}
