//! Known endgame results, probed from tables generated into temporary directories.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use tempfile::TempDir;

use crate::rules::board::Position;
use crate::rules::notation::fen::parse_fen;
use crate::rules::variant::Variant;
use crate::tablebase::generate::{generate_all, generate_with_dependencies};
use crate::tablebase::index::Indexer;
use crate::tablebase::material::Material;
use crate::tablebase::progress::Report;
use crate::tablebase::store::position_of;
use crate::tablebase::{Dtw, Tablebase, Wdl};

/// Tables shared by the tests of one process: generated once, removed at exit with the directory.
pub(crate) fn tables(variant: Variant) -> &'static Tablebase {
    &shared_tables(variant).1
}

/// The same tables, shared (for whatever keeps them, as a searcher does).
pub(crate) fn tables_arc(variant: Variant) -> Arc<Tablebase> {
    Arc::clone(&shared_tables(variant).1)
}

fn shared_tables(variant: Variant) -> &'static (TempDir, Arc<Tablebase>) {
    static DIRS: [OnceLock<(TempDir, Arc<Tablebase>)>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a variant");
    DIRS[slot].get_or_init(|| {
        let dir = TempDir::new().expect("a temporary directory");
        generate_all(
            variant,
            3,
            dir.path(),
            Report::Quiet,
            crate::tablebase::memory::default_budget(),
        )
        .expect("3-piece tables");
        let extra: &[&str] = match variant {
            Variant::International => &["kkkk-k", "mm-mm", "km-k"],
            Variant::English => &["kk-kk", "kmm-k", "mm-mm"],
            Variant::Frisian => &["kk-kk", "km-k"],
        };
        for job in extra {
            let job: Material = job.parse().expect("a material");
            generate_with_dependencies(
                variant,
                job,
                dir.path(),
                Report::Quiet,
                crate::tablebase::memory::default_budget(),
            )
            .expect("extra tables");
        }
        let tb = Tablebase::open(dir.path()).expect("tables open");
        (dir, Arc::new(tb))
    })
}

fn fen(variant: Variant, text: &str) -> Position {
    parse_fen(text, variant).expect("test FEN")
}

/// Whether the side not to move would have a capture if it were its turn.
fn threat(pos: &Position) -> bool {
    let mut turned = *pos;
    turned.side = pos.side.opposite();
    turned.has_capture()
}

/// Every position of a slice, as positions with the slice's side to move playing up.
fn each_position(variant: Variant, m: Material, mut f: impl FnMut(Position)) {
    let ix = Indexer::new(variant.geometry(), m);
    let mut w = crate::tablebase::Walker::new(&ix, 0);
    loop {
        f(position_of(variant, w.placement()));
        if !w.advance() {
            break;
        }
    }
}

#[test]
fn international_king_against_king_is_a_draw_unless_lost_at_once() {
    let tb = tables(Variant::International);
    assert_eq!(
        tb.wdl(&fen(Variant::International, "W:WK1:BK50")).unwrap(),
        Wdl::Draw
    );
    let mut decided = 0;
    each_position(Variant::International, Material::new(0, 1, 0, 1), |pos| {
        let v = tb.dtw(&pos).unwrap();
        if v != Dtw::Draw {
            decided += 1;
            // A capture, or a king shut in a corner (W:WK10:BK5: 10-14 and 5-10 must follow).
            assert!(v.plies() <= 3, "{pos:?}: {v} is not an immediate result");
            if pos.has_capture() {
                assert_eq!(v, Dtw::Win(1), "{pos:?}");
            }
        }
    });
    assert!(decided > 0, "some positions are decided by a capture");
    assert_eq!(
        tb.dtw(&fen(Variant::International, "W:WK10:BK5")).unwrap(),
        Dtw::Win(3)
    );
}

#[test]
fn international_two_kings_against_one_draw_except_by_immediate_tactics() {
    let tb = tables(Variant::International);
    let v = Variant::International;
    assert_eq!(tb.wdl(&fen(v, "W:WK1,K2:BK50")).unwrap(), Wdl::Draw);
    assert_eq!(tb.wdl(&fen(v, "B:WK1,K2:BK50")).unwrap(), Wdl::Draw);
    for m in [Material::new(0, 2, 0, 1), Material::new(0, 1, 0, 2)] {
        let mut draws = 0u64;
        let mut total = 0u64;
        each_position(v, m, |pos| {
            total += 1;
            match tb.dtw(&pos).unwrap() {
                Dtw::Draw => draws += 1,
                // The longest: the lone king caught near a corner within four moves.
                d => assert!(d.plies() <= 8, "{pos:?}: {d} is no immediate tactic"),
            }
        });
        assert!(draws * 2 > total, "{m}: most positions are drawn");
    }
}

