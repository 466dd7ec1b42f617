//! Tournaments in the club database: create, enter members, pair rounds, record results,
//! standings. Round robins (single and double) are paired by the Berger tables.

use super::error::ClubError;
use super::members;
use super::pairing::berger;
use super::store::{Store, db};
use super::swiss::{self, Float, Side, SwissPlayer};
use super::tiebreak::{Game as TbGame, Results, TieBreak};
use crate::rules::variant::Variant;
use rusqlite::{OptionalExtension, Transaction, params};
use serde::Serialize;
use std::collections::BTreeMap;
use std::collections::HashSet;
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
    fn name(self) -> &'static str {
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
    fn name(self) -> &'static str {
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
    fn code(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "W",
            Outcome::Draw => "D",
            Outcome::BlackWins => "B",
        }
    }

    /// The stored code's result and whether it was a forfeit (`FW`/`FB`: the other player
    /// withdrew; `FF`: both did, nobody scores).
    fn from_code(c: &str) -> (Option<Outcome>, bool) {
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
        }
    }
}

/// Creates a tournament.
pub fn create(store: &mut Store, new: &NewTournament) -> Result<i64, ClubError> {
    store.write("tournament create", |tx| {
        let id = insert(tx, new)?;
        Ok((id, format!("#{id} {}", new.name.trim())))
    })
}

/// Checks and inserts a tournament inside a transaction; returns its id.
pub(crate) fn insert(tx: &Transaction, new: &NewTournament) -> Result<i64, ClubError> {
    let NewTournament {
        name,
        system,
        variant,
        time_control,
        scoring,
        rated,
        ref tiebreaks,
    } = *new;
    let name = name.trim().to_string();
    if name.is_empty() || name.parse::<i64>().is_ok() {
        return Err(ClubError::BadInput(format!(
            "{name:?} is not a usable tournament name"
        )));
    }
    if let Some(tc) = time_control {
        crate::clock::TimeControl::parse(tc).map_err(|e| ClubError::BadInput(e.to_string()))?;
    }
    let taken: Option<i64> = tx
        .query_row(
            "SELECT id FROM tournaments WHERE name = ?1 COLLATE NOCASE",
            [&name],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?;
    if taken.is_some() {
        return Err(ClubError::Refused(format!(
            "a tournament named {name:?} exists already"
        )));
    }
    tx.execute(
        "INSERT INTO tournaments (name, system, variant, time_control, scoring, rated, tiebreaks, rounds, created)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, datetime('now'))",
        params![
            name,
            system.name(),
            variant.name(),
            time_control,
            scoring.name(),
            rated,
            tiebreaks.iter().map(|t| t.name()).collect::<Vec<_>>().join(","),
            match system {
                System::Swiss { rounds } | System::Keizer { rounds } => Some(rounds),
                _ => None,
            }
        ],
    )
    .map_err(db)?;
    Ok(tx.last_insert_rowid())
}

/// Finds a tournament by id or name.
pub fn find(store: &Store, which: &str) -> Result<Tournament, ClubError> {
    let conn = store.conn();
    let row = |r: &rusqlite::Row| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, bool>(6)?,
            r.get::<_, String>(7)?,
            r.get::<_, Option<u32>>(8)?,
        ))
    };
    let sql = "SELECT id, name, system, variant, time_control, scoring, rated, tiebreaks, rounds FROM tournaments";
    let found = match which.trim().parse::<i64>() {
        Ok(id) => conn
            .query_row(&format!("{sql} WHERE id = ?1"), [id], row)
            .optional(),
        Err(_) => conn
            .query_row(
                &format!("{sql} WHERE name = ?1 COLLATE NOCASE"),
                [which.trim()],
                row,
            )
            .optional(),
    }
    .map_err(db)?;
    let (id, name, system, variant, time_control, scoring, rated, tiebreaks, rounds) =
        found.ok_or_else(|| ClubError::BadInput(format!("no tournament {which:?}")))?;
    Ok(Tournament {
        id,
        name,
        system: System::parse(&system, rounds)?,
        variant: variant
            .parse()
            .map_err(|_| ClubError::BadInput(format!("stored variant {variant:?}")))?,
        time_control,
        scoring: scoring.parse()?,
        rated,
        tiebreaks: parse_tiebreaks(&tiebreaks)?,
    })
}

/// All tournaments, newest first.
pub fn list(store: &Store) -> Result<Vec<Tournament>, ClubError> {
    let ids: Vec<i64> = {
        let mut stmt = store
            .conn()
            .prepare("SELECT id FROM tournaments ORDER BY id DESC")
            .map_err(db)?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)?
    };
    ids.iter().map(|id| find(store, &id.to_string())).collect()
}

fn rounds_paired(tx: &rusqlite::Connection, t: i64) -> Result<u32, ClubError> {
    tx.query_row(
        "SELECT coalesce(max(round), 0) FROM games WHERE tournament_id = ?1",
        [t],
        |r| r.get(0),
    )
    .map_err(db)
}

/// Enters members (by name or id) into a tournament that has not started.
pub fn enter(store: &mut Store, which: &str, who: &[String]) -> Result<usize, ClubError> {
    let t = find(store, which)?;
    let people = who
        .iter()
        .map(|w| members::find(store, w))
        .collect::<Result<Vec<_>, _>>()?;
    store.write("tournament enter", |tx| {
        let open = matches!(t.system, System::Swiss { .. } | System::Keizer { .. });
        if !open && rounds_paired(tx, t.id)? > 0 {
            return Err(ClubError::Refused(format!(
                "{} has started: a round robin takes no late entries",
                t.name
            )));
        }
        for m in &people {
            if !m.active {
                return Err(ClubError::Refused(format!("{} is inactive", m.name)));
            }
            let n = tx
                .execute(
                    "INSERT OR IGNORE INTO entries (tournament_id, member_id, number)
                     VALUES (?1, ?2, (SELECT coalesce(max(number), 0) + 1 FROM entries WHERE tournament_id = ?1))",
                    params![t.id, m.id],
                )
                .map_err(db)?;
            if n == 0 {
                return Err(ClubError::Refused(format!("{} is entered already", m.name)));
            }
        }
        let names: Vec<&str> = people.iter().map(|m| m.name.as_str()).collect();
        Ok((people.len(), format!("{}: {}", t.name, names.join(", "))))
    })
}

