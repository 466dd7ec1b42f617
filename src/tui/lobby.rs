//! The club server's lobby screen: the member's tournament pairing to play, open and direct
//! challenges, games in progress to watch, adjourned games to resume, and the form for a new
//! challenge.

use super::widgets::{Fields, TextField, centered, cycle_variant, field_form, menu_line};
use crate::clock::{Tick, TimeControl};
use crate::club::Store;
use crate::lobby::{Challenge, Lobby, Offered, Pairing, Room, Who};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How often the rows read from the club database (pairings, adjourned games) are read again.
const SLOW: Duration = Duration::from_secs(2);

/// A row of the lobby.
#[derive(Clone, Debug)]
pub enum Row {
    /// The member's tournament game to play: variant, time control, pairing.
    Pairing(Variant, Option<TimeControl>, Pairing),
    /// A challenge.
    Challenge(Challenge),
    /// A game in progress.
    Game(Arc<Room>),
    /// An adjourned game of the member's: id and line.
    Adjourned(i64, String),
}

/// Rows of the challenge form.
pub const CHALLENGE_FIELDS: [&str; 6] = [
    "Variant",
    "Clock",
    "Rated",
    "Your colour",
    "Opponent (empty: anyone)",
    "Challenge",
];

/// The challenge form.
#[derive(Clone, Debug)]
pub struct ChallengeForm {
    /// The field with focus.
    pub focus: usize,
    /// Variant.
    pub variant: Variant,
    /// Time control text (`none` for untimed).
    pub clock: TextField,
    /// Whether rated.
    pub rated: bool,
    /// The challenger's colour; `None`: by lot.
    pub color: Option<Color>,
    /// The member challenged (empty: anyone).
    pub opponent: TextField,
    /// A problem with the form.
    pub error: Option<String>,
}

/// What a key on the lobby asks of the app.
pub enum Action {
    /// Nothing more.
    None,
    /// Back to the home screen.
    Home,
    /// Show this game (to play or to watch).
    Join(Arc<Room>),
}

/// The lobby screen's state.
pub struct LobbyScreen {
    /// The server's lobby.
    pub lobby: Arc<Lobby>,
    /// Who this session is.
    pub who: Who,
    /// The club database, for pairings and adjourned games (members only).
    pub db: Option<PathBuf>,
    /// The rows shown.
    pub rows: Vec<Row>,
    /// The highlighted row.
    pub selected: usize,
    /// The challenge form, while open.
    pub form: Option<ChallengeForm>,
    /// The last message.
    pub message: String,
    slow: Vec<Row>,
    read: Option<Tick>,
    /// The club database, kept open between reads.
    store: Option<Store>,
}

impl LobbyScreen {
    /// The lobby for `who`.
    pub fn new(lobby: Arc<Lobby>, who: Who, db: Option<PathBuf>) -> LobbyScreen {
        LobbyScreen {
            lobby,
            who,
            db,
            rows: Vec::new(),
            selected: 0,
            form: None,
            message: "c: new challenge · Enter: accept, watch or resume".into(),
            slow: Vec::new(),
            read: None,
            store: None,
        }
    }

    /// Reads the rows again (the database rows every few seconds).
    pub fn refresh(&mut self, now: Tick) {
        if self.read.is_none_or(|t| now.saturating_sub(t) >= SLOW) {
            self.read = Some(now);
            self.slow = self.read_club();
        }
        let name = &self.who.name;
        let mut rows: Vec<Row> = self
            .slow
            .iter()
            .filter(|r| matches!(r, Row::Pairing(..)))
            .cloned()
            .collect();
        rows.extend(self.lobby.challenges(name).into_iter().map(Row::Challenge));
        rows.extend(self.lobby.rooms().into_iter().map(Row::Game));
        rows.extend(
            self.slow
                .iter()
                .filter(|r| matches!(r, Row::Adjourned(..)))
                .cloned(),
        );
        self.rows = rows;
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }

