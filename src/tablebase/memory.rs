//! The memory a generation may use: the budget (`tb generate --memory`), what each job needs,
//! how a job is laid out to fit (whole, or in sub-slices), and the peak it reached.
//!
//! A job solved whole holds six bytes a position of its own (four of state, two of exit value);
//! one solved in sub-slices holds that for its largest sub-slice only, its finished values being
//! in a mapped scratch file the system may write out. Either holds two bytes a position of every
//! finished slice its captures and promotions reach (their DTW codes) and, while it writes its
//! tables, their compressed images (counted as one byte a position of its larger slice). A job
//! that builds WDL only reads WDL instead: two bits a position of every slice its moves can lead
//! to, however many moves away, since a WDL table's capture positions are resolved by playing
//! the captures.
//! Planning against the budget before the first job starts means a run that cannot fit says so
//! at once, with the figures, instead of swapping hours into the work.

use std::collections::BTreeSet;
use std::fmt;

use crate::rules::variant::Variant;
use crate::tablebase::format::Metric;
use crate::tablebase::index::Indexer;
use crate::tablebase::material::Material;

/// Bytes a position of the job itself takes while it is solved.
const JOB_BYTES: u64 = 6;
/// Bytes a position of the larger slice takes on top while the tables are written.
const OUT_BYTES: u64 = 1;
/// Bytes a position of a finished slice the job reads takes.
const HELD_BYTES: u64 = 2;
/// Positions of a finished slice held as WDL in one byte.
const WDL_PER_BYTE: u64 = 4;
/// The rest of the process: the program, thread stacks, file images being written.
const OVERHEAD: u64 = 64 << 20;

/// A number of bytes, written and read as people write them (`12G`, `512M`, `1.5GiB`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        let (value, unit) = if b >= (1u64 << 30) as f64 {
            (b / (1u64 << 30) as f64, "GiB")
        } else if b >= (1u64 << 20) as f64 {
            (b / (1u64 << 20) as f64, "MiB")
        } else if b >= 1024.0 {
            (b / 1024.0, "KiB")
        } else {
            return write!(f, "{} bytes", self.0);
        };
        write!(f, "{value:.1} {unit}")
    }
}

impl std::str::FromStr for Bytes {
    type Err = String;

    /// `12G`, `12GB`, `12GiB`, `512M`, `1.5G`, `800K`, or plain bytes; the units are binary
    /// (a G is 2^30 bytes), as memory is counted.
    fn from_str(s: &str) -> Result<Bytes, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let value: f64 = number
            .parse()
            .map_err(|_| format!("{s:?}: expected a size such as 12G or 512M"))?;
        let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
            "" | "B" => 1,
            "K" | "KB" | "KIB" => 1 << 10,
            "M" | "MB" | "MIB" => 1 << 20,
            "G" | "GB" | "GIB" => 1 << 30,
            "T" | "TB" | "TIB" => 1 << 40,
            other => return Err(format!("{s:?}: unknown unit {other:?} (K, M, G or T)")),
        };
        let bytes = value * scale as f64;
        if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
            return Err(format!("{s:?}: not a size of memory"));
        }
        Ok(Bytes(bytes as u64))
    }
}

/// What one job needs while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// The job.
    pub job: Material,
    /// Positions of the job (both slices).
    pub positions: u64,
    /// Positions of the finished slices it reads.
    pub held: u64,
    /// What it builds.
    pub metric: Metric,
    /// The bytes: the job's state, the slices it reads, the program.
    pub bytes: Bytes,
}

/// The slices of a job: its material and, when that is another material, its partner.
pub fn job_slices(variant: Variant, job: Material) -> Vec<Indexer> {
    let g = variant.geometry();
    let job = job.job();
    let mut slices = vec![Indexer::new(g, job)];
    if job.partner() != job {
        slices.push(Indexer::new(g, job.partner()));
    }
    slices
}

/// The memory `job` needs in `variant` solved whole, building the tables of `metric`.
pub fn need(variant: Variant, job: Material, metric: Metric) -> Need {
    need_solving(variant, job, metric, None)
}

/// The finished slices a job of `metric` reads: the slices its moves reach (DTW), or every
/// slice they can lead to (WDL).
pub fn reads(variant: Variant, job: Material, metric: Metric) -> Vec<Material> {
    let slices = job_slices(variant, job.job());
    let read: BTreeSet<Material> = slices
        .iter()
        .flat_map(|ix| match metric {
            Metric::Dtw => ix.material().successors(),
            Metric::Wdl => ix.material().reachable(),
        })
        .collect();
    read.into_iter().collect()
}

