//! Drawing the screens from the state (nothing here changes the game).

use super::app::{
    App, HOME, LoadForm, NEW_GAME_FIELDS, NewGameForm, PlayScreen, SETTINGS, Screen, SettingsForm,
};
use super::board::{BoardView, Cell, Glyphs, Palette};
use super::widgets::{Fields, centered, field_form, form, menu_line};
use crate::clock::{Tick, display};
use crate::config::Config;
use crate::engine::analysis::Analyst;
use crate::play::Offer;
use crate::rules::notation::move_text;
use crate::rules::piece::Color as Side;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use std::path::Path;

/// Width the side panel needs at least.
const PANEL: u16 = 26;

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
            home(
                frame,
                area,
                *sel,
                app.server.is_some(),
                app.config_error.as_deref(),
                app.notice.as_deref(),
                online,
            )
        }
        Screen::NewGame(f) => new_game(frame, area, f),
        Screen::Load(f) => load(frame, area, f),
        Screen::Settings(f) => settings(
            frame,
            area,
            f,
            &app.config,
            app.config_path.as_deref(),
            app.config_error.as_deref(),
        ),
        Screen::Play(p) => play(frame, area, p, palette, glyphs, numbers, now),
        Screen::Club(c) => c.draw(frame, area),
        Screen::Lobby(l) => l.draw(frame, area),
    }
    if app.help {
        help(frame, area);
    }
    if let (true, Some(t)) = (app.online, &app.presence) {
        online(frame, area, &t.lobby().online());
    }
}

