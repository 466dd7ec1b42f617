//! The TUI's model and update: screens, the game being played, and what each key does. Time
//! comes in as an argument, so tests drive it without a terminal or a clock.

use crate::clock::{Tick, TimeControl};
use crate::config::{Config, ThemeName, write_atomic};
use crate::engine::analysis::{Analysis, Analyst};
use crate::engine::{self, Level, Thinking};
use crate::play::{LiveGame, Notice, Offer, Options};
use crate::rules::board::{Position, Square};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::{matching_moves, move_text, parse_fen, split_move_text};
use crate::rules::pdn::{PdnGame, read_bytes, write_game};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::{Dtw, Tablebase};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::board::{Cell, ColorDepth, square_at};
use super::club::{Action as ClubAction, ClubScreen, PairingToPlay};
use super::widgets::{TextField, cycle, cycle_variant};
use crate::club::Store;
use crate::hub::client::{RemotePlayer, level_line};

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Someone at the keyboard.
    Human,
    /// The built-in engine at a level.
    Engine(Level),
    /// An external Hub engine, started with this command (e.g. `/opt/scan/scan hub`).
    Hub(String),
}

impl std::str::FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerKind, String> {
        match s.split_once(':') {
            None if s == "human" => Ok(PlayerKind::Human),
            None if s == "engine" => Ok(PlayerKind::Engine(Level::default())),
            Some(("engine", level)) => level.parse().map(PlayerKind::Engine),
            Some(("hub", command)) if !command.trim().is_empty() => {
                Ok(PlayerKind::Hub(crate::hub::client::command_line(command)))
            }
            _ => Err(format!(
                "{s:?} is not a player (human, engine, engine:<1-10|max>, or hub:<engine command>)"
            )),
        }
    }
}

impl std::fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerKind::Human => f.write_str("human"),
            PlayerKind::Engine(l) => write!(f, "engine:{l}"),
            PlayerKind::Hub(c) => write!(f, "hub:{c}"),
        }
    }
}

/// Everything needed to start a game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The variant.
    pub variant: Variant,
    /// White's player.
    pub white: PlayerKind,
    /// Black's player.
    pub black: PlayerKind,
    /// The time control, if timed.
    pub clock: Option<TimeControl>,
    /// A start position other than the initial one.
    pub start: Option<Position>,
    /// A recorded game to step through and continue.
    pub record: Option<PdnGame>,
    /// Tournament conditions: no takebacks, no pausing.
    pub tournament: bool,
    /// Tablebases to adjudicate with.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl GameSetup {
    /// A two-player game of `variant` with no clock.
    pub fn new(variant: Variant) -> GameSetup {
        GameSetup {
            variant,
            white: PlayerKind::Human,
            black: PlayerKind::Human,
            clock: None,
            start: None,
            record: None,
            tournament: false,
            tablebase: None,
        }
    }
}

/// Opens the tablebases of a directory for a variant, if there are any.
pub fn open_tablebase(dir: &Path, variant: Variant) -> Result<Option<Arc<Tablebase>>, String> {
    if !dir.is_dir() {
        return Ok(None);
    }
    match Tablebase::open_for(dir, variant) {
        Ok(tb) if tb.max_pieces() > 0 => Ok(Some(Arc::new(tb))),
        Ok(_) => Ok(None),
        Err(e) => Err(format!("tablebases not loaded: {e}")),
    }
}

/// The new-game form.
#[derive(Clone, Debug)]
pub struct NewGameForm {
    /// The field with focus.
    pub focus: usize,
    /// Variant.
    pub variant: Variant,
    /// White's player.
    pub white: PlayerKind,
    /// Black's player.
    pub black: PlayerKind,
    /// Time control text (`none` for untimed).
    pub clock: TextField,
    /// Tournament conditions.
    pub tournament: bool,
    /// A problem with the form.
    pub error: Option<String>,
}

/// Rows of the new-game form.
pub const NEW_GAME_FIELDS: [&str; 6] = [
    "Variant",
    "White",
    "Black",
    "Clock",
    "Tournament conditions",
    "Start",
];

fn cycle_player(p: &PlayerKind, forward: bool) -> PlayerKind {
    let order: Vec<PlayerKind> = std::iter::once(PlayerKind::Human)
        .chain((1..=10).map(|n| PlayerKind::Engine(Level::new(n).expect("1..=10 are levels"))))
        .collect();
    cycle(&order, p, forward)
}

/// The load-game form.
#[derive(Clone, Debug, Default)]
pub struct LoadForm {
    /// The file's path.
    pub path: TextField,
    /// Games found in the file, to choose from.
    pub games: Vec<PdnGame>,
    /// The highlighted game.
    pub selected: usize,
    /// A problem reading the file.
    pub error: Option<String>,
}

/// Rows of the settings screen.
pub const SETTINGS: [&str; 9] = [
    "Theme",
    "Pieces",
    "Square numbers",
    "Board from Black's side",
    "Default variant",
    "Default clock",
    "Games directory",
    "Tablebase directory",
    "Tablebase adjudication",
];

/// The settings screen.
#[derive(Clone, Debug, Default)]
pub struct SettingsForm {
    /// The row with focus.
    pub focus: usize,
    /// The text being edited in a text row.
    pub editing: Option<TextField>,
}

/// The game screen.
pub struct PlayScreen {
    /// The game.
    pub live: LiveGame,
    /// Who plays White and Black.
    pub players: [PlayerKind; 2],
    /// Cursor (board row and file).
    pub cursor: (u32, u32),
    /// The selected piece.
    pub selected: Option<Square>,
    /// Captures sharing start and end, being stepped through, and the one shown.
    pub choosing: Option<(Vec<Move>, usize)>,
    /// The command or move being typed.
    pub input: String,
    /// The last message for the players.
    pub message: String,
    /// The ply being viewed while stepping through the record (`None`: the live position).
    pub view: Option<usize>,
    /// The board seen from Black's side.
    pub flipped: bool,
    /// The engine's search, while it runs.
    pub thinking: Option<Thinking>,
    /// Where the game was last saved.
    pub saved: Option<PathBuf>,
    /// Whether the finished game has been saved automatically.
    pub autosaved: bool,
    /// Where the board was drawn last (for mouse clicks), and its square size.
    pub board_area: Option<(Rect, Cell)>,
    /// Lines the move list is scrolled up by.
    pub scroll: usize,
    /// The result recorded in a loaded file, if any.
    pub recorded_result: Option<String>,
    /// The tournament pairing this game is, if started from the club screen.
    pub pairing: Option<PairingToPlay>,
    /// External Hub engines playing a side, started on their first move.
    pub remote: [Option<RemotePlayer>; 2],
    /// The question put to an external engine, while it thinks.
    pub asking: Option<std::sync::mpsc::Receiver<Result<Move, crate::hub::HubError>>>,
    /// An external engine failed: it is asked no more in this game.
    pub remote_failed: bool,
    /// Whether its result went to the club database.
    pub recorded: bool,
    /// The analysis of the shown position, while it is on.
    pub analysis: Option<Analysis>,
    /// This session's seat at a game on the club server (the game itself lives there).
    pub table: Option<crate::lobby::Seat>,
    /// What the server last said about the game (a player away, the clock waiting).
    pub table_status: Option<String>,
}

