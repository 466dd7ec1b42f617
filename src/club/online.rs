//! Games played on the club server: each is written when it starts, again after every move (so
//! a server restart loses no move), and once more when it ends, when its result goes to the
//! tournament pairing it was or, for a rated game between members, to the ratings.

use super::access::{Actor, Operation};
use super::error::ClubError;
use super::store::{Change, Store, db};
use crate::rules::pdn::{GameResult, PdnGame, read_games, write_game};
use crate::rules::variant::Variant;
use rusqlite::{OptionalExtension, params};

/// One side of an online game: a member, or a guest by name only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The name shown and written in the record.
    pub name: String,
    /// The member's id; `None` for a guest.
    pub member: Option<i64>,
}

/// Where an online game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Being played (or waiting for its players after a restart).
    Playing,
    /// Stopped by a server restart, to be resumed when both players are back.
    Adjourned,
    /// Over, with its result recorded.
    Finished,
}

impl Status {
    fn code(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Adjourned => "adjourned",
            Status::Finished => "finished",
        }
    }

    fn parse(code: &str) -> Status {
        match code {
            "finished" => Status::Finished,
            "adjourned" => Status::Adjourned,
            _ => Status::Playing,
        }
    }
}

/// An online game as stored.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// Database id.
    pub id: i64,
    /// The variant.
    pub variant: Variant,
    /// White and Black.
    pub sides: [Side; 2],
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The tournament pairing it is (tournament id, round).
    pub pairing: Option<(i64, u32)>,
    /// Where it stands.
    pub status: Status,
    /// The record so far (the whole game once finished).
    pub pdn: String,
    /// When it started and when it was last written (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub started: String,
    /// When it was last written.
    pub updated: String,
}

impl OnlineGame {
    /// The stored record, read back.
    pub fn record(&self) -> Result<PdnGame, ClubError> {
        read_games(&self.pdn, self.variant)
            .into_iter()
            .next()
            .ok_or_else(|| ClubError::BadInput(format!("online game {} has no record", self.id)))?
            .map_err(|e| ClubError::BadInput(format!("online game {}: {e}", self.id)))
    }
}

/// A new online game.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    /// The variant.
    pub variant: Variant,
    /// White and Black.
    pub sides: [Side; 2],
    /// Whether it counts for ratings (only between members).
    pub rated: bool,
    /// The tournament pairing it is.
    pub pairing: Option<(i64, u32)>,
    /// The record at the start (tags, no moves yet).
    pub pdn: &'a PdnGame,
}

/// Writes a new game and returns its id.
pub fn start(store: &mut Store, actor: &Actor, new: &NewGame) -> Result<i64, ClubError> {
    if new.rated && new.sides.iter().any(|s| s.member.is_none()) {
        return Err(ClubError::Refused(
            "a rated game is between two members".into(),
        ));
    }
    let text = write_game(new.pdn);
    let [w, b] = &new.sides;
    let mut op = Operation::OnlineGame.op();
    if let Some((t, _)) = new.pairing {
        op = op.tournament(t);
    }
    store.write(actor, op, |tx| {
        tx.execute(
            "INSERT INTO online_games (variant, white, black, white_id, black_id, rated,
               tournament_id, round, status, pdn, started, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'playing', ?9, datetime('now'), datetime('now'))",
            params![
                new.variant.name(),
                w.name,
                b.name,
                w.member,
                b.member,
                new.rated,
                new.pairing.map(|p| p.0),
                new.pairing.map(|p| p.1),
                text
            ],
        )
        .map_err(db)?;
        let id = tx.last_insert_rowid();
        let change = Change::new(format!("online game {id}: {} – {} started", w.name, b.name))
            .values(None, Some("playing".into()));
        Ok((id, change))
    })
}

/// Writes a game's record inside a transaction; refused for a game no longer in progress.
fn write_moves(tx: &rusqlite::Connection, id: i64, pdn: &PdnGame) -> Result<(), ClubError> {
    let n = tx
        .execute(
            "UPDATE online_games SET pdn = ?2, updated = datetime('now')
             WHERE id = ?1 AND status != 'finished'",
            params![id, write_game(pdn)],
        )
        .map_err(db)?;
    if n == 0 {
        return Err(ClubError::Refused(format!(
            "online game {id} is not in progress"
        )));
    }
    Ok(())
}

/// Writes the record after a move (no audit entry: moves are not administrative changes).
pub fn save_moves(
    store: &mut Store,
    actor: &Actor,
    id: i64,
    pdn: &PdnGame,
) -> Result<(), ClubError> {
    store.write(actor, Operation::OnlineMoves.op(), |tx| {
        write_moves(tx, id, pdn)?;
        Ok(((), Change::default()))
    })
}

