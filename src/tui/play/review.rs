//! The review on the game screen: `:review` (or `R`) judges every move of the record in the
//! background — the screen, its clocks and other sessions' games never wait for it — and then
//! shows the advantage graph with the shown move marked and its errors flagged, the judgement of
//! the shown move with the better one, and the signs in the move list.

use crate::play::review::background::{Background, Event, Progress};
use crate::play::review::{self, Judgement, Review, Settings};
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::notation::{line_texts, move_text};
use crate::tablebase::Tablebase;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, LineGauge, Paragraph};
use std::sync::Arc;
use std::time::Duration;

/// Rows the review takes on the screen: a title, three lines of words and the graph.
pub const HEIGHT: u16 = 11;

enum State {
    Running(Background),
    Done(Box<Review>),
    Failed(String),
}

/// A review of the game on the screen: running, done or failed.
pub struct ReviewPanel {
    state: State,
    /// The game reviewed: its start and moves (a review of another game is not shown).
    game: (Position, Vec<Move>),
    /// Time for each position.
    time: Duration,
}

impl ReviewPanel {
    /// Starts reviewing the game in the background, `time` a position on `threads` threads.
    pub fn start(
        start: Position,
        moves: &[Move],
        tables: Option<Arc<Tablebase>>,
        time: Duration,
        threads: usize,
    ) -> ReviewPanel {
        let job = Background::start(
            vec![(start, moves.to_vec())],
            tables,
            Settings::timed(time, threads),
        );
        ReviewPanel {
            state: State::Running(job),
            game: (start, moves.to_vec()),
            time,
        }
    }

    /// A finished review of the game played from `start` with `moves` (made elsewhere, e.g. with
    /// the round's review on the club screen), `time` a position.
    pub fn finished(
        start: Position,
        moves: &[Move],
        review: Review,
        time: Duration,
    ) -> ReviewPanel {
        ReviewPanel {
            state: State::Done(Box::new(review)),
            game: (start, moves.to_vec()),
            time,
        }
    }

    /// Who annotated a record with this review, for its Annotator tag.
    pub fn annotator(&self) -> String {
        review::annotator(self.time)
    }

    /// Takes in the finished review; the message for the players when it just finished.
    pub fn poll(&mut self) -> Option<String> {
        let State::Running(job) = &mut self.state else {
            return None;
        };
        let (state, message) = match job.poll()? {
            Event::Reviewed(_, Ok(r)) => {
                let words = r.summary();
                (State::Done(r), format!("Review done: {words}"))
            }
            Event::Reviewed(_, Err(e)) => {
                (State::Failed(e.to_string()), format!("Review failed: {e}"))
            }
            Event::Finished => {
                let e = "the reviewing thread stopped".to_string();
                (State::Failed(e.clone()), format!("Review failed: {e}"))
            }
        };
        self.state = state;
        Some(message)
    }

    /// Whether the review still runs.
    pub fn running(&self) -> bool {
        matches!(self.state, State::Running(_))
    }

    /// Whether this is a review of the game played from `start` with `moves`.
    pub fn covers(&self, start: &Position, moves: &[Move]) -> bool {
        self.game.0 == *start && self.game.1 == moves
    }

    /// The finished review.
    pub fn review(&self) -> Option<&Review> {
        match &self.state {
            State::Done(r) => Some(r),
            _ => None,
        }
    }

    /// The sign of the move at `ply` (`?!`, `?`, `??`) once reviewed.
    pub fn sign(&self, ply: usize) -> Option<&'static str> {
        self.review()?.moves.get(ply)?.judgement.sign()
    }

    /// The engine's best move in the position after `ply` moves, for the board.
    pub fn best_in(&self, ply: usize) -> Option<Move> {
        self.review()?.values.get(ply)?.best()
    }

    /// Draws the review: progress while it runs; then the judgement of the move that led to the
    /// position after `shown` moves and the advantage graph, in Braille or, for ASCII terminals
    /// and small areas, in plain characters.
    pub fn draw(&self, frame: &mut Frame, area: Rect, shown: usize, ascii: bool) {
        let block = Block::bordered().title(" Review ");
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let review = match &self.state {
            State::Running(job) => {
                let Progress { done, total, .. } = job.progress();
                let [words, bar] =
                    Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).areas(inner);
                let text = format!("Reviewing… {done}/{total} positions (:review off to stop)");
                frame.render_widget(Paragraph::new(text), words);
                let gauge = LineGauge::default()
                    .ratio(job.progress().ratio(1))
                    .filled_symbol(if ascii { "#" } else { "━" })
                    .unfilled_symbol(if ascii { "." } else { "─" });
                frame.render_widget(gauge, bar);
                return;
            }
            State::Failed(e) => {
                frame.render_widget(Paragraph::new(format!("Review failed: {e}")), inner);
                return;
            }
            State::Done(r) => r,
        };
        let [words, graph] =
            Layout::vertical([Constraint::Length(3), Constraint::Min(1)]).areas(inner);
        frame.render_widget(Paragraph::new(shown_words(review, shown)), words);
        if ascii || graph.height < 4 || graph.width < 16 {
            frame.render_widget(Paragraph::new(text_graph(review, shown, graph)), graph);
        } else {
            draw_chart(frame, graph, review, shown);
        }
    }
}

