//! Swiss pairing beside the reference engine (run by `scripts/swiss-bench.sh`): for each field
//! size, a Swiss is played in a club database up to its last round with results drawn from the
//! ratings (reproducible), then the last round is paired by the club and — from the exported
//! TRF — by bbpPairings, and both times and the boards they agree on are printed.
//!
//! `cargo run --release --example swiss_bench -- [bbpPairings executable] [players:rounds …]`
//! (`SWISS_BENCH_KEEP=dir` keeps each TRF paired as `dir/swiss-<players>.trf`)

use draughts::club::Store;
use draughts::club::access::Actor;
use draughts::club::members::{self, MemberFields};
use draughts::club::tiebreak::TieBreak;
use draughts::club::tournament::{self, NewTournament, Outcome, System};
use draughts::club::trf;
use draughts::rules::variant::Variant;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let bbp = match args.first() {
        Some(a) if !a.contains(':') => Some(PathBuf::from(args.remove(0))),
        _ => None,
    };
    if args.is_empty() {
        args = ["9:5", "40:7", "100:9", "300:9", "1000:11"]
            .map(String::from)
            .to_vec();
    }
    println!("players  round  ours (s)  bbpPairings (s)  boards  identical (pairs and colours)");
    for spec in &args {
        let (players, rounds) = spec
            .split_once(':')
            .and_then(|(p, r)| Some((p.parse::<usize>().ok()?, r.parse::<u32>().ok()?)))
            .ok_or_else(|| format!("{spec:?}: expected players:rounds"))?;
        let temp = tempfile::tempdir()?;
        let dir = temp.path();
        let mut store = Store::open(&dir.join("club.sqlite"))?;
        let mut rng = StdRng::seed_from_u64(players as u64);
        let mut names = Vec::new();
        let mut rating = BTreeMap::new();
        for i in 0..players {
            // Entered strongest first, so that entry order is the initial ranking.
            let r = 2400.0 - 1200.0 * i as f64 / players as f64;
            let name = format!("P{:04}", i + 1);
            let fields = MemberFields {
                ratings: vec![(Variant::International, r)],
                ..Default::default()
            };
            members::add(&mut store, &Actor::local(), &name, &fields)?;
            rating.insert(name.clone(), r);
            names.push(name);
        }
        let new = NewTournament {
            name: "Bench",
            system: System::Swiss { rounds },
            variant: Variant::International,
            time_control: None,
            scoring: "2-1-0".parse()?,
            rated: false,
            tiebreaks: vec![TieBreak::Buchholz],
            reports: Default::default(),
        };
        tournament::create(&mut store, &Actor::local(), &new)?;
        tournament::enter(&mut store, &Actor::local(), "Bench", &names)?;
        let mut failed = None;
        for round in 1..rounds {
            if let Err(e) = tournament::pair_next(&mut store, &Actor::local(), "Bench") {
                failed = Some(e);
                break;
            }
            for p in tournament::pairings(&store, "Bench", Some(round))? {
                let Some(black) = &p.black else { continue };
                let edge = (rating[&p.white] - rating[black]) / 400.0;
                let roll: f64 = rng.random_range(0.0..1.0);
                let white_wins = 0.5 + edge.clamp(-0.45, 0.45) * 0.8;
                let outcome = if roll < white_wins - 0.15 {
                    Outcome::WhiteWins
                } else if roll < white_wins + 0.15 {
                    Outcome::Draw
                } else {
                    Outcome::BlackWins
                };
                tournament::record_result(
                    &mut store,
                    &Actor::local(),
                    "Bench",
                    round,
                    &p.white,
                    black,
                    outcome,
                )?;
            }
        }
        if let Some(e) = failed {
            println!("{players:>7}  the club's Swiss stopped: {e}");
            continue;
        }
        let text = trf::export(&store, "Bench")?;
        // The state paired, for a closer look (`SWISS_BENCH_KEEP=dir`).
        if let Ok(keep) = std::env::var("SWISS_BENCH_KEEP") {
            std::fs::write(
                PathBuf::from(keep).join(format!("swiss-{players}.trf")),
                &text,
            )?;
        }
        let started = Instant::now();
        let paired = tournament::pair_next(&mut store, &Actor::local(), "Bench");
        let ours_time = started.elapsed().as_secs_f64();
        if let Err(e) = paired {
            println!("{players:>7}  {rounds:>5}  {ours_time:>8.3}  the club's Swiss stopped: {e}");
            continue;
        }
        let rank: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i + 1))
            .collect();
        let ours: BTreeSet<(usize, usize)> = tournament::pairings(&store, "Bench", Some(rounds))?
            .iter()
            .map(|p| {
                let black = p.black.as_deref().map_or(0, |b| rank[b]);
                (rank[p.white.as_str()], black)
            })
            .collect();
        let (theirs_time, agree) = match &bbp {
            Some(exe) => {
                let file = dir.join("bench.trf");
                let out = dir.join("bench.pairs");
                std::fs::write(&file, &text)?;
                let started = Instant::now();
                let o = Command::new(exe)
                    .arg("--dutch")
                    .arg(&file)
                    .arg("-p")
                    .arg(&out)
                    .output()?;
                let secs = started.elapsed().as_secs_f64();
                if !o.status.success() {
                    return Err(
                        format!("bbpPairings: {}", String::from_utf8_lossy(&o.stderr)).into(),
                    );
                }
                let pairs = std::fs::read_to_string(&out)?;
                let numbers: Vec<usize> = pairs
                    .split_whitespace()
                    .skip(1)
                    .filter_map(|w| w.parse().ok())
                    .collect();
                let theirs: BTreeSet<(usize, usize)> =
                    numbers.chunks(2).map(|c| (c[0], c[1])).collect();
                (
                    format!("{secs:>15.3}"),
                    ours.intersection(&theirs).count().to_string(),
                )
            }
            None => (format!("{:>15}", "-"), "-".into()),
        };
        println!(
            "{players:>7}  {rounds:>5}  {ours_time:>8.3}  {theirs_time}  {:>6}  {agree}",
            ours.len()
        );
    }
    Ok(())
}
