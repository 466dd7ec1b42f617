//! Tie-breaks, as pure functions of a tournament's results.

use super::error::ClubError;
use super::rating::expected;
use std::str::FromStr;

/// One way to separate players on equal points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// Sum of the points of beaten opponents plus half those of drawn ones.
    SonnebornBerger,
    /// Solkoff/Buchholz: sum of the opponents' points.
    Buchholz,
    /// Buchholz without the lowest opponent score.
    BuchholzCut1,
    /// Buchholz without the highest and the lowest (median Buchholz).
    MedianBuchholz,
    /// Number of wins.
    Wins,
    /// Points scored in the games among the tied players.
    DirectEncounter,
    /// Average rating of the opponents.
    AverageRatingOfOpponents,
    /// Rating performance: the rating at which the expected score equals the score.
    Performance,
}

impl TieBreak {
    /// Its name on the command line and in the database.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "sb",
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz-cut1",
            TieBreak::MedianBuchholz => "median-buchholz",
            TieBreak::Wins => "wins",
            TieBreak::DirectEncounter => "direct",
            TieBreak::AverageRatingOfOpponents => "aro",
            TieBreak::Performance => "performance",
        }
    }
}

impl FromStr for TieBreak {
    type Err = ClubError;
    fn from_str(s: &str) -> Result<TieBreak, ClubError> {
        Ok(match s.trim() {
            "sb" | "sonneborn-berger" => TieBreak::SonnebornBerger,
            "buchholz" | "solkoff" => TieBreak::Buchholz,
            "buchholz-cut1" => TieBreak::BuchholzCut1,
            "median-buchholz" => TieBreak::MedianBuchholz,
            "wins" => TieBreak::Wins,
            "direct" | "direct-encounter" => TieBreak::DirectEncounter,
            "aro" => TieBreak::AverageRatingOfOpponents,
            "performance" => TieBreak::Performance,
            other => {
                return Err(ClubError::BadInput(format!(
                    "{other:?} is not a tie-break (sb, buchholz, buchholz-cut1, median-buchholz, \
                     wins, direct, aro, performance)"
                )));
            }
        })
    }
}

/// A played game: the two players and White's score (1, ½, 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// White.
    pub white: usize,
    /// Black.
    pub black: usize,
    /// White's score.
    pub score: f64,
}

/// Results of a tournament: players 0..n, games, byes, the points per win and draw.
#[derive(Clone, Debug)]
pub struct Results {
    /// Players.
    pub players: usize,
    /// Finished games.
    pub games: Vec<Game>,
    /// Players with a bye (scored as a win, not counted for tie-breaks).
    pub byes: Vec<usize>,
    /// Points for a win.
    pub win: f64,
    /// Points for a draw.
    pub draw: f64,
    /// Ratings, for the rating-based tie-breaks.
    pub ratings: Vec<f64>,
}

impl Results {
    fn points_for(&self, score: f64) -> f64 {
        if score == 1.0 {
            self.win
        } else if score == 0.5 {
            self.draw
        } else {
            0.0
        }
    }

    /// Tournament points per player.
    pub fn points(&self) -> Vec<f64> {
        let mut p = vec![0.0; self.players];
        for g in &self.games {
            p[g.white] += self.points_for(g.score);
            p[g.black] += self.points_for(1.0 - g.score);
        }
        for &b in &self.byes {
            p[b] += self.win;
        }
        p
    }

    /// Each player's games as (opponent, own score).
    fn per_player(&self) -> Vec<Vec<(usize, f64)>> {
        let mut out = vec![Vec::new(); self.players];
        for g in &self.games {
            out[g.white].push((g.black, g.score));
            out[g.black].push((g.white, 1.0 - g.score));
        }
        out
    }

    /// The value of a tie-break for every player (higher is better).
    pub fn tiebreak(&self, tb: TieBreak) -> Vec<f64> {
        let points = self.points();
        let games = self.per_player();
        let opponents_points = |i: usize| -> Vec<f64> {
            let mut v: Vec<f64> = games[i].iter().map(|(o, _)| points[*o]).collect();
            v.sort_by(f64::total_cmp);
            v
        };
        (0..self.players)
            .map(|i| match tb {
                TieBreak::SonnebornBerger => games[i].iter().map(|(o, s)| s * points[*o]).sum(),
                TieBreak::Buchholz => opponents_points(i).iter().sum(),
                TieBreak::BuchholzCut1 => opponents_points(i).iter().skip(1).sum(),
                TieBreak::MedianBuchholz => {
                    let v = opponents_points(i);
                    if v.len() <= 2 {
                        0.0
                    } else {
                        v[1..v.len() - 1].iter().sum()
                    }
                }
                TieBreak::Wins => games[i].iter().filter(|(_, s)| *s == 1.0).count() as f64,
                TieBreak::DirectEncounter => {
                    let tied: Vec<usize> = (0..self.players)
                        .filter(|&j| points[j] == points[i])
                        .collect();
                    games[i]
                        .iter()
                        .filter(|(o, _)| tied.contains(o))
                        .map(|(_, s)| self.points_for(*s))
                        .sum()
                }
                TieBreak::AverageRatingOfOpponents => average(
                    &games[i]
                        .iter()
                        .map(|(o, _)| self.ratings[*o])
                        .collect::<Vec<_>>(),
                ),
                TieBreak::Performance => performance(
                    &games[i]
                        .iter()
                        .map(|(o, _)| self.ratings[*o])
                        .collect::<Vec<_>>(),
                    games[i].iter().map(|(_, s)| s).sum(),
                ),
            })
            // The sum of no f64 is -0.0, which would print as "-0" for a player without games.
            .map(|v: f64| v + 0.0)
            .collect()
    }
}

