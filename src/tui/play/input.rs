//! What the players do on the game screen: keys, `:`-commands, clicks, the cursor and picking,
//! and typed moves with their completion.

use super::screen::{PlayScreen, Step};
use crate::clock::Tick;
use crate::config::{Config, ThemeName};
use crate::play::Notice;
use crate::play::analysis::Analyst;
use crate::rules::board::Square;
use crate::rules::moves::Move;
use crate::rules::notation::{matching_moves, move_text, split_move_text};
use crate::tui::board::square_at;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use std::path::PathBuf;
use std::time::Duration;

/// What a key or command on the game screen asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing beyond the screen itself.
    None,
    /// Show the keys.
    Help,
    /// Leave the game (saved first when unfinished).
    Leave,
    /// Open the new-game form.
    NewGame,
    /// The settings changed (numbers, pieces, theme): save them.
    SaveConfig,
}

impl PlayScreen {
    /// Handles a key on the game screen: typing, the cursor, stepping, looks.
    pub fn key(&mut self, key: KeyEvent, now: Tick, config: &mut Config, remote: bool) -> Action {
        let p = self;
        if !p.input.is_empty() {
            match key.code {
                KeyCode::Enter => {
                    let text = std::mem::take(&mut p.input);
                    if let Some(cmd) = text.strip_prefix(':') {
                        return p.command(cmd.trim(), now, config, remote);
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
            return Action::None;
        }
        match key.code {
            KeyCode::Char(c @ ('0'..='9' | ':')) => p.input.push(c),
            KeyCode::Char('?') => return Action::Help,
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
                config.numbers = !config.numbers;
                return Action::SaveConfig;
            }
            KeyCode::Char('v') => p.message = p.verdict_message(),
            KeyCode::Char('r') => {
                let time = p.review.is_none().then_some(Duration::from_secs(1));
                p.message = p.start_review(time, remote);
            }
            KeyCode::Char('[') => p.step(Step::Prev),
            KeyCode::Char(']') => p.step(Step::Next),
            KeyCode::Char('{') | KeyCode::Home => p.step(Step::First),
            KeyCode::Char('}') | KeyCode::End => p.step(Step::Last),
            KeyCode::PageUp => p.scroll += 5,
            KeyCode::PageDown => p.scroll = p.scroll.saturating_sub(5),
            KeyCode::Char('q') => return Action::Leave,
            _ => {}
        }
        Action::None
    }

    /// Runs a `:`-command.
    /// Runs a `:`-command on the game screen.
    pub fn command(&mut self, cmd: &str, now: Tick, config: &mut Config, remote: bool) -> Action {
        let games_dir = config.games_dir();
        let (name, arg) = cmd
            .split_once(char::is_whitespace)
            .map_or((cmd, ""), |(n, a)| (n, a.trim()));
        match name {
            "q" | "quit" | "exit" => return Action::Leave,
            "help" => return Action::Help,
            "numbers" => {
                config.numbers = !config.numbers;
                return Action::SaveConfig;
            }
            "ascii" => {
                config.ascii = !config.ascii;
                return Action::SaveConfig;
            }
            "theme" => {
                return match ThemeName::ALL.iter().find(|t| t.name() == arg) {
                    Some(&t) => {
                        config.theme = t;
                        self.message = format!("Theme {arg}");
                        Action::SaveConfig
                    }
                    None => {
                        self.message = "Themes: wood, green, blue, mono".into();
                        Action::None
                    }
                };
            }
            "new" => return Action::NewGame,
            _ => {}
        }
        let p = self;
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
            "save" if remote && !arg.is_empty() => {
                "Over SSH games are saved to the club's games directory (:save alone)".into()
            }
            "analyse" | "analyze" if remote && arg.starts_with("hub:") => {
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
            "verdict" | "adjudicate" => p.verdict_message(),
            "review" => match arg {
                "off" => p.start_review(None, remote),
                "" => p.start_review(Some(Duration::from_secs(1)), remote),
                secs => match secs.parse::<f64>() {
                    Ok(s) if (0.05..=600.0).contains(&s) => {
                        p.start_review(Some(Duration::from_secs_f64(s)), remote)
                    }
                    _ => "Usage: :review [seconds a position, 0.05 to 600|off]".into(),
                },
            },
            "continue" => p.continue_here(now),
            "" => String::new(),
            other => format!("Unknown command :{other} (press ? for the list)"),
        };
        if !message.is_empty() {
            p.message = message;
        }
        Action::None
    }

    /// Handles a mouse event: a click picks a square, the wheel scrolls the move list.
    pub fn mouse(&mut self, ev: MouseEvent, now: Tick) {
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some((area, cell)) = self.board_area else {
                    return;
                };
                let variant = self.live.game().variant();
                if let Some(rc) = square_at(area, variant, cell, self.flipped, ev.column, ev.row) {
                    self.cursor = rc;
                    self.pick(now);
                }
            }
            MouseEventKind::ScrollUp => self.scroll += 1,
            MouseEventKind::ScrollDown => self.scroll = self.scroll.saturating_sub(1),
            _ => {}
        }
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
        let mut out: Vec<String> = crate::rules::notation::move_texts(pos)
            .into_iter()
            .flat_map(|(m, short)| [short, crate::rules::notation::long_text(&m)])
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
}
