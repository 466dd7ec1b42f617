//! Tables built for WDL alone against full sets: the same results, checked the same way.

use std::path::Path;

use tempfile::TempDir;

use crate::rules::variant::Variant;
use crate::tablebase::error::TbError;
use crate::tablebase::format::{self, HEADER_LEN, Header, Metric, TableKind, TableView};
use crate::tablebase::generate::{generate_all, generate_job};
use crate::tablebase::index::Indexer;
use crate::tablebase::material::Material;
use crate::tablebase::memory::{self, Bytes, Limits};
use crate::tablebase::probe::Tablebase;
use crate::tablebase::progress::Report;
use crate::tablebase::store::position_of;
use crate::tablebase::verify::verify;
use crate::tablebase::{Wdl, table_path};

fn limits(metric: Metric, split: Option<u64>) -> Limits {
    Limits {
        budget: Bytes(1 << 30),
        split,
        metric,
    }
}

fn header(path: &Path) -> Header {
    let bytes = std::fs::read(path).expect("a table");
    TableView::new(&bytes).expect("an intact table").header
}

/// Every WDL file of `wdl_only` holds what the full set's holds: the same entries (the payload,
/// byte for byte) and counts; no distance and no DTW file.
fn same_results(variant: Variant, pieces: u32, wdl_only: &Path, full: &Path) {
    for m in Material::all_up_to(pieces) {
        let (a, b) = (
            table_path(wdl_only, m, TableKind::Wdl),
            table_path(full, m, TableKind::Wdl),
        );
        let (ab, bb) = (
            std::fs::read(&a).expect("wdl"),
            std::fs::read(&b).expect("wdl"),
        );
        assert!(ab[HEADER_LEN..] == bb[HEADER_LEN..], "{variant:?} {m}");
        let (ha, hb) = (header(&a), header(&b));
        assert_eq!(
            (ha.wins, ha.draws, ha.losses),
            (hb.wins, hb.draws, hb.losses),
            "{variant:?} {m}"
        );
        assert_eq!(ha.longest_win, 0, "no distance is claimed");
        assert!(!table_path(wdl_only, m, TableKind::Dtw).exists(), "{m}");
    }
}

#[test]
fn wdl_only_tables_hold_the_results_of_full_ones_whole_or_in_sub_slices() {
    // Frisian to three pieces: its kings' long moves make four slow for the test suite.
    for (variant, pieces) in [(Variant::English, 4), (Variant::Frisian, 3)] {
        let (full, wdl, cut) = (TempDir::new(), TempDir::new(), TempDir::new());
        let (full, wdl, cut) = (full.expect("dir"), wdl.expect("dir"), cut.expect("dir"));
        generate_all(
            variant,
            pieces,
            full.path(),
            Report::Quiet,
            limits(Metric::Dtw, None),
        )
        .expect("full");
        generate_all(
            variant,
            pieces,
            wdl.path(),
            Report::Quiet,
            limits(Metric::Wdl, None),
        )
        .expect("wdl");
        let made = generate_all(
            variant,
            pieces,
            cut.path(),
            Report::Quiet,
            limits(Metric::Wdl, Some(3_000)),
        )
        .expect("wdl in sub-slices");
        assert!(made.iter().any(|j| j.sub_slices > 1));
        same_results(variant, pieces, wdl.path(), full.path());
        same_results(variant, pieces, cut.path(), full.path());

        // The probe answers WDL from them as from the full set, and has no distances.
        let (w, f) = (
            Tablebase::open(wdl.path()).expect("wdl"),
            Tablebase::open(full.path()).expect("full"),
        );
        let m: Material = "kk-m".parse().expect("material");
        let ix = Indexer::new(variant.geometry(), m);
        for i in (0..ix.size()).step_by(97) {
            let pos = position_of(variant, ix.unrank(i));
            assert_eq!(w.wdl(&pos).expect("wdl"), f.wdl(&pos).expect("wdl"));
        }
        let pos = position_of(variant, ix.unrank(0));
        assert!(matches!(
            w.dtw(&pos),
            Err(TbError::Missing { kind: "dtw", .. })
        ));

        // Checked from their moves, capture positions resolved by their captures.
        let checked = verify(variant, wdl.path(), Bytes(1 << 30), Report::Quiet).expect("ok");
        assert_eq!(checked.slices, Material::all_up_to(pieces).len());
    }
}

