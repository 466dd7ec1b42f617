//! Tournament games as PDN: attach a game's record to its pairing, export a tournament's games
//! as one PDN file, import a PDN file of games into a tournament.

use super::access::{Actor, Operation};
use super::error::ClubError;
use super::members::Member;
use super::store::{Change, Store};
use super::tournament::{self, Outcome, Pairing, Tournament};
use crate::rules::pdn::{GameResult, PdnGame, read_games, write_game};
use crate::rules::piece::Color;
use rusqlite::OptionalExtension;

fn outcome_of(pdn: &PdnGame) -> Result<Outcome, ClubError> {
    match pdn.result {
        GameResult::Win(Color::White) => Ok(Outcome::WhiteWins),
        GameResult::Win(Color::Black) => Ok(Outcome::BlackWins),
        GameResult::Draw => Ok(Outcome::Draw),
        GameResult::BothLost | GameResult::Unfinished => Err(ClubError::BadInput(
            "the game has no result (2-0, 1-1 or 0-2)".into(),
        )),
    }
}

fn set_tag(pdn: &mut PdnGame, name: &str, value: &str) {
    match pdn.tags.iter_mut().find(|(k, _)| k == name) {
        Some(t) => t.1 = value.to_string(),
        None => pdn.tags.push((name.to_string(), value.to_string())),
    }
}

/// A played game ready to record: its players, result and record with the tournament's tags.
pub(crate) struct Prepared {
    /// White.
    pub white: Member,
    /// Black.
    pub black: Member,
    /// The result.
    pub outcome: Outcome,
    /// The record with the tournament's tags.
    pub text: String,
}

/// Checks a game's record against its tournament and gives it the tournament's tags (Event,
/// Round, White, Black, TimeControl).
pub(crate) fn prepare(
    store: &Store,
    t: &Tournament,
    round: u32,
    white: &str,
    black: &str,
    pdn: &PdnGame,
) -> Result<Prepared, ClubError> {
    if pdn.variant != t.variant {
        return Err(ClubError::BadInput(format!(
            "the game is {} draughts, {} plays {}",
            pdn.variant.name(),
            t.name,
            t.variant.name()
        )));
    }
    let outcome = outcome_of(pdn)?;
    let w = super::members::find(store, white)?;
    let b = super::members::find(store, black)?;
    let mut record = pdn.clone();
    set_tag(&mut record, "Event", &t.name);
    set_tag(&mut record, "Round", &round.to_string());
    set_tag(&mut record, "White", &w.name);
    set_tag(&mut record, "Black", &b.name);
    if let Some(tc) = &t.time_control {
        set_tag(&mut record, "TimeControl", tc);
    }
    Ok(Prepared {
        white: w,
        black: b,
        outcome,
        text: write_game(&record),
    })
}

/// Records a played game from its PDN: its result becomes the pairing's result, and the record
/// is stored with the tournament's tags (Event, Round, White, Black, TimeControl).
pub fn attach(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    round: u32,
    white: &str,
    black: &str,
    pdn: &PdnGame,
) -> Result<Pairing, ClubError> {
    let t = tournament::find(store, which)?;
    let p = prepare(store, &t, round, white, black, pdn)?;
    tournament::record_game(
        store,
        actor,
        which,
        round,
        &[&p.white.name, &p.black.name],
        p.outcome,
        Some(&p.text),
    )
}

