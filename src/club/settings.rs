//! The club's own settings, kept in its database: the rating system and Elo's K factors.

use super::error::ClubError;
use super::rating::KFactors;
use super::store::{Store, db};
use rusqlite::{Connection, OptionalExtension, params};

/// How ratings are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingSystem {
    /// Elo with the club's K factors.
    Elo,
    /// Glicko-2 (rating, deviation, volatility), each round a rating period.
    Glicko2,
}

/// The settings a club can change, with their meaning.
pub const KEYS: &[(&str, &str)] = &[
    ("rating-system", "elo or glicko2"),
    (
        "k-provisional",
        "Elo K for a player's first games (default 40)",
    ),
    (
        "provisional-games",
        "games before a rating is established (default 30)",
    ),
    (
        "k-bands",
        "Elo K below rating limits, as limit:K,… (default 2400:20)",
    ),
    ("k-top", "Elo K above every band (default 10)"),
];

/// The club's rating settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubSettings {
    /// Elo or Glicko-2.
    pub system: RatingSystem,
    /// Elo's K factors.
    pub k: KFactors,
}

fn get(conn: &Connection, key: &str) -> Result<Option<String>, ClubError> {
    conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
        r.get(0)
    })
    .optional()
    .map_err(db)
}

fn parse(key: &str, value: &str, s: &mut ClubSettings) -> Result<(), ClubError> {
    let bad = |why: &str| ClubError::BadInput(format!("{key} = {value:?}: {why}"));
    let number = |v: &str| -> Result<f64, ClubError> {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 1000.0)
            .ok_or_else(|| bad("not a number from 0 to 1000"))
    };
    match key {
        "rating-system" => {
            s.system = match value.trim() {
                "elo" => RatingSystem::Elo,
                "glicko2" | "glicko-2" => RatingSystem::Glicko2,
                _ => return Err(bad("elo or glicko2")),
            }
        }
        "k-provisional" => s.k.provisional = number(value)?,
        "provisional-games" => {
            s.k.provisional_games = value.trim().parse().map_err(|_| bad("a number of games"))?
        }
        "k-top" => s.k.top = number(value)?,
        "k-bands" => {
            let mut bands = Vec::new();
            for part in value.split(',').filter(|p| !p.trim().is_empty()) {
                let (limit, k) = part.split_once(':').ok_or_else(|| bad("limit:K,…"))?;
                bands.push((
                    limit
                        .trim()
                        .parse::<f64>()
                        .map_err(|_| bad("a rating limit"))?,
                    number(k)?,
                ));
            }
            if bands.windows(2).any(|w| w[0].0 >= w[1].0) {
                return Err(bad("limits must increase"));
            }
            s.k.bands = bands;
        }
        _ => {
            let names: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
            return Err(ClubError::BadInput(format!(
                "{key:?} is not a setting ({})",
                names.join(", ")
            )));
        }
    }
    Ok(())
}

/// The settings in force (defaults for what the club has not set).
pub fn load(conn: &Connection) -> Result<ClubSettings, ClubError> {
    let mut s = ClubSettings {
        system: RatingSystem::Elo,
        k: KFactors::default(),
    };
    for (key, _) in KEYS {
        if let Some(v) = get(conn, key)? {
            parse(key, &v, &mut s)?;
        }
    }
    Ok(s)
}

/// The settings as (key, value) text, defaults included.
pub fn show(store: &Store) -> Result<Vec<(String, String)>, ClubError> {
    shown(store.conn())
}

/// The settings as (key, value) text, defaults included, read on a connection.
pub(crate) fn shown(conn: &Connection) -> Result<Vec<(String, String)>, ClubError> {
    let s = load(conn)?;
    let bands: Vec<String> = s.k.bands.iter().map(|(l, k)| format!("{l}:{k}")).collect();
    Ok(vec![
        (
            "rating-system".into(),
            match s.system {
                RatingSystem::Elo => "elo".into(),
                RatingSystem::Glicko2 => "glicko2".into(),
            },
        ),
        ("k-provisional".into(), s.k.provisional.to_string()),
        (
            "provisional-games".into(),
            s.k.provisional_games.to_string(),
        ),
        ("k-bands".into(), bands.join(",")),
        ("k-top".into(), s.k.top.to_string()),
    ])
}

