//! The transposition table: a bucket of four entries per hash, shared by every thread of a
//! search without a lock.
//!
//! A bucket is one cache line, so a probe waits on memory once however many slots it reads. A
//! slot is two 64-bit atomics, the entry's packed data and that data XORed with the key (Hyatt's
//! lockless hashing): a slot torn by two threads writing at once no longer matches its key, so
//! it reads as a miss instead of a wrong entry. Relaxed loads and stores are plain moves on the
//! machines we run on, so one thread pays nothing for the sharing.
//!
//! The one place in the engine with `unsafe`: a cache prefetch of the bucket a child position
//! will probe, issued as soon as its hash is known (the probe's wait on memory was most of a
//! node's time), and the view of the table's memory as buckets. That memory is an anonymous
//! mapping the kernel is asked to back with huge pages: a probe lands anywhere in tens of
//! megabytes, and with 4 KB pages nearly every one also missed the address translation cache
//! (the search ran about a tenth faster with them on the bench position).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// One position's result: its hash, score, depth searched, bound and best move's index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) score: i32,
    pub(super) depth: i8,
    pub(super) bound: u8,
    pub(super) best: u8,
}

impl Entry {
    /// Score, depth, bound and move in one word (the key is kept apart).
    fn pack(&self) -> u64 {
        u64::from(self.score as u32)
            | u64::from(self.depth as u8) << 32
            | u64::from(self.bound) << 40
            | u64::from(self.best) << 48
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            score: data as u32 as i32,
            depth: (data >> 32) as u8 as i8,
            bound: (data >> 40) as u8,
            best: (data >> 48) as u8,
        }
    }
}

/// The score is exact.
pub(super) const EXACT: u8 = 1;
/// The score is at least this.
pub(super) const LOWER: u8 = 2;
/// The score is at most this.
pub(super) const UPPER: u8 = 3;

/// A slot: the packed entry and the packed entry XORed with its key.
#[derive(Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The smallest page the kernel maps memory in.
const PAGE: usize = 4096;

/// Slots a key may use: four, one cache line, so a probe costs one wait on memory however many
/// it reads, and a deep result is not lost to the first other position that lands on its slot.
const WAYS: usize = 4;

/// A bucket: the [`WAYS`] slots of one cache line.
#[repr(C, align(64))]
struct Bucket([Slot; WAYS]);

/// A transposition table: a bucket of slots per key. A store replaces the key's own slot when
/// the new search is at least as deep or exact; otherwise the slot worth least: empty, then one
/// left by an earlier search, then the shallowest.
pub(super) struct Table {
    /// The buckets' memory: an anonymous mapping, all zero bytes (every slot empty) at the start.
    memory: memmap2::MmapMut,
    mask: usize,
    /// The search that writes now, kept in each entry: entries of earlier searches (earlier
    /// moves of the game) give way first.
    generation: AtomicU8,
}