/// Which screen is shown.
pub enum Screen {
    /// The home menu with its highlighted row.
    Home(usize),
    /// The new-game form.
    NewGame(NewGameForm),
    /// The load-game form.
    Load(LoadForm),
    /// The settings.
    Settings(SettingsForm),
    /// A game.
    Play(Box<PlayScreen>),
    /// The club's members and tournaments.
    Club(Box<ClubScreen>),
    /// The club server's lobby.
    Lobby(Box<super::lobby::LobbyScreen>),
}

/// Rows of the home menu.
pub const HOME: [&str; 5] = ["New game", "Load game", "Club", "Settings", "Quit"];

/// The whole TUI state.
pub struct App {
    /// Settings in force.
    pub config: Config,
    /// Where settings are saved; `None` when the file was malformed (never overwritten).
    pub config_path: Option<PathBuf>,
    /// A problem with the settings file, shown on the home screen.
    pub config_error: Option<String>,
    /// The screen.
    pub screen: Screen,
    /// The key overlay is shown.
    pub help: bool,
    /// The program should end.
    pub quit: bool,
    /// Colours the terminal shows.
    pub depth: ColorDepth,
    /// Start straight into a game and leave when it is closed (`draughts play`).
    pub direct: bool,
    /// The user's name for the record.
    pub user: String,
    /// ASCII pieces for this session (`--ascii`, or a locale without UTF-8), whatever the
    /// settings say.
    pub ascii: bool,
    /// The club database (`--db`, `$DRAUGHTS_DB`, or the default when the club is opened).
    pub club_db: Option<PathBuf>,
    /// A session over the network (the SSH club server): nothing that names a file or a program
    /// on the server (loading files, settings, saving elsewhere, external engines).
    pub remote: bool,
    /// A guest of the club server: casual games, no club records.
    pub guest: bool,
    /// This session's line in the club server's list of who is online.
    pub presence: Option<crate::lobby::Ticket>,
    /// The club server's lobby, and who this session is there.
    pub server: Option<(Arc<crate::lobby::Lobby>, crate::lobby::Who)>,
    /// Wakes this session's event loop when a game it shows changes.
    pub waker: Option<crate::lobby::Waker>,
    /// Whether the list of who is online is shown over the screen.
    pub online: bool,
    /// A message for the home screen (e.g. the club database could not be opened).
    pub notice: Option<String>,
}

