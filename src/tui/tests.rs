//! The TUI driven through ratatui's `TestBackend`: rendering (with snapshots), keys, commands,
//! clocks and sizes, without a terminal.
//!
//! One file past 800 lines: every test drives the whole app through one small harness (a
//! terminal, keys, the screen's text), and they read in order as the TUI's behaviour, screen by
//! screen.

use super::app::{App, Screen};
use super::board::ColorDepth;
use super::play::PlayScreen;
use super::setup::{GameSetup, PlayerKind};
use super::view;
use crate::clock::{Tick, TimeControl};
use crate::club::access::Actor;
use crate::config::Config;
use crate::engine::Level;
use crate::rules::game::Reason;
use crate::rules::notation::parse_fen;
use crate::rules::pdn::{GameResult, read_games};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

fn secs(s: f64) -> Tick {
    Duration::from_secs_f64(s)
}

fn fresh() -> App {
    let mut app = App::new(Config::default(), None, ColorDepth::None);
    app.user = "Tester".into();
    app
}

fn game_app(setup: GameSetup) -> App {
    let mut app = fresh();
    app.start_game(setup, Duration::ZERO);
    app
}

fn render(app: &mut App, width: u16, height: u16, now: Tick) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| view::draw(f, app, now))
        .expect("drawing on a test terminal");
    super::screen_text(terminal.backend().buffer())
}

fn press(app: &mut App, code: KeyCode, now: Tick) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE), now);
}

fn type_line(app: &mut App, text: &str, now: Tick) {
    for c in text.chars() {
        press(app, KeyCode::Char(c), now);
    }
    press(app, KeyCode::Enter, now);
}

/// The game screen stepping through an International game read from PDN text.
fn record_app(text: &str) -> App {
    let pdn = read_games(text, Variant::International)
        .remove(0)
        .expect("test PDN");
    game_app(GameSetup {
        record: Some(pdn),
        ..GameSetup::new(Variant::International)
    })
}

fn screen(app: &App) -> &PlayScreen {
    match &app.screen {
        Screen::Play(p) => p,
        _ => panic!("not on the play screen"),
    }
}

fn message(app: &App) -> String {
    match &app.screen {
        Screen::Club(c) => c.message.clone(),
        _ => screen(app).message.clone(),
    }
}

#[test]
fn boards_render_in_every_variant_orientation_and_charset() {
    for variant in Variant::ALL {
        for flipped in [false, true] {
            for ascii in [false, true] {
                let mut app = game_app(GameSetup::new(variant));
                app.config.ascii = ascii;
                if let Screen::Play(p) = &mut app.screen {
                    p.flipped = flipped;
                }
                let text = render(&mut app, 80, 24, Duration::ZERO);
                let (white, black) = if ascii { ("w", "b") } else { ("○", "●") };
                let per_side = variant.rules().pieces_per_side as usize;
                let n = variant.geometry().width as usize * 2;
                let board: String = text
                    .lines()
                    .filter(|l| l.starts_with('│'))
                    .map(|l| l.chars().take(4 * n + 2).collect::<String>())
                    .collect::<Vec<_>>()
                    .join("\n");
                let counts = (board.matches(white).count(), board.matches(black).count());
                assert_eq!(
                    counts,
                    (per_side, per_side),
                    "{variant} ascii={ascii}\n{board}"
                );
                // White's men start at the bottom unless the board is turned.
                let rows: Vec<&str> = board
                    .lines()
                    .filter(|l| l.contains(white) || l.contains(black))
                    .collect();
                let bottom = rows.last().expect("piece rows");
                assert_eq!(
                    bottom.contains(white),
                    !flipped,
                    "{variant} flipped={flipped}\n{board}"
                );
                let name = format!(
                    "board_{}_{}_{}",
                    variant.name(),
                    if flipped { "flipped" } else { "white" },
                    if ascii { "ascii" } else { "unicode" }
                );
                insta::assert_snapshot!(name, text);
            }
        }
    }
}

#[test]
fn large_terminals_get_larger_squares() {
    for variant in Variant::ALL {
        let mut app = game_app(GameSetup::new(variant));
        app.config.numbers = true;
        let text = render(&mut app, 160, 50, Duration::ZERO);
        let n = variant.geometry().width as usize * 2;
        // Four rows per square: the frame is 4n + 2 lines tall.
        let frame_lines = text.lines().filter(|l| l.starts_with('│')).count();
        assert_eq!(frame_lines, 4 * n, "{variant}");
        insta::assert_snapshot!(format!("large_{}", variant.name()), text);
    }
}

#[test]
fn any_size_renders_without_panicking_and_small_ones_ask_to_enlarge() {
    let mut app = game_app(GameSetup::new(Variant::International));
    for w in (0..=240).step_by(7) {
        for h in (0..=80).step_by(5) {
            render(&mut app, w, h, Duration::ZERO);
        }
    }
    let text = render(&mut app, 50, 12, Duration::ZERO);
    assert!(text.contains("Please enlarge"), "{text}");
    let mut home = fresh();
    for (w, h) in [(0, 0), (1, 1), (10, 3), (300, 100)] {
        render(&mut home, w, h, Duration::ZERO);
    }
}

#[test]
fn square_numbers_show_on_the_board() {
    let mut app = game_app(GameSetup::new(Variant::International));
    app.config.numbers = true;
    let text = render(&mut app, 80, 24, Duration::ZERO);
    for n in ["46", "50", "21", "25"] {
        assert!(text.contains(n), "{n}\n{text}");
    }
}

#[test]
fn typed_moves_play_and_bad_ones_explain() {
    let mut app = game_app(GameSetup::new(Variant::International));
    // Two moves from 32: ambiguous.
    type_line(&mut app, "32", secs(0.5));
    assert!(message(&app).contains("ambiguous"), "{}", message(&app));
    type_line(&mut app, "32-28", secs(1.0));
    type_line(&mut app, "19-23", secs(2.0));
    assert_eq!(screen(&app).live.game().moves().len(), 2);
    // Partial: the only move from 28 is the capture.
    type_line(&mut app, "28", secs(3.0));
    assert_eq!(screen(&app).live.game().moves().len(), 3);
    type_line(&mut app, "99-1", secs(4.0));
    assert!(message(&app).contains("square 99"), "{}", message(&app));
    type_line(&mut app, "32--28", secs(4.0));
    assert!(message(&app).contains("not a move"), "{}", message(&app));
    type_line(&mut app, "20-25", secs(4.0));
    assert!(
        message(&app).contains("not a legal move"),
        "{}",
        message(&app)
    );
    // Black must capture.
    type_line(&mut app, "17-21", secs(5.0));
    assert!(message(&app).contains("compulsory"), "{}", message(&app));
    assert_eq!(screen(&app).live.game().moves().len(), 3);
}

