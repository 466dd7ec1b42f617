//! What the screens share: a text field, cycling through choices, centred boxes, menu lines and
//! forms of labelled fields. The screens use these; these use no screen.

use crate::rules::variant::Variant;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

/// A text field being edited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextField {
    /// The text.
    pub text: String,
}

impl TextField {
    /// Applies a typed character or Backspace; whether the key was for the field.
    pub(crate) fn key(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.text.push(c);
                true
            }
            KeyCode::Backspace => {
                self.text.pop();
                true
            }
            _ => false,
        }
    }
}

/// The value after (or before) `current` in `all`, wrapping around.
pub(crate) fn cycle<T: PartialEq + Clone>(all: &[T], current: &T, forward: bool) -> T {
    let i = all.iter().position(|x| x == current).unwrap_or(0);
    let len = all.len();
    all[if forward {
        (i + 1) % len
    } else {
        (i + len - 1) % len
    }]
    .clone()
}

/// The variant after (or before) `v`, wrapping around.
pub(crate) fn cycle_variant(v: Variant, forward: bool) -> Variant {
    cycle(&Variant::ALL, &v, forward)
}

/// A rectangle of the given size in the middle of `area`.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A menu entry, reversed and marked when it has the focus.
pub(crate) fn menu_line(label: String, focused: bool) -> Line<'static> {
    if focused {
        Line::from(Span::styled(
            format!("▸ {label}"),
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        ))
    } else {
        Line::from(format!("  {label}"))
    }
}

/// A form of labelled fields, the focused one marked, with help lines below.
pub(crate) struct Fields<'a, const N: usize> {
    pub(crate) title: &'a str,
    pub(crate) labels: &'a [&'a str; N],
    pub(crate) values: [String; N],
    pub(crate) focus: usize,
    pub(crate) help: &'a [&'a str],
    pub(crate) error: Option<&'a str>,
}

/// Draws a form of fields, the labels in one column as wide as the longest.
pub(crate) fn field_form<const N: usize>(frame: &mut Frame, area: Rect, f: &Fields<N>) {
    let width = f
        .labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        + 1;
    let mut lines = Vec::new();
    for (i, (label, value)) in f.labels.iter().zip(&f.values).enumerate() {
        lines.push(menu_line(format!("{label:<width$} {value}"), i == f.focus));
    }
    lines.push(Line::from(""));
    lines.extend(f.help.iter().map(|h| Line::from(h.to_string())));
    form(frame, area, f.title, lines, f.error);
}

/// A bordered form with its error, if any, at the bottom.
pub(crate) fn form(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    mut lines: Vec<Line>,
    error: Option<&str>,
) {
    if let Some(e) = error {
        lines.push(Line::from(""));
        lines.push(Line::from(e.to_string()));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title.to_string())),
        area,
    );
}
