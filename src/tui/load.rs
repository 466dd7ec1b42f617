//! The load-game form: a PDN file's path, then a choice among its games.

use super::setup::load_pdn;
use super::widgets::{TextField, centered, form, menu_line};
use crate::rules::pdn::PdnGame;
use crate::rules::variant::Variant;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use std::path::Path;

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

/// What a key on the form asks of the app.
pub enum Action {
    /// Nothing beyond the form itself.
    None,
    /// Back to the home screen.
    Back,
    /// Open this game to step through and play on.
    Open(Box<PdnGame>),
}

impl LoadForm {
    /// Handles a key: the file's path, then the choice among its games; `variant` is for games
    /// without a GameType tag.
    pub fn key(&mut self, key: KeyEvent, variant: Variant) -> Action {
        let f = self;
        if !f.games.is_empty() {
            match key.code {
                KeyCode::Esc => f.games.clear(),
                KeyCode::Up => f.selected = f.selected.saturating_sub(1),
                KeyCode::Down => f.selected = (f.selected + 1).min(f.games.len() - 1),
                KeyCode::Enter => return Action::Open(Box::new(f.games[f.selected].clone())),
                _ => {}
            }
            return Action::None;
        }
        match key.code {
            KeyCode::Esc => return Action::Back,
            KeyCode::Enter => match load_pdn(Path::new(f.path.text.trim()), variant) {
                Ok(mut games) if games.len() == 1 => {
                    return Action::Open(Box::new(games.remove(0)));
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
        Action::None
    }

    /// Draws the form and the games found.
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let f = self;
        let mut lines = vec![
            Line::from("PDN file:"),
            Line::from(format!("{}▏", f.path.text)),
            Line::from(""),
        ];
        if f.games.is_empty() {
            lines.push(Line::from("Enter loads · Esc back"));
        } else {
            lines.push(Line::from(format!(
                "{} games — ↑↓ choose, Enter opens, Esc back",
                f.games.len()
            )));
            let height = area.height.saturating_sub(10) as usize;
            let start = f.selected.saturating_sub(height.saturating_sub(1));
            for (i, g) in f.games.iter().enumerate().skip(start).take(height) {
                let label = format!(
                    "{:>3}. {} – {} {} ({})",
                    i + 1,
                    g.tag("White").unwrap_or("?"),
                    g.tag("Black").unwrap_or("?"),
                    g.tag("Result").unwrap_or("*"),
                    g.tag("Event").unwrap_or(""),
                );
                lines.push(menu_line(label, i == f.selected));
            }
        }
        let r = centered(area, 78, area.height.saturating_sub(2));
        form(frame, r, " Load game ", lines, f.error.as_deref());
    }
}
