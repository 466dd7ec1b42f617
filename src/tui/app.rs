//! The TUI's model: which screen is shown and what the screens share (settings, the session's
//! place on the club server, overlays). Each screen handles its own keys and says what it needs
//! of the app; the app switches screens. Time comes in as an argument, so tests drive it without a
//! terminal or a clock.

use super::board::ColorDepth;
use super::club::{Action as ClubAction, ClubScreen, PairingToPlay};
use super::home;
use super::load::{self, LoadForm};
use super::lobby::{self, LobbyScreen};
use super::new_game::{self, NewGameForm};
use super::play::{self, PlayScreen};
use super::settings::{self, SettingsForm};
use super::setup::GameSetup;
use crate::clock::{Tick, TimeControl};
use crate::club::Store;
use crate::config::Config;
use crate::rules::pdn::PdnGame;
use crate::rules::piece::Color;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How often the screen refreshes while something on it moves by itself (clocks show tenths,
/// an engine's search).
pub const FRAME: Duration = Duration::from_millis(100);

/// How often the screen refreshes when nothing on it moves by itself (the lobby's lists, who is
/// online): changes that matter at once wake the session instead.
pub const IDLE: Duration = Duration::from_secs(1);

/// How often the club screen redraws while a round is reviewed, for its progress bar.
const REVIEW_FRAME: Duration = Duration::from_millis(250);

/// The time each position of a round's games gets when the round is reviewed from the club
/// screen: a 20-board round takes about a quarter of an hour on two cores.
const ROUND_REVIEW_TIME: Duration = Duration::from_secs(1);

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
    Lobby(Box<LobbyScreen>),
}

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
    /// Who acts on the club's records from this session: the owner locally
    /// ([`Actor::local`](crate::club::access::Actor::local)), the signed-in member on the club
    /// server.
    pub actor: crate::club::access::Actor,
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
            actor: crate::club::access::Actor::local(),
        }
    }

    /// Starts a game.
    pub fn start_game(&mut self, setup: GameSetup, now: Tick) {
        let screen = PlayScreen::new(setup, &self.config, &self.user, now);
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
        if let Screen::Club(c) = &mut self.screen {
            c.tick();
        }
        self.record_pairing();
    }

    /// How long the screen can wait for input before it must be drawn again, between
    /// [`FRAME`] (an engine thinking, tenths on a clock) and
    /// [`IDLE`] (lists that other sessions change). A session on the club server
    /// that draws only when something changed leaves the cores to the moves.
    pub fn refresh_in(&self, now: Tick) -> Duration {
        let within = match &self.screen {
            Screen::Play(p) => p.changes_within(now),
            Screen::Club(c) if c.reviewing() => Some(REVIEW_FRAME),
            _ => None,
        };
        within.map_or(IDLE, |d| d.clamp(FRAME, IDLE))
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
        if let Screen::Play(p) = &mut self.screen {
            p.mouse(ev, now);
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
            Screen::Home(sel) => {
                match home::key(sel, key, self.server.is_some(), self.presence.is_some()) {
                    home::Action::None => {}
                    home::Action::Open(item) => self.open(item),
                    home::Action::Lobby => self.open_lobby(now),
                    home::Action::Online => self.online = true,
                    home::Action::Help => self.help = true,
                    home::Action::Quit => self.quit = true,
                }
            }
            Screen::NewGame(f) => match f.key(key) {
                new_game::Action::None => {}
                new_game::Action::Back => self.screen = Screen::Home(0),
                new_game::Action::Start(setup) => self.start_game(*setup, now),
            },
            Screen::Load(f) => match f.key(key, self.config.variant) {
                load::Action::None => {}
                load::Action::Back => self.screen = Screen::Home(1),
                load::Action::Open(pdn) => self.start_record(*pdn, now),
            },
            Screen::Settings(f) => match f.key(key, &mut self.config) {
                settings::Action::None => {}
                settings::Action::Back => self.screen = Screen::Home(3),
                settings::Action::Save => self.save_config(),
            },
            Screen::Play(p) => match p.key(key, now, &mut self.config, self.remote) {
                play::Action::None => {}
                play::Action::Help => self.help = true,
                play::Action::Leave => self.leave_or_quit(),
                play::Action::NewGame => self.open(0),
                play::Action::SaveConfig => self.save_config(),
            },
            Screen::Lobby(l) => match l.key(key, now) {
                lobby::Action::None => {}
                lobby::Action::Home => self.screen = Screen::Home(1),
                lobby::Action::Join(room) => self.join(room, now),
            },
            Screen::Club(c) => match c.key(key) {
                ClubAction::None => {}
                ClubAction::Home => self.screen = Screen::Home(2),
                ClubAction::Play(pairing) => self.play_pairing(pairing, now),
                ClubAction::ReviewRound { tournament, round } => {
                    self.review_round(tournament, round);
                }
                ClubAction::ReplayReviewed {
                    record,
                    review,
                    time,
                } => {
                    self.start_record(*record, now);
                    if let Screen::Play(p) = &mut self.screen {
                        p.show_review(*review, time);
                    }
                }
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
        let mut screen = LobbyScreen::new(Arc::clone(lobby), who.clone(), self.club_db.clone());
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
                &self.actor,
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
            0 => Screen::NewGame(NewGameForm::new(&self.config)),
            1 => Screen::Load(LoadForm::default()),
            2 => {
                let path = self
                    .club_db
                    .clone()
                    .unwrap_or_else(crate::club::store::default_path);
                match Store::open(&path) {
                    Ok(store) => {
                        self.club_db = Some(path);
                        Screen::Club(Box::new(ClubScreen::new(store, self.actor.clone())))
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

    /// Reviews a tournament round's recorded games from the club screen: with the variant's
    /// tablebases when present, on all cores (one over SSH, where other sessions share them).
    fn review_round(&mut self, tournament: i64, round: u32) {
        let Screen::Club(c) = &mut self.screen else {
            return;
        };
        let variant = crate::club::tournament::find(&c.store, &tournament.to_string())
            .map_or(self.config.variant, |t| t.variant);
        let (tables, problem) =
            match crate::tablebase::open_if_present(&self.config.tablebase_dir(variant), variant) {
                Ok(t) => (t, None),
                Err(e) => (None, Some(e)),
            };
        let threads = if self.remote {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        };
        c.start_round_review(tournament, round, tables, ROUND_REVIEW_TIME, threads);
        if let Some(e) = problem {
            c.message = format!("{} (tablebases not used: {e})", c.message);
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

    fn save_config(&mut self) {
        if let Some(path) = &self.config_path
            && let Err(e) = self.config.save(path)
        {
            self.config_error = Some(format!("settings not saved: {e}"));
        }
    }
}
