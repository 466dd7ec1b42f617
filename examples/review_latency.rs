//! How quickly the TUI answers keys while a tournament round is reviewed (run by
//! `scripts/review-latency.sh`): a club database with one round of real International games is
//! made, the real binary runs in tmux, the round's page is opened, and a key that moves the board
//! selection is timed from `send-keys` to the screen showing the new selection — first with
//! nothing running, then while `r` reviews the round on all cores.
//!
//! `cargo run --release --example review_latency -- <draughts binary> <games.pdn> [boards]
//! [samples]`

#[path = "../tests/support/tmux.rs"]
mod tmux;

use draughts::club::Store;
use draughts::club::access::Actor;
use draughts::club::games;
use draughts::club::members::{self, MemberFields};
use draughts::club::tournament::{self, NewTournament, System};
use draughts::rules::pdn::{GameResult, read_games};
use draughts::rules::variant::Variant;
use std::time::{Duration, Instant};
use tmux::Tmux;

const PATIENCE: Duration = Duration::from_secs(30);

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [bin, pdn, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: review_latency <draughts binary> <games.pdn> [boards] [samples]".into(),
        );
    };
    let number = |i: usize, default: usize| -> Result<usize, String> {
        rest.get(i).map_or(Ok(default), |s| {
            s.parse().map_err(|_| format!("not a number: {s}"))
        })
    };
    let (boards, samples) = (number(0, 4)?.max(1), number(1, 40)?.max(2));
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let db = dir.path().join("club.sqlite");
    let variant = Variant::International;
    let text = std::fs::read_to_string(pdn).map_err(|e| format!("{pdn}: {e}"))?;
    // Real games of some length: the review has work to do for a while.
    let mut records: Vec<_> = read_games(&text, variant)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|g| g.line.moves.len() >= 60)
        .take(boards)
        .collect();
    if records.len() < boards {
        return Err(format!(
            "{pdn} has fewer than {boards} games of 30 moves or more"
        ));
    }
    {
        let mut store = Store::open(&db).map_err(|e| e.to_string())?;
        let names: Vec<String> = (1..=boards * 2).map(|i| format!("Player {i}")).collect();
        for n in &names {
            members::add(&mut store, &Actor::local(), n, &MemberFields::default())
                .map_err(|e| e.to_string())?;
        }
        let new = NewTournament {
            name: "Review",
            system: System::RoundRobin,
            variant,
            time_control: None,
            scoring: "2-1-0".parse().map_err(|e| format!("{e}"))?,
            rated: false,
            tiebreaks: vec![],
            reports: Default::default(),
        };
        tournament::create(&mut store, &Actor::local(), &new).map_err(|e| e.to_string())?;
        tournament::enter(&mut store, &Actor::local(), "Review", &names)
            .map_err(|e| e.to_string())?;
        tournament::pair_next(&mut store, &Actor::local(), "Review").map_err(|e| e.to_string())?;
        let pairings =
            tournament::pairings(&store, "Review", Some(1)).map_err(|e| e.to_string())?;
        for (p, g) in pairings.iter().zip(records.iter_mut()) {
            g.set_result(GameResult::Draw);
            let black = p.black.as_deref().ok_or("a bye in an even round robin")?;
            games::attach(&mut store, &Actor::local(), "Review", 1, &p.white, black, g)
                .map_err(|e| e.to_string())?;
        }
    }
    let config = dir.path().join("config.toml");
    let command = format!(
        "env DRAUGHTS_DB={} DRAUGHTS_CONFIG={} {bin}; sleep 60",
        db.display(),
        config.display()
    );
    let t = Tmux::start(&command, 110, 32);
    wait_for(&t, "Club")?;
    t.keys(&["c"]);
    wait_for(&t, "Members")?;
    t.keys(&["Tab"]);
    t.keys(&["Enter"]);
    wait_for(&t, "r review the round")?;
    println!(
        "machine: {} cores; {boards} boards, {} positions in all",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        records
            .iter()
            .map(|g| g.line.moves.len() + 1)
            .sum::<usize>()
    );
    let idle = measure(&t, samples, &mut 0)?;
    report("idle", &idle);
    t.keys(&["r"]);
    wait_for(&t, "Reviewing board")?;
    let mut during = Vec::new();
    let mut selected = 0;
    while during.len() < samples {
        let batch = measure(&t, 1, &mut selected)?;
        // Only keys answered while the review ran count.
        if t.screen().contains("Reviewing board") {
            during.extend(batch);
        } else {
            break;
        }
    }
    report("while reviewing", &during);
    if during.len() < samples {
        println!("(the review ended after {} samples)", during.len());
    }
    Ok(())
}

/// Presses j or k to move the board selection and times each until the screen shows it.
fn measure(t: &Tmux, samples: usize, selected: &mut usize) -> Result<Vec<Duration>, String> {
    let mut out = Vec::new();
    for _ in 0..samples {
        let (key, next) = if *selected == 0 { ("j", 1) } else { ("k", 0) };
        let marker = format!("▸ {:>2}.", next + 1);
        let sent = Instant::now();
        t.keys(&[key]);
        loop {
            if t.screen().contains(&marker) {
                break;
            }
            if sent.elapsed() > PATIENCE {
                return Err(format!("the screen never showed {marker:?}"));
            }
        }
        out.push(sent.elapsed());
        *selected = next;
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(out)
}

fn wait_for(t: &Tmux, text: &str) -> Result<(), String> {
    let deadline = Instant::now() + PATIENCE;
    while !t.screen().contains(text) {
        if Instant::now() > deadline {
            return Err(format!("the screen never showed {text:?}:\n{}", t.screen()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

fn report(what: &str, times: &[Duration]) {
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    if ms.is_empty() {
        println!("{what}: no samples");
        return;
    }
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what}: {} keys, key to screen median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        ms.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}
