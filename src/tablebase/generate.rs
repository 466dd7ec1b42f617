//! Generation of jobs (a slice and its partner, which depend on each other): the finished slices
//! a job reads, the way it is solved within the memory budget (whole, or in sub-slices), and the
//! table files it writes. The solving itself is in [`solve`](crate::tablebase::solve).

use std::path::Path;

use rayon::prelude::*;

use crate::rules::variant::{Variant, with_rules};
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, Header, Metric, TableKind, TableView};
use crate::tablebase::fs;
use crate::tablebase::index::Indexer;
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::memory::{self, Bytes, Layout, Limits};
use crate::tablebase::progress::{Progress, Report};
use crate::tablebase::solve::{self, Job};
use crate::tablebase::store::{Store, check_identity};
use crate::tablebase::subslice::{self, CAPTURE, Part, Scratch};
use crate::tablebase::value::Dtw;

/// zstd levels: WDL files are small and read often, DTW files are large. Level 15 compresses
/// WDL blocks within 1% of level 19 (six-piece samples) in less than half the time.
const WDL_LEVEL: i32 = 15;
const DTW_LEVEL: i32 = 9;

/// Whether every file a job of `metric` writes is present and valid (then it need not be
/// generated again).
pub fn job_done(variant: Variant, dir: &Path, job: Material, metric: Metric) -> bool {
    let mut materials = vec![job];
    if job.partner() != job {
        materials.push(job.partner());
    }
    materials.iter().all(|&m| {
        metric.kinds().iter().all(|&kind| {
            let path = table_path(dir, m, kind);
            fs::map(&path).is_ok_and(|map| {
                TableView::new(&map)
                    .is_ok_and(|v| check_identity(&v.header, variant, m, kind).is_ok())
            })
        })
    })
}

/// What one job produced.
#[derive(Clone, Debug)]
pub struct JobSummary {
    /// The job.
    pub job: Material,
    /// Positions solved (both slices).
    pub positions: u64,
    /// True when the files were already there and valid.
    pub skipped: bool,
    /// The process's peak memory while the job ran, where the system measures it.
    pub peak: Option<Bytes>,
    /// The peak of the process's private memory while the job ran (without mapped files).
    pub private_peak: Option<Bytes>,
    /// Sub-slices the job was solved in (0: solved whole).
    pub sub_slices: usize,
}

/// Generates every slice of 2..=`pieces` pieces into `dir`, skipping finished jobs. Refuses
/// before the first job when any job still to do fits the limits (a budget, or a budget and a
/// sub-slice size) in no layout.
pub fn generate_all(
    variant: Variant,
    pieces: u32,
    dir: &Path,
    report: Report,
    limits: impl Into<Limits>,
) -> Result<Vec<JobSummary>, TbError> {
    run_jobs(
        variant,
        dir,
        Material::jobs_up_to(pieces),
        report,
        limits.into(),
    )
}

/// Generates one job when the slices it depends on are present (a single-slice job for
/// schedulers). Fails with the list of missing slices otherwise.
pub fn generate_job(
    variant: Variant,
    job: Material,
    dir: &Path,
    report: Report,
    limits: impl Into<Limits>,
) -> Result<JobSummary, TbError> {
    let job = job.job();
    let limits = limits.into();
    let missing: Vec<String> = job
        .job_dependencies()
        .into_iter()
        .filter(|&d| !job_done(variant, dir, d, limits.metric))
        .map(|d| d.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(TbError::MissingDependencies {
            job,
            missing,
            metric: limits.metric,
            dir: dir.to_path_buf(),
        });
    }
    let mut done = run_jobs(variant, dir, vec![job], report, limits)?;
    Ok(done.remove(0))
}

/// Generates one job and, first, every job it needs that is not present yet.
pub fn generate_with_dependencies(
    variant: Variant,
    job: Material,
    dir: &Path,
    report: Report,
    limits: impl Into<Limits>,
) -> Result<Vec<JobSummary>, TbError> {
    let mut needed = vec![job.job()];
    let mut i = 0;
    while i < needed.len() {
        for d in needed[i].job_dependencies() {
            if !needed.contains(&d) {
                needed.push(d);
            }
        }
        i += 1;
    }
    let mut order = Material::jobs_up_to(job.pieces());
    order.retain(|j| needed.contains(j));
    run_jobs(variant, dir, order, report, limits.into())
}

