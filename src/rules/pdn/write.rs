//! Writing PDN as the standard asks: tags, numbered moves without spaces or leading zeros,
//! ambiguous captures in long form, comments, annotations, variations and the result.
#![forbid(unsafe_code)]

use super::record::{Line, PdnGame, result_text};
use crate::rules::board::Position;
use crate::rules::notation::move_text;

/// Collects words and breaks lines before 80 columns.
struct Wrapper {
    out: String,
    column: usize,
}

impl Wrapper {
    fn word(&mut self, w: &str) {
        let len = w.chars().count();
        if self.column > 0 && self.column + 1 + len > 79 {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(w);
        self.column += len;
    }

    fn comment(&mut self, c: &str) {
        // Braces cannot be escaped inside a comment; keep the text readable without them.
        let clean: String = c
            .chars()
            .map(|ch| if ch == '}' { ')' } else { ch })
            .collect();
        self.word("{");
        // A command such as `[%eval -1.25]` stays on one line, as programs that read it expect.
        let mut command = String::new();
        for w in clean.split_whitespace() {
            if command.is_empty() && !w.starts_with("[%") {
                self.word(w);
                continue;
            }
            if !command.is_empty() {
                command.push(' ');
            }
            command.push_str(w);
            if w.ends_with(']') {
                self.word(&std::mem::take(&mut command));
            }
        }
        if !command.is_empty() {
            self.word(&command);
        }
        self.word("}");
    }
}

/// The move number of the ply `ply` of a game from `start`, counted from the game's first mover.
pub fn move_number(start: &Position, ply: usize) -> usize {
    let first_offset = usize::from(start.side_to_move() != start.variant().rules().first_player);
    (ply + first_offset) / 2 + 1
}

fn write_line(w: &mut Wrapper, start: &Position, from: &Position, first_ply: usize, line: &Line) {
    for c in &line.intro {
        w.comment(c);
    }
    let first = start.variant().rules().first_player;
    let mut pos = *from;
    let mut need_number = true;
    for (i, m) in line.moves.iter().enumerate() {
        let ply = first_ply + i;
        let n = move_number(start, ply);
        let text = move_text(&pos, &m.mv);
        if pos.side_to_move() == first {
            w.word(&format!("{n}. {text}"));
        } else if need_number {
            w.word(&format!("{n}... {text}"));
        } else {
            w.word(&text);
        }
        need_number = false;
        for (k, a) in m.annotations.iter().enumerate() {
            if a.starts_with('$') {
                w.word(a);
            } else if k == 0 {
                // Strength signs stick to the move.
                w.out.push_str(a);
                w.column += a.len();
            } else {
                // A further one in parentheses, or it would read back glued to the first.
                w.word(&format!("({a})"));
            }
        }
        for c in &m.comments {
            w.comment(c);
            need_number = true;
        }
        for v in &m.variations {
            w.word("(");
            write_line(w, start, &pos, ply, v);
            w.word(")");
            need_number = true;
        }
        pos = pos.play(&m.mv);
    }
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PDN text, ending with a blank line.
pub fn write_game(game: &PdnGame) -> String {
    let mut out = String::new();
    for (name, value) in &game.tags {
        // Line breaks cannot be written inside a tag value.
        let value = value.replace(['\r', '\n'], " ");
        out.push_str(&format!("[{name} \"{}\"]\n", quote(&value)));
    }
    let mut w = Wrapper {
        out: String::new(),
        column: 0,
    };
    write_line(&mut w, &game.start, &game.start, 0, &game.line);
    w.word(result_text(game.result, game.variant));
    out.push_str(&w.out);
    out.push_str("\n\n");
    out
}

/// Several games, one after another.
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a PdnGame>) -> String {
    games.into_iter().map(write_game).collect()
}

impl std::fmt::Display for PdnGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_game(self))
    }
}
