//! The board in SVG: the same drawing for 10×10 and 8×8, with every dark square carrying its
//! number and piece as data, so the page's script can show any position by changing the pieces
//! alone, and a page without script shows the position it was drawn with.

use crate::rules::board::Position;
use crate::rules::piece::{Color, Kind};
use crate::rules::variant::Variant;
use maud::{Markup, html};

/// One square's piece as the page writes it: `w` `W` (White man, king), `b` `B`, or empty.
fn code(pos: &Position, number: u8) -> &'static str {
    let Some(square) = crate::rules::board::Square::new(u32::from(number), pos.variant()) else {
        return "";
    };
    match pos.piece_at(square) {
        None => "",
        Some(p) => match (p.color, p.kind) {
            (Color::White, Kind::Man) => "w",
            (Color::White, Kind::King) => "W",
            (Color::Black, Kind::Man) => "b",
            (Color::Black, Kind::King) => "B",
        },
    }
}

/// A position as one string of square codes in square-number order (`.` for empty): what the
/// viewer reads to show a position.
pub fn squares(pos: &Position) -> String {
    let n = pos.variant().geometry().squares;
    (1..=n as u8)
        .map(|i| match code(pos, i) {
            "" => '.',
            c => c.chars().next().unwrap_or('.'),
        })
        .collect()
}

/// The board drawn with `pos`, White at the bottom; `last` marks the squares of the move that led
/// to it.
pub fn svg(pos: &Position, last: &[u8]) -> Markup {
    let variant: Variant = pos.variant();
    let g = variant.geometry();
    let width = g.width * 2;
    let size = width * 10;
    html! {
        svg.board xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (size) " " (size) }
            role="img" aria-label={ "Board: " (describe(pos)) } data-size=(width) {
            @for row in 0..width {
                @for file in 0..width {
                    @match g.number_at(row, file) {
                        None => rect.light x=(file * 10) y=(row * 10) width="10" height="10" {},
                        Some(n) => {
                            g.sq data-square=(n) data-piece=(code(pos, n))
                                data-last=[last.contains(&n).then_some("1")] {
                                rect.dark x=(file * 10) y=(row * 10) width="10" height="10" {}
                                text.num x=(file * 10 + 1) y=(row * 10 + 3) { (n) }
                                circle.piece cx=(file * 10 + 5) cy=(row * 10 + 5) r="3.8" {}
                                circle.crown cx=(file * 10 + 5) cy=(row * 10 + 5) r="1.8" {}
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The pieces in words, for readers that cannot see the drawing: "White: 31, 32, K45; Black: …".
pub fn describe(pos: &Position) -> String {
    let n = pos.variant().geometry().squares as u8;
    let side = |men: &str, kings: &str| {
        (1..=n)
            .filter_map(|i| match code(pos, i) {
                c if c == men => Some(i.to_string()),
                c if c == kings => Some(format!("K{i}")),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!("White: {}; Black: {}", side("w", "W"), side("b", "B"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dark_square_is_drawn_once_with_its_piece() {
        for v in Variant::ALL {
            let pos = Position::start(v);
            let text = svg(&pos, &[]).into_string();
            let n = v.geometry().squares as usize;
            assert_eq!(text.matches("data-square=").count(), n);
            assert_eq!(squares(&pos).len(), n);
            let men = squares(&pos).chars().filter(|c| *c != '.').count();
            assert_eq!(men as u32, pos.piece_count());
            assert_eq!(
                text.matches("data-piece=\"w\"").count() as u32,
                pos.count(Color::White, Kind::Man)
            );
        }
    }
}
