//! The job graph as text for schedulers: a Makefile or JSON.

use std::fmt::Write;
use std::path::Path;

use crate::rules::variant::Variant;
use crate::tablebase::format::TableKind;
use crate::tablebase::index::Indexer;
use crate::tablebase::layout::table_path;
use crate::tablebase::material::Material;

/// A Makefile with one target per job (the job's own WDL file, which it writes last) that
/// depends on the targets of the jobs it needs; `make -j` then runs independent jobs at once.
/// `program` is the command that runs this program.
pub fn makefile(variant: Variant, pieces: u32, dir: &Path, program: &str) -> String {
    let target = |m: Material| {
        table_path(Path::new("$(DIR)"), m, TableKind::Wdl)
            .display()
            .to_string()
    };
    let jobs = Material::jobs_up_to(pieces);
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
            "\t$(DRAUGHTS) tb generate --variant {} --dir $(DIR) --slice {job}",
            variant.name()
        );
    }
    out
}

/// The same graph as JSON: each job with its slices, positions and the jobs it needs.
pub fn json(variant: Variant, pieces: u32) -> String {
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
        "{{\"variant\": \"{}\", \"pieces\": {pieces}, \"jobs\": [",
        variant.name()
    );
    let jobs = Material::jobs_up_to(pieces);
    for (i, &job) in jobs.iter().enumerate() {
        let mut slices = vec![job];
        if job.partner() != job {
            slices.push(job.partner());
        }
        let positions: u64 = slices.iter().map(|&m| Indexer::new(g, m).size()).sum();
        let memory = crate::tablebase::memory::need(variant, job).bytes.0;
        let _ = write!(
            out,
            "  {{\"job\": \"{job}\", \"slices\": [{}], \"positions\": {positions}, \"memory\": {memory}, \"needs\": [{}]}}",
            quoted(&slices),
            quoted(&job.job_dependencies().into_iter().collect::<Vec<_>>())
        );
        let _ = writeln!(out, "{}", if i + 1 < jobs.len() { "," } else { "" });
    }
    out.push_str("]}\n");
    out
}
