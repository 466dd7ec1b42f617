//! The job graph as text for schedulers: a Makefile, JSON, or a Slurm submission script.

use std::fmt::Write;
use std::path::Path;

use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{Metric, TableKind};
use crate::tablebase::index::Indexer;
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;
use crate::tablebase::memory::{self, Bytes, Layout, Limits};

/// How each job of `jobs` is laid out and the memory it needs: whole, or, under a budget, in
/// sub-slices when it does not fit whole. Fails with the jobs that fit the budget in no way.
fn layouts(
    variant: Variant,
    jobs: &[Material],
    budget: Option<Bytes>,
    metric: Metric,
) -> Result<Vec<(Layout, u64)>, TbError> {
    let Some(budget) = budget else {
        return Ok(jobs
            .iter()
            .map(|&j| (Layout::Whole, memory::need(variant, j, metric).bytes.0))
            .collect());
    };
    let limits = Limits {
        budget,
        split: None,
        metric,
    };
    let over = memory::over_budget(variant, jobs, limits);
    if !over.is_empty() {
        return Err(TbError::OverBudget { budget, jobs: over });
    }
    Ok(jobs
        .iter()
        .map(|&j| {
            let (layout, need) =
                memory::layout(variant, j, limits).expect("over_budget found none");
            (layout, need.bytes.0)
        })
        .collect())
}

/// A Makefile with one target per job (the job's own WDL file, which it writes last) that
/// depends on the targets of the jobs it needs; `make -j` then runs independent jobs at once.
/// `program` is the command that runs this program; with a `budget` each job is given it
/// (`--memory`), so that several running at once share the machine as planned; each builds the
/// tables of `metric`.
pub fn makefile(
    variant: Variant,
    pieces: u32,
    dir: &Path,
    program: &str,
    budget: Option<Bytes>,
    metric: Metric,
) -> Result<String, TbError> {
    let target = |m: Material| {
        table_path(Path::new("$(DIR)"), m, TableKind::Wdl)
            .display()
            .to_string()
    };
    let jobs = Material::jobs_up_to(pieces);
    layouts(variant, &jobs, budget, metric)?;
    let memory =
        budget.map_or(String::new(), |b| format!(" --memory {}", b.0)) + metric_arg(metric);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Tablebase jobs: {}, 2 to {pieces} pieces. Run with make -j<N> -f <this file>.",
        variant.name()
    );
    let _ = writeln!(out, "DRAUGHTS ?= {program}");
    let _ = writeln!(out, "DIR ?= {}", dir.display());
    let _ = writeln!(out, ".PHONY: all");
    let all: Vec<String> = jobs.iter().map(|&j| target(j)).collect();
    let _ = writeln!(out, "all: {}", all.join(" "));
    for job in jobs {
        let deps: Vec<String> = job.job_dependencies().into_iter().map(target).collect();
        let _ = writeln!(out, "{}: {}", target(job), deps.join(" "));
        let _ = writeln!(
            out,
            "\t$(DRAUGHTS) tb generate --variant {} --dir $(DIR){memory} --slice {job}",
            variant.name()
        );
    }
    Ok(out)
}

/// The arguments that ask a job for the tables of `metric` (none for the default).
fn metric_arg(metric: Metric) -> &'static str {
    match metric {
        Metric::Wdl => " --metric wdl",
        Metric::Dtw => "",
    }
}

