//! Retrograde generation of one job (a slice and its partner, which depend on each other).
//!
//! 1. *Seed.* Every position is generated forward once. Moves that leave the job (captures,
//!    promotions) reach finished slices, so their value is known at once: the best of them is the
//!    position's *exit*. The other moves are counted.
//! 2. *Levels.* Values are settled in order of distance: at level `L` the exits worth `L` are
//!    settled, then every position settled at `L` updates its predecessors (found by un-moving
//!    the opponent's pieces): a loss at `L` makes each predecessor a win at `L + 1`; a win at `L`
//!    uses up one of the predecessor's moves, and a predecessor whose moves are all used up is a
//!    loss at `L + 1` (or later, if an exit loses more slowly). Ascending levels make wins as
//!    short and losses as long as they can be.
//! 3. Whatever is unsettled at the end is a draw.
//!
//! Both steps run in parallel over chunks of the index; predecessors are updated with atomics.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rules::board::{KingRun, Position};
use crate::rules::movegen;
use crate::rules::moves::MoveList;
use crate::rules::piece::Color;
use crate::rules::variant::{RuleSet, Variant, with_rules};
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, Header, TableKind, TableView};
use crate::tablebase::fs;
use crate::tablebase::index::{Indexer, Placement, Walker};
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::memory::{self, Bytes};
use crate::tablebase::progress::{Progress, Report};
use crate::tablebase::value::Dtw;

/// Positions handled by one parallel task.
const CHUNK: usize = 1 << 14;
/// Exit flag: the position must capture (its WDL entry is "don't care").
const CAPTURE: u16 = 0x8000;
/// zstd levels: WDL files are small and read often, DTW files are large.
const WDL_LEVEL: i32 = 19;
const DTW_LEVEL: i32 = 9;

/// Settled values in memory: 0 = not settled, else the DTW code + 1.
#[inline(always)]
fn packed(v: Dtw) -> u16 {
    v.code() + 1
}

#[inline(always)]
fn unpacked(p: u16) -> Dtw {
    Dtw::from_code(p - 1)
}

/// The placement of a position, turned round when Black is to move, and its material.
pub(crate) fn normalize(pos: &Position) -> (Material, Placement) {
    let g = pos.variant.geometry();
    let p = match pos.side {
        Color::White => Placement {
            us: pos.white,
            them: pos.black,
            kings: pos.kings,
        },
        Color::Black => Placement {
            us: g.flip(pos.black),
            them: g.flip(pos.white),
            kings: g.flip(pos.kings),
        },
    };
    (material_of(p), p)
}

pub(crate) fn material_of(p: Placement) -> Material {
    Material::new(
        (p.us & !p.kings).count_ones() as u8,
        (p.us & p.kings).count_ones() as u8,
        (p.them & !p.kings).count_ones() as u8,
        (p.them & p.kings).count_ones() as u8,
    )
}

/// The position of a slice placement (its side to move plays as White).
pub(crate) fn position_of(variant: Variant, p: Placement) -> Position {
    Position {
        white: p.us,
        black: p.them,
        kings: p.kings,
        side: Color::White,
        variant,
        king_run: [KingRun::default(); 2],
    }
}

/// A finished slice held in memory: its index, its DTW file's header and codes.
struct Held {
    ix: Indexer,
    header: Header,
    codes: Vec<u16>,
}

/// Finished slices held in memory as DTW codes, for looking up the moves that leave a job.
pub(crate) struct Store {
    variant: Variant,
    dir: PathBuf,
    slices: HashMap<Material, Held>,
}

impl Store {
    pub(crate) fn new(variant: Variant, dir: &Path) -> Store {
        Store {
            variant,
            dir: dir.to_path_buf(),
            slices: HashMap::new(),
        }
    }