#[test]
fn international_four_kings_beat_one_where_no_capture_is_pending() {
    let tb = tables(Variant::International);
    let v = Variant::International;
    let mut quiet = 0;
    each_position(v, Material::new(0, 4, 0, 1), |pos| {
        if !pos.has_capture() && !threat(&pos) {
            quiet += 1;
            assert_eq!(tb.wdl(&pos).unwrap(), Wdl::Win, "{pos:?}");
        }
    });
    assert!(quiet > 1_000_000, "{quiet} quiet positions checked");
    // With the lone king to move, its only hope is a fork that wins a king (the three kings left
    // may not win): W:WK1:BK5,K8,K10,K17, 1-12 attacks 8 and 17.
    let (mut lost, mut forks) = (0u64, 0u64);
    each_position(v, Material::new(0, 1, 0, 4), |pos| {
        if pos.has_capture() || threat(&pos) {
            return;
        }
        match tb.wdl(&pos).unwrap() {
            Wdl::Loss => lost += 1,
            other => {
                forks += 1;
                let saving = pos.legal_moves().iter().any(|mv| {
                    let after = pos.play(mv);
                    threat(&after) && tb.wdl(&after).unwrap() != Wdl::Win
                });
                assert!(saving, "{pos:?} is {other} without a fork");
            }
        }
    });
    assert!(lost > 100 * forks, "{lost} lost, {forks} saved by a fork");
    assert_eq!(tb.wdl(&fen(v, "W:WK1:BK5,K8,K10,K17")).unwrap(), Wdl::Draw);
}

#[test]
fn english_two_kings_beat_one_in_all_but_a_handful() {
    let tb = tables(Variant::English);
    let v = Variant::English;
    let mut not_won = 0;
    each_position(v, Material::new(0, 2, 0, 1), |pos| {
        if !pos.has_capture() && !threat(&pos) && tb.wdl(&pos).unwrap() != Wdl::Win {
            not_won += 1;
        }
    });
    assert!(not_won <= 20, "{not_won} quiet kk-k positions are not won");
}

#[test]
fn english_lasker_position() {
    let tb = tables(Variant::English);
    let v = Variant::English;
    assert_eq!(tb.wdl(&fen(v, "W:WK32:BK26")).unwrap(), Wdl::Win);
    assert_eq!(tb.wdl(&fen(v, "B:WK32:BK26")).unwrap(), Wdl::Draw);
}

#[test]
fn frisian_two_kings_beat_one_almost_everywhere() {
    let tb = tables(Variant::Frisian);
    let v = Variant::Frisian;
    let (mut won, mut total) = (0u64, 0u64);
    each_position(v, Material::new(0, 2, 0, 1), |pos| {
        total += 1;
        if tb.wdl(&pos).unwrap() == Wdl::Win {
            won += 1;
        }
    });
    assert!(won * 100 >= total * 95, "{won} of {total} won");
}

#[test]
fn wdl_and_dtw_agree_and_moves_explain_values() {
    for v in Variant::ALL {
        let tb = tables(v);
        for m in tb.materials() {
            let ix = Indexer::new(v.geometry(), m);
            for i in (0..ix.size()).step_by(ix.size() as usize / 50 + 1) {
                let pos = position_of(v, ix.unrank(i));
                check_minimax(tb, &pos);
            }
        }
    }
}

fn check_minimax(tb: &Tablebase, pos: &Position) {
    let value = tb.dtw(pos).unwrap();
    assert_eq!(tb.wdl(pos).unwrap(), value.wdl(), "{pos:?}");
    let moves = pos.legal_moves();
    let best = moves
        .iter()
        .map(|mv| tb.dtw(&pos.play(mv)).unwrap().before())
        .max_by_key(|d| d.preference())
        .unwrap_or(Dtw::Loss(0));
    assert_eq!(value, best, "{pos:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn stored_value_is_the_minimax_of_the_moves(variant in 0usize..3, pick in any::<u64>(), flip in any::<bool>()) {
        let v = Variant::ALL[variant];
        let tb = tables(v);
        let materials = tb.materials();
        let m = materials[(pick % materials.len() as u64) as usize];
        let ix = Indexer::new(v.geometry(), m);
        let pos = position_of(v, ix.unrank((pick >> 8) % ix.size()));
        let pos = if flip { pos.flipped() } else { pos };
        check_minimax(tb, &pos);
    }
}

#[test]
fn unwritable_directory_is_a_clear_error() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let dir = file.path().join("tables");
    let err = generate_all(
        Variant::English,
        2,
        &dir,
        Report::Quiet,
        crate::tablebase::memory::default_budget(),
    )
    .unwrap_err();
    assert!(err.to_string().contains(&*dir.to_string_lossy()), "{err}");
}

