//! The review of a whole tournament round from the club screens: the round's recorded games are
//! judged one after another in the background (each on all the threads it is given), each
//! reviewed record is written back into the club database as it finishes, and the round's page
//! shows the progress and, per board, both players' accuracy, their errors and the turning point.
//! The screen polls for results and never waits on the review; leaving the screen cancels what
//! is left, and the boards already done keep their reviews.

use crate::club::access::Actor;
use crate::club::games;
use crate::club::tournament::Pairing;
use crate::club::{ClubError, Store};
use crate::play::review::background::{Background, Event};
use crate::play::review::{self, Review, Settings};
use crate::rules::pdn::PdnGame;
use crate::tablebase::Tablebase;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, LineGauge, Paragraph};
use std::sync::Arc;
use std::time::Duration;

/// What became of one board.
enum BoardState {
    Waiting,
    Done(Box<Review>),
    Failed(String),
}

/// One reviewed board of the round.
struct Board {
    pairing: Pairing,
    record: PdnGame,
    state: BoardState,
}

/// A review of a tournament round, running or done.
pub struct RoundReview {
    /// The tournament's id.
    pub tournament: i64,
    /// The round.
    pub round: u32,
    time: Duration,
    boards: Vec<Board>,
    job: Background,
}

impl RoundReview {
    /// Starts reviewing `games` (a round's records, from [`games::round_records`]) at `time` a
    /// position on `threads` threads, with the tablebases if loaded.
    pub fn start(
        tournament: i64,
        round: u32,
        games: Vec<(Pairing, PdnGame)>,
        tables: Option<Arc<Tablebase>>,
        time: Duration,
        threads: usize,
    ) -> RoundReview {
        let jobs = games
            .iter()
            .map(|(_, g)| (g.start, g.line.moves.iter().map(|m| m.mv).collect()))
            .collect();
        let job = Background::start(jobs, tables, Settings::timed(time, threads));
        RoundReview {
            tournament,
            round,
            time,
            boards: games
                .into_iter()
                .map(|(pairing, record)| Board {
                    pairing,
                    record,
                    state: BoardState::Waiting,
                })
                .collect(),
            job,
        }
    }

    /// Takes in the boards reviewed since the last call, writes each one's review into its
    /// record in the database, and says what happened (for the screen's message line).
    pub fn poll(&mut self, store: &mut Store, actor: &Actor) -> Option<String> {
        let mut message = None;
        let annotator = review::annotator(self.time);
        while let Some(event) = self.job.poll() {
            let (i, result) = match event {
                Event::Reviewed(i, result) => (i, result),
                Event::Finished => {
                    message = Some(self.finished_words());
                    break;
                }
            };
            let Some(board) = self.boards.get_mut(i) else {
                continue;
            };
            let n = board.pairing.board;
            match result {
                Ok(r) => {
                    let annotated = review::annotate(&board.record, &r, &annotator);
                    message = Some(
                        match games::annotate_record(store, actor, board.pairing.id, &annotated) {
                            Ok(()) => format!("Board {n} reviewed: {}", r.summary()),
                            Err(ClubError::Denied(why)) => format!(
                                "Board {n} reviewed: {} (shown here only: {why})",
                                r.summary()
                            ),
                            Err(e) => format!("Board {n} reviewed, not saved: {e}"),
                        },
                    );
                    board.record = annotated;
                    board.state = BoardState::Done(r);
                }
                Err(e) => {
                    message = Some(format!("Board {n}: review failed: {e}"));
                    board.state = BoardState::Failed(e.to_string());
                }
            }
        }
        message
    }

    fn finished_words(&self) -> String {
        let done = self
            .boards
            .iter()
            .filter(|b| matches!(b.state, BoardState::Done(_)))
            .count();
        format!(
            "Round {} reviewed: {done} of {} games, reviews written into their records \
             (Enter opens a board with its review)",
            self.round,
            self.boards.len()
        )
    }

    /// Whether boards are still being reviewed.
    pub fn running(&self) -> bool {
        self.job.running()
    }

    /// The review of the game with this id, with the record it was written into, once done.
    pub fn of_game(&self, game: i64) -> Option<(&PdnGame, &Review)> {
        self.boards
            .iter()
            .find(|b| b.pairing.id == game)
            .and_then(|b| match &b.state {
                BoardState::Done(r) => Some((&b.record, r.as_ref())),
                _ => None,
            })
    }

    /// The time a position was given.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// Draws the progress and a line per board.
    pub fn draw(&self, frame: &mut Frame, area: Rect, ascii: bool) {
        let block = Block::bordered().title(format!(" Review of round {} ", self.round));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [status, bar, rows] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(inner);
        let total_games = self.boards.len();
        let progress = self.job.progress();
        let reviewed = self
            .boards
            .iter()
            .filter(|b| !matches!(b.state, BoardState::Waiting))
            .count();
        let words = if self.running() {
            let board = self
                .boards
                .get(progress.game)
                .map_or(0, |b| b.pairing.board);
            format!(
                "Reviewing board {board} ({} of {total_games}): {}/{} positions, \
                 {:.1} s a position · Esc stops",
                progress.game + 1,
                progress.done,
                progress.total,
                self.time.as_secs_f64()
            )
        } else {
            format!("{reviewed} of {total_games} games reviewed")
        };
        frame.render_widget(Paragraph::new(words), status);
        let ratio = if self.running() {
            progress.ratio(total_games)
        } else {
            reviewed as f64 / total_games.max(1) as f64
        };
        let gauge = LineGauge::default()
            .ratio(ratio)
            .filled_symbol(if ascii { "#" } else { "━" })
            .unfilled_symbol(if ascii { "." } else { "─" });
        frame.render_widget(gauge, bar);
        let lines: Vec<Line> = self.boards.iter().map(board_line).collect();
        frame.render_widget(Paragraph::new(lines), rows);
    }
}

/// A board's line: the players, then the summary and the turning point, or where it stands.
fn board_line(b: &Board) -> Line<'static> {
    let head = format!(
        "{:>2}. {} – {}",
        b.pairing.board,
        b.pairing.white,
        b.pairing.black.as_deref().unwrap_or("(bye)")
    );
    let rest = match &b.state {
        BoardState::Waiting => "…".to_string(),
        BoardState::Failed(e) => format!("failed: {e}"),
        BoardState::Done(r) => {
            let turn = r
                .players
                .iter()
                .filter_map(|p| p.turning_point)
                .filter_map(|ply| r.moves.get(ply).map(|m| (ply, m)))
                .max_by(|a, b| a.1.loss.total_cmp(&b.1.loss))
                .map(|(ply, m)| {
                    let pos = r.positions()[ply];
                    format!(
                        " · turning point {} {}{}",
                        review::move_label(&r.start, ply),
                        crate::rules::notation::move_text(&pos, &m.mv),
                        m.judgement.sign().unwrap_or("")
                    )
                })
                .unwrap_or_default();
            format!("{}{turn}", r.summary())
        }
    };
    Line::from(format!("{head}: {rest}"))
}
