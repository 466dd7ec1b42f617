use super::*;
use crate::club::Store;
use crate::club::access::Actor;
use crate::club::members::{self, MemberFields};
use crate::play::Notice;

fn club(reconnect: Duration) -> (tempfile::TempDir, Lobby, [Who; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.sqlite");
    let mut s = Store::open(&db).unwrap();
    let ton = members::add(&mut s, &Actor::local(), "Ton", &MemberFields::default()).unwrap();
    let anna = members::add(&mut s, &Actor::local(), "Anna", &MemberFields::default()).unwrap();
    let lobby = Lobby::new(Settings {
        db: Some(db),
        tablebases: Some(dir.path().join("none")),
        reconnect,
    });
    let who = |name: &str, id| Who {
        name: name.into(),
        member: Some(id),
    };
    (dir, lobby, [who("Ton", ton), who("Anna", anna)])
}

fn open(from: &Who, color: Option<Color>, rated: bool) -> Challenge {
    Challenge {
        id: 0,
        from: from.clone(),
        to: None,
        variant: Variant::International,
        clock: Some(TimeControl::parse("5m+2s").unwrap()),
        rated,
        color,
        pairing: None,
    }
}

fn first_move(seat: &mut Seat, local: &mut LiveGame, now: Tick) -> Vec<Notice> {
    seat.pull(local);
    let mv = *local.position().legal_moves().iter().next().unwrap();
    seat.act(local, |live| live.play(&mv, now).unwrap())
        .unwrap()
}

#[test]
fn a_challenge_accepted_is_one_game_for_both_with_one_clock_and_its_record_stored() {
    let (dir, lobby, [ton, anna]) = club(Duration::from_secs(60));
    let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::White), true)) else {
        panic!("the challenge waits")
    };
    assert_eq!(lobby.challenges("Anna").len(), 1);
    assert!(lobby.accept(id, &ton).is_err(), "not one's own challenge");
    let room = lobby.accept(id, &anna).unwrap();
    assert!(lobby.challenges("Anna").is_empty());
    assert!(Arc::ptr_eq(&lobby.game_of("Ton").unwrap(), &room));

    let mut white = room.sit("Ton", None);
    assert_eq!(white.color(), Some(Color::White));
    let mut local_w = room.table().live.clone();
    white.pull(&mut local_w);
    assert!(white.status().is_some(), "the clock waits for both players");
    assert!(local_w.clock().unwrap().running().is_none());
    let woken = Arc::new(AtomicU64::new(0));
    let count = Arc::clone(&woken);
    let waker: Waker = Arc::new(move || {
        count.fetch_add(1, Ordering::Relaxed);
    });
    let mut black = room.sit("Anna", Some(waker));
    let mut local_b = room.table().live.clone();
    black.pull(&mut local_b);
    assert_eq!(local_b.clock().unwrap().running(), Some(Color::White));
    let spectator = room.sit("Guest 1", None);
    assert_eq!(spectator.color(), None);
    assert!(room.line().contains("1 watching"));

    first_move(&mut white, &mut local_w, lobby.now());
    assert!(black.pull(&mut local_b), "Black sees the move");
    assert_eq!(
        woken.load(Ordering::Relaxed),
        2,
        "woken at the start and by the move"
    );
    assert_eq!(local_b.game().moves().len(), 1);
    assert_eq!(local_b.clock().unwrap().running(), Some(Color::Black));
    // A request on a position not seen yet is refused, not applied to another position.
    let offer = white.act(&mut local_w, |live| {
        live.offer_draw(Color::White, Tick::ZERO)
    });
    assert!(matches!(offer, Ok(Notice::Offered(_))));
    // Black, who has not looked since, may still answer it: the position is the same.
    let declined = black.act(&mut local_b, |live| live.decline(Color::Black));
    assert!(matches!(declined, Ok(Notice::Declined(_))));
    first_move(&mut black, &mut local_b, lobby.now());
    // White has not seen Black's move: a move asked for on the old position is refused.
    let stale = white.act(&mut local_w, |live| live.resign(Color::White, Tick::ZERO));
    assert!(stale.is_err());
    assert_eq!(local_w.game().moves().len(), 2, "and White now sees it");

    // The referee writes the moves, for all games at once, off the players' path.
    lobby.referee();
    let store = Store::open(&dir.path().join("club.sqlite")).unwrap();
    let stored = online::list(&store, true).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0].record().unwrap().line.moves.len(),
        2,
        "the moves are written"
    );

    black
        .act(&mut local_b, |live| live.resign(Color::Black, lobby.now()))
        .unwrap();
    lobby.referee();
    assert!(lobby.rooms().is_empty());
    assert!(white.pull(&mut local_w));
    assert!(local_w.outcome().is_some());
    let g = online::get(&store, stored[0].id).unwrap();
    assert_eq!(g.status, online::Status::Finished);
    assert!(g.pdn.contains("[Result \"2-0\"]"));
    let ton = members::find(&store, "Ton").unwrap();
    assert!(
        ton.ratings["international"] > crate::club::ratings::DEFAULT_RATING,
        "the rated game moved Ton's rating"
    );
}