/// Every game of a tournament as one PDN text, in round and board order: the stored record where
/// there is one, otherwise the tags and the result.
pub fn export(store: &Store, which: &str) -> Result<String, ClubError> {
    let t = tournament::find(store, which)?;
    let mut out = String::new();
    for p in tournament::pairings(store, which, None)? {
        let Some(black) = &p.black else { continue };
        if let Some(text) = tournament::game_pdn(store, p.id)? {
            out.push_str(&text);
            continue;
        }
        let mut g = PdnGame::new(crate::rules::board::Position::start(t.variant));
        for (k, v) in [
            ("Event", t.name.as_str()),
            ("Round", &p.round.to_string()),
            ("White", &p.white),
            ("Black", black),
        ] {
            set_tag(&mut g, k, v);
        }
        if let Some(tc) = &t.time_control {
            set_tag(&mut g, "TimeControl", tc);
        }
        if p.forfeit {
            set_tag(&mut g, "Termination", "forfeit");
        }
        g.set_result(match p.result {
            Some(Outcome::WhiteWins) => GameResult::Win(Color::White),
            Some(Outcome::BlackWins) => GameResult::Win(Color::Black),
            Some(Outcome::Draw) => GameResult::Draw,
            None => GameResult::Unfinished,
        });
        out.push_str(&write_game(&g));
    }
    Ok(out)
}

/// Imports a PDN file's games into a tournament: each game is matched to its pairing by its
/// Round, White and Black tags; all games or none are taken (the first problem is named with the
/// game's number), in one transaction. Returns how many were recorded.
pub fn import(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    text: &str,
) -> Result<usize, ClubError> {
    let t = tournament::find(store, which)?;
    let mut games = Vec::new();
    for (i, g) in read_games(text, t.variant).into_iter().enumerate() {
        let n = i + 1;
        let g = g.map_err(|e| ClubError::BadInput(format!("game {n}: {e}")))?;
        let tag = |k: &str| {
            g.tag(k)
                .map(str::to_string)
                .ok_or_else(|| ClubError::BadInput(format!("game {n}: no {k} tag")))
        };
        let round: u32 = tag("Round")?
            .trim()
            .parse()
            .map_err(|_| ClubError::BadInput(format!("game {n}: the Round tag is not a number")))?;
        let (white, black) = (tag("White")?, tag("Black")?);
        outcome_of(&g).map_err(|e| ClubError::BadInput(format!("game {n}: {e}")))?;
        games.push((n, round, white, black, g));
    }
    // Check every game against the pairings first, so a bad file changes nothing.
    let pairings = tournament::pairings(store, which, None)?;
    for (n, round, white, black, _) in &games {
        let known = pairings.iter().any(|p| {
            p.round == *round
                && p.white.eq_ignore_ascii_case(white)
                && p.black
                    .as_deref()
                    .is_some_and(|b| b.eq_ignore_ascii_case(black))
        });
        if !known {
            return Err(ClubError::Refused(format!(
                "game {n}: {white} – {black} is not a pairing of round {round} of {}",
                t.name
            )));
        }
    }
    let mut ready = Vec::new();
    for (_, round, white, black, g) in &games {
        ready.push((*round, prepare(store, &t, *round, white, black, g)?));
    }
    store.write(actor, Operation::ImportGames.op().tournament(t.id), |tx| {
        let mut lines = Vec::new();
        for (round, p) in &ready {
            let (_, change) = tournament::record_in(
                tx,
                &t,
                *round,
                [&p.white, &p.black],
                p.outcome,
                Some(&p.text),
            )?;
            lines.push(change.detail);
        }
        let change = Change::new(format!("{}: {} game(s) recorded", t.name, ready.len()))
            .values(None, Some(lines.join("; ")));
        Ok((ready.len(), change))
    })
}

/// The recorded games of a round, in board order: each pairing with its record (games without
/// a stored record, byes and forfeits are left out).
pub fn round_records(
    store: &Store,
    which: &str,
    round: u32,
) -> Result<Vec<(Pairing, PdnGame)>, ClubError> {
    let t = tournament::find(store, which)?;
    let mut out = Vec::new();
    for p in tournament::pairings(store, which, Some(round))? {
        if p.black.is_none() || p.forfeit {
            continue;
        }
        let Some(text) = tournament::game_pdn(store, p.id)? else {
            continue;
        };
        let game = read_games(&text, t.variant)
            .into_iter()
            .next()
            .ok_or_else(|| ClubError::BadInput(format!("board {}: the record is empty", p.board)))?
            .map_err(|e| ClubError::BadInput(format!("board {}: {e}", p.board)))?;
        out.push((p, game));
    }
    Ok(out)
}