impl App {
    /// An app on the home screen.
    pub fn new(config: Config, config_path: Option<PathBuf>, depth: ColorDepth) -> App {
        App {
            config,
            config_path,
            config_error: None,
            screen: Screen::Home(0),
            help: false,
            quit: false,
            depth,
            direct: false,
            user: std::env::var("USER")
                .ok()
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| "Player".into()),
            ascii: false,
            club_db: None,
            remote: false,
            guest: false,
            presence: None,
            server: None,
            waker: None,
            online: false,
            notice: None,
        }
    }

    /// Starts a game.
    pub fn start_game(&mut self, setup: GameSetup, now: Tick) {
        let tablebase = setup.tablebase.clone().or_else(|| {
            open_tablebase(&self.config.tablebase_dir(setup.variant), setup.variant)
                .ok()
                .flatten()
        });
        let options = Options {
            clock: setup.clock.clone(),
            casual: !setup.tournament,
            tablebase,
            adjudicate: self.config.adjudicate,
        };
        let (live, view, recorded) = match &setup.record {
            Some(pdn) => {
                let live = LiveGame::from_pdn(pdn, options);
                let recorded = pdn.tag("Result").map(str::to_string);
                (live, Some(0), recorded)
            }
            None => {
                let game = match setup.start {
                    Some(p) => Game::from_position(p),
                    None => Game::new(setup.variant),
                };
                (LiveGame::new(game, options), None, None)
            }
        };
        let players = [setup.white.clone(), setup.black.clone()];
        let humans: Vec<Color> = [Color::White, Color::Black]
            .into_iter()
            .filter(|c| players[c.index()] == PlayerKind::Human)
            .collect();
        // Against the engine the human sits at the bottom; otherwise the configured side.
        let flipped = match humans.as_slice() {
            [only] => *only == Color::Black,
            _ => self.config.flipped,
        };
        let n = setup.variant.geometry().width * 2;
        let mut screen = PlayScreen {
            live,
            players: players.clone(),
            cursor: if flipped { (0, n - 1) } else { (n - 1, 0) },
            selected: None,
            choosing: None,
            input: String::new(),
            message: String::new(),
            view,
            flipped,
            thinking: None,
            saved: None,
            autosaved: false,
            board_area: None,
            scroll: 0,
            recorded_result: recorded,
            pairing: None,
            recorded: false,
            remote: [None, None],
            asking: None,
            remote_failed: false,
            analysis: None,
            table: None,
            table_status: None,
        };
        if screen.live.tag("White").is_none() {
            let name = |p: &PlayerKind, _side: &str| match p {
                PlayerKind::Human if humans.len() == 1 => self.user.clone(),
                PlayerKind::Human => "?".to_string(),
                PlayerKind::Engine(l) => format!("draughts engine (level {l})"),
                PlayerKind::Hub(c) => format!("hub engine ({c})"),
            };
            let event = if setup.tournament {
                "Game"
            } else {
                "Casual game"
            };
            screen.live.set_tag("Event", event);
            screen.live.set_tag("Site", "draughts");
            screen.live.set_tag("Date", &crate::date::today());
            screen.live.set_tag("White", &name(&players[0], "White"));
            screen.live.set_tag("Black", &name(&players[1], "Black"));
        }
        screen.message = match (&screen.view, screen.live.ending()) {
            (Some(_), _) => format!(
                "Loaded {} moves: [ ] step, {{ }} first/last, :continue plays on from the shown position",
                screen.live.game().moves().len()
            ),
            (None, Some(e)) => e.to_string(),
            (None, None) => match screen.live.proposal() {
                Some((_, words)) => format!("{words} — the losing side may :accept"),
                None => "Type a move (32-28) or use the arrow keys; ? for help".into(),
            },
        };
        if view.is_none() {
            screen.live.start_clock(now);
        }
        self.screen = Screen::Play(Box::new(screen));
        self.help = false;
    }

    /// Advances time: flags, the engine's moves, automatic saving; on the club server, the
    /// lobby's rows, and a game of this member's that started or is waiting for them.
    pub fn tick(&mut self, now: Tick) {
        if let Some(t) = &self.presence {
            t.set_doing(&self.activity());
        }
        if let Some((lobby, who)) = &self.server {
            let idle = matches!(
                self.screen,
                Screen::Home(_) | Screen::Lobby(_) | Screen::Club(_)
            );
            let at_table = matches!(&self.screen, Screen::Play(p) if p.table.is_some());
            if !at_table && let Some(room) = lobby.game_of(&who.name) {
                match &mut self.screen {
                    _ if idle => self.join(room, now),
                    Screen::Play(p) if p.table.is_none() => {
                        p.message = "Your game on the club server has started: q goes to it".into();
                    }
                    _ => {}
                }
            }
        }
        if let Screen::Lobby(l) = &mut self.screen {
            l.refresh(now);
        }
        let games_dir = self.config.games_dir();
        if let Screen::Play(p) = &mut self.screen {
            p.tick(now, &games_dir);
        }
        self.record_pairing();
    }

    /// What this session shows, in words, for the list of who is online.
    pub fn activity(&self) -> String {
        match &self.screen {
            Screen::Home(_) | Screen::NewGame(_) | Screen::Load(_) | Screen::Settings(_) => {
                "at the home screen".into()
            }
            Screen::Club(_) => "in the club's records".into(),
            Screen::Lobby(_) => "in the lobby".into(),
            Screen::Play(p) => {
                let player = |c: Color| {
                    let tag = p
                        .live
                        .tag(if c == Color::White { "White" } else { "Black" });
                    match tag.filter(|t| !t.is_empty() && *t != "?") {
                        Some(name) => name.to_string(),
                        None => p.players[c.index()].to_string(),
                    }
                };
                let variant = p.live.game().variant().name();
                let watching = p.table.as_ref().is_some_and(|s| s.color().is_none());
                let state = if p.live.outcome().is_some() {
                    "looking at a finished".to_string()
                } else if watching {
                    "watching a".to_string()
                } else {
                    "playing".to_string()
                };
                format!(
                    "{state} {variant} game, {} – {}, move {}",
                    player(Color::White),
                    player(Color::Black),
                    p.live.game().moves().len() / 2 + 1
                )
            }
        }
    }

    /// Handles a mouse event.
    pub fn mouse(&mut self, ev: MouseEvent, now: Tick) {
        if self.help {
            return;
        }
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some((area, cell)) = p.board_area else {
                    return;
                };
                let variant = p.live.game().variant();
                if let Some(rc) = square_at(area, variant, cell, p.flipped, ev.column, ev.row) {
                    p.cursor = rc;
                    p.pick(now);
                }
            }
            MouseEventKind::ScrollUp => p.scroll += 1,
            MouseEventKind::ScrollDown => p.scroll = p.scroll.saturating_sub(1),
            _ => {}
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, now: Tick) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.leave_or_quit();
            return;
        }
        if self.help || self.online {
            self.help = false;
            self.online = false;
            return;
        }
        match &mut self.screen {
            Screen::Home(sel) => match key.code {
                KeyCode::Up | KeyCode::Char('k') => *sel = (*sel + HOME.len() - 1) % HOME.len(),
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => *sel = (*sel + 1) % HOME.len(),
                KeyCode::Char('n') => self.open(0),
                KeyCode::Char('l') if self.server.is_some() => self.open_lobby(now),
                KeyCode::Char('l') => self.open(1),
                KeyCode::Char('c') => self.open(2),
                KeyCode::Char('s') => self.open(3),
                KeyCode::Char('o') if self.presence.is_some() => self.online = true,
                KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
                KeyCode::Char('?') => self.help = true,
                KeyCode::Enter | KeyCode::Char(' ') => {
                    let s = *sel;
                    if s == 1 && self.server.is_some() {
                        self.open_lobby(now);
                    } else {
                        self.open(s)
                    }
                }
                _ => {}
            },
            Screen::NewGame(_) => self.new_game_key(key, now),
            Screen::Load(_) => self.load_key(key, now),
            Screen::Settings(_) => self.settings_key(key),
            Screen::Play(_) => self.play_key(key, now),
            Screen::Lobby(l) => match l.key(key, now) {
                super::lobby::Action::None => {}
                super::lobby::Action::Home => self.screen = Screen::Home(1),
                super::lobby::Action::Join(room) => self.join(room, now),
            },
            Screen::Club(c) => match c.key(key) {
                ClubAction::None => {}
                ClubAction::Home => self.screen = Screen::Home(2),
                ClubAction::Play(pairing) => self.play_pairing(pairing, now),
                ClubAction::Replay(text) => {
                    let variant = self.config.variant;
                    if let Some(Ok(pdn)) = crate::rules::pdn::read_games(&text, variant)
                        .into_iter()
                        .next()
                    {
                        self.start_record(pdn, now);
                    }
                }
            },
        }
    }

    /// Opens the club server's lobby.
    pub fn open_lobby(&mut self, now: Tick) {
        let Some((lobby, who)) = &self.server else {
            self.notice = Some("The lobby is on the club server (draughts serve)".into());
            return;
        };
        let mut screen =
            super::lobby::LobbyScreen::new(Arc::clone(lobby), who.clone(), self.club_db.clone());
        screen.refresh(now);
        self.screen = Screen::Lobby(Box::new(screen));
    }

    /// Shows a game on the club server: as a player if this member plays in it, else as a
    /// spectator.
    pub fn join(&mut self, room: Arc<crate::lobby::Room>, now: Tick) {
        let seat = room.sit(&self.user, self.waker.clone());
        let live = room.table().live.clone();
        let variant = live.game().variant();
        self.start_game(
            GameSetup {
                tablebase: live.options().tablebase.clone(),
                ..GameSetup::new(variant)
            },
            now,
        );
        if let Screen::Play(p) = &mut self.screen {
            p.live = live;
            p.flipped = seat.color() == Some(Color::Black);
            let n = variant.geometry().width * 2;
            p.cursor = if p.flipped { (0, n - 1) } else { (n - 1, 0) };
            p.message = match seat.color() {
                Some(c) => {
                    format!("You play {c}: type a move or use the arrow keys; :draw, :resign")
                }
                None => "You are watching: [ ] steps through the moves, q leaves".into(),
            };
            p.table = Some(seat);
            // The first frame says whether the opponent is there yet.
            p.table_status = Some(String::new());
        }
    }

    /// Starts the game of a tournament pairing with the tournament's variant and clock; its
    /// result and record go to the club database when it ends.
    fn play_pairing(&mut self, pairing: PairingToPlay, now: Tick) {
        let Screen::Club(c) = &self.screen else {
            return;
        };
        let Ok(t) = crate::club::tournament::find(&c.store, &pairing.tournament.to_string()) else {
            return;
        };
        let clock = t
            .time_control
            .as_deref()
            .and_then(|tc| TimeControl::parse(tc).ok());
        let setup = GameSetup {
            clock,
            tournament: true,
            ..GameSetup::new(t.variant)
        };
        self.start_game(setup, now);
        if let Screen::Play(p) = &mut self.screen {
            p.live.set_tag("Event", &t.name);
            p.live.set_tag("Round", &pairing.round.to_string());
            p.live.set_tag("White", &pairing.white);
            p.live.set_tag("Black", &pairing.black);
            p.pairing = Some(pairing);
        }
    }

    /// Records a finished tournament game in the club database, once.
    fn record_pairing(&mut self) {
        let Some(db) = self.club_db.clone() else {
            return;
        };
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        let Some(pairing) = p.pairing.clone() else {
            return;
        };
        if p.live.outcome().is_none() || p.recorded {
            return;
        }
        p.recorded = true;
        let result = Store::open(&db).and_then(|mut store| {
            crate::club::games::attach(
                &mut store,
                &pairing.tournament.to_string(),
                pairing.round,
                &pairing.white,
                &pairing.black,
                &p.live.pdn(),
            )
        });
        p.message = match result {
            Ok(_) => format!("{} — recorded in the tournament", p.message),
            Err(e) => format!("{} — not recorded in the club: {e}", p.message),
        };
    }

    fn open(&mut self, item: usize) {
        if self.guest && item == 2 {
            self.notice =
                Some("The club's records are for members; guests play casual games".into());
            return;
        }
        if self.remote && matches!(item, 1 | 3) {
            self.notice = Some("Not available over SSH (it works on the server's files)".into());
            return;
        }
        self.screen = match item {
            0 => Screen::NewGame(NewGameForm {
                focus: 5,
                variant: self.config.variant,
                white: PlayerKind::Human,
                black: PlayerKind::Human,
                clock: TextField {
                    text: self.config.clock.clone(),
                },
                tournament: false,
                error: None,
            }),
            1 => Screen::Load(LoadForm::default()),
            2 => {
                let path = self
                    .club_db
                    .clone()
                    .unwrap_or_else(crate::club::store::default_path);
                match Store::open(&path) {
                    Ok(store) => {
                        self.club_db = Some(path);
                        Screen::Club(Box::new(ClubScreen::new(store)))
                    }
                    Err(e) => {
                        self.notice = Some(format!("Club database not opened: {e}"));
                        return;
                    }
                }
            }
            3 => Screen::Settings(SettingsForm::default()),
            _ => {
                self.quit = true;
                return;
            }
        };
    }

    fn leave_or_quit(&mut self) {
        let server = self.server.is_some();
        match &mut self.screen {
            Screen::Play(p) if p.table.is_some() => {
                let playing = p.table.as_ref().is_some_and(|s| s.color().is_some());
                if playing && p.live.outcome().is_none() {
                    p.message =
                        "The game is on: :resign or :draw to end it (if you go, your clock runs)"
                            .into();
                    return;
                }
                p.table = None;
                p.analysis = None;
                self.screen = Screen::Home(1);
                if server {
                    self.open_lobby(Duration::ZERO);
                }
            }
            Screen::Play(p) => {
                // A game in progress is kept: saved before leaving.
                if p.live.outcome().is_none() && !p.live.game().moves().is_empty() {
                    let dir = self.config.games_dir();
                    if let Err(e) = p.save(None, &dir) {
                        p.message = format!("Not left: {e}");
                        return;
                    }
                }
                p.thinking = None;
                if self.direct {
                    self.quit = true;
                } else {
                    self.screen = Screen::Home(0);
                }
            }
            Screen::Home(_) => self.quit = true,
            _ => self.screen = Screen::Home(0),
        }
    }

    fn new_game_key(&mut self, key: KeyEvent, now: Tick) {
        let Screen::NewGame(f) = &mut self.screen else {
            return;
        };
        let fields = NEW_GAME_FIELDS.len();
        match key.code {
            KeyCode::Esc => self.screen = Screen::Home(0),
            KeyCode::Up => f.focus = (f.focus + fields - 1) % fields,
            KeyCode::Down | KeyCode::Tab => f.focus = (f.focus + 1) % fields,
            KeyCode::Left | KeyCode::Right => {
                let fwd = key.code == KeyCode::Right;
                match f.focus {
                    0 => f.variant = cycle_variant(f.variant, fwd),
                    1 => f.white = cycle_player(&f.white, fwd),
                    2 => f.black = cycle_player(&f.black, fwd),
                    4 => f.tournament = !f.tournament,
                    _ => {}
                }
            }
            KeyCode::Enter if f.focus == 5 => {
                let clock = match TimeControl::parse_optional(&f.clock.text) {
                    Ok(clock) => clock,
                    Err(e) => {
                        f.error = Some(e.to_string());
                        f.focus = 3;
                        return;
                    }
                };
                let setup = GameSetup {
                    white: f.white.clone(),
                    black: f.black.clone(),
                    clock,
                    tournament: f.tournament,
                    ..GameSetup::new(f.variant)
                };
                self.start_game(setup, now);
            }
            KeyCode::Enter => f.focus = (f.focus + 1) % fields,
            _ if f.focus == 3 => {
                f.clock.key(key);
                f.error = None;
            }
            KeyCode::Char(' ') if f.focus == 4 => f.tournament = !f.tournament,
            _ => {}
        }
    }

    fn load_key(&mut self, key: KeyEvent, now: Tick) {
        let variant = self.config.variant;
        let Screen::Load(f) = &mut self.screen else {
            return;
        };
        if !f.games.is_empty() {
            match key.code {
                KeyCode::Esc => f.games.clear(),
                KeyCode::Up => f.selected = f.selected.saturating_sub(1),
                KeyCode::Down => f.selected = (f.selected + 1).min(f.games.len() - 1),
                KeyCode::Enter => {
                    let pdn = f.games[f.selected].clone();
                    self.start_record(pdn, now);
                }
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Esc => self.screen = Screen::Home(1),
            KeyCode::Enter => match load_pdn(Path::new(f.path.text.trim()), variant) {
                Ok(mut games) if games.len() == 1 => {
                    let pdn = games.remove(0);
                    self.start_record(pdn, now);
                }
                Ok(games) => {
                    f.games = games;
                    f.selected = 0;
                }
                Err(e) => f.error = Some(e),
            },
            _ => {
                f.path.key(key);
                f.error = None;
            }
        }
    }

    fn start_record(&mut self, pdn: PdnGame, now: Tick) {
        let clock = pdn
            .tag("TimeControl")
            .and_then(|t| TimeControl::parse(t).ok());
        let setup = GameSetup {
            clock,
            record: Some(pdn.clone()),
            ..GameSetup::new(pdn.variant)
        };
        self.start_game(setup, now);
    }

    fn settings_key(&mut self, key: KeyEvent) {
        let Screen::Settings(f) = &mut self.screen else {
            return;
        };
        let c = &mut self.config;
        if let Some(field) = &mut f.editing {
            match key.code {
                KeyCode::Esc => f.editing = None,
                KeyCode::Enter => {
                    let text = field.text.trim().to_string();
                    match f.focus {
                        5 => {
                            if TimeControl::parse_optional(&text).is_err() {
                                return;
                            }
                            c.clock = text;
                        }
                        6 => c.games_dir = (!text.is_empty()).then(|| text.into()),
                        7 => c.tablebases = (!text.is_empty()).then(|| text.into()),
                        _ => {}
                    }
                    f.editing = None;
                    self.save_config();
                }
                _ => {
                    field.key(key);
                }
            }
            return;
        }
        let rows = SETTINGS.len();
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => self.screen = Screen::Home(3),
            KeyCode::Up | KeyCode::Char('k') => f.focus = (f.focus + rows - 1) % rows,
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => f.focus = (f.focus + 1) % rows,
            KeyCode::Left | KeyCode::Right | KeyCode::Enter | KeyCode::Char(' ') => {
                let fwd = key.code != KeyCode::Left;
                match f.focus {
                    0 => {
                        c.theme = cycle(&ThemeName::ALL, &c.theme, fwd);
                    }
                    1 => c.ascii = !c.ascii,
                    2 => c.numbers = !c.numbers,
                    3 => c.flipped = !c.flipped,
                    4 => c.variant = cycle_variant(c.variant, fwd),
                    5..=7 => {
                        let text = match f.focus {
                            5 => c.clock.clone(),
                            6 => c.games_dir().display().to_string(),
                            _ => c
                                .tablebases
                                .as_ref()
                                .map_or(String::new(), |p| p.display().to_string()),
                        };
                        f.editing = Some(TextField { text });
                        return;
                    }
                    _ => c.adjudicate = !c.adjudicate,
                }
                self.save_config();
            }
            _ => {}
        }
    }

    fn save_config(&mut self) {
        if let Some(path) = &self.config_path
            && let Err(e) = self.config.save(path)
        {
            self.config_error = Some(format!("settings not saved: {e}"));
        }
    }

    fn play_key(&mut self, key: KeyEvent, now: Tick) {
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if !p.input.is_empty() {
            match key.code {
                KeyCode::Enter => {
                    let text = std::mem::take(&mut p.input);
                    if let Some(cmd) = text.strip_prefix(':') {
                        self.command(cmd.trim(), now);
                    } else {
                        p.typed_move(&text, now);
                    }
                }
                KeyCode::Esc => p.input.clear(),
                KeyCode::Backspace => {
                    p.input.pop();
                }
                KeyCode::Tab => p.complete(),
                KeyCode::Char(c) => p.input.push(c),
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Char(c @ ('0'..='9' | ':')) => p.input.push(c),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Up | KeyCode::Char('k') => p.move_cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => p.move_cursor(1, 0),
            KeyCode::Left | KeyCode::Char('h') => p.move_cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => p.move_cursor(0, 1),
            KeyCode::Tab if p.choosing.is_some() => p.next_choice(),
            KeyCode::Enter | KeyCode::Char(' ') => p.pick(now),
            KeyCode::Esc => {
                p.selected = None;
                p.choosing = None;
            }
            KeyCode::Char('f') => p.flipped = !p.flipped,
            KeyCode::Char('a') => {
                let analyst = match &p.analysis {
                    Some(_) => None,
                    None => Some(Analyst::BuiltIn),
                };
                p.message = p.analyse(analyst);
            }
            KeyCode::Char('n') => {
                self.config.numbers = !self.config.numbers;
                self.save_config();
            }
            KeyCode::Char('[') => p.step(Step::Prev),
            KeyCode::Char(']') => p.step(Step::Next),
            KeyCode::Char('{') | KeyCode::Home => p.step(Step::First),
            KeyCode::Char('}') | KeyCode::End => p.step(Step::Last),
            KeyCode::PageUp => p.scroll += 5,
            KeyCode::PageDown => p.scroll = p.scroll.saturating_sub(5),
            KeyCode::Char('q') => self.leave_or_quit(),
            _ => {}
        }
    }

    /// Runs a `:`-command on the game screen.
    pub fn command(&mut self, cmd: &str, now: Tick) {
        let games_dir = self.config.games_dir();
        let (name, arg) = cmd
            .split_once(char::is_whitespace)
            .map_or((cmd, ""), |(n, a)| (n, a.trim()));
        match name {
            "q" | "quit" | "exit" => return self.leave_or_quit(),
            "help" => {
                self.help = true;
                return;
            }
            "numbers" => {
                self.config.numbers = !self.config.numbers;
                self.save_config();
                return;
            }
            "ascii" => {
                self.config.ascii = !self.config.ascii;
                self.save_config();
                return;
            }
            "theme" => {
                let message = match ThemeName::ALL.iter().find(|t| t.name() == arg) {
                    Some(&t) => {
                        self.config.theme = t;
                        self.save_config();
                        format!("Theme {arg}")
                    }
                    None => "Themes: wood, green, blue, mono".into(),
                };
                if let Screen::Play(p) = &mut self.screen {
                    p.message = message;
                }
                return;
            }
            "new" => {
                self.open(0);
                return;
            }
            _ => {}
        }
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        let actor = p.actor();
        let message = match name {
            "flip" => {
                p.flipped = !p.flipped;
                String::new()
            }
            "draw" | "offer" => {
                let n = p.request(|live| live.offer_draw(actor, now));
                p.after_notice(n)
            }
            "accept" | "yes" => {
                let n = p.request(|live| match (live.offer(), live.proposal()) {
                    (Some(_), _) => live.accept(actor, now),
                    (None, Some(_)) => live.accept_proposal(actor, now),
                    _ => Notice::Refused("there is nothing to accept".into()),
                });
                p.after_notice(n)
            }
            "decline" | "no" => {
                let n = p.request(|live| live.decline(actor));
                p.after_notice(n)
            }
            "resign" => {
                let n = p.request(|live| live.resign(actor, now));
                p.after_notice(n)
            }
            "takeback" | "undo" => {
                let n = p.request(|live| live.request_takeback(actor));
                p.after_notice(n)
            }
            "pause" | "resume" | "continue" if p.table.is_some() => {
                "Not in a game between terminals: the clock and the moves are shared".into()
            }
            "pause" | "resume" => match p.live.toggle_pause(now) {
                Ok(true) => "Clock paused (:resume to go on)".into(),
                Ok(false) => "Clock running".into(),
                Err(e) => e,
            },
            "save" if self.remote && !arg.is_empty() => {
                "Over SSH games are saved to the club's games directory (:save alone)".into()
            }
            "analyse" | "analyze" if self.remote && arg.starts_with("hub:") => {
                "External engines are not available over SSH".into()
            }
            "save" => {
                let path = (!arg.is_empty()).then(|| PathBuf::from(arg));
                match p.save(path, &games_dir) {
                    Ok(path) => format!("Saved to {}", path.display()),
                    Err(e) => e,
                }
            }
            "first" => p.step_message(Step::First),
            "prev" | "back" => p.step_message(Step::Prev),
            "next" | "forward" => p.step_message(Step::Next),
            "last" => p.step_message(Step::Last),
            "analyse" | "analyze" => match arg {
                "" => p.analyse(Some(Analyst::BuiltIn)),
                "off" => p.analyse(None),
                other => match other.strip_prefix("hub:") {
                    Some(cmd) if !cmd.trim().is_empty() => {
                        p.analyse(Some(Analyst::Hub(crate::hub::client::command_line(cmd))))
                    }
                    _ => "Usage: :analyse [hub:<engine command>|off]".into(),
                },
            },
            "continue" => p.continue_here(now),
            "" => String::new(),
            other => format!("Unknown command :{other} (press ? for the list)"),
        };
        if !message.is_empty() {
            p.message = message;
        }
    }
}