/// Runs jobs in the given (dependency) order, creating the directory first, once every job
/// still to do is known to fit the limits.
fn run_jobs(
    variant: Variant,
    dir: &Path,
    jobs: Vec<Material>,
    report: Report,
    limits: Limits,
) -> Result<Vec<JobSummary>, TbError> {
    let pending: Vec<Material> = jobs
        .iter()
        .copied()
        .filter(|&j| !job_done(variant, dir, j, limits.metric))
        .collect();
    let over = memory::over_budget(variant, &pending, limits);
    if !over.is_empty() {
        return Err(TbError::OverBudget {
            budget: limits.budget,
            jobs: over,
        });
    }
    std::fs::create_dir_all(dir).map_err(|e| TbError::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    // A run killed mid-write left its temporary file behind; this run redoes that table.
    fs::remove_stale_temporaries(dir);
    let mut store = Store::new(variant, dir);
    jobs.into_iter()
        .map(|job| run_job(&mut store, job, report, limits))
        .collect()
}

fn run_job(
    store: &mut Store,
    job: Material,
    report: Report,
    limits: Limits,
) -> Result<JobSummary, TbError> {
    let variant = store.variant();
    let dir = store.dir().to_path_buf();
    let ixs = memory::job_slices(variant, job);
    let positions: u64 = ixs.iter().map(Indexer::size).sum();
    if job_done(variant, &dir, job, limits.metric) {
        return Ok(JobSummary {
            job,
            positions,
            skipped: true,
            peak: None,
            private_peak: None,
            sub_slices: 0,
        });
    }
    let (layout, _) = memory::layout(variant, job, limits).map_err(|need| TbError::OverBudget {
        budget: limits.budget,
        jobs: vec![need],
    })?;
    memory::reset_peak();
    let private = memory::PrivatePeak::start();
    let read = memory::reads(variant, job, limits.metric);
    match limits.metric {
        Metric::Dtw => store.hold(&read)?,
        Metric::Wdl => store.hold_wdl(&read)?,
    }
    let label = ixs
        .iter()
        .map(|ix| ix.material().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let progress = Progress::start(report, &label, 2 * positions);
    let mut resumed = 0;
    let (tables, sub_slices) = match layout {
        Layout::Whole => {
            let codes = solve_part(store, &ixs, &Part::whole(&ixs), None, &progress);
            let mut at = 0;
            let tables = ixs
                .iter()
                .map(|ix| {
                    let n = ix.size() as usize;
                    at += n;
                    files(variant, ix.material(), &codes[at - n..at], limits.metric)
                })
                .collect::<Vec<_>>();
            (tables, 0)
        }
        Layout::SubSlices { cap } => {
            // A resumed run keeps the plan of the run it takes up, when that still fits.
            let cap = subslice::recorded_cap(&dir, job)
                .filter(|&c| c <= cap)
                .unwrap_or(cap);
            let parts = subslice::plan(variant.geometry(), &ixs, cap)
                .expect("the layout's sub-slices are at least as large as a placement of the men");
            let mut scratch = Scratch::open(variant, &dir, job, &ixs, parts.len(), cap)?;
            resumed = scratch.done();
            for part in &parts[..scratch.done()] {
                progress.inc(2 * part.positions());
            }
            for part in &parts[scratch.done()..] {
                let codes = solve_part(store, &ixs, part, Some(scratch.values()), &progress);
                scratch.finish(part, &codes)?;
            }
            let tables = ixs
                .iter()
                .zip(scratch.values())
                .map(|(ix, codes)| files(variant, ix.material(), codes, limits.metric))
                .collect::<Vec<_>>();
            (tables, parts.len())
        }
    };
    let longest = tables
        .iter()
        .filter_map(|t| t.dtw.as_ref().map(|d| d.0.longest_win))
        .max();
    for t in &tables {
        if let Some((_, image)) = &t.dtw {
            fs::write_atomic(&table_path(&dir, t.material, TableKind::Dtw), image)?;
        }
    }
    // WDL files last, the job's own last of all: it is the file a scheduler waits for.
    for t in tables.iter().rev() {
        fs::write_atomic(&table_path(&dir, t.material, TableKind::Wdl), &t.wdl.1)?;
    }
    if sub_slices > 0 {
        subslice::remove_scratch(&dir, job);
    }
    let peak = memory::peak();
    let private_peak = private.finish();
    let peak_text = match (peak, private_peak) {
        (Some(p), Some(q)) if sub_slices > 0 => format!(", peak memory {p} (private {q})"),
        (Some(p), _) => format!(", peak memory {p}"),
        (None, _) => String::new(),
    };
    let cut = match (sub_slices, resumed) {
        (0, _) => String::new(),
        (n, 0) => format!(", {n} sub-slices"),
        (n, r) => format!(", {n} sub-slices (resumed after {r})"),
    };
    let longest = match longest {
        Some(plies) => format!(", longest win {plies} plies"),
        None => ", WDL only".to_string(),
    };
    progress.finish(&format!("{positions} positions{longest}{cut}{peak_text}"));
    Ok(JobSummary {
        job,
        positions,
        skipped: false,
        peak,
        private_peak,
        sub_slices,
    })
}

/// Solves one part of a job with the rules of its variant.
fn solve_part(
    store: &Store,
    ixs: &[Indexer],
    part: &Part,
    finished: Option<Vec<&[u16]>>,
    progress: &Progress,
) -> Vec<u16> {
    let job = Job {
        variant: store.variant(),
        store,
        ixs,
        finished,
    };
    with_rules!(store.variant(), R => solve::solve::<R>(&job, part, progress))
}

/// The table files of a solved slice, as headers and file images.
struct Tables {
    material: Material,
    /// None when the job builds WDL only.
    dtw: Option<(Header, Vec<u8>)>,
    wdl: (Header, Vec<u8>),
}

/// Builds the tables of `metric` of a slice from its values (DTW codes, the top bit marking
/// positions that must capture), a block at a time. Solved for WDL only, the codes hold results
/// with distances that are not the game's, so no distance is written (the longest win is 0).
fn files(variant: Variant, m: Material, codes: &[u16], metric: Metric) -> Tables {
    #[derive(Default)]
    struct Counts {
        wins: u64,
        draws: u64,
        losses: u64,
        longest: u32,
        max_code: u16,
    }
    let counts = codes
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut c = Counts::default();
            for &v in chunk {
                let v = v & !CAPTURE;
                c.max_code = c.max_code.max(v);
                match Dtw::from_code(v) {
                    Dtw::Win(p) => {
                        c.wins += 1;
                        c.longest = c.longest.max(p);
                    }
                    Dtw::Draw => c.draws += 1,
                    Dtw::Loss(_) => c.losses += 1,
                }
            }
            c
        })
        .reduce(Counts::default, |a, b| Counts {
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
            longest: a.longest.max(b.longest),
            max_code: a.max_code.max(b.max_code),
        });
    let header = |kind: TableKind, entry_bits: u8| Header {
        kind,
        variant,
        material: m,
        entry_bits,
        positions: codes.len() as u64,
        wins: counts.wins,
        draws: counts.draws,
        losses: counts.losses,
        longest_win: match metric {
            Metric::Dtw => counts.longest,
            Metric::Wdl => 0,
        },
        block_positions: kind.block_positions(),
        block_count: 0,
        payload_len: 0,
        checksum: 0,
    };
    let dtw_bits = if counts.max_code <= u8::MAX as u16 {
        8
    } else {
        16
    };
    let dtw = (metric == Metric::Dtw).then(|| dtw_file(header(TableKind::Dtw, dtw_bits), codes));

    // Capture positions are resolved by search when probed, so their WDL entry may be anything:
    // repeating the last value keeps runs long and the blocks small.
    let wdl_of = |c: u16| match Dtw::from_code(c & !CAPTURE) {
        Dtw::Win(_) => format::WDL_WIN,
        Dtw::Draw => format::WDL_DRAW,
        Dtw::Loss(_) => format::WDL_LOSS,
    };
    let h = header(TableKind::Wdl, 2);
    let block = h.block_positions as usize;
    let raw_len = h.raw_block_len();
    // The value each block starts repeating: the last one before it that is not a capture (one
    // pass over the blocks, so a long run of captures is not searched back from every block).
    let lasts: Vec<Option<u8>> = codes
        .par_chunks(block)
        .map(|chunk| {
            chunk
                .iter()
                .rev()
                .find(|&&c| c & CAPTURE == 0)
                .map(|&c| wdl_of(c))
        })
        .collect();
    let carried: Vec<u8> = lasts
        .iter()
        .scan(format::WDL_DRAW, |last, &block_last| {
            let start = *last;
            *last = block_last.unwrap_or(*last);
            Some(start)
        })
        .collect();
    let wdl_image = format::build_blocks(h.clone(), WDL_LEVEL, |i| {
        let from = (i * block).min(codes.len());
        let chunk = &codes[from..((i + 1) * block).min(codes.len())];
        let mut last = carried.get(i).copied().unwrap_or(format::WDL_DRAW);
        let mut packed = vec![0u8; raw_len];
        for (j, &c) in chunk.iter().enumerate() {
            if c & CAPTURE == 0 {
                last = wdl_of(c);
            }
            packed[j / 4] |= last << (2 * (j % 4));
        }
        packed
    });
    Tables {
        material: m,
        dtw,
        wdl: (h, wdl_image),
    }
}

/// The DTW file of a slice from its values, a block at a time.
fn dtw_file(h: Header, codes: &[u16]) -> (Header, Vec<u8>) {
    let block = h.block_positions as usize;
    let raw_len = h.raw_block_len();
    let wide = h.entry_bits == 16;
    let image = format::build_blocks(h.clone(), DTW_LEVEL, |i| {
        let from = (i * block).min(codes.len());
        let chunk = &codes[from..((i + 1) * block).min(codes.len())];
        let mut raw: Vec<u8> = if wide {
            chunk
                .iter()
                .flat_map(|&c| (c & !CAPTURE).to_le_bytes())
                .collect()
        } else {
            chunk.iter().map(|&c| (c & !CAPTURE) as u8).collect()
        };
        raw.resize(raw_len, 0);
        raw
    });
    (h, image)
}
