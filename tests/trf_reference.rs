//! TRF interchange with the reference pairing engine, bbpPairings (FIDE-endorsed Dutch system):
//! the TRF the club exports is read by it without a warning, and a tournament its generator
//! writes imports into the club and exports again with the same players, rounds and results.
//!
//! bbpPairings is built from `../shared/peers` by its `build.sh`; without that folder the tests
//! say so and pass without checking.

#[path = "support/bbp.rs"]
mod bbp;
mod common;

use bbp::bbp;

use common::{stderr, stdout};
use std::path::Path;
use std::process::{Command, Output};

/// Runs a club command that must succeed.
fn club(db: &Path, args: &[&str]) -> Output {
    let o = common::club(db, args);
    assert!(o.status.success(), "club {args:?}: {}", stderr(&o));
    o
}

/// Every pairing of the tournament "Open" so far, as `tournament show --json` lists them.
fn shown(db: &Path) -> Vec<serde_json::Value> {
    let o = club(db, &["tournament", "show", "Open", "--json"]);
    let shown: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    shown.as_array().expect("an array of pairings").clone()
}

/// Asks bbpPairings to pair the next round of `trf`: it must read the file without an error or a
/// warning and pair. Returns its pairing file.
fn reference_pairs(bbp: &Path, trf: &Path) -> String {
    let (o, pairs) = bbp::pair(bbp, trf);
    assert!(
        pairs.is_some() && stderr(&o).trim().is_empty() && stdout(&o).trim().is_empty(),
        "bbpPairings on {}: exit {:?}\n{}{}\n{}",
        trf.display(),
        o.status.code(),
        stdout(&o),
        stderr(&o),
        std::fs::read_to_string(trf).unwrap_or_default()
    );
    pairs.unwrap_or_default()
}

/// Asks bbpPairings to check every round of `trf` (`-c`); returns what it printed, after
/// making sure it read the file.
fn reference_check(bbp: &Path, trf: &Path) -> String {
    let o = Command::new(bbp)
        .arg("--dutch")
        .arg(trf)
        .arg("-c")
        .output()
        .expect("bbpPairings runs");
    assert!(
        o.status.success(),
        "bbpPairings -c on {}: exit {:?}\n{}",
        trf.display(),
        o.status.code(),
        stderr(&o)
    );
    format!("{}{}", stdout(&o), stderr(&o))
}

/// Columns 1–84 (player, rating, id, points) and 92 on (the rounds) of every 001 record, by
/// starting rank; the place in columns 86–89 depends on each program's tie-breaks.
fn players(trf: &str) -> Vec<String> {
    let mut out: Vec<String> = trf
        .split(['\n', '\r'])
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let l = format!("{l:<91}");
            format!("{}|{}", &l[..84], l[91..].trim_end())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_exported_trf_is_read_by_the_reference_engine() {
    let Some(bbp) = bbp() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let names = [
        "Ann", "Bob", "Cor", "Dirk", "Eva", "Fred", "Gea", "Hans", "Ilse", "Jan", "Kees",
    ];
    for (i, n) in names.iter().enumerate() {
        let rating = format!("international={}", 2000 - 37 * i);
        club(&db, &["member", "add", n, "--rating", &rating]);
    }
    club(
        &db,
        &[
            "tournament",
            "create",
            "Open",
            "--system",
            "swiss",
            "--rounds",
            "5",
            "--scoring",
            "2-1-0",
        ],
    );
    let mut entered = vec!["tournament", "enter", "Open"];
    entered.extend(names);
    club(&db, &entered);
    // Three rounds with every kind of result: wins, draws, a bye (11 players), a forfeit after a
    // withdrawal, and a player sitting a round out.
    for round in 1..=3 {
        if round == 2 {
            club(
                &db,
                &["tournament", "absent", "Open", "Kees", "--round", "2"],
            );
        }
        club(&db, &["tournament", "pair", "Open"]);
        let mut pairings = shown(&db);
        if round == 3 {
            // The White of the last board withdraws once the round is paired.
            let last = pairings
                .iter()
                .rfind(|p| p["round"] == 3 && !p["black"].is_null())
                .expect("a board in round 3");
            let white = last["white"].as_str().expect("a name");
            club(&db, &["tournament", "withdraw", "Open", white]);
            pairings = shown(&db);
        }
        for (board, p) in pairings.iter().enumerate() {
            if p["round"] != round || p["black"].is_null() || !p["result"].is_null() {
                continue;
            }
            let result = ["2-0", "1-1", "0-2"][board % 3];
            let (white, black) = (p["white"].as_str().unwrap(), p["black"].as_str().unwrap());
            club(
                &db,
                &[
                    "tournament",
                    "result",
                    "Open",
                    white,
                    result,
                    black,
                    "--round",
                    &round.to_string(),
                ],
            );
        }
    }
    let o = club(&db, &["tournament", "export", "Open", "--format", "trf"]);
    let trf = stdout(&o);
    for tag in ["XXR 5", "162  W 2.0    D 1.0    L 0.0", "XXC "] {
        assert!(trf.contains(tag), "{tag:?} missing:\n{trf}");
    }
    assert!(trf.contains("0000 - U"), "the bye:\n{trf}");
    assert!(trf.contains("0000 - Z"), "the round sat out:\n{trf}");
    // A player withdrew after round 3 was paired: the opponent wins that game by forfeit.
    assert!(
        trf.lines()
            .any(|l| l.starts_with("001") && (l.contains(" w +") || l.contains(" b +"))),
        "the forfeit:\n{trf}"
    );
    let file = dir.path().join("open.trf");
    std::fs::write(&file, &trf).expect("write the TRF");
    let pairs = reference_pairs(&bbp, &file);
    // Ten players left: five boards, no bye.
    assert_eq!(pairs.lines().next().map(str::trim), Some("5"), "{pairs}");
}

#[test]
fn a_generated_tournament_imports_and_exports_unchanged() {
    let Some(bbp) = bbp() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let config = "PlayersNumber=23\nRoundsNumber=7\nDrawPercentage=30\nForfeitRate=20\nRetiredRate=40\n\
                  HighestRating=2300\nLowestRating=1300\nPointsForWin=2.0\nPointsForDraw=1.0\n\
                  PointsForPAB=2.0\n";
    for seed in [3, 17, 2026] {
        let original = bbp::generate(&bbp, dir.path(), config, seed);
        let generated = dir.path().join(format!("gen{seed}.trf"));
        let db = dir.path().join(format!("club{seed}.sqlite"));
        club(
            &db,
            &[
                "tournament",
                "import-trf",
                generated.to_str().expect("utf-8 path"),
            ],
        );
        let o = club(
            &db,
            &[
                "tournament",
                "export",
                &format!("AutoTest Tournament {seed}"),
                "--format",
                "trf",
            ],
        );
        let exported = stdout(&o);
        assert_eq!(
            players(&exported),
            players(&original),
            "seed {seed}: the records differ\n--- generated\n{original}\n--- exported\n{exported}"
        );
        // The reference checks every round of both files alike: it reads ours as its own.
        let file = dir.path().join(format!("again{seed}.trf"));
        std::fs::write(&file, &exported).expect("write the TRF");
        let theirs = reference_check(&bbp, &generated);
        let ours = reference_check(&bbp, &file);
        // It names each file by its stem.
        assert_eq!(
            ours.replace(&format!("again{seed}"), "FILE"),
            theirs.replace(&format!("gen{seed}"), "FILE"),
            "seed {seed}"
        );
    }
}
