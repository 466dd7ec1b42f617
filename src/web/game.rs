//! A game's page: the players and result, the board, the moves with their comments, signs and —
//! for a reviewed game — the engine's values and better moves, the advantage graph, and the
//! viewer that steps through it (by keys, by clicking a move, by `#ply=23` in the address).
//!
//! Every position is worked out here, by the rules core, and written into the page as data; the
//! viewer only shows them. Without a script the page shows the final position and the moves.

use super::board;
use super::chart;
use super::layout::{Here, downloads, page as frame_page, raw};
use super::site::Site;
use crate::club::ClubError;
use crate::club::games::Archived;
use crate::play::review::move_label;
use crate::rules::notation::move_text;
use crate::rules::pdn::{PdnGame, read_games, result_text};
use crate::rules::variant::Variant;
use maud::{Markup, html};

/// One ply of the game as the page shows it.
struct Ply {
    label: String,
    text: String,
    signs: String,
    comment: String,
    /// The engine's value after the move (`+0.25`, `#7`), when the game was reviewed.
    eval: Option<String>,
    squares: String,
    last: [u8; 2],
}

/// The `[%eval …]` of a comment, and the comment without it.
fn split_eval(comment: &str) -> (Option<String>, String) {
    let Some(start) = comment.find("[%eval ") else {
        return (None, comment.trim().to_string());
    };
    let rest = &comment[start + 7..];
    let Some(end) = rest.find(']') else {
        return (None, comment.trim().to_string());
    };
    let value = rest[..end].trim().to_string();
    let text = format!("{}{}", &comment[..start], &rest[end + 1..]);
    (Some(value), text.trim().to_string())
}

/// An eval as a number of men for the graph, a forced win drawn at the edge.
fn eval_number(e: &str) -> Option<f64> {
    match e.strip_prefix('#') {
        Some(m) if m.starts_with('-') => Some(-5.0),
        Some(_) => Some(5.0),
        None => e.parse::<f64>().ok(),
    }
}

fn plies(game: &PdnGame) -> Vec<Ply> {
    let mut pos = game.start;
    let mut out = Vec::new();
    for (i, m) in game.line.moves.iter().enumerate() {
        let text = move_text(&pos, &m.mv);
        pos = pos.play(&m.mv);
        let mut evals = None;
        let mut words = Vec::new();
        for c in &m.comments {
            let (e, rest) = split_eval(c);
            if e.is_some() {
                evals = e;
            }
            if !rest.is_empty() {
                words.push(rest);
            }
        }
        out.push(Ply {
            label: move_label(&game.start, i),
            text,
            signs: m.annotations.join(""),
            comment: words.join(" "),
            eval: evals,
            squares: board::squares(&pos),
            last: [m.mv.from().number(), m.mv.to().number()],
        });
    }
    out
}

/// The viewer's data: the start and every position after a ply, with the move's squares.
fn data(start: &str, plies: &[Ply]) -> String {
    let positions: Vec<serde_json::Value> = plies
        .iter()
        .map(|p| serde_json::json!({ "s": p.squares, "l": p.last }))
        .collect();
    let json = serde_json::json!({ "start": start, "plies": positions });
    // `</` cannot end the script element it is written in.
    json.to_string().replace("</", "<\\/")
}

