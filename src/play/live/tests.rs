use super::*;
use crate::rules::notation::{parse_fen, parse_move};
use crate::rules::pdn::{read_games, write_game};
use crate::rules::variant::Variant;
use crate::tablebase::Dtw;
use Color::{Black, White};

fn s(secs: f64) -> Tick {
    Duration::from_secs_f64(secs)
}

fn timed(tc: &str) -> Options {
    Options {
        clock: Some(TimeControl::parse(tc).unwrap()),
        ..Options::default()
    }
}

fn play(live: &mut LiveGame, text: &str, now: f64) -> Vec<Notice> {
    let mv = parse_move(live.position(), text).unwrap();
    live.play(&mv, s(now)).unwrap()
}

#[test]
fn clock_runs_with_the_moves_and_is_recorded() {
    let mut live = LiveGame::new(Game::new(Variant::International), timed("5m+3s"));
    play(&mut live, "32-28", 0.0);
    play(&mut live, "19-23", 7.5);
    play(&mut live, "28x19", 10.0);
    let clock = live.clock().unwrap();
    assert_eq!(clock.remaining(White, s(10.0)), s(303.0 - 2.5 + 3.0));
    assert_eq!(live.times()[1].spent, Some(s(7.5)));
    let text = write_game(&live.pdn());
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("[TimeControl \"5m+3s\"]"), "{text}");
    assert!(
        flat.contains("19-23 { [%clock 0:04:55.5] [%emt 0:00:07.5] }"),
        "{text}"
    );
    // Read back: the clock readings come with the moves.
    let back = read_games(&text, Variant::International).remove(0).unwrap();
    let again = LiveGame::from_pdn(&back, timed("5m+3s"));
    assert_eq!(again.times()[1].left, Some(s(295.5)));
    assert_eq!(again.clock().unwrap().remaining(Black, s(0.0)), s(295.5));
    assert_eq!(again.game().moves(), live.game().moves());
}

#[test]
fn a_fallen_flag_loses() {
    let mut live = LiveGame::new(Game::new(Variant::English), timed("1m"));
    play(&mut live, "11-15", 0.0);
    assert_eq!(live.tick(s(59.0)), None);
    let Some(Notice::Ended(o, _)) = live.tick(s(60.0)) else {
        panic!("flag should fall")
    };
    assert_eq!(o.winner, Some(Black));
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert!(live.clock().unwrap().is_stopped());
    assert_eq!(live.pdn().result, GameResult::Win(Black));
    let mv = live.position().legal_moves().as_slice()[0];
    assert!(live.play(&mv, s(61.0)).is_err());
}

#[test]
fn draw_offer_stands_until_the_opponent_moves() {
    let mut live = LiveGame::new(Game::new(Variant::International), Options::default());
    play(&mut live, "32-28", 0.0);
    assert_eq!(
        live.offer_draw(White, s(1.0)),
        Notice::Offered(Offer::Draw(White))
    );
    // Black moves instead of answering: the offer lapses.
    let notices = play(&mut live, "19-23", 2.0);
    assert!(notices.contains(&Notice::Declined(Offer::Draw(White))));
    assert_eq!(live.offer(), None);
    // Offer with the move (FMJD): White offers, then moves; the offer still stands.
    live.offer_draw(White, s(3.0));
    play(&mut live, "28x19", 3.0);
    assert_eq!(live.offer(), Some(Offer::Draw(White)));
    assert!(matches!(live.accept(White, s(4.0)), Notice::Refused(_)));
    let Notice::Ended(o, _) = live.accept(Black, s(4.0)) else {
        panic!("accepted")
    };
    assert_eq!(o.reason, Reason::Agreement);
    assert_eq!(live.pdn().result, GameResult::Draw);
}

#[test]
fn crossing_draw_offers_agree() {
    let mut live = LiveGame::new(Game::new(Variant::Frisian), Options::default());
    live.offer_draw(White, s(0.0));
    assert!(matches!(live.offer_draw(Black, s(0.0)), Notice::Ended(..)));
}

#[test]
fn declining_and_resigning() {
    let mut live = LiveGame::new(Game::new(Variant::International), Options::default());
    live.offer_draw(Black, s(0.0));
    assert_eq!(live.decline(White), Notice::Declined(Offer::Draw(Black)));
    let Notice::Ended(o, words) = live.resign(White, s(1.0)) else {
        panic!()
    };
    assert_eq!(o.winner, Some(Black));
    assert!(words.contains("resigned"));
    assert!(matches!(live.resign(Black, s(2.0)), Notice::Refused(_)));
}

#[test]
fn takebacks_by_agreement_in_casual_games_only() {
    let mut live = LiveGame::new(Game::new(Variant::English), timed("5m"));
    play(&mut live, "11-15", 0.0);
    play(&mut live, "22-18", 10.0);
    // Black asks for its move back after White replied: both plies go.
    assert_eq!(
        live.request_takeback(Black),
        Notice::Offered(Offer::Takeback(Black))
    );
    assert!(matches!(live.accept(Black, s(12.0)), Notice::Refused(_)));
    assert_eq!(live.accept(White, s(12.0)), Notice::TookBack(2));
    assert!(live.game().moves().is_empty());
    assert_eq!(live.clock().unwrap().remaining(Black, s(12.0)), s(300.0));

    let mut rated = LiveGame::new(
        Game::new(Variant::English),
        Options {
            casual: false,
            ..timed("5m")
        },
    );
    play(&mut rated, "11-15", 0.0);
    assert!(matches!(rated.request_takeback(Black), Notice::Refused(_)));
    assert!(rated.toggle_pause(s(1.0)).is_err());
}

