//! Probe latency measurement for `draughts tb bench`.

use std::path::Path;
use std::time::Instant;

use crate::rules::board::Position;
use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::format::TableKind;
use crate::tablebase::index::Indexer;
use crate::tablebase::probe::Tablebase;
use crate::tablebase::store::position_of;

/// Mean probe times in nanoseconds.
#[derive(Clone, Debug)]
pub struct ProbeTimes {
    /// Positions probed per measurement.
    pub positions: usize,
    /// WDL probe whose block is not cached (the file is mapped and in the page cache).
    pub wdl_cold_ns: f64,
    /// WDL probe of a cached block.
    pub wdl_cached_ns: f64,
    /// DTW probe whose block is not cached (none when the slices have no DTW tables).
    pub dtw_cold_ns: Option<f64>,
    /// DTW probe of a cached block.
    pub dtw_cached_ns: Option<f64>,
}

/// Probes `samples` positions without a capture, spread over the largest slices, first with an
/// empty block cache and then again with their blocks cached; DTW only where every one of those
/// slices has its DTW table.
pub fn probe_latency(dir: &Path, variant: Variant, samples: usize) -> Result<ProbeTimes, TbError> {
    let tb = Tablebase::open_for(dir, variant)?.with_cache_blocks(4 * samples);
    let mut slices = tb.materials();
    slices.sort_by_key(|&m| std::cmp::Reverse(Indexer::new(variant.geometry(), m).size()));
    slices.truncate(8);
    let with_dtw = slices.iter().all(|&m| tb.has(m, TableKind::Dtw));
    for &m in &slices {
        // Map and check the files now, so the timings see probes only.
        tb.header(m, TableKind::Wdl)?;
        if with_dtw {
            tb.header(m, TableKind::Dtw)?;
        }
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut positions: Vec<Position> = Vec::with_capacity(samples);
    while positions.len() < samples {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = slices[(seed % slices.len() as u64) as usize];
        let ix = Indexer::new(variant.geometry(), m);
        let pos = position_of(variant, ix.unrank((seed >> 8) % ix.size()));
        if !pos.has_capture() {
            positions.push(pos);
        }
    }
    let time = |f: &dyn Fn(&Position) -> Result<(), TbError>| -> Result<f64, TbError> {
        let start = Instant::now();
        for p in &positions {
            f(p)?;
        }
        Ok(start.elapsed().as_nanos() as f64 / positions.len() as f64)
    };
    let wdl = |p: &Position| tb.wdl(p).map(drop);
    let dtw = |p: &Position| tb.dtw(p).map(drop);
    let wdl_cold_ns = time(&wdl)?;
    let wdl_cached_ns = time(&wdl)?;
    let (dtw_cold_ns, dtw_cached_ns) = match with_dtw {
        true => (Some(time(&dtw)?), Some(time(&dtw)?)),
        false => (None, None),
    };
    Ok(ProbeTimes {
        positions: samples,
        wdl_cold_ns,
        wdl_cached_ns,
        dtw_cold_ns,
        dtw_cached_ns,
    })
}
