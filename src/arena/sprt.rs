//! The sequential probability ratio test that stops a match as soon as its result is clear.
//!
//! Two hypotheses about the Elo difference between A and B, `elo0` (A is no better than this)
//! and `elo1` (A is at least this much better), are weighed after every finished pair of games
//! by the generalised SPRT's log-likelihood ratio (M. Van den Bergh's normal approximation, the
//! form fishtest and cutechess use):
//!
//! `LLR = N (s1 − s0) (2μ − s0 − s1) / (2σ²)`
//!
//! where `s0`, `s1` are the expected scores at `elo0`, `elo1` on the logistic curve and `μ`, `σ²`
//! the mean and variance of the `N` samples. The samples are game pairs (both colours of one
//! opening, scored 0, ¼, ½, ¾ or 1): the pair, not the game, is the independent trial when every
//! opening is played from both sides. The test stops when the LLR leaves
//! `[ln(β/(1−α)), ln((1−β)/α)]`: below, H0 is accepted; above, H1.

/// The test's settings: the two hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A is no better than `elo0`.
    H0,
    /// A is at least `elo1` better.
    H1,
}

/// Game pairs counted by score: `[0, ¼, ½, ¾, 1]` from A's side.
pub type Pentanomial = [u32; 5];

/// The fewest pairs on which the test decides: the normal approximation needs a few samples.
pub const MIN_PAIRS: u32 = 5;

/// The expected score at an Elo difference.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha`, `beta`; checks the settings.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "SPRT bounds {elo0},{elo1}: the first must be below the second"
            ));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("SPRT {name} {p}: must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Reads `elo0,elo1` with α = β = 0.05.
    pub fn parse(bounds: &str) -> Result<Sprt, String> {
        let (a, b) = bounds
            .split_once(',')
            .ok_or_else(|| format!("SPRT {bounds:?}: expected two Elo values, as in 0,20"))?;
        let elo = |s: &str| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| format!("SPRT {bounds:?}: {s:?} is not a number"))
        };
        Sprt::new(elo(a)?, elo(b)?, 0.05, 0.05)
    }

    /// The lower and upper stopping bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 after these pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        // Half a pair spread over the five outcomes as a prior, so that a handful of identical
        // results (a variance near zero) cannot make the ratio leap past a bound; it weighs
        // nothing once a few dozen pairs are in.
        let counts = pairs.map(|c| f64::from(c) + 0.1);
        let total: f64 = counts.iter().sum();
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| counts[i] * score(i)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|i| counts[i] * (score(i) - mean).powi(2))
            .sum::<f64>()
            / total;
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after these pairs, if the LLR has left its bounds (never before
    /// [`MIN_PAIRS`] pairs).
    pub fn verdict(&self, pairs: &Pentanomial) -> Option<Verdict> {
        if pairs.iter().sum::<u32>() < MIN_PAIRS {
            return None;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// Counts the finished pairs among games scored from A's side, game `2k` and `2k + 1` being
/// the two colours of one opening; a pair with a game still missing is not counted.
pub fn pairs(scores: &[Option<f64>]) -> Pentanomial {
    let mut counts = [0; 5];
    for pair in scores.chunks_exact(2) {
        if let [Some(a), Some(b)] = pair {
            let quarters = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
            counts[quarters] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_a_hand_computed_ratio() {
        let t = Sprt::parse("0,10").unwrap();
        let (lo, hi) = t.bounds();
        // ln(0.05 / 0.95) and its negative.
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
        // 50 pairs and the prior's half pair: mean 0.5396, variance 0.0591; s0 = 0.5,
        // s1 = 0.514 387 (worked by hand from the formula in the module's doc): LLR 0.3986.
        let llr = t.llr(&[2, 10, 20, 14, 4]);
        assert!((llr - 0.3986).abs() < 1e-3, "{llr}");
        assert_eq!(t.verdict(&[2, 10, 20, 14, 4]), None);
    }

    #[test]
    fn the_ratio_grows_with_better_results() {
        let t = Sprt::parse("-5,5").unwrap();
        // A mean exactly between s0 and s1 (here ½) weighs for neither.
        assert!(t.llr(&[5, 10, 20, 10, 5]).abs() < 1e-9);
        let mut pairs = [5, 10, 20, 10, 5];
        let mut last = t.llr(&pairs);
        for class in [4, 3, 4, 3] {
            pairs[class] += 3;
            let llr = t.llr(&pairs);
            assert!(llr > last, "{pairs:?}");
            last = llr;
        }
        assert_eq!(t.verdict(&[0, 0, 2, 10, 40]), Some(Verdict::H1));
        assert_eq!(t.verdict(&[40, 10, 2, 0, 0]), Some(Verdict::H0));
        // A whitewash is finite and decisive, but not before five pairs: two split pairs do
        // not make the variance vanish.
        assert!(t.llr(&[0, 0, 0, 0, 30]).is_finite());
        assert_eq!(t.verdict(&[0, 0, 0, 0, 30]), Some(Verdict::H1));
        assert_eq!(t.verdict(&[0, 0, 0, 0, 4]), None);
        assert!(Sprt::parse("0,150").unwrap().llr(&[0, 0, 2, 0, 0]) > -2.5);
    }

    #[test]
    fn settings_are_checked() {
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("0,x").is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.6).is_err());
        assert_eq!(Sprt::parse(" -3 , 7 ").unwrap().elo1, 7.0);
    }

    #[test]
    fn pairs_are_counted_when_both_games_are_in() {
        let scores = [
            Some(1.0),
            Some(0.5),
            Some(0.0),
            None,
            Some(0.5),
            Some(0.5),
            Some(0.0),
            Some(0.0),
            Some(1.0),
        ];
        assert_eq!(pairs(&scores), [1, 0, 1, 1, 0]);
    }

    /// The test's promise: with true differences on either side of the hypotheses, it accepts
    /// the right one in far more than 1 − α of simulated matches (seeded, so the test is
    /// deterministic), and stops well before its cap.
    #[test]
    fn simulated_matches_reach_the_right_verdict() {
        let t = Sprt::parse("0,40").unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for (true_elo, expected) in [(80.0, Verdict::H1), (-40.0, Verdict::H0)] {
            let expected_score = score_of(true_elo);
            // Draws at 40%; wins make up the rest of the expected score.
            let win = expected_score - 0.2;
            let (mut right, mut pairs_used) = (0, 0);
            for _ in 0..200 {
                let mut pairs = [0; 5];
                let mut verdict = None;
                for n in 1..=2000 {
                    let mut game = || {
                        let u = uniform();
                        if u < win {
                            2
                        } else if u < win + 0.4 {
                            1
                        } else {
                            0
                        }
                    };
                    pairs[game() + game()] += 1;
                    verdict = t.verdict(&pairs);
                    if verdict.is_some() {
                        pairs_used += n;
                        break;
                    }
                }
                right += usize::from(verdict == Some(expected));
            }
            assert!(right >= 190, "{true_elo}: {right}/200 right");
            assert!(
                pairs_used / 200 < 500,
                "{true_elo}: {} pairs",
                pairs_used / 200
            );
        }
    }
}