/// The entrants' names in entry order (their starting numbers).
pub fn entrant_names(store: &Store, t: i64) -> Result<Vec<String>, ClubError> {
    Ok(entrants(store.conn(), t)?
        .into_iter()
        .map(|(_, n)| n)
        .collect())
}

/// The entrants' member ids and names in entry order (their Berger numbers).
fn entrants(tx: &rusqlite::Connection, t: i64) -> Result<Vec<(i64, String)>, ClubError> {
    let mut stmt = tx
        .prepare(
            "SELECT m.id, m.name FROM entries e JOIN members m ON m.id = e.member_id
             WHERE e.tournament_id = ?1 ORDER BY e.number",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

fn missing_results(tx: &Transaction, t: i64, round: u32) -> Result<u32, ClubError> {
    tx.query_row(
        "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2
         AND black_id IS NOT NULL AND result IS NULL",
        params![t, round],
        |r| r.get(0),
    )
    .map_err(db)
}

/// The Swiss view of the players still in a tournament: points, rating, opponents, colours,
/// byes.
fn swiss_players(
    tx: &Transaction,
    t: &Tournament,
    round: u32,
) -> Result<Vec<SwissPlayer>, ClubError> {
    let mut players: BTreeMap<i64, SwissPlayer> = BTreeMap::new();
    {
        let mut stmt = tx
            .prepare(
                "SELECT e.member_id, coalesce(r.rating, ?3) FROM entries e
                 LEFT JOIN ratings r ON r.member_id = e.member_id AND r.variant = ?2
                 WHERE e.tournament_id = ?1 AND e.withdrawn = 0
                   AND e.member_id NOT IN
                       (SELECT member_id FROM absences WHERE tournament_id = ?1 AND round = ?4)",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map(
                params![
                    t.id,
                    t.variant.name(),
                    super::ratings::DEFAULT_RATING,
                    round
                ],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?)),
            )
            .map_err(db)?;
        for row in rows {
            let (id, rating) = row.map_err(db)?;
            players.insert(
                id,
                SwissPlayer {
                    id: id as usize,
                    rating,
                    ..Default::default()
                },
            );
        }
    }
    let (win, draw) = (t.scoring.win, t.scoring.draw);
    // Scores before the round being read, to tell who floated in it.
    let mut before: BTreeMap<i64, f64> = BTreeMap::new();
    let mut current = 0;
    for (round, w, b, result) in game_rows(tx, t.id)? {
        if round != current {
            current = round;
            before = players.iter().map(|(id, p)| (*id, p.score)).collect();
            for p in players.values_mut() {
                p.floated = None;
            }
        }
        let Some(b) = b else {
            if let Some(p) = players.get_mut(&w) {
                p.had_bye = true;
                p.score += win;
                p.floated = Some(Float::Down);
            }
            continue;
        };
        let (sw, sb) = (
            before.get(&w).copied().unwrap_or(0.0),
            before.get(&b).copied().unwrap_or(0.0),
        );
        for (me, mine, theirs) in [(w, sw, sb), (b, sb, sw)] {
            if let Some(p) = players.get_mut(&me) {
                p.floated = match mine.total_cmp(&theirs) {
                    std::cmp::Ordering::Greater => Some(Float::Down),
                    std::cmp::Ordering::Less => Some(Float::Up),
                    std::cmp::Ordering::Equal => None,
                };
            }
        }
        let (sw, sb, played) = match result.as_deref() {
            Some("W") => (win, 0.0, true),
            Some("D") => (draw, draw, true),
            Some("B") => (0.0, win, true),
            Some("FW") => (win, 0.0, false),
            Some("FB") => (0.0, win, false),
            _ => (0.0, 0.0, false),
        };
        for (me, them, score, side) in [(w, b, sw, Side::White), (b, w, sb, Side::Black)] {
            if let Some(p) = players.get_mut(&me) {
                p.score += score;
                p.opponents.insert(them as usize);
                if played {
                    p.colours.push(side);
                }
            }
        }
    }
    Ok(players.into_values().collect())
}

/// White, Black (none for a bye) and the stored result code of every game, in round and board
/// order.
type GameRow = (u32, i64, Option<i64>, Option<String>);

