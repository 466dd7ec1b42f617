use super::*;
use crate::club::access::Actor;
use crate::club::error::ClubError;
use crate::club::members::{self, MemberFields, add};
use crate::club::store::Store;
use crate::club::tiebreak::TieBreak;
use crate::rules::variant::Variant;
use std::collections::HashSet;

fn club(players: &[&str]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
    for p in players {
        add(&mut s, &Actor::local(), p, &MemberFields::default()).unwrap();
    }
    (dir, s)
}

#[test]
fn a_round_robin_from_entry_to_standings() {
    let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk"]);
    let fmjd: Scoring = "2-1-0".parse().unwrap();
    create(
        &mut s,
        &Actor::local(),
        &NewTournament {
            name: "Autumn",
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: Some("80m+1m"),
            scoring: fmjd,
            rated: true,
            tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            reports: Default::default(),
        },
    )
    .unwrap();
    let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    assert_eq!(enter(&mut s, &Actor::local(), "Autumn", &who).unwrap(), 4);
    assert_eq!(pair_next(&mut s, &Actor::local(), "Autumn").unwrap(), 1);
    // Berger round 1 for 4: 1-4, 2-3.
    let r1 = pairings(&s, "Autumn", Some(1)).unwrap();
    let boards: Vec<(&str, Option<&str>)> = r1
        .iter()
        .map(|p| (p.white.as_str(), p.black.as_deref()))
        .collect();
    assert_eq!(boards, [("Ann", Some("Dirk")), ("Bob", Some("Cor"))]);
    // No late entries, and no next round while results are missing.
    assert!(matches!(
        enter(&mut s, &Actor::local(), "Autumn", &["Ann".into()]),
        Err(ClubError::Refused(_))
    ));
    assert!(matches!(
        pair_next(&mut s, &Actor::local(), "Autumn"),
        Err(ClubError::Refused(_))
    ));
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        1,
        "Ann",
        "Dirk",
        Outcome::WhiteWins,
    )
    .unwrap();
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        1,
        "Bob",
        "Cor",
        Outcome::Draw,
    )
    .unwrap();
    assert!(matches!(
        record_result(
            &mut s,
            &Actor::local(),
            "Autumn",
            1,
            "Dirk",
            "Ann",
            Outcome::Draw
        ),
        Err(ClubError::Refused(_))
    ));
    pair_next(&mut s, &Actor::local(), "Autumn").unwrap();
    // Round 2: 4-3, 1-2.
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        2,
        "Dirk",
        "Cor",
        Outcome::BlackWins,
    )
    .unwrap();
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        2,
        "Ann",
        "Bob",
        Outcome::Draw,
    )
    .unwrap();
    pair_next(&mut s, &Actor::local(), "Autumn").unwrap();
    // Round 3: 2-4, 3-1.
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        3,
        "Bob",
        "Dirk",
        Outcome::WhiteWins,
    )
    .unwrap();
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        3,
        "Cor",
        "Ann",
        Outcome::Draw,
    )
    .unwrap();
    assert!(matches!(
        pair_next(&mut s, &Actor::local(), "Autumn"),
        Err(ClubError::Refused(_))
    ));
    // By hand: Ann 2+1+1 = 4, Bob 1+1+2 = 4, Cor 1+2+1 = 4, Dirk 0.
    // SB: Ann = 1·0(Dirk) + ½·4(Bob) + ½·4(Cor) = 4; Bob = ½·4 + ½·4 + 1·0 = 4;
    // Cor = ½·4(Bob) + 1·0(Dirk) + ½·4(Ann) = 4; all equal: wins 1 each: a three-way tie.
    let table = standings(&s, "Autumn").unwrap();
    let rows: Vec<(usize, &str, f64, f64)> = table
        .iter()
        .map(|r| (r.place, r.name.as_str(), r.points, r.tiebreaks[0]))
        .collect();
    assert_eq!(
        rows,
        [
            (1, "Ann", 4.0, 4.0),
            (1, "Bob", 4.0, 4.0),
            (1, "Cor", 4.0, 4.0),
            (4, "Dirk", 0.0, 0.0)
        ]
    );
    let x = crosstable(&s, "Autumn").unwrap();
    // Rows in standings order: Ann, Bob, Cor, Dirk. Ann beat Dirk, drew Bob and Cor.
    assert_eq!(x.cells[0][3], vec![2.0]);
    assert_eq!(x.cells[0][1], vec![1.0]);
    assert_eq!(x.cells[3][0], vec![0.0]);
    assert!(x.cells[0][0].is_empty());
    // A correction changes the standings.
    record_result(
        &mut s,
        &Actor::local(),
        "Autumn",
        3,
        "Cor",
        "Ann",
        Outcome::WhiteWins,
    )
    .unwrap();
    let table = standings(&s, "Autumn").unwrap();
    assert_eq!((table[0].name.as_str(), table[0].points), ("Cor", 5.0));
    let audit = crate::club::audit::all(&s).unwrap();
    let last = audit.last().unwrap();
    assert!(last.detail.contains("corrected from 1-1"), "{last:?}");
    assert_eq!(
        (last.old.as_deref(), last.new.as_deref()),
        (Some("1-1"), Some("2-0"))
    );
}

