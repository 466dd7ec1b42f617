//! The FIDE Dutch system's absolute criteria (C.04.3, rules of 2025 in force from 2026) checked
//! on a round's pairing, and the colour preferences they rest on (A.6). Pure: players are
//! indices into the records the caller built from the rounds before the one checked.
//!
//! - C1: two players do not meet twice (only games played count: a forfeit is no meeting), nor
//!   do two players the organiser forbade to meet.
//! - C2: no pairing-allocated bye for a player who had one, or who already scored a win's points
//!   in a round without playing.
//! - C3: two non-topscorers with the same absolute colour preference do not meet (topscorers
//!   exist only when the last round is paired: more than half the maximum score so far).
//! - E.1: the colours of a board grant an absolute preference whenever the opponent has no
//!   absolute preference for the same colour (a colour rule, not an absolute criterion).

use serde::Serialize;
use std::collections::HashSet;

/// A colour in a played game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How strongly a player wants a colour (A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    /// No game played yet.
    None,
    /// Colours even: the colour not played last.
    Mild(Colour),
    /// One colour played once more than the other: the other one.
    Strong(Colour),
    /// Colours two or more apart, or the same colour in the last two games: the other one.
    Absolute(Colour),
}

/// What a player brings into the round being checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// Points before the round.
    pub score: f64,
    /// Opponents and colours of the games played (forfeits not counted), in round order.
    pub games: Vec<(usize, Colour)>,
    /// Had the pairing-allocated bye, or scored a win's points in a round without playing.
    pub bye_ineligible: bool,
}

impl Record {
    /// The colour preference from the games played (A.6).
    pub fn preference(&self) -> Preference {
        let Some(&(_, last)) = self.games.last() else {
            return Preference::None;
        };
        let whites = self.games.iter().filter(|g| g.1 == Colour::White).count() as i64;
        let difference = 2 * whites - self.games.len() as i64;
        let less = if difference > 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let repeated = self.games.len() >= 2 && self.games[self.games.len() - 2].1 == last;
        if difference.abs() > 1 {
            Preference::Absolute(less)
        } else if repeated {
            Preference::Absolute(last.other())
        } else if difference != 0 {
            Preference::Strong(less)
        } else {
            Preference::Mild(last.other())
        }
    }

    fn absolute(&self) -> Option<Colour> {
        match self.preference() {
            Preference::Absolute(c) => Some(c),
            _ => None,
        }
    }
}

/// The players and the tournament's state before the round.
pub struct Field<'a> {
    /// Every player's record, by index.
    pub players: &'a [Record],
    /// Pairs the organiser forbade (lower index first).
    pub forbidden: &'a HashSet<(usize, usize)>,
    /// The round checked is the tournament's last.
    pub last_round: bool,
    /// More than this many points makes a topscorer in the last round: half the points of a
    /// win in every round played so far.
    pub topscorer_above: f64,
}

/// A pairing that breaks a rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Violation {
    /// C1: the two met before.
    Rematch {
        /// One player.
        a: usize,
        /// The other.
        b: usize,
    },
    /// C1: the organiser forbade this pairing.
    Forbidden {
        /// One player.
        a: usize,
        /// The other.
        b: usize,
    },
    /// C2: a second pairing-allocated bye, or one after an unplayed win.
    ByeAgain {
        /// The player with the bye.
        player: usize,
    },
    /// C3: two non-topscorers who both must have this colour.
    SameAbsoluteColour {
        /// White on the board.
        a: usize,
        /// Black on the board.
        b: usize,
        /// The colour both must have.
        colour: Colour,
    },
    /// E.1: an absolute colour preference not granted though the opponent did not need the same
    /// colour.
    ColourDenied {
        /// The player.
        player: usize,
        /// The colour they had to have.
        colour: Colour,
    },
    /// A player paired twice in the round.
    PairedTwice {
        /// The player.
        player: usize,
    },
}

impl Violation {
    /// The article of C.04.3 it breaks.
    pub fn article(&self) -> &'static str {
        match self {
            Violation::Rematch { .. } | Violation::Forbidden { .. } => "C.04.3 C1",
            Violation::ByeAgain { .. } => "C.04.3 C2",
            Violation::SameAbsoluteColour { .. } => "C.04.3 C3",
            Violation::ColourDenied { .. } => "C.04.3 E.1",
            Violation::PairedTwice { .. } => "C.04.3 A.1",
        }
    }

    /// Whether it breaks an absolute criterion (a pairing no Dutch pairing program may make).
    pub fn absolute(&self) -> bool {
        !matches!(self, Violation::ColourDenied { .. })
    }
}