/// Writes the moves of several games in progress in one transaction (one disk sync for all of
/// them, however many games moved); each game's own result says whether it was written (a game
/// no longer in progress is not).
pub fn save_moves_many(
    store: &mut Store,
    actor: &Actor,
    games: &[(i64, &PdnGame)],
) -> Vec<Result<(), ClubError>> {
    let written = store.write(actor, Operation::OnlineMoves.op(), |tx| {
        let each: Vec<Result<(), ClubError>> = games
            .iter()
            .map(|(id, pdn)| write_moves(tx, *id, pdn))
            .collect();
        Ok((each, Change::default()))
    });
    match written {
        Ok(each) => each,
        Err(e) => games
            .iter()
            .map(|_| Err(ClubError::Refused(e.to_string())))
            .collect(),
    }
}

/// Marks a game adjourned or playing.
pub fn set_status(
    store: &mut Store,
    actor: &Actor,
    id: i64,
    status: Status,
) -> Result<(), ClubError> {
    store.write(actor, Operation::OnlineGame.op(), |tx| {
        let old: Option<String> = tx
            .query_row("SELECT status FROM online_games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db)?;
        tx.execute(
            "UPDATE online_games SET status = ?2, updated = datetime('now')
             WHERE id = ?1 AND status != 'finished'",
            params![id, status.code()],
        )
        .map_err(db)?;
        let change = Change::new(format!("online game {id} {}", status.code()))
            .values(old, Some(status.code().to_string()));
        Ok(((), change))
    })
}

/// Ends a game with its whole record: the result goes to its tournament pairing, or (rated,
/// between members) into the rated games; then the game is marked finished, all in one
/// transaction. Finishing a finished game again changes nothing, so a restart between the record
/// and the result repeats the second step safely.
pub fn finish(store: &mut Store, actor: &Actor, id: i64, pdn: &PdnGame) -> Result<(), ClubError> {
    let game = get(store, id)?;
    if game.status == Status::Finished {
        return Ok(());
    }
    let code = match pdn.result {
        GameResult::Win(crate::rules::piece::Color::White) => "W",
        GameResult::Win(crate::rules::piece::Color::Black) => "B",
        GameResult::Draw => "D",
        GameResult::BothLost | GameResult::Unfinished => {
            return Err(ClubError::BadInput(format!(
                "online game {id} has no result to record"
            )));
        }
    };
    let text = write_game(pdn);
    // The record with its result first: should the server stop now, it is finished on restart.
    save_moves(store, actor, id, pdn)?;
    let [w, b] = &game.sides;
    let pairing = match game.pairing {
        Some((tournament, round)) => {
            let t = super::tournament::find(store, &tournament.to_string())?;
            let p = super::games::prepare(store, &t, round, &w.name, &b.name, pdn)?;
            Some((t, round, p))
        }
        None => None,
    };
    let mut op = Operation::OnlineGame.op();
    if let Some((t, _, _)) = &pairing {
        op = op.tournament(t.id);
    }
    store.write(actor, op, |tx| {
        let mut linked = None;
        if let Some((t, round, p)) = &pairing {
            let (game_id, _) = super::tournament::record_in(
                tx,
                t,
                *round,
                [&p.white, &p.black],
                p.outcome,
                Some(&p.text),
            )?;
            linked = Some(game_id);
        }
        if let (None, true, Some(white), Some(black)) =
            (game.pairing, game.rated, w.member, b.member)
        {
            tx.execute(
                "INSERT INTO games (tournament_id, round, board, white_id, black_id, result, pdn,
                   variant, played)
                 VALUES (NULL, 0, ?1, ?2, ?3, ?4, ?5, ?6, datetime('now'))",
                params![id, white, black, code, text, game.variant.name()],
            )
            .map_err(db)?;
            linked = Some(tx.last_insert_rowid());
            super::ratings::recompute(tx, game.variant)?;
        }
        tx.execute(
            "UPDATE online_games SET status = 'finished', result = ?2, game_id = ?3,
               updated = datetime('now') WHERE id = ?1",
            params![id, code, linked],
        )
        .map_err(db)?;
        let change = Change::new(format!("online game {id}: {} – {} {code}", w.name, b.name))
            .values(
                Some(game.status.code().to_string()),
                Some(format!("finished {code}")),
            );
        Ok(((), change))
    })
}

const COLUMNS: &str = "id, variant, white, black, white_id, black_id, rated, tournament_id, round,
    status, pdn, started, updated";

