//! Full verification: every checksum, and every stored value re-derived from its moves.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rules::moves::MoveList;
use crate::rules::notation::fen::to_fen;
use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, TableKind, TableView};
use crate::tablebase::index::{Indexer, Walker};
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::memory::Bytes;
use crate::tablebase::probe::Tablebase;
use crate::tablebase::progress::{Progress, Report};
use crate::tablebase::store::{Store, map_table, position_of};
use crate::tablebase::value::Dtw;

/// The program beside the slices held: its code, the blocks being checked, thread stacks.
const OVERHEAD: u64 = 64 << 20;

/// What a verification covered.
#[derive(Clone, Debug, Default)]
pub struct VerifySummary {
    /// Slices checked.
    pub slices: usize,
    /// Positions checked.
    pub positions: u64,
}

/// Checks every table in `dir`: both files of each slice must be present and intact, their
/// headers must agree with their contents, each DTW value must equal the best of its moves'
/// values (a move to a finished position, a capture or promotion into a smaller slice, or a move
/// inside the slice pair), and each WDL entry of a position without a capture must agree with it.
/// The slices a slice's moves reach are held decoded while they fit in `budget`, and read from
/// their files beyond it. Stops at the first inconsistency.
pub fn verify(
    variant: Variant,
    dir: &Path,
    budget: Bytes,
    report: Report,
) -> Result<VerifySummary, TbError> {
    verify_slices(variant, dir, None, budget, report)
}

/// Checks as [`verify`] does, the slices of one job only (the job a workstation or a cluster
/// node has just generated), reading the slices its moves reach.
pub fn verify_job(
    variant: Variant,
    dir: &Path,
    job: Material,
    budget: Bytes,
    report: Report,
) -> Result<VerifySummary, TbError> {
    verify_slices(variant, dir, Some(job.job()), budget, report)
}

fn verify_slices(
    variant: Variant,
    dir: &Path,
    job: Option<Material>,
    budget: Bytes,
    report: Report,
) -> Result<VerifySummary, TbError> {
    let tb = Tablebase::open_for(dir, variant)?;
    let g = variant.geometry();
    let mut store = Store::new(variant, dir);
    let mut summary = VerifySummary::default();
    let materials: Vec<Material> = match job {
        Some(job) => crate::tablebase::memory::job_slices(variant, job)
            .iter()
            .map(Indexer::material)
            .collect(),
        None => tb.materials(),
    };
    for m in materials {
        let positions = Indexer::new(g, m).size();
        let with_dtw = table_path(dir, m, TableKind::Dtw).exists();
        let label = if with_dtw {
            // Most moves stay in the slice pair: it is decoded first, then the smaller slices.
            let mut hold = vec![m];
            if m.partner() != m {
                hold.push(m.partner());
            }
            let mut reached: Vec<Material> = m.successors().into_iter().collect();
            reached.sort_by_key(|&s| Indexer::new(g, s).size());
            hold.extend(reached);
            let holding = store.hold_within(&hold, Bytes(budget.0.saturating_sub(OVERHEAD)))?;
            match holding.mapped {
                0 => format!("verify {m}"),
                n => format!(
                    "verify {m} ({} of {} slices read from their files)",
                    n,
                    hold.len()
                ),
            }
        } else {
            // WDL alone: a position that must capture is resolved by its captures, so every
            // slice the moves can lead to is held, a quarter of a byte a position.
            let mut hold = vec![m, m.partner()];
            hold.extend(m.reachable());
            hold.extend(m.partner().reachable());
            hold.sort();
            hold.dedup();
            store.hold_wdl(&hold)?;
            format!("verify {m} (WDL only)")
        };
        let progress = Progress::start(report, &label, positions);
        check_slice(&store, m, dir, with_dtw, &progress)?;
        progress.finish(&format!("{positions} positions consistent"));
        summary.slices += 1;
        summary.positions += positions;
    }
    Ok(summary)
}