fn corrupt(path: &Path, at: u64) {
    let mut bytes = std::fs::read(path).unwrap();
    let at = (at as usize).min(bytes.len() - 1);
    bytes[at] ^= 0x10;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn damaged_files_are_named_and_regenerated() {
    let dir = TempDir::new().unwrap();
    let v = Variant::English;
    generate_all(
        v,
        3,
        dir.path(),
        Report::Quiet,
        crate::tablebase::memory::default_budget(),
    )
    .unwrap();
    let dtw = dir.path().join("kk-k.dtw");
    let len = std::fs::metadata(&dtw).unwrap().len();
    corrupt(&dtw, len - 5);
    let tb = Tablebase::open(dir.path()).unwrap();
    let err = tb.dtw(&fen(v, "W:WK1,K2:BK32")).unwrap_err();
    assert!(err.to_string().contains("kk-k.dtw"), "{err}");
    let err = crate::tablebase::verify::verify(v, dir.path(), ample(), Report::Quiet).unwrap_err();
    assert!(err.to_string().contains("kk-k.dtw"), "{err}");

    // A truncated file and a foreign file with a table's name.
    let wdl = dir.path().join("k-k.wdl");
    let bytes = std::fs::read(&wdl).unwrap();
    std::fs::write(&wdl, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(dir.path().join("m-k.wdl"), b"hello, not a table").unwrap();
    let err = Tablebase::open(dir.path()).unwrap_err();
    assert!(err.to_string().contains("m-k.wdl"), "{err}");

    // Generating again redoes exactly the damaged jobs; the tables then verify.
    let summary = generate_all(
        v,
        3,
        dir.path(),
        Report::Quiet,
        crate::tablebase::memory::default_budget(),
    )
    .unwrap();
    let redone: Vec<String> = summary
        .iter()
        .filter(|j| !j.skipped)
        .map(|j| j.job.to_string())
        .collect();
    assert_eq!(redone, ["k-k", "k-m", "k-kk"], "the damaged jobs");
    crate::tablebase::verify::verify(v, dir.path(), ample(), Report::Quiet).unwrap();

    // One job alone: its two slices, damage elsewhere aside.
    let job: Material = "k-kk".parse().unwrap();
    let one =
        crate::tablebase::verify::verify_job(v, dir.path(), job, ample(), Report::Quiet).unwrap();
    assert_eq!(one.slices, 2);
    corrupt(&dir.path().join("kk-k.dtw"), 100);
    let err = crate::tablebase::verify::verify_job(v, dir.path(), job, ample(), Report::Quiet)
        .unwrap_err();
    assert!(err.to_string().contains("kk-k.dtw"), "{err}");
}

/// A memory budget that holds every slice of the small test tables decoded.
fn ample() -> crate::tablebase::memory::Bytes {
    crate::tablebase::memory::Bytes(1 << 30)
}

/// Rewrites the DTW file of `m` with one value changed by `change`, as a consistent file (header,
/// block table and checksum in order): only re-deriving the values can tell.
fn tamper(dir: &Path, m: Material, at: u64, change: impl Fn(Dtw) -> Dtw) {
    use crate::tablebase::format::{self, TableView};
    let path = crate::tablebase::table_path(dir, m, crate::tablebase::TableKind::Dtw);
    let bytes = std::fs::read(&path).unwrap();
    let view = TableView::new(&bytes).unwrap();
    let mut codes = view.decode_all().unwrap();
    codes[at as usize] = change(Dtw::from_code(codes[at as usize])).code();
    let raw: Vec<u8> = match view.header.entry_bits {
        8 => codes.iter().map(|&c| c as u8).collect(),
        _ => codes.iter().flat_map(|c| c.to_le_bytes()).collect(),
    };
    let image = format::build(view.header.clone(), &raw, 3);
    std::fs::write(&path, image).unwrap();
}

#[test]
fn a_wrong_value_in_an_intact_file_is_found_whether_slices_are_decoded_or_read_from_files() {
    let dir = TempDir::new().unwrap();
    let v = Variant::English;
    generate_all(v, 3, dir.path(), Report::Quiet, ample()).unwrap();
    // A budget too small to decode any slice: every lookup goes through the mapped files.
    let tiny = crate::tablebase::memory::Bytes(1);
    for budget in [ample(), tiny] {
        let all = crate::tablebase::verify::verify(v, dir.path(), budget, Report::Quiet).unwrap();
        assert_eq!(
            all.slices,
            Tablebase::open(dir.path()).unwrap().materials().len()
        );
    }
    // A win for two kings against one made two plies longer than it is.
    let m: Material = "kk-k".parse().unwrap();
    let ix = Indexer::new(v.geometry(), m);
    let tb = Tablebase::open(dir.path()).unwrap();
    let at = (0..ix.size())
        .find(|&i| {
            let pos = position_of(v, ix.unrank(i));
            !pos.has_capture() && matches!(tb.dtw(&pos), Ok(Dtw::Win(_)))
        })
        .expect("a won position without a capture");
    drop(tb);
    tamper(dir.path(), m, at, |d| match d {
        Dtw::Win(n) => Dtw::Win(n + 2),
        other => other,
    });
    for budget in [ample(), tiny] {
        let err = crate::tablebase::verify::verify_job(v, dir.path(), m, budget, Report::Quiet)
            .unwrap_err();
        assert!(
            matches!(err, crate::tablebase::TbError::Inconsistent { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("kk-k.dtw"), "{err}");
    }
}

#[test]
fn a_tablebase_is_shared_between_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let tb = tables(Variant::English);
    shareable(tb);
    let pos = fen(Variant::English, "W:WK32:BK26");
    let answers: Vec<Wdl> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| tb.wdl(&pos).unwrap())).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(answers, [Wdl::Win; 4]);
}
