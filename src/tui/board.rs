//! The board widget: dark and light squares, men and kings, highlights, cursor and square
//! numbers, in colour or without, Unicode or ASCII, at any cell size.

use crate::config::ThemeName;
use crate::rules::board::{Position, Square};
use crate::rules::piece::Color as Side;
use crate::rules::piece::{Kind, Piece};
use crate::rules::variant::Variant;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorDepth {
    /// None (`NO_COLOR`): shapes and brackets only.
    None,
    /// The 16 ANSI colours.
    Ansi16,
    /// The 256-colour palette.
    Indexed256,
    /// 24-bit colour.
    TrueColor,
}

impl ColorDepth {
    /// Reads `NO_COLOR`, `COLORTERM` and `TERM` the way terminal programs agree on.
    pub fn detect(get: impl Fn(&str) -> Option<String>) -> ColorDepth {
        if get("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return ColorDepth::None;
        }
        let colorterm = get("COLORTERM").unwrap_or_default().to_ascii_lowercase();
        if colorterm.contains("truecolor") || colorterm.contains("24bit") {
            return ColorDepth::TrueColor;
        }
        let term = get("TERM").unwrap_or_default();
        if term == "dumb" {
            ColorDepth::None
        } else if term.contains("256") {
            ColorDepth::Indexed256
        } else {
            ColorDepth::Ansi16
        }
    }
}

/// The colours of a theme at a colour depth; `None` leaves the terminal's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Playable squares.
    pub dark: Option<Color>,
    /// The other squares.
    pub light: Option<Color>,
    /// White's pieces.
    pub white: Option<Color>,
    /// Black's pieces.
    pub black: Option<Color>,
    /// The squares of the last move.
    pub last: Option<Color>,
    /// The selected piece.
    pub selected: Option<Color>,
    /// Where the selected piece can go.
    pub target: Option<Color>,
    /// Square numbers.
    pub number: Option<Color>,
}

impl Palette {
    /// The palette of `theme` at `depth`.
    pub fn new(theme: ThemeName, depth: ColorDepth) -> Palette {
        let none = Palette {
            dark: None,
            light: None,
            white: None,
            black: None,
            last: None,
            selected: None,
            target: None,
            number: None,
        };
        if depth == ColorDepth::None || theme == ThemeName::Mono {
            return none;
        }
        // (dark, light, last, selected, target) as RGB, 256-colour index, and ANSI 16.
        let (rgb, idx, ansi): ([u32; 5], [u8; 5], [Color; 5]) = match theme {
            ThemeName::Wood => (
                [0x8b5a2b, 0xe8d0aa, 0xb5803f, 0x3f6fb5, 0x4f8f3f],
                [94, 223, 136, 67, 65],
                [
                    Color::Yellow,
                    Color::Gray,
                    Color::LightYellow,
                    Color::Blue,
                    Color::Green,
                ],
            ),
            ThemeName::Green => (
                [0x4a7a3a, 0xf0ecd0, 0x7aa34a, 0x3a5fa0, 0xa08a2a],
                [65, 230, 107, 61, 136],
                [
                    Color::Green,
                    Color::Gray,
                    Color::LightGreen,
                    Color::Blue,
                    Color::Yellow,
                ],
            ),
            ThemeName::Blue => (
                [0x3a5a8a, 0xd0d8e0, 0x5a7aaa, 0x8a3a5a, 0x3a8a6a],
                [60, 253, 67, 132, 72],
                [
                    Color::Blue,
                    Color::Gray,
                    Color::LightBlue,
                    Color::Magenta,
                    Color::Green,
                ],
            ),
            ThemeName::Mono => unreachable!("handled above"),
        };
        let pick = |i: usize| {
            Some(match depth {
                ColorDepth::TrueColor => Color::from_u32(rgb[i]),
                ColorDepth::Indexed256 => Color::Indexed(idx[i]),
                _ => ansi[i],
            })
        };
        let (white, black) = match depth {
            ColorDepth::TrueColor => (Color::Rgb(250, 248, 240), Color::Rgb(20, 20, 20)),
            ColorDepth::Indexed256 => (Color::Indexed(231), Color::Indexed(232)),
            _ => (Color::White, Color::Black),
        };
        Palette {
            dark: pick(0),
            light: pick(1),
            white: Some(white),
            black: Some(black),
            last: pick(2),
            selected: pick(3),
            target: pick(4),
            number: Some(Color::DarkGray),
        }
    }

    /// Whether the palette has colours.
    pub fn colored(&self) -> bool {
        self.dark.is_some()
    }
}

