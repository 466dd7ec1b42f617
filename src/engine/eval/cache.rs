//! Leaves' evaluations kept by position hash, for the search.

use crate::rules::board::Position;

/// Leaves' evaluations by position hash. A leaf is reached again and again through other move
/// orders, and a lookup costs far less than the evaluation's thirty pattern reads: each slot
/// keeps the upper 32 bits of the key, the variant mixed in, beside the value.
pub(crate) struct EvalCache(Box<[u64]>);

/// Slots of an [`EvalCache`]: 128 KB. A leaf mostly recurs soon after it is first met (through a
/// transposition nearby in the tree), so a small cache keeps the hits that pay, and a larger one
/// pushes the pattern weights out of the processor's second-level cache: with 512 KB the search
/// took about 5% longer, with 8 KB about 3% longer than with 32 KB (the start position to depth
/// 16).
const EVAL_SLOTS: usize = 1 << 14;

impl EvalCache {
    /// An empty cache.
    pub(crate) fn new() -> EvalCache {
        EvalCache(vec![0; EVAL_SLOTS].into_boxed_slice())
    }

    /// Forgets every value (other weights).
    pub(crate) fn clear(&mut self) {
        self.0.fill(0);
    }

    /// The key of `pos` (hash `key`) in the cache: the variant mixed in, so a searcher that
    /// goes from one variant to another never takes one's value for the other's.
    #[inline]
    pub(crate) fn key(pos: &Position, key: u64) -> u64 {
        key ^ (pos.variant() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The value kept for `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let slot = self.0[key as usize & (EVAL_SLOTS - 1)];
        (slot != 0 && slot >> 32 == key >> 32).then_some(slot as u32 as i32)
    }

    /// Asks the processor to bring `key`'s slot closer, ahead of its [`EvalCache::get`].
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::engine::table::prefetch(&self.0[key as usize & (EVAL_SLOTS - 1)]);
    }

    /// Keeps `value` for `key`, in place of what its slot held.
    #[inline]
    pub(crate) fn put(&mut self, key: u64, value: i32) {
        self.0[key as usize & (EVAL_SLOTS - 1)] = (key & !0xFFFF_FFFF) | u64::from(value as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn a_value_comes_back_for_its_key_and_variant_only() {
        let mut c = EvalCache::new();
        let (i, e) = (
            Position::start(Variant::International),
            Position::start(Variant::English),
        );
        let key = 0x1234_5678_9ABC_DEF0;
        let ki = EvalCache::key(&i, key);
        assert_eq!(c.get(ki), None);
        c.put(ki, -37);
        assert_eq!(c.get(ki), Some(-37));
        assert_eq!(c.get(EvalCache::key(&e, key)), None, "another variant");
        assert_eq!(c.get(ki ^ (1 << 40)), None, "another position in the slot");
        c.clear();
        assert_eq!(c.get(ki), None);
    }
}
