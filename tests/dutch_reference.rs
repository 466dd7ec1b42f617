//! The club's Dutch system beside the reference pairing engine, bbpPairings (FIDE-endorsed):
//! tournaments written by bbpPairings' random tournament generator (9–150 players, 5–11 rounds,
//! draws, forfeits, players retiring and sitting rounds out) are cut before each round, and both
//! programs pair that state from the same TRF. Every board (pair and colours) and the bye must
//! be the same.
//!
//! The same states are also paired end to end: `draughts club tournament pair-trf --numbers`
//! writes the reference's own pairing file byte for byte, and a cut TRF imported into a club
//! (`tournament import-trf`) pairs its next round (`tournament pair`) as the reference does.
//!
//! `DUTCH_TOURNAMENTS` sets how many tournaments (default 12; `scripts/dutch-agreement.sh` runs
//! thousands of rounds); `DUTCH_SEED` the first seed. Without `../shared/peers` the test says so
//! and passes without checking.

#[path = "support/bbp.rs"]
mod bbp;
mod common;

use draughts::club::access::Actor;
use draughts::club::dutch;
use draughts::club::trf;
use std::collections::BTreeSet;
use std::path::Path;

/// A tiny deterministic generator for the tournaments' parameters.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// The generated TRF cut to its first `rounds` rounds, with the next round's absences (entries
/// of players who sit it out) kept as the request they are, and the points recomputed.
fn cut(trf: &str, rounds: usize) -> String {
    let mut out = String::new();
    for line in trf.split(['\r', '\n']).filter(|l| !l.is_empty()) {
        if !line.starts_with("001") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let bytes = line.as_bytes();
        let column = |i: usize| -> String {
            let start = 91 + 10 * i;
            let end = (start + 8).min(bytes.len());
            if start >= bytes.len() {
                String::new()
            } else {
                String::from_utf8_lossy(&bytes[start..end]).into_owned()
            }
        };
        let mut points = 0.0;
        let mut kept = Vec::new();
        for i in 0..rounds {
            let c = column(i);
            let result = c.chars().nth(7).unwrap_or(' ');
            let opponent = c.get(..4).unwrap_or("").trim();
            points += match result {
                '1' | 'W' | '+' | 'F' => 2.0,
                'U' if opponent == "0000" || opponent.is_empty() => 2.0,
                '=' | 'D' | 'H' => 1.0,
                _ => 0.0,
            };
            kept.push(c);
        }
        let next = column(rounds);
        let next_opponent = next.get(..4).unwrap_or("").trim();
        let next_result = next.chars().nth(7).unwrap_or(' ');
        let sits_out = (next_opponent.is_empty() || next_opponent == "0000")
            && !matches!(next_result, 'U' | '+' | ' ');
        if sits_out {
            kept.push(next);
        }
        let mut l = format!("{:<80}{:>4.1}", &line[..80.min(line.len())], points);
        l.push_str(&format!("{:<7}", line.get(84..91).unwrap_or("")));
        for (i, c) in kept.iter().enumerate() {
            if i > 0 {
                l.push_str("  ");
            }
            l.push_str(&format!("{c:<8}"));
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// Boards as (White, Black) starting ranks, and the bye.
type Boards = (BTreeSet<(usize, usize)>, Option<usize>);

fn reference(bbp: &Path, trf: &Path) -> Result<Boards, String> {
    let (o, pairs) = bbp::pair(bbp, trf);
    let text = pairs.ok_or_else(|| {
        format!(
            "bbpPairings: exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        )
    })?;
    let mut boards = BTreeSet::new();
    let mut bye = None;
    for line in text.lines().skip(1) {
        let v: Vec<usize> = line
            .split_whitespace()
            .map(|x| x.parse().expect("a starting rank"))
            .collect();
        match v[..] {
            [a, 0] => bye = Some(a),
            [a, b] => {
                boards.insert((a, b));
            }
            _ => panic!("bbpPairings wrote {line:?}"),
        }
    }
    Ok((boards, bye))
}

fn ours(text: &str) -> Result<Boards, String> {
    let next = trf::next_round(text).map_err(|e| e.to_string())?;
    let pairing = dutch::pair(&next.field).map_err(|e| e.to_string())?;
    let rank = |i: usize| next.starting_ranks[i];
    Ok((
        pairing
            .boards
            .iter()
            .map(|&(w, b)| (rank(w), rank(b)))
            .collect(),
        pairing.bye.map(rank),
    ))
}

#[test]
fn every_round_of_generated_tournaments_pairs_as_the_reference_does() {
    let Some(bbp) = bbp::bbp() else { return };
    let count: u64 = std::env::var("DUTCH_TOURNAMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let first: u64 = std::env::var("DUTCH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut rounds, mut same, mut boards, mut same_boards) = (0, 0, 0, 0);
    let mut differences = Vec::new();
    for seed in first..first + count {
        let mut rng = Lcg(seed);
        let players = 9 + rng.next(142);
        let total = 5 + rng.next(7);
        let config = format!(
            "PlayersNumber={players}\nRoundsNumber={total}\nDrawPercentage={}\n\
             ForfeitRate={}\nRetiredRate={}\nHighestRating=2400\nLowestRating=1200\n\
             PointsForWin=2.0\nPointsForDraw=1.0\nPointsForPAB=2.0\n",
            10 + rng.next(40),
            5 + rng.next(40),
            5 + rng.next(60),
        );
        let full = bbp::generate(&bbp, dir.path(), &config, seed);
        // The generator writes neither the number of rounds nor the initial colour: both are
        // added, the colour as round 1 shows it.
        let initial = trf::next_round(&full)
            .expect("the generated TRF reads")
            .field
            .initial_colour;
        let full = format!(
            "XXR {total}\nXXC {}1\n{full}",
            if initial == draughts::club::criteria::Colour::White {
                "white"
            } else {
                "black"
            }
        );
        for round in 0..total as usize {
            let text = cut(&full, round);
            let file = dir.path().join(format!("t{seed}r{}.trf", round + 1));
            std::fs::write(&file, &text).expect("cut TRF");
            let theirs = reference(&bbp, &file);
            let mine = ours(&text);
            rounds += 1;
            if let (Ok(t), Ok(m)) = (&theirs, &mine) {
                boards += t.0.len();
                same_boards += t.0.intersection(&m.0).count();
            }
            if theirs == mine {
                same += 1;
            } else {
                differences.push(format!(
                    "seed {seed} ({players} players) round {}: reference {theirs:?}\n  ours {mine:?}\n  TRF kept at {}",
                    round + 1,
                    file.display()
                ));
            }
        }
    }
    eprintln!(
        "{same} of {rounds} rounds identical ({same_boards} of {boards} boards) over {count} tournaments"
    );
    if !differences.is_empty() {
        let keep = dir.keep();
        panic!(
            "{} rounds differ (files in {}):\n{}",
            differences.len(),
            keep.display(),
            differences[..differences.len().min(5)].join("\n")
        );
    }
}

/// A tournament for the end-to-end checks: 31 players, 7 rounds, forfeits and rounds sat out.
fn small_tournament(bbp: &Path, dir: &Path, seed: u64) -> String {
    let config = "PlayersNumber=31\nRoundsNumber=7\nDrawPercentage=30\nForfeitRate=15\n\
                  RetiredRate=30\nHighestRating=2300\nLowestRating=1300\nPointsForWin=2.0\n\
                  PointsForDraw=1.0\nPointsForPAB=2.0\n";
    let full = bbp::generate(bbp, dir, config, seed);
    let initial = trf::next_round(&full)
        .expect("the generated TRF reads")
        .field
        .initial_colour;
    let colour = if initial == draughts::club::criteria::Colour::White {
        "white"
    } else {
        "black"
    };
    format!("XXR 7\nXXC {colour}1\n{full}")
}

#[test]
fn pair_trf_writes_the_reference_pairing_file() {
    let Some(bbp) = bbp::bbp() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    for seed in [5, 6] {
        let full = small_tournament(&bbp, dir.path(), seed);
        for round in 0..7 {
            let file = dir.path().join(format!("s{seed}r{round}.trf"));
            std::fs::write(&file, cut(&full, round)).expect("cut TRF");
            let (_, theirs) = bbp::pair(&bbp, &file);
            let theirs = theirs.expect("bbpPairings pairs");
            let o = common::draughts(&[
                "club",
                "tournament",
                "pair-trf",
                file.to_str().expect("utf-8 path"),
                "--numbers",
            ]);
            assert!(o.status.success(), "{}", common::stderr(&o));
            let normal = |t: &str| {
                t.replace("\r\n", "\n")
                    .replace('\r', "\n")
                    .trim()
                    .to_string()
            };
            assert_eq!(
                normal(&common::stdout(&o)),
                normal(&theirs),
                "seed {seed}, round {}",
                round + 1
            );
        }
    }
}

#[test]
fn an_imported_tournament_continues_as_the_reference_pairs_it() {
    let Some(bbp) = bbp::bbp() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    for seed in [7, 8] {
        let full = small_tournament(&bbp, dir.path(), seed);
        for round in [1, 3, 6] {
            let text = cut(&full, round);
            let file = dir.path().join(format!("c{seed}r{round}.trf"));
            std::fs::write(&file, &text).expect("cut TRF");
            let theirs = reference(&bbp, &file).expect("bbpPairings pairs");
            let db = dir.path().join(format!("c{seed}r{round}.sqlite"));
            let run = |args: &[&str]| {
                let o = common::club(&db, args);
                assert!(o.status.success(), "club {args:?}: {}", common::stderr(&o));
                o
            };
            run(&[
                "tournament",
                "import-trf",
                file.to_str().expect("utf-8 path"),
            ]);
            let name = format!("AutoTest Tournament {seed}");
            run(&["tournament", "pair", &name]);
            let o = run(&[
                "tournament",
                "show",
                &name,
                "--round",
                &(round + 1).to_string(),
                "--json",
            ]);
            let shown: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
            let next = trf::next_round(&text).expect("the cut TRF reads");
            let rank = |name: &str| {
                let i = next
                    .names
                    .iter()
                    .position(|n| n == name)
                    .unwrap_or_else(|| panic!("{name} is in the file"));
                next.starting_ranks[i]
            };
            let mut boards = BTreeSet::new();
            let mut bye = None;
            for p in shown.as_array().expect("pairings") {
                let white = rank(p["white"].as_str().expect("a name"));
                match p["black"].as_str() {
                    Some(black) => {
                        boards.insert((white, rank(black)));
                    }
                    None => bye = Some(white),
                }
            }
            assert_eq!((boards, bye), theirs, "seed {seed}, round {}", round + 1);
        }
    }
}

/// Boards of `round` as starting ranks (entry order), from the club.
fn club_round(store: &draughts::club::Store, round: u32) -> Boards {
    use draughts::club::tournament;
    let id = tournament::find(store, "Sim").expect("the Swiss").id;
    let names = tournament::entrant_names(store, id).expect("entrants");
    let rank = |n: &str| names.iter().position(|m| m == n).expect("an entrant") + 1;
    let mut boards = BTreeSet::new();
    let mut bye = None;
    for p in tournament::pairings(store, "Sim", Some(round)).expect("pairings") {
        match &p.black {
            Some(b) => {
                boards.insert((rank(&p.white), rank(b)));
            }
            None => bye = Some(rank(&p.white)),
        }
    }
    (boards, bye)
}

#[test]
fn a_club_swiss_with_absences_late_entries_and_withdrawals_pairs_as_the_reference() {
    use draughts::club::members::{self, MemberFields};
    use draughts::club::tiebreak::TieBreak;
    use draughts::club::tournament::{self, NewTournament, Outcome, System};
    use draughts::club::{Store, trf as club_trf};
    use draughts::rules::variant::Variant;
    let Some(bbp) = bbp::bbp() else { return };
    let count: u64 = std::env::var("DUTCH_SIMULATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rounds_compared = 0;
    for seed in 0..count {
        let mut rng = Lcg(seed + 77);
        let players = 9 + rng.next(if count > 4 { 142 } else { 50 }) as usize;
        let total = 5 + rng.next(7) as u32;
        let mut store = Store::open(&dir.path().join(format!("sim{seed}.sqlite"))).expect("a club");
        let mut next_member = 0;
        let mut new_member = |store: &mut Store, rng: &mut Lcg| {
            next_member += 1;
            let name = format!("M{seed}-{next_member:04}");
            let fields = MemberFields {
                ratings: vec![(Variant::International, 1200.0 + rng.next(1200) as f64)],
                ..Default::default()
            };
            members::add(store, &Actor::local(), &name, &fields).expect("a member");
            name
        };
        let names: Vec<String> = (0..players)
            .map(|_| new_member(&mut store, &mut rng))
            .collect();
        let new = NewTournament {
            name: "Sim",
            system: System::Swiss { rounds: total },
            variant: Variant::International,
            time_control: None,
            scoring: "2-1-0".parse().expect("scoring"),
            rated: false,
            tiebreaks: vec![TieBreak::Buchholz],
            reports: Default::default(),
        };
        tournament::create(&mut store, &Actor::local(), &new).expect("a Swiss");
        tournament::enter(&mut store, &Actor::local(), "Sim", &names).expect("entries");
        let mut active = names.clone();
        for round in 1..=total {
            if round > 1 {
                // Late entries, requested byes (absences) and withdrawals before the round.
                if rng.next(3) == 0 {
                    let late = new_member(&mut store, &mut rng);
                    tournament::enter(
                        &mut store,
                        &Actor::local(),
                        "Sim",
                        std::slice::from_ref(&late),
                    )
                    .expect("a late entry");
                    active.push(late);
                }
                active.retain(|n| {
                    if rng.next(40) == 0 {
                        tournament::withdraw(&mut store, &Actor::local(), "Sim", n)
                            .expect("withdrawn");
                        false
                    } else {
                        true
                    }
                });
                for n in &active {
                    if rng.next(15) == 0 {
                        tournament::set_absent(&mut store, &Actor::local(), "Sim", n, round, true)
                            .expect("absent");
                    }
                }
            }
            let file = dir.path().join(format!("sim{seed}r{round}.trf"));
            std::fs::write(&file, club_trf::export(&store, "Sim").expect("TRF")).expect("TRF");
            let theirs = reference(&bbp, &file);
            let ours = tournament::pair_next(&mut store, &Actor::local(), "Sim")
                .map(|_| club_round(&store, round));
            match (&theirs, &ours) {
                (Ok(t), Ok(o)) => assert_eq!(
                    o,
                    t,
                    "seed {seed} ({players} players), round {round}: TRF at {}",
                    dir.keep().join(format!("sim{seed}r{round}.trf")).display()
                ),
                // Neither can pair (too few players left): the tournament ends here.
                (Err(_), Err(_)) => break,
                _ => panic!("seed {seed} round {round}: reference {theirs:?}, club {ours:?}"),
            }
            rounds_compared += 1;
            let (_, findings) = tournament::check(&store, "Sim", Some(round)).expect("check");
            assert!(
                findings.is_empty(),
                "seed {seed} round {round}: {findings:?}"
            );
            // Results; now and then a player withdraws after the pairing (a forfeit).
            for p in tournament::pairings(&store, "Sim", Some(round)).expect("pairings") {
                let Some(black) = &p.black else { continue };
                if rng.next(50) == 0 {
                    tournament::withdraw(&mut store, &Actor::local(), "Sim", black)
                        .expect("withdrawn");
                    active.retain(|n| n != black);
                    continue;
                }
                let outcome =
                    [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][rng.next(3) as usize];
                tournament::record_result(
                    &mut store,
                    &Actor::local(),
                    "Sim",
                    round,
                    &p.white,
                    black,
                    outcome,
                )
                .expect("a result");
            }
        }
    }
    eprintln!("{rounds_compared} club rounds identical to the reference over {count} tournaments");
}