/// Checks one slice block by block: its files are read through their maps, never whole. Without
/// its DTW file (`with_dtw` false) the WDL entries are checked against the results of the moves.
fn check_slice(
    store: &Store,
    m: Material,
    dir: &Path,
    with_dtw: bool,
    progress: &Progress,
) -> Result<(), TbError> {
    let variant = store.variant();
    let ix = Indexer::new(variant.geometry(), m);
    let dtw_file = match with_dtw {
        true => Some(map_table(variant, dir, m, TableKind::Dtw)?),
        false => None,
    };
    let (wdl_map, wdl_header) = map_table(variant, dir, m, TableKind::Wdl)?;
    let dtw_view = dtw_file
        .as_ref()
        .map(|(map, header)| TableView::checked(map, header.clone()));
    let wdl_view = TableView::checked(&wdl_map, wdl_header.clone());
    let dtw_path = table_path(dir, m, TableKind::Dtw);
    let wdl_path = table_path(dir, m, TableKind::Wdl);
    let first_error: Mutex<Option<(u64, TbError)>> = Mutex::new(None);
    let fail = |index: u64, e: TbError| {
        let mut first = first_error.lock().unwrap_or_else(|e| e.into_inner());
        if first.as_ref().is_none_or(|(i, _)| index < *i) {
            *first = Some((index, e));
        }
    };
    let corrupt = |path: &Path, reason: String| TbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let (wins, draws, losses) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let wbp = wdl_header.block_positions as u64;
    let dbp = dtw_view
        .as_ref()
        .map_or(1, |v| v.header.block_positions as u64);
    (0..wdl_header.block_count as u64)
        .into_par_iter()
        .for_each(|b| {
            let start = b * wbp;
            let wdl = match wdl_view.decode_block(b as usize) {
                Ok(codes) => codes,
                Err(reason) => return fail(start, corrupt(&wdl_path, reason)),
            };
            let end = start + wdl.len() as u64;
            let mut dtw = Vec::with_capacity(wdl.len());
            if let Some(view) = &dtw_view {
                for d in start / dbp..end.div_ceil(dbp) {
                    match view.decode_block(d as usize) {
                        Ok(codes) => {
                            let from = start.saturating_sub(d * dbp) as usize;
                            let to = ((end - d * dbp) as usize).min(codes.len());
                            dtw.extend_from_slice(&codes[from..to]);
                        }
                        Err(reason) => return fail(d * dbp, corrupt(&dtw_path, reason)),
                    }
                }
            }
            let mut walker = Walker::new(&ix, start);
            let mut list = MoveList::new();
            for (j, &wdl_code) in wdl.iter().enumerate() {
                let index = start + j as u64;
                let pos = position_of(variant, walker.placement());
                walker.advance();
                let derived = store.derive(&pos, &mut list);
                // Without distances the derived value stands in for the stored one: its result
                // is what the WDL entry is checked against.
                let stored = dtw.get(j).map_or(derived, |&code| Dtw::from_code(code));
                match stored {
                    Dtw::Win(_) => wins.fetch_add(1, Relaxed),
                    Dtw::Draw => draws.fetch_add(1, Relaxed),
                    Dtw::Loss(_) => losses.fetch_add(1, Relaxed),
                };
                let mut bad = None;
                if derived != stored {
                    bad = Some((&dtw_path, stored.to_string(), derived.to_string()));
                } else if !list.as_slice().first().is_some_and(|mv| mv.is_capture()) {
                    let want = match stored {
                        Dtw::Win(_) => format::WDL_WIN,
                        Dtw::Draw => format::WDL_DRAW,
                        Dtw::Loss(_) => format::WDL_LOSS,
                    } as u16;
                    if wdl_code != want {
                        let names = ["draw", "win", "loss", "invalid code"];
                        bad = Some((
                            &wdl_path,
                            format!("result={}", names[wdl_code.min(3) as usize]),
                            format!("result={}", derived.wdl()),
                        ));
                    }
                }
                if let Some((path, stored, derived)) = bad {
                    let fen = to_fen(&pos);
                    let path = path.clone();
                    return fail(
                        index,
                        TbError::Inconsistent {
                            path,
                            fen,
                            stored,
                            derived,
                        },
                    );
                }
            }
            progress.inc(wdl.len() as u64);
        });
    if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut headers = vec![(&wdl_header, wdl_path)];
    if let Some((_, h)) = &dtw_file {
        headers.push((h, dtw_path));
    }
    for (h, path) in headers {
        let counted = (
            wins.load(Relaxed),
            draws.load(Relaxed),
            losses.load(Relaxed),
        );
        if (h.wins, h.draws, h.losses) != counted {
            return Err(TbError::Corrupt {
                path,
                reason: format!(
                    "header counts wins/draws/losses {}/{}/{}, the table holds {}/{}/{}",
                    h.wins, h.draws, h.losses, counted.0, counted.1, counted.2
                ),
            });
        }
    }
    Ok(())
}