impl Table {
    /// A table of `megabytes` MB, or the largest power of two number of buckets within it.
    pub(super) fn new(megabytes: usize) -> Table {
        let want = (megabytes.max(1) << 20) / std::mem::size_of::<Bucket>();
        let size = 1usize << want.ilog2();
        let mut memory = memmap2::MmapOptions::new()
            .len(size * std::mem::size_of::<Bucket>())
            .map_anon()
            .expect("an anonymous mapping of the table's size");
        #[cfg(target_os = "linux")]
        let _ = memory.advise(memmap2::Advice::HugePage);
        // Every page touched now, while the table is made, not at its first probe in the first
        // search: the kernel's first touch of 64 MB took from 10 to 190 ms on the development
        // machine, time the first move under a clock would lose (Moby Dam, too, clears its
        // table before its first search). Writing a zero byte keeps the slots empty.
        for page in memory.chunks_mut(PAGE) {
            page[0] = 0;
        }
        Table {
            memory,
            mask: size - 1,
            generation: AtomicU8::new(0),
        }
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: the mapping is page-aligned (more than a bucket's alignment), lives as long
        // as `self`, holds `mask + 1` buckets' bytes, and zero bytes are an empty slot (two
        // atomics of value 0); it is only ever reached through these atomics.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.memory.as_ptr().cast::<Bucket>(), self.mask + 1)
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets()[key as usize & self.mask]
    }

    /// Asks the processor to bring `key`'s bucket into the cache: the probe that follows a few
    /// hundred instructions later then finds it there instead of waiting on memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// A new search begins: what earlier ones stored gives way first from now on.
    pub(super) fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The entry of `key`, if the table holds it.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|slot| {
            let data = slot.data.load(Relaxed);
            let e = Entry::unpack(key, data);
            (slot.check.load(Relaxed) ^ data == key && e.bound != 0).then_some(e)
        })
    }

    /// Keeps `e` for `key`.
    pub(super) fn store(&self, key: u64, e: Entry) {
        let generation = self.generation.load(Relaxed);
        let mut victim = &self.bucket(key).0[0];
        let mut worth = i32::MAX;
        for slot in &self.bucket(key).0 {
            let old = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ old == key {
                if e.depth < Entry::unpack(key, old).depth && e.bound != EXACT {
                    return;
                }
                victim = slot;
                break;
            }
            let w = if old == 0 {
                i32::MIN
            } else if (old >> 56) as u8 != generation {
                -1000 + i32::from((old >> 32) as u8 as i8)
            } else {
                i32::from((old >> 32) as u8 as i8)
            };
            if w < worth {
                worth = w;
                victim = slot;
            }
        }
        let data = e.pack() | u64::from(generation) << 56;
        victim.data.store(data, Relaxed);
        victim.check.store(data ^ key, Relaxed);
    }

    /// Forgets everything (a new game).
    pub(super) fn clear(&self) {
        for slot in self.buckets().iter().flat_map(|b| &b.0) {
            slot.data.store(0, Relaxed);
            slot.check.store(0, Relaxed);
        }
    }
}

