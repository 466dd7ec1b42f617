//! Ratings in the database: recomputed from the starting ratings and every rated game of a
//! variant, round by round, so a corrected result re-runs everything after it.

use super::access::{Actor, Operation};
use super::error::ClubError;
use super::rating::change;
use super::settings::{self, RatingSystem};
use super::store::{Change, Store, db};
use crate::rules::variant::Variant;
use rusqlite::{Connection, Transaction, params};
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use std::collections::BTreeMap;

/// The rating of a member with no starting rating.
pub const DEFAULT_RATING: f64 = 1200.0;

/// A rated game's effect on one player's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryEntry {
    /// The tournament.
    pub tournament: String,
    /// Its round.
    pub round: u32,
    /// The opponent.
    pub opponent: String,
    /// The score (1, ½, 0).
    pub score: f64,
    /// Rating before the round.
    pub before: f64,
    /// Rating after the round.
    pub after: f64,
}

/// Changes a club setting and recomputes every variant's ratings under it, in one transaction.
pub fn change_setting(
    store: &mut Store,
    actor: &Actor,
    key: &str,
    value: &str,
) -> Result<(), ClubError> {
    store.write(actor, Operation::Settings.op(), |tx| {
        let before = settings::write(tx, key, value)?;
        for v in Variant::ALL {
            recompute(tx, v)?;
        }
        let change = Change::new(format!("{key} = {}", value.trim()))
            .values(Some(before), Some(value.trim().to_string()));
        Ok(((), change))
    })
}

/// Recomputes every rating of `variant` under the club's settings: from the starting ratings,
/// rated games in tournament and round order, each round's changes computed from the ratings
/// before it (with Glicko-2, each round is a rating period for those who played in it).
pub fn recompute(tx: &Transaction, variant: Variant) -> Result<(), ClubError> {
    let settings = settings::load(tx)?;
    let k = &settings.k;
    let glicko = settings.system == RatingSystem::Glicko2;
    let config = Glicko2Config::new();
    let mut g2: BTreeMap<i64, Glicko2Rating> = BTreeMap::new();
    let v = variant.name();
    let mut rating: BTreeMap<i64, f64> = BTreeMap::new();
    let mut games: BTreeMap<i64, u32> = BTreeMap::new();
    {
        let mut stmt = tx
            .prepare("SELECT member_id, base FROM ratings WHERE variant = ?1 AND base IS NOT NULL")
            .map_err(db)?;
        let rows = stmt
            .query_map([v], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?)))
            .map_err(db)?;
        for row in rows {
            let (id, base) = row.map_err(db)?;
            rating.insert(id, base);
        }
    }
    let rounds: Vec<(i64, u32, i64, i64, i64, String)> = {
        let mut stmt = tx
            .prepare(
                // Tournament rounds in the order the tournaments were created, and rated online
                // games (each its own period, keyed apart by a negative id) by when they ended.
                "SELECT period, round, id, white_id, black_id, result FROM (
                   SELECT t.created AS at, g.tournament_id AS period, g.round, g.board, g.id,
                     g.white_id, g.black_id, g.result
                   FROM games g JOIN tournaments t ON t.id = g.tournament_id
                   WHERE t.rated = 1 AND t.variant = ?1 AND g.black_id IS NOT NULL
                     AND g.result IN ('W', 'D', 'B')
                   UNION ALL
                   SELECT g.played, -g.id, 0, 0, g.id, g.white_id, g.black_id, g.result
                   FROM games g
                   WHERE g.tournament_id IS NULL AND g.variant = ?1 AND g.black_id IS NOT NULL
                     AND g.result IN ('W', 'D', 'B'))
                 ORDER BY at, abs(period), round, board",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map([v], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)?
    };
    tx.execute("DELETE FROM rating_history WHERE variant = ?1", [v])
        .map_err(db)?;
    let mut i = 0;
    while i < rounds.len() {
        let (t, r) = (rounds[i].0, rounds[i].1);
        let start = rating.clone();
        let played = games.clone();
        let mut delta: BTreeMap<i64, f64> = BTreeMap::new();
        let mut periods: BTreeMap<i64, Vec<(Glicko2Rating, Outcomes)>> = BTreeMap::new();
        let start_g2 = |id: i64| {
            g2.get(&id).copied().unwrap_or(Glicko2Rating {
                rating: start.get(&id).copied().unwrap_or(DEFAULT_RATING),
                ..Glicko2Rating::new()
            })
        };
        let mut entries = Vec::new();
        while i < rounds.len() && rounds[i].0 == t && rounds[i].1 == r {
            let (_, _, game, w, b, ref res) = rounds[i];
            let score = match res.as_str() {
                "W" => 1.0,
                "D" => 0.5,
                _ => 0.0,
            };
            let rw = start.get(&w).copied().unwrap_or(DEFAULT_RATING);
            let rb = start.get(&b).copied().unwrap_or(DEFAULT_RATING);
            let gw = played.get(&w).copied().unwrap_or(0);
            let gb = played.get(&b).copied().unwrap_or(0);
            *delta.entry(w).or_default() += change(k, rw, gw, rb, score);
            *delta.entry(b).or_default() += change(k, rb, gb, rw, 1.0 - score);
            let (ow, ob) = match res.as_str() {
                "W" => (Outcomes::WIN, Outcomes::LOSS),
                "D" => (Outcomes::DRAW, Outcomes::DRAW),
                _ => (Outcomes::LOSS, Outcomes::WIN),
            };
            periods.entry(w).or_default().push((start_g2(b), ow));
            periods.entry(b).or_default().push((start_g2(w), ob));
            *games.entry(w).or_default() += 1;
            *games.entry(b).or_default() += 1;
            entries.push((game, w));
            entries.push((game, b));
            i += 1;
        }
        if glicko {
            let updated: Vec<(i64, Glicko2Rating)> = periods
                .iter()
                .map(|(id, results)| (*id, glicko2_rating_period(&start_g2(*id), results, &config)))
                .collect();
            for (id, r) in updated {
                rating.insert(id, r.rating);
                g2.insert(id, r);
            }
        } else {
            for (id, d) in &delta {
                let before = start.get(id).copied().unwrap_or(DEFAULT_RATING);
                rating.insert(*id, before + d);
            }
        }
        for (game, id) in entries {
            tx.execute(
                "INSERT INTO rating_history (member_id, variant, game_id, before, after)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    id,
                    v,
                    game,
                    start.get(&id).copied().unwrap_or(DEFAULT_RATING),
                    rating[&id]
                ],
            )
            .map_err(db)?;
        }
    }
    for (id, r) in &rating {
        let g = g2.get(id);
        tx.execute(
            "INSERT INTO ratings (member_id, variant, rating, games, deviation, volatility)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (member_id, variant) DO UPDATE SET rating = excluded.rating,
               games = excluded.games, deviation = excluded.deviation,
               volatility = excluded.volatility",
            params![
                id,
                v,
                r,
                games.get(id).copied().unwrap_or(0),
                g.map(|g| g.deviation),
                g.map(|g| g.volatility)
            ],
        )
        .map_err(db)?;
    }
    Ok(())
}