/// Every violation in a round's boards (White, Black; no Black: the pairing-allocated bye).
pub fn check(field: &Field, boards: &[(usize, Option<usize>)]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for &(w, b) in boards {
        for p in [Some(w), b].into_iter().flatten() {
            if !seen.insert(p) {
                out.push(Violation::PairedTwice { player: p });
            }
        }
        let Some(b) = b else {
            if field.players[w].bye_ineligible {
                out.push(Violation::ByeAgain { player: w });
            }
            continue;
        };
        let (white, black) = (&field.players[w], &field.players[b]);
        if white.games.iter().any(|&(o, _)| o == b) {
            out.push(Violation::Rematch { a: w, b });
        }
        if field.forbidden.contains(&(w.min(b), w.max(b))) {
            out.push(Violation::Forbidden { a: w, b });
        }
        let topscorer = |r: &Record| field.last_round && r.score > field.topscorer_above;
        match (white.absolute(), black.absolute()) {
            (Some(x), Some(y)) if x == y => {
                if !topscorer(white) && !topscorer(black) {
                    out.push(Violation::SameAbsoluteColour { a: w, b, colour: x });
                }
            }
            (wanted_w, wanted_b) => {
                if wanted_w == Some(Colour::Black) {
                    out.push(Violation::ColourDenied {
                        player: w,
                        colour: Colour::Black,
                    });
                }
                if wanted_b == Some(Colour::White) {
                    out.push(Violation::ColourDenied {
                        player: b,
                        colour: Colour::White,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    fn record(score: f64, games: &[(usize, Colour)]) -> Record {
        Record {
            score,
            games: games.to_vec(),
            bye_ineligible: false,
        }
    }

    #[test]
    fn preferences_follow_a6() {
        assert_eq!(record(0.0, &[]).preference(), Preference::None);
        assert_eq!(record(0.0, &[(1, W)]).preference(), Preference::Strong(B));
        assert_eq!(
            record(0.0, &[(1, W), (2, B)]).preference(),
            Preference::Mild(W)
        );
        // The same colour twice in a row: absolute, even with colours level overall.
        assert_eq!(
            record(0.0, &[(1, W), (2, B), (3, B), (4, W), (5, W)]).preference(),
            Preference::Absolute(B)
        );
        // Two more Whites than Blacks: absolute Black.
        assert_eq!(
            record(0.0, &[(1, W), (2, B), (3, W), (4, W)]).preference(),
            Preference::Absolute(B)
        );
        assert_eq!(
            record(0.0, &[(1, B), (2, W), (3, B)]).preference(),
            Preference::Strong(W)
        );
    }

    fn field<'a>(players: &'a [Record], forbidden: &'a HashSet<(usize, usize)>) -> Field<'a> {
        Field {
            players,
            forbidden,
            last_round: false,
            topscorer_above: 100.0,
        }
    }

    #[test]
    fn a_rematch_and_a_forbidden_pair_break_c1() {
        let players = [
            record(2.0, &[(1, W)]),
            record(0.0, &[(0, B)]),
            record(1.0, &[]),
        ];
        let forbidden = HashSet::from([(0, 2)]);
        let f = field(&players, &forbidden);
        assert_eq!(
            check(&f, &[(1, Some(0))]),
            vec![Violation::Rematch { a: 1, b: 0 }]
        );
        assert_eq!(
            check(&f, &[(2, Some(0))]),
            vec![Violation::Forbidden { a: 2, b: 0 }]
        );
        assert!(check(&f, &[(2, Some(1))]).is_empty());
    }

    #[test]
    fn a_second_bye_breaks_c2() {
        let mut players = [record(2.0, &[]), record(0.0, &[])];
        players[0].bye_ineligible = true;
        let none = HashSet::new();
        let f = field(&players, &none);
        assert_eq!(
            check(&f, &[(0, None)]),
            vec![Violation::ByeAgain { player: 0 }]
        );
        assert!(check(&f, &[(1, None)]).is_empty());
    }

    #[test]
    fn equal_absolute_preferences_break_c3_except_for_topscorers_in_the_last_round() {
        // Both played White twice in a row: both must have Black.
        let players = [
            record(4.0, &[(8, W), (9, W)]),
            record(3.0, &[(4, W), (5, W)]),
            record(2.0, &[(6, B), (7, W)]),
        ];
        let none = HashSet::new();
        let mut f = field(&players, &none);
        assert_eq!(
            check(&f, &[(0, Some(1))]),
            vec![Violation::SameAbsoluteColour {
                a: 0,
                b: 1,
                colour: B
            }]
        );
        f.last_round = true;
        f.topscorer_above = 3.5;
        assert!(
            check(&f, &[(0, Some(1))]).is_empty(),
            "player 0 is a topscorer"
        );
        // An absolute preference left ungranted where it could be granted: E.1, not absolute.
        let found = check(&f, &[(0, Some(2))]);
        assert_eq!(
            found,
            vec![Violation::ColourDenied {
                player: 0,
                colour: B
            }]
        );
        assert!(!found[0].absolute());
        assert!(check(&f, &[(2, Some(0))]).is_empty());
    }

    #[test]
    fn a_player_on_two_boards_is_found() {
        let players = [record(0.0, &[]), record(0.0, &[]), record(0.0, &[])];
        let none = HashSet::new();
        let f = field(&players, &none);
        assert_eq!(
            check(&f, &[(0, Some(1)), (2, Some(0))]),
            vec![Violation::PairedTwice { player: 0 }]
        );
    }
}
