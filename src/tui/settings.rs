//! The settings screen: looks, defaults for new games, directories, adjudication and the
//! engine's opening book, saved to the settings file as they change.

use super::widgets::{TextField, centered, cycle, cycle_variant, menu_line};
use crate::clock::TimeControl;
use crate::config::{Config, ThemeName};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::path::Path;

/// Rows of the settings screen.
pub const SETTINGS: [&str; 10] = [
    "Theme",
    "Pieces",
    "Square numbers",
    "Board from Black's side",
    "Default variant",
    "Default clock",
    "Games directory",
    "Tablebase directory",
    "Tablebase adjudication",
    "Engine opening book",
];

/// The settings screen.
#[derive(Clone, Debug, Default)]
pub struct SettingsForm {
    /// The row with focus.
    pub focus: usize,
    /// The text being edited in a text row.
    pub editing: Option<TextField>,
}

/// What a key on the settings screen asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing beyond the screen itself.
    None,
    /// Back to the home screen.
    Back,
    /// The settings changed: save them.
    Save,
}

impl SettingsForm {
    /// Handles a key, changing `c`; says when the settings are to be saved.
    pub fn key(&mut self, key: KeyEvent, c: &mut Config) -> Action {
        let f = self;
        if let Some(field) = &mut f.editing {
            match key.code {
                KeyCode::Esc => f.editing = None,
                KeyCode::Enter => {
                    let text = field.text.trim().to_string();
                    match f.focus {
                        5 => {
                            if TimeControl::parse_optional(&text).is_err() {
                                return Action::None;
                            }
                            c.clock = text;
                        }
                        6 => c.games_dir = (!text.is_empty()).then(|| text.into()),
                        7 => c.tablebases = (!text.is_empty()).then(|| text.into()),
                        _ => {}
                    }
                    f.editing = None;
                    return Action::Save;
                }
                _ => {
                    field.key(key);
                }
            }
            return Action::None;
        }
        let rows = SETTINGS.len();
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return Action::Back,
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
                        return Action::None;
                    }
                    8 => c.adjudicate = !c.adjudicate,
                    _ => c.book = !c.book,
                }
                return Action::Save;
            }
            _ => {}
        }
        Action::None
    }

    /// Draws the settings with the file they are kept in.
    pub fn draw(
        &self,
        frame: &mut Frame,
        area: Rect,
        c: &Config,
        path: Option<&Path>,
        error: Option<&str>,
    ) {
        let f = self;
        let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
        let values = [
            c.theme.name().to_string(),
            if c.ascii { "ASCII" } else { "Unicode" }.to_string(),
            yes(c.numbers),
            yes(c.flipped),
            c.variant.name().to_string(),
            c.clock.clone(),
            c.games_dir().display().to_string(),
            c.tablebases
                .as_ref()
                .map_or("tablebases/<variant>/ (default)".into(), |p| {
                    p.display().to_string()
                }),
            yes(c.adjudicate),
            yes(c.book),
        ];
        let mut lines = Vec::new();
        for (i, (label, value)) in SETTINGS.iter().zip(values).enumerate() {
            let value = match (&f.editing, i == f.focus) {
                (Some(t), true) => format!("{}▏", t.text),
                _ => value,
            };
            lines.push(menu_line(format!("{label:<24} {value}"), i == f.focus));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(
            "↑↓ choose · ←→/Enter change (text: type, Enter keeps, Esc cancels) · Esc back",
        ));
        match (path, error) {
            (_, Some(e)) => lines.push(Line::from(e.to_string())),
            (Some(p), None) => lines.push(Line::from(format!("Saved in {}", p.display()))),
            (None, None) => lines.push(Line::from("Not saved (no settings file)")),
        }
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" Settings ")),
            centered(area, 90, 16),
        );
    }
}