/// Replaces the record of a game that has one by an annotated copy of it (a review written in):
/// the moves and the result must be the record's own, so the result stays what it was.
pub fn annotate_record(
    store: &mut Store,
    actor: &Actor,
    game: i64,
    annotated: &PdnGame,
) -> Result<(), ClubError> {
    let Some(text) = tournament::game_pdn(store, game)? else {
        return Err(ClubError::Refused(format!(
            "game {game} has no record to annotate"
        )));
    };
    let stored = read_games(&text, annotated.variant)
        .into_iter()
        .next()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ClubError::BadInput(format!("game {game}: the stored record does not read"))
        })?;
    let moves = |g: &PdnGame| g.line.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    if stored.start != annotated.start
        || moves(&stored) != moves(annotated)
        || stored.result != annotated.result
    {
        return Err(ClubError::Refused(format!(
            "game {game}: the annotated record is not the same game"
        )));
    }
    let text = write_game(annotated);
    let t: Option<i64> = store
        .conn()
        .query_row(
            "SELECT tournament_id FROM games WHERE id = ?1",
            [game],
            |r| r.get(0),
        )
        .map_err(super::store::db)?;
    let mut op = Operation::Annotate.op();
    if let Some(t) = t {
        op = op.tournament(t);
    }
    store.write(actor, op, |tx| {
        tx.execute(
            "UPDATE games SET pdn = ?1 WHERE id = ?2",
            rusqlite::params![text, game],
        )
        .map_err(super::store::db)?;
        let change = Change::new(format!("game {game}: review written into the record"));
        Ok(((), change))
    })
}

/// A recorded game in the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Archived {
    /// Game id (negative for a game of the archive proper).
    pub id: i64,
    /// Tournament name, or the archived game's Event.
    pub tournament: String,
    /// The tournament's id (none for a game of the archive proper).
    pub tournament_id: Option<i64>,
    /// Round.
    pub round: u32,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// The PDN record.
    pub pdn: String,
}

/// Adds the games of a PDN file to the archive (games from outside the club's tournaments:
/// other events, famous games, analysis). All or none; returns how many.
pub fn archive_import(
    store: &mut Store,
    actor: &Actor,
    text: &str,
    variant: crate::rules::variant::Variant,
) -> Result<usize, ClubError> {
    let mut games = Vec::new();
    for (i, g) in read_games(text, variant).into_iter().enumerate() {
        let g = g.map_err(|e| ClubError::BadInput(format!("game {}: {e}", i + 1)))?;
        games.push(g);
    }
    if games.is_empty() {
        return Err(ClubError::BadInput("no games in the file".into()));
    }
    let count = games.len();
    store.write(actor, Operation::Archive.op(), |tx| {
        let mut names = Vec::new();
        for g in &games {
            let tag = |k: &str| g.tag(k).unwrap_or("?").to_string();
            tx.execute(
                "INSERT INTO archive (event, white, black, pdn, added)
                 VALUES (?1, ?2, ?3, ?4, datetime('now'))",
                rusqlite::params![tag("Event"), tag("White"), tag("Black"), write_game(g)],
            )
            .map_err(super::store::db)?;
            names.push(format!(
                "{} – {} ({})",
                tag("White"),
                tag("Black"),
                tag("Event")
            ));
        }
        let change = Change::new(format!("{count} games")).values(None, Some(names.join("; ")));
        Ok((count, change))
    })
}

/// Every recorded game: the club's tournament games (newest tournament first, round and board
/// order), then the archive in the order it was added. Archive games have round 0.
pub fn archive(store: &Store) -> Result<Vec<Archived>, ClubError> {
    archived(store, true)
}

/// Every recorded game as [`archive`] lists them, without their records (`pdn` empty): what a
/// list of games needs, at a fraction of the reading. [`record`] gives one game's record.
pub fn archive_index(store: &Store) -> Result<Vec<Archived>, ClubError> {
    archived(store, false)
}