#[test]
fn tab_completes_a_typed_move() {
    let mut app = game_app(GameSetup::new(Variant::International));
    press(&mut app, KeyCode::Char('3'), Duration::ZERO);
    press(&mut app, KeyCode::Char('5'), Duration::ZERO);
    assert_eq!(screen(&app).completions(), vec!["35-30".to_string()]);
    press(&mut app, KeyCode::Tab, Duration::ZERO);
    assert_eq!(screen(&app).input, "35-30");
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert_eq!(screen(&app).live.game().moves().len(), 1);
}

#[test]
fn cursor_picks_a_piece_then_a_target() {
    let mut app = game_app(GameSetup::new(Variant::English));
    // English: Black moves first, from the top; the cursor starts bottom-left (square 29).
    let geometry = Variant::English.geometry();
    // Walk to square 11 (row 2, file 5) from row 7, file 0.
    for _ in 0..5 {
        press(&mut app, KeyCode::Up, Duration::ZERO);
    }
    for _ in 0..5 {
        press(&mut app, KeyCode::Char('l'), Duration::ZERO);
    }
    assert_eq!(
        geometry.number_at(screen(&app).cursor.0, screen(&app).cursor.1),
        Some(11)
    );
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert_eq!(screen(&app).selected.map(|s| s.number()), Some(11));
    let targets: Vec<u8> = screen(&app).targets().iter().map(|s| s.number()).collect();
    assert_eq!(targets, vec![15, 16]);
    press(&mut app, KeyCode::Down, Duration::ZERO);
    press(&mut app, KeyCode::Char('l'), Duration::ZERO);
    press(&mut app, KeyCode::Char(' '), Duration::ZERO);
    assert_eq!(
        geometry.number_at(screen(&app).cursor.0, screen(&app).cursor.1),
        Some(16)
    );
    assert_eq!(screen(&app).live.game().moves().len(), 1);
}

#[test]
fn captures_with_the_same_ends_are_chosen_by_stepping() {
    // English: the black man on 10 takes 14 and 22, or 15 and 23, ending on 26 either way.
    let pos = parse_fen("B:W14,15,22,23:B10", Variant::English).expect("test FEN");
    let legal = pos.legal_moves();
    let (from, to) = {
        let m = legal
            .iter()
            .find(|m| {
                legal
                    .iter()
                    .filter(|o| o.from() == m.from() && o.to() == m.to())
                    .count()
                    > 1
            })
            .expect("two captures sharing start and end");
        (m.from(), m.to())
    };
    let mut app = game_app(GameSetup {
        start: Some(pos),
        ..GameSetup::new(Variant::English)
    });
    let g = Variant::English.geometry();
    let goto = |app: &mut App, n: u8| {
        if let Screen::Play(p) = &mut app.screen {
            p.cursor = g.coords_of_number(n);
        }
    };
    goto(&mut app, from.number());
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    goto(&mut app, to.number());
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let (first, i) = screen(&app).choosing.clone().expect("choosing a route");
    assert_eq!(i, 0);
    assert!(
        message(&app).contains("captures end here"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Tab, Duration::ZERO);
    assert_eq!(screen(&app).choosing.as_ref().map(|c| c.1), Some(1));
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert_eq!(screen(&app).live.game().moves(), &[first[1]]);
}

#[test]
fn clocks_show_and_flag_falls_end_the_game() {
    let mut app = game_app(GameSetup {
        clock: Some(TimeControl::parse("1m").expect("a control")),
        ..GameSetup::new(Variant::International)
    });
    let text = render(&mut app, 80, 24, secs(5.0));
    assert!(text.contains("0:55"), "{text}");
    assert!(text.contains("1:00"), "{text}");
    let text = render(&mut app, 80, 24, secs(55.55));
    assert!(text.contains("0:04.4"), "tenths under ten seconds\n{text}");
    app.tick(secs(60.0));
    let o = screen(&app).live.outcome().expect("flag fell");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::TimeForfeit)
    );
}

#[test]
fn draw_offer_and_acceptance_by_command_then_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = game_app(GameSetup::new(Variant::International));
    app.config.games_dir = Some(dir.path().to_path_buf());
    type_line(&mut app, "32-28", secs(1.0));
    type_line(&mut app, ":draw", secs(2.0));
    assert!(message(&app).contains("offers a draw"), "{}", message(&app));
    type_line(&mut app, "19-23", secs(3.0));
    type_line(&mut app, ":accept", secs(4.0));
    let o = screen(&app).live.outcome().expect("agreed");
    assert_eq!(o.reason, Reason::Agreement);
    app.tick(secs(5.0));
    let saved = screen(&app).saved.clone().expect("saved at the end");
    let text = std::fs::read_to_string(saved).expect("the saved file");
    let game = read_games(&text, Variant::International)
        .remove(0)
        .expect("the saved game reads back");
    assert_eq!(game.result, GameResult::Draw);
    assert_eq!(game.line.moves.len(), 2);
    assert_eq!(game.tag("Termination"), Some("draw by agreement"));
}

#[test]
fn resign_and_unknown_commands() {
    let mut app = game_app(GameSetup::new(Variant::Frisian));
    type_line(&mut app, ":frobnicate", secs(1.0));
    assert!(
        message(&app).contains("Unknown command"),
        "{}",
        message(&app)
    );
    type_line(&mut app, ":resign", secs(1.0));
    let o = screen(&app).live.outcome().expect("resigned");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::Resignation)
    );
    type_line(&mut app, "32-28", secs(2.0));
    assert!(message(&app).contains("over"), "{}", message(&app));
}