/// Asks the processor to bring the cache line of `item` closer (a hint: it never faults, nor
/// changes memory, nor makes a later read see anything else).
#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let address: *const T = item;
        // SAFETY: a prefetch is a hint that never faults nor changes memory, and the address
        // is of a live value.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                address.cast::<i8>(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_has_the_megabytes_asked_for_or_the_power_of_two_below() {
        for (asked, got) in [(1, 1), (64, 64), (100, 64), (0, 1)] {
            assert_eq!(
                Table::new(asked).memory.len(),
                got << 20,
                "{asked} MB asked"
            );
        }
    }

    /// The table's memory is in place once it is made (the kernel's own count of the mapping's
    /// resident memory), not faulted in page by page by the first search.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_table_is_resident() {
        let t = Table::new(8);
        let at = t.memory.as_ptr() as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut lines = smaps.lines();
        let mut resident = None;
        while let Some(line) = lines.next() {
            let range = line.split_whitespace().next().unwrap_or("");
            let Some((start, end)) = range.split_once('-') else {
                continue;
            };
            let (Ok(start), Ok(end)) = (
                usize::from_str_radix(start, 16),
                usize::from_str_radix(end, 16),
            ) else {
                continue;
            };
            if (start..end).contains(&at) {
                resident = lines.find_map(|l| l.strip_prefix("Rss:")).and_then(|kb| {
                    kb.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<usize>()
                        .ok()
                });
                break;
            }
        }
        // At least: the kernel may have merged the mapping with a neighbour of the same kind.
        assert!(resident.is_some_and(|kb| kb >= 8 << 10), "{resident:?} kB");
    }

    #[test]
    fn entries_come_back_as_stored() {
        let t = Table::new(1);
        for (key, score, depth, bound, best) in [
            (0x0123_4567_89ab_cdef_u64, -29_990, 3_i8, EXACT, 7_u8),
            (0xfedc_ba98_7654_3210, 12_345, 127, LOWER, 255),
            (42, -1, -1, UPPER, 0),
        ] {
            let e = Entry {
                key,
                score,
                depth,
                bound,
                best,
            };
            t.store(key, e);
            assert_eq!(t.probe(key), Some(e));
            // Another key of the same slot misses.
            assert_eq!(t.probe(key ^ (1 << 40)), None);
        }
        // A shallower bound does not replace a deeper one; an exact score always does.
        let deep = Entry {
            key: 42,
            score: 5,
            depth: 9,
            bound: LOWER,
            best: 1,
        };
        t.store(42, deep);
        t.store(42, Entry { depth: 2, ..deep });
        assert_eq!(t.probe(42), Some(deep));
        let exact = Entry {
            depth: 2,
            bound: EXACT,
            ..deep
        };
        t.store(42, exact);
        assert_eq!(t.probe(42), Some(exact));
        t.clear();
        assert_eq!(t.probe(42), None);
    }

    /// Keys of one bucket: the low bits the same, the rest apart.
    fn bucket_keys(n: u64) -> Vec<u64> {
        (1..=n)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) << 24 | 7)
            .collect()
    }

    fn entry(key: u64, depth: i8) -> Entry {
        Entry {
            key,
            score: depth.into(),
            depth,
            bound: LOWER,
            best: 0,
        }
    }

    #[test]
    fn a_deep_entry_outlives_shallow_ones_of_its_bucket() {
        let t = Table::new(1);
        let keys = bucket_keys(6);
        t.store(keys[0], entry(keys[0], 20));
        for &k in &keys[1..] {
            t.store(k, entry(k, 1));
        }
        assert_eq!(t.probe(keys[0]), Some(entry(keys[0], 20)));
        // Three slots for five shallow keys: the last one stored is among them.
        assert_eq!(t.probe(keys[5]), Some(entry(keys[5], 1)));
        assert_eq!(
            keys[1..].iter().filter(|&&k| t.probe(k).is_some()).count(),
            3
        );
    }

    #[test]
    fn an_earlier_search_gives_way_first() {
        let t = Table::new(1);
        let keys = bucket_keys(6);
        for &k in &keys[..4] {
            t.store(k, entry(k, 20));
        }
        t.new_search();
        t.store(keys[4], entry(keys[4], 1));
        t.store(keys[5], entry(keys[5], 2));
        // Both went into slots of the earlier search, not over each other.
        assert_eq!(t.probe(keys[4]), Some(entry(keys[4], 1)));
        assert_eq!(t.probe(keys[5]), Some(entry(keys[5], 2)));
        assert_eq!(
            keys[..4].iter().filter(|&&k| t.probe(k).is_some()).count(),
            2
        );
    }

    /// Threads writing one bucket at once never make a probe return an entry that was not stored
    /// for its key: every key here falls in bucket 5, and each entry carries bits of its key in
    /// its score.
    #[test]
    fn torn_writes_read_as_misses() {
        let t = Table::new(1);
        let keys: Vec<u64> = (0..64u64)
            .map(|i| (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) << 20 | 5)
            .collect();
        std::thread::scope(|s| {
            for w in 0..4 {
                let (t, keys) = (&t, &keys);
                s.spawn(move || {
                    for round in 0..20_000 {
                        let key = keys[(round * 7 + w) % keys.len()];
                        t.store(
                            key,
                            Entry {
                                key,
                                score: (key >> 40) as i32 & 0xffff,
                                depth: (round % 100) as i8,
                                bound: EXACT,
                                best: w as u8,
                            },
                        );
                        let probe = keys[(round * 13 + w) % keys.len()];
                        if let Some(e) = t.probe(probe) {
                            assert_eq!(e.score, (probe >> 40) as i32 & 0xffff);
                        }
                    }
                });
            }
        });
    }
}