/// Validates a setting against the others in force and writes it in the caller's transaction,
/// returning the value it had before. Ratings under the new setting are the caller's to
/// recompute (see `ratings::change_setting`), in the same transaction.
pub fn write(tx: &Connection, key: &str, value: &str) -> Result<String, ClubError> {
    let before = shown(tx)?
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .unwrap_or_default();
    let mut s = load(tx)?;
    parse(key, value, &mut s)?;
    tx.execute(
        "INSERT INTO settings (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value.trim()],
    )
    .map_err(db)?;
    Ok(before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::access::Actor;
    use crate::club::members::{self, MemberFields};
    use crate::club::ratings::change_setting as set;
    use crate::club::tournament::{self, NewTournament, Outcome};
    use skillratings::Outcomes;
    use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

    fn one_game(system: Option<&str>, k: Option<&str>) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        if let Some(sys) = system {
            set(&mut s, &Actor::local(), "rating-system", sys).unwrap();
        }
        if let Some(k) = k {
            set(&mut s, &Actor::local(), "k-provisional", k).unwrap();
        }
        for n in ["A", "B"] {
            members::add(&mut s, &Actor::local(), n, &MemberFields::default()).unwrap();
        }
        let new = NewTournament::test("T");
        tournament::create(&mut s, &Actor::local(), &new).unwrap();
        tournament::enter(&mut s, &Actor::local(), "T", &["A".into(), "B".into()]).unwrap();
        tournament::pair_next(&mut s, &Actor::local(), "T").unwrap();
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "T",
            1,
            "A",
            "B",
            Outcome::WhiteWins,
        )
        .unwrap();
        (dir, s)
    }

    fn rating(s: &Store, who: &str) -> f64 {
        members::find(s, who).unwrap().ratings["international"]
    }

    #[test]
    fn k_factors_are_the_clubs_choice() {
        let (_d, s) = one_game(None, None);
        assert_eq!(rating(&s, "A"), 1220.0);
        let (_d, mut s) = one_game(None, Some("20"));
        assert_eq!(rating(&s, "A"), 1210.0);
        // Changing a setting re-runs the history under it.
        set(&mut s, &Actor::local(), "k-provisional", "32").unwrap();
        assert_eq!(rating(&s, "A"), 1216.0);
        assert!(set(&mut s, &Actor::local(), "k-bands", "2400:20,2100:25").is_err());
        assert!(set(&mut s, &Actor::local(), "k-top", "lots").is_err());
        assert!(set(&mut s, &Actor::local(), "colour", "blue").is_err());
        set(&mut s, &Actor::local(), "k-bands", "2100:25,2400:20").unwrap();
        let shown = show(&s).unwrap();
        assert!(shown.contains(&("k-bands".into(), "2100:25,2400:20".into())));
    }

    #[test]
    fn glicko2_rates_rounds_as_periods() {
        let (_d, s) = one_game(Some("glicko2"), None);
        let (a, b) = (rating(&s, "A"), rating(&s, "B"));
        assert!(a > 1200.0 && b < 1200.0 && (a - 1200.0 - (1200.0 - b)).abs() < 1e-6);
        assert!((a - 1220.0).abs() > 1.0, "not Elo: {a}");
        let deviation: f64 = s
            .conn()
            .query_row(
                "SELECT deviation FROM ratings r JOIN members m ON m.id = r.member_id WHERE m.name = 'A'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(deviation < 350.0, "{deviation}");
    }

    #[test]
    fn glickmans_worked_example() {
        // Glickman's Glicko-2 paper: 1500/200/0.06 plays 1400/30 (win), 1550/100 (loss) and
        // 1700/300 (loss) with tau 0.5 → 1464.06, 151.52, 0.05999.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let r = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert!((r.rating - 1464.06).abs() < 0.01, "{}", r.rating);
        assert!((r.deviation - 151.52).abs() < 0.01, "{}", r.deviation);
        assert!((r.volatility - 0.05999).abs() < 0.0001, "{}", r.volatility);
    }
}
