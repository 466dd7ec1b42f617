//! Sub-slices: a job cut by where the men stand, solved in the order in which men advance.
//!
//! A man never moves back, so a man's move leads from one placement of the men to a further
//! advanced one (the rows the men have walked, summed over both sides, grow by one), while king
//! moves keep the men where they are. Solved from the most advanced placements to the least,
//! each placement of the men, with both sides to move, is a retrograde problem of its own: its
//! king moves stay inside, its men's moves lead to placements already solved, whose values are
//! read back from the job's scratch file. A sub-slice is a batch of placements of one
//! advancement (they never reach each other), as many as the memory budget allows.
//!
//! The index ranks the men before the kings, so a placement of the men is one range of each
//! slice's index and the table files do not change: a job solved in sub-slices writes the same
//! files as one solved whole. Kings-only materials have a single placement of the men (none) and
//! are solved whole.
//!
//! The scratch file holds every position's value (its DTW code, the top bit marking a position
//! that must capture) as the sub-slices are solved. It is mapped, so the system keeps it in
//! memory while memory is free and writes it out when it is not; it is not part of the budget.
//! A small progress file beside it records the sub-slices done, so a run killed and started
//! again resumes after the last of them.

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::MmapMut;

use crate::rules::geometry::Geometry;
use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::fs;
use crate::tablebase::index::{Indexer, Placement};
use crate::tablebase::material::Material;

/// One range of a slice's index inside a part, and where it starts in the part's own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The slice of the job (0, or 1 for the partner).
    pub slice: usize,
    /// The first position in the slice's index.
    pub start: u64,
    /// Positions.
    pub len: u64,
    /// The number of the first position in the part.
    pub local: u64,
}

/// A slice, the first position of a range of its index, and the range's length.
type Range = (usize, u64, u64);

/// The positions solved together: the whole job, or one sub-slice.
#[derive(Clone, Debug)]
pub(crate) struct Part {
    /// Sorted by slice and start (so also by local number).
    segments: Vec<Segment>,
    positions: u64,
    /// Each slice whole, one segment a slice: a position's number needs no search.
    whole: bool,
}

impl Part {
    /// Every position of the job's slices.
    pub fn whole(ixs: &[Indexer]) -> Part {
        let mut part = Part::new(
            ixs.iter()
                .enumerate()
                .map(|(slice, ix)| (slice, 0, ix.size()))
                .collect(),
        );
        part.whole = part.segments.len() == ixs.len();
        part
    }

    fn new(mut ranges: Vec<Range>) -> Part {
        ranges.sort_unstable();
        let mut local = 0;
        let segments = ranges
            .into_iter()
            .filter(|r| r.2 > 0)
            .map(|(slice, start, len)| {
                let s = Segment {
                    slice,
                    start,
                    len,
                    local,
                };
                local += len;
                s
            })
            .collect();
        Part {
            segments,
            positions: local,
            whole: false,
        }
    }

    /// Positions in the part.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The ranges of the slices the part holds.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The part's number of position `index` of slice `slice`, when the part holds it.
    #[inline]
    pub fn local(&self, slice: usize, index: u64) -> Option<u64> {
        if self.whole {
            return Some(self.segments[slice].local + index);
        }
        let i = self
            .segments
            .partition_point(|s| (s.slice, s.start) <= (slice, index));
        let s = self.segments.get(i.checked_sub(1)?)?;
        (s.slice == slice && index < s.start + s.len).then(|| s.local + index - s.start)
    }

    /// The number of the segment holding the part's position `local`.
    #[inline]
    pub fn segment_of(&self, local: u64) -> usize {
        self.segments.partition_point(|s| s.local <= local) - 1
    }
}

/// How far the men of a slice placement have walked: rows from its own back row for each man
/// of the side to move (it plays up), and the same for the opponent's men (they play down).
pub(crate) fn advancement(g: &Geometry, p: Placement) -> u32 {
    let rows = 2 * g.width;
    let row = |bit: u32| (bit - bit / (2 * g.width + 1)) / g.width;
    let mut sum = 0;
    let mut ours = p.us & !p.kings;
    while ours != 0 {
        sum += rows - 1 - row(ours.trailing_zeros());
        ours &= ours - 1;
    }
    let mut theirs = p.them & !p.kings;
    while theirs != 0 {
        sum += row(theirs.trailing_zeros());
        theirs &= theirs - 1;
    }
    sum
}

/// The same position with the other side to move, in that side's slice.
fn turned(g: &Geometry, p: Placement) -> Placement {
    Placement {
        us: g.flip(p.them),
        them: g.flip(p.us),
        kings: g.flip(p.kings),
    }
}

