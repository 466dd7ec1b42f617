//! The fuzzing campaign: `cargo run --profile fuzz --example fuzz -- [--inputs N] [--seed S]
//! [--target NAME] [--out DIR] [--list]`, run for every target by `scripts/fuzz.sh`. Inputs are spread
//! over the cores; each target's report gives its inputs, failures (each input saved to a file),
//! slowest input, inputs over the one-second hang limit and the process's peak memory.

#[path = "../tests/support/fuzz.rs"]
mod fuzz;
#[path = "../tests/support/fuzz_inputs.rs"]
mod fuzz_inputs;

use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

struct Args {
    list: bool,
    inputs: u64,
    seed: u64,
    target: Option<String>,
    out: PathBuf,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        list: false,
        inputs: 100_000,
        seed: 1,
        target: None,
        out: PathBuf::from("target/fuzz"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--inputs" => a.inputs = value()?.parse().map_err(|e| format!("--inputs: {e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--target" => a.target = Some(value()?),
            "--out" => a.out = PathBuf::from(value()?),
            "--list" => a.list = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

/// The process's peak resident memory, in MB (Linux), if known.
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    let pdn = PathBuf::from("../shared/pdn");
    let tables = tempfile::tempdir().expect("a scratch directory for the small tables");
    fuzz::small_tables(tables.path());
    let targets = fuzz::targets(pdn.exists().then_some(pdn.as_path()), Some(tables.path()));
    if a.list {
        for t in &targets {
            println!("{}", t.name);
        }
        return ExitCode::SUCCESS;
    }
    let chosen: Vec<&fuzz::Target> = targets
        .iter()
        .filter(|t| a.target.as_deref().is_none_or(|n| n == t.name))
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = targets.iter().map(|t| t.name).collect();
        eprintln!(
            "fuzz: no target {:?}; targets: {}",
            a.target,
            names.join(" ")
        );
        return ExitCode::from(2);
    }
    fuzz::quiet_panics();
    let mut failed = false;
    for t in chosen {
        let started = Instant::now();
        let chunk = 1_000u64;
        let reports: Vec<fuzz::Report> = (0..a.inputs.div_ceil(chunk))
            .into_par_iter()
            .map(|c| fuzz::run_range(t, a.seed, c * chunk, ((c + 1) * chunk).min(a.inputs)))
            .collect();
        let mut total = fuzz::Report::default();
        for r in reports {
            total.inputs += r.inputs;
            total.failures.extend(r.failures);
            total.hangs.extend(r.hangs);
            if r.slowest.1 > total.slowest.1 {
                total.slowest = r.slowest;
            }
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{:<10} inputs {:>9}  failures {}  hangs {}  slowest {:.3} s (input {})  {:.0} inputs/s  peak {} MB",
            t.name,
            total.inputs,
            total.failures.len(),
            total.hangs.len(),
            total.slowest.1.as_secs_f64(),
            total.slowest.0,
            total.inputs as f64 / secs,
            peak_mb().map_or("?".into(), |m| format!("{m:.0}")),
        );
        for f in total.failures.iter().take(5) {
            let _ = std::fs::create_dir_all(&a.out);
            let file = a.out.join(format!("{}-{}-{}.bin", t.name, a.seed, f.index));
            let _ = std::fs::write(&file, &f.input);
            println!(
                "  input {} panicked: {} (saved as {})",
                f.index,
                f.message,
                file.display()
            );
        }
        for (i, d) in total.hangs.iter().take(5) {
            println!("  input {i} took {:.2} s", d.as_secs_f64());
        }
        failed |= !total.failures.is_empty() || !total.hangs.is_empty();
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
