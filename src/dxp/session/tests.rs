use super::*;
use crate::rules::pdn::GameResult;
use std::net::TcpListener;

const V: Variant = Variant::International;

fn player() -> Player {
    Player {
        variant: V,
        name: "draughts test".into(),
        level: Level::new(2).expect("2 is a level"),
        move_time: None,
        tablebase: None,
        threads: 1,
        book: false,
        ponder: false,
    }
}

/// The other program's side of a scripted session: raw messages out, messages in.
struct Peer {
    channel: Channel<TcpStream>,
    position: Position,
}

impl Peer {
    fn send(&mut self, raw: &str) {
        let mut bytes = raw.as_bytes().to_vec();
        bytes.push(0);
        std::io::Write::write_all(&mut self.channel.stream, &bytes).unwrap();
        if let Ok(Message::Move {
            from, to, captured, ..
        }) = Message::parse(raw, V)
            && let Ok(mv) = find_move(&self.position, from, to, &captured)
        {
            self.position = self.position.play(&mv);
        }
    }

    fn receive(&mut self) -> Message {
        self.channel
            .stream()
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let text = self.channel.receive().unwrap().expect("a message in time");
        let m = Message::parse(&text, V).unwrap();
        if let Message::Move {
            from, to, captured, ..
        } = &m
        {
            let mv = find_move(&self.position, *from, *to, captured)
                .unwrap_or_else(|e| panic!("our engine sent an illegal move: {e}"));
            self.position = self.position.play(&mv);
        }
        m
    }
}

fn pair() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    (listener, addr)
}

#[test]
fn a_scripted_initiator_is_followed() {
    let (listener, addr) = pair();
    let ours = std::thread::spawn(move || {
        let mut lines = Vec::new();
        let games = listen(&listener, &player(), &mut |l| lines.push(l.to_string()));
        (games, lines)
    });
    let mut peer = Peer {
        channel: Channel::new(TcpStream::connect(&addr).unwrap()),
        position: Position::start(V),
    };
    peer.send(&format!("R01{:<32}Z005000A", "Script"));
    match peer.receive() {
        Message::GameAccept { name, code } => {
            assert_eq!(
                (name.as_str(), code),
                ("draughts test", Acceptance::Accepted)
            );
        }
        other => panic!("{other:?}"),
    }
    peer.send("Chello");
    peer.send("M0001322800");
    assert!(matches!(peer.receive(), Message::Move { .. }));
    peer.send("Xjunk");
    // Back to the first move, White to move: the position is the start again.
    peer.send("B001W");
    assert_eq!(peer.receive(), Message::BackAccept { accepted: true });
    peer.position = Position::start(V);
    peer.send("M0001332900");
    assert!(matches!(peer.receive(), Message::Move { .. }));
    // A back request beyond the game is refused.
    peer.send("B040W");
    assert_eq!(peer.receive(), Message::BackAccept { accepted: false });
    // The script gives up; the engine acknowledges and stays for more games.
    peer.send("E10");
    assert_eq!(
        peer.receive(),
        Message::GameEnd {
            reason: EndReason::Unknown,
            stop: false
        }
    );
    peer.send("E01");
    let (games, lines) = ours.join().unwrap();
    let games = games.unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.color, Color::Black);
    assert_eq!(g.pdn.result, GameResult::Win(Color::Black));
    assert_eq!(
        g.pdn.line.moves.len(),
        2,
        "the back request took the first moves back"
    );
    assert_eq!(
        g.pdn.line.moves[0].mv,
        find_move(&Position::start(V), 33, 29, &[]).unwrap()
    );
    assert!(lines.iter().any(|l| l == "chat: hello"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("unknown message type")),
        "{lines:?}"
    );
}

#[test]
fn the_initiator_plays_its_games_and_ends_on_an_illegal_move() {
    let (listener, addr) = pair();
    let request = Request {
        games: 2,
        color: Color::White,
        minutes: 2,
        moves: 0,
        starts: vec![Start::Initial],
    };
    let ours =
        std::thread::spawn(move || connect(&addr, &player(), &request, &mut |_| {}).unwrap());
    let (stream, _) = listener.accept().unwrap();
    let mut peer = Peer {
        channel: Channel::new(stream),
        position: Position::start(V),
    };
    // Game 1: the engine is White and moves first.
    match peer.receive() {
        Message::GameRequest {
            version,
            follower,
            minutes,
            start,
            ..
        } => {
            assert_eq!((version, follower, minutes), (1, Color::Black, 2));
            assert_eq!(start, Start::Initial);
        }
        other => panic!("{other:?}"),
    }
    peer.send(&format!("A{:<32}0", "Script"));
    assert!(matches!(peer.receive(), Message::Move { .. }));
    // 40-35 is no Black move: the engine ends the game, claiming it, and more games follow.
    peer.send("M0000403500");
    assert_eq!(
        peer.receive(),
        Message::GameEnd {
            reason: EndReason::Win,
            stop: false
        }
    );
    peer.send("E00");
    // Game 2: colours reversed; the script is White, claims a draw at once.
    match peer.receive() {
        Message::GameRequest { follower, .. } => assert_eq!(follower, Color::White),
        other => panic!("{other:?}"),
    }
    peer.send(&format!("A{:<32}0", "Script"));
    peer.send("E20");
    assert_eq!(
        peer.receive(),
        Message::GameEnd {
            reason: EndReason::Unknown,
            stop: true
        }
    );
    let games = ours.join().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].pdn.result, GameResult::Win(Color::White));
    assert!(
        games[0]
            .pdn
            .tag("Termination")
            .is_some_and(|t| t.contains("40-35")),
        "{:?}",
        games[0].pdn.tags
    );
    assert_eq!(games[1].color, Color::Black);
    assert_eq!(games[1].pdn.result, GameResult::Draw);
    assert_eq!(games[1].pdn.tag("Black"), Some("draughts test"));
}

