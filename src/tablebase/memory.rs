//! The memory a generation may use: the budget (`tb generate --memory`), what each job needs,
//! and the peak it reached.
//!
//! A job holds, while it solves, six bytes a position of its own (four of state, two of exit
//! value) and two bytes a position of every finished slice its captures and promotions reach
//! (their DTW codes); when it turns a slice's state into values, that slice's codes and capture
//! flags (three bytes a position) are made while the state is still there. Planning against the budget before the first job starts means a run that
//! cannot fit says so at once, with the figures, instead of swapping hours into the work.

use std::collections::BTreeSet;
use std::fmt;

use crate::rules::variant::Variant;
use crate::tablebase::index::Indexer;
use crate::tablebase::material::Material;

/// Bytes a position of the job itself takes while it is solved.
const JOB_BYTES: u64 = 6;
/// Bytes a position of the slice being turned into values takes on top.
const OUT_BYTES: u64 = 3;
/// Bytes a position of a finished slice the job reads takes.
const HELD_BYTES: u64 = 2;
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
    /// The bytes: the job's state, the slices it reads, the program.
    pub bytes: Bytes,
}

/// The memory `job` needs in `variant`.
pub fn need(variant: Variant, job: Material) -> Need {
    let g = variant.geometry();
    let job = job.job();
    let mut slices = vec![job];
    if job.partner() != job {
        slices.push(job.partner());
    }
    let sizes: Vec<u64> = slices.iter().map(|&m| Indexer::new(g, m).size()).collect();
    let positions: u64 = sizes.iter().sum();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let reached: BTreeSet<Material> = slices.iter().flat_map(|m| m.successors()).collect();
    let held: u64 = reached.iter().map(|&m| Indexer::new(g, m).size()).sum();
    Need {
        job,
        positions,
        held,
        bytes: Bytes(JOB_BYTES * positions + OUT_BYTES * largest + HELD_BYTES * held + OVERHEAD),
    }
}

/// The jobs among `jobs` that need more than `budget`.
pub fn over_budget(variant: Variant, jobs: &[Material], budget: Bytes) -> Vec<Need> {
    jobs.iter()
        .map(|&j| need(variant, j))
        .filter(|n| n.bytes > budget)
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
    fn a_job_needs_six_bytes_a_position_three_for_its_larger_slice_and_two_for_what_it_reads() {
        let g = Variant::International.geometry();
        let job: Material = "kk-k".parse().expect("material");
        let n = need(Variant::International, job);
        let (a, b) = (
            Indexer::new(g, job).size(),
            Indexer::new(g, job.partner()).size(),
        );
        assert_eq!(n.positions, a + b);
        // Two kings against one reach one king against one (a capture) and nothing else.
        let kk = Indexer::new(g, "k-k".parse().expect("material")).size();
        assert_eq!(n.held, kk);
        assert_eq!(
            n.bytes,
            Bytes(6 * (a + b) + 3 * a.max(b) + 2 * kk + OVERHEAD)
        );
    }

    #[test]
    fn the_largest_six_piece_jobs_are_named_with_their_figures() {
        let jobs = Material::jobs_up_to(6);
        let over = over_budget(Variant::International, &jobs, Bytes(12 << 30));
        let names: Vec<String> = over.iter().map(|n| n.job.to_string()).collect();
        assert!(names.contains(&"kkm-kkm".to_string()), "{names:?}");
        // Every five-piece job fits in 12 GiB, as today's generation shows.
        assert!(over.iter().all(|n| n.job.pieces() == 6), "{names:?}");
        let five = over_budget(
            Variant::International,
            &Material::jobs_up_to(5),
            Bytes(2 << 30),
        );
        assert!(five.is_empty(), "{five:?}");
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