fn game_rows(conn: &rusqlite::Connection, t: i64) -> Result<Vec<GameRow>, ClubError> {
    let mut stmt = conn
        .prepare(
            "SELECT round, white_id, black_id, result FROM games WHERE tournament_id = ?1
             ORDER BY round, board",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// The Keizer ranking (member ids, best first) and scores of a tournament's entrants, from its
/// games, byes and absences so far.
fn keizer_field(
    conn: &rusqlite::Connection,
    t: &Tournament,
) -> Result<(Vec<i64>, BTreeMap<i64, f64>), ClubError> {
    let people = entrants(conn, t.id)?;
    let index: BTreeMap<i64, usize> = people
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    let mut evenings = super::keizer::Evenings {
        players: people.len(),
        ratings: Vec::new(),
        ..Default::default()
    };
    for (id, _) in &people {
        let r: Option<f64> = conn
            .query_row(
                "SELECT rating FROM ratings WHERE member_id = ?1 AND variant = ?2",
                params![id, t.variant.name()],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        evenings
            .ratings
            .push(r.unwrap_or(super::ratings::DEFAULT_RATING));
    }
    let paired = rounds_paired(conn, t.id)?;
    for (_, w, b, result) in game_rows(conn, t.id)? {
        let Some(&wi) = index.get(&w) else { continue };
        match (b.and_then(|b| index.get(&b).copied()), result.as_deref()) {
            (None, _) => evenings.byes.push(wi),
            (Some(bi), Some(code)) => {
                let score = match code {
                    "W" | "FW" => 1.0,
                    "D" => 0.5,
                    "B" | "FB" => 0.0,
                    _ => continue,
                };
                evenings.games.push(super::keizer::KeizerGame {
                    white: wi,
                    black: bi,
                    score,
                });
            }
            _ => {}
        }
    }
    let mut stmt = conn
        .prepare("SELECT member_id FROM absences WHERE tournament_id = ?1 AND round <= ?2")
        .map_err(db)?;
    let rows = stmt
        .query_map(params![t.id, paired], |r| r.get::<_, i64>(0))
        .map_err(db)?;
    for row in rows {
        if let Some(&i) = index.get(&row.map_err(db)?) {
            evenings.absences.push(i);
        }
    }
    let (scores, order) = evenings.standings();
    let ranking = order.iter().map(|&i| people[i].0).collect();
    let by_id = people
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, scores[i]))
        .collect();
    Ok((ranking, by_id))
}

/// Pairs the next round; refused while the previous round has missing results or when every
/// round is paired. Returns the round number.
pub fn pair_next(store: &mut Store, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write("tournament pair", |tx| {
        let players = entrants(tx, t.id)?;
        if players.len() < 2 {
            return Err(ClubError::Refused(format!(
                "{} needs at least two players",
                t.name
            )));
        }
        let total = match t.system {
            System::RoundRobin => players.len() + players.len() % 2 - 1,
            System::DoubleRoundRobin => 2 * (players.len() + players.len() % 2 - 1),
            System::Swiss { rounds } => rounds as usize,
            System::Keizer { rounds: 0 } => usize::MAX,
            System::Keizer { rounds } => rounds as usize,
        };
        let done = rounds_paired(tx, t.id)?;
        if done as usize >= total {
            return Err(ClubError::Refused(format!(
                "all {total} rounds of {} are paired",
                t.name
            )));
        }
        if done > 0 {
            let missing = missing_results(tx, t.id, done)?;
            if missing > 0 {
                return Err(ClubError::Refused(format!(
                    "round {done} of {} has {missing} missing result(s)",
                    t.name
                )));
            }
        }
        let round = done + 1;
        let (boards, bye): (Vec<(i64, i64)>, Option<i64>) = match t.system {
            System::Swiss { .. } => {
                let field = swiss_players(tx, &t, round)?;
                let r = swiss::pair(&field, &forbidden_pairs(tx, t.id)?).map_err(|why| {
                    ClubError::Refused(format!(
                        "round {round} of {} cannot be paired: {why}",
                        t.name
                    ))
                })?;
                let id = |n: usize| n as i64;
                (
                    r.boards.iter().map(|&(w, b)| (id(w), id(b))).collect(),
                    r.bye.map(id),
                )
            }
            System::Keizer { .. } => {
                let (ranking, _) = keizer_field(tx, &t)?;
                let absent: HashSet<i64> = {
                    let mut stmt = tx
                        .prepare(
                            "SELECT member_id FROM absences WHERE tournament_id = ?1 AND round = ?2",
                        )
                        .map_err(db)?;
                    let rows = stmt
                        .query_map(params![t.id, round], |r| r.get(0))
                        .map_err(db)?;
                    rows.collect::<Result<_, _>>().map_err(db)?
                };
                let field = swiss_players(tx, &t, round)?;
                let index: BTreeMap<i64, usize> = ranking
                    .iter()
                    .enumerate()
                    .map(|(i, id)| (*id, i))
                    .collect();
                let present: Vec<usize> = ranking
                    .iter()
                    .filter(|id| !absent.contains(id) && field.iter().any(|p| p.id as i64 == **id))
                    .map(|id| index[id])
                    .collect();
                let whites: Vec<i32> = ranking
                    .iter()
                    .map(|id| {
                        field
                            .iter()
                            .find(|p| p.id as i64 == *id)
                            .map_or(0, |p| {
                                p.colours
                                    .iter()
                                    .map(|c| if *c == Side::White { 1 } else { -1 })
                                    .sum()
                            })
                    })
                    .collect();
                // Opponents of the last three rounds are avoided when possible.
                let recent: HashSet<(usize, usize)> = {
                    let mut stmt = tx
                        .prepare(
                            "SELECT white_id, black_id FROM games WHERE tournament_id = ?1
                             AND black_id IS NOT NULL AND round > ?2",
                        )
                        .map_err(db)?;
                    let rows = stmt
                        .query_map(params![t.id, round as i64 - 4], |r| {
                            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                        })
                        .map_err(db)?;
                    let mut set = HashSet::new();
                    for row in rows {
                        let (w, b) = row.map_err(db)?;
                        if let (Some(&x), Some(&y)) = (index.get(&w), index.get(&b)) {
                            set.insert((x.min(y), x.max(y)));
                        }
                    }
                    set
                };
                if present.len() < 2 {
                    return Err(ClubError::Refused(format!(
                        "fewer than two players present for round {round} of {}",
                        t.name
                    )));
                }
                let (pairs, bye) = super::keizer::pair(&present, &recent, &whites);
                (
                    pairs
                        .iter()
                        .map(|&(w, b)| (ranking[w], ranking[b]))
                        .collect(),
                    bye.map(|i| ranking[i]),
                )
            }
            _ => {
                let table = berger(players.len(), t.system == System::DoubleRoundRobin);
                let r = &table[done as usize];
                let id = |n: usize| players[n - 1].0;
                (
                    r.boards
                        .iter()
                        .map(|b| (id(b.white), id(b.black)))
                        .collect(),
                    r.bye.map(id),
                )
            }
        };
        for (b, (white, black)) in boards.iter().enumerate() {
            tx.execute(
                "INSERT INTO games (tournament_id, round, board, white_id, black_id)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![t.id, round, b as u32 + 1, white, black],
            )
            .map_err(db)?;
        }
        if let Some(p) = bye {
            tx.execute(
                "INSERT INTO games (tournament_id, round, board, white_id, black_id, result)
                 VALUES (?1, ?2, ?3, ?4, NULL, 'bye')",
                params![t.id, round, boards.len() as u32 + 1, p],
            )
            .map_err(db)?;
        }
        forfeit_withdrawn(tx, t.id)?;
        Ok((round, format!("{} round {round}", t.name)))
    })
}

fn forbidden_pairs(tx: &Transaction, t: i64) -> Result<HashSet<(usize, usize)>, ClubError> {
    let mut stmt = tx
        .prepare("SELECT a, b FROM forbidden WHERE tournament_id = ?1")
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
        .map_err(db)?;
    let mut set = HashSet::new();
    for row in rows {
        let (a, b) = row.map_err(db)?;
        set.insert((a.min(b) as usize, a.max(b) as usize));
    }
    Ok(set)
}

/// Rules out a pairing in a Swiss (family members, club mates, by the organiser's choice).
pub fn forbid(store: &mut Store, which: &str, a: &str, b: &str) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let (x, y) = (members::find(store, a)?, members::find(store, b)?);
    if x.id == y.id {
        return Err(ClubError::BadInput(
            "a player cannot meet themselves anyway".into(),
        ));
    }
    store.write("tournament forbid", |tx| {
        tx.execute(
            "INSERT OR IGNORE INTO forbidden (tournament_id, a, b) VALUES (?1, ?2, ?3)",
            params![t.id, x.id.min(y.id), x.id.max(y.id)],
        )
        .map_err(db)?;
        Ok((
            (),
            format!("{}: {} and {} are not paired", t.name, x.name, y.name),
        ))
    })
}