/// The memory `job` of `metric` needs with `solved` positions in memory at once (all of them
/// when `None`).
fn need_solving(variant: Variant, job: Material, metric: Metric, solved: Option<u64>) -> Need {
    let g = variant.geometry();
    let job = job.job();
    let slices = job_slices(variant, job);
    let positions: u64 = slices.iter().map(Indexer::size).sum();
    let largest = slices.iter().map(Indexer::size).max().unwrap_or(0);
    let held: u64 = reads(variant, job, metric)
        .iter()
        .map(|&m| Indexer::new(g, m).size())
        .sum();
    let held_bytes = match metric {
        Metric::Dtw => HELD_BYTES * held,
        Metric::Wdl => held.div_ceil(WDL_PER_BYTE),
    };
    let solved = solved.unwrap_or(positions);
    Need {
        job,
        positions,
        held,
        metric,
        bytes: Bytes(JOB_BYTES * solved + OUT_BYTES * largest + held_bytes + OVERHEAD),
    }
}

/// The memory limits of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most memory a job may use.
    pub budget: Bytes,
    /// Cut every job with men into sub-slices of at most this many positions (or its smallest
    /// possible sub-slice, when that is larger), even when it fits whole. Without it only the
    /// jobs over the budget are cut.
    pub split: Option<u64>,
    /// What the jobs build, which decides what they read.
    pub metric: Metric,
}

impl From<Bytes> for Limits {
    fn from(budget: Bytes) -> Limits {
        Limits {
            budget,
            split: None,
            metric: Metric::Dtw,
        }
    }
}

/// How a job is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// All its positions at once.
    Whole,
    /// In sub-slices of at most `cap` positions, by where the men stand.
    SubSlices {
        /// The most positions of one sub-slice.
        cap: u64,
    },
}

/// How `job` is solved within `limits`, and what it then needs; or, when it fits in no way,
/// what its smallest layout would need.
pub fn layout(variant: Variant, job: Material, limits: Limits) -> Result<(Layout, Need), Need> {
    let whole = need_solving(variant, job, limits.metric, None);
    // A placement of the men and its twin with the other side to move is the least a sub-slice
    // can hold: one range of each slice (two of the job's one slice when it is its own partner).
    let slices = job_slices(variant, job);
    let pair: u64 = if slices.len() == 2 {
        slices.iter().map(Indexer::largest_men_range).sum()
    } else {
        2 * slices[0].largest_men_range()
    };
    let can_split = job.total_men() > 0;
    let split = |cap: u64| {
        let n = need_solving(variant, job, limits.metric, Some(cap));
        (n.bytes <= limits.budget).then_some((Layout::SubSlices { cap }, n))
    };
    if let (Some(cap), true) = (limits.split, can_split) {
        let cap = cap.max(pair);
        return split(cap).ok_or_else(|| need_solving(variant, job, limits.metric, Some(cap)));
    }
    if whole.bytes <= limits.budget {
        return Ok((Layout::Whole, whole));
    }
    if !can_split {
        return Err(whole);
    }
    // As large as the budget allows: fewer sub-slices, fewer passes.
    let fixed = need_solving(variant, job, limits.metric, Some(0)).bytes.0;
    let cap = limits.budget.0.saturating_sub(fixed) / JOB_BYTES;
    if cap < pair {
        return Err(need_solving(variant, job, limits.metric, Some(pair)));
    }
    split(cap).ok_or_else(|| need_solving(variant, job, limits.metric, Some(pair)))
}

/// The jobs among `jobs` that fit `limits` in no layout, with what their smallest layout needs.
pub fn over_budget(variant: Variant, jobs: &[Material], limits: Limits) -> Vec<Need> {
    jobs.iter()
        .filter_map(|&j| layout(variant, j, limits).err())
        .collect()
}

/// The default budget: three quarters of the memory available now (what the system can give
/// without taking it from elsewhere), or 4 GiB where the system does not say.
pub fn default_budget() -> Bytes {
    available().map_or(Bytes(4 << 30), |a| Bytes(a.0 / 4 * 3))
}

/// The memory available for new work, from `/proc/meminfo` (Linux).
pub fn available() -> Option<Bytes> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_field(&info, "MemAvailable:").map(Bytes)
}

fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// The process's peak memory (resident set) since the last [`reset_peak`], where the system
/// keeps it (`VmHWM` on Linux).
pub fn peak() -> Option<Bytes> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    meminfo_field(&status, "VmHWM:").map(Bytes)
}

/// The peak of the process's private memory (`RssAnon` on Linux: what it allocated, not the
/// files it maps), sampled every 50 ms from a thread of its own between `start` and `finish`.
/// A job in sub-slices maps its scratch file, which the system may write out and drop, so its
/// resident set can be far above what the budget weighs; this is the figure to hold against it.
pub struct PrivatePeak {
    stop: std::sync::mpsc::Sender<()>,
    sampler: std::thread::JoinHandle<Option<u64>>,
}

impl PrivatePeak {
    /// Starts sampling.
    pub fn start() -> PrivatePeak {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let sampler = std::thread::spawn(move || {
            let mut peak: Option<u64> = None;
            loop {
                let now = std::fs::read_to_string("/proc/self/status")
                    .ok()
                    .and_then(|s| meminfo_field(&s, "RssAnon:"));
                peak = peak.max(now);
                match stopped.recv_timeout(std::time::Duration::from_millis(50)) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                    _ => return peak,
                }
            }
        });
        PrivatePeak { stop, sampler }
    }

    /// Stops sampling; the peak, where the system tells it.
    pub fn finish(self) -> Option<Bytes> {
        let _ = self.stop.send(());
        self.sampler.join().ok().flatten().map(Bytes)
    }
}

