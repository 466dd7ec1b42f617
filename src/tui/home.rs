//! The home screen: the menu (new game, load or lobby, club, settings, quit), the settings
//! file's problem and notices, and on the club server who is online and challenges waiting.

use super::widgets::{centered, menu_line};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

/// Rows of the home menu.
pub const HOME: [&str; 5] = ["New game", "Load game", "Club", "Settings", "Quit"];

/// What a key on the home screen asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing beyond the screen itself.
    None,
    /// Open the menu's entry with this index.
    Open(usize),
    /// Open the club server's lobby.
    Lobby,
    /// Show who is online.
    Online,
    /// Show the keys.
    Help,
    /// End the program.
    Quit,
}

/// Handles a key on the home menu whose highlighted row is `sel`; `server` and `presence` say
/// whether this is a session of the club server and whether it is listed as online.
pub fn key(sel: &mut usize, key: KeyEvent, server: bool, presence: bool) -> Action {
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => *sel = (*sel + HOME.len() - 1) % HOME.len(),
        KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => *sel = (*sel + 1) % HOME.len(),
        KeyCode::Char('n') => return Action::Open(0),
        KeyCode::Char('l') if server => return Action::Lobby,
        KeyCode::Char('l') => return Action::Open(1),
        KeyCode::Char('c') => return Action::Open(2),
        KeyCode::Char('s') => return Action::Open(3),
        KeyCode::Char('o') if presence => return Action::Online,
        KeyCode::Char('q') | KeyCode::Esc => return Action::Quit,
        KeyCode::Char('?') => return Action::Help,
        KeyCode::Enter | KeyCode::Char(' ') => {
            // On the club server the lobby takes the place of loading files.
            return if *sel == 1 && server {
                Action::Lobby
            } else {
                Action::Open(*sel)
            };
        }
        _ => {}
    }
    Action::None
}

/// Draws the home menu with its notices.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    sel: usize,
    server: bool,
    error: Option<&str>,
    notice: Option<&str>,
    online: Option<(usize, usize)>,
) {
    let mut lines = vec![
        Line::from(Span::styled(
            "draughts",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from("International · Frisian · English"),
        Line::from(""),
    ];
    for (i, item) in HOME.iter().enumerate() {
        // On the club server the lobby takes the place of loading files.
        let item = if server && i == 1 { "Lobby" } else { item };
        lines.push(menu_line(item.to_string(), i == sel));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(
        "↑↓ choose · Enter open · n l c s · ? keys · q quit",
    ));
    if let Some((n, for_me)) = online {
        lines.push(Line::from(format!("{n} online · o: who is online")));
        if for_me > 0 {
            lines.push(Line::from(format!(
                "{for_me} challenge(s) for you: l opens the lobby"
            )));
        }
    }
    if let Some(e) = error {
        lines.push(Line::from(""));
        lines.push(Line::from(format!("Settings file problem: {e}")));
        lines.push(Line::from(
            "Running on defaults; the file is left as it is.",
        ));
    }
    if let Some(n) = notice {
        lines.push(Line::from(""));
        lines.push(Line::from(n.to_string()));
    }
    let box_area = centered(area, 64, lines.len() as u16 + 2);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" draughts ")),
        box_area,
    );
}
