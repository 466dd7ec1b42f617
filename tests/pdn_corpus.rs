//! The PDN reader against real files written by other programs and people, in ../shared/pdn.
//! The files are test data only and are not part of this repository; without the folder these
//! tests say so and check nothing.

use draughts::Variant;
use draughts::rules::pdn::{PdnError, PdnGame, read_bytes, read_games, write_game};
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pdn");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is absent; the PDN corpus tests check nothing",
            dir.display()
        );
        None
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    v.sort();
    v
}

fn read(path: &Path, variant: Variant) -> Vec<Result<PdnGame, PdnError>> {
    read_bytes(&std::fs::read(path).unwrap(), variant)
}

fn assert_round_trip(game: &PdnGame, path: &Path) {
    let text = write_game(game);
    let back = read_games(&text, game.variant);
    assert_eq!(back.len(), 1, "{}: {text}", path.display());
    assert_eq!(
        back[0].as_ref().unwrap(),
        game,
        "{}: {text}",
        path.display()
    );
}

/// The one record in the good folders whose game breaks the rules: the exporting program let
/// Black take one man with 11x22 where Frisian Art. 11 makes 7x38 (two men) compulsory.
const ILLEGAL_RECORD: (&str, usize, usize) = ("noamfav_20241114_144300.pdn", 9, 100);

#[test]
fn every_game_in_the_good_folders_reads_replays_and_round_trips() {
    let Some(root) = corpus() else { return };
    let mut total = 0;
    for (folder, variant) in [
        ("english", Variant::English),
        ("international", Variant::International),
        ("frisian", Variant::Frisian),
    ] {
        for path in files(&root.join(folder)) {
            for game in read(&path, variant) {
                let name = path.file_name().unwrap().to_str().unwrap();
                match game {
                    Ok(g) => {
                        assert_round_trip(&g, &path);
                        total += 1;
                    }
                    Err(e) if (name, e.line, e.column) == ILLEGAL_RECORD => {
                        assert!(e.reason.contains("(legal: 7x38)"), "{e}");
                    }
                    Err(e) => panic!("{}:{e}", path.display()),
                }
            }
        }
    }
    assert!(total > 4000, "only {total} games read");
}

#[test]
fn malformed_files_give_located_errors_and_keep_their_good_games() {
    let Some(root) = corpus() else { return };
    /// File, games, good games, and each error's line, column and reason.
    type Expected = (
        &'static str,
        usize,
        usize,
        &'static [(usize, usize, &'static str)],
    );
    let expected: &[Expected] = &[
        (
            "wiegerw_fail_40Camp.DamaInternazionaleAssoluto.pdn",
            45,
            44,
            &[(228, 1, "has no result")],
        ),
        ("wiegerw_fail_Cat.A1.pdn", 35, 34, &[(405, 36, "'.'")]),
        (
            "wiegerw_fail_Cat.C1.pdn",
            46,
            44,
            &[
                (579, 75, "move number without a move"),
                (611, 1, "36x27 is not a legal move"),
            ],
        ),
        (
            "wiegerw_fail_delfts.pdn",
            2,
            0,
            &[
                (26, 69, "4-6 is not a legal move"),
                (53, 35, "1-9 is not a legal move"),
            ],
        ),
    ];
    for (name, games, ok, errors) in expected {
        let path = root.join("international/malformed").join(name);
        let read = read(&path, Variant::International);
        assert_eq!(read.len(), *games, "{name}");
        assert_eq!(read.iter().filter(|g| g.is_ok()).count(), *ok, "{name}");
        let found: Vec<&PdnError> = read.iter().filter_map(|g| g.as_ref().err()).collect();
        assert_eq!(found.len(), errors.len(), "{name}: {found:?}");
        for (e, (line, column, reason)) in found.iter().zip(errors.iter()) {
            assert_eq!((e.line, e.column), (*line, *column), "{name}: {e}");
            assert!(e.reason.contains(reason), "{name}: {e}");
        }
    }
}

#[test]
fn odd_files_read_or_fail_with_reasons() {
    let Some(root) = corpus() else { return };
    let fine = [
        "pydraughts_lidraughts_frisian_tags_only.pdn",
        "vhabgood_empty_game.pdn",
        "vhabgood_tags_only_red_tag.pdn",
        "wiegerw_fen.pdn",
        "wiegerw_gameterminator.pdn",
        "wiegerw_linecomment.pdn",
        "wiegerw_movestrength.pdn",
        "wiegerw_string.pdn",
        "wiegerw_unicode.pdn",
        "wiegerw_variation.pdn",
    ];
    for path in files(&root.join("odd")) {
        let name = path.file_name().unwrap().to_str().unwrap();
        let games = read(&path, Variant::International);
        assert!(!games.is_empty(), "{name}");
        if fine.contains(&name) {
            for g in &games {
                let g = g.as_ref().unwrap_or_else(|e| panic!("{name}:{e}"));
                assert_round_trip(g, &path);
            }
        } else {
            // Other variants (Russian, Italian, Czech), algebraic notation, broken syntax.
            let e = games.iter().find_map(|g| g.as_ref().err());
            let e = e.unwrap_or_else(|| panic!("{name} should not read cleanly"));
            assert!(
                e.line >= 1 && e.column >= 1 && !e.reason.is_empty(),
                "{name}"
            );
        }
    }
    let frisian = read(
        &root.join("odd/pydraughts_lidraughts_frisian_tags_only.pdn"),
        Variant::International,
    );
    assert_eq!(frisian.len(), 16);
    let first = frisian[0].as_ref().unwrap();
    assert_eq!(first.variant, Variant::Frisian);
}