#[test]
fn stepping_through_a_loaded_game_and_continuing() {
    let mut app = record_app(
        "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n",
    );
    assert_eq!(screen(&app).view, Some(0));
    press(&mut app, KeyCode::Char(']'), Duration::ZERO);
    press(&mut app, KeyCode::Char(']'), Duration::ZERO);
    assert_eq!(screen(&app).view, Some(2));
    type_line(&mut app, "28x19", secs(1.0));
    assert!(message(&app).contains(":continue"), "{}", message(&app));
    press(&mut app, KeyCode::Char('}'), Duration::ZERO);
    assert_eq!(screen(&app).view, Some(4));
    press(&mut app, KeyCode::Char('['), Duration::ZERO);
    press(&mut app, KeyCode::Char('['), Duration::ZERO);
    type_line(&mut app, ":continue", secs(1.0));
    assert_eq!(screen(&app).view, None);
    assert_eq!(screen(&app).live.game().moves().len(), 2);
    assert_eq!(screen(&app).live.tag("White"), Some("A"));
    type_line(&mut app, "28x19", secs(2.0));
    assert_eq!(screen(&app).live.game().moves().len(), 3);
}

#[test]
fn two_kings_against_one_is_adjudicated_with_tables() {
    let v = Variant::International;
    let dir = crate::tablebase::tests::tables(v).dir();
    let open = || {
        crate::tablebase::open_if_present(dir, v)
            .expect("tables open")
            .expect("tables present")
    };
    // At once: two kings against one is a draw.
    let pos = parse_fen("W:WK1,K2:BK50", v).expect("test FEN");
    let app = game_app(GameSetup {
        start: Some(pos),
        tablebase: Some(open()),
        ..GameSetup::new(v)
    });
    let o = screen(&app).live.outcome().expect("adjudicated at once");
    assert_eq!((o.winner, o.reason), (None, Reason::Adjudication));
    assert!(message(&app).contains("tablebase"), "{}", message(&app));

    // After a move: three kings against one, won, until a king is given away and two against
    // one remain.
    let tb = open();
    let mut found = None;
    'search: for a in 1..=50 {
        for b in a + 1..=50 {
            for c in b + 1..=50 {
                for d in (1..=50).rev() {
                    let Ok(pos) = parse_fen(&format!("W:WK{a},K{b},K{c}:BK{d}"), v) else {
                        continue;
                    };
                    if pos.has_capture()
                        || !matches!(tb.dtw(&pos), Ok(crate::tablebase::Dtw::Win(p)) if p <= 31)
                    {
                        continue;
                    }
                    for mv in pos.legal_moves().iter() {
                        let after = pos.play(mv);
                        if after.has_capture()
                            && tb.dtw(&after).ok() == Some(crate::tablebase::Dtw::Draw)
                        {
                            found = Some((pos, *mv));
                            break 'search;
                        }
                    }
                }
            }
        }
    }
    let (pos, blunder) = found.expect("a won 3K v K with a drawing blunder");
    let mut app = game_app(GameSetup {
        start: Some(pos),
        tablebase: Some(tb),
        ..GameSetup::new(v)
    });
    assert_eq!(screen(&app).live.outcome(), None);
    assert!(message(&app).contains("White wins"), "{}", message(&app));
    let text = crate::rules::notation::move_text(&pos, &blunder);
    type_line(&mut app, &text, secs(1.0));
    let o = screen(&app)
        .live
        .outcome()
        .expect("adjudicated after the move");
    assert_eq!((o.winner, o.reason), (None, Reason::Adjudication));
    assert!(message(&app).contains("tablebase"), "{}", message(&app));
}

#[test]
fn the_engine_answers_in_the_background() {
    let mut app = game_app(GameSetup {
        black: PlayerKind::Engine(Level::new(1).expect("a level")),
        ..GameSetup::new(Variant::English)
    });
    // Black (the engine) moves first in English draughts; the human plays White at the bottom.
    assert!(!screen(&app).flipped);
    let start = std::time::Instant::now();
    while screen(&app).live.game().moves().is_empty() {
        app.tick(start.elapsed());
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the engine never moved"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(screen(&app).live.position().side_to_move(), Color::White);
    // Its searcher is kept for its next move; the human side has none.
    let searchers = &screen(&app).searchers;
    assert!(searchers[Color::Black.index()].is_some() && searchers[Color::White.index()].is_none());
    // A human draw offer is answered on the engine's turn.
    type_line(&mut app, ":draw", start.elapsed());
    assert!(message(&app).contains("offers a draw"), "{}", message(&app));
}

#[test]
fn help_overlay_lists_the_keys() {
    let mut app = game_app(GameSetup::new(Variant::International));
    press(&mut app, KeyCode::Char('?'), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    for k in [":draw", ":resign", ":save", ":flip", "hjkl", "Tab"] {
        let k = if k == "hjkl" { "h j k l" } else { k };
        assert!(text.contains(k), "{k}\n{text}");
    }
    press(&mut app, KeyCode::Char('x'), Duration::ZERO);
    assert!(!app.help);
}

#[test]
fn home_menu_reaches_every_screen() {
    let mut app = fresh();
    let text = render(&mut app, 80, 24, Duration::ZERO);
    assert!(
        text.contains("New game") && text.contains("Load game"),
        "{text}"
    );
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert!(matches!(app.screen, Screen::NewGame(_)));
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert!(matches!(app.screen, Screen::Play(_)));
    type_line(&mut app, ":quit", Duration::ZERO);
    assert!(matches!(app.screen, Screen::Home(_)));
    press(&mut app, KeyCode::Char('s'), Duration::ZERO);
    assert!(matches!(app.screen, Screen::Settings(_)));
    press(&mut app, KeyCode::Right, Duration::ZERO);
    assert_eq!(app.config.theme, crate::config::ThemeName::Green);
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    press(&mut app, KeyCode::Char('l'), Duration::ZERO);
    assert!(matches!(app.screen, Screen::Load(_)));
    type_line(&mut app, "/no/such/file.pdn", Duration::ZERO);
    let Screen::Load(f) = &app.screen else {
        panic!("still loading")
    };
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("/no/such/file.pdn"))
    );
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    press(&mut app, KeyCode::Char('q'), Duration::ZERO);
    assert!(app.quit);
}

#[test]
fn new_game_form_rejects_a_bad_clock() {
    let mut app = fresh();
    press(&mut app, KeyCode::Char('n'), Duration::ZERO);
    if let Screen::NewGame(f) = &mut app.screen {
        f.clock.text = "5 parsecs".into();
    }
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let Screen::NewGame(f) = &app.screen else {
        panic!("the form stays")
    };
    assert!(
        f.error
            .as_deref()
            .is_some_and(|e| e.contains("time control"))
    );
}