/// The same graph as JSON: each job with its slices, positions, layout (whole or sub-slices,
/// under `budget`), the memory it needs (building the tables of `metric`) and the jobs it needs.
pub fn json(
    variant: Variant,
    pieces: u32,
    budget: Option<Bytes>,
    metric: Metric,
) -> Result<String, TbError> {
    let g = variant.geometry();
    let quoted = |ms: &[Material]| {
        ms.iter()
            .map(|m| format!("\"{m}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{{\"variant\": \"{}\", \"pieces\": {pieces}, \"metric\": \"{}\", \"jobs\": [",
        variant.name(),
        metric.name()
    );
    let jobs = Material::jobs_up_to(pieces);
    let laid = layouts(variant, &jobs, budget, metric)?;
    for (i, (&job, &(layout, memory))) in jobs.iter().zip(&laid).enumerate() {
        let layout = match layout {
            Layout::Whole => "whole",
            Layout::SubSlices { .. } => "sub-slices",
        };
        let mut slices = vec![job];
        if job.partner() != job {
            slices.push(job.partner());
        }
        let positions: u64 = slices.iter().map(|&m| Indexer::new(g, m).size()).sum();
        let _ = write!(
            out,
            "  {{\"job\": \"{job}\", \"slices\": [{}], \"positions\": {positions}, \"layout\": \"{layout}\", \"memory\": {memory}, \"needs\": [{}]}}",
            quoted(&slices),
            quoted(&job.job_dependencies().into_iter().collect::<Vec<_>>())
        );
        let _ = writeln!(out, "{}", if i + 1 < jobs.len() { "," } else { "" });
    }
    out.push_str("]}\n");
    Ok(out)
}

/// The jobs by level: a job's level is one more than the highest level of the jobs it needs,
/// so no job needs another of its own level, and each level needs only the ones before it.
pub fn levels(pieces: u32) -> Vec<Vec<Material>> {
    let mut level: std::collections::HashMap<Material, usize> = std::collections::HashMap::new();
    let mut out: Vec<Vec<Material>> = Vec::new();
    // jobs_up_to is in dependency order, so every job's needs have their level already.
    for job in Material::jobs_up_to(pieces) {
        let l = job
            .job_dependencies()
            .iter()
            .map(|d| level[d] + 1)
            .max()
            .unwrap_or(0);
        level.insert(job, l);
        if out.len() <= l {
            out.resize(l + 1, Vec::new());
        }
        out[l].push(job);
    }
    out
}

/// A bash script that submits the job graph to Slurm: one job array per level (its tasks are
/// the level's jobs, each `draughts tb generate --slice`), each array starting once the array
/// before it has finished without a failure (`--dependency=afterok`). Each array asks for the
/// memory of its largest job (whole, or under `budget` in sub-slices when it does not fit
/// whole); `CPUS`, `DRAUGHTS`, `DIR` and `SBATCH_ARGS` (a partition, an account) can be set
/// when it is run. The directory must be shared by the nodes. Each job builds the tables of
/// `metric`.
pub fn slurm(
    variant: Variant,
    pieces: u32,
    dir: &Path,
    program: &str,
    budget: Option<Bytes>,
    metric: Metric,
) -> Result<String, TbError> {
    let mut out = String::new();
    let _ = writeln!(out, "#!/usr/bin/env bash");
    let _ = writeln!(
        out,
        "# Tablebase jobs: {}, 2 to {pieces} pieces, submitted to Slurm as one job array per",
        variant.name()
    );
    let _ = writeln!(
        out,
        "# level of the job graph, each after the one before it. Run it with bash on a login node."
    );
    let _ = writeln!(out, "set -euo pipefail");
    let _ = writeln!(out, "DRAUGHTS=\"${{DRAUGHTS:-{program}}}\"");
    let _ = writeln!(out, "DIR=\"${{DIR:-{}}}\"", dir.display());
    let _ = writeln!(out, "CPUS=\"${{CPUS:-16}}\"");
    let _ = writeln!(out, "SBATCH_ARGS=\"${{SBATCH_ARGS:-}}\"");
    let _ = writeln!(out, "mkdir -p \"$DIR\"");
    let _ = writeln!(out, "after=\"\"");
    for (i, jobs) in levels(pieces).iter().enumerate() {
        let memory = layouts(variant, jobs, budget, metric)?
            .into_iter()
            .map(|(_, bytes)| bytes)
            .max()
            .unwrap_or(0);
        // Slurm counts --mem in MiB; the job's own budget is the same figure.
        let mib = memory.div_ceil(1 << 20);
        let names: Vec<String> = jobs.iter().map(|j| j.to_string()).collect();
        let _ = writeln!(out, "# level {}: {}", i + 1, names.join(" "));
        let _ = writeln!(
            out,
            "after=$(sbatch --parsable $SBATCH_ARGS --job-name=tb-{}-{} --array=0-{} \\",
            variant.name(),
            i + 1,
            jobs.len() - 1
        );
        let _ = writeln!(
            out,
            "  --cpus-per-task=\"$CPUS\" --mem={mib}M ${{after:+--dependency=afterok:$after}} \\"
        );
        // sbatch runs --wrap with /bin/sh: the task picks its job from the positional
        // parameters, which every POSIX shell has.
        let _ = writeln!(
            out,
            "  --wrap=\"set -- {}; shift \\$SLURM_ARRAY_TASK_ID; exec \\\"$DRAUGHTS\\\" tb generate --variant {} --dir \\\"$DIR\\\" --threads \\\"$CPUS\\\" --memory {mib}M{} --slice \\$1\")",
            names.join(" "),
            variant.name(),
            metric_arg(metric)
        );
        // --parsable prints the id, with ";cluster" on a federation.
        let _ = writeln!(out, "after=\"${{after%%;*}}\"");
        let _ = writeln!(
            out,
            "echo \"level {}: job array $after, {} job(s): {}\"",
            i + 1,
            jobs.len(),
            names.join(" ")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_a_budget_the_large_jobs_are_planned_in_sub_slices_within_it() {
        let v = Variant::International;
        let budget = Bytes(12 << 30);
        let text =
            json(v, 6, Some(budget), Metric::Dtw).expect("every six-piece job fits in sub-slices");
        let line = |job: &str| {
            text.lines()
                .find(|l| l.contains(&format!("\"job\": \"{job}\"")))
                .expect("the job is planned")
                .to_string()
        };
        assert!(line("kkm-kkm").contains("\"layout\": \"sub-slices\""));
        assert!(line("kkk-kkk").contains("\"layout\": \"whole\""));
        for l in text.lines().filter(|l| l.contains("\"memory\": ")) {
            let memory: u64 = l
                .split("\"memory\": ")
                .nth(1)
                .and_then(|r| r.split(',').next())
                .and_then(|n| n.parse().ok())
                .expect("a number");
            assert!(memory <= budget.0, "{l}");
        }
        let make =
            makefile(v, 3, Path::new("t"), "draughts", Some(budget), Metric::Dtw).expect("fits");
        assert!(
            make.contains("--memory 12884901888 --slice k-k\n"),
            "{make}"
        );
        let slurm =
            slurm(v, 6, Path::new("t"), "draughts", Some(budget), Metric::Dtw).expect("fits");
        assert!(slurm.contains("--mem=12288M"), "{slurm}");
        for mem in slurm.split("--mem=").skip(1) {
            let mib: u64 = mem
                .split('M')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("MiB");
            assert!(mib <= 12 << 10, "an array asks for {mib} MiB");
        }
        let refused = json(v, 6, Some(Bytes(1 << 30)), Metric::Dtw)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("kkk-kkk needs"), "{refused}");
    }

    #[test]
    fn no_job_needs_one_of_its_own_level_or_a_later_one() {
        let levels = levels(5);
        let total: usize = levels.iter().map(Vec::len).sum();
        assert_eq!(total, Material::jobs_up_to(5).len());
        for (i, jobs) in levels.iter().enumerate() {
            for job in jobs {
                for dep in job.job_dependencies() {
                    let at = levels
                        .iter()
                        .position(|l| l.contains(&dep))
                        .expect("every dependency is a job");
                    assert!(at < i, "{job} (level {i}) needs {dep} (level {at})");
                }
            }
            // And each job above the first level needs one of the level just before it.
            if i > 0 {
                for job in jobs {
                    assert!(
                        job.job_dependencies()
                            .iter()
                            .any(|d| levels[i - 1].contains(d)),
                        "{job} could be a level earlier"
                    );
                }
            }
        }
    }
}
