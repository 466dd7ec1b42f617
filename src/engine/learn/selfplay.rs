//! Self-play: games of the engine against itself, the training data of the evaluation.
//!
//! Game `i` of a run depends only on the seed, `i` and the settings: its first plies are drawn at
//! random from the seed, then each side searches a fixed number of nodes (no clock), so a run
//! gives the same games on any machine and with any number of threads.

use crate::engine::eval::Model;
use crate::engine::search::{Limits, Searcher};
use crate::rules::board::Position;
use crate::rules::game::{Game, Outcome, Reason};
use crate::rules::pdn::PdnGame;
use crate::rules::variant::Variant;
use crate::tablebase::{Tablebase, Wdl};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::sync::Arc;

/// How self-play games are played.
#[derive(Clone)]
pub struct SelfPlay {
    /// The variant.
    pub variant: Variant,
    /// The run's seed.
    pub seed: u64,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Plies played at random from the start (the variety of the games).
    pub random_plies: usize,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The weights the engine plays with (the shipped ones when `None`).
    pub model: Option<Arc<Model>>,
    /// Tablebases: a game ends with the tables' result as soon as they hold the position.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl SelfPlay {
    /// The `index`-th game of the run.
    pub fn game(&self, index: u64) -> PdnGame {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let mut game = Game::new(self.variant);
        // Random plies, but never into a position without moves.
        for _ in 0..self.random_plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            if game.play(&mv).is_err() {
                break;
            }
        }
        let mut searcher = Searcher::new(8, None);
        searcher.set_model(self.model.clone());
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut history: Vec<u64> = game.positions().map(Position::zobrist).collect();
        while game.outcome().is_none() {
            if let Some(wdl) = self.table_value(game.position()) {
                let side = game.position().side_to_move();
                game.end(Outcome {
                    winner: match wdl {
                        Wdl::Win => Some(side),
                        Wdl::Loss => Some(side.opposite()),
                        Wdl::Draw => None,
                    },
                    reason: Reason::Adjudication,
                });
                break;
            }
            if game.moves().len() >= self.max_plies {
                game.end(Outcome {
                    winner: None,
                    reason: Reason::Adjudication,
                });
                break;
            }
            let pos = *game.position();
            let previous = &history[..history.len() - 1];
            let moves = pos.legal_moves();
            let forced = (moves.len() == 1).then(|| moves.as_slice()[0]);
            let Some(mv) =
                forced.or_else(|| searcher.search(&pos, previous, limits, &mut |_| {}).best)
            else {
                break;
            };
            if game.play(&mv).is_err() {
                break;
            }
            history.push(game.position().zobrist());
        }
        let round = (index + 1).to_string();
        PdnGame::from_game(&game, &[("Event", "draughts selfplay"), ("Round", &round)])
    }

    fn table_value(&self, pos: &Position) -> Option<Wdl> {
        let tb = self.tablebase.as_ref()?;
        if pos.piece_count() > tb.max_pieces() {
            return None;
        }
        tb.wdl(pos).ok()
    }

    /// Games `first..first + count`, played in parallel; `done` is called after each.
    pub fn run(&self, first: u64, count: u64, done: &(dyn Fn() + Sync)) -> Vec<PdnGame> {
        (first..first + count)
            .into_par_iter()
            .map(|i| {
                let g = self.game(i);
                done();
                g
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::pdn::GameResult;

    fn settings() -> SelfPlay {
        SelfPlay {
            variant: Variant::English,
            seed: 7,
            nodes: 300,
            random_plies: 4,
            max_plies: 60,
            model: None,
            tablebase: None,
        }
    }

    #[test]
    fn a_run_is_the_same_every_time_and_games_differ() {
        let s = settings();
        let a = s.run(0, 3, &|| {});
        let b = s.run(0, 3, &|| {});
        assert_eq!(a, b);
        assert_ne!(a[0].line.moves, a[1].line.moves);
        // Game 2 alone is game 2 of the run.
        assert_eq!(s.game(2), a[2]);
        for g in &a {
            assert_ne!(g.result, GameResult::Unfinished);
            assert!(g.line.moves.len() <= 60);
            // The record replays legally to its end.
            assert_eq!(g.game().moves().len(), g.line.moves.len());
        }
    }

    #[test]
    fn another_seed_gives_other_games() {
        let mut s = settings();
        let a = s.game(0);
        s.seed = 8;
        assert_ne!(a.line.moves, s.game(0).line.moves);
    }
}