#[test]
fn a_wrong_result_in_an_intact_wdl_only_table_is_found() {
    let v = Variant::English;
    let dir = TempDir::new().expect("dir");
    generate_all(v, 3, dir.path(), Report::Quiet, limits(Metric::Wdl, None)).expect("wdl");
    // A draw turned into a win in a position without a capture, the file rebuilt intact.
    let m: Material = "k-kk".parse().expect("material");
    let path = table_path(dir.path(), m, TableKind::Wdl);
    let bytes = std::fs::read(&path).expect("wdl");
    let view = TableView::new(&bytes).expect("intact");
    let mut codes = view.decode_all().expect("decodes");
    let tb = Tablebase::open(dir.path()).expect("tables");
    let ix = Indexer::new(v.geometry(), m);
    let at = (0..ix.size())
        .find(|&i| {
            let pos = position_of(v, ix.unrank(i));
            !pos.has_capture() && tb.wdl(&pos).ok() == Some(Wdl::Draw)
        })
        .expect("a drawn position without a capture");
    drop(tb);
    codes[at as usize] = format::WDL_WIN as u16;
    let mut packed = vec![0u8; codes.len().div_ceil(4)];
    for (i, &c) in codes.iter().enumerate() {
        packed[i / 4] |= (c as u8) << (2 * (i % 4));
    }
    std::fs::write(&path, format::build(view.header.clone(), &packed, 3)).expect("write");
    let err = verify(v, dir.path(), Bytes(1 << 30), Report::Quiet).expect_err("found");
    assert!(matches!(err, TbError::Inconsistent { .. }), "{err}");
    assert!(err.to_string().contains("k-kk.wdl"), "{err}");
}

#[test]
fn a_dtw_job_does_not_read_wdl_only_tables_and_a_full_run_rebuilds_them() {
    let v = Variant::English;
    let dir = TempDir::new().expect("dir");
    generate_all(v, 3, dir.path(), Report::Quiet, limits(Metric::Wdl, None)).expect("wdl");
    let job: Material = "kk-kk".parse().expect("material");
    let err = generate_job(v, job, dir.path(), Report::Quiet, limits(Metric::Dtw, None))
        .expect_err("its dependencies have no DTW tables");
    assert!(err.to_string().contains("needs the dtw tables of"), "{err}");
    // A WDL job reads them.
    generate_job(v, job, dir.path(), Report::Quiet, limits(Metric::Wdl, None)).expect("wdl job");
    // A full run does every job again with its distances.
    let redone =
        generate_all(v, 3, dir.path(), Report::Quiet, limits(Metric::Dtw, None)).expect("full");
    assert!(redone.iter().all(|j| !j.skipped));
    assert!(table_path(dir.path(), "kk-k".parse().expect("m"), TableKind::Dtw).exists());
}

#[test]
fn a_wdl_only_job_reads_a_quarter_byte_a_position_of_all_it_can_reach() {
    let v = Variant::International;
    let job: Material = "kkm-kmm".parse().expect("material");
    let dtw = memory::need(v, job, Metric::Dtw);
    let wdl = memory::need(v, job, Metric::Wdl);
    // It reads further (every slice a line of captures and promotions reaches) ...
    assert!(wdl.held > dtw.held);
    let reached = memory::reads(v, job, Metric::Wdl);
    for m in memory::reads(v, job, Metric::Dtw) {
        assert!(reached.contains(&m), "{m}");
    }
    assert!(reached.contains(&"k-k".parse().expect("material")));
    // ... but eight times less a position, so it needs less memory.
    assert!(wdl.bytes < dtw.bytes, "{} against {}", wdl.bytes, dtw.bytes);
    // The plans ask each job for its tables.
    let make =
        crate::tablebase::plan::makefile(v, 3, Path::new("t"), "draughts", None, Metric::Wdl)
            .expect("a plan");
    assert!(make.contains(" --metric wdl --slice k-k\n"), "{make}");
    let json = crate::tablebase::plan::json(v, 3, None, Metric::Wdl).expect("a plan");
    assert!(json.contains("\"metric\": \"wdl\""), "{json}");
}