/// Steps through the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The start position.
    First,
    /// One ply back.
    Prev,
    /// One ply on.
    Next,
    /// The latest position.
    Last,
}

impl PlayScreen {
    /// Whether analysis may be shown: in casual games, and in any game once it is over.
    pub fn analysis_allowed(&self) -> bool {
        // A game between terminals is analysed only once over (a spectator could pass it on).
        let shared = self.table.is_some();
        (self.live.options().casual && !shared) || self.live.outcome().is_some()
    }

    /// Makes a request of the game (offer, accept, resign…): on the club server through the
    /// seat, so both terminals see it; a spectator makes none.
    fn request(&mut self, f: impl FnOnce(&mut LiveGame) -> Notice) -> Notice {
        match &mut self.table {
            Some(seat) if seat.color().is_none() => {
                Notice::Refused("spectators watch; they do not play".into())
            }
            Some(seat) => seat.act(&mut self.live, f).unwrap_or_else(Notice::Refused),
            None => f(&mut self.live),
        }
    }

    /// Turns analysis on with `analyst`, or off; the message for the players.
    pub fn analyse(&mut self, analyst: Option<Analyst>) -> String {
        match analyst {
            None => {
                self.analysis = None;
                "Analysis off".into()
            }
            Some(_) if !self.analysis_allowed() => {
                "Analysis is off in tournament games until the game is over".into()
            }
            Some(a) => {
                let tablebase = self.live.options().tablebase.clone();
                self.analysis = Some(Analysis::start(a, tablebase));
                self.follow_analysis();
                "Analysis on (a or :analyse off to stop)".into()
            }
        }
    }