#[test]
fn mouse_clicks_pick_and_move() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = game_app(GameSetup::new(Variant::International));
    render(&mut app, 80, 24, Duration::ZERO);
    let (area, cell) = screen(&app).board_area.expect("the board was drawn");
    let g = Variant::International.geometry();
    let click = |app: &mut App, n: u8| {
        let (row, file) = g.coords_of_number(n);
        let ev = MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: area.x + 1 + file as u16 * cell.w + 1,
            row: area.y + 1 + row as u16 * cell.h,
            modifiers: KeyModifiers::NONE,
        };
        app.mouse(ev, Duration::ZERO);
    };
    click(&mut app, 32);
    assert_eq!(screen(&app).selected.map(|s| s.number()), Some(32));
    click(&mut app, 28);
    let pos = screen(&app)
        .live
        .game()
        .start()
        .play(&screen(&app).live.game().moves()[0]);
    assert_eq!(&pos, screen(&app).live.position());
    assert_eq!(
        crate::rules::notation::long_text(&screen(&app).live.game().moves()[0]),
        "32-28"
    );
}

#[test]
fn repetition_ends_the_game() {
    let pos = parse_fen("W:WK29:BK4", Variant::English).expect("test FEN");
    let mut app = game_app(GameSetup {
        start: Some(pos),
        ..GameSetup::new(Variant::English)
    });
    for (i, m) in [
        "29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4",
    ]
    .iter()
    .enumerate()
    {
        type_line(&mut app, m, secs(i as f64));
    }
    let o = screen(&app).live.outcome().expect("threefold repetition");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

#[test]
fn settings_are_saved_to_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config.toml");
    let mut app = App::new(Config::default(), Some(path.clone()), ColorDepth::None);
    press(&mut app, KeyCode::Char('s'), Duration::ZERO);
    press(&mut app, KeyCode::Down, Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let saved = Config::load(&path).expect("the saved settings");
    assert!(saved.ascii);
    // A text setting: the default clock.
    for _ in 0..4 {
        press(&mut app, KeyCode::Down, Duration::ZERO);
    }
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    for _ in 0..10 {
        press(&mut app, KeyCode::Backspace, Duration::ZERO);
    }
    type_line(&mut app, "15m", Duration::ZERO);
    assert_eq!(Config::load(&path).expect("saved").clock, "15m");
}

#[test]
fn blocked_pieces_lose() {
    // White's last man (46) is blocked by 41 and 37 once Black has moved.
    let pos = parse_fen("B:W46:B10,37,41", Variant::International).expect("test FEN");
    let mut app = game_app(GameSetup {
        start: Some(pos),
        clock: Some(TimeControl::parse("5m+3s").expect("a control")),
        ..GameSetup::new(Variant::International)
    });
    type_line(&mut app, "10-15", secs(2.0));
    let o = screen(&app).live.outcome().expect("no legal move");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::NoMoves));
    let text = render(&mut app, 80, 24, secs(100.0));
    assert!(text.contains("Over:"), "{text}");
    // The clocks stopped with the game.
    let clock = screen(&app).live.clock().expect("timed");
    assert_eq!(clock.remaining(Color::White, secs(100.0)), secs(300.0));
}

/// A club database with these members entered in a round robin "name" (International, 2-1-0,
/// Sonneborn-Berger), `time_control` its clock and `rated` whether it counts for ratings; the
/// store stays open for the test to go on.
fn club_with(
    db: &std::path::Path,
    players: &[&str],
    name: &str,
    time_control: Option<&str>,
    rated: bool,
) -> crate::club::Store {
    use crate::club::members::{self, MemberFields};
    use crate::club::tiebreak::TieBreak;
    use crate::club::tournament::{self, NewTournament, System};
    let mut store = crate::club::Store::open(db).expect("database");
    for n in players {
        members::add(&mut store, &Actor::local(), n, &MemberFields::default()).expect("member");
    }
    let new = NewTournament {
        name,
        system: System::RoundRobin,
        variant: Variant::International,
        time_control,
        scoring: "2-1-0".parse().expect("scoring"),
        rated,
        tiebreaks: vec![TieBreak::SonnebornBerger],
        reports: Default::default(),
    };
    tournament::create(&mut store, &Actor::local(), &new).expect("tournament");
    let who: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    tournament::enter(&mut store, &Actor::local(), name, &who).expect("entries");
    store
}

