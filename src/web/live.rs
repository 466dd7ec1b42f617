//! Games in progress on the club server, for the web: the list of them, a page that shows one
//! (board, players, clocks, moves), and its state as JSON for the page's event stream. Read from
//! the lobby's rooms under their locks, never changed.

use super::board;
use super::layout::{Frame, Here, page as frame_page};
use crate::lobby::{Lobby, Room};
use crate::rules::notation::move_text;
use crate::rules::piece::Color;
use maud::{Markup, html};
use std::sync::Arc;

/// A game in progress as the web shows it at one moment.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Snapshot {
    /// The room's number.
    pub id: u64,
    /// Counts the game's changes.
    pub version: u64,
    /// White's and Black's names.
    pub players: [String; 2],
    /// The variant's name.
    pub variant: String,
    /// The position, as the viewer's square codes.
    pub squares: String,
    /// The last move's squares.
    pub last: Vec<u8>,
    /// Every move's text.
    pub moves: Vec<String>,
    /// Each side's time left, in milliseconds (none without a clock).
    pub clocks: Option<[u64; 2]>,
    /// Whose clock runs: `white`, `black`, or none.
    pub running: Option<&'static str>,
    /// The side to move, or how the game ended.
    pub status: String,
    /// Whether the game is over.
    pub over: bool,
}

/// The state of a room now.
pub fn snapshot(lobby: &Lobby, room: &Room) -> Snapshot {
    let now = lobby.now();
    let t = room.table();
    let game = t.live.game();
    let mut pos = *game.start();
    let mut moves = Vec::new();
    for mv in game.moves() {
        moves.push(move_text(&pos, mv));
        pos = pos.play(mv);
    }
    let last = game
        .moves()
        .last()
        .map_or(Vec::new(), |m| vec![m.from().number(), m.to().number()]);
    let clock = t.live.clock();
    let status = match t.live.outcome() {
        Some(_) => t.live.ending().unwrap_or("The game is over").to_string(),
        None => format!("{} to move", side_name(pos.side_to_move())),
    };
    Snapshot {
        id: room.id,
        version: t.version,
        players: [t.players[0].name.clone(), t.players[1].name.clone()],
        variant: game.variant().name().to_string(),
        squares: board::squares(&pos),
        last,
        moves,
        clocks: clock
            .map(|c| [Color::White, Color::Black].map(|s| c.remaining(s, now).as_millis() as u64)),
        running: clock.and_then(|c| c.running()).map(|c| match c {
            Color::White => "white",
            Color::Black => "black",
        }),
        status,
        over: t.live.outcome().is_some(),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A clock reading as the page shows it: `m:ss`, or `h:mm:ss`.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The room with this number, if it is still on the server.
pub fn room(lobby: &Lobby, id: u64) -> Option<Arc<Room>> {
    lobby.rooms().into_iter().find(|r| r.id == id)
}

/// The list of games in progress.
pub fn list_page(frame: &Frame, lobby: &Lobby) -> Markup {
    let here = Here {
        depth: 0,
        path: "live.html",
    };
    let games: Vec<Snapshot> = lobby
        .rooms()
        .iter()
        .map(|r| snapshot(lobby, r))
        .filter(|s| !s.over)
        .collect();
    let body = html! {
        h1 { "Games in progress" }
        @if games.is_empty() {
            p { "No game is being played on the club server just now." }
        } @else {
            ul.live-list {
                @for g in &games {
                    li {
                        a href=(here.to(&format!("live/{}.html", g.id))) {
                            (g.players[0]) " – " (g.players[1])
                        }
                        " · " (g.variant) " · move " (g.moves.len() / 2 + 1)
                    }
                }
            }
        }
        p.note { "The list is as it was when the page was loaded." }
    };
    frame_page(frame, here, "Games in progress", body, None)
}

/// The page that follows one game.
pub fn game_page(frame: &Frame, lobby: &Lobby, room: &Room) -> Markup {
    let s = snapshot(lobby, room);
    let path = format!("live/{}.html", s.id);
    let here = Here {
        depth: 1,
        path: &path,
    };
    let position = *room.table().live.game().position();
    let title = format!("{} – {}", s.players[0], s.players[1]);
    let body = html! {
        h1 { (s.players[0]) " – " (s.players[1]) }
        p.facts { (super::layout::capitalised(&s.variant)) ", played on the club server" }
        div.viewer {
            div.board-area {
                figure #board .theme-wood data-live=(s.id) {
                    (board::svg(&position, &s.last))
                    figcaption #position { (board::describe(&position)) }
                }
                @if let Some([w, b]) = s.clocks {
                    p.clocks {
                        "White " span #clock-white { (clock_text(w)) }
                        " · Black " span #clock-black { (clock_text(b)) }
                    }
                }
                p #status aria-live="polite" { (s.status) }
            }
            section.moves aria-labelledby="moves" {
                h2 #moves { "Moves" }
                ol #live-moves .movelist {
                    @for m in &s.moves { li { (m) } }
                }
            }
        }
    };
    frame_page(frame, here, &title, body, Some("assets/live.js"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_on_the_board() {
        assert_eq!(clock_text(65_400), "1:05");
        assert_eq!(clock_text(3_725_000), "1:02:05");
        assert_eq!(clock_text(0), "0:00");
    }
}