/// Cuts a job (its slices `ixs`: the job, and its partner when that is another material) into
/// sub-slices of at most `cap` positions, the most advanced men first. Each placement of the men
/// goes with its turned-round twin (the same men, the other side to move), which its king moves
/// reach. Fails with the size of the largest such pair when it is over `cap`.
pub(crate) fn plan(g: &Geometry, ixs: &[Indexer], cap: u64) -> Result<Vec<Part>, u64> {
    let twin_slice = ixs.len() - 1;
    // Every pair: its advancement and its (slice, start, len) ranges.
    let mut pairs: Vec<(u32, Vec<Range>)> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    for r in ixs[0].men_ranges() {
        if twin_slice == 0 && seen.contains(&r.start) {
            continue;
        }
        let p = ixs[0].unrank(r.start);
        let twin = ixs[twin_slice].men_range(turned(g, p));
        let mut ranges = vec![(0, r.start, r.len)];
        if twin_slice == 1 || twin.start != r.start {
            ranges.push((twin_slice, twin.start, twin.len));
        }
        if twin_slice == 0 {
            seen.insert(twin.start);
        }
        pairs.push((advancement(g, p), ranges));
    }
    let largest = pairs
        .iter()
        .map(|(_, r)| r.iter().map(|x| x.2).sum::<u64>())
        .max()
        .unwrap_or(0);
    if largest > cap {
        return Err(largest);
    }
    // Stable: within one advancement, index order (which keeps each sub-slice's reads close).
    pairs.sort_by_key(|(a, _)| std::cmp::Reverse(*a));
    let mut parts = Vec::new();
    let mut current: Vec<Range> = Vec::new();
    let mut size = 0;
    let mut level = None;
    for (a, ranges) in pairs {
        let n: u64 = ranges.iter().map(|r| r.2).sum();
        if !current.is_empty() && (level != Some(a) || size + n > cap) {
            parts.push(Part::new(std::mem::take(&mut current)));
            size = 0;
        }
        level = Some(a);
        size += n;
        current.extend(ranges);
    }
    if !current.is_empty() {
        parts.push(Part::new(current));
    }
    Ok(parts)
}

/// The top bit of a scratch value: the position must capture.
pub(crate) const CAPTURE: u16 = 0x8000;

/// A job's values while its sub-slices are solved, in a mapped scratch file, and its progress.
pub(crate) struct Scratch {
    /// Held open for its lock.
    _file: File,
    map: MmapMut,
    path: PathBuf,
    progress: PathBuf,
    identity: String,
    /// Where each slice's values start, in positions.
    offsets: Vec<u64>,
    done: usize,
}

/// The scratch file of a job and its progress file.
fn paths(dir: &Path, job: Material) -> (PathBuf, PathBuf) {
    (
        dir.join(format!(".{job}.scratch")),
        dir.join(format!(".{job}.scratch-done")),
    )
}

/// Removes a job's scratch and progress files (once its tables are written).
pub(crate) fn remove_scratch(dir: &Path, job: Material) {
    let (values, progress) = paths(dir, job);
    let _ = std::fs::remove_file(progress);
    let _ = std::fs::remove_file(values);
}

/// The sub-slice size a killed run of `job` used, if it left its progress behind (a resumed run
/// keeps it, so that its plan is the same).
pub(crate) fn recorded_cap(dir: &Path, job: Material) -> Option<u64> {
    let text = std::fs::read_to_string(paths(dir, job).1).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("cap "))
        .and_then(|c| c.parse().ok())
}

impl Scratch {
    /// Opens the scratch of `job` for a plan of `units` sub-slices of at most `cap` positions,
    /// taking up after the sub-slices a previous run of the same plan finished.
    pub fn open(
        variant: Variant,
        dir: &Path,
        job: Material,
        ixs: &[Indexer],
        units: usize,
        cap: u64,
    ) -> Result<Scratch, TbError> {
        let (path, progress) = paths(dir, job);
        let mut offsets = vec![0];
        for ix in ixs {
            offsets.push(offsets.last().copied().unwrap_or(0) + ix.size());
        }
        let total = offsets.last().copied().unwrap_or(0);
        let identity = format!(
            "draughts tablebase sub-slices 1\nvariant {}\njob {job}\npositions {total}\ncap {cap}\nunits {units}\n",
            variant.name()
        );
        let (file, map) = fs::map_scratch(&path, total * 2)?;
        let done = std::fs::read_to_string(&progress)
            .ok()
            .and_then(|text| {
                let rest = text.strip_prefix(&identity)?;
                rest.trim().strip_prefix("done ")?.parse::<usize>().ok()
            })
            .filter(|&d| d <= units)
            .unwrap_or(0);
        Ok(Scratch {
            _file: file,
            map,
            path,
            progress,
            identity,
            offsets,
            done,
        })
    }

