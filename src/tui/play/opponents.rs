//! The computer's turns on the game screen: the built-in engine thinking in its thread, and an
//! external Hub engine asked once and answered without blocking.

use super::screen::PlayScreen;
use crate::clock::Tick;
use crate::engine::{self, Thinking};
use crate::hub::client::{RemotePlayer, level_line, move_time_line};
use crate::play::Offer;
use crate::rules::board::Position;
use crate::rules::piece::Color;
use crate::tui::setup::PlayerKind;

impl PlayScreen {
    pub(super) fn engine_turn(&mut self, now: Tick) {
        if self.live.outcome().is_some() || self.view.is_some() {
            self.thinking = None;
            return;
        }
        if self.live.clock().is_some_and(|c| c.is_paused()) {
            return;
        }
        let side = self.live.position().side_to_move();
        if let PlayerKind::Hub(command) = &self.players[side.index()] {
            let command = command.clone();
            self.remote_turn(side, command, now);
            return;
        }
        let PlayerKind::Engine(level) = self.players[side.index()] else {
            self.thinking = None;
            return;
        };
        // The engine answers offers on its turn: a draw when it stands worse, takebacks always.
        match self.live.offer() {
            Some(Offer::Draw(by)) if by != side => {
                let n = if engine::stands_worse(self.live.position()) {
                    self.live.accept(side, now)
                } else {
                    self.live.decline(side)
                };
                let m = self.after_notice(n);
                self.message = m;
                if self.live.outcome().is_some() {
                    return;
                }
            }
            Some(Offer::Takeback(by)) if by != side => {
                let n = self.live.accept(side, now);
                let m = self.after_notice(n);
                self.message = m;
                return;
            }
            _ => {}
        }
        match &self.thinking {
            None => {
                let budget = self
                    .live
                    .clock()
                    .map(|c| engine::budget(c, side, now).min(level.time_cap()))
                    .unwrap_or(level.time_cap());
                let history: Vec<u64> = self
                    .live
                    .game()
                    .positions()
                    .map(Position::zobrist)
                    .collect();
                let searcher = self.searchers[side.index()]
                    .take()
                    .unwrap_or_else(|| Thinking::searcher(self.live.options().tablebase.clone()));
                self.thinking = Some(Thinking::start(
                    searcher,
                    *self.live.position(),
                    history,
                    level,
                    engine::Budget::Clock(budget),
                    self.book
                        .then(|| engine::book::builtin(self.live.position().variant())),
                ));
            }
            Some(t) => {
                if let Some(thought) = t.poll() {
                    self.thinking = None;
                    self.searchers[side.index()] = thought.searcher;
                    if let Some(mv) = thought.mv {
                        self.play(mv, now);
                    }
                }
            }
        }
    }
    /// An external Hub engine's turn: ask it once, then wait for its answer without blocking.
    fn remote_turn(&mut self, side: Color, command: String, now: Tick) {
        if self.remote_failed {
            return;
        }
        if let Some(answer) = &self.asking {
            match answer.try_recv() {
                Ok(Ok(mv)) => {
                    self.asking = None;
                    self.play(mv, now);
                }
                Ok(Err(e)) => {
                    self.asking = None;
                    self.remote_failed = true;
                    self.message = format!("{side} (hub engine): {e} — it will not be asked again");
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.asking = None;
                    self.remote_failed = true;
                    self.message = format!("{side} (hub engine) stopped answering");
                }
            }
            return;
        }
        let player = self.remote[side.index()].get_or_insert_with(|| RemotePlayer::spawn(command));
        let (level, patience) = match self.live.clock() {
            Some(c) => (
                level_line(c, side, now),
                c.remaining(side, now) + std::time::Duration::from_secs(10),
            ),
            None => (
                move_time_line(std::time::Duration::from_secs(5)),
                std::time::Duration::from_secs(60),
            ),
        };
        let game = self.live.game();
        self.asking = Some(player.ask(*game.start(), game.moves().to_vec(), level, patience));
        self.message = format!("{side} (hub engine) is thinking…");
    }
}