#[test]
fn odd_fields_get_byes_scored_as_wins() {
    let (_d, mut s) = club(&["A1", "B2", "C3"]);
    create(
        &mut s,
        &Actor::local(),
        &NewTournament {
            name: "Three",
            system: System::DoubleRoundRobin,
            variant: Variant::English,
            time_control: None,
            scoring: "1-0.5-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            reports: Default::default(),
        },
    )
    .unwrap();
    enter(
        &mut s,
        &Actor::local(),
        "Three",
        &["A1".into(), "B2".into(), "C3".into()],
    )
    .unwrap();
    pair_next(&mut s, &Actor::local(), "Three").unwrap();
    let r1 = pairings(&s, "Three", Some(1)).unwrap();
    assert_eq!(r1.len(), 2);
    let bye = r1.iter().find(|p| p.black.is_none()).expect("a bye");
    let game = r1.iter().find(|p| p.black.is_some()).expect("a game");
    record_result(
        &mut s,
        &Actor::local(),
        "Three",
        1,
        &game.white,
        game.black.as_deref().unwrap(),
        Outcome::Draw,
    )
    .unwrap();
    let table = standings(&s, "Three").unwrap();
    let bye_row = table.iter().find(|r| r.name == bye.white).unwrap();
    assert_eq!((bye_row.points, bye_row.played), (1.0, 0));
}

