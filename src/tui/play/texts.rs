//! The record's move texts, kept between frames: a move's text depends only on the start and
//! the moves before it, so a frame writes only the moves that are new (finding whether a capture
//! needs its long form takes the legal moves, too dear to do for the whole record every frame).

use crate::rules::board::Position;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::move_text;

/// The texts of a game's moves, written once per move.
#[derive(Debug, Default)]
pub struct MoveTexts {
    start: Option<Position>,
    moves: Vec<Move>,
    texts: Vec<String>,
}

impl MoveTexts {
    /// The texts of `game`'s moves.
    pub fn update(&mut self, game: &Game) -> &[String] {
        if self.start.as_ref() != Some(game.start()) {
            *self = MoveTexts {
                start: Some(*game.start()),
                ..MoveTexts::default()
            };
        }
        let same = self
            .moves
            .iter()
            .zip(game.moves())
            .take_while(|(a, b)| a == b)
            .count();
        self.moves.truncate(same);
        self.texts.truncate(same);
        for (pos, mv) in game.positions().zip(game.moves()).skip(same) {
            self.moves.push(*mv);
            self.texts.push(move_text(pos, mv));
        }
        &self.texts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn texts_of(game: &Game) -> Vec<String> {
        game.positions()
            .zip(game.moves())
            .map(|(pos, mv)| move_text(pos, mv))
            .collect()
    }

    /// Plays, at each ply, the legal move the choice names.
    fn line(choices: &[usize]) -> Game {
        let mut game = Game::new(Variant::International);
        for &n in choices {
            let legal = game.position().legal_moves();
            let mv = legal.as_slice()[n % legal.len()];
            game.play(&mv).expect("a legal move");
        }
        game
    }

    #[test]
    fn kept_texts_follow_the_game_through_new_moves_take_backs_and_other_games() {
        let mut kept = MoveTexts::default();
        let a = line(&[0, 1, 2, 3, 4, 5]);
        assert_eq!(kept.update(&a), texts_of(&a));
        let longer = line(&[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(kept.update(&longer), texts_of(&longer));
        // Taken back two moves and played others.
        let other = line(&[0, 1, 2, 3, 1, 1, 1]);
        assert_eq!(kept.update(&other), texts_of(&other));
        let frisian = {
            let mut g = Game::new(Variant::Frisian);
            let mv = g.position().legal_moves().as_slice()[0];
            g.play(&mv).expect("a legal move");
            g
        };
        assert_eq!(kept.update(&frisian), texts_of(&frisian));
        assert!(kept.update(&Game::new(Variant::English)).is_empty());
    }
}