#[test]
fn a_player_who_leaves_loses_by_forfeit_after_the_wait_and_one_who_returns_plays_on() {
    let (_dir, lobby, [ton, anna]) = club(Duration::ZERO);
    let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::Black), false)) else {
        panic!()
    };
    let room = lobby.accept(id, &anna).unwrap();
    let white = room.sit("Anna", None);
    let black = room.sit("Ton", None);
    // A second session of the same member keeps the seat when the first goes.
    let again = room.sit("Ton", None);
    drop(black);
    lobby.referee();
    assert!(room.awaits("Ton"), "the second session keeps the game on");
    drop(again);
    lobby.referee();
    lobby.referee();
    let t = room.table();
    let o = t.live.outcome().expect("Ton forfeited");
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.reason, crate::rules::game::Reason::Forfeit);
    drop(t);
    drop(white);
}

#[test]
fn games_in_progress_survive_a_restart_resumed_or_adjourned() {
    let (dir, lobby, [ton, anna]) = club(Duration::from_secs(60));
    let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::White), false)) else {
        panic!()
    };
    let room = lobby.accept(id, &anna).unwrap();
    let mut white = room.sit("Ton", None);
    let _black = room.sit("Anna", None);
    let mut local = room.table().live.clone();
    first_move(&mut white, &mut local, lobby.now());
    lobby.referee();
    drop(lobby);

    let settings = Settings {
        db: Some(dir.path().join("club.sqlite")),
        tablebases: Some(dir.path().join("none")),
        reconnect: Duration::from_secs(60),
    };
    let again = Lobby::new(settings.clone());
    assert_eq!(again.restore(false).unwrap(), 1);
    let room = again.game_of("Anna").expect("resumed");
    assert_eq!(room.table().live.game().moves().len(), 1);
    assert!(room.table().waiting);
    let _a = room.sit("Anna", None);
    let _t = room.sit("Ton", None);
    assert_eq!(
        room.table().live.clock().unwrap().running(),
        Some(Color::Black),
        "the clock goes on when both are back"
    );
    drop((_a, _t, room));
    drop(again);

    let third = Lobby::new(settings);
    assert_eq!(third.restore(true).unwrap(), 0);
    assert!(third.game_of("Anna").is_none());
    let adjourned = third.adjourned("Anna");
    assert_eq!(adjourned.len(), 1);
    assert!(third.resume(adjourned[0].0, "Nobody").is_err());
    let room = third.resume(adjourned[0].0, "Anna").unwrap();
    assert_eq!(room.table().live.game().moves().len(), 1);
    assert!(third.adjourned("Anna").is_empty());
}