fn row(r: &rusqlite::Row) -> rusqlite::Result<OnlineGame> {
    let variant: String = r.get(1)?;
    let tournament: Option<i64> = r.get(7)?;
    let round: Option<u32> = r.get(8)?;
    let status: String = r.get(9)?;
    Ok(OnlineGame {
        id: r.get(0)?,
        variant: variant
            .parse()
            .map_err(|e: crate::rules::variant::UnknownVariant| {
                rusqlite::Error::FromSqlConversionFailure(
                    1,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                )
            })?,
        sides: [
            Side {
                name: r.get(2)?,
                member: r.get(4)?,
            },
            Side {
                name: r.get(3)?,
                member: r.get(5)?,
            },
        ],
        rated: r.get(6)?,
        pairing: tournament.zip(round),
        status: Status::parse(&status),
        pdn: r.get(10)?,
        started: r.get(11)?,
        updated: r.get(12)?,
    })
}

/// One online game.
pub fn get(store: &Store, id: i64) -> Result<OnlineGame, ClubError> {
    store
        .conn()
        .query_row(
            &format!("SELECT {COLUMNS} FROM online_games WHERE id = ?1"),
            [id],
            row,
        )
        .optional()
        .map_err(db)?
        .ok_or_else(|| ClubError::BadInput(format!("no online game {id}")))
}