fn average(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The rating at which the expected score against `opponents` equals `score` (found by
/// bisection; a perfect or zero score is capped 800 points from the opponents' average).
fn performance(opponents: &[f64], score: f64) -> f64 {
    if opponents.is_empty() {
        return 0.0;
    }
    let avg = average(opponents);
    let (mut lo, mut hi) = (avg - 800.0, avg + 800.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        let e: f64 = opponents.iter().map(|&o| expected(mid, o)).sum();
        if e < score {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made 4-player round robin (1-½-0 scoring):
    ///
    /// ```text
    ///        A    B    C    D   pts
    ///   A    ·    1    ½    1   2.5
    ///   B    0    ·    1    1   2
    ///   C    ½    0    ·    1   1.5
    ///   D    0    0    0    ·   0
    /// ```
    fn crosstable() -> Results {
        let g = |white, black, score| Game {
            white,
            black,
            score,
        };
        Results {
            players: 4,
            games: vec![
                g(0, 1, 1.0),
                g(0, 2, 0.5),
                g(3, 0, 0.0),
                g(1, 2, 1.0),
                g(1, 3, 1.0),
                g(2, 3, 1.0),
            ],
            byes: vec![],
            win: 1.0,
            draw: 0.5,
            ratings: vec![1600.0, 1500.0, 1400.0, 1300.0],
        }
    }

    #[test]
    fn a_player_without_games_has_zero_not_minus_zero() {
        let mut r = crosstable();
        // A fifth player who has only had a bye so far.
        r.players = 5;
        r.ratings.push(1200.0);
        r.byes = vec![4];
        for tb in [
            TieBreak::SonnebornBerger,
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::Wins,
            TieBreak::DirectEncounter,
        ] {
            let v = r.tiebreak(tb)[4];
            assert!(v == 0.0 && v.is_sign_positive(), "{tb:?}: {v}");
            assert_eq!(format!("{v}"), "0", "{tb:?}");
        }
    }

    #[test]
    fn hand_computed_values() {
        let r = crosstable();
        assert_eq!(r.points(), vec![2.5, 2.0, 1.5, 0.0]);
        // SB: A = 2 + ½·1.5 + 0 = 2.75; B = 1.5 + 0 = 1.5; C = ½·2.5 + 0 = 1.25; D = 0.
        assert_eq!(
            r.tiebreak(TieBreak::SonnebornBerger),
            vec![2.75, 1.5, 1.25, 0.0]
        );
        // Buchholz: A = 2 + 1.5 + 0 = 3.5; B = 2.5 + 1.5 + 0 = 4; C = 2.5 + 2 + 0 = 4.5; D = 6.
        assert_eq!(r.tiebreak(TieBreak::Buchholz), vec![3.5, 4.0, 4.5, 6.0]);
        assert_eq!(r.tiebreak(TieBreak::BuchholzCut1), vec![3.5, 4.0, 4.5, 4.5]);
        assert_eq!(
            r.tiebreak(TieBreak::MedianBuchholz),
            vec![1.5, 1.5, 2.0, 2.0]
        );
        assert_eq!(r.tiebreak(TieBreak::Wins), vec![2.0, 2.0, 1.0, 0.0]);
        assert_eq!(
            r.tiebreak(TieBreak::AverageRatingOfOpponents),
            vec![1400.0, 1433.0 + 1.0 / 3.0, 1466.0 + 2.0 / 3.0, 1500.0]
        );
    }

    #[test]
    fn direct_encounter_among_the_tied() {
        // A and B both on 1 point; A beat B.
        let r = Results {
            players: 3,
            games: vec![
                Game {
                    white: 0,
                    black: 1,
                    score: 1.0,
                },
                Game {
                    white: 1,
                    black: 2,
                    score: 1.0,
                },
                Game {
                    white: 2,
                    black: 0,
                    score: 1.0,
                },
            ],
            byes: vec![],
            win: 2.0,
            draw: 1.0,
            ratings: vec![1500.0; 3],
        };
        assert_eq!(r.points(), vec![2.0, 2.0, 2.0]);
        assert_eq!(r.tiebreak(TieBreak::DirectEncounter), vec![2.0, 2.0, 2.0]);
    }

    #[test]
    fn performance_matches_the_expected_score() {
        // Half the points against opponents rated 1500: performance 1500.
        let p = performance(&[1500.0, 1500.0], 1.0);
        assert!((p - 1500.0).abs() < 0.01, "{p}");
        // A perfect score is capped.
        assert!((performance(&[1500.0], 1.0) - 2300.0).abs() < 0.01);
        assert!("nonsense".parse::<TieBreak>().is_err());
        assert_eq!(
            "sb".parse::<TieBreak>().ok(),
            Some(TieBreak::SonnebornBerger)
        );
    }
}
