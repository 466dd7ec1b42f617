//! A terminal screen as an SVG picture, for the guides (`scripts/doc-pictures.sh`).
//!
//! Reads what `tmux capture-pane -e -p` printed (the screen's text with its colour escapes),
//! replays it through a terminal emulator (vt100) and writes every cell as it shows: its
//! background as a rectangle, its text in a monospace font with its colour, weight and
//! underline. Written by hand because the picture must come from the real screen: a crate that
//! draws ratatui widgets itself would draw what we tell it, not what the terminal shows.
//!
//! Usage: `term_svg <capture-file> <columns> <rows> [title]` (the SVG on standard output).

use std::fmt::Write as _;
use vt100::Color;

/// The 16 ANSI colours as the common "xterm" palette shows them.
const ANSI: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

const FOREGROUND: (u8, u8, u8) = (229, 229, 229);
const BACKGROUND: (u8, u8, u8) = (24, 24, 24);
const CELL_W: f64 = 9.0;
const CELL_H: f64 = 19.0;

/// An xterm-256 colour as RGB: the 16 ANSI colours, the 6×6×6 cube, the grey ramp.
fn indexed(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI[i as usize],
        16..=231 => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        _ => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
    }
}

fn rgb(c: Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match c {
        Color::Default => default,
        Color::Idx(i) => indexed(i),
        Color::Rgb(r, g, b) => (r, g, b),
    }
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Cells of one style in a row.
struct Run {
    x: f64,
    cells: usize,
    sealed: bool,
    style: ((u8, u8, u8), bool, bool),
    text: String,
}

impl Run {
    fn write(&self, svg: &mut String, y: f64) -> std::fmt::Result {
        let trimmed = self.text.trim_end();
        if trimmed.is_empty() {
            return Ok(());
        }
        // Trailing blanks are dropped, and the length shrinks with them.
        let cells = self.cells - (self.text.chars().count() - trimmed.chars().count());
        let (fg, bold, underline) = self.style;
        let mut attrs = String::new();
        if bold {
            attrs.push_str(r#" font-weight="bold""#);
        }
        if underline {
            attrs.push_str(r#" text-decoration="underline""#);
        }
        let width = cells as f64 * CELL_W;
        writeln!(
            svg,
            r#"<text x="{}" y="{}" fill="{}"{attrs} textLength="{width}" lengthAdjust="spacingAndGlyphs" xml:space="preserve">{}</text>"#,
            self.x,
            y + CELL_H * 0.75,
            hex(fg),
            escape(trimmed)
        )
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, cols, rows, rest @ ..] = args.as_slice() else {
        return Err("usage: term_svg <capture-file> <columns> <rows> [title]".into());
    };
    let (cols, rows): (u16, u16) = (cols.parse()?, rows.parse()?);
    let title = rest.first().cloned().unwrap_or_default();
    let capture = std::fs::read(file)?;
    // capture-pane ends each row with a bare newline; a terminal needs the carriage return too.
    let mut bytes = Vec::with_capacity(capture.len() + rows as usize);
    // The capture's last row ends with a newline too, which would scroll the screen by one.
    let capture = capture.strip_suffix(b"\n").unwrap_or(&capture);
    for (i, line) in capture.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            bytes.extend_from_slice(b"\x1b[0m\r\n");
        }
        bytes.extend_from_slice(line);
    }
    let mut parser = vt100::Parser::new(rows, cols, 0);
    parser.process(&bytes);
    let screen = parser.screen();

    let (w, h) = (cols as f64 * CELL_W, rows as f64 * CELL_H);
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{}">"#,
        escape(&title)
    )?;
    writeln!(svg, "<title>{}</title>", escape(&title))?;
    writeln!(
        svg,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        hex(BACKGROUND)
    )?;
    writeln!(
        svg,
        r#"<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="15">"#
    )?;
    for row in 0..rows {
        let y = row as f64 * CELL_H;
        // Runs of cells with one style become one text element: fewer elements, and the
        // run's length is fixed to its cells, so the text stays on the grid in any font.
        let mut run: Option<Run> = None;
        for col in 0..cols {
            let Some(cell) = screen.cell(row, col) else {
                continue;
            };
            if cell.is_wide_continuation() {
                continue;
            }
            let (mut fg, mut bg) = (
                rgb(cell.fgcolor(), FOREGROUND),
                rgb(cell.bgcolor(), BACKGROUND),
            );
            if cell.inverse() {
                std::mem::swap(&mut fg, &mut bg);
            }
            let x = col as f64 * CELL_W;
            let cells = if cell.is_wide() { 2 } else { 1 };
            // Glyphs a monospace font may lack (Braille, chess pieces) come from another font
            // of another width: each gets an element of its own, fixed to its cell.
            let alone = cell.contents().chars().any(|c| {
                !(c.is_ascii()
                    || ('\u{a0}'..='\u{ff}').contains(&c)
                    || ('\u{2500}'..='\u{257f}').contains(&c))
            });
            if bg != BACKGROUND {
                writeln!(
                    svg,
                    r#"<rect x="{x}" y="{y}" width="{}" height="{CELL_H}" fill="{}"/>"#,
                    cells as f64 * CELL_W + 0.5,
                    hex(bg)
                )?;
            }
            let text = if cell.has_contents() {
                cell.contents()
            } else {
                " "
            };
            let style = (fg, cell.bold(), cell.underline());
            match &mut run {
                Some(r) if r.style == style && cells == 1 && !r.sealed && !alone => {
                    r.text.push_str(text);
                    r.cells += 1;
                }
                _ => {
                    if let Some(r) = run.take() {
                        r.write(&mut svg, y)?;
                    }
                    run = Some(Run {
                        x,
                        cells,
                        sealed: cells == 2 || alone,
                        style,
                        text: text.to_string(),
                    });
                }
            }
        }
        if let Some(r) = run.take() {
            r.write(&mut svg, y)?;
        }
    }
    writeln!(svg, "</g>\n</svg>")?;
    print!("{svg}");
    Ok(())
}
