//! Drawing the app: the screen shown, and the overlays over it (the keys, who is online).

use super::app::{App, Screen};
use super::board::{Glyphs, Palette};
use super::home;
use super::play;
use super::widgets::centered;
use crate::clock::Tick;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

/// Draws the app at time `now` (clocks run between moves). Records where the board went, for
/// mouse clicks.
pub fn draw(frame: &mut Frame, app: &mut App, now: Tick) {
    let area = frame.area();
    let palette = Palette::new(app.config.theme, app.depth);
    let glyphs = Glyphs::new(app.config.ascii || app.ascii, palette.colored());
    let numbers = app.config.numbers;
    match &mut app.screen {
        Screen::Home(sel) => {
            let online = app.presence.as_ref().map(|t| t.lobby().online().len());
            let for_me = app.server.as_ref().map_or(0, |(lobby, who)| {
                lobby
                    .challenges(&who.name)
                    .iter()
                    .filter(|c| c.to.as_deref() == Some(who.name.as_str()))
                    .count()
            });
            let online = online.map(|n| (n, for_me));
            home::draw(
                frame,
                area,
                *sel,
                app.server.is_some(),
                app.config_error.as_deref(),
                app.notice.as_deref(),
                online,
            )
        }
        Screen::NewGame(f) => f.draw(frame, area),
        Screen::Load(f) => f.draw(frame, area),
        Screen::Settings(f) => f.draw(
            frame,
            area,
            &app.config,
            app.config_path.as_deref(),
            app.config_error.as_deref(),
        ),
        Screen::Play(p) => play::draw(frame, area, p, palette, glyphs, numbers, now),
        Screen::Club(c) => c.draw(frame, area, glyphs.is_ascii()),
        Screen::Lobby(l) => l.draw(frame, area),
    }
    if app.help {
        help(frame, area);
    }
    if let (true, Some(t)) = (app.online, &app.presence) {
        online(frame, area, &t.lobby().online());
    }
}

/// The keys, shown over everything with `?`.
pub const HELP: &[(&str, &str)] = &[
    ("32-28, 28x19, 28x19x10", "type a move; Enter plays it"),
    ("32 / 32- then Enter", "plays the only move from 32"),
    ("Tab", "completes a typed move"),
    ("arrows or h j k l", "move the cursor"),
    ("Enter / Space / click", "pick a piece, then its target"),
    ("Tab (choosing)", "next capture route to the same square"),
    ("Esc", "drop the selection or the typed text"),
    ("f / :flip", "turn the board"),
    ("n / :numbers", "square numbers on/off"),
    ("[ ] { }", "step back/on, first/last"),
    (
        "a / :analyse [hub:cmd]",
        "analysis of the shown position on/off",
    ),
    (
        "r / :review [secs|off]",
        "judge every move: graph, errors, better moves",
    ),
    (
        "v / :verdict",
        "the arbiter's verdict: tables and move limits",
    ),
    ("PgUp PgDn", "scroll the move list"),
    (
        ":draw :accept :decline",
        "draw offers (and tablebase results)",
    ),
    (":resign :takeback", "resign; ask to take back (casual)"),
    (":pause", "pause/resume the clock (casual)"),
    (":save [file]", "save as PDN"),
    (":continue", "play on from the shown position"),
    (
        ":theme wood|green|blue|mono",
        "board colours; :ascii pieces",
    ),
    (":new  q / :quit", "new game; leave (the game is saved)"),
];

/// Who is online on the club server, over everything.
fn online(frame: &mut Frame, area: Rect, people: &[crate::lobby::Presence]) {
    let lines = people.iter().map(|p| {
        let name = if p.guest {
            format!("{} (guest)", p.name)
        } else {
            p.name.clone()
        };
        format!("{name:<24} {}", p.doing)
    });
    overlay(frame, area, " Online ", 90, lines);
}

fn help(frame: &mut Frame, area: Rect) {
    let lines = HELP.iter().map(|(k, v)| format!("{k:<28} {v}"));
    overlay(frame, area, " Keys ", 72, lines);
}

/// A box of lines over everything, closed by any key.
fn overlay(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    width: u16,
    rows: impl Iterator<Item = String>,
) {
    let mut lines: Vec<Line> = rows.map(Line::from).collect();
    lines.push(Line::from(""));
    lines.push(Line::from("Any key closes this."));
    let r = centered(area, width, lines.len() as u16 + 2);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title.to_string())),
        r,
    );
}