/// Marks a player absent (or present again) for one Swiss round: an absent player is not paired
/// and scores nothing. Only for a round not yet paired.
pub fn set_absent(
    store: &mut Store,
    which: &str,
    who: &str,
    round: u32,
    absent: bool,
) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let m = members::find(store, who)?;
    if !matches!(t.system, System::Swiss { .. } | System::Keizer { .. }) {
        return Err(ClubError::Refused(format!(
            "{} is a round robin: every pairing is fixed; record a result or withdraw instead",
            t.name
        )));
    }
    store.write("tournament absent", |tx| {
        if round <= rounds_paired(tx, t.id)? {
            return Err(ClubError::Refused(format!(
                "round {round} of {} is paired already (unpair it first)",
                t.name
            )));
        }
        let sql = if absent {
            "INSERT OR IGNORE INTO absences (tournament_id, member_id, round) VALUES (?1, ?2, ?3)"
        } else {
            "DELETE FROM absences WHERE tournament_id = ?1 AND member_id = ?2 AND round = ?3"
        };
        tx.execute(sql, params![t.id, m.id, round]).map_err(db)?;
        let what = if absent { "absent" } else { "present" };
        Ok((
            (),
            format!("{}: {} {what} in round {round}", t.name, m.name),
        ))
    })
}

/// The last paired round, refused if any of its games has a result (the round has started).
fn open_round(tx: &Transaction, t: &Tournament) -> Result<u32, ClubError> {
    let round = rounds_paired(tx, t.id)?;
    if round == 0 {
        return Err(ClubError::Refused(format!(
            "{} has no round paired",
            t.name
        )));
    }
    let played: u32 = tx
        .query_row(
            "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2
             AND black_id IS NOT NULL AND result IN ('W', 'D', 'B')",
            params![t.id, round],
            |r| r.get(0),
        )
        .map_err(db)?;
    if played > 0 {
        return Err(ClubError::Refused(format!(
            "round {round} of {} has results already",
            t.name
        )));
    }
    Ok(round)
}

/// Overrides the last round's pairing before it starts: `a` and `b` change places (boards,
/// colours and byes follow; two opponents thereby change colours), or without `b` the colours
/// of `a`'s game are reversed.
pub fn swap(store: &mut Store, which: &str, a: &str, b: Option<&str>) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    let x = members::find(store, a)?;
    let y = b.map(|b| members::find(store, b)).transpose()?;
    store.write("tournament swap", |tx| {
        let round = open_round(tx, &t)?;
        let detail = match &y {
            Some(y) => {
                let n = tx
                    .execute(
                        "UPDATE games SET
                           white_id = CASE white_id WHEN ?3 THEN ?4 WHEN ?4 THEN ?3 ELSE white_id END,
                           black_id = CASE black_id WHEN ?3 THEN ?4 WHEN ?4 THEN ?3 ELSE black_id END
                         WHERE tournament_id = ?1 AND round = ?2",
                        params![t.id, round, x.id, y.id],
                    )
                    .map_err(db)?;
                if n == 0 {
                    return Err(ClubError::Refused(format!(
                        "neither {} nor {} plays in round {round}",
                        x.name, y.name
                    )));
                }
                format!("{} round {round}: {} and {} swapped", t.name, x.name, y.name)
            }
            None => {
                let n = tx
                    .execute(
                        "UPDATE games SET white_id = black_id, black_id = white_id
                         WHERE tournament_id = ?1 AND round = ?2 AND black_id IS NOT NULL
                           AND (white_id = ?3 OR black_id = ?3)",
                        params![t.id, round, x.id],
                    )
                    .map_err(db)?;
                if n == 0 {
                    return Err(ClubError::Refused(format!(
                        "{} has no game in round {round}",
                        x.name
                    )));
                }
                format!("{} round {round}: colours of {}'s game swapped", t.name, x.name)
            }
        };
        Ok((round, detail))
    })
}

/// Takes back the last paired round while none of its games has a result, so the organiser
/// can change the field (absences, forbidden pairs) and pair it again.
pub fn unpair(store: &mut Store, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write("tournament unpair", |tx| {
        let round = open_round(tx, &t)?;
        tx.execute(
            "DELETE FROM games WHERE tournament_id = ?1 AND round = ?2",
            params![t.id, round],
        )
        .map_err(db)?;
        Ok((round, format!("{} round {round} unpaired", t.name)))
    })
}

/// Gives every unplayed game of a withdrawn player to the opponent by forfeit.
fn forfeit_withdrawn(tx: &Transaction, t: i64) -> Result<usize, ClubError> {
    tx.execute(
        "UPDATE games SET result = CASE
             WHEN w.withdrawn AND b.withdrawn THEN 'FF'
             WHEN w.withdrawn THEN 'FB'
             ELSE 'FW' END
         FROM entries w, entries b
         WHERE games.tournament_id = ?1 AND games.result IS NULL AND games.black_id IS NOT NULL
           AND w.tournament_id = ?1 AND w.member_id = games.white_id
           AND b.tournament_id = ?1 AND b.member_id = games.black_id
           AND (w.withdrawn OR b.withdrawn)",
        [t],
    )
    .map_err(db)
}

/// Withdraws a player: their unplayed games, now and in later rounds, are lost by forfeit
/// (results already played stand).
pub fn withdraw(store: &mut Store, which: &str, who: &str) -> Result<usize, ClubError> {
    let t = find(store, which)?;
    let m = members::find(store, who)?;
    store.write("tournament withdraw", |tx| {
        let n = tx
            .execute(
                "UPDATE entries SET withdrawn = 1
                 WHERE tournament_id = ?1 AND member_id = ?2 AND withdrawn = 0",
                params![t.id, m.id],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClubError::Refused(format!(
                "{} is not playing in {}",
                m.name, t.name
            )));
        }
        let forfeits = forfeit_withdrawn(tx, t.id)?;
        Ok((forfeits, format!("{}: {} withdrew", t.name, m.name)))
    })
}