    fn read_club(&mut self) -> Vec<Row> {
        let (Some(db), Some(_)) = (&self.db, self.who.member) else {
            return Vec::new();
        };
        if self.store.is_none() {
            self.store = Store::open(db).ok();
        }
        let mut rows = Vec::new();
        if let Some(store) = &self.store
            && let Ok(games) = crate::club::tournament::to_play(store, &self.who.name)
        {
            for (t, p) in games {
                let clock = t
                    .time_control
                    .as_deref()
                    .and_then(|tc| TimeControl::parse(tc).ok());
                let pairing = Pairing {
                    tournament: t.id,
                    name: t.name.clone(),
                    round: p.round,
                    players: [p.white.clone(), p.black.clone().unwrap_or_default()],
                };
                rows.push(Row::Pairing(t.variant, clock, pairing));
            }
        }
        rows.extend(
            self.lobby
                .adjourned(&self.who.name)
                .into_iter()
                .map(|(id, line)| Row::Adjourned(id, line)),
        );
        rows
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, now: Tick) -> Action {
        if self.form.is_some() {
            return self.form_key(key, now);
        }
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return Action::Home,
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(self.rows.len().saturating_sub(1));
            }
            KeyCode::Char('c') => {
                self.form = Some(ChallengeForm {
                    focus: 0,
                    variant: Variant::International,
                    clock: TextField {
                        text: "10m+5s".into(),
                    },
                    rated: self.who.member.is_some(),
                    color: None,
                    opponent: TextField::default(),
                    error: None,
                });
            }
            KeyCode::Char('x') | KeyCode::Delete => {
                if let Some(Row::Challenge(c)) = self.rows.get(self.selected) {
                    self.message = if self.lobby.withdraw(c.id, &self.who.name) {
                        "Challenge withdrawn".into()
                    } else {
                        "Only your own challenges can be withdrawn".into()
                    };
                    self.refresh(now);
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') => return self.enter(now),
            _ => {}
        }
        Action::None
    }

    fn enter(&mut self, now: Tick) -> Action {
        let Some(row) = self.rows.get(self.selected).cloned() else {
            return Action::None;
        };
        match row {
            Row::Game(room) => return Action::Join(room),
            Row::Challenge(c) if c.from.name == self.who.name => {
                self.message = "Your challenge waits for an opponent (x withdraws it)".into();
            }
            Row::Challenge(c) => match self.lobby.accept(c.id, &self.who) {
                Ok(room) => return Action::Join(room),
                Err(e) => self.message = e,
            },
            Row::Pairing(variant, clock, pairing) => {
                let c = Challenge {
                    id: 0,
                    from: self.who.clone(),
                    to: None,
                    variant,
                    clock,
                    rated: false,
                    color: None,
                    pairing: Some(pairing),
                };
                match self.lobby.challenge(c) {
                    Ok(Offered::Started(room)) => return Action::Join(room),
                    Ok(Offered::Waiting(_)) => {
                        self.message = "Waiting for your opponent to come and play".into();
                    }
                    Err(e) => self.message = e,
                }
            }
            Row::Adjourned(id, _) => match self.lobby.resume(id, &self.who.name) {
                Ok(room) => return Action::Join(room),
                Err(e) => self.message = e,
            },
        }
        self.refresh(now);
        Action::None
    }

    fn form_key(&mut self, key: KeyEvent, now: Tick) -> Action {
        let Some(f) = &mut self.form else {
            return Action::None;
        };
        let fields = CHALLENGE_FIELDS.len();
        match key.code {
            KeyCode::Esc => self.form = None,
            KeyCode::Up => f.focus = (f.focus + fields - 1) % fields,
            KeyCode::Down | KeyCode::Tab => f.focus = (f.focus + 1) % fields,
            KeyCode::Left | KeyCode::Right => {
                let fwd = key.code == KeyCode::Right;
                match f.focus {
                    0 => f.variant = cycle_variant(f.variant, fwd),
                    2 => f.rated = !f.rated,
                    3 => {
                        f.color = match (f.color, fwd) {
                            (None, true) | (Some(Color::Black), false) => Some(Color::White),
                            (Some(Color::White), true) | (None, false) => Some(Color::Black),
                            _ => None,
                        }
                    }
                    _ => {}
                }
            }
            KeyCode::Enter if f.focus == fields - 1 => return self.submit(now),
            KeyCode::Enter => f.focus = (f.focus + 1) % fields,
            _ if f.focus == 1 => {
                f.clock.key(key);
                f.error = None;
            }
            _ if f.focus == 4 => {
                f.opponent.key(key);
                f.error = None;
            }
            KeyCode::Char(' ') if f.focus == 2 => f.rated = !f.rated,
            _ => {}
        }
        Action::None
    }