/// Online games, newest first; only those not finished with `unfinished`.
pub fn list(store: &Store, unfinished: bool) -> Result<Vec<OnlineGame>, ClubError> {
    let filter = if unfinished {
        "WHERE status != 'finished'"
    } else {
        ""
    };
    let mut stmt = store
        .conn()
        .prepare(&format!(
            "SELECT {COLUMNS} FROM online_games {filter} ORDER BY id DESC"
        ))
        .map_err(db)?;
    let rows = stmt.query_map([], row).map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{self, MemberFields, parse_rating};
    use crate::play::{LiveGame, Options};
    use crate::rules::game::{Game, Outcome, Reason};

    fn club() -> (tempfile::TempDir, Store, [Side; 2]) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        let fields = MemberFields {
            ratings: vec![parse_rating("international=1500").unwrap()],
            ..Default::default()
        };
        let a = members::add(&mut s, &Actor::local(), "Ton", &fields).unwrap();
        let b = members::add(&mut s, &Actor::local(), "Anna", &fields).unwrap();
        let sides = [
            Side {
                name: "Ton".into(),
                member: Some(a),
            },
            Side {
                name: "Anna".into(),
                member: Some(b),
            },
        ];
        (dir, s, sides)
    }

    #[test]
    fn a_rated_game_is_written_move_by_move_and_its_result_moves_ratings() {
        let (_dir, mut s, sides) = club();
        let mut live = LiveGame::new(Game::new(Variant::International), Options::default());
        live.set_tag("White", "Ton");
        live.set_tag("Black", "Anna");
        let id = start(
            &mut s,
            &Actor::Server,
            &NewGame {
                variant: Variant::International,
                sides: sides.clone(),
                rated: true,
                pairing: None,
                pdn: &live.pdn(),
            },
        )
        .unwrap();
        let mv = *live.position().legal_moves().iter().next().unwrap();
        live.play(&mv, Default::default()).unwrap();
        save_moves(&mut s, &Actor::Server, id, &live.pdn()).unwrap();
        let stored = get(&s, id).unwrap();
        assert_eq!(stored.status, Status::Playing);
        assert_eq!(stored.record().unwrap().line.moves.len(), 1);
        assert_eq!(list(&s, true).unwrap().len(), 1);

        live.resign(crate::rules::piece::Color::Black, Default::default());
        assert_eq!(
            live.outcome(),
            Some(Outcome {
                winner: Some(crate::rules::piece::Color::White),
                reason: Reason::Resignation
            })
        );
        finish(&mut s, &Actor::Server, id, &live.pdn()).unwrap();
        finish(&mut s, &Actor::Server, id, &live.pdn()).unwrap();
        let stored = get(&s, id).unwrap();
        assert_eq!(stored.status, Status::Finished);
        assert!(stored.pdn.contains("2-0"));
        assert!(list(&s, true).unwrap().is_empty());
        assert!(save_moves(&mut s, &Actor::Server, id, &live.pdn()).is_err());
        let ton = members::find(&s, "Ton").unwrap();
        let anna = members::find(&s, "Anna").unwrap();
        assert!(ton.ratings["international"] > 1500.0);
        assert!(anna.ratings["international"] < 1500.0);
        let history = crate::club::ratings::history(&s, ton.id, Variant::International).unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].opponent, "Anna");
    }

    #[test]
    fn the_moves_of_many_games_are_written_together_each_with_its_own_answer() {
        let (_dir, mut s, sides) = club();
        let mut games = Vec::new();
        for _ in 0..3 {
            let live = LiveGame::new(Game::new(Variant::International), Options::default());
            let new = NewGame {
                variant: Variant::International,
                sides: sides.clone(),
                rated: false,
                pairing: None,
                pdn: &live.pdn(),
            };
            games.push((start(&mut s, &Actor::Server, &new).unwrap(), live));
        }
        games[1]
            .1
            .resign(crate::rules::piece::Color::White, Default::default());
        finish(&mut s, &Actor::Server, games[1].0, &games[1].1.pdn()).unwrap();
        for (plies, (_, live)) in games.iter_mut().enumerate().filter(|(i, _)| *i != 1) {
            for _ in 0..=plies {
                let mv = *live.position().legal_moves().iter().next().unwrap();
                live.play(&mv, Default::default()).unwrap();
            }
        }
        let pdns: Vec<PdnGame> = games.iter().map(|(_, l)| l.pdn()).collect();
        let batch: Vec<(i64, &PdnGame)> = games.iter().map(|(id, _)| *id).zip(&pdns).collect();
        let results = save_moves_many(&mut s, &Actor::Server, &batch);
        assert!(results[0].is_ok() && results[2].is_ok());
        assert!(results[1].is_err(), "a finished game is not written again");
        let moves = |id| get(&s, id).unwrap().record().unwrap().line.moves.len();
        assert_eq!(moves(games[0].0), 1);
        assert_eq!(moves(games[1].0), 0);
        assert_eq!(moves(games[2].0), 3);
    }

    #[test]
    fn a_tournament_game_played_online_becomes_its_pairing_result() {
        use crate::club::tiebreak::TieBreak;
        use crate::club::tournament::{self, NewTournament, System};
        let (_dir, mut s, sides) = club();
        tournament::create(
            &mut s,
            &Actor::local(),
            &NewTournament {
                name: "Autumn",
                system: System::RoundRobin,
                variant: Variant::International,
                time_control: Some("10m+5s"),
                scoring: "2-1-0".parse().unwrap(),
                rated: true,
                tiebreaks: vec![TieBreak::SonnebornBerger],
                reports: Default::default(),
            },
        )
        .unwrap();
        tournament::enter(
            &mut s,
            &Actor::local(),
            "Autumn",
            &["Ton".into(), "Anna".into()],
        )
        .unwrap();
        tournament::pair_next(&mut s, &Actor::local(), "Autumn").unwrap();
        let p = tournament::pairings(&s, "Autumn", Some(1)).unwrap()[0].clone();
        let t = tournament::find(&s, "Autumn").unwrap();
        let white = if p.white == "Ton" { 0 } else { 1 };
        let players = [sides[white].clone(), sides[1 - white].clone()];
        assert_eq!(tournament::to_play(&s, "Anna").unwrap().len(), 1);
        let mut live = LiveGame::new(Game::new(Variant::International), Options::default());
        let id = start(
            &mut s,
            &Actor::Server,
            &NewGame {
                variant: Variant::International,
                sides: players,
                rated: false,
                pairing: Some((t.id, 1)),
                pdn: &live.pdn(),
            },
        )
        .unwrap();
        live.offer_draw(crate::rules::piece::Color::White, Default::default());
        live.accept(crate::rules::piece::Color::Black, Default::default());
        finish(&mut s, &Actor::Server, id, &live.pdn()).unwrap();
        let after = tournament::pairings(&s, "Autumn", Some(1)).unwrap()[0].clone();
        assert_eq!(after.result, Some(tournament::Outcome::Draw));
        assert!(tournament::game_pdn(&s, after.id).unwrap().is_some());
        assert!(tournament::to_play(&s, "Anna").unwrap().is_empty());
        assert_eq!(get(&s, id).unwrap().status, Status::Finished);
    }

    #[test]
    fn casual_games_and_guests_leave_ratings_alone() {
        let (_dir, mut s, [ton, _]) = club();
        let guest = Side {
            name: "Guest 1".into(),
            member: None,
        };
        let mut live = LiveGame::new(Game::new(Variant::International), Options::default());
        let new = NewGame {
            variant: Variant::International,
            sides: [ton.clone(), guest],
            rated: true,
            pairing: None,
            pdn: &live.pdn(),
        };
        assert!(matches!(
            start(&mut s, &Actor::Server, &new),
            Err(ClubError::Refused(_))
        ));
        let id = start(
            &mut s,
            &Actor::Server,
            &NewGame {
                rated: false,
                ..new.clone()
            },
        )
        .unwrap();
        live.resign(crate::rules::piece::Color::White, Default::default());
        assert!(
            finish(
                &mut s,
                &Actor::Server,
                id,
                &LiveGame::new(Game::new(Variant::International), Options::default()).pdn()
            )
            .is_err()
        );
        finish(&mut s, &Actor::Server, id, &live.pdn()).unwrap();
        assert_eq!(get(&s, id).unwrap().status, Status::Finished);
        let ton = members::find(&s, "Ton").unwrap();
        assert_eq!(ton.ratings["international"], 1500.0);
    }
}