/// The judgement of the move that led to the position after `shown` moves, and the summary.
fn shown_words(r: &Review, shown: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    match shown.checked_sub(1).and_then(|i| r.moves.get(i)) {
        None => lines.push(Line::from(format!(
            "Start: {}",
            review::eval_text(r.values[0].white_score())
        ))),
        Some(m) => {
            let pos = r.positions()[m.ply];
            let (before, after) = (&r.values[m.ply], &r.values[m.ply + 1]);
            let mut text = format!(
                "{}{} {} → {}",
                move_text(&pos, &m.mv),
                m.judgement.sign().unwrap_or(""),
                review::eval_text(before.white_score()),
                review::eval_text(after.white_score()),
            );
            match m.judgement {
                Judgement::Forced => text.push_str(" forced"),
                Judgement::Best => text.push_str(" best"),
                Judgement::Good => {}
                j => {
                    text.push_str(&format!(" {}", j.name()));
                    if let Some(best) = before.best() {
                        text.push_str(&format!("; best {}", move_text(&pos, &best)));
                    }
                    if m.proven {
                        text.push_str(" (tables)");
                    }
                }
            }
            lines.push(Line::from(text).style(Style::default().add_modifier(Modifier::BOLD)));
        }
    }
    // The engine's line from the shown position, as far as the review knows it.
    if let (Some(pos), Some(value)) = (r.positions().get(shown), r.values.get(shown)) {
        let texts = line_texts(pos, &value.line);
        if !texts.is_empty() {
            lines.push(Line::from(format!(
                "Engine: {} ({})",
                texts.join(" "),
                review::eval_text(value.white_score())
            )));
        }
    }
    lines.push(Line::from(r.summary()));
    lines
}

/// The advantage after each ply from White's side, from −1 (Black wins) to +1 (White wins).
fn advantage(r: &Review) -> Vec<(f64, f64)> {
    r.values
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64, 2.0 * review::expected(v.white_score()) - 1.0))
        .collect()
}

fn draw_chart(frame: &mut Frame, area: Rect, r: &Review, shown: usize) {
    let curve = advantage(r);
    let errors: Vec<(f64, f64)> = r
        .moves
        .iter()
        .filter(|m| m.judgement.is_error())
        .map(|m| curve[m.ply + 1])
        .collect();
    let marker = vec![(shown as f64, -1.0), (shown as f64, 1.0)];
    let zero = vec![(0.0, 0.0), (r.moves.len().max(1) as f64, 0.0)];
    let points = [curve, errors, marker, zero];
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().add_modifier(Modifier::DIM))
            .data(&points[3]),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .data(&points[0]),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().add_modifier(Modifier::REVERSED))
            .data(&points[2]),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::default().add_modifier(Modifier::BOLD))
            .data(&points[1]),
    ];
    let chart = Chart::new(datasets)
        .x_axis(Axis::default().bounds([0.0, r.moves.len().max(1) as f64]))
        .y_axis(Axis::default().bounds([-1.0, 1.0]).labels(["B", "=", "W"]));
    frame.render_widget(chart, area);
}

/// The graph in plain characters: `*` for the advantage, `|` at the shown move, `?` above an
/// error, the middle row the balance.
fn text_graph(r: &Review, shown: usize, area: Rect) -> Vec<Line<'static>> {
    let (w, h) = (area.width.max(1) as usize, area.height.max(1) as usize);
    let curve = advantage(r);
    let plies = curve.len();
    let column = |ply: usize| ply * (w - 1) / plies.saturating_sub(1).max(1);
    let row = |y: f64| (((1.0 - y) / 2.0) * (h - 1) as f64).round() as usize;
    let mut grid = vec![vec![' '; w]; h];
    for cell in grid[row(0.0)].iter_mut() {
        *cell = '-';
    }
    for (ply, &(_, y)) in curve.iter().enumerate() {
        grid[row(y).min(h - 1)][column(ply)] = '*';
    }
    let cursor = column(shown.min(plies - 1));
    for line in grid.iter_mut() {
        if line[cursor] == ' ' || line[cursor] == '-' {
            line[cursor] = '|';
        }
    }
    for m in r.moves.iter().filter(|m| m.judgement.is_error()) {
        grid[0][column(m.ply + 1)] = '?';
    }
    grid.into_iter()
        .map(|l| Line::from(l.into_iter().collect::<String>()))
        .collect()
}