/// Starts a new peak measurement (Linux: `5` to `/proc/self/clear_refs` resets `VmHWM` to the
/// memory in use now). Where that is not possible the peak runs on from the process's start.
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!("12G".parse(), Ok(Bytes(12 << 30)));
        assert_eq!("12GiB".parse(), Ok(Bytes(12 << 30)));
        assert_eq!("512M".parse(), Ok(Bytes(512 << 20)));
        assert_eq!("1.5G".parse(), Ok(Bytes(3 << 29)));
        assert_eq!("800k".parse(), Ok(Bytes(800 << 10)));
        assert_eq!("4096".parse(), Ok(Bytes(4096)));
        for bad in ["", "G", "12X", "-1G", "0", "1.2.3G", "nanG"] {
            assert!(bad.parse::<Bytes>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sizes_print_in_binary_units() {
        assert_eq!(Bytes(12 << 30).to_string(), "12.0 GiB");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(300 << 20).to_string(), "300.0 MiB");
        assert_eq!(Bytes(100).to_string(), "100 bytes");
    }

    #[test]
    fn a_job_needs_six_bytes_a_position_one_for_its_larger_slice_and_two_for_what_it_reads() {
        let g = Variant::International.geometry();
        let job: Material = "kk-k".parse().expect("material");
        let n = need(Variant::International, job, Metric::Dtw);
        let (a, b) = (
            Indexer::new(g, job).size(),
            Indexer::new(g, job.partner()).size(),
        );
        assert_eq!(n.positions, a + b);
        // Two kings against one reach one king against one (a capture) and nothing else.
        let kk = Indexer::new(g, "k-k".parse().expect("material")).size();
        assert_eq!(n.held, kk);
        assert_eq!(n.bytes, Bytes(6 * (a + b) + a.max(b) + 2 * kk + OVERHEAD));
    }

    #[test]
    fn jobs_over_the_budget_are_cut_into_sub_slices_and_kings_alone_stay_whole() {
        let v = Variant::International;
        let budget = Bytes(12 << 30);
        let jobs = Material::jobs_up_to(6);
        // Whole, the largest six-piece jobs do not fit in 12 GiB.
        let whole_over: Vec<Material> = jobs
            .iter()
            .copied()
            .filter(|&j| need(v, j, Metric::Dtw).bytes > budget)
            .collect();
        assert!(whole_over.contains(&"kkm-kkm".parse().expect("material")));
        // Cut by where the men stand, every one fits, each in sub-slices within the budget.
        assert!(over_budget(v, &jobs, budget.into()).is_empty());
        for &job in &whole_over {
            let (layout, n) = layout(v, job, budget.into()).expect("fits");
            assert!(matches!(layout, Layout::SubSlices { .. }), "{job}");
            assert!(n.bytes <= budget, "{job}");
        }
        // Kings alone have one placement of the men (none): whole, or not at all.
        let kings: Material = "kkkk-kk".parse().expect("material");
        assert_eq!(
            layout(v, kings, budget.into()).map(|l| l.0),
            Ok(Layout::Whole)
        );
        let tight = Limits {
            budget: Bytes(need(v, kings, Metric::Dtw).bytes.0 - 1),
            split: None,
            metric: Metric::Dtw,
        };
        assert_eq!(
            over_budget(v, &[kings], tight),
            vec![need(v, kings, Metric::Dtw)]
        );
        // A job with men under a budget too small for one placement of its men is refused with
        // what its smallest sub-slices need.
        let job: Material = "kkm-kkm".parse().expect("material");
        let tiny = Limits {
            budget: Bytes(1 << 30),
            split: None,
            metric: Metric::Dtw,
        };
        let refused = over_budget(v, &[job], tiny);
        assert_eq!(refused.len(), 1);
        assert!(
            refused[0].bytes > tiny.budget && refused[0].bytes < need(v, job, Metric::Dtw).bytes
        );
        // Every five-piece job fits whole in 2 GiB, so none is cut.
        for job in Material::jobs_up_to(5) {
            let l = layout(v, job, Bytes(2 << 30).into()).map(|l| l.0);
            assert_eq!(l, Ok(Layout::Whole), "{job}");
        }
    }

    #[test]
    fn the_meminfo_fields_are_read_in_bytes() {
        let text = "MemTotal:       24576000 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(
            meminfo_field(text, "MemAvailable:"),
            Some(20_000_000 * 1024)
        );
        assert_eq!(meminfo_field(text, "VmHWM:"), None);
    }

    #[test]
    fn the_peak_is_measured_on_linux() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return;
        }
        reset_peak();
        let peak = peak().expect("VmHWM");
        assert!(peak.0 > 0);
    }
}
