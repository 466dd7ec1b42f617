//! The game screen: a game in progress or a record stepped through, against a person at the same
//! keyboard, the engine, an external Hub engine, or across terminals on the club server.
//!
//! `screen` holds its state and what moves and time do to it, `input` turns keys, commands and clicks into moves and requests, `opponents` plays the
//! computer's turns, `review` judges the record's moves in the background and draws the graph, `view` draws the screen with the move texts `texts` keeps.

mod input;
mod opponents;
mod review;
mod screen;
mod texts;
mod view;

pub use input::Action;
pub use screen::{PlayScreen, Step};
pub use view::draw;