    /// Points the analysis at the shown position and takes in its reports.
    fn follow_analysis(&mut self) {
        if !self.analysis_allowed() {
            self.analysis = None;
        }
        let Some(a) = &mut self.analysis else {
            return;
        };
        let game = self.live.game();
        let ply = self.view.unwrap_or(game.moves().len());
        a.set(game.start(), &game.moves()[..ply.min(game.moves().len())]);
        a.poll();
    }

    /// What the tablebases say of the shown position, when they hold it and analysis is on.
    pub fn tablebase_verdict(&self) -> Option<String> {
        self.analysis.as_ref()?;
        let tb = self.live.options().tablebase.as_ref()?;
        let pos = self.shown();
        if pos.variant() != tb.variant() || pos.pieces().count() as u32 > tb.max_pieces() {
            return None;
        }
        let side = pos.side_to_move();
        Some(match tb.dtw(&pos).ok()? {
            Dtw::Win(p) => format!("Tablebase: {side} wins in {p} plies"),
            Dtw::Loss(p) => format!("Tablebase: {} wins in {p} plies", side.opposite()),
            Dtw::Draw => "Tablebase: draw".into(),
        })
    }

    /// The side whose requests the keyboard makes: the one human, or the side to move.
    pub fn actor(&self) -> Color {
        if let Some(c) = self.table.as_ref().and_then(|s| s.color()) {
            return c;
        }
        match self.players {
            [
                PlayerKind::Human,
                PlayerKind::Engine(_) | PlayerKind::Hub(_),
            ] => Color::White,
            [
                PlayerKind::Engine(_) | PlayerKind::Hub(_),
                PlayerKind::Human,
            ] => Color::Black,
            _ => self.live.position().side_to_move(),
        }
    }

