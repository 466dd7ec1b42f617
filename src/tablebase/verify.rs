//! Full verification: every checksum, and every stored value re-derived from its moves.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rules::moves::MoveList;
use crate::rules::notation::fen::to_fen;
use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, TableKind};
use crate::tablebase::index::{Indexer, Walker};
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::probe::Tablebase;
use crate::tablebase::progress::{Progress, Report};
use crate::tablebase::store::{Store, load_codes, position_of};
use crate::tablebase::value::Dtw;

const CHUNK: usize = 1 << 14;

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
/// Stops at the first inconsistency.
pub fn verify(variant: Variant, dir: &Path, report: Report) -> Result<VerifySummary, TbError> {
    verify_slices(variant, dir, None, report)
}

/// Checks as [`verify`] does, the slices of one job only (the job a workstation or a cluster
/// node has just generated), reading the slices its moves reach.
pub fn verify_job(
    variant: Variant,
    dir: &Path,
    job: Material,
    report: Report,
) -> Result<VerifySummary, TbError> {
    verify_slices(variant, dir, Some(job.job()), report)
}

fn verify_slices(
    variant: Variant,
    dir: &Path,
    job: Option<Material>,
    report: Report,
) -> Result<VerifySummary, TbError> {
    let tb = Tablebase::open_for(dir, variant)?;
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
        let mut hold: Vec<Material> = m.successors().into_iter().collect();
        hold.push(m);
        hold.push(m.partner());
        store.hold(&hold)?;
        let (wdl_header, wdl) = load_codes(variant, dir, m, TableKind::Wdl)?;
        let positions = wdl.len() as u64;
        let progress = Progress::start(report, &format!("verify {m}"), positions);
        check_slice(&store, m, (&wdl_header, &wdl), dir, &progress)?;
        progress.finish(&format!("{positions} positions consistent"));
        summary.slices += 1;
        summary.positions += positions;
    }
    Ok(summary)
}

fn check_slice(
    store: &Store,
    m: Material,
    (wdl_header, wdl): (&format::Header, &[u16]),
    dir: &Path,
    progress: &Progress,
) -> Result<(), TbError> {
    let (ix, dtw_header, dtw) = store.slice(m);
    let variant = store.variant();
    let dtw_path = table_path(dir, m, TableKind::Dtw);
    let wdl_path = table_path(dir, m, TableKind::Wdl);
    let first_error: Mutex<Option<(u64, TbError)>> = Mutex::new(None);
    let (wins, draws, losses) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    dtw.par_chunks(CHUNK).enumerate().for_each(|(c, codes)| {
        let start = (c * CHUNK) as u64;
        let mut walker = Walker::new(ix, start);
        let mut list = MoveList::new();
        for (j, &code) in codes.iter().enumerate() {
            let index = start + j as u64;
            let pos = position_of(variant, walker.placement());
            walker.advance();
            let stored = Dtw::from_code(code);
            match stored {
                Dtw::Win(_) => wins.fetch_add(1, Relaxed),
                Dtw::Draw => draws.fetch_add(1, Relaxed),
                Dtw::Loss(_) => losses.fetch_add(1, Relaxed),
            };
            let derived = store.derive(&pos, &mut list);
            let mut bad = None;
            if derived != stored {
                bad = Some((&dtw_path, stored.to_string(), derived.to_string()));
            } else if !list.as_slice().first().is_some_and(|mv| mv.is_capture()) {
                let want = match stored {
                    Dtw::Win(_) => format::WDL_WIN,
                    Dtw::Draw => format::WDL_DRAW,
                    Dtw::Loss(_) => format::WDL_LOSS,
                } as u16;
                if wdl[index as usize] != want {
                    let names = ["draw", "win", "loss", "invalid code"];
                    bad = Some((
                        &wdl_path,
                        format!("result={}", names[wdl[index as usize].min(3) as usize]),
                        format!("result={}", derived.wdl()),
                    ));
                }
            }
            if let Some((path, stored, derived)) = bad {
                let mut first = first_error.lock().unwrap_or_else(|e| e.into_inner());
                if first.as_ref().is_none_or(|(i, _)| index < *i) {
                    *first = Some((
                        index,
                        TbError::Inconsistent {
                            path: path.clone(),
                            fen: to_fen(&pos),
                            stored,
                            derived,
                        },
                    ));
                }
                return;
            }
        }
        progress.inc(codes.len() as u64);
    });
    if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    for (h, path) in [(dtw_header, dtw_path), (wdl_header, wdl_path)] {
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