/// A member's rated games in one variant, oldest first.
pub fn history(
    store: &Store,
    member: i64,
    variant: Variant,
) -> Result<Vec<HistoryEntry>, ClubError> {
    history_of(store.conn(), member, variant)
}

fn history_of(
    conn: &Connection,
    member: i64,
    variant: Variant,
) -> Result<Vec<HistoryEntry>, ClubError> {
    let mut stmt = conn
        .prepare(
            "SELECT coalesce(t.name, 'Online game'), g.round, o.name, g.result,
               g.white_id = h.member_id, h.before, h.after
             FROM rating_history h
             JOIN games g ON g.id = h.game_id
             LEFT JOIN tournaments t ON t.id = g.tournament_id
             JOIN members o ON o.id = CASE WHEN g.white_id = h.member_id THEN g.black_id ELSE g.white_id END
             WHERE h.member_id = ?1 AND h.variant = ?2
             ORDER BY h.id",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map(params![member, variant.name()], |r| {
            let result: String = r.get(3)?;
            let white: bool = r.get(4)?;
            let score = match (result.as_str(), white) {
                ("D", _) => 0.5,
                ("W", true) | ("B", false) => 1.0,
                _ => 0.0,
            };
            Ok(HistoryEntry {
                tournament: r.get(0)?,
                round: r.get(1)?,
                opponent: r.get(2)?,
                score,
                before: r.get(5)?,
                after: r.get(6)?,
            })
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{self, MemberFields, parse_rating};
    use crate::club::rating::expected;
    use crate::club::tiebreak::TieBreak;
    use crate::club::tournament::{self, NewTournament, Outcome, System};

    #[test]
    fn results_move_ratings_and_corrections_rerun_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        let with = |r: &str| MemberFields {
            ratings: vec![parse_rating(r).unwrap()],
            ..Default::default()
        };
        members::add(
            &mut s,
            &Actor::local(),
            "Strong",
            &with("international=1800"),
        )
        .unwrap();
        members::add(&mut s, &Actor::local(), "Weak", &with("international=1400")).unwrap();
        tournament::create(
            &mut s,
            &Actor::local(),
            &NewTournament {
                name: "T",
                system: System::DoubleRoundRobin,
                variant: Variant::International,
                time_control: None,
                scoring: "2-1-0".parse().unwrap(),
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
                reports: Default::default(),
            },
        )
        .unwrap();
        tournament::enter(
            &mut s,
            &Actor::local(),
            "T",
            &["Strong".into(), "Weak".into()],
        )
        .unwrap();
        tournament::pair_next(&mut s, &Actor::local(), "T").unwrap();
        // Round 1 for 2 players: 1-2, Strong has White. Weak wins the upset.
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "T",
            1,
            "Strong",
            "Weak",
            Outcome::BlackWins,
        )
        .unwrap();
        let e = expected(1400.0, 1800.0);
        let weak = members::find(&s, "Weak").unwrap().ratings["international"];
        assert!((weak - (1400.0 + 40.0 * (1.0 - e))).abs() < 1e-9, "{weak}");
        let strong = members::find(&s, "Strong").unwrap().ratings["international"];
        assert!(
            (strong - (1800.0 - 40.0 * (1.0 - e))).abs() < 1e-9,
            "{strong}"
        );
        // Corrected to a draw: recomputed from the start, not on top.
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "T",
            1,
            "Strong",
            "Weak",
            Outcome::Draw,
        )
        .unwrap();
        let weak = members::find(&s, "Weak").unwrap().ratings["international"];
        assert!((weak - (1400.0 + 40.0 * (0.5 - e))).abs() < 1e-9, "{weak}");
        let id = members::find(&s, "Weak").unwrap().id;
        let h = history(&s, id, Variant::International).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(
            (h[0].opponent.as_str(), h[0].score, h[0].before),
            ("Strong", 0.5, 1400.0)
        );
        // Round 2 builds on round 1.
        tournament::pair_next(&mut s, &Actor::local(), "T").unwrap();
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "T",
            2,
            "Weak",
            "Strong",
            Outcome::WhiteWins,
        )
        .unwrap();
        let h = history(&s, id, Variant::International).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h[1].before, h[0].after);
    }
}