    /// Loads `materials` (dropping any other slice held) and checks each file fully.
    pub(crate) fn hold(&mut self, materials: &[Material]) -> Result<(), TbError> {
        self.slices.retain(|m, _| materials.contains(m));
        for &m in materials {
            if self.slices.contains_key(&m) {
                continue;
            }
            let (header, codes) = load_codes(self.variant, &self.dir, m, TableKind::Dtw)?;
            let ix = Indexer::new(self.variant.geometry(), m);
            self.slices.insert(m, Held { ix, header, codes });
        }
        Ok(())
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// A held slice: its index, DTW header and DTW codes.
    pub(crate) fn slice(&self, m: Material) -> (&Indexer, &Header, &[u16]) {
        let s = self.slices.get(&m).expect("the slice is held");
        (&s.ix, &s.header, &s.codes)
    }

    /// The value of a position computed from the held values of its moves; `list` is left
    /// holding the moves.
    pub(crate) fn derive(&self, pos: &Position, list: &mut MoveList) -> Dtw {
        with_rules!(self.variant, R => movegen::generate::<R>(pos, list));
        let mut best = Dtw::Loss(0);
        for (i, mv) in list.iter().enumerate() {
            let v = self.value(&pos.play(mv)).before();
            if i == 0 || v.preference() > best.preference() {
                best = v;
            }
        }
        best
    }

    /// The value of a position reached by a move (the opponent to move), from its side to move.
    #[inline]
    pub(crate) fn value(&self, pos: &Position) -> Dtw {
        let (m, p) = normalize(pos);
        if m.side(0) == 0 {
            return Dtw::Loss(0);
        }
        let slice = self
            .slices
            .get(&m)
            .expect("every slice a job's moves reach is held before the job runs");
        Dtw::from_code(slice.codes[slice.ix.rank(p) as usize])
    }
}

/// Reads a whole table of one slice after checking header, size and checksum.
pub(crate) fn load_codes(
    variant: Variant,
    dir: &Path,
    m: Material,
    kind: TableKind,
) -> Result<(Header, Vec<u16>), TbError> {
    let path = table_path(dir, m, kind);
    if !path.exists() {
        return Err(TbError::Missing {
            dir: dir.to_path_buf(),
            material: m,
            kind: kind.extension(),
        });
    }
    let map = fs::map(&path)?;
    let corrupt = |reason: String| TbError::Corrupt {
        path: path.clone(),
        reason,
    };
    let view = TableView::new(&map).map_err(corrupt)?;
    check_identity(&view.header, variant, m, kind).map_err(corrupt)?;
    let codes = view.decode_all().map_err(corrupt)?;
    Ok((view.header, codes))
}

/// Checks that a header belongs to the file it was read from.
pub(crate) fn check_identity(
    h: &Header,
    variant: Variant,
    m: Material,
    kind: TableKind,
) -> Result<(), String> {
    if h.variant != variant {
        return Err(format!(
            "table for {}, expected {}",
            h.variant.name(),
            variant.name()
        ));
    }
    if h.material != m || h.kind != kind {
        return Err(format!(
            "holds the {} table of {}, not the {} table of {m}",
            h.kind.extension(),
            h.material,
            kind.extension()
        ));
    }
    let size = Indexer::new(variant.geometry(), m).size();
    if h.positions != size {
        return Err(format!("{} positions, the slice has {size}", h.positions));
    }
    Ok(())
}

/// Whether every file of a job is present and valid (then it need not be generated again).
pub fn job_done(variant: Variant, dir: &Path, job: Material) -> bool {
    let mut materials = vec![job];
    if job.partner() != job {
        materials.push(job.partner());
    }
    materials.iter().all(|&m| {
        [TableKind::Dtw, TableKind::Wdl].iter().all(|&kind| {
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
}

/// Generates every slice of 2..=`pieces` pieces into `dir`, skipping finished jobs. Refuses
/// before the first job when any job still to do needs more than `budget`.
pub fn generate_all(
    variant: Variant,
    pieces: u32,
    dir: &Path,
    report: Report,
    budget: Bytes,
) -> Result<Vec<JobSummary>, TbError> {
    run_jobs(variant, dir, Material::jobs_up_to(pieces), report, budget)
}

/// Generates one job when the slices it depends on are present (a single-slice job for
/// schedulers). Fails with the list of missing slices otherwise.
pub fn generate_job(
    variant: Variant,
    job: Material,
    dir: &Path,
    report: Report,
    budget: Bytes,
) -> Result<JobSummary, TbError> {
    let job = job.job();
    let missing: Vec<String> = job
        .job_dependencies()
        .into_iter()
        .filter(|&d| !job_done(variant, dir, d))
        .map(|d| d.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(TbError::MissingDependencies {
            job,
            missing,
            dir: dir.to_path_buf(),
        });
    }
    let mut done = run_jobs(variant, dir, vec![job], report, budget)?;
    Ok(done.remove(0))
}

/// Generates one job and, first, every job it needs that is not present yet.
pub fn generate_with_dependencies(
    variant: Variant,
    job: Material,
    dir: &Path,
    report: Report,
    budget: Bytes,
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
    run_jobs(variant, dir, order, report, budget)
}

/// Runs jobs in the given (dependency) order, creating the directory first, once every job
/// still to do is known to fit in `budget`.
fn run_jobs(
    variant: Variant,
    dir: &Path,
    jobs: Vec<Material>,
    report: Report,
    budget: Bytes,
) -> Result<Vec<JobSummary>, TbError> {
    let pending: Vec<Material> = jobs
        .iter()
        .copied()
        .filter(|&j| !job_done(variant, dir, j))
        .collect();
    let over = memory::over_budget(variant, &pending, budget);
    if !over.is_empty() {
        return Err(TbError::OverBudget { budget, jobs: over });
    }
    std::fs::create_dir_all(dir).map_err(|e| TbError::Io {
        path: dir.to_path_buf(),
        source: e,
    })?;
    // A run killed mid-write left its temporary file behind; this run redoes that table.
    fs::remove_stale_temporaries(dir);
    let mut store = Store::new(variant, dir);
    jobs.into_iter()
        .map(|job| run_job(&mut store, job, report))
        .collect()
}

fn run_job(store: &mut Store, job: Material, report: Report) -> Result<JobSummary, TbError> {
    let variant = store.variant;
    let dir = store.dir.clone();
    let g = variant.geometry();
    let materials: Vec<Material> = if job.partner() == job {
        vec![job]
    } else {
        vec![job, job.partner()]
    };
    let positions: u64 = materials.iter().map(|&m| Indexer::new(g, m).size()).sum();
    if job_done(variant, &dir, job) {
        return Ok(JobSummary {
            job,
            positions,
            skipped: true,
            peak: None,
        });
    }
    memory::reset_peak();
    let needed: Vec<Material> = materials
        .iter()
        .flat_map(|m| m.successors())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    store.hold(&needed)?;
    let label = materials
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let progress = Progress::start(report, &label, 2 * positions);
    let solved = with_rules!(variant, R => solve::<R>(store, &materials, &progress));
    let built: Vec<_> = solved
        .iter()
        .map(|(m, codes, captures)| (*m, files(variant, *m, codes, captures)))
        .collect();
    drop(solved);
    let longest = built
        .iter()
        .map(|b| (b.1).0.0.longest_win)
        .max()
        .unwrap_or(0);
    for (m, (dtw, _)) in &built {
        fs::write_atomic(&table_path(&dir, *m, TableKind::Dtw), &dtw.1)?;
    }
    // WDL files last, the job's own last of all: it is the file a scheduler waits for.
    for (m, (_, wdl)) in built.iter().rev() {
        fs::write_atomic(&table_path(&dir, *m, TableKind::Wdl), &wdl.1)?;
    }
    let peak = memory::peak();
    let peak_text = peak.map_or(String::new(), |p| format!(", peak memory {p}"));
    progress.finish(&format!(
        "{positions} positions, longest win {longest} plies{peak_text}"
    ));
    Ok(JobSummary {
        job,
        positions,
        skipped: false,
        peak,
    })
}

/// Header and file image of the DTW and the WDL table of a solved slice.
fn files(
    variant: Variant,
    m: Material,
    codes: &[u16],
    captures: &[bool],
) -> ((Header, Vec<u8>), (Header, Vec<u8>)) {
    let (mut wins, mut draws, mut losses, mut longest) = (0u64, 0u64, 0u64, 0u32);
    let mut max_code = 0u16;
    for &c in codes {
        max_code = max_code.max(c);
        match Dtw::from_code(c) {
            Dtw::Win(p) => {
                wins += 1;
                longest = longest.max(p);
            }
            Dtw::Draw => draws += 1,
            Dtw::Loss(_) => losses += 1,
        }
    }
    let header = |kind: TableKind, entry_bits: u8| Header {
        kind,
        variant,
        material: m,
        entry_bits,
        positions: codes.len() as u64,
        wins,
        draws,
        losses,
        longest_win: longest,
        block_positions: kind.block_positions(),
        block_count: 0,
        payload_len: 0,
        checksum: 0,
    };
    let dtw_bits = if max_code <= u8::MAX as u16 { 8 } else { 16 };
    let block = TableKind::Dtw.block_positions() as usize;
    let mut raw: Vec<u8> = if dtw_bits == 8 {
        codes.iter().map(|&c| c as u8).collect()
    } else {
        codes.iter().flat_map(|c| c.to_le_bytes()).collect()
    };
    raw.resize(
        codes.len().div_ceil(block) * block * dtw_bits as usize / 8,
        0,
    );
    let h = header(TableKind::Dtw, dtw_bits);
    let dtw = (h.clone(), format::build(h, &raw, DTW_LEVEL));

    // Capture positions are resolved by search when probed, so their WDL entry may be anything:
    // repeating the last value keeps runs long and the blocks small.
    let block = TableKind::Wdl.block_positions() as usize;
    let mut packed = vec![0u8; codes.len().div_ceil(block) * block / 4];
    let mut last = format::WDL_DRAW;
    for (i, (&c, &capture)) in codes.iter().zip(captures).enumerate() {
        if !capture {
            last = match Dtw::from_code(c) {
                Dtw::Win(_) => format::WDL_WIN,
                Dtw::Draw => format::WDL_DRAW,
                Dtw::Loss(_) => format::WDL_LOSS,
            };
        }
        packed[i / 4] |= last << (2 * (i % 4));
    }
    let h = header(TableKind::Wdl, 2);
    let wdl = (h.clone(), format::build(h, &packed, WDL_LEVEL));
    (dtw, wdl)
}

/// One slice being solved. A position's state word holds its settled value (low 16 bits, 0 while
/// unsettled) and its count of unrefuted moves inside the job (next 8 bits), so that the update
/// of a predecessor touches one word.
struct Work {
    ix: Indexer,
    state: Vec<AtomicU32>,
    exit: Vec<u16>,
}

const LEFT_ONE: u32 = 1 << 16;

#[inline(always)]
fn value_of(state: u32) -> u16 {
    state as u16
}

#[inline(always)]
fn left_of(state: u32) -> u32 {
    (state >> 16) & 0xFF
}

/// Solves the slices of one job; returns per slice its DTW codes and which positions capture.
fn solve<R: RuleSet>(
    store: &Store,
    materials: &[Material],
    progress: &Progress,
) -> Vec<(Material, Vec<u16>, Vec<bool>)> {
    let variant = store.variant;
    let g = R::RULES.geometry;
    let mut work: Vec<Work> = materials
        .iter()
        .map(|&m| {
            let ix = Indexer::new(g, m);
            let n = ix.size() as usize;
            Work {
                ix,
                state: (0..n).map(|_| AtomicU32::new(0)).collect(),
                exit: vec![0; n],
            }
        })
        .collect();

    // Seed: exits and move counts.
    let mut deepest_exit = 0u32;
    for w in &mut work {
        let ix = &w.ix;
        let state = &w.state;
        let deepest = AtomicU64::new(0);
        w.exit
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, exits)| {
                let start = (c * CHUNK) as u64;
                let mut walker = Walker::new(ix, start);
                let mut list = MoveList::new();
                let mut chunk_deepest = 0;
                for (j, exit) in exits.iter_mut().enumerate() {
                    let pos = position_of(variant, walker.placement());
                    let (e, n) = seed::<R>(store, &pos, &mut list);
                    *exit = e;
                    // With no move inside the job the exit is the value.
                    let settled = if n == 0 { e & !CAPTURE } else { 0 };
                    state[start as usize + j].store((n as u32) << 16 | settled as u32, Relaxed);
                    if e != 0 {
                        chunk_deepest = chunk_deepest.max(unpacked(e & !CAPTURE).plies());
                    }
                    walker.advance();
                }
                deepest.fetch_max(chunk_deepest as u64, Relaxed);
                progress.inc(exits.len() as u64);
            });
        deepest_exit = deepest_exit.max(deepest.into_inner() as u32);
    }

    // Levels.
    let pairs: Vec<(usize, usize)> = if work.len() == 1 {
        vec![(0, 0)]
    } else {
        vec![(0, 1), (1, 0)]
    };
    let mut level = 0u32;
    loop {
        for w in &work {
            settle_exits(w, level);
        }
        let mut frontier = 0u64;
        for &(from, to) in &pairs {
            frontier += propagate::<R>(variant, &work[from], &work[to], level, progress);
        }
        if frontier == 0 && level > deepest_exit {
            break;
        }
        level += 1;
    }

    work.into_iter()
        .map(|w| {
            let mut drawn = 0u64;
            let codes: Vec<u16> = w
                .state
                .into_iter()
                .map(|v| match value_of(v.into_inner()) {
                    0 => {
                        drawn += 1;
                        Dtw::Draw.code()
                    }
                    v => v - 1,
                })
                .collect();
            progress.inc(drawn);
            let captures = w.exit.iter().map(|&e| e & CAPTURE != 0).collect();
            (w.ix.material(), codes, captures)
        })
        .collect()
}

/// A position's exit (best value among moves that leave the job, with the capture flag) and the
/// number of its moves that stay in the job.
#[inline]
fn seed<R: RuleSet>(store: &Store, pos: &Position, list: &mut MoveList) -> (u16, u8) {
    movegen::generate::<R>(pos, list);
    if list.is_empty() {
        return (packed(Dtw::Loss(0)), 0);
    }
    let top = R::RULES.geometry.top_row;
    let capture = list.as_slice()[0].is_capture();
    let mut best: Option<Dtw> = None;
    let mut inside = 0u8;
    for mv in list.iter() {
        let promotes = pos.kings & (1u64 << mv.from) == 0 && (1u64 << mv.to) & top != 0;
        if capture || promotes {
            let v = store.value(&movegen::make::<R>(pos, mv)).before();
            if best.is_none_or(|b| v.preference() > b.preference()) {
                best = Some(v);
            }
        } else {
            inside += 1;
        }
    }
    let exit = best.map_or(0, packed);
    if capture {
        (exit | CAPTURE, 0)
    } else {
        (exit, inside)
    }
}

/// Settles the positions whose exit is worth `level`: a win always, a loss once no move inside
/// the job is left.
fn settle_exits(w: &Work, level: u32) {
    w.state
        .par_chunks(CHUNK)
        .zip(w.exit.par_chunks(CHUNK))
        .for_each(|(states, exits)| {
            for (state, &e) in states.iter().zip(exits) {
                let s = state.load(Relaxed);
                if e == 0 || value_of(s) != 0 {
                    continue;
                }
                let done = match unpacked(e) {
                    Dtw::Win(p) => p == level,
                    Dtw::Loss(p) => p == level && left_of(s) == 0,
                    Dtw::Draw => false,
                };
                if done {
                    state.store(s | e as u32, Relaxed);
                }
            }
        });
}

/// Updates the predecessors (in `to`) of every position of `from` settled at `level` with a win
/// or a loss. Returns how many positions were on that level.
fn propagate<R: RuleSet>(
    variant: Variant,
    from: &Work,
    to: &Work,
    level: u32,
    progress: &Progress,
) -> u64 {
    // Wins take an odd number of plies and losses an even number, so a level holds one kind.
    let losing_level = level.is_multiple_of(2);
    let here = packed(if losing_level {
        Dtw::Loss(level)
    } else {
        Dtw::Win(level)
    });
    let win_next = packed(Dtw::Win(level + 1));
    let loss_next = packed(Dtw::Loss(level + 1));
    let settled = AtomicU64::new(0);
    from.state
        .par_chunks(CHUNK)
        .enumerate()
        .for_each(|(c, states)| {
            let start = (c * CHUNK) as u64;
            let mut walker: Option<(Walker<'_>, u64)> = None;
            let mut count = 0u64;
            for (j, s) in states.iter().enumerate() {
                if value_of(s.load(Relaxed)) != here {
                    continue;
                }
                count += 1;
                let index = start + j as u64;
                let p = match &mut walker {
                    Some((w, at)) if index - *at < 64 => {
                        while *at < index {
                            w.advance();
                            *at += 1;
                        }
                        w.placement()
                    }
                    _ => {
                        let w = Walker::new(&from.ix, index);
                        let p = w.placement();
                        walker = Some((w, index));
                        p
                    }
                };
                predecessors::<R>(variant, p, |q| {
                    let i = to.ix.rank(q) as usize;
                    let state = &to.state[i];
                    if value_of(state.load(Relaxed)) != 0 {
                        return;
                    }
                    // Only one kind of write happens on a level, so these need no retry loop:
                    // on a losing level every writer sets the same win; on a winning level only
                    // the update that uses up the last move settles the position.
                    if losing_level {
                        state.fetch_or(win_next as u32, Relaxed);
                        return;
                    }
                    if left_of(state.fetch_sub(LEFT_ONE, Relaxed)) != 1 {
                        return;
                    }
                    let e = to.exit[i];
                    let settle = match e {
                        0 => loss_next,
                        e => match unpacked(e) {
                            Dtw::Win(_) => return,
                            Dtw::Draw => e,
                            Dtw::Loss(p) if p <= level + 1 => loss_next,
                            Dtw::Loss(_) => return,
                        },
                    };
                    state.fetch_or(settle as u32, Relaxed);
                });
            }
            settled.fetch_add(count, Relaxed);
            progress.inc(count);
        });
    settled.into_inner()
}

/// Calls `f` with every position (turned round, so its side to move plays up) from which the
/// opponent of `p`'s side to move reached `p` with a simple move that is legal there: a move
/// back by one of its men or kings that leaves a position where it had no capture.
#[inline]
fn predecessors<R: RuleSet>(variant: Variant, p: Placement, mut f: impl FnMut(Placement)) {
    let g = R::RULES.geometry;
    let empty = g.board & !(p.us | p.them);
    let us = g.flip(p.us);
    let mut visit = |them: u64, kings: u64| {
        let q = Placement {
            us: g.flip(them),
            them: us,
            kings: g.flip(kings),
        };
        // Checking the capture here is cheaper than the memory access it saves.
        if !movegen::has_capture::<R>(&position_of(variant, q)) {
            f(q);
        }
    };
    let mut men = p.them & !p.kings;
    while men != 0 {
        let bit = men & men.wrapping_neg();
        men &= men - 1;
        for &d in movegen::forward(Color::Black) {
            let back = g.shift(bit, crate::rules::geometry::REVERSE[d]) & empty;
            if back != 0 {
                visit(p.them ^ bit ^ back, p.kings);
            }
        }
    }
    let mut kings = p.them & p.kings;
    while kings != 0 {
        let bit = kings & kings.wrapping_neg();
        kings &= kings - 1;
        for d in movegen::DIAGONALS {
            let mut back = g.shift(bit, d) & empty;
            while back != 0 {
                visit(p.them ^ bit ^ back, p.kings ^ bit ^ back);
                if !R::RULES.flying_kings {
                    break;
                }
                back = g.shift(back, d) & empty;
            }
        }
    }
}