    /// The position on the board: the viewed one while stepping, else the live one.
    pub fn shown(&self) -> Position {
        match self.view {
            Some(ply) => *self
                .live
                .game()
                .positions()
                .nth(ply)
                .unwrap_or(self.live.position()),
            None => *self.live.position(),
        }
    }

    /// The squares of the move that led to the shown position.
    pub fn last_route(&self) -> Vec<Square> {
        if let Some((moves, i)) = &self.choosing {
            let mv = &moves[*i];
            let mut squares = mv.route();
            squares.extend(mv.captured());
            return squares;
        }
        let ply = self.view.unwrap_or(self.live.game().moves().len());
        match ply.checked_sub(1) {
            Some(i) => self.live.game().moves()[i].route(),
            None => Vec::new(),
        }
    }

    /// The targets of the selected piece.
    pub fn targets(&self) -> Vec<Square> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        let mut t: Vec<Square> = self
            .live
            .position()
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(Move::to)
            .collect();
        t.sort();
        t.dedup();
        t
    }

    fn human_to_move(&self) -> bool {
        let side = self.live.position().side_to_move();
        match &self.table {
            Some(seat) => seat.color() == Some(side),
            None => self.players[side.index()] == PlayerKind::Human,
        }
    }

    fn can_move(&mut self) -> bool {
        if self.view.is_some() {
            self.message =
                "Stepping through the record: :continue to play from here, } to go to the end"
                    .into();
            return false;
        }
        if let Some(o) = self.live.outcome() {
            self.message = format!("The game is over: {o}");
            return false;
        }
        if !self.human_to_move() {
            self.message = match self.table.as_ref().map(|s| s.color()) {
                Some(None) => "You are watching this game".into(),
                Some(Some(_)) => "Your opponent is to move".into(),
                None => "The engine is to move".into(),
            };
            return false;
        }
        true
    }

    fn move_cursor(&mut self, drow: i32, dfile: i32) {
        let n = self.live.game().variant().geometry().width as i32 * 2;
        let (drow, dfile) = if self.flipped {
            (-drow, -dfile)
        } else {
            (drow, dfile)
        };
        if self.choosing.is_some() {
            // Arrow keys step through the captures being chosen.
            self.next_choice();
            return;
        }
        let row = (self.cursor.0 as i32 + drow).clamp(0, n - 1);
        let file = (self.cursor.1 as i32 + dfile).clamp(0, n - 1);
        self.cursor = (row as u32, file as u32);
    }

    fn next_choice(&mut self) {
        if let Some((moves, i)) = &mut self.choosing {
            *i = (*i + 1) % moves.len();
        }
        self.next_choice_message();
    }

    /// Enter/Space/click on the cursor's square: select a piece, a target, or a capture route.
    fn pick(&mut self, now: Tick) {
        if let Some((moves, i)) = self.choosing.take() {
            self.play(moves[i], now);
            return;
        }
        if !self.can_move() {
            return;
        }
        let variant = self.live.game().variant();
        let square = variant
            .geometry()
            .number_at(self.cursor.0, self.cursor.1)
            .and_then(|n| Square::new(u32::from(n), variant));
        let Some(sq) = square else {
            self.message = "Pieces stand on the dark squares".into();
            return;
        };
        let pos = *self.live.position();
        let legal = pos.legal_moves();
        if let Some(from) = self.selected {
            let fits: Vec<Move> = legal
                .iter()
                .filter(|m| m.from() == from && m.to() == sq)
                .copied()
                .collect();
            match fits.len() {
                0 => {}
                1 => {
                    self.selected = None;
                    self.play(fits[0], now);
                    return;
                }
                _ => {
                    self.choosing = Some((fits, 0));
                    self.next_choice_message();
                    return;
                }
            }
        }
        if legal.iter().any(|m| m.from() == sq) {
            self.selected = Some(sq);
            self.message = format!("{sq} selected: pick a target");
        } else if pos
            .piece_at(sq)
            .is_some_and(|pc| pc.color == pos.side_to_move())
        {
            self.selected = None;
            self.message = if pos.has_capture() {
                format!("{sq} cannot move: a capture is compulsory")
            } else {
                format!("{sq} cannot move")
            };
        } else {
            self.selected = None;
            self.message = format!("No piece of yours to move on {sq}");
        }
    }

    fn next_choice_message(&mut self) {
        if let Some((moves, i)) = &self.choosing {
            let text = crate::rules::notation::long_text(&moves[*i]);
            self.message = format!(
                "{} captures end here: Enter plays {text} (shown), Tab or arrows show the next",
                moves.len()
            );
        }
    }

    /// Moves that the typed text could still become.
    pub fn completions(&self) -> Vec<String> {
        let pos = self.live.position();
        let text = self.input.trim();
        if text.is_empty() || text.starts_with(':') {
            return Vec::new();
        }
        let mut out: Vec<String> = pos
            .legal_moves()
            .iter()
            .flat_map(|m| {
                let short = move_text(pos, m);
                let long = crate::rules::notation::long_text(m);
                [short, long]
            })
            .filter(|t| t.starts_with(text) || t.replace('x', "-").starts_with(text))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn complete(&mut self) {
        let options = self.completions();
        if let Some(first) = options.first() {
            let common = options.iter().fold(first.clone(), |acc, o| {
                acc.chars()
                    .zip(o.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect()
            });
            if common.len() > self.input.len() {
                self.input = common;
            }
        }
    }

    /// Plays typed move text: full (`32-28`, `28x19`, long form) or partial (`32`, `32-`,
    /// `28x`) when only one legal move fits.
    fn typed_move(&mut self, text: &str, now: Tick) {
        if !self.can_move() {
            return;
        }
        let pos = *self.live.position();
        let trimmed = text.trim().trim_end_matches(['-', 'x', 'X', ':']);
        let fits = match split_move_text(trimmed) {
            Ok(_) => matching_moves(&pos, trimmed),
            Err(e) => match trimmed.parse::<u32>() {
                Ok(n) => Ok(pos
                    .legal_moves()
                    .iter()
                    .filter(|m| u32::from(m.from().number()) == n)
                    .copied()
                    .collect()),
                Err(_) => Err(e),
            },
        };
        match fits {
            Err(e) => self.message = e.to_string(),
            Ok(moves) => match moves.as_slice() {
                [one] => self.play(*one, now),
                [] => {
                    self.message = match crate::rules::notation::parse_move(&pos, trimmed) {
                        Err(e) => e.to_string(),
                        Ok(_) => format!("{text} is not a legal move here"),
                    };
                    if trimmed.parse::<u32>().is_ok() {
                        self.message = format!("No legal move starts on {trimmed}");
                    }
                }
                many => {
                    let options: Vec<String> = many.iter().map(|m| move_text(&pos, m)).collect();
                    self.message = format!("{text} is ambiguous: {}", options.join(" or "));
                }
            },
        }
    }

    fn play(&mut self, mv: Move, now: Tick) {
        let pos = *self.live.position();
        let text = move_text(&pos, &mv);
        self.selected = None;
        self.choosing = None;
        let played = match &mut self.table {
            Some(seat) => match seat.act(&mut self.live, |live| live.play(&mv, now)) {
                Ok(r) => r,
                Err(e) => {
                    self.message = e;
                    return;
                }
            },
            None => self.live.play(&mv, now),
        };
        match played {
            Ok(notices) => {
                self.scroll = 0;
                self.message = format!("{} played {text}", pos.side_to_move());
                for n in notices {
                    let m = self.after_notice(n);
                    if !m.is_empty() {
                        self.message = m;
                    }
                }
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// What the other terminal did, in words, from the game before it changed: (moves, outcome,
    /// standing offer).
    fn shared_news(
        &mut self,
        (moves, outcome, offer): (usize, Option<crate::rules::game::Outcome>, Option<Offer>),
    ) -> Option<String> {
        if self.live.outcome().is_some() && outcome.is_none() {
            return self.live.ending().map(str::to_string);
        }
        if let Some(o) = self.live.offer()
            && offer != Some(o)
        {
            return Some(self.after_notice(Notice::Offered(o)));
        }
        let now = self.live.game().moves().len();
        if now > moves
            && let Some((_, words)) = self.live.proposal()
        {
            return Some(format!("{words} — the losing side may :accept"));
        }
        if now > moves {
            let game = self.live.game();
            let before = game.positions().nth(now - 1)?;
            let mv = game.moves().last()?;
            return Some(format!(
                "{} played {}",
                before.side_to_move(),
                move_text(before, mv)
            ));
        }
        if now < moves {
            return Some(format!("{} moves taken back", moves - now));
        }
        match offer {
            Some(o) if self.live.offer().is_none() => Some(self.after_notice(Notice::Declined(o))),
            _ => None,
        }
    }

    /// Words for a notice; a takeback also resets the selection.
    fn after_notice(&mut self, n: Notice) -> String {
        let player = |c: Color| match self.players[c.index()] {
            PlayerKind::Human => c.to_string(),
            PlayerKind::Engine(_) | PlayerKind::Hub(_) => format!("{c} (engine)"),
        };
        match n {
            Notice::Ended(_, words) => words,
            Notice::Offered(Offer::Draw(by)) => {
                format!(
                    "{} offers a draw: {} may :accept or :decline (moving declines)",
                    player(by),
                    by.opposite()
                )
            }
            Notice::Offered(Offer::Takeback(by)) => format!(
                "{} asks to take back a move: {} may :accept or :decline",
                player(by),
                by.opposite()
            ),
            Notice::Declined(Offer::Draw(by)) => format!("{}'s draw offer declined", player(by)),
            Notice::Declined(Offer::Takeback(by)) => {
                format!("{}'s takeback declined", player(by))
            }
            Notice::TookBack(n) => {
                self.selected = None;
                self.choosing = None;
                self.thinking = None;
                format!("Took back {n} ply(s)")
            }
            Notice::Proposal(_, words) => format!("{words} — the losing side may :accept"),
            Notice::Refused(why) => why,
        }
    }

    fn step(&mut self, step: Step) {
        let m = self.step_message(step);
        self.message = m;
    }

    fn step_message(&mut self, step: Step) -> String {
        let total = self.live.game().moves().len();
        let current = self.view.unwrap_or(total);
        let next = match step {
            Step::First => 0,
            Step::Prev => current.saturating_sub(1),
            Step::Next => (current + 1).min(total),
            Step::Last => total,
        };
        self.selected = None;
        self.choosing = None;
        self.view = (next < total || self.recorded_result.is_some()).then_some(next);
        if self.view == Some(total) && self.recorded_result.is_none() {
            self.view = None;
        }
        match self.view {
            Some(ply) => format!("Ply {ply} of {total}: [ ] step, :continue plays on from here"),
            None => "Back at the live position".into(),
        }
    }

    /// Leaves stepping mode and plays on from the shown position (later moves are dropped from
    /// the game, not from any file).
    fn continue_here(&mut self, now: Tick) -> String {
        let Some(ply) = self.view else {
            return "Already at the live position".into();
        };
        let record = self.live.pdn();
        let mut pdn = record.clone();
        pdn.line.moves.truncate(ply);
        pdn.result = crate::rules::pdn::GameResult::Unfinished;
        let mut live = LiveGame::from_pdn(&pdn, self.live.options().clone());
        for (k, v) in ["Event", "Site", "Date", "Round", "White", "Black"]
            .iter()
            .filter_map(|k| record.tag(k).map(|v| (*k, v.to_string())))
        {
            live.set_tag(k, &v);
        }
        live.start_clock(now);
        self.live = live;
        self.view = None;
        self.recorded_result = None;
        self.saved = None;
        self.autosaved = false;
        match self.live.ending() {
            Some(e) => e.to_string(),
            None => format!(
                "Playing on from ply {ply}; {} to move",
                self.live.position().side_to_move()
            ),
        }
    }

    /// Saves the game as PDN (to `path`, or a new file in the games directory).
    pub fn save(&mut self, path: Option<PathBuf>, games_dir: &Path) -> Result<PathBuf, String> {
        let path = match path.or_else(|| self.saved.clone()) {
            Some(p) => p,
            None => games_dir.join(self.file_name()),
        };
        let text = write_game(&self.live.pdn());
        write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("could not save {}: {e}", path.display()))?;
        self.saved = Some(path.clone());
        Ok(path)
    }

    fn file_name(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
                .split('-')
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("-")
        };
        let (date, time) = crate::date::now_utc();
        format!(
            "{date}-{time}-{}-{}-{}.pdn",
            self.live.game().variant().name(),
            clean(self.live.tag("White").unwrap_or("white")),
            clean(self.live.tag("Black").unwrap_or("black")),
        )
    }

    fn tick(&mut self, now: Tick, games_dir: &Path) {
        // What the server says about the room first; news of the game itself wins over it.
        if self.table.is_some() {
            let status = self.table.as_ref().and_then(|s| s.status());
            if status != self.table_status {
                match &status {
                    Some(s) => self.message = s.clone(),
                    None if self.live.outcome().is_none() => {
                        self.message = match self.table.as_ref().and_then(|s| s.color()) {
                            Some(c) => format!(
                                "Both players are at the board — you play {c}: type a move or use the arrow keys; :draw, :resign"
                            ),
                            None => "Both players are at the board".into(),
                        };
                    }
                    None => {}
                }
                self.table_status = status;
            }
        }
        if let Some(seat) = &mut self.table {
            let before = (
                self.live.game().moves().len(),
                self.live.outcome(),
                self.live.offer(),
            );
            if seat.pull(&mut self.live) {
                self.selected = None;
                self.choosing = None;
                if let Some(m) = self.shared_news(before) {
                    self.message = m;
                }
            }
            // The server keeps the record; the finished game is not saved again here.
            self.autosaved = true;
        }
        self.follow_analysis();
        if let Some(n) = self.live.tick(now) {
            let m = self.after_notice(n);
            self.message = m;
            self.thinking = None;
        }
        self.engine_turn(now);
        if self.live.outcome().is_some() && !self.autosaved && self.view.is_none() {
            self.autosaved = true;
            if !self.live.game().moves().is_empty() || self.saved.is_some() {
                match self.save(None, games_dir) {
                    Ok(p) => self.message = format!("{} — saved to {}", self.message, p.display()),
                    Err(e) => self.message = e,
                }
            }
        }
    }

    fn engine_turn(&mut self, now: Tick) {
        if self.live.outcome().is_some() || self.view.is_some() {
            self.thinking = None;
            return;
        }
        if self.live.clock().is_some_and(|c| c.is_paused()) {
            return;
        }
        let side = self.live.position().side_to_move();
        if let PlayerKind::Hub(command) = &self.players[side.index()] {
            let command = command.clone();
            self.remote_turn(side, command, now);
            return;
        }
        let PlayerKind::Engine(level) = self.players[side.index()] else {
            self.thinking = None;
            return;
        };
        // The engine answers offers on its turn: a draw when it stands worse, takebacks always.
        match self.live.offer() {
            Some(Offer::Draw(by)) if by != side => {
                let n = if engine::stands_worse(self.live.position()) {
                    self.live.accept(side, now)
                } else {
                    self.live.decline(side)
                };
                let m = self.after_notice(n);
                self.message = m;
                if self.live.outcome().is_some() {
                    return;
                }
            }
            Some(Offer::Takeback(by)) if by != side => {
                let n = self.live.accept(side, now);
                let m = self.after_notice(n);
                self.message = m;
                return;
            }
            _ => {}
        }
        match &self.thinking {
            None => {
                let budget = self
                    .live
                    .clock()
                    .map(|c| engine::budget(c, side, now).min(level.time_cap()))
                    .unwrap_or(level.time_cap());
                let history: Vec<u64> = self
                    .live
                    .game()
                    .positions()
                    .map(Position::zobrist)
                    .collect();
                self.thinking = Some(Thinking::start(
                    *self.live.position(),
                    history,
                    level,
                    Some(budget),
                    self.live.options().tablebase.clone(),
                ));
            }
            Some(t) => {
                if let Some(result) = t.poll() {
                    self.thinking = None;
                    if let Some(mv) = result {
                        self.play(mv, now);
                    }
                }
            }
        }
    }
}

impl PlayScreen {
    /// An external Hub engine's turn: ask it once, then wait for its answer without blocking.
    fn remote_turn(&mut self, side: Color, command: String, now: Tick) {
        if self.remote_failed {
            return;
        }
        if let Some(answer) = &self.asking {
            match answer.try_recv() {
                Ok(Ok(mv)) => {
                    self.asking = None;
                    self.play(mv, now);
                }
                Ok(Err(e)) => {
                    self.asking = None;
                    self.remote_failed = true;
                    self.message = format!("{side} (hub engine): {e} — it will not be asked again");
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.asking = None;
                    self.remote_failed = true;
                    self.message = format!("{side} (hub engine) stopped answering");
                }
            }
            return;
        }
        let player = self.remote[side.index()].get_or_insert_with(|| RemotePlayer::spawn(command));
        let (level, patience) = match self.live.clock() {
            Some(c) => {
                let left = c.remaining(side, now);
                let (stage, to_go) = c.stage(side);
                let inc = c
                    .control()
                    .stages()
                    .get(stage - 1)
                    .map_or(std::time::Duration::ZERO, |s| s.increment);
                (
                    level_line(left, inc, to_go),
                    left + std::time::Duration::from_secs(10),
                )
            }
            None => (
                "level move-time=5".to_string(),
                std::time::Duration::from_secs(60),
            ),
        };
        let game = self.live.game();
        self.asking = Some(player.ask(*game.start(), game.moves().to_vec(), level, patience));
        self.message = format!("{side} (hub engine) is thinking…");
    }
}

/// Reads every game of a PDN file; the first bad game is reported with its place.
pub fn load_pdn(path: &Path, variant: Variant) -> Result<Vec<PdnGame>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut games = Vec::new();
    for (i, g) in read_bytes(&bytes, variant).into_iter().enumerate() {
        match g {
            Ok(g) => games.push(g),
            Err(e) => return Err(format!("{}: game {}: {e}", path.display(), i + 1)),
        }
    }
    if games.is_empty() {
        return Err(format!("{}: no games in the file", path.display()));
    }
    Ok(games)
}

/// Reads a FEN for a variant, for `draughts play --fen`.
pub fn start_position(fen: &str, variant: Variant) -> Result<Position, String> {
    parse_fen(fen, variant).map_err(|e| format!("--fen: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse() {
        assert_eq!("human".parse(), Ok(PlayerKind::Human));
        assert_eq!(
            "engine:3".parse(),
            Ok(PlayerKind::Engine(Level::new(3).unwrap()))
        );
        assert_eq!("engine".parse(), Ok(PlayerKind::Engine(Level::default())));
        assert_eq!("engine:max".parse(), Ok(PlayerKind::Engine(Level::MAX)));
        assert!("robot".parse::<PlayerKind>().is_err());
        assert!("engine:11".parse::<PlayerKind>().is_err());
    }
}
