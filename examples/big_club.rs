//! A large club database for measuring the web pages (run by `scripts/web-bench.sh`): members,
//! a Swiss paired round by round by the club's Dutch system with results drawn from the ratings,
//! every game with a recorded record (a random legal game, its result the pairing's), and a
//! second, smaller round robin. Reproducible: the same arguments give the same club.
//!
//! `cargo run --release --example big_club -- <club.sqlite> [players] [rounds]` (300 and 9 by
//! default: 1,350 games)

use draughts::Color;
use draughts::club::Store;
use draughts::club::access::Actor;
use draughts::club::members::{self, MemberFields};
use draughts::club::tiebreak::TieBreak;
use draughts::club::tournament::{self, NewTournament, System};
use draughts::rules::game::Game;
use draughts::rules::pdn::{GameResult, PdnGame, write_game};
use draughts::rules::variant::Variant;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random legal game of at most `plies`, recorded with the pairing's players and result.
fn record(
    rng: &mut StdRng,
    event: &str,
    round: u32,
    white: &str,
    black: &str,
    result: GameResult,
) -> String {
    let mut game = Game::new(Variant::International);
    let plies = rng.random_range(30..90);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal.as_slice()[rng.random_range(0..legal.len())];
        if game.play(&mv).is_err() {
            break;
        }
    }
    let mut pdn = PdnGame::from_game(
        &game,
        &[
            ("Event", event),
            ("Round", &round.to_string()),
            ("White", white),
            ("Black", black),
        ],
    );
    pdn.set_result(result);
    write_game(&pdn)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let db = args
        .first()
        .ok_or("usage: big_club <club.sqlite> [players] [rounds]")?;
    let players: usize = args.get(1).map_or(Ok(300), |s| s.parse())?;
    let rounds: u32 = args.get(2).map_or(Ok(9), |s| s.parse())?;
    let me = Actor::local();
    let mut store = Store::open(std::path::Path::new(db))?;
    let mut rng = StdRng::seed_from_u64(players as u64 * 31 + u64::from(rounds));
    let mut names = Vec::new();
    for i in 0..players {
        let r = 2300.0 - 1100.0 * i as f64 / players as f64;
        let name = format!("Player {:03}", i + 1);
        let fields = MemberFields {
            federation_id: Some(format!("FMJD-{}", 10_000 + i)),
            ratings: vec![(Variant::International, r.round())],
            ..Default::default()
        };
        members::add(&mut store, &me, &name, &fields)?;
        names.push((name, r));
    }
    let open = NewTournament {
        name: "Club Open",
        system: System::Swiss { rounds },
        variant: Variant::International,
        time_control: Some("90m+30s"),
        scoring: "2-1-0".parse()?,
        rated: true,
        tiebreaks: vec![TieBreak::Buchholz, TieBreak::SonnebornBerger],
        reports: Default::default(),
    };
    tournament::create(&mut store, &me, &open)?;
    let field: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
    tournament::enter(&mut store, &me, "Club Open", &field)?;
    let rating = |n: &str| {
        names
            .iter()
            .find(|(m, _)| m == n)
            .map_or(1500.0, |(_, r)| *r)
    };
    let mut games = 0;
    for round in 1..=rounds {
        tournament::pair_next(&mut store, &me, "Club Open")?;
        let mut text = String::new();
        for p in tournament::pairings(&store, "Club Open", Some(round))? {
            let Some(black) = &p.black else { continue };
            let edge = ((rating(&p.white) - rating(black)) / 400.0).clamp(-0.45, 0.45);
            let roll: f64 = rng.random_range(0.0..1.0);
            let result = if roll < 0.4 + edge * 0.8 {
                GameResult::Win(Color::White)
            } else if roll < 0.7 + edge * 0.3 {
                GameResult::Draw
            } else {
                GameResult::Win(Color::Black)
            };
            text.push_str(&record(
                &mut rng,
                "Club Open",
                round,
                &p.white,
                black,
                result,
            ));
            games += 1;
        }
        draughts::club::games::import(&mut store, &me, "Club Open", &text)?;
        eprintln!("round {round} of {rounds}: paired and recorded");
    }
    let autumn = NewTournament {
        name: "Autumn",
        system: System::RoundRobin,
        rated: true,
        tiebreaks: vec![TieBreak::SonnebornBerger],
        time_control: Some("80m+1m"),
        ..open
    };
    tournament::create(&mut store, &me, &autumn)?;
    let ten: Vec<String> = field.iter().take(10).cloned().collect();
    tournament::enter(&mut store, &me, "Autumn", &ten)?;
    tournament::pair_next(&mut store, &me, "Autumn")?;
    println!("{players} members, {games} games in Club Open ({rounds} rounds), and Autumn");
    Ok(())
}