#[test]
fn pause_only_when_casual() {
    let mut live = LiveGame::new(Game::new(Variant::English), timed("5m"));
    assert!(live.toggle_pause(s(0.0)).is_err(), "not started");
    play(&mut live, "11-15", 0.0);
    assert_eq!(live.toggle_pause(s(10.0)), Ok(true));
    assert_eq!(live.tick(s(10000.0)), None);
    assert_eq!(live.toggle_pause(s(10000.0)), Ok(false));
    assert_eq!(live.clock().unwrap().remaining(White, s(10001.0)), s(289.0));
}

#[test]
fn rules_end_the_game_and_stop_the_clock() {
    // White's last man is blocked after Black's move.
    let pos = parse_fen("B:W46:B10,37,41", Variant::International).unwrap();
    let mut live = LiveGame::new(Game::from_position(pos), timed("5m"));
    let notices = play(&mut live, "10-15", 0.0);
    let Some(Notice::Ended(o, _)) = notices.last() else {
        panic!("{notices:?}")
    };
    assert_eq!((o.winner, o.reason), (Some(Black), Reason::NoMoves));
    assert!(live.clock().unwrap().is_stopped());
}

fn with_tables(variant: Variant) -> Options {
    let dir = crate::tablebase::tests::tables(variant).dir();
    Options {
        tablebase: Some(Arc::new(Tablebase::open(dir).unwrap())),
        ..Options::default()
    }
}

#[test]
fn tablebase_draw_is_adjudicated_at_once() {
    // Two kings against one king in International draughts: drawn.
    let pos = parse_fen("W:WK1,K2:BK50", Variant::International).unwrap();
    let live = LiveGame::new(
        Game::from_position(pos),
        with_tables(Variant::International),
    );
    let o = live.outcome().expect("adjudicated");
    assert_eq!((o.winner, o.reason), (None, Reason::Adjudication));
    assert!(live.ending().unwrap().contains("tablebase"));
    assert_eq!(live.pdn().result, GameResult::Draw);
    // Switched off, play goes on (to the 5-move rule).
    let off = Options {
        adjudicate: false,
        ..with_tables(Variant::International)
    };
    assert_eq!(LiveGame::new(Game::from_position(pos), off).outcome(), None);
}

#[test]
fn tablebase_win_is_proposed_and_the_loser_may_accept() {
    // Lasker's position: White to move wins.
    let pos = parse_fen("W:WK32:BK26", Variant::English).unwrap();
    let mut live = LiveGame::new(Game::from_position(pos), with_tables(Variant::English));
    assert_eq!(live.outcome(), None);
    let (o, _) = live.proposal().cloned().expect("a proposal");
    assert_eq!(o.winner, Some(White));
    assert!(matches!(
        live.accept_proposal(White, s(1.0)),
        Notice::Refused(_)
    ));
    let Notice::Ended(o, _) = live.accept_proposal(Black, s(1.0)) else {
        panic!("accepted")
    };
    assert_eq!((o.winner, o.reason), (Some(White), Reason::Adjudication));
}

#[test]
fn frisian_wins_beyond_article_18_are_drawn() {
    let v = Variant::Frisian;
    let options = with_tables(v);
    let tb = options.tablebase.clone().unwrap();
    let (mut short, mut long) = (None, None);
    'search: for a in 1..=50 {
        for b in a + 1..=50 {
            for c in 1..=50 {
                if c == a || c == b {
                    continue;
                }
                let Ok(pos) = parse_fen(&format!("W:WK{a},K{b}:BK{c}"), v) else {
                    continue;
                };
                if pos.has_capture() {
                    continue;
                }
                match tb.dtw(&pos).unwrap() {
                    Dtw::Win(p) if p <= 13 && p > 1 => short = short.or(Some(pos)),
                    Dtw::Win(p) if p > 13 => long = long.or(Some(pos)),
                    _ => {}
                }
                if short.is_some() && long.is_some() {
                    break 'search;
                }
            }
        }
    }
    let short = LiveGame::new(Game::from_position(short.unwrap()), options.clone());
    assert_eq!(short.outcome(), None);
    assert_eq!(short.proposal().unwrap().0.winner, Some(White));
    let long = LiveGame::new(Game::from_position(long.unwrap()), options);
    let o = long
        .outcome()
        .expect("a win too long for Art. 18 is a draw");
    assert_eq!((o.winner, o.reason), (None, Reason::Adjudication));
    assert!(long.ending().unwrap().contains("move limit"));
}

#[test]
fn clock_comments_parse() {
    let t = read_clock_comment(&["[%clock 0:04:57] [%emt 0:00:03.5]".to_string()]);
    assert_eq!(t.left, Some(s(297.0)));
    assert_eq!(t.spent, Some(s(3.5)));
    let none = read_clock_comment(&["a fine move".to_string(), "[%clock x]".to_string()]);
    assert_eq!((none.left, none.spent), (None, None));
}