#[test]
fn a_declined_request_ends_the_session() {
    let (listener, addr) = pair();
    let request = Request {
        games: 3,
        color: Color::White,
        minutes: 999,
        moves: 0,
        starts: vec![Start::Initial],
    };
    let ours = std::thread::spawn(move || {
        let mut lines = Vec::new();
        let games = connect(&addr, &player(), &request, &mut |l| {
            lines.push(l.to_string())
        });
        (games.unwrap(), lines)
    });
    let (stream, _) = listener.accept().unwrap();
    let mut peer = Peer {
        channel: Channel::new(stream),
        position: Position::start(V),
    };
    assert!(matches!(peer.receive(), Message::GameRequest { .. }));
    peer.send(&format!("A{:<32}2", "Script"));
    let (games, lines) = ours.join().unwrap();
    assert!(games.is_empty());
    assert!(lines.iter().any(|l| l.contains("declined")), "{lines:?}");
}

#[test]
fn ponders_on_the_other_programs_time_and_stops_for_its_own_turn() {
    let (listener, addr) = pair();
    let _peer = TcpStream::connect(&addr).unwrap();
    let mut channel = Channel::new(listener.accept().unwrap().0);
    let pos = Position::start(V);
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let fresh = Searcher::new(64, None).search(&pos, &[], limits, &mut |_| {});
    for ponder in [false, true] {
        let player = Player {
            ponder,
            level: Level::MAX,
            ..player()
        };
        let mut report = |_: &str| {};
        let mut table = Table::new(&mut channel, &player, &mut report);
        table.ponder(pos, vec![]);
        assert_eq!(table.pondering.is_some(), ponder);
        std::thread::sleep(Duration::from_millis(500));
        // Our turn: the pondering search stops and hands back its table, which makes the
        // same search cheaper (by how much depends on how far the pondering got, which a
        // loaded machine decides).
        let warm = table.searcher().search(&pos, &[], limits, &mut |_| {});
        assert!(table.pondering.is_none());
        assert_eq!(warm.depth, 8);
        if ponder {
            assert!(warm.nodes < fresh.nodes, "{} {}", warm.nodes, fresh.nodes);
        } else {
            assert_eq!(warm.nodes, fresh.nodes);
        }
    }
}

#[test]
fn addresses_get_the_dxp_port() {
    assert_eq!(address("localhost", false), "localhost:27531");
    assert_eq!(address(":4000", true), "0.0.0.0:4000");
    assert_eq!(address("10.0.0.2:4000", false), "10.0.0.2:4000");
    assert_eq!(time_control(5, 75).unwrap().stages()[0].moves, Some(75));
    assert!(time_control(0, 0).is_none());
}

#[test]
fn a_session_that_ends_stops_its_pondering() {
    let (listener, addr) = pair();
    let _peer = TcpStream::connect(&addr).unwrap();
    let mut channel = Channel::new(listener.accept().unwrap().0);
    let player = Player {
        ponder: true,
        level: Level::MAX,
        ..player()
    };
    let mut report = |_: &str| {};
    let mut table = Table::new(&mut channel, &player, &mut report);
    table.ponder(Position::start(V), vec![]);
    let (_, stop) = table.pondering.as_ref().expect("pondering");
    let stop = Arc::clone(stop);
    assert!(!stop.load(Ordering::Relaxed));
    drop(table);
    assert!(stop.load(Ordering::Relaxed));
}

#[test]
fn a_move_line_tells_the_search_behind_it() {
    let seen = engine::Seen {
        depth: 12,
        score: 5,
        nodes: 806_399,
    };
    let spent = Duration::from_millis(300);
    assert_eq!(
        move_line(Color::White, "34-30", spent, Some(seen)),
        "White 34-30 (0.3 s, depth 12, +0.05, 806399 nodes)"
    );
    assert_eq!(
        move_line(Color::Black, "18x29", Duration::ZERO, None),
        "Black 18x29 (0.0 s)"
    );
}

#[test]
fn a_searched_move_is_reported_with_its_depth() {
    let (listener, addr) = pair();
    let request = Request {
        games: 1,
        color: Color::White,
        minutes: 2,
        moves: 0,
        starts: vec![Start::Initial],
    };
    let strong = Player {
        level: Level::MAX,
        move_time: Some(Duration::from_millis(100)),
        ..player()
    };
    let ours = std::thread::spawn(move || {
        let mut lines = Vec::new();
        connect(&addr, &strong, &request, &mut |l: &str| {
            lines.push(l.to_string())
        })
        .unwrap();
        lines
    });
    let (stream, _) = listener.accept().unwrap();
    let mut peer = Peer {
        channel: Channel::new(stream),
        position: Position::start(V),
    };
    assert!(matches!(peer.receive(), Message::GameRequest { .. }));
    peer.send(&format!("A{:<32}0", "Script"));
    assert!(matches!(peer.receive(), Message::Move { .. }));
    peer.send("M0000403500");
    assert!(matches!(peer.receive(), Message::GameEnd { .. }));
    peer.send("E00");
    let lines = ours.join().unwrap();
    let first = lines
        .iter()
        .find(|l| l.starts_with("White "))
        .expect("our first move is reported");
    let depth: u32 = first
        .split("depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {first:?}"));
    assert!(depth >= 1, "{first}");
    assert!(first.ends_with(" nodes)"), "{first}");
}
