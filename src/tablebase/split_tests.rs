//! Sub-slices against whole jobs: the same tables, byte for byte.

use std::collections::BTreeMap;
use std::path::Path;

use tempfile::TempDir;

use crate::rules::variant::Variant;
use crate::tablebase::generate::{generate_all, generate_job, generate_with_dependencies};
use crate::tablebase::material::Material;
use crate::tablebase::memory::{self, Layout, Limits};
use crate::tablebase::progress::Report;

/// Every file of a directory by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("the directory is there")
        .map(|e| {
            let e = e.expect("a directory entry");
            let bytes = std::fs::read(e.path()).expect("a readable file");
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// Generates the tables of up to `pieces` pieces whole and cut into sub-slices of `split`
/// positions, and compares every file.
fn both_ways(variant: Variant, pieces: u32, split: u64) {
    let whole = TempDir::new().expect("a temporary directory");
    let cut = TempDir::new().expect("a temporary directory");
    let budget = memory::default_budget();
    let made = generate_all(variant, pieces, whole.path(), Report::Quiet, budget).expect("whole");
    assert!(made.iter().all(|j| j.sub_slices == 0), "they fit whole");
    let limits = Limits {
        budget,
        split: Some(split),
        metric: crate::tablebase::format::Metric::Dtw,
    };
    let made = generate_all(variant, pieces, cut.path(), Report::Quiet, limits).expect("cut");
    let with_men = made.iter().filter(|j| j.job.total_men() > 0).count();
    let several = made.iter().filter(|j| j.sub_slices > 1).count();
    assert_eq!(several, with_men, "every job with men is cut");
    assert!(
        made.iter()
            .all(|j| j.job.total_men() > 0 || j.sub_slices == 0)
    );
    let (a, b) = (files(whole.path()), files(cut.path()));
    assert_eq!(
        a.len(),
        2 * Material::all_up_to(pieces).len(),
        "a WDL and a DTW file a slice"
    );
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files, no scratch left behind"
    );
    for (name, bytes) in &a {
        assert!(b[name] == *bytes, "{variant:?} {name} differs");
    }
}

#[test]
fn international_sub_slices_write_the_tables_whole_jobs_write() {
    both_ways(Variant::International, 4, 300_000);
}

#[test]
fn frisian_sub_slices_write_the_tables_whole_jobs_write() {
    // To three pieces, in smaller sub-slices: its kings' long moves make four slow for the test
    // suite, and the International test cuts four-piece jobs already.
    both_ways(Variant::Frisian, 3, 1_000);
}

#[test]
fn english_sub_slices_write_the_tables_whole_jobs_write() {
    both_ways(Variant::English, 4, 300_000);
}

/// A six-piece job over its memory budget is cut into sub-slices by the budget alone, and
/// gives the tables it gives whole.
#[test]
fn a_six_piece_job_over_its_budget_is_solved_in_sub_slices_to_the_same_tables() {
    let v = Variant::English;
    let job: Material = "kkkkm-k".parse().expect("material");
    let whole = TempDir::new().expect("a temporary directory");
    generate_with_dependencies(
        v,
        job,
        whole.path(),
        Report::Quiet,
        memory::default_budget(),
    )
    .expect("whole");

    // The same dependencies, then the job under a budget one byte short of its whole need.
    let cut = TempDir::new().expect("a temporary directory");
    let own: Vec<String> = [job, job.partner()]
        .iter()
        .flat_map(|m| [format!("{m}.wdl"), format!("{m}.dtw")])
        .collect();
    for (name, bytes) in files(whole.path()) {
        if !own.contains(&name) {
            std::fs::write(cut.path().join(name), bytes).expect("a copy");
        }
    }
    let budget = memory::Bytes(
        memory::need(v, job, crate::tablebase::format::Metric::Dtw)
            .bytes
            .0
            - 1,
    );
    let Ok((Layout::SubSlices { .. }, need)) = memory::layout(v, job, budget.into()) else {
        panic!("{job} must be cut to fit {budget}");
    };
    assert!(need.bytes <= budget);
    let summary = generate_job(v, job, cut.path(), Report::Quiet, budget).expect("cut");
    assert!(summary.sub_slices > 1, "{summary:?}");
    let (a, b) = (files(whole.path()), files(cut.path()));
    for name in &own {
        assert!(a[name] == b[name], "{name} differs");
    }
    assert_eq!(a.len(), b.len(), "no scratch left behind");
}