#[test]
fn both_asking_to_play_a_pairing_starts_it_with_the_pairing_colours() {
    let (_dir, _, [ton, anna]) = club(Duration::from_secs(60));
    // No database: the pairing's tournament exists only here.
    let lobby = Lobby::default();
    let pairing = Pairing {
        tournament: 1,
        name: "Autumn".into(),
        round: 2,
        players: ["Anna".into(), "Ton".into()],
    };
    let ask = |who: &Who| Challenge {
        pairing: Some(pairing.clone()),
        ..open(who, None, false)
    };
    let Ok(Offered::Waiting(_)) = lobby.challenge(ask(&ton)) else {
        panic!()
    };
    assert!(matches!(
        lobby.challenge(ask(&ton)),
        Ok(Offered::Waiting(_))
    ));
    assert_eq!(
        lobby.challenges("Ton").len(),
        1,
        "asking twice is one challenge"
    );
    let Ok(Offered::Started(room)) = lobby.challenge(ask(&anna)) else {
        panic!("the game starts")
    };
    assert_eq!(room.table().players[0].name, "Anna");
    assert_eq!(room.table().live.tag("Event"), Some("Autumn"));
    assert_eq!(room.table().live.tag("Round"), Some("2"));
    let outsider = Who {
        name: "Kees".into(),
        member: None,
    };
    assert!(lobby.challenge(ask(&outsider)).is_err());
    assert!(
        lobby.challenge(open(&outsider, None, true)).is_err(),
        "guests play casual games"
    );
}

#[test]
fn sessions_come_say_what_they_do_and_go() {
    let lobby = Arc::new(Lobby::default());
    let guest = Lobby::join(&lobby, "Guest 1", true);
    let ton = Lobby::join(&lobby, "Ton", false);
    let again = Lobby::join(&lobby, "Ton", false);
    ton.set_doing("playing International");
    let names: Vec<String> = lobby.online().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["Ton", "Ton", "Guest 1"]);
    assert!(
        lobby
            .online()
            .iter()
            .any(|p| p.doing == "playing International")
    );
    let challenge = Challenge {
        id: 0,
        from: Who {
            name: "Ton".into(),
            member: Some(1),
        },
        to: None,
        variant: Variant::International,
        clock: None,
        rated: false,
        color: None,
        pairing: None,
    };
    lobby.challenge(challenge).unwrap();
    drop(again);
    assert_eq!(lobby.challenges("Anna").len(), 1, "Ton is still online");
    drop(guest);
    assert_eq!(lobby.online().len(), 1);
    drop(ton);
    assert!(lobby.online().is_empty());
    assert!(lobby.challenges("Anna").is_empty(), "gone with Ton");
}

#[test]
fn a_moves_latency_runs_from_its_key_to_the_last_frame_that_shows_it() {
    let (_dir, lobby, [ton, anna]) = club(Duration::from_secs(60));
    let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::White), false)) else {
        panic!()
    };
    let room = lobby.accept(id, &anna).unwrap();
    let waker = || -> Waker { Arc::new(|| {}) };
    let mut white = room.sit("Ton", Some(waker()));
    let mut black = room.sit("Anna", Some(waker()));
    let mut local_w = room.table().live.clone();
    let mut local_b = local_w.clone();
    black.pull(&mut local_b);
    // Every session is a thread; this one plays both, so each frame is written in turn.
    latency::frame_written();
    let key = std::time::Instant::now() - Duration::from_millis(30);
    latency::input_arrived(Some(key));
    first_move(&mut white, &mut local_w, lobby.now());
    latency::input_arrived(None);
    latency::frame_written();
    assert_eq!(
        lobby.latency().report(true),
        None,
        "the mover's frame alone does not complete the move"
    );
    assert!(black.pull(&mut local_b));
    latency::frame_written();
    let s = lobby.latency().report(true).expect("the move was measured");
    assert_eq!(s.count, 1);
    assert!(s.max >= Duration::from_millis(30), "{s}");
    // A change not caused by a key (the clock, the referee) is not a move's latency.
    first_move(&mut black, &mut local_b, lobby.now());
    white.pull(&mut local_w);
    latency::frame_written();
    assert_eq!(lobby.latency().report(true).unwrap().count, 1);
}