#[test]
fn club_screens_pair_record_and_play_a_pairing() {
    use crate::club::tournament;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    club_with(
        &db,
        &["Ann", "Bob", "Cor", "Dirk"],
        "Club Cup",
        Some("5m+3s"),
        true,
    );
    let mut app = fresh();
    app.club_db = Some(db.clone());
    press(&mut app, KeyCode::Char('c'), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(text.contains("Ann") && text.contains("Members"), "{text}");
    // A member added and deactivated from the screen.
    press(&mut app, KeyCode::Char('a'), Duration::ZERO);
    for c in "Eva".chars() {
        press(&mut app, KeyCode::Char(c), Duration::ZERO);
    }
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(text.contains("Added") && text.contains("Eva"), "{text}");
    for _ in 0..4 {
        press(&mut app, KeyCode::Down, Duration::ZERO);
    }
    press(&mut app, KeyCode::Char('d'), Duration::ZERO);
    assert!(render(&mut app, 100, 30, Duration::ZERO).contains("Eva is inactive"));
    for _ in 0..4 {
        press(&mut app, KeyCode::Up, Duration::ZERO);
    }
    // A member's profile with the rating chart renders.
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    render(&mut app, 100, 30, Duration::ZERO);
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    // Tournaments: open the cup, pair round 1, enter a result on board 2.
    press(&mut app, KeyCode::Tab, Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    press(&mut app, KeyCode::Char('p'), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(
        text.contains("Ann") && text.contains("Dirk") && text.contains("round 1"),
        "{text}"
    );
    press(&mut app, KeyCode::Down, Duration::ZERO);
    press(&mut app, KeyCode::Char('='), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(text.contains("½-½"), "{text}");
    press(&mut app, KeyCode::Char('s'), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(text.contains("standings") && text.contains("Bob"), "{text}");
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    press(&mut app, KeyCode::Char('x'), Duration::ZERO);
    assert!(render(&mut app, 100, 30, Duration::ZERO).contains("crosstable"));
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    // Play board 1 (Ann–Dirk) here: the tournament's clock, and the result goes to the club.
    press(&mut app, KeyCode::Up, Duration::ZERO);
    press(&mut app, KeyCode::Char('g'), Duration::ZERO);
    assert_eq!(screen(&app).live.tag("White"), Some("Ann"));
    assert_eq!(
        screen(&app).live.clock().map(|c| c.control().to_string()),
        Some("5m+3s".to_string())
    );
    type_line(&mut app, "32-28", secs(1.0));
    type_line(&mut app, ":resign", secs(2.0));
    app.tick(secs(3.0));
    assert!(
        message(&app).contains("recorded in the tournament"),
        "{}",
        message(&app)
    );
    let store = crate::club::Store::open(&db).expect("database");
    let r1 = tournament::pairings(&store, "Club Cup", Some(1)).expect("pairings");
    let board1 = &r1[0];
    assert_eq!(
        (board1.white.as_str(), board1.result),
        ("Ann", Some(tournament::Outcome::WhiteWins))
    );
    let pdn = tournament::game_pdn(&store, board1.id)
        .expect("query")
        .expect("a record");
    assert!(
        pdn.contains("[Event \"Club Cup\"]") && pdn.contains("1. 32-28"),
        "{pdn}"
    );
}

#[test]
fn a_round_is_reviewed_from_the_club_screen_and_its_games_open_with_their_review() {
    use crate::club::tournament;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    {
        let mut store = club_with(&db, &["Ann", "Bob", "Cor", "Dirk"], "Club Cup", None, false);
        tournament::pair_next(&mut store, &Actor::local(), "Club Cup").expect("round 1");
        // Round 1 (Berger, 4): Ann–Dirk, where Black blunders a man, and Bob–Cor.
        let games = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n[Result \"2-0\"]\n\
                     1. 32-28 18-22 2. 33-29 2-0\n\n\
                     [Round \"1\"]\n[White \"Bob\"]\n[Black \"Cor\"]\n[Result \"1-1\"]\n1. 33-29 1-1\n";
        crate::club::games::import(&mut store, &Actor::local(), "Club Cup", games)
            .expect("records");
    }
    let mut app = fresh();
    app.club_db = Some(db.clone());
    press(&mut app, KeyCode::Char('c'), Duration::ZERO);
    press(&mut app, KeyCode::Tab, Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let text = render(&mut app, 110, 32, Duration::ZERO);
    assert!(text.contains("r review the round"), "{text}");
    press(&mut app, KeyCode::Char('r'), Duration::ZERO);
    assert!(
        message(&app).contains("Reviewing the 2 recorded games of round 1"),
        "{}",
        message(&app)
    );
    let text = render(&mut app, 110, 32, Duration::ZERO);
    assert!(text.contains("Review of round 1"), "{text}");
    assert!(text.contains("Reviewing board 1 (1 of 2)"), "{text}");
    let Screen::Club(c) = &app.screen else {
        panic!("the club screen")
    };
    assert!(c.reviewing());
    assert_eq!(
        app.refresh_in(Duration::ZERO),
        Duration::from_millis(250),
        "the progress is redrawn"
    );
    let started = std::time::Instant::now();
    while matches!(&app.screen, Screen::Club(c) if c.reviewing()) {
        assert!(started.elapsed() < Duration::from_secs(120), "no review");
        std::thread::sleep(Duration::from_millis(20));
        app.tick(Duration::ZERO);
    }
    assert!(
        message(&app).contains("Round 1 reviewed: 2 of 2 games"),
        "{}",
        message(&app)
    );
    let text = render(&mut app, 110, 32, Duration::ZERO);
    assert!(text.contains("2 of 2 games reviewed"), "{text}");
    assert!(
        text.contains("Ann – Dirk: White ") && text.contains("turning point 2. 33-29??"),
        "board 1's summary names the turning point: {text}"
    );
    // The reviews went into the records in the database.
    let store = crate::club::Store::open(&db).expect("database");
    let r1 = tournament::pairings(&store, "Club Cup", Some(1)).expect("pairings");
    for p in &r1 {
        let pdn = tournament::game_pdn(&store, p.id)
            .expect("query")
            .expect("a record");
        assert!(pdn.contains("[%eval "), "{pdn}");
        assert!(
            pdn.contains("[Annotator \"draughts review, 1 s a position\"]"),
            "{pdn}"
        );
    }
    assert_eq!(
        r1[0].result,
        Some(tournament::Outcome::WhiteWins),
        "results stay"
    );
    // Enter opens board 1 with its review: the graph and the signs, no second review.
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    let p = screen(&app);
    assert_eq!(p.live.tag("White"), Some("Ann"));
    let panel = p.review.as_ref().expect("the review came along");
    assert!(!panel.running() && panel.review().is_some());
    press(&mut app, KeyCode::Char('}'), secs(1.0));
    let text = render(&mut app, 120, 40, secs(1.0));
    assert!(text.contains(" Review "), "{text}");
    assert!(
        text.contains("?"),
        "the move list carries the signs: {text}"
    );
}

#[test]
fn a_round_review_stops_on_esc_and_needs_recorded_games() {
    use crate::club::tournament;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    {
        let mut store = club_with(&db, &["Ann", "Bob"], "Duel", None, false);
        tournament::pair_next(&mut store, &Actor::local(), "Duel").expect("round 1");
    }
    let mut app = fresh();
    app.club_db = Some(db.clone());
    press(&mut app, KeyCode::Char('c'), Duration::ZERO);
    press(&mut app, KeyCode::Tab, Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    press(&mut app, KeyCode::Char('r'), Duration::ZERO);
    assert!(
        message(&app).contains("no recorded games"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert!(
        message(&app).contains("no recorded game"),
        "{}",
        message(&app)
    );
    {
        let mut store = crate::club::Store::open(&db).expect("database");
        let long = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-1\"]\n\
                    1. 32-28 18-23 2. 37-32 12-18 3. 41-37 7-12 4. 46-41 1-7 1-1\n";
        crate::club::games::import(&mut store, &Actor::local(), "Duel", long).expect("record");
    }
    press(&mut app, KeyCode::Char('r'), Duration::ZERO);
    assert!(matches!(&app.screen, Screen::Club(c) if c.reviewing()));
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    assert!(
        message(&app).contains("Review stopped"),
        "{}",
        message(&app)
    );
    assert!(matches!(&app.screen, Screen::Club(c) if !c.reviewing()));
    assert!(
        !render(&mut app, 110, 32, Duration::ZERO).contains("Review of round"),
        "the panel is gone"
    );
}

#[test]
fn analysis_follows_the_shown_position() {
    let v = Variant::International;
    let mut app = game_app(GameSetup::new(v));
    type_line(&mut app, "32-28", secs(0.5));
    press(&mut app, KeyCode::Char('a'), secs(1.0));
    assert!(message(&app).contains("Analysis on"), "{}", message(&app));
    let started = std::time::Instant::now();
    let deep = |app: &mut App, at: crate::rules::board::Position| loop {
        app.tick(secs(1.0));
        let p = screen(app);
        if let Some(r) = p.analysis.as_ref().and_then(|a| a.latest.clone())
            && r.depth >= 5
            && at
                .legal_moves()
                .iter()
                .any(|m| crate::rules::notation::move_text(&at, m) == r.pv[0])
        {
            return r;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no analysis");
        std::thread::sleep(Duration::from_millis(5));
    };
    let after = *screen(&app).live.position();
    let r = deep(&mut app, after);
    let text = render(&mut app, 120, 32, secs(1.0));
    assert!(text.contains("Analysis (engine):"), "{text}");
    assert!(text.contains(" · depth "), "{text}");
    assert!(text.contains(&r.pv[0]), "{text}");
    // Stepping back to the start: the analysis follows, and White's moves come first.
    press(&mut app, KeyCode::Char('['), secs(1.0));
    deep(&mut app, crate::rules::board::Position::start(v));
    press(&mut app, KeyCode::Char('a'), secs(1.0));
    assert!(screen(&app).analysis.is_none());
    assert!(!render(&mut app, 120, 32, secs(1.0)).contains("Analysis ("));

    // Not during a tournament game.
    let mut app = game_app(GameSetup {
        tournament: true,
        ..GameSetup::new(v)
    });
    press(&mut app, KeyCode::Char('a'), secs(1.0));
    assert!(screen(&app).analysis.is_none());
    assert!(message(&app).contains("tournament"), "{}", message(&app));
    type_line(&mut app, ":analyse hub:", secs(1.0));
    assert!(message(&app).contains("Usage"), "{}", message(&app));
}

#[test]
fn a_review_marks_the_blunder_and_draws_the_graph_in_braille_or_ascii() {
    let mut app = record_app("[White \"A\"]\n[Black \"B\"]\n1. 32-28 18-22 2. 33-29 *\n");
    app.depth = ColorDepth::TrueColor;
    type_line(&mut app, ":review 0.2", secs(1.0));
    assert!(
        message(&app).contains("Reviewing 3 moves"),
        "{}",
        message(&app)
    );
    let text = render(&mut app, 120, 40, secs(1.0));
    assert!(
        text.contains("Reviewing…") && text.contains('%'),
        "a progress bar: {text}"
    );
    let started = std::time::Instant::now();
    while screen(&app).review.as_ref().is_some_and(|r| r.running()) {
        assert!(started.elapsed() < Duration::from_secs(60), "no review");
        std::thread::sleep(Duration::from_millis(20));
        app.tick(secs(1.0));
    }
    assert!(
        message(&app).starts_with("Review done: White "),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('}'), secs(1.0));
    let text = render(&mut app, 120, 40, secs(1.0));
    assert!(text.contains(" Review "), "{text}");
    assert!(text.contains("33-29??"), "the move list's sign: {text}");
    assert!(text.contains("blunder; best "), "{text}");
    assert!(
        text.contains("Engine: "),
        "the engine's line from here: {text}"
    );
    assert!(
        text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
        "a Braille graph: {text}"
    );
    // Saved, the record carries the review and reads back unchanged.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("reviewed.pdn");
    type_line(&mut app, &format!(":save {}", file.display()), secs(1.0));
    let saved = std::fs::read_to_string(&file).expect("the record was saved");
    assert!(saved.contains("2. 33-29 $4"), "{saved}");
    assert!(saved.contains("[%eval "), "{saved}");
    assert!(
        saved.contains("[Annotator \"draughts review, 0.2 s a position\"]"),
        "{saved}"
    );
    let back = read_games(&saved, Variant::International)
        .remove(0)
        .expect("the saved record reads");
    assert_eq!(crate::rules::pdn::write_game(&back), saved);
    // Without colours (NO_COLOR) the graph is in plain characters, as with ASCII pieces.
    app.depth = ColorDepth::None;
    let text = render(&mut app, 120, 40, secs(1.0));
    assert!(!text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
    assert!(text.contains('*') && text.contains('|'), "{text}");
    app.depth = ColorDepth::TrueColor;
    type_line(&mut app, ":ascii", secs(1.0));
    let text = render(&mut app, 120, 40, secs(1.0));
    assert!(!text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
    assert!(text.contains('*') && text.contains('|'), "{text}");
    type_line(&mut app, ":review off", secs(1.0));
    assert!(!render(&mut app, 120, 40, secs(1.0)).contains(" Review "));

    // Not during a tournament game.
    let mut app = game_app(GameSetup {
        tournament: true,
        ..GameSetup::new(Variant::International)
    });
    type_line(&mut app, "32-28", secs(0.5));
    press(&mut app, KeyCode::Char('r'), secs(1.0));
    assert!(screen(&app).review.is_none());
    assert!(message(&app).contains("tournament"), "{}", message(&app));
}

/// The game screen from `pos` with these tables, analysis switched on, as drawn.
fn analysed(
    pos: crate::rules::board::Position,
    tb: std::sync::Arc<crate::tablebase::Tablebase>,
) -> String {
    let mut app = game_app(GameSetup {
        start: Some(pos),
        tablebase: Some(tb),
        ..GameSetup::new(pos.variant())
    });
    press(&mut app, KeyCode::Char('a'), secs(0.5));
    app.tick(secs(0.6));
    render(&mut app, 120, 32, secs(0.6))
}

#[test]
fn analysis_shows_what_the_tablebases_say() {
    let v = Variant::International;
    let dir = crate::tablebase::tests::tables(v).dir();
    let tb = crate::tablebase::open_if_present(dir, v)
        .expect("tables open")
        .expect("tables present");
    let pos = parse_fen("W:WK1,K2,K3:BK50", v).expect("test FEN");
    let dtw = tb.dtw(&pos).expect("in the tables");
    let text = analysed(pos, tb);
    let expected = match dtw {
        crate::tablebase::Dtw::Win(p) => format!("Tablebase: White wins in {p} plies"),
        crate::tablebase::Dtw::Loss(p) => format!("Tablebase: Black wins in {p} plies"),
        crate::tablebase::Dtw::Draw => "Tablebase: draw".into(),
    };
    assert!(text.contains(&expected), "{expected}\n{text}");
}

#[test]
fn analysis_falls_back_on_the_result_when_a_distance_cannot_be_read() {
    let v = Variant::English;
    let dir = tempfile::TempDir::new().expect("a temporary directory");
    crate::tablebase::generate::generate_all(
        v,
        3,
        dir.path(),
        crate::tablebase::progress::Report::Quiet,
        crate::tablebase::memory::default_budget(),
    )
    .expect("the three-piece tables generate");
    // One byte near the end of the distances damaged: the file opens, its reads fail.
    let dtw = dir.path().join("kk-k.dtw");
    let mut bytes = std::fs::read(&dtw).expect("the DTW file reads");
    let at = bytes.len() - 5;
    bytes[at] ^= 0x10;
    std::fs::write(&dtw, bytes).expect("the DTW file writes");
    let tb = crate::tablebase::open_if_present(dir.path(), v)
        .expect("tables open")
        .expect("tables present");
    let pos = parse_fen("W:WK1,K2:BK32", v).expect("test FEN");
    assert!(tb.dtw(&pos).is_err(), "the damaged distance is not read");
    assert_eq!(
        tb.wdl(&pos).expect("the result reads"),
        crate::tablebase::Wdl::Win
    );
    let text = analysed(pos, tb);
    assert!(
        text.contains("Tablebase: White wins (results only)"),
        "{text}"
    );
}

#[test]
fn the_verdict_key_gives_the_arbiters_decision_with_the_move_limits() {
    let v = Variant::International;
    let dir = crate::tablebase::tests::tables(v).dir();
    let tb = crate::tablebase::open_if_present(dir, v)
        .expect("tables open")
        .expect("tables present");
    let mut app = game_app(GameSetup {
        start: Some(parse_fen("W:WK47,K48:BK3", v).expect("test FEN")),
        tablebase: Some(tb),
        ..GameSetup::new(v)
    });
    press(&mut app, KeyCode::Char('v'), secs(0.5));
    let m = message(&app);
    assert!(
        m.starts_with("Verdict: draw: no side can force a win"),
        "{m}"
    );
    assert!(
        m.contains("5-move rule (FMJD 6.4): 5 moves each left"),
        "{m}"
    );
    type_line(&mut app, ":verdict", secs(2.0));
    assert_eq!(message(&app), m);
    // Without tables there is no verdict, and the message says why.
    let mut app = game_app(GameSetup::new(v));
    press(&mut app, KeyCode::Char('v'), secs(0.5));
    assert!(
        message(&app).contains("No tablebases loaded"),
        "{}",
        message(&app)
    );
}

#[test]
fn the_club_server_shows_who_is_online() {
    let lobby = std::sync::Arc::new(crate::lobby::Lobby::default());
    let mut app = fresh();
    app.presence = Some(crate::lobby::Lobby::join(&lobby, "Tester", false));
    let _guest = crate::lobby::Lobby::join(&lobby, "Guest 3", true);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(text.contains("2 online"), "{text}");
    press(&mut app, KeyCode::Char('n'), Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    app.tick(Duration::ZERO);
    let doing = lobby.online();
    let me = doing.iter().find(|p| p.name == "Tester").expect("listed");
    assert_eq!(
        me.doing,
        "playing international game, human – human, move 1"
    );
    press(&mut app, KeyCode::Char('q'), Duration::ZERO);
    press(&mut app, KeyCode::Char('o'), Duration::ZERO);
    let text = render(&mut app, 100, 30, Duration::ZERO);
    assert!(
        text.contains("Guest 3 (guest)") && text.contains("Tester"),
        "{text}"
    );
    press(&mut app, KeyCode::Char('x'), Duration::ZERO);
    assert!(!app.online && !app.quit);
    // Without the server (a local terminal) there is no such line.
    let mut local = fresh();
    assert!(!render(&mut local, 100, 30, Duration::ZERO).contains("online"));
}

/// A member's session on a club server with `lobby`, on the lobby screen.
fn member(lobby: &std::sync::Arc<crate::lobby::Lobby>, name: &str, id: i64) -> App {
    let mut app = fresh();
    app.user = name.into();
    app.remote = true;
    app.presence = Some(crate::lobby::Lobby::join(lobby, name, false));
    app.server = Some((
        std::sync::Arc::clone(lobby),
        crate::lobby::Who {
            name: name.into(),
            member: Some(id),
        },
    ));
    app.open_lobby(lobby.now());
    app
}

#[test]
fn two_terminals_play_one_game_through_the_lobby_and_a_third_watches() {
    let lobby = std::sync::Arc::new(crate::lobby::Lobby::default());
    let mut ton = member(&lobby, "Ton", 1);
    let mut anna = member(&lobby, "Anna", 2);
    let now = || lobby.now();
    // Ton puts up a casual challenge to Anna, playing White, 5 minutes.
    press(&mut ton, KeyCode::Char('c'), now());
    press(&mut ton, KeyCode::Down, now());
    for _ in 0..6 {
        press(&mut ton, KeyCode::Backspace, now());
    }
    type_line(&mut ton, "5m", now());
    press(&mut ton, KeyCode::Right, now());
    press(&mut ton, KeyCode::Down, now());
    press(&mut ton, KeyCode::Right, now());
    press(&mut ton, KeyCode::Down, now());
    type_line(&mut ton, "Anna", now());
    press(&mut ton, KeyCode::Enter, now());
    let text = render(&mut ton, 110, 30, now());
    assert!(
        text.contains("Ton → Anna · international · 5m · casual · Ton plays White"),
        "{text}"
    );
    // Anna, on the home screen, is told; in the lobby the challenge is marked for her.
    press(&mut anna, KeyCode::Char('q'), now());
    let text = render(&mut anna, 110, 30, now());
    assert!(text.contains("1 challenge(s) for you"), "{text}");
    press(&mut anna, KeyCode::Char('l'), now());
    anna.tick(now());
    let text = render(&mut anna, 110, 30, now());
    assert!(text.contains("← to you"), "{text}");
    press(&mut anna, KeyCode::Enter, now());
    assert!(
        matches!(anna.screen, Screen::Play(_)),
        "Anna is at the board"
    );
    ton.tick(now());
    assert!(
        matches!(ton.screen, Screen::Play(_)),
        "Ton is brought to the board"
    );
    assert!(screen(&anna).flipped && !screen(&ton).flipped);

    // Anna cannot move for White; Ton can, and Anna's board follows.
    type_line(&mut anna, "32-28", now());
    assert_eq!(message(&anna), "Your opponent is to move");
    type_line(&mut ton, "32-28", now());
    assert_eq!(screen(&ton).live.game().moves().len(), 1);
    anna.tick(now());
    assert_eq!(message(&anna), "White played 32-28");
    assert_eq!(
        screen(&anna).live.clock().unwrap().running(),
        Some(Color::Black),
        "one clock, now Black's"
    );

    // A guest watches; they cannot move or resign.
    let mut guest = fresh();
    guest.user = "Guest 1".into();
    guest.server = Some((
        std::sync::Arc::clone(&lobby),
        crate::lobby::Who {
            name: "Guest 1".into(),
            member: None,
        },
    ));
    guest.open_lobby(now());
    let text = render(&mut guest, 110, 30, now());
    assert!(
        text.contains("Ton – Anna · international · move 1"),
        "{text}"
    );
    press(&mut guest, KeyCode::Enter, now());
    type_line(&mut guest, ":resign", now());
    assert!(
        message(&guest).contains("spectators"),
        "{}",
        message(&guest)
    );

    // A draw offer crosses over and is declined; leaving a game in progress is refused.
    type_line(&mut anna, ":draw", now());
    ton.tick(now());
    assert!(message(&ton).contains("offers a draw"), "{}", message(&ton));
    type_line(&mut ton, ":decline", now());
    type_line(&mut ton, ":q", now());
    assert!(matches!(ton.screen, Screen::Play(_)));
    assert!(message(&ton).contains("The game is on"));

    type_line(&mut anna, ":resign", now());
    ton.tick(now());
    guest.tick(now());
    let over = screen(&ton)
        .live
        .outcome()
        .expect("the game is over for Ton too");
    assert_eq!(
        (over.winner, over.reason),
        (Some(Color::White), Reason::Resignation)
    );
    assert!(screen(&guest).live.outcome().is_some());
    lobby.referee();
    assert!(lobby.rooms().is_empty());
    type_line(&mut ton, ":q", now());
    assert!(matches!(ton.screen, Screen::Lobby(_)), "back in the lobby");
}

#[test]
fn the_engine_book_is_a_setting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config.toml");
    let mut app = App::new(Config::default(), Some(path.clone()), ColorDepth::None);
    assert!(app.config.book, "on by default");
    press(&mut app, KeyCode::Char('s'), Duration::ZERO);
    // The last row.
    press(&mut app, KeyCode::Up, Duration::ZERO);
    let text = render(&mut app, 100, 24, Duration::ZERO);
    assert!(text.contains("Engine opening book"), "{text}");
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert!(!Config::load(&path).expect("the saved settings").book);
    press(&mut app, KeyCode::Esc, Duration::ZERO);
    // A new game takes it from the settings.
    press(&mut app, KeyCode::Char('n'), Duration::ZERO);
    press(&mut app, KeyCode::Enter, Duration::ZERO);
    assert!(!screen(&app).book);
}

#[test]
fn the_new_game_form_shows_a_levels_rating_on_its_variants_ladder() {
    let mut app = fresh();
    press(&mut app, KeyCode::Char('n'), Duration::ZERO);
    // White (the form opens on Start; the fields wrap): from human, five steps up the levels.
    press(&mut app, KeyCode::Down, Duration::ZERO);
    press(&mut app, KeyCode::Down, Duration::ZERO);
    for _ in 0..5 {
        press(&mut app, KeyCode::Right, Duration::ZERO);
    }
    let Screen::NewGame(f) = &app.screen else {
        panic!("the form stays")
    };
    assert_eq!(f.white, PlayerKind::Engine(Level::new(5).unwrap()));
    assert_eq!(f.variant, Variant::International);
    // Level 5 on each variant's ladder (scripts/ladder.sh, 200 games a step).
    for (variant, rating) in [
        (Variant::International, 2346),
        (Variant::Frisian, 2257),
        (Variant::English, 1849),
    ] {
        press(&mut app, KeyCode::Up, Duration::ZERO);
        while !matches!(&app.screen, Screen::NewGame(f) if f.variant == variant) {
            press(&mut app, KeyCode::Right, Duration::ZERO);
        }
        press(&mut app, KeyCode::Down, Duration::ZERO);
        let text = render(&mut app, 100, 24, Duration::ZERO);
        let line = format!("engine:5 ▸  ladder rating {rating}");
        assert!(text.contains(&line), "{variant}: {text}");
        // The other side is a person: no rating beside it.
        assert_eq!(text.matches("ladder rating").count(), 1, "{text}");
    }
}

#[test]
fn the_screen_waits_for_its_next_change_and_no_longer() {
    // Nothing moves by itself on the home screen or on an untimed game: the idle refresh.
    assert_eq!(fresh().refresh_in(secs(0.0)), super::app::IDLE);
    let untimed = game_app(GameSetup::new(Variant::International));
    assert_eq!(untimed.refresh_in(secs(3.0)), super::app::IDLE);
    // A running clock: the next reading, at the second above ten seconds, at the tenth below
    // (never sooner than a frame).
    let timed = game_app(GameSetup {
        clock: Some(TimeControl::parse("1m").expect("a control")),
        ..GameSetup::new(Variant::International)
    });
    assert_eq!(timed.refresh_in(secs(5.25)), Duration::from_millis(751));
    assert_eq!(timed.refresh_in(secs(55.55)), super::app::FRAME);
    // The clock stops with the game.
    let mut over = timed;
    over.tick(secs(60.0));
    assert_eq!(over.refresh_in(secs(61.0)), super::app::IDLE);
}
