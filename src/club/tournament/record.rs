//! What a tournament is: its system, scoring, tie-breaks and variant; its pairings and
//! standings as the other modules return them.

use crate::club::error::ClubError;
use crate::club::tiebreak::TieBreak;
use crate::rules::variant::Variant;
use serde::Serialize;
use std::str::FromStr;

/// How a tournament is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// Everyone plays everyone once (Berger tables).
    RoundRobin,
    /// Everyone plays everyone twice, colours reversed.
    DoubleRoundRobin,
    /// Swiss, Dutch-style, over a fixed number of rounds; late entries welcome.
    Swiss {
        /// Rounds to play.
        rounds: u32,
    },
    /// Keizer: club evenings pairing whoever is present by Keizer ranking, for as many rounds
    /// as given (or open-ended with 0).
    Keizer {
        /// Rounds to play (0: no limit).
        rounds: u32,
    },
}

impl System {
    pub(super) fn name(self) -> &'static str {
        match self {
            System::RoundRobin => "round-robin",
            System::DoubleRoundRobin => "double-round-robin",
            System::Swiss { .. } => "swiss",
            System::Keizer { .. } => "keizer",
        }
    }

    /// The system named `name`; a Swiss needs its number of rounds.
    pub fn parse(name: &str, rounds: Option<u32>) -> Result<System, ClubError> {
        match (name, rounds) {
            ("round-robin" | "rr", _) => Ok(System::RoundRobin),
            ("double-round-robin" | "drr", _) => Ok(System::DoubleRoundRobin),
            ("swiss", Some(r)) if r > 0 => Ok(System::Swiss { rounds: r }),
            ("swiss", _) => Err(ClubError::BadInput(
                "a Swiss needs its number of rounds (--rounds)".into(),
            )),
            ("keizer", r) => Ok(System::Keizer {
                rounds: r.unwrap_or(0),
            }),
            (other, _) => Err(ClubError::BadInput(format!(
                "{other:?} is not a system (round-robin, double-round-robin, swiss, keizer)"
            ))),
        }
    }
}

/// Points for a win and a draw (a loss scores nothing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Scoring {
    /// Points for a win.
    pub win: f64,
    /// Points for a draw.
    pub draw: f64,
}

impl FromStr for Scoring {
    type Err = ClubError;
    fn from_str(s: &str) -> Result<Scoring, ClubError> {
        match s {
            "2-1-0" | "fmjd" => Ok(Scoring {
                win: 2.0,
                draw: 1.0,
            }),
            "1-0.5-0" | "1-½-0" | "1-1/2-0" => Ok(Scoring {
                win: 1.0,
                draw: 0.5,
            }),
            other => Err(ClubError::BadInput(format!(
                "{other:?} is not a scoring (2-1-0 or 1-0.5-0)"
            ))),
        }
    }
}

impl Scoring {
    pub(super) fn name(self) -> &'static str {
        if self.win == 2.0 { "2-1-0" } else { "1-0.5-0" }
    }
}

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
}

impl FromStr for Outcome {
    type Err = ClubError;
    fn from_str(s: &str) -> Result<Outcome, ClubError> {
        match s {
            "2-0" | "1-0" => Ok(Outcome::WhiteWins),
            "1-1" | "1/2-1/2" | "½-½" | "draw" => Ok(Outcome::Draw),
            "0-2" | "0-1" => Ok(Outcome::BlackWins),
            other => Err(ClubError::BadInput(format!(
                "{other:?} is not a result (2-0, 1-1, 0-2, or 1-0, 1/2-1/2, 0-1)"
            ))),
        }
    }
}

impl Outcome {
    /// The result as the standings write it for a scoring (`2-0`, `1-1`, `0-2`).
    pub fn text(self, scoring: Scoring) -> String {
        let (w, d) = (scoring.win, scoring.draw);
        let p = |x: f64| {
            if x == 0.5 {
                "½".to_string()
            } else {
                x.to_string()
            }
        };
        match self {
            Outcome::WhiteWins => format!("{}-0", p(w)),
            Outcome::Draw => format!("{}-{}", p(d), p(d)),
            Outcome::BlackWins => format!("0-{}", p(w)),
        }
    }

