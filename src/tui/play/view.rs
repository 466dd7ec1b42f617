//! Drawing the game screen (nothing here changes the game; only the board's place is
//! remembered for mouse clicks).

use super::screen::PlayScreen;
use crate::clock::{Tick, display};
use crate::play::Offer;
use crate::play::analysis::Analyst;
use crate::rules::piece::Color as Side;
use crate::tui::board::{BoardView, Cell, Glyphs, Palette};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;
use ratatui::widgets::{Paragraph, Wrap};

/// Width the side panel needs at least.
const PANEL: u16 = 26;

fn too_small(frame: &mut Frame, area: Rect, need: (u16, u16)) {
    let text = format!(
        "Please enlarge the terminal: this needs at least {}×{} (it is {}×{}).",
        need.0, need.1, area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

/// Draws the game screen: board, side panel, message and input line; remembers where the
/// board went, for mouse clicks.
pub fn draw(
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
    let shown_ply = p.view.unwrap_or(p.live.game().moves().len());
    let mut targets = p.targets();
    if targets.is_empty() {
        // The reviewed engine's best move in the shown position.
        let best = p.current_review().and_then(|r| r.best_in(shown_ply));
        targets = best.map(|m| m.route()).unwrap_or_default();
    }
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
    let panel = match p.current_review() {
        Some(r) if panel.height >= super::review::HEIGHT + 12 => {
            let [game, review] = Layout::vertical([
                Constraint::Min(12),
                Constraint::Length(super::review::HEIGHT),
            ])
            .areas(panel);
            // Without colours (NO_COLOR) the graph is drawn in plain characters too: its marks
            // then need no colour or style to be told apart.
            r.draw(
                frame,
                review,
                shown_ply,
                glyphs.is_ascii() || !palette.colored(),
            );
            game
        }
        _ => panel,
    };
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

fn side_panel(frame: &mut Frame, area: Rect, p: &mut PlayScreen, glyphs: Glyphs, now: Tick) {
    let moves = move_lines(p);
    let p = &*p;
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
fn move_lines(p: &mut PlayScreen) -> Vec<Line<'static>> {
    let signs: Vec<Option<&'static str>> = match p.current_review() {
        Some(r) => (0..p.live.game().moves().len())
            .map(|i| r.sign(i))
            .collect(),
        None => Vec::new(),
    };
    let game = p.live.game();
    let texts = p.texts.update(game);
    let start = game.start();
    let first = start.variant().rules().first_player;
    let offset = usize::from(start.side_to_move() != first);
    let shown_ply = p.view.unwrap_or(game.moves().len());
    let mut lines: Vec<Vec<Span<'static>>> = Vec::new();
    let times = p.live.times();
    for (i, text) in texts.iter().enumerate() {
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
        let mut text = text.clone();
        if let Some(sign) = signs.get(i).copied().flatten() {
            text.push_str(sign);
        }
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