/// The pairings of one round (or all rounds with `None`).
pub fn pairings(store: &Store, which: &str, round: Option<u32>) -> Result<Vec<Pairing>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT g.id, g.round, g.board, w.name, b.name, g.result
             FROM games g JOIN members w ON w.id = g.white_id LEFT JOIN members b ON b.id = g.black_id
             WHERE g.tournament_id = ?1 AND (?2 IS NULL OR g.round = ?2)
             ORDER BY g.round, g.board",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map(params![t.id, round], |r| {
            let (result, forfeit) = r
                .get::<_, Option<String>>(5)?
                .as_deref()
                .map_or((None, false), Outcome::from_code);
            Ok(Pairing {
                id: r.get(0)?,
                round: r.get(1)?,
                board: r.get(2)?,
                white: r.get(3)?,
                black: r.get(4)?,
                result,
                forfeit,
            })
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// The games `member` still has to play in the latest round of each tournament (byes and games
/// with a result left out).
pub fn to_play(store: &Store, member: &str) -> Result<Vec<(Tournament, Pairing)>, ClubError> {
    let mut out = Vec::new();
    for t in list(store)? {
        let round: u32 = store
            .conn()
            .query_row(
                "SELECT coalesce(max(round), 0) FROM games WHERE tournament_id = ?1",
                [t.id],
                |r| r.get(0),
            )
            .map_err(db)?;
        if round == 0 {
            continue;
        }
        for p in pairings(store, &t.id.to_string(), Some(round))? {
            let plays = p.white == member || p.black.as_deref() == Some(member);
            if plays && p.black.is_some() && p.result.is_none() {
                out.push((t.clone(), p));
            }
        }
    }
    Ok(out)
}

/// Records (or corrects) the result of the game between `white` and `black` in a round.
pub fn record_result(
    store: &mut Store,
    which: &str,
    round: u32,
    white: &str,
    black: &str,
    outcome: Outcome,
) -> Result<Pairing, ClubError> {
    record_game(store, which, round, &[white, black], outcome, None)
}

/// The stored PDN of a game, if any.
pub fn game_pdn(store: &Store, game: i64) -> Result<Option<String>, ClubError> {
    store
        .conn()
        .query_row("SELECT pdn FROM games WHERE id = ?1", [game], |r| r.get(0))
        .map_err(db)
}

/// Records a result and, with it in the same transaction, the game's PDN text.
pub fn record_game(
    store: &mut Store,
    which: &str,
    round: u32,
    [white, black]: &[&str; 2],
    outcome: Outcome,
    pdn: Option<&str>,
) -> Result<Pairing, ClubError> {
    let t = find(store, which)?;
    let w = members::find(store, white)?;
    let b = members::find(store, black)?;
    let id = store.write("tournament result", |tx| {
        let game: Option<(i64, Option<String>)> = tx
            .query_row(
                "SELECT id, result FROM games WHERE tournament_id = ?1 AND round = ?2
                 AND white_id = ?3 AND black_id = ?4",
                params![t.id, round, w.id, b.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((id, before)) = game else {
            return Err(ClubError::Refused(format!(
                "{} – {} is not a game of round {round} of {} (White first)",
                w.name, b.name, t.name
            )));
        };
        tx.execute(
            "UPDATE games SET result = ?1, pdn = coalesce(?3, pdn) WHERE id = ?2",
            params![outcome.code(), id, pdn],
        )
        .map_err(db)?;
        if t.rated {
            super::ratings::recompute(tx, t.variant)?;
        }
        let what = match before {
            Some(old) => format!("corrected from {old}"),
            None => "recorded".into(),
        };
        Ok((
            id,
            format!(
                "{} round {round}: {} – {} {} ({what})",
                t.name,
                w.name,
                b.name,
                outcome.code()
            ),
        ))
    })?;
    pairings(store, which, Some(round))?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| ClubError::BadInput("the game vanished".into()))
}

/// The standings: points, then the tournament's tie-breaks in order; players equal on all of
/// them share a place.
pub fn standings(store: &Store, which: &str) -> Result<Vec<Standing>, ClubError> {
    let t = find(store, which)?;
    let games = pairings(store, which, None)?;
    let people = entrants(store.conn(), t.id)?;
    let index: BTreeMap<&str, usize> = people
        .iter()
        .enumerate()
        .map(|(i, (_, n))| (n.as_str(), i))
        .collect();
    let rated = super::members::list(store, true, None)?;
    let ratings: Vec<f64> = people
        .iter()
        .map(|(id, _)| {
            rated
                .iter()
                .find(|m| m.id == *id)
                .and_then(|m| m.ratings.get(t.variant.name()).copied())
                .unwrap_or(super::ratings::DEFAULT_RATING)
        })
        .collect();
    let mut results = Results {
        players: people.len(),
        games: Vec::new(),
        byes: Vec::new(),
        win: t.scoring.win,
        draw: t.scoring.draw,
        ratings,
    };
    for g in &games {
        let white = index[g.white.as_str()];
        match (g.black.as_deref(), g.result) {
            (None, _) => results.byes.push(white),
            // A win by forfeit scores like a bye: points, no tie-break.
            (Some(b), Some(o)) if g.forfeit => match o {
                Outcome::WhiteWins => results.byes.push(white),
                _ => results.byes.push(index[b]),
            },
            (Some(b), Some(o)) => results.games.push(TbGame {
                white,
                black: index[b],
                score: match o {
                    Outcome::WhiteWins => 1.0,
                    Outcome::Draw => 0.5,
                    Outcome::BlackWins => 0.0,
                },
            }),
            (Some(_), None) => {}
        }
    }
    let mut points = results.points();
    if matches!(t.system, System::Keizer { .. }) {
        // In a Keizer competition the Keizer score is what ranks.
        let (_, scores) = keizer_field(store.conn(), &t)?;
        for (i, (id, _)) in people.iter().enumerate() {
            points[i] = (scores.get(id).copied().unwrap_or(0.0) * 100.0).round() / 100.0;
        }
    }
    let breaks: Vec<Vec<f64>> = t.tiebreaks.iter().map(|&tb| results.tiebreak(tb)).collect();
    let mut played = vec![0u32; people.len()];
    for g in &results.games {
        played[g.white] += 1;
        played[g.black] += 1;
    }
    let mut table: Vec<Standing> = people
        .iter()
        .enumerate()
        .map(|(i, (_, name))| Standing {
            place: 0,
            name: name.clone(),
            points: points[i],
            played: played[i],
            tiebreaks: breaks.iter().map(|b| b[i]).collect(),
        })
        .collect();
    let key = |s: &Standing| {
        let mut k = vec![s.points];
        k.extend(&s.tiebreaks);
        k
    };
    table.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.name.cmp(&b.name))
    });
    for i in 0..table.len() {
        table[i].place = if i > 0 && key(&table[i]) == key(&table[i - 1]) {
            table[i - 1].place
        } else {
            i + 1
        };
    }
    Ok(table)
}