    /// Sub-slices finished by this run or an earlier one.
    pub fn done(&self) -> usize {
        self.done
    }

    fn codes(&self) -> &[u16] {
        bytemuck::cast_slice(&self.map[..])
    }

    /// Each slice's values (those of unfinished sub-slices are meaningless).
    pub fn values(&self) -> Vec<&[u16]> {
        let codes = self.codes();
        self.offsets
            .windows(2)
            .map(|w| &codes[w[0] as usize..w[1] as usize])
            .collect()
    }

    /// Stores the values of a solved part (in the part's numbering) and records it as done once
    /// they are on disk.
    pub fn finish(&mut self, part: &Part, values: &[u16]) -> Result<(), TbError> {
        let codes: &mut [u16] = bytemuck::cast_slice_mut(&mut self.map[..]);
        for s in part.segments() {
            let at = (self.offsets[s.slice] + s.start) as usize;
            let from = s.local as usize;
            codes[at..at + s.len as usize].copy_from_slice(&values[from..from + s.len as usize]);
        }
        self.map.flush().map_err(|e| TbError::Io {
            path: self.path.clone(),
            source: e,
        })?;
        self.done += 1;
        let text = format!("{}done {}\n", self.identity, self.done);
        fs::write_atomic(&self.progress, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{BOARD8, BOARD10};
    use crate::rules::movegen;
    use crate::rules::moves::MoveList;
    use crate::rules::variant::with_rules;
    use crate::tablebase::store::{normalize, position_of};

    fn slices(g: &'static Geometry, m: Material) -> Vec<Indexer> {
        let mut ixs = vec![Indexer::new(g, m)];
        if m.partner() != m {
            ixs.push(Indexer::new(g, m.partner()));
        }
        ixs
    }

    #[test]
    fn a_mans_move_advances_by_one_and_a_kings_move_not_at_all() {
        for variant in Variant::ALL {
            let g = variant.geometry();
            for m in ["km-m", "m-mm", "km-km", "mm-k"] {
                let m: Material = m.parse().expect("material");
                let ix = Indexer::new(g, m);
                let mut list = MoveList::new();
                for i in (0..ix.size()).step_by(97) {
                    let p = ix.unrank(i);
                    let pos = position_of(variant, p);
                    with_rules!(variant, R => movegen::generate::<R>(&pos, &mut list));
                    for mv in list.iter() {
                        let after = pos.play(mv);
                        let (n, q) = normalize(&after);
                        if mv.is_capture() || n != m.partner() {
                            continue;
                        }
                        let step = advancement(g, q) as i64 - advancement(g, p) as i64;
                        let man = pos.kings & (1u64 << mv.from) == 0;
                        assert_eq!(step, i64::from(man), "{m} {variant:?} position {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_plan_covers_every_position_once_in_batches_of_one_advancement() {
        for (g, m, cap) in [
            (&BOARD10, "km-m", 5_000),
            (&BOARD10, "m-m", 40),
            (&BOARD8, "km-k", 4_000),
            (&BOARD8, "kk-k", 100_000),
        ] {
            let m: Material = m.parse().expect("material");
            let ixs = slices(g, m);
            let parts = plan(g, &ixs, cap).expect("fits");
            let mut seen: Vec<Vec<bool>> = ixs
                .iter()
                .map(|ix| vec![false; ix.size() as usize])
                .collect();
            let mut last = u32::MAX;
            for part in &parts {
                assert!(part.positions() <= cap, "{m}");
                let mut level = None;
                for s in part.segments() {
                    for i in s.start..s.start + s.len {
                        assert!(!seen[s.slice][i as usize], "{m}: twice");
                        seen[s.slice][i as usize] = true;
                        assert_eq!(part.local(s.slice, i), Some(s.local + i - s.start));
                        assert_eq!(&part.segments()[part.segment_of(s.local + i - s.start)], s);
                    }
                    let a = advancement(g, ixs[s.slice].unrank(s.start));
                    assert!(level.is_none_or(|l| l == a), "{m}: two advancements");
                    level = Some(a);
                }
                let a = level.expect("a part is not empty");
                assert!(a <= last, "{m}: less advanced men before more advanced");
                last = a;
            }
            assert!(
                seen.iter().flatten().all(|&s| s),
                "{m}: a position left out"
            );
        }
    }

    #[test]
    fn a_pair_over_the_cap_is_refused_with_its_size() {
        let ixs = slices(&BOARD10, "kk-k".parse().expect("material"));
        let whole: u64 = ixs.iter().map(Indexer::size).sum();
        assert_eq!(plan(&BOARD10, &ixs, whole - 1).err(), Some(whole));
    }
}