#[test]
fn a_withdrawal_forfeits_the_remaining_games() {
    let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk"]);
    let new = NewTournament {
        name: "W",
        system: System::RoundRobin,
        variant: Variant::International,
        time_control: None,
        scoring: "2-1-0".parse().unwrap(),
        rated: true,
        tiebreaks: vec![TieBreak::SonnebornBerger],
        reports: Default::default(),
    };
    create(&mut s, &Actor::local(), &new).unwrap();
    let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    enter(&mut s, &Actor::local(), "W", &who).unwrap();
    pair_next(&mut s, &Actor::local(), "W").unwrap();
    // Round 1 is played in full; Dirk's win there stands after he withdraws.
    record_result(
        &mut s,
        &Actor::local(),
        "W",
        1,
        "Ann",
        "Dirk",
        Outcome::BlackWins,
    )
    .unwrap();
    record_result(&mut s, &Actor::local(), "W", 1, "Bob", "Cor", Outcome::Draw).unwrap();
    withdraw(&mut s, &Actor::local(), "W", "Dirk").unwrap();
    assert!(matches!(
        withdraw(&mut s, &Actor::local(), "W", "Dirk"),
        Err(ClubError::Refused(_))
    ));
    // Round 2 (4-3, 1-2): Cor wins against Dirk by forfeit at once.
    pair_next(&mut s, &Actor::local(), "W").unwrap();
    let r2 = pairings(&s, "W", Some(2)).unwrap();
    let f = r2.iter().find(|p| p.white == "Dirk").unwrap();
    assert_eq!((f.result, f.forfeit), (Some(Outcome::BlackWins), true));
    let table = standings(&s, "W").unwrap();
    let cor = table.iter().find(|r| r.name == "Cor").unwrap();
    assert_eq!((cor.points, cor.played), (3.0, 1));
    // Forfeits do not move ratings: Cor's history has only the played game.
    let id = members::find(&s, "Cor").unwrap().id;
    assert_eq!(
        super::super::ratings::history(&s, id, Variant::International)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_swiss_with_a_late_entry_and_a_withdrawal() {
    let names: Vec<String> = (1..=9).map(|i| format!("Player {i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (_d, mut s) = club(&refs);
    add(&mut s, &Actor::local(), "Late", &MemberFields::default()).unwrap();
    let new = NewTournament {
        name: "Swiss",
        system: System::Swiss { rounds: 5 },
        variant: Variant::International,
        time_control: None,
        scoring: "2-1-0".parse().unwrap(),
        rated: true,
        tiebreaks: vec![TieBreak::Buchholz],
        reports: Default::default(),
    };
    create(&mut s, &Actor::local(), &new).unwrap();
    enter(&mut s, &Actor::local(), "Swiss", &names).unwrap();
    let outcomes = [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins];
    let mut met = HashSet::new();
    for round in 1..=5u32 {
        if round == 2 {
            enter(&mut s, &Actor::local(), "Swiss", &["Late".into()]).unwrap();
        }
        if round == 4 {
            withdraw(&mut s, &Actor::local(), "Swiss", "Player 3").unwrap();
        }
        assert_eq!(pair_next(&mut s, &Actor::local(), "Swiss").unwrap(), round);
        let games = pairings(&s, "Swiss", Some(round)).unwrap();
        let byes = games.iter().filter(|p| p.black.is_none()).count();
        assert!(byes <= 1);
        for (i, p) in games.iter().enumerate() {
            let Some(b) = &p.black else { continue };
            let key = (
                p.white.clone().min(b.clone()),
                p.white.clone().max(b.clone()),
            );
            assert!(
                met.insert(key),
                "rematch in round {round}: {} – {b}",
                p.white
            );
            if round >= 4 {
                assert!(p.white != "Player 3" && b != "Player 3");
            }
            if p.result.is_none() {
                record_result(
                    &mut s,
                    &Actor::local(),
                    "Swiss",
                    round,
                    &p.white,
                    b,
                    outcomes[i % 3],
                )
                .unwrap();
            }
        }
    }
    assert!(matches!(
        pair_next(&mut s, &Actor::local(), "Swiss"),
        Err(ClubError::Refused(_))
    ));
    let table = standings(&s, "Swiss").unwrap();
    assert_eq!(table.len(), 10);
    let byes: usize = pairings(&s, "Swiss", None)
        .unwrap()
        .iter()
        .filter(|p| p.black.is_none())
        .count();
    assert!(byes <= 5);
}

#[test]
fn swiss_absences_forbidden_pairs_and_unpairing() {
    let (_d, mut s) = club(&["A", "B", "C", "D"]);
    let new = NewTournament {
        name: "S",
        system: System::Swiss { rounds: 3 },
        variant: Variant::English,
        time_control: None,
        scoring: "1-0.5-0".parse().unwrap(),
        rated: false,
        tiebreaks: vec![],
        reports: Default::default(),
    };
    create(&mut s, &Actor::local(), &new).unwrap();
    enter(
        &mut s,
        &Actor::local(),
        "S",
        &["A".into(), "B".into(), "C".into(), "D".into()],
    )
    .unwrap();
    // Round 1 would pair A–C and B–D (top half against bottom half): rule out A–C.
    forbid(&mut s, &Actor::local(), "S", "A", "C").unwrap();
    set_absent(&mut s, &Actor::local(), "S", "D", 1, true).unwrap();
    pair_next(&mut s, &Actor::local(), "S").unwrap();
    let r1 = pairings(&s, "S", Some(1)).unwrap();
    let everyone: Vec<&str> = r1
        .iter()
        .flat_map(|p| [Some(p.white.as_str()), p.black.as_deref()])
        .flatten()
        .collect();
    assert!(!everyone.contains(&"D"), "{everyone:?}");
    for p in &r1 {
        let pair = [p.white.as_str(), p.black.as_deref().unwrap_or("")];
        assert!(!(pair.contains(&"A") && pair.contains(&"C")), "{pair:?}");
    }
    // Unpair, let D play after all, pair again.
    assert_eq!(unpair(&mut s, &Actor::local(), "S").unwrap(), 1);
    assert!(pairings(&s, "S", Some(1)).unwrap().is_empty());
    set_absent(&mut s, &Actor::local(), "S", "D", 1, false).unwrap();
    pair_next(&mut s, &Actor::local(), "S").unwrap();
    assert_eq!(pairings(&s, "S", Some(1)).unwrap().len(), 2);
    assert!(matches!(
        set_absent(&mut s, &Actor::local(), "S", "D", 1, true),
        Err(ClubError::Refused(_))
    ));
}

#[test]
fn keizer_evenings_pair_who_is_present_by_keizer_ranking() {
    let (_d, mut s) = club(&["A", "B", "C", "D", "E"]);
    for (n, r) in [
        ("A", "1900"),
        ("B", "1800"),
        ("C", "1700"),
        ("D", "1600"),
        ("E", "1500"),
    ] {
        crate::club::members::edit(
            &mut s,
            &Actor::local(),
            n,
            &MemberFields {
                ratings: vec![
                    crate::club::members::parse_rating(&format!("international={r}")).unwrap(),
                ],
                ..Default::default()
            },
        )
        .unwrap();
    }
    let new = NewTournament {
        name: "Thursdays",
        system: System::parse("keizer", None).unwrap(),
        variant: Variant::International,
        time_control: None,
        scoring: "2-1-0".parse().unwrap(),
        rated: false,
        tiebreaks: vec![],
        reports: Default::default(),
    };
    create(&mut s, &Actor::local(), &new).unwrap();
    let who: Vec<String> = ["A", "B", "C", "D", "E"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    enter(&mut s, &Actor::local(), "Thursdays", &who).unwrap();
    // Evening 1: E stays home; by rating A–B and C–D.
    set_absent(&mut s, &Actor::local(), "Thursdays", "E", 1, true).unwrap();
    pair_next(&mut s, &Actor::local(), "Thursdays").unwrap();
    let r1 = pairings(&s, "Thursdays", Some(1)).unwrap();
    let pairs: Vec<(String, String)> = r1
        .iter()
        .map(|p| {
            let b = p.black.clone().unwrap_or_default();
            (p.white.clone().min(b.clone()), p.white.clone().max(b))
        })
        .collect();
    assert_eq!(pairs, [("A".into(), "B".into()), ("C".into(), "D".into())]);
    // D beats C (an upset), A beats B.
    for p in &r1 {
        let b = p.black.clone().unwrap();
        let outcome = if p.white == "D" || p.white == "A" {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        };
        record_result(
            &mut s,
            &Actor::local(),
            "Thursdays",
            1,
            &p.white,
            &b,
            outcome,
        )
        .unwrap();
    }
    let table = standings(&s, "Thursdays").unwrap();
    assert_eq!(table[0].name, "A");
    // Evening 2: everyone is in; five players, the lowest-ranked gets the bye; nobody meets
    // last week's opponent.
    pair_next(&mut s, &Actor::local(), "Thursdays").unwrap();
    let r2 = pairings(&s, "Thursdays", Some(2)).unwrap();
    assert_eq!(r2.iter().filter(|p| p.black.is_none()).count(), 1);
    for p in r2.iter().filter(|p| p.black.is_some()) {
        let b = p.black.as_deref().unwrap();
        assert!(!pairs.contains(&(
            p.white.clone().min(b.to_string()),
            p.white.clone().max(b.to_string())
        )));
    }
}

#[test]
fn the_organiser_overrides_a_pairing_before_the_round_starts() {
    let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk", "Eva"]);
    create(&mut s, &Actor::local(), &NewTournament::test("O")).unwrap();
    let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk", "Eva"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    enter(&mut s, &Actor::local(), "O", &who).unwrap();
    pair_next(&mut s, &Actor::local(), "O").unwrap();
    // Round 1 (Berger, 5): Bob–Eva, Cor–Dirk, Ann has the bye. Ann takes Eva's place.
    swap(&mut s, &Actor::local(), "O", "Ann", Some("Eva")).unwrap();
    let r1 = pairings(&s, "O", Some(1)).unwrap();
    let row = |w: &str| r1.iter().find(|p| p.white == w).map(|p| p.black.clone());
    assert_eq!(row("Bob"), Some(Some("Ann".into())));
    assert_eq!(row("Eva"), Some(None), "Eva has the bye now");
    // Colours of Cor's game change.
    swap(&mut s, &Actor::local(), "O", "Cor", None).unwrap();
    let r1 = pairings(&s, "O", Some(1)).unwrap();
    assert!(
        r1.iter()
            .any(|p| p.white == "Dirk" && p.black.as_deref() == Some("Cor"))
    );
    // Two opponents changing places just changes colours.
    swap(&mut s, &Actor::local(), "O", "Bob", Some("Ann")).unwrap();
    record_result(&mut s, &Actor::local(), "O", 1, "Ann", "Bob", Outcome::Draw).unwrap();
    assert!(matches!(
        swap(&mut s, &Actor::local(), "O", "Cor", None),
        Err(ClubError::Refused(_))
    ));
}

#[test]
fn bad_settings_are_refused() {
    let (_d, mut s) = club(&[]);
    assert!(System::parse("swiss", None).is_err());
    assert_eq!(
        System::parse("keizer", None).ok(),
        Some(System::Keizer { rounds: 0 })
    );
    assert_eq!(
        System::parse("swiss", Some(7)).ok(),
        Some(System::Swiss { rounds: 7 })
    );
    assert!("3-1-0".parse::<Scoring>().is_err());
    assert!("2:0".parse::<Outcome>().is_err());
    let fmjd: Scoring = "2-1-0".parse().unwrap();
    assert!(
        create(
            &mut s,
            &Actor::local(),
            &NewTournament {
                name: "X",
                system: System::RoundRobin,
                variant: Variant::Frisian,
                time_control: Some("soon"),
                scoring: fmjd,
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
                reports: Default::default(),
            }
        )
        .is_err()
    );
    create(
        &mut s,
        &Actor::local(),
        &NewTournament {
            name: "X",
            system: System::RoundRobin,
            variant: Variant::Frisian,
            time_control: None,
            scoring: fmjd,
            rated: true,
            tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            reports: Default::default(),
        },
    )
    .unwrap();
    assert!(matches!(
        create(
            &mut s,
            &Actor::local(),
            &NewTournament {
                name: "x",
                system: System::RoundRobin,
                variant: Variant::Frisian,
                time_control: None,
                scoring: fmjd,
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
                reports: Default::default(),
            }
        ),
        Err(ClubError::Refused(_))
    ));
    assert!(matches!(
        pair_next(&mut s, &Actor::local(), "X"),
        Err(ClubError::Refused(_))
    ));
    assert!(matches!(find(&s, "Y"), Err(ClubError::BadInput(_))));
}