    fn submit(&mut self, now: Tick) -> Action {
        let Some(f) = &mut self.form else {
            return Action::None;
        };
        let clock = match TimeControl::parse_optional(&f.clock.text) {
            Ok(clock) => clock,
            Err(e) => {
                f.error = Some(e.to_string());
                f.focus = 1;
                return Action::None;
            }
        };
        let to = Some(f.opponent.text.trim().to_string()).filter(|t| !t.is_empty());
        let c = Challenge {
            id: 0,
            from: self.who.clone(),
            to,
            variant: f.variant,
            clock,
            rated: f.rated,
            color: f.color,
            pairing: None,
        };
        let words = c.describe();
        match self.lobby.challenge(c) {
            Ok(Offered::Waiting(_)) => {
                self.form = None;
                self.message = format!("Challenge up: {words}");
            }
            Ok(Offered::Started(room)) => {
                self.form = None;
                return Action::Join(room);
            }
            Err(e) => f.error = Some(e),
        }
        self.refresh(now);
        Action::None
    }

    /// Draws the lobby.
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        if let Some(f) = &self.form {
            draw_form(frame, area, f);
            return;
        }
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let online = self.lobby.online();
        let mut lines = vec![
            Line::from(Span::styled(
                format!("Club lobby — {}", self.who.name),
                bold,
            )),
            Line::from(format!(
                "{} online: {}",
                online.len(),
                online
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Line::from(""),
        ];
        let mut heading = "";
        for (i, row) in self.rows.iter().enumerate() {
            let (head, text) = match row {
                Row::Pairing(v, _, p) => (
                    "Your tournament game",
                    format!(
                        "{} round {}: {} – {} · {} · Enter: play it",
                        p.name,
                        p.round,
                        p.players[0],
                        p.players[1],
                        v.name()
                    ),
                ),
                Row::Challenge(c) => {
                    let mark = if c.to.as_deref() == Some(self.who.name.as_str()) {
                        "  ← to you"
                    } else {
                        ""
                    };
                    ("Challenges", format!("{}{mark}", c.describe()))
                }
                Row::Game(room) => ("Games in progress", room.line()),
                Row::Adjourned(_, line) => ("Your adjourned games", line.clone()),
            };
            if head != heading {
                heading = head;
                lines.push(Line::from(Span::styled(head.to_string(), bold)));
            }
            lines.push(menu_line(text, i == self.selected));
        }
        if self.rows.is_empty() {
            lines.push(Line::from(
                "No challenges or games yet: press c to challenge.",
            ));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(
            "↑↓ choose · Enter accept/watch/play · c challenge · x withdraw · o who is online · q home",
        ));
        lines.push(Line::from(self.message.clone()));
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" Lobby ")),
            area,
        );
    }
}

fn draw_form(frame: &mut Frame, area: Rect, f: &ChallengeForm) {
    let color = match f.color {
        None => "by lot".to_string(),
        Some(c) => c.to_string(),
    };
    let values = [
        format!("◂ {} ▸", f.variant.name()),
        format!("{}▏", f.clock.text),
        format!("◂ {} ▸", if f.rated { "yes" } else { "no" }),
        format!("◂ {color} ▸"),
        format!("{}▏", f.opponent.text),
        String::new(),
    ];
    field_form(
        frame,
        centered(area, 84, 16),
        &Fields {
            title: " New challenge ",
            labels: &CHALLENGE_FIELDS,
            values,
            focus: f.focus,
            help: &[
                "↑↓ field · ←→ change · type the clock (10m+5s, 5m d3s, none) and a member's name",
                "Enter on Challenge puts it up · Esc back",
            ],
            error: f.error.as_deref(),
        },
    );
}