/// The record of a recorded game, by its [`Archived::id`].
pub fn record(store: &Store, id: i64) -> Result<Option<String>, ClubError> {
    let sql = if id < 0 {
        "SELECT pdn FROM archive WHERE id = -?1"
    } else {
        "SELECT pdn FROM games WHERE id = ?1"
    };
    store
        .conn()
        .query_row(sql, [id], |r| r.get(0))
        .optional()
        .map_err(super::store::db)
        .map(Option::flatten)
}

fn archived(store: &Store, records: bool) -> Result<Vec<Archived>, ClubError> {
    let (game_pdn, archive_pdn) = if records {
        ("g.pdn", "pdn")
    } else {
        ("''", "''")
    };
    let mut stmt = store
        .conn()
        .prepare(&format!(
            "SELECT g.id, t.name, g.round, w.name, b.name, {game_pdn},
                    0 AS source, -g.tournament_id AS major, g.board AS minor, g.tournament_id
             FROM games g JOIN tournaments t ON t.id = g.tournament_id
             JOIN members w ON w.id = g.white_id JOIN members b ON b.id = g.black_id
             WHERE g.pdn IS NOT NULL
             UNION ALL
             SELECT -id, event, 0, white, black, {archive_pdn}, 1, id, 0, NULL FROM archive
             ORDER BY source, major, 3, minor"
        ))
        .map_err(super::store::db)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Archived {
                id: r.get(0)?,
                tournament: r.get(1)?,
                tournament_id: r.get(9)?,
                round: r.get(2)?,
                white: r.get(3)?,
                black: r.get(4)?,
                pdn: r.get(5)?,
            })
        })
        .map_err(super::store::db)?;
    rows.collect::<Result<_, _>>().map_err(super::store::db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{self, MemberFields};
    use crate::club::tiebreak::TieBreak;
    use crate::club::tournament::{NewTournament, System};
    use crate::rules::variant::Variant;

    fn event() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        for n in ["Ann", "Bob", "Cor", "Dirk"] {
            members::add(&mut s, &Actor::local(), n, &MemberFields::default()).unwrap();
        }
        let new = NewTournament {
            name: "Cup",
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: Some("80m+1m"),
            scoring: "2-1-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![TieBreak::SonnebornBerger],
            reports: Default::default(),
        };
        tournament::create(&mut s, &Actor::local(), &new).unwrap();
        let who: Vec<String> = ["Ann", "Bob", "Cor", "Dirk"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        tournament::enter(&mut s, &Actor::local(), "Cup", &who).unwrap();
        tournament::pair_next(&mut s, &Actor::local(), "Cup").unwrap();
        (dir, s)
    }

    #[test]
    fn round_records_and_annotated_records() {
        let (_d, mut s) = event();
        assert!(round_records(&s, "Cup", 1).unwrap().is_empty());
        let file = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
        import(&mut s, &Actor::local(), "Cup", file).unwrap();
        let games = round_records(&s, "Cup", 1).unwrap();
        assert_eq!(games.len(), 1, "Bob – Cor has no record yet");
        let (p, game) = &games[0];
        assert_eq!((p.white.as_str(), p.board), ("Ann", 1));
        let mut annotated = game.clone();
        annotated.line.moves[1]
            .comments
            .push("[%eval +1.00] a mistake".into());
        annotated.line.moves[1].annotations.push("$2".into());
        annotate_record(&mut s, &Actor::local(), p.id, &annotated).unwrap();
        let (_, back) = &round_records(&s, "Cup", 1).unwrap()[0];
        assert_eq!(back.line.moves[1].comments, ["[%eval +1.00] a mistake"]);
        assert_eq!(back.line.moves[1].annotations, ["$2"]);
        assert_eq!(
            tournament::pairings(&s, "Cup", Some(1)).unwrap()[0].result,
            Some(Outcome::WhiteWins),
            "the result stays"
        );
        // Another game is refused, and the record stays as it was.
        let mut other = game.clone();
        other.line.moves.pop();
        let e = annotate_record(&mut s, &Actor::local(), p.id, &other).unwrap_err();
        assert!(e.to_string().contains("not the same game"), "{e}");
        let (_, still) = &round_records(&s, "Cup", 1).unwrap()[0];
        assert_eq!(still.line.moves.len(), 4);
        assert_eq!(still.line.moves[1].annotations, ["$2"]);
        let bob_cor = tournament::pairings(&s, "Cup", Some(1)).unwrap()[1].id;
        assert!(
            annotate_record(&mut s, &Actor::local(), bob_cor, game).is_err(),
            "no record to annotate"
        );
    }

    #[test]
    fn import_export_round_trip() {
        let (_d, mut s) = event();
        // Round 1 (Berger, 4): Ann–Dirk, Bob–Cor.
        let file = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n\
                    [Round \"1\"]\n[White \"Bob\"]\n[Black \"Cor\"]\n[Result \"1-1\"]\n1. 33-29 1-1\n";
        assert_eq!(import(&mut s, &Actor::local(), "Cup", file).unwrap(), 2);
        let r1 = tournament::pairings(&s, "Cup", Some(1)).unwrap();
        assert_eq!(r1[0].result, Some(Outcome::WhiteWins));
        assert_eq!(r1[1].result, Some(Outcome::Draw));
        let out = export(&s, "Cup").unwrap();
        let back: Vec<PdnGame> = read_games(&out, Variant::International)
            .into_iter()
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].tag("Event"), Some("Cup"));
        assert_eq!(back[0].tag("TimeControl"), Some("80m+1m"));
        assert_eq!(back[0].line.moves.len(), 4);
        assert_eq!(back[1].result, GameResult::Draw);
        let all = archive(&s).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].white.as_str(), all[0].round), ("Ann", 1));
        // Games from elsewhere go to the archive beside them.
        let famous = "[Event \"Worlds\"]\n[White \"Sijbrands\"]\n[Black \"Baba Sy\"]\n1. 32-28 *\n";
        assert_eq!(
            archive_import(&mut s, &Actor::local(), famous, Variant::International).unwrap(),
            1
        );
        let all = archive(&s).unwrap();
        assert_eq!(all.len(), 3);
        let last = &all[2];
        assert_eq!(
            (last.tournament.as_str(), last.white.as_str(), last.round),
            ("Worlds", "Sijbrands", 0)
        );
        assert!(
            archive_import(
                &mut s,
                &Actor::local(),
                "[Event \"x\"]\n1. 99-1 *\n",
                Variant::International
            )
            .is_err()
        );
        assert_eq!(archive(&s).unwrap().len(), 3);
    }

    #[test]
    fn a_bad_file_changes_nothing() {
        let (_d, mut s) = event();
        let file = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n[Result \"2-0\"]\n2-0\n\n\
                    [Round \"1\"]\n[White \"Cor\"]\n[Black \"Bob\"]\n[Result \"1-1\"]\n1-1\n";
        let e = import(&mut s, &Actor::local(), "Cup", file).unwrap_err();
        assert!(e.to_string().contains("game 2"), "{e}");
        assert!(
            tournament::pairings(&s, "Cup", Some(1))
                .unwrap()
                .iter()
                .all(|p| p.result.is_none())
        );
        let unfinished = "[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n*\n";
        assert!(import(&mut s, &Actor::local(), "Cup", unfinished).is_err());
        let frisian = "[GameType \"40\"]\n[Round \"1\"]\n[White \"Ann\"]\n[Black \"Dirk\"]\n2-0\n";
        assert!(import(&mut s, &Actor::local(), "Cup", frisian).is_err());
        // Without a record, export still lists the pairing with its result.
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "Cup",
            1,
            "Ann",
            "Dirk",
            Outcome::Draw,
        )
        .unwrap();
        let out = export(&s, "Cup").unwrap();
        assert!(
            out.contains("[White \"Ann\"]") && out.contains("1-1"),
            "{out}"
        );
    }
}
