//! The transposition table: one entry per slot, found by the position's hash.
//!
//! The one place in the engine with `unsafe`: a cache prefetch of the slot a child position will
//! probe, issued as soon as its hash is known (the probe's wait on memory was most of a node's
//! time).

/// One position's result: its hash, score, depth searched, bound and best move's index.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) score: i32,
    pub(super) depth: i8,
    pub(super) bound: u8,
    pub(super) best: u8,
}

/// The score is exact.
pub(super) const EXACT: u8 = 1;
/// The score is at least this.
pub(super) const LOWER: u8 = 2;
/// The score is at most this.
pub(super) const UPPER: u8 = 3;

/// A transposition table: one entry per slot, replaced when the new search is at least as deep
/// or the slot holds another position.
pub(super) struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (a power of two number of entries).
    pub(super) fn new(megabytes: usize) -> Table {
        let want = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = want.next_power_of_two() / 2;
        Table {
            slots: vec![Entry::default(); size.max(1024)],
            mask: size.max(1024) - 1,
        }
    }

    /// Asks the processor to bring `key`'s slot into the cache: the probe that follows a few
    /// hundred instructions later then finds it there instead of waiting on memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Entry = &self.slots[key as usize & self.mask];
            // SAFETY: a prefetch is a hint that never faults nor changes memory, and the
            // address is of a live element of the table.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    slot.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if the table holds it.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slots[key as usize & self.mask];
        (e.key == key && e.bound != 0).then_some(e)
    }

    /// Keeps `e` for `key`.
    pub(super) fn store(&mut self, key: u64, e: Entry) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.key != key || e.depth >= slot.depth || e.bound == EXACT {
            *slot = e;
        }
    }

    /// Forgets everything (a new game).
    pub(super) fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }
}
