//! The values of the leaves evaluated lately, one searcher's own: a leaf whose pieces stand as
//! at a leaf met a moment ago (the same moves in another order) takes its value from here
//! instead of evaluating it again. In a tactical middle game such as the Woldouby position a
//! quarter of the whole evaluations are of a position this cache still holds (one in ten from
//! the start); the whole evaluation (28 pattern reads and 13 whole-board terms a side) costs
//! some thirty times the look-up. The tree searched is the same, node for node.
//!
//! The key is a hash of the pieces and the side to move, not the position's Zobrist hash: below
//! the horizon the search keeps no true Zobrist hash (its leaves need one only to find a
//! repetition), and this one costs a few multiplications. The evaluation reads nothing else of
//! a position (not the game's history, not Frisian's king-move counts), so equal keys mean equal
//! values but for a collision of 48 bits.

use crate::rules::board::Position;
use crate::rules::piece::Color;
use crate::rules::variant::RuleSet;

/// Slots: 2¹² of 8 bytes, 32 KB. Measured from 2¹⁰ to 2¹⁶: the larger caches hit more often
/// (a third of the Woldouby position's evaluations at 2¹⁶) but crowd the pattern weights out of
/// the processor's cache, and were slower (the bench 5% slower at 2¹⁶); two slots a key were
/// no faster.
const BITS: u32 = 12;
/// The low bits of a slot hold the value; the rest, the key's 48 high bits (its index is in its
/// low bits).
const VALUE_BITS: u32 = 16;

/// A cache of leaf values, direct-mapped: a new value takes its slot from whatever was there.
pub(super) struct Evals {
    /// The key's high bits and the value, or 0 for an empty slot (no key has a zero high part:
    /// [`key`] sets its top bit).
    slots: Box<[u64]>,
}

impl Evals {
    /// An empty cache.
    pub(super) fn new() -> Evals {
        Evals {
            slots: vec![0; 1 << BITS].into_boxed_slice(),
        }
    }

    /// Forgets every value (the weights changed).
    pub(super) fn clear(&mut self) {
        self.slots.fill(0);
    }

    /// The value kept for `key`, if any.
    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<i32> {
        let slot = self.slots[index(key)];
        (slot >> VALUE_BITS == key >> VALUE_BITS).then_some(i32::from(slot as u16 as i16))
    }

    /// Keeps `value` for `key` (a value outside 16 bits is not kept).
    #[inline(always)]
    pub(super) fn put(&mut self, key: u64, value: i32) {
        if let Ok(v) = i16::try_from(value) {
            self.slots[index(key)] = (key >> VALUE_BITS << VALUE_BITS) | u64::from(v as u16);
        }
    }
}

/// The slot of `key`: its low bits, which the slot does not keep (so all its 48 high bits are
/// checked).
#[inline(always)]
fn index(key: u64) -> usize {
    key as usize & ((1 << BITS) - 1)
}

/// The cache's key of `pos`, a position of the variant `R`: the pieces and the side to move
/// folded by 128-bit multiplications (each input bit reaches every output bit), with the top bit
/// set.
#[inline(always)]
pub(super) fn key<R: RuleSet>(pos: &Position) -> u64 {
    // Odd constants with high bits set: no board's bits (at most 56 of them) cancel one to
    // zero, which would make the product forget the other factor.
    const SEEDS: [u64; 4] = [
        0xa076_1d64_78bd_642f,
        0xe703_7ed1_a0b4_28db,
        0x8ebc_6af0_9c88_c6e3,
        0x5899_65cc_7537_4cc3,
    ];
    let side = match pos.side_to_move() {
        Color::White => 0,
        Color::Black => 1,
    };
    let variant = R::VARIANT as u64;
    let a = fold(pos.white ^ SEEDS[0], pos.black ^ SEEDS[1]);
    let b = fold(pos.kings ^ SEEDS[2], (side | variant << 1) ^ SEEDS[3]);
    fold(a ^ SEEDS[1], b ^ SEEDS[2]) | 1 << 63
}

/// The two halves of the 128-bit product, XORed.
#[inline(always)]
fn fold(x: u64, y: u64) -> u64 {
    let p = u128::from(x) * u128::from(y);
    (p >> 64) as u64 ^ p as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::variant::{EnglishRules, InternationalRules, Variant};
    use proptest::prelude::*;

    #[test]
    fn a_kept_value_comes_back_and_only_for_its_key() {
        let mut e = Evals::new();
        let k = key::<InternationalRules>(&Position::start(Variant::International));
        assert_eq!(e.get(k), None);
        e.put(k, -1234);
        assert_eq!(e.get(k), Some(-1234));
        // Another key of the same slot: a miss, then it takes the slot.
        let other = k ^ 1 << 40;
        assert_eq!(e.get(other), None);
        e.put(other, 7);
        assert_eq!((e.get(other), e.get(k)), (Some(7), None));
        // A value too wide for the slot is not kept; the slot's value stays.
        e.put(other, 40_000);
        assert_eq!(e.get(other), Some(7));
        e.clear();
        assert_eq!(e.get(other), None);
    }

    #[test]
    fn the_key_tells_the_side_to_move_and_the_variant() {
        let i = Variant::International;
        let w = parse_fen("W:W28,32:B19,23", i).unwrap();
        let b = parse_fen("B:W28,32:B19,23", i).unwrap();
        assert_ne!(key::<InternationalRules>(&w), key::<InternationalRules>(&b));
        let e = Variant::English;
        let w8 = parse_fen("W:W28,32:B19,23", e).unwrap();
        assert_ne!(key::<InternationalRules>(&w), key::<EnglishRules>(&w8));
        // A man made a king is another position.
        let k = parse_fen("W:WK28,32:B19,23", i).unwrap();
        assert_ne!(key::<InternationalRules>(&w), key::<InternationalRules>(&k));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Along random games, every value the cache gives back is the evaluation of the
        /// position asked about, and the positions of one game never share a key.
        #[test]
        fn a_hit_is_the_positions_own_value(
            picks in proptest::collection::vec(any::<u16>(), 1..200),
        ) {
            let v = Variant::International;
            let model = crate::engine::eval::builtin(v);
            let mut e = Evals::new();
            let mut keys = std::collections::HashMap::new();
            let mut pos = Position::start(v);
            for pick in picks {
                let k = key::<InternationalRules>(&pos);
                let value = model.evaluate(&pos);
                if let Some(seen) = keys.insert(k, pos) {
                    prop_assert_eq!(seen, pos, "two positions with one key");
                }
                if let Some(hit) = e.get(k) {
                    prop_assert_eq!(hit, value);
                }
                e.put(k, value);
                prop_assert_eq!(e.get(k), Some(value));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves.as_slice()[usize::from(pick) % moves.len()]);
            }
        }
    }
}
