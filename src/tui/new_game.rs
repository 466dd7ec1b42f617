//! The new-game form: variant, who plays White and Black, the clock, tournament conditions.

use super::setup::{GameSetup, PlayerKind};
use super::widgets::{Fields, TextField, centered, cycle, cycle_variant, field_form};
use crate::clock::TimeControl;
use crate::config::Config;
use crate::engine::Level;
use crate::rules::variant::Variant;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

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

/// What a key on the form asks of the app.
pub enum Action {
    /// Nothing beyond the form itself.
    None,
    /// Back to the home screen.
    Back,
    /// Start this game.
    Start(Box<GameSetup>),
}

impl NewGameForm {
    /// The form as it opens: the settings' variant and clock, two humans, Start focused.
    pub fn new(config: &Config) -> NewGameForm {
        NewGameForm {
            focus: 5,
            variant: config.variant,
            white: PlayerKind::Human,
            black: PlayerKind::Human,
            clock: TextField {
                text: config.clock.clone(),
            },
            tournament: false,
            error: None,
        }
    }

    /// Handles a key: fields, values, the clock's text, and Start.
    pub fn key(&mut self, key: KeyEvent) -> Action {
        let f = self;
        let fields = NEW_GAME_FIELDS.len();
        match key.code {
            KeyCode::Esc => return Action::Back,
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
                        return Action::None;
                    }
                };
                let setup = GameSetup {
                    white: f.white.clone(),
                    black: f.black.clone(),
                    clock,
                    tournament: f.tournament,
                    ..GameSetup::new(f.variant)
                };
                return Action::Start(Box::new(setup));
            }
            KeyCode::Enter => f.focus = (f.focus + 1) % fields,
            _ if f.focus == 3 => {
                f.clock.key(key);
                f.error = None;
            }
            KeyCode::Char(' ') if f.focus == 4 => f.tournament = !f.tournament,
            _ => {}
        }
        Action::None
    }

    /// Draws the form.
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let f = self;
        // An engine level shows its rating on its variant's ladder.
        let player = |p: &PlayerKind| match p {
            PlayerKind::Engine(level) => {
                format!("◂ {p} ▸  ladder rating {}", level.rating(f.variant))
            }
            _ => format!("◂ {p} ▸"),
        };
        let values = [
            format!("◂ {} ▸", f.variant.name()),
            player(&f.white),
            player(&f.black),
            format!("{}▏", f.clock.text),
            format!("◂ {} ▸", if f.tournament { "yes" } else { "no" }),
            String::new(),
        ];
        field_form(
            frame,
            centered(area, 78, 16),
            &Fields {
                title: " New game ",
                labels: &NEW_GAME_FIELDS,
                values,
                focus: f.focus,
                help: &[
                    "↑↓ field · ←→ change · type the clock (15m, 5m+3s, 5m d3s, 2h/50, 1h/25 repeating, none)",
                    "Enter on Start begins · Esc back",
                ],
                error: f.error.as_deref(),
            },
        );
    }
}