/// The characters pieces and marks are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    /// White man, black man, white king, black king.
    pub pieces: [&'static str; 4],
    /// An empty playable square.
    pub empty: &'static str,
    /// An empty square the selected piece can reach.
    pub target: &'static str,
}

impl Glyphs {
    /// The glyphs for ASCII or Unicode, with or without colour. Without colour, the two sides
    /// must differ in shape.
    pub fn new(ascii: bool, colored: bool) -> Glyphs {
        match (ascii, colored) {
            (true, _) => Glyphs {
                pieces: ["w", "b", "W", "B"],
                empty: ".",
                target: "*",
            },
            (false, true) => Glyphs {
                pieces: ["●", "●", "♛", "♛"],
                empty: " ",
                target: "∙",
            },
            (false, false) => Glyphs {
                pieces: ["○", "●", "♕", "♛"],
                empty: "·",
                target: "∗",
            },
        }
    }

    /// Whether only ASCII is drawn (so graphs too keep to it).
    pub fn is_ascii(&self) -> bool {
        self.pieces.iter().all(|p| p.is_ascii())
    }

    fn piece(&self, p: Piece) -> &'static str {
        let i = match (p.color, p.kind) {
            (Side::White, Kind::Man) => 0,
            (Side::Black, Kind::Man) => 1,
            (Side::White, Kind::King) => 2,
            (Side::Black, Kind::King) => 3,
        };
        self.pieces[i]
    }
}

/// Width and height of one square in terminal cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Columns.
    pub w: u16,
    /// Rows.
    pub h: u16,
}

impl Cell {
    /// The largest square size (up to 4 rows) that fits `n`×`n` squares and a frame into
    /// `width`×`height`; `None` when even the smallest does not fit.
    pub fn fit(n: u16, width: u16, height: u16) -> Option<Cell> {
        let rows = height.saturating_sub(2) / n;
        let cols = width.saturating_sub(2) / n;
        let h = rows.min(cols / 2).min(4);
        if h >= 2 {
            Some(Cell { w: 2 * h, h })
        } else if rows >= 1 && cols >= 3 {
            Some(Cell { w: 3, h: 1 })
        } else {
            None
        }
    }

    /// The board's size with its frame.
    pub fn board_size(self, n: u16) -> (u16, u16) {
        (self.w * n + 2, self.h * n + 2)
    }
}

/// Row and file on the screen of a board row and file, after flipping.
fn oriented(n: u32, row: u32, file: u32, flipped: bool) -> (u32, u32) {
    if flipped {
        (n - 1 - row, n - 1 - file)
    } else {
        (row, file)
    }
}

/// The board row and file under a terminal position, for mouse clicks.
pub fn square_at(
    area: Rect,
    variant: Variant,
    cell: Cell,
    flipped: bool,
    x: u16,
    y: u16,
) -> Option<(u32, u32)> {
    let n = variant.geometry().width * 2;
    let (bx, by) = (area.x + 1, area.y + 1);
    if x < bx || y < by {
        return None;
    }
    let (col, row) = (u32::from((x - bx) / cell.w), u32::from((y - by) / cell.h));
    if col >= n || row >= n {
        return None;
    }
    Some(oriented(n, row, col, flipped))
}

/// A board to draw.
pub struct BoardView<'a> {
    /// The position shown.
    pub position: &'a Position,
    /// Seen from Black's side.
    pub flipped: bool,
    /// Square numbers shown.
    pub numbers: bool,
    /// The cursor (board row and file).
    pub cursor: Option<(u32, u32)>,
    /// The selected piece's square.
    pub selected: Option<Square>,
    /// Squares to mark as targets.
    pub targets: &'a [Square],
    /// Squares of the last move (or the route being chosen).
    pub last: &'a [Square],
    /// Colours.
    pub palette: Palette,
    /// Characters.
    pub glyphs: Glyphs,
    /// Square size.
    pub cell: Cell,
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = self.position.variant().geometry();
        let n = g.width * 2;
        let (bw, bh) = self.cell.board_size(n as u16);
        let area = Rect {
            width: bw.min(area.width),
            height: bh.min(area.height),
            ..area
        };
        if area.width < bw || area.height < bh {
            return;
        }
        let frame = ratatui::widgets::Block::bordered();
        frame.render(area, buf);
        for row in 0..n {
            for file in 0..n {
                let (sr, sf) = oriented(n, row, file, self.flipped);
                let x = area.x + 1 + sf as u16 * self.cell.w;
                let y = area.y + 1 + sr as u16 * self.cell.h;
                self.square(buf, x, y, row, file);
            }
        }
    }
}

