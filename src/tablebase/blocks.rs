//! Decompressed blocks of table files, shared between threads: what probing keeps of the
//! tables it reads, and what a verification keeps of the slices it reads from their files
//! instead of holding them decoded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::tablebase::error::TbError;

/// Shards of the block cache: probes from several threads rarely wait for each other.
const SHARDS: usize = 16;

/// A shared cache of decompressed blocks, keyed by file and block number. When a shard is full
/// the block that has waited longest since it was loaded makes room (first in, first out).
pub(crate) struct BlockCache {
    per_shard: usize,
    shards: Vec<Mutex<Shard>>,
}

#[derive(Default)]
struct Shard {
    blocks: HashMap<u64, Arc<[u8]>>,
    order: std::collections::VecDeque<u64>,
}

impl BlockCache {
    /// A cache of at most `blocks` blocks (at least one a shard).
    pub(crate) fn new(blocks: usize) -> BlockCache {
        BlockCache {
            per_shard: blocks.div_ceil(SHARDS).max(1),
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
        }
    }

    /// The block under `key`, loaded by `load` when it is not held.
    pub(crate) fn get(
        &self,
        key: u64,
        load: impl FnOnce() -> Result<Vec<u8>, TbError>,
    ) -> Result<Arc<[u8]>, TbError> {
        // Keys differ mostly in their low bits (block numbers); mix them before picking a shard.
        let shard = &self.shards[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize];
        if let Some(block) = shard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .blocks
            .get(&key)
        {
            return Ok(block.clone());
        }
        let block: Arc<[u8]> = load()?.into();
        let mut s = shard.lock().unwrap_or_else(|e| e.into_inner());
        if s.blocks.insert(key, block.clone()).is_none() {
            s.order.push_back(key);
            while s.order.len() > self.per_shard {
                if let Some(old) = s.order.pop_front() {
                    s.blocks.remove(&old);
                }
            }
        }
        Ok(block)
    }
}