/// A crosstable: the players in standings order and, for each, their points against each other
/// player (one entry per game played, in round order).
#[derive(Clone, Debug, Serialize)]
pub struct Crosstable {
    /// The standings, giving the row order.
    pub standings: Vec<Standing>,
    /// `cells[i][j]`: the points row player `i` scored against row player `j`.
    pub cells: Vec<Vec<Vec<f64>>>,
}

/// The crosstable of a tournament.
pub fn crosstable(store: &Store, which: &str) -> Result<Crosstable, ClubError> {
    let t = find(store, which)?;
    let standings = standings(store, which)?;
    let row: BTreeMap<&str, usize> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let n = standings.len();
    let mut cells = vec![vec![Vec::new(); n]; n];
    for g in pairings(store, which, None)? {
        let (Some(black), Some(o), false) = (g.black.as_deref(), g.result, g.forfeit) else {
            continue;
        };
        let (w, b) = (row[g.white.as_str()], row[black]);
        let (pw, pb) = match o {
            Outcome::WhiteWins => (t.scoring.win, 0.0),
            Outcome::Draw => (t.scoring.draw, t.scoring.draw),
            Outcome::BlackWins => (0.0, t.scoring.win),
        };
        cells[w][b].push(pw);
        cells[b][w].push(pb);
    }
    Ok(Crosstable { standings, cells })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{MemberFields, add};
    use std::collections::HashSet;

    fn club(players: &[&str]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        for p in players {
            add(&mut s, p, &MemberFields::default()).unwrap();
        }
        (dir, s)
    }

    #[test]
    fn a_round_robin_from_entry_to_standings() {
        let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk"]);
        let fmjd: Scoring = "2-1-0".parse().unwrap();
        create(
            &mut s,
            &NewTournament {
                name: "Autumn",
                system: System::RoundRobin,
                variant: Variant::International,
                time_control: Some("80m+1m"),
                scoring: fmjd,
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            },
        )
        .unwrap();
        let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(enter(&mut s, "Autumn", &who).unwrap(), 4);
        assert_eq!(pair_next(&mut s, "Autumn").unwrap(), 1);
        // Berger round 1 for 4: 1-4, 2-3.
        let r1 = pairings(&s, "Autumn", Some(1)).unwrap();
        let boards: Vec<(&str, Option<&str>)> = r1
            .iter()
            .map(|p| (p.white.as_str(), p.black.as_deref()))
            .collect();
        assert_eq!(boards, [("Ann", Some("Dirk")), ("Bob", Some("Cor"))]);
        // No late entries, and no next round while results are missing.
        assert!(matches!(
            enter(&mut s, "Autumn", &["Ann".into()]),
            Err(ClubError::Refused(_))
        ));
        assert!(matches!(
            pair_next(&mut s, "Autumn"),
            Err(ClubError::Refused(_))
        ));
        record_result(&mut s, "Autumn", 1, "Ann", "Dirk", Outcome::WhiteWins).unwrap();
        record_result(&mut s, "Autumn", 1, "Bob", "Cor", Outcome::Draw).unwrap();
        assert!(matches!(
            record_result(&mut s, "Autumn", 1, "Dirk", "Ann", Outcome::Draw),
            Err(ClubError::Refused(_))
        ));
        pair_next(&mut s, "Autumn").unwrap();
        // Round 2: 4-3, 1-2.
        record_result(&mut s, "Autumn", 2, "Dirk", "Cor", Outcome::BlackWins).unwrap();
        record_result(&mut s, "Autumn", 2, "Ann", "Bob", Outcome::Draw).unwrap();
        pair_next(&mut s, "Autumn").unwrap();
        // Round 3: 2-4, 3-1.
        record_result(&mut s, "Autumn", 3, "Bob", "Dirk", Outcome::WhiteWins).unwrap();
        record_result(&mut s, "Autumn", 3, "Cor", "Ann", Outcome::Draw).unwrap();
        assert!(matches!(
            pair_next(&mut s, "Autumn"),
            Err(ClubError::Refused(_))
        ));
        // By hand: Ann 2+1+1 = 4, Bob 1+1+2 = 4, Cor 1+2+1 = 4, Dirk 0.
        // SB: Ann = 1·0(Dirk) + ½·4(Bob) + ½·4(Cor) = 4; Bob = ½·4 + ½·4 + 1·0 = 4;
        // Cor = ½·4(Bob) + 1·0(Dirk) + ½·4(Ann) = 4; all equal: wins 1 each: a three-way tie.
        let table = standings(&s, "Autumn").unwrap();
        let rows: Vec<(usize, &str, f64, f64)> = table
            .iter()
            .map(|r| (r.place, r.name.as_str(), r.points, r.tiebreaks[0]))
            .collect();
        assert_eq!(
            rows,
            [
                (1, "Ann", 4.0, 4.0),
                (1, "Bob", 4.0, 4.0),
                (1, "Cor", 4.0, 4.0),
                (4, "Dirk", 0.0, 0.0)
            ]
        );
        let x = crosstable(&s, "Autumn").unwrap();
        // Rows in standings order: Ann, Bob, Cor, Dirk. Ann beat Dirk, drew Bob and Cor.
        assert_eq!(x.cells[0][3], vec![2.0]);
        assert_eq!(x.cells[0][1], vec![1.0]);
        assert_eq!(x.cells[3][0], vec![0.0]);
        assert!(x.cells[0][0].is_empty());
        // A correction changes the standings.
        record_result(&mut s, "Autumn", 3, "Cor", "Ann", Outcome::WhiteWins).unwrap();
        let table = standings(&s, "Autumn").unwrap();
        assert_eq!((table[0].name.as_str(), table[0].points), ("Cor", 5.0));
        let audit = s.audit().unwrap();
        assert!(audit.last().unwrap().3.contains("corrected from D"));
    }

    #[test]
    fn odd_fields_get_byes_scored_as_wins() {
        let (_d, mut s) = club(&["A1", "B2", "C3"]);
        create(
            &mut s,
            &NewTournament {
                name: "Three",
                system: System::DoubleRoundRobin,
                variant: Variant::English,
                time_control: None,
                scoring: "1-0.5-0".parse().unwrap(),
                rated: false,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            },
        )
        .unwrap();
        enter(&mut s, "Three", &["A1".into(), "B2".into(), "C3".into()]).unwrap();
        pair_next(&mut s, "Three").unwrap();
        let r1 = pairings(&s, "Three", Some(1)).unwrap();
        assert_eq!(r1.len(), 2);
        let bye = r1.iter().find(|p| p.black.is_none()).expect("a bye");
        let game = r1.iter().find(|p| p.black.is_some()).expect("a game");
        record_result(
            &mut s,
            "Three",
            1,
            &game.white,
            game.black.as_deref().unwrap(),
            Outcome::Draw,
        )
        .unwrap();
        let table = standings(&s, "Three").unwrap();
        let bye_row = table.iter().find(|r| r.name == bye.white).unwrap();
        assert_eq!((bye_row.points, bye_row.played), (1.0, 0));
    }

    #[test]
    fn a_withdrawal_forfeits_the_remaining_games() {
        let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk"]);
        let new = NewTournament {
            name: "W",
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: None,
            scoring: "2-1-0".parse().unwrap(),
            rated: true,
            tiebreaks: vec![TieBreak::SonnebornBerger],
        };
        create(&mut s, &new).unwrap();
        let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        enter(&mut s, "W", &who).unwrap();
        pair_next(&mut s, "W").unwrap();
        // Round 1 is played in full; Dirk's win there stands after he withdraws.
        record_result(&mut s, "W", 1, "Ann", "Dirk", Outcome::BlackWins).unwrap();
        record_result(&mut s, "W", 1, "Bob", "Cor", Outcome::Draw).unwrap();
        withdraw(&mut s, "W", "Dirk").unwrap();
        assert!(matches!(
            withdraw(&mut s, "W", "Dirk"),
            Err(ClubError::Refused(_))
        ));
        // Round 2 (4-3, 1-2): Cor wins against Dirk by forfeit at once.
        pair_next(&mut s, "W").unwrap();
        let r2 = pairings(&s, "W", Some(2)).unwrap();
        let f = r2.iter().find(|p| p.white == "Dirk").unwrap();
        assert_eq!((f.result, f.forfeit), (Some(Outcome::BlackWins), true));
        let table = standings(&s, "W").unwrap();
        let cor = table.iter().find(|r| r.name == "Cor").unwrap();
        assert_eq!((cor.points, cor.played), (3.0, 1));
        // Forfeits do not move ratings: Cor's history has only the played game.
        let id = members::find(&s, "Cor").unwrap().id;
        assert_eq!(
            super::super::ratings::history(&s, id, Variant::International)
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn a_swiss_with_a_late_entry_and_a_withdrawal() {
        let names: Vec<String> = (1..=9).map(|i| format!("Player {i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let (_d, mut s) = club(&refs);
        add(&mut s, "Late", &MemberFields::default()).unwrap();
        let new = NewTournament {
            name: "Swiss",
            system: System::Swiss { rounds: 5 },
            variant: Variant::International,
            time_control: None,
            scoring: "2-1-0".parse().unwrap(),
            rated: true,
            tiebreaks: vec![TieBreak::Buchholz],
        };
        create(&mut s, &new).unwrap();
        enter(&mut s, "Swiss", &names).unwrap();
        let outcomes = [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins];
        let mut met = HashSet::new();
        for round in 1..=5u32 {
            if round == 2 {
                enter(&mut s, "Swiss", &["Late".into()]).unwrap();
            }
            if round == 4 {
                withdraw(&mut s, "Swiss", "Player 3").unwrap();
            }
            assert_eq!(pair_next(&mut s, "Swiss").unwrap(), round);
            let games = pairings(&s, "Swiss", Some(round)).unwrap();
            let byes = games.iter().filter(|p| p.black.is_none()).count();
            assert!(byes <= 1);
            for (i, p) in games.iter().enumerate() {
                let Some(b) = &p.black else { continue };
                let key = (
                    p.white.clone().min(b.clone()),
                    p.white.clone().max(b.clone()),
                );
                assert!(
                    met.insert(key),
                    "rematch in round {round}: {} – {b}",
                    p.white
                );
                if round >= 4 {
                    assert!(p.white != "Player 3" && b != "Player 3");
                }
                if p.result.is_none() {
                    record_result(&mut s, "Swiss", round, &p.white, b, outcomes[i % 3]).unwrap();
                }
            }
        }
        assert!(matches!(
            pair_next(&mut s, "Swiss"),
            Err(ClubError::Refused(_))
        ));
        let table = standings(&s, "Swiss").unwrap();
        assert_eq!(table.len(), 10);
        let byes: usize = pairings(&s, "Swiss", None)
            .unwrap()
            .iter()
            .filter(|p| p.black.is_none())
            .count();
        assert!(byes <= 5);
    }

    #[test]
    fn swiss_absences_forbidden_pairs_and_unpairing() {
        let (_d, mut s) = club(&["A", "B", "C", "D"]);
        let new = NewTournament {
            name: "S",
            system: System::Swiss { rounds: 3 },
            variant: Variant::English,
            time_control: None,
            scoring: "1-0.5-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![],
        };
        create(&mut s, &new).unwrap();
        enter(
            &mut s,
            "S",
            &["A".into(), "B".into(), "C".into(), "D".into()],
        )
        .unwrap();
        // Round 1 would pair A–C and B–D (top half against bottom half): rule out A–C.
        forbid(&mut s, "S", "A", "C").unwrap();
        set_absent(&mut s, "S", "D", 1, true).unwrap();
        pair_next(&mut s, "S").unwrap();
        let r1 = pairings(&s, "S", Some(1)).unwrap();
        let everyone: Vec<&str> = r1
            .iter()
            .flat_map(|p| [Some(p.white.as_str()), p.black.as_deref()])
            .flatten()
            .collect();
        assert!(!everyone.contains(&"D"), "{everyone:?}");
        for p in &r1 {
            let pair = [p.white.as_str(), p.black.as_deref().unwrap_or("")];
            assert!(!(pair.contains(&"A") && pair.contains(&"C")), "{pair:?}");
        }
        // Unpair, let D play after all, pair again.
        assert_eq!(unpair(&mut s, "S").unwrap(), 1);
        assert!(pairings(&s, "S", Some(1)).unwrap().is_empty());
        set_absent(&mut s, "S", "D", 1, false).unwrap();
        pair_next(&mut s, "S").unwrap();
        assert_eq!(pairings(&s, "S", Some(1)).unwrap().len(), 2);
        assert!(matches!(
            set_absent(&mut s, "S", "D", 1, true),
            Err(ClubError::Refused(_))
        ));
    }

    #[test]
    fn keizer_evenings_pair_who_is_present_by_keizer_ranking() {
        let (_d, mut s) = club(&["A", "B", "C", "D", "E"]);
        for (n, r) in [
            ("A", "1900"),
            ("B", "1800"),
            ("C", "1700"),
            ("D", "1600"),
            ("E", "1500"),
        ] {
            crate::club::members::edit(
                &mut s,
                n,
                &MemberFields {
                    ratings: vec![
                        crate::club::members::parse_rating(&format!("international={r}")).unwrap(),
                    ],
                    ..Default::default()
                },
            )
            .unwrap();
        }
        let new = NewTournament {
            name: "Thursdays",
            system: System::parse("keizer", None).unwrap(),
            variant: Variant::International,
            time_control: None,
            scoring: "2-1-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![],
        };
        create(&mut s, &new).unwrap();
        let who: Vec<String> = ["A", "B", "C", "D", "E"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        enter(&mut s, "Thursdays", &who).unwrap();
        // Evening 1: E stays home; by rating A–B and C–D.
        set_absent(&mut s, "Thursdays", "E", 1, true).unwrap();
        pair_next(&mut s, "Thursdays").unwrap();
        let r1 = pairings(&s, "Thursdays", Some(1)).unwrap();
        let pairs: Vec<(String, String)> = r1
            .iter()
            .map(|p| {
                let b = p.black.clone().unwrap_or_default();
                (p.white.clone().min(b.clone()), p.white.clone().max(b))
            })
            .collect();
        assert_eq!(pairs, [("A".into(), "B".into()), ("C".into(), "D".into())]);
        // D beats C (an upset), A beats B.
        for p in &r1 {
            let b = p.black.clone().unwrap();
            let outcome = if p.white == "D" || p.white == "A" {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            };
            record_result(&mut s, "Thursdays", 1, &p.white, &b, outcome).unwrap();
        }
        let table = standings(&s, "Thursdays").unwrap();
        assert_eq!(table[0].name, "A");
        // Evening 2: everyone is in; five players, the lowest-ranked gets the bye; nobody meets
        // last week's opponent.
        pair_next(&mut s, "Thursdays").unwrap();
        let r2 = pairings(&s, "Thursdays", Some(2)).unwrap();
        assert_eq!(r2.iter().filter(|p| p.black.is_none()).count(), 1);
        for p in r2.iter().filter(|p| p.black.is_some()) {
            let b = p.black.as_deref().unwrap();
            assert!(!pairs.contains(&(
                p.white.clone().min(b.to_string()),
                p.white.clone().max(b.to_string())
            )));
        }
    }

    #[test]
    fn the_organiser_overrides_a_pairing_before_the_round_starts() {
        let (_d, mut s) = club(&["Ann", "Bob", "Cor", "Dirk", "Eva"]);
        create(&mut s, &NewTournament::test("O")).unwrap();
        let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk", "Eva"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        enter(&mut s, "O", &who).unwrap();
        pair_next(&mut s, "O").unwrap();
        // Round 1 (Berger, 5): Bob–Eva, Cor–Dirk, Ann has the bye. Ann takes Eva's place.
        swap(&mut s, "O", "Ann", Some("Eva")).unwrap();
        let r1 = pairings(&s, "O", Some(1)).unwrap();
        let row = |w: &str| r1.iter().find(|p| p.white == w).map(|p| p.black.clone());
        assert_eq!(row("Bob"), Some(Some("Ann".into())));
        assert_eq!(row("Eva"), Some(None), "Eva has the bye now");
        // Colours of Cor's game change.
        swap(&mut s, "O", "Cor", None).unwrap();
        let r1 = pairings(&s, "O", Some(1)).unwrap();
        assert!(
            r1.iter()
                .any(|p| p.white == "Dirk" && p.black.as_deref() == Some("Cor"))
        );
        // Two opponents changing places just changes colours.
        swap(&mut s, "O", "Bob", Some("Ann")).unwrap();
        record_result(&mut s, "O", 1, "Ann", "Bob", Outcome::Draw).unwrap();
        assert!(matches!(
            swap(&mut s, "O", "Cor", None),
            Err(ClubError::Refused(_))
        ));
    }

    #[test]
    fn bad_settings_are_refused() {
        let (_d, mut s) = club(&[]);
        assert!(System::parse("swiss", None).is_err());
        assert_eq!(
            System::parse("keizer", None).ok(),
            Some(System::Keizer { rounds: 0 })
        );
        assert_eq!(
            System::parse("swiss", Some(7)).ok(),
            Some(System::Swiss { rounds: 7 })
        );
        assert!("3-1-0".parse::<Scoring>().is_err());
        assert!("2:0".parse::<Outcome>().is_err());
        let fmjd: Scoring = "2-1-0".parse().unwrap();
        assert!(
            create(
                &mut s,
                &NewTournament {
                    name: "X",
                    system: System::RoundRobin,
                    variant: Variant::Frisian,
                    time_control: Some("soon"),
                    scoring: fmjd,
                    rated: true,
                    tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins]
                }
            )
            .is_err()
        );
        create(
            &mut s,
            &NewTournament {
                name: "X",
                system: System::RoundRobin,
                variant: Variant::Frisian,
                time_control: None,
                scoring: fmjd,
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            },
        )
        .unwrap();
        assert!(matches!(
            create(
                &mut s,
                &NewTournament {
                    name: "x",
                    system: System::RoundRobin,
                    variant: Variant::Frisian,
                    time_control: None,
                    scoring: fmjd,
                    rated: true,
                    tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins]
                }
            ),
            Err(ClubError::Refused(_))
        ));
        assert!(matches!(pair_next(&mut s, "X"), Err(ClubError::Refused(_))));
        assert!(matches!(find(&s, "Y"), Err(ClubError::BadInput(_))));
    }
}