/// A recorded game's page.
pub fn page(site: &Site, g: &Archived) -> Result<Markup, ClubError> {
    let name = super::site::game_name(g);
    let path = format!("games/{name}.html");
    let here = Here {
        depth: 1,
        path: &path,
    };
    let variant = site
        .tournaments
        .iter()
        .find(|t| Some(t.id) == g.tournament_id)
        .map_or(Variant::International, |t| t.variant);
    let game = read_games(&site.record(g)?, variant)
        .into_iter()
        .next()
        .and_then(Result::ok)
        .ok_or_else(|| ClubError::BadInput(format!("game {name}: the record does not read")))?;
    let plies = plies(&game);
    let last_squares = plies.last().map_or(Vec::new(), |p| p.last.to_vec());
    let final_position = *game.game().position();
    let graph: Vec<(f64, f64)> = plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.eval
                .as_deref()
                .and_then(eval_number)
                .map(|e| ((i + 1) as f64, e))
        })
        .collect();
    let result = result_text(game.result, game.variant);
    let title = format!("{} – {}", g.white, g.black);
    let tournament_link = site
        .tournaments
        .iter()
        .find(|t| Some(t.id) == g.tournament_id)
        .map(|t| format!("{}.html", Site::tournament_base(t)));
    let player = |n: &str| match site.member_page(n) {
        Some(p) => html! { a href=(here.to(&p)) { (n) } },
        None => html! { (n) },
    };
    let body = html! {
        h1 { (player(&g.white)) " – " (player(&g.black)) " " span.result { (result) } }
        p.facts {
            @match &tournament_link {
                Some(link) => a href=(here.to(link)) { (g.tournament) },
                None => (g.tournament),
            }
            @if g.round > 0 { ", round " (g.round) }
            " · " (super::layout::capitalised(game.variant.name()))
            @if let Some(tc) = game.tag("TimeControl") { " · " (tc) }
            @if let Some(a) = game.tag("Annotator") { " · reviewed by " (a) }
        }
        (downloads(here, &[("game (PDN)", format!("games/{name}.pdn"))]))
        div.viewer {
            div.board-area {
                figure #board .theme-wood {
                    (board::svg(&final_position, &last_squares))
                    figcaption #position { "Final position. " (board::describe(&final_position)) }
                }
                div.controls #controls hidden {
                    button type="button" data-go="first" aria-label="Start position" { "«" }
                    button type="button" data-go="prev" aria-label="Previous move" { "‹" }
                    button type="button" data-go="next" aria-label="Next move" { "›" }
                    button type="button" data-go="last" aria-label="Final position" { "»" }
                    label {
                        "Board "
                        select #theme {
                            option value="wood" { "wood" }
                            option value="green" { "green" }
                            option value="blue" { "blue" }
                            option value="mono" { "mono" }
                        }
                    }
                }
                @if !graph.is_empty() {
                    figure.advantage {
                        (chart::line(&graph, "Advantage over the game, White above", Some(5.0)))
                        figcaption { "The engine's value after each move, in men, White above the line." }
                    }
                }
            }
            section.moves aria-labelledby="moves" {
                h2 #moves { "Moves" }
                @if plies.is_empty() {
                    p { "No moves recorded." }
                }
                ol.movelist {
                    @for (i, p) in plies.iter().enumerate() {
                        li data-ply=(i + 1) {
                            span.label { (p.label) }
                            " "
                            a.move href={ "#ply=" (i + 1) } data-ply=(i + 1) { (p.text) (p.signs) }
                            @if let Some(e) = &p.eval { " " span.eval { (e) } }
                            @if !p.comment.is_empty() { " " span.comment { (p.comment) } }
                        }
                    }
                }
                p.result { (result) }
            }
        }
        script #game-data type="application/json" { (raw(data(&board::squares(&game.start), &plies))) }
    };
    Ok(frame_page(
        &site.frame(),
        here,
        &title,
        body,
        Some("assets/viewer.js"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_come_out_of_the_comments() {
        assert_eq!(
            split_eval("[%eval +0.25] Blunder (+0.25 → -1.00); best 32-28"),
            (
                Some("+0.25".into()),
                "Blunder (+0.25 → -1.00); best 32-28".into()
            )
        );
        assert_eq!(split_eval("just words"), (None, "just words".into()));
        assert_eq!(eval_number("#-3"), Some(-5.0));
        assert_eq!(eval_number("-1.50"), Some(-1.5));
    }

    #[test]
    fn the_data_cannot_close_its_script() {
        let text = data("w</script>", &[]);
        assert!(!text.contains("</"), "{text}");
    }
}
