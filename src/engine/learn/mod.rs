//! Learning the evaluation's weights: self-play games, then logistic regression on their
//! positions (`draughts engine selfplay`, `draughts engine train`, `scripts/train.sh`).

pub mod selfplay;
pub mod train;

pub use selfplay::SelfPlay;
pub use train::{Epoch, Labeller, Samples, TrainSettings, train};