impl BoardView<'_> {
    fn square(&self, buf: &mut Buffer, x: u16, y: u16, row: u32, file: u32) {
        let g = self.position.variant().geometry();
        let Cell { w, h } = self.cell;
        let number = g.number_at(row, file);
        let square = number.and_then(|n| Square::new(u32::from(n), self.position.variant()));
        let p = &self.palette;
        let mut bg = if square.is_some() { p.dark } else { p.light };
        let mut style = Style::default();
        if let Some(sq) = square {
            if self.selected == Some(sq) {
                bg = p.selected.or(bg);
                if !p.colored() {
                    style = style.add_modifier(Modifier::REVERSED);
                }
            } else if self.targets.contains(&sq) {
                bg = p.target.or(bg);
            } else if self.last.contains(&sq) {
                bg = p.last.or(bg);
                if !p.colored() {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
            }
        }
        if let Some(bg) = bg {
            style = style.bg(bg);
        }
        for dy in 0..h {
            for dx in 0..w {
                buf[(x + dx, y + dy)].set_symbol(" ").set_style(style);
            }
        }
        let mid_y = y + h / 2;
        let mid_x = x + (w - 1) / 2 + u16::from(w > 3 && w % 2 == 0);
        let piece = square.and_then(|sq| self.position.piece_at(sq));
        let (text, fg) = match (piece, square) {
            (Some(pc), _) => (
                self.glyphs.piece(pc),
                if pc.color == Side::White {
                    p.white
                } else {
                    p.black
                },
            ),
            (None, Some(sq)) if self.targets.contains(&sq) => (self.glyphs.target, p.white),
            (None, Some(_)) => (self.glyphs.empty, p.number),
            (None, None) => (" ", None),
        };
        let mut piece_style = style;
        if let Some(fg) = fg {
            piece_style = piece_style.fg(fg);
        }
        if piece.is_some_and(|pc| pc.kind == Kind::King) {
            piece_style = piece_style.add_modifier(Modifier::BOLD);
        }
        let show_number = self.numbers && number.is_some();
        if show_number && h >= 2 {
            let label = number.map(|n| n.to_string()).unwrap_or_default();
            let mut ns = style;
            if let Some(c) = p.number {
                ns = ns.fg(c);
            }
            buf.set_string(x, y, &label, ns.add_modifier(Modifier::DIM));
        }
        if show_number && h == 1 && piece.is_none() {
            let label = number.map(|n| format!("{n:>2}")).unwrap_or_default();
            let mut ns = style;
            if let Some(c) = p.number {
                ns = ns.fg(c);
            }
            buf.set_string(x, y, &label, ns);
        } else {
            buf.set_string(mid_x, mid_y, text, piece_style);
        }
        if self.cursor == Some((row, file)) {
            let cs = style.add_modifier(Modifier::BOLD);
            buf.set_string(x, mid_y, "[", cs);
            buf.set_string(x + w - 1, mid_y, "]", cs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_depth_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            ColorDepth::detect(env(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")])),
            ColorDepth::None
        );
        assert_eq!(
            ColorDepth::detect(env(&[("NO_COLOR", ""), ("COLORTERM", "24bit")])),
            ColorDepth::TrueColor
        );
        assert_eq!(
            ColorDepth::detect(env(&[("TERM", "tmux-256color")])),
            ColorDepth::Indexed256
        );
        assert_eq!(
            ColorDepth::detect(env(&[("TERM", "xterm")])),
            ColorDepth::Ansi16
        );
        assert_eq!(
            ColorDepth::detect(env(&[("TERM", "dumb")])),
            ColorDepth::None
        );
    }

    #[test]
    fn cells_fit_the_space() {
        assert_eq!(Cell::fit(10, 42, 22), Some(Cell { w: 4, h: 2 }));
        assert_eq!(Cell::fit(10, 32, 12), Some(Cell { w: 3, h: 1 }));
        assert_eq!(Cell::fit(10, 31, 12), None);
        assert_eq!(Cell::fit(8, 200, 100), Some(Cell { w: 8, h: 4 }));
        assert_eq!(Cell::fit(10, 0, 0), None);
    }

    #[test]
    fn clicks_map_to_squares_both_ways_up() {
        let area = Rect::new(5, 2, 42, 22);
        let cell = Cell { w: 4, h: 2 };
        let v = Variant::International;
        assert_eq!(square_at(area, v, cell, false, 6, 3), Some((0, 0)));
        assert_eq!(square_at(area, v, cell, true, 6, 3), Some((9, 9)));
        assert_eq!(square_at(area, v, cell, false, 45, 22), Some((9, 9)));
        assert_eq!(square_at(area, v, cell, false, 46, 22), None);
        assert_eq!(square_at(area, v, cell, false, 5, 3), None);
    }
}