    pub(super) fn code(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "W",
            Outcome::Draw => "D",
            Outcome::BlackWins => "B",
        }
    }

    /// The stored code's result and whether it was a forfeit (`FW`/`FB`: the other player
    /// withdrew; `FF`: both did, nobody scores).
    pub(super) fn from_code(c: &str) -> (Option<Outcome>, bool) {
        match c {
            "W" => (Some(Outcome::WhiteWins), false),
            "D" => (Some(Outcome::Draw), false),
            "B" => (Some(Outcome::BlackWins), false),
            "FW" => (Some(Outcome::WhiteWins), true),
            "FB" => (Some(Outcome::BlackWins), true),
            "FF" => (None, true),
            _ => (None, false),
        }
    }
}

/// A tournament's settings.
#[derive(Clone, Debug, Serialize)]
pub struct Tournament {
    /// Database id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Pairing system.
    pub system: System,
    /// Variant played.
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    /// Time control, as the clock syntax writes it.
    pub time_control: Option<String>,
    /// Points per result.
    pub scoring: Scoring,
    /// Whether games count for ratings.
    pub rated: bool,
    /// Tie-breaks after points, in order.
    #[serde(serialize_with = "tiebreak_names")]
    pub tiebreaks: Vec<TieBreak>,
    /// Who confirms the results players report.
    pub reports: Confirmation,
}

/// Who confirms a result a player reported, before it counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confirmation {
    /// The tournament's arbiter or an organiser.
    #[default]
    Arbiter,
    /// The arbiter or an organiser, or the opponent reporting the same result.
    Opponent,
}

impl Confirmation {
    /// The stored and typed name.
    pub fn name(self) -> &'static str {
        match self {
            Confirmation::Arbiter => "arbiter",
            Confirmation::Opponent => "opponent",
        }
    }
}

impl FromStr for Confirmation {
    type Err = ClubError;
    fn from_str(s: &str) -> Result<Confirmation, ClubError> {
        match s.trim() {
            "arbiter" => Ok(Confirmation::Arbiter),
            "opponent" => Ok(Confirmation::Opponent),
            other => Err(ClubError::BadInput(format!(
                "{other:?}: reported results are confirmed by the arbiter or the opponent"
            ))),
        }
    }
}

fn tiebreak_names<S: serde::Serializer>(v: &[TieBreak], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|t| t.name()))
}

/// Reads a comma-separated tie-break list (`sb,wins`).
pub fn parse_tiebreaks(text: &str) -> Result<Vec<TieBreak>, ClubError> {
    text.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(str::parse)
        .collect()
}

fn variant_name<S: serde::Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.name())
}

/// A game of a round.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// Database id of the game.
    pub id: i64,
    /// Round number (1-based).
    pub round: u32,
    /// Board number (1-based).
    pub board: u32,
    /// White's name.
    pub white: String,
    /// Black's name (`None`: White has the bye).
    pub black: Option<String>,
    /// The result, once known.
    pub result: Option<Outcome>,
    /// The game was not played: a player withdrew.
    pub forfeit: bool,
    /// A result a player reported, not yet confirmed (it does not count until it is).
    pub reported: Option<Report>,
}

/// A result reported by a player, waiting for confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The result reported.
    pub outcome: Outcome,
    /// Who reported it.
    pub by: String,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// Place (equal places share it).
    pub place: usize,
    /// Name.
    pub name: String,
    /// Points.
    pub points: f64,
    /// Games played (byes not counted).
    pub played: u32,
    /// The tournament's tie-breaks, in its order.
    pub tiebreaks: Vec<f64>,
}

/// A tournament to create.
#[derive(Clone, Debug)]
pub struct NewTournament<'a> {
    /// Its name (unique in the club).
    pub name: &'a str,
    /// Pairing system.
    pub system: System,
    /// Variant.
    pub variant: Variant,
    /// Time control in the clock syntax.
    pub time_control: Option<&'a str>,
    /// Points per result.
    pub scoring: Scoring,
    /// Whether games count for ratings.
    pub rated: bool,
    /// Tie-breaks after points, in order.
    pub tiebreaks: Vec<TieBreak>,
    /// Who confirms the results players report.
    pub reports: Confirmation,
}

#[cfg(test)]
impl<'a> NewTournament<'a> {
    /// A rated International round robin scored 2-1-0, tie-break Sonneborn-Berger (for tests).
    pub(crate) fn test(name: &'a str) -> NewTournament<'a> {
        NewTournament {
            name,
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: None,
            scoring: Scoring {
                win: 2.0,
                draw: 1.0,
            },
            rated: true,
            tiebreaks: vec![TieBreak::SonnebornBerger],
            reports: Confirmation::Arbiter,
        }
    }
}