fn too_small(frame: &mut Frame, area: Rect, need: (u16, u16)) {
    let text = format!(
        "Please enlarge the terminal: this needs at least {}×{} (it is {}×{}).",
        need.0, need.1, area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn home(
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

fn new_game(frame: &mut Frame, area: Rect, f: &NewGameForm) {
    let values = [
        format!("◂ {} ▸", f.variant.name()),
        format!("◂ {} ▸", f.white),
        format!("◂ {} ▸", f.black),
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

fn load(frame: &mut Frame, area: Rect, f: &LoadForm) {
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

fn settings(
    frame: &mut Frame,
    area: Rect,
    f: &SettingsForm,
    c: &Config,
    path: Option<&Path>,
    error: Option<&str>,
) {
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

fn play(
    frame: &mut Frame,
    area: Rect,
    p: &mut PlayScreen,
    palette: Palette,
    glyphs: Glyphs,
    numbers: bool,
    now: Tick,
) {
    let variant = p.live.game().variant();
    let n = (variant.geometry().width * 2) as u16;
    let need = (n * 3 + 2 + PANEL, n + 2 + 2);
    let body_h = area.height.saturating_sub(2);
    let Some(cell) = Cell::fit(n, area.width.saturating_sub(PANEL), body_h) else {
        p.board_area = None;
        too_small(frame, area, need);
        return;
    };
    let (bw, bh) = cell.board_size(n);
    let [body, message, input] = Layout::vertical([
        Constraint::Min(bh),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [board_area, panel] =
        Layout::horizontal([Constraint::Length(bw), Constraint::Min(PANEL)]).areas(body);
    let board_rect = Rect::new(board_area.x, board_area.y, bw, bh);
    p.board_area = Some((board_rect, cell));
    let shown = p.shown();
    let targets = p.targets();
    let last = p.last_route();
    let view = BoardView {
        position: &shown,
        flipped: p.flipped,
        numbers,
        cursor: Some(p.cursor),
        selected: p.selected,
        targets: &targets,
        last: &last,
        palette,
        glyphs,
        cell,
    };
    frame.render_widget(view, board_rect);
    side_panel(frame, panel, p, glyphs, now);
    frame.render_widget(
        Paragraph::new(p.message.clone()).style(Style::default().add_modifier(Modifier::BOLD)),
        message,
    );
    let completions = p.completions();
    let prompt = if p.input.is_empty() {
        "> (type a move or :command, ? for keys)".to_string()
    } else if completions.is_empty() || p.input.starts_with(':') {
        format!("> {}▏", p.input)
    } else {
        let shown: Vec<&str> = completions.iter().take(8).map(String::as_str).collect();
        format!("> {}▏   {}", p.input, shown.join(" "))
    };
    frame.render_widget(Paragraph::new(prompt), input);
}

fn side_panel(frame: &mut Frame, area: Rect, p: &PlayScreen, glyphs: Glyphs, now: Tick) {
    let live = &p.live;
    let pos = &p.shown();
    let mut lines = Vec::new();
    let kind = if live.options().casual {
        "casual"
    } else {
        "tournament"
    };
    let tc = live
        .clock()
        .map_or("no clock".to_string(), |c| c.control().to_string());
    lines.push(Line::from(Span::styled(
        format!("{} draughts", capitalize(live.game().variant().name())),
        Style::default().add_modifier(Modifier::BOLD),
    )));
    lines.push(Line::from(format!("{kind} · {tc}")));
    lines.push(Line::from(""));
    let first = live.game().variant().rules().first_player;
    for side in [first, first.opposite()] {
        let glyph = glyphs.pieces[side.index()];
        let name = live.tag(if side == Side::White {
            "White"
        } else {
            "Black"
        });
        let name = name.filter(|n| *n != "?").unwrap_or("");
        let mut text = format!("{glyph} {:<5} {name}", side.to_string());
        if let Some(c) = live.clock() {
            let left = c.remaining(side, now);
            let (stage, to_go) = c.stage(side);
            let mut clock = display(left);
            if c.control().stages().len() > 1 || to_go.is_some() {
                clock.push_str(&format!(" s{stage}"));
                if let Some(m) = to_go {
                    clock.push_str(&format!(" ({m} to go)"));
                }
            }
            text = format!("{text}  {clock}");
        }
        let to_move = live.outcome().is_none() && pos.side_to_move() == side;
        let style = if to_move {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        let marker = if to_move { "▶ " } else { "  " };
        lines.push(Line::from(Span::styled(format!("{marker}{text}"), style)));
    }
    lines.push(Line::from(""));
    let status = if let Some(e) = live.ending() {
        format!("Over: {e}")
    } else if p.view.is_some() {
        "Stepping through the record".into()
    } else if live.clock().is_some_and(|c| c.is_paused()) {
        "Clock paused".into()
    } else if p.thinking.is_some() || p.asking.is_some() {
        format!("{} (engine) is thinking…", pos.side_to_move())
    } else {
        format!("{} to move", pos.side_to_move())
    };
    lines.push(Line::from(status));
    match live.offer() {
        Some(Offer::Draw(by)) => lines.push(Line::from(format!("{by} offers a draw"))),
        Some(Offer::Takeback(by)) => lines.push(Line::from(format!("{by} asks for a takeback"))),
        None => {}
    }
    if let (Some((_, words)), None) = (live.proposal(), live.outcome()) {
        lines.push(Line::from(words.clone()));
    }
    if let Some(r) = &p.recorded_result {
        lines.push(Line::from(format!("Recorded result: {r}")));
    }
    if let Some(a) = &p.analysis {
        let width = (area.width as usize).saturating_sub(4);
        let who = match &a.analyst {
            Analyst::BuiltIn => "engine".to_string(),
            Analyst::Hub(cmd) => cmd.split_whitespace().next().unwrap_or("hub").to_string(),
        };
        let head = match (&a.latest, &a.error) {
            (_, Some(e)) => format!("Analysis ({who}) failed: {e}"),
            (Some(r), None) => format!(
                "Analysis ({who}): {} · depth {} · {}k nps",
                r.score,
                r.depth,
                r.nps / 1000
            ),
            (None, None) => format!("Analysis ({who}): thinking…"),
        };
        lines.push(Line::from(Span::styled(
            head,
            Style::default().add_modifier(Modifier::BOLD),
        )));
        if let Some(r) = &a.latest {
            let mut pv = String::from("  ");
            for m in &r.pv {
                if pv.len() + m.len() + 1 > width {
                    pv.push('…');
                    break;
                }
                pv.push_str(m);
                pv.push(' ');
            }
            lines.push(Line::from(pv.trim_end().to_string()));
        }
        if let Some(v) = p.tablebase_verdict() {
            lines.push(Line::from(v));
        }
    }
    lines.push(Line::from(""));
    let header = lines.len();
    let moves = move_lines(p);
    let room = (area.height as usize).saturating_sub(header + 2);
    let current_line = p
        .view
        .unwrap_or(live.game().moves().len())
        .saturating_sub(1)
        / 2;
    let max_start = moves.len().saturating_sub(room);
    let auto = (current_line + 1).saturating_sub(room);
    let start = auto.min(max_start).saturating_sub(p.scroll);
    lines.extend(moves.into_iter().skip(start).take(room));
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Game ")),
        area,
    );
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The move list, a numbered line per move pair, the shown ply highlighted.
fn move_lines(p: &PlayScreen) -> Vec<Line<'static>> {
    let game = p.live.game();
    let start = game.start();
    let first = start.variant().rules().first_player;
    let offset = usize::from(start.side_to_move() != first);
    let shown_ply = p.view.unwrap_or(game.moves().len());
    let mut lines: Vec<Vec<Span<'static>>> = Vec::new();
    let times = p.live.times();
    for (i, (pos, mv)) in game.positions().zip(game.moves()).enumerate() {
        let slot = i + offset;
        if slot.is_multiple_of(2) || lines.is_empty() {
            let number = slot / 2 + 1;
            let lead = if slot.is_multiple_of(2) {
                format!("{number:>3}. ")
            } else {
                format!("{number:>3}. ...     ")
            };
            lines.push(vec![Span::raw(lead)]);
        }
        let mut text = move_text(pos, mv);
        if let Some(spent) = times.get(i).and_then(|t| t.spent) {
            text = format!("{text} ({}s)", spent.as_secs());
        }
        let style = if i + 1 == shown_ply {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let line = lines.last_mut().expect("a line was pushed for this move");
        line.push(Span::styled(format!("{text:<9}"), style));
        line.push(Span::raw(" "));
    }
    lines.into_iter().map(Line::from).collect()
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
