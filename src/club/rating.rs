//! Elo ratings as FMJD (like FIDE) computes them: the expected score from the 400-point logistic
//! curve, a rating change of K × (score − expected), K by rating band and games played.

use serde::{Deserialize, Serialize};

/// Expected score of a player rated `own` against one rated `opponent`.
pub fn expected(own: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - own) / 400.0))
}

/// How large K is: a higher K for new players (provisional) and for lower ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KFactors {
    /// K while a player has fewer than `provisional_games` rated games.
    pub provisional: f64,
    /// Games after which a rating is established.
    pub provisional_games: u32,
    /// (rating below which it applies, K), in increasing order of rating.
    pub bands: Vec<(f64, f64)>,
    /// K above every band.
    pub top: f64,
}

impl Default for KFactors {
    fn default() -> KFactors {
        KFactors {
            provisional: 40.0,
            provisional_games: 30,
            bands: vec![(2400.0, 20.0)],
            top: 10.0,
        }
    }
}

impl KFactors {
    /// K for a player with this rating and number of rated games before the game.
    pub fn k(&self, rating: f64, games: u32) -> f64 {
        if games < self.provisional_games {
            return self.provisional;
        }
        self.bands
            .iter()
            .find(|(below, _)| rating < *below)
            .map_or(self.top, |(_, k)| *k)
    }
}

/// The change of a rating after one game with `score` (1, ½ or 0).
pub fn change(k: &KFactors, own: f64, games: u32, opponent: f64, score: f64) -> f64 {
    k.k(own, games) * (score - expected(own, opponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.005
    }

    #[test]
    fn expected_scores() {
        assert!(close(expected(1500.0, 1500.0), 0.5));
        // 200 points: 1 / (1 + 10^0.5) = 0.2403; 400 points: 1/11.
        assert!(close(expected(2000.0, 2200.0), 0.2403));
        assert!(close(expected(2200.0, 2000.0), 0.7597));
        assert!(close(expected(1600.0, 2000.0), 1.0 / 11.0));
    }

    #[test]
    fn worked_examples() {
        let k = KFactors::default();
        // Established 2000 beats 2200 with K = 20: 20 × (1 − 0.2403) = +15.19.
        assert!(close(change(&k, 2000.0, 50, 2200.0, 1.0), 15.19));
        // And the 2200 loses the same.
        assert!(close(change(&k, 2200.0, 50, 2000.0, 0.0), -15.19));
        // A draw between equals changes nothing.
        assert!(close(change(&k, 1800.0, 50, 1800.0, 0.5), 0.0));
        // A new player (provisional, K = 40) draws a player 400 points stronger:
        // 40 × (0.5 − 1/11) = +16.36.
        assert!(close(change(&k, 1600.0, 3, 2000.0, 0.5), 16.36));
        // Above 2400, K = 10: a 2500 losing to a 2500 drops 5.
        assert!(close(change(&k, 2500.0, 100, 2500.0, 0.0), -5.0));
    }
}
