//! FIDE Tournament Report File (TRF, 2016/2026 layout): the fixed-column text format pairing
//! programs exchange, so a club's pairings can be checked by, or moved to, other programs.

use super::error::ClubError;
use super::store::Store;
use super::tournament::{self, Outcome, System};
use rusqlite::OptionalExtension;
use std::collections::BTreeMap;

mod field;
mod read;

pub use field::{NextRound, next_round};

use read::Parsed;

/// Writes `text` into `line` starting at 1-based column `col` (the spec's positions).
fn put(line: &mut Vec<u8>, col: usize, text: &str) {
    let start = col - 1;
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| if c.is_ascii() { c as u8 } else { b'?' })
        .collect();
    if line.len() < start + bytes.len() {
        line.resize(start + bytes.len(), b' ');
    }
    line[start..start + bytes.len()].copy_from_slice(&bytes);
}

fn points(p: f64) -> String {
    // No "-0.0": the pairing programs read the column as an unsigned number.
    let p = if p == 0.0 { 0.0 } else { p };
    format!("{p:>4.1}")
}

/// The tournament as a TRF, as the reference pairing programs read it: header tags (012 name,
/// 062 players, 092 type, 122 time control, 142 and `XXR` rounds, 162 scoring when not 1-½-0,
/// `XXC` the first round's initial colour, `XXP` the pairs forbidden to meet) and a 001 record per player with every round's
/// opponent, colour and result, and the points those results give.
///
/// Rounds are written up to the last one with a result; a game of theirs still without a result
/// is left blank (not played), a bye is `0000 - U`, a round a player sat out `0000 - Z`.
pub fn export(store: &Store, which: &str) -> Result<String, ClubError> {
    let t = tournament::find(store, which)?;
    let standings = tournament::standings(store, which)?;
    let games = tournament::pairings(store, which, None)?;
    let people = tournament::entrant_names(store, t.id)?;
    let rank: BTreeMap<&str, usize> = people
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i + 1))
        .collect();
    let members = super::members::list(store, true, None)?;
    let paired = games.iter().map(|g| g.round).max().unwrap_or(0);
    let rounds = games
        .iter()
        .filter(|g| g.black.is_some() && (g.result.is_some() || g.forfeit))
        .map(|g| g.round)
        .max()
        .unwrap_or(0);
    let field = (people.len() + people.len() % 2).saturating_sub(1) as u32;
    let total = match t.system {
        System::Swiss { rounds } => rounds,
        System::Keizer { rounds } => rounds.max(paired),
        System::RoundRobin => field,
        System::DoubleRoundRobin => 2 * field,
    };
    // Who sits out the round after the last one written (withdrawn, or absent from it): the
    // pairing programs read an entry there as a bye requested for the round they pair.
    let out_next = sitting_out(store, t.id, rounds + 1, &games, &people)?;
    let entries: Vec<Vec<Entry>> = people
        .iter()
        .map(|name| {
            let mut row: Vec<Entry> = (1..=rounds)
                .map(|round| entry(&games, &rank, name, round))
                .collect();
            if rounds < total && out_next.contains(name) {
                row.push(Entry::Out);
            }
            row
        })
        .collect();
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", t.name));
    out.push_str(&format!("062 {}\n", people.len()));
    let kind = match t.system {
        System::RoundRobin => "Round robin",
        System::DoubleRoundRobin => "Double round robin",
        System::Swiss { .. } => "Swiss",
        System::Keizer { .. } => "Keizer",
    };
    out.push_str(&format!("092 {kind}\n"));
    if let Some(tc) = &t.time_control {
        out.push_str(&format!("122 {tc}\n"));
    }
    out.push_str(&format!("142 {total}\nXXR {total}\n"));
    if t.scoring.win != 1.0 || t.scoring.draw != 0.5 {
        let mut line = b"162".to_vec();
        for (i, (code, p)) in [('W', t.scoring.win), ('D', t.scoring.draw), ('L', 0.0)]
            .into_iter()
            .enumerate()
        {
            put(&mut line, 6 + 9 * i, &code.to_string());
            put(&mut line, 7 + 9 * i, &points(p));
        }
        out.push_str(&String::from_utf8_lossy(&line));
        out.push('\n');
    }
    if let System::Swiss { .. } = t.system {
        // Before round 1 the club's own choice: pairing number 1 has White.
        let colour = initial_colour(&entries).unwrap_or("white");
        out.push_str(&format!("XXC {colour}1\n"));
    }
    if let System::Swiss { .. } = t.system {
        for (a, b) in tournament::forbidden(store, which)? {
            if let (Some(ra), Some(rb)) = (rank.get(a.as_str()), rank.get(b.as_str())) {
                out.push_str(&format!("XXP {ra} {rb}\n"));
            }
        }
    }
    for (i, name) in people.iter().enumerate() {
        let m = members.iter().find(|m| &m.name == name);
        let row = standings.iter().find(|s| &s.name == name);
        let mut line = b"001".to_vec();
        put(&mut line, 5, &format!("{:>4}", i + 1));
        put(&mut line, 15, &format!("{name:<33.33}"));
        if let Some(r) = m.and_then(|m| m.ratings.get(t.variant.name())) {
            put(&mut line, 49, &format!("{:>4.0}", r));
        }
        if let Some(id) = m
            .and_then(|m| m.federation_id.as_deref())
            .filter(|id| id.len() <= 11 && id.chars().all(|c| c.is_ascii_digit()))
        {
            put(&mut line, 58, &format!("{id:>11}"));
        }
        let score: f64 = entries[i].iter().map(|e| e.points(&t.scoring)).sum();
        put(&mut line, 81, &points(score));
        put(&mut line, 86, &format!("{:>4}", row.map_or(0, |r| r.place)));
        for (r, e) in entries[i].iter().enumerate() {
            put(&mut line, 92 + 10 * r, &e.text());
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        out.push_str(&text);
        out.push('\n');
    }
    Ok(out)
}

/// A player's round in a 001 record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// Paired, no result yet: written blank (not played).
    Pending,
    /// The pairing-allocated bye (`U`).
    Bye,
    /// Not paired in the round: absent, not yet entered, or withdrawn (`Z`).
    Out,
    /// A game: the opponent's starting rank, whether White, and the result code.
    Game(usize, bool, char),
}

impl Entry {
    /// The ten columns of the round (opponent, colour, result), without trailing blanks.
    fn text(self) -> String {
        match self {
            Entry::Pending => String::new(),
            Entry::Bye => "0000 - U".into(),
            Entry::Out => "0000 - Z".into(),
            Entry::Game(o, white, r) => format!("{o:>4} {} {r}", if white { 'w' } else { 'b' }),
        }
    }

    /// The points the round gives under the tournament's scoring.
    fn points(self, scoring: &tournament::Scoring) -> f64 {
        match self {
            Entry::Bye | Entry::Game(_, _, '1' | '+') => scoring.win,
            Entry::Game(_, _, '=') => scoring.draw,
            _ => 0.0,
        }
    }
}

/// The entrants who will not play `round`: withdrawn, marked absent, or (when the round is
/// paired) without a game in it.
fn sitting_out(
    store: &Store,
    tournament: i64,
    round: u32,
    games: &[tournament::Pairing],
    people: &[String],
) -> Result<std::collections::BTreeSet<String>, ClubError> {
    let conn = store.conn();
    let names = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Vec<String>, ClubError> {
        let mut stmt = conn.prepare(sql).map_err(super::store::db)?;
        let rows = stmt
            .query_map(params, |r| r.get(0))
            .map_err(super::store::db)?;
        rows.collect::<Result<_, _>>().map_err(super::store::db)
    };
    let mut out: std::collections::BTreeSet<String> = names(
        "SELECT m.name FROM entries e JOIN members m ON m.id = e.member_id
         WHERE e.tournament_id = ?1 AND e.withdrawn = 1",
        &[&tournament],
    )?
    .into_iter()
    .collect();
    out.extend(names(
        "SELECT m.name FROM absences a JOIN members m ON m.id = a.member_id
         WHERE a.tournament_id = ?1 AND a.round = ?2",
        &[&tournament, &round],
    )?);
    let paired: Vec<&tournament::Pairing> = games.iter().filter(|g| g.round == round).collect();
    if !paired.is_empty() {
        for name in people {
            let plays = paired
                .iter()
                .any(|g| &g.white == name || g.black.as_ref() == Some(name));
            if !plays {
                out.insert(name.clone());
            }
        }
    }
    Ok(out)
}

/// What a player did in a round.
fn entry(
    games: &[tournament::Pairing],
    rank: &BTreeMap<&str, usize>,
    name: &str,
    round: u32,
) -> Entry {
    let game = games
        .iter()
        .find(|g| g.round == round && (g.white == name || g.black.as_deref() == Some(name)));
    let Some(g) = game else {
        return Entry::Out;
    };
    let Some(black) = g.black.as_deref() else {
        return Entry::Bye;
    };
    let white = g.white == name;
    let other = if white { black } else { g.white.as_str() };
    let won = match g.result {
        Some(Outcome::WhiteWins) => Some(white),
        Some(Outcome::BlackWins) => Some(!white),
        Some(Outcome::Draw) | None => None,
    };
    let result = match (g.result, won, g.forfeit) {
        // Both players withdrew: the game is lost by both.
        (None, _, true) => '-',
        (None, _, false) => return Entry::Pending,
        (Some(_), Some(true), true) => '+',
        (Some(_), Some(false), true) => '-',
        (Some(_), Some(true), false) => '1',
        (Some(_), Some(false), false) => '0',
        (Some(_), None, _) => '=',
    };
    Entry::Game(rank.get(other).copied().unwrap_or(0), white, result)
}

/// The first round's initial colour (the colour pairing number 1 received), as `XXC` writes it:
/// found from the highest-ranked player with a colour in round 1, reversed for each player above
/// them who had none (the top half of round 1 alternates colours board by board).
fn initial_colour(entries: &[Vec<Entry>]) -> Option<&'static str> {
    entries.iter().enumerate().find_map(|(i, rounds)| {
        let Some(Entry::Game(_, white, _)) = rounds.first() else {
            return None;
        };
        Some(if *white == (i % 2 == 0) {
            "white"
        } else {
            "black"
        })
    })
}

/// Reads a TRF into a new tournament: players are matched to members by name (new members are
/// added with the file's rating as their starting rating), entered in starting-rank order, and
/// every round's games and byes recorded; rounds sat out (`Z`, `H`, `-` without an opponent)
/// are absences, also in a last column that only says who sits the next round out, and `XXP`
/// lines forbidden pairs, so the tournament continues as the file says. All or nothing; errors
/// name the line. The system is a round robin when tag 092 says so, a Swiss of tag 142's rounds
/// otherwise.
pub fn import(
    store: &mut Store,
    actor: &super::access::Actor,
    text: &str,
    variant: crate::rules::variant::Variant,
) -> Result<i64, ClubError> {
    let Parsed {
        name,
        kind,
        rounds_tag,
        time_control,
        scoring,
        players,
        forbidden,
        ..
    } = read::parse(text)?;
    let name = name.ok_or_else(|| ClubError::BadInput("no tournament name (tag 012)".into()))?;
    if players.is_empty() {
        return Err(ClubError::BadInput("no players (001 records)".into()));
    }
    let played = players.values().map(|p| p.rounds.len()).max().unwrap_or(0) as u32;
    let system = if kind.contains("double") {
        System::DoubleRoundRobin
    } else if kind.contains("round") {
        System::RoundRobin
    } else {
        System::Swiss {
            rounds: rounds_tag.unwrap_or(played).max(played).max(1),
        }
    };
    let scoring_name = if scoring.win == 2.0 {
        "2-1-0"
    } else {
        "1-0.5-0"
    };
    let new = super::tournament::NewTournament {
        name: &name,
        system,
        variant,
        time_control: time_control
            .as_deref()
            .filter(|tc| crate::clock::TimeControl::parse(tc).is_ok()),
        scoring: scoring_name.parse()?,
        rated: false,
        tiebreaks: vec![super::tiebreak::TieBreak::SonnebornBerger],
        reports: super::tournament::Confirmation::Arbiter,
    };
    let op = super::access::Operation::ImportTrf.op();
    store.write(actor, op, |tx| {
        let t = super::tournament::insert(tx, &new)?;
        let mut ids: BTreeMap<usize, i64> = BTreeMap::new();
        for (number, (rank, p)) in players.iter().enumerate() {
            let existing: Option<i64> = tx
                .query_row(
                    "SELECT id FROM members WHERE name = ?1 COLLATE NOCASE",
                    [&p.name],
                    |r| r.get(0),
                )
                .optional()
                .map_err(super::store::db)?;
            let id = match existing {
                Some(id) => id,
                None => {
                    let fields = super::members::MemberFields {
                        federation_id: p.fide_id.clone(),
                        ratings: p.rating.map(|r| (variant, r)).into_iter().collect(),
                        ..Default::default()
                    };
                    super::members::insert(tx, &p.name, &fields)?
                }
            };
            tx.execute(
                "INSERT INTO entries (tournament_id, member_id, number) VALUES (?1, ?2, ?3)",
                rusqlite::params![t, id, number as i64 + 1],
            )
            .map_err(super::store::db)?;
            ids.insert(*rank, id);
        }
        for round in 1..=played {
            let mut board = 0;
            for (rank, p) in &players {
                let Some(&(opponent, colour, result)) = p.rounds.get(round as usize - 1) else {
                    continue;
                };
                let me = ids[rank];
                if opponent == 0 && matches!(result, 'Z' | 'H' | '-') {
                    // A round sat out (as requested, or after retiring): an absence.
                    tx.execute(
                        "INSERT OR IGNORE INTO absences (tournament_id, member_id, round)
                         VALUES (?1, ?2, ?3)",
                        rusqlite::params![t, me, round],
                    )
                    .map_err(super::store::db)?;
                    continue;
                }
                let code = match (opponent, colour, result) {
                    (0, _, 'U' | 'F') => Some(None),
                    (0, _, _) => None,
                    // A forfeit without colours is recorded once, the higher-ranked player
                    // written first; the colours of unplayed games count for nothing.
                    (o, 'w', r) | (o, '-', r @ ('+' | '-')) if colour == 'w' || o > *rank => {
                        let other = *ids.get(&o).ok_or_else(|| {
                            ClubError::BadInput(format!("{}: round {round}: no player {o}", p.name))
                        })?;
                        let res = match r {
                            '1' | 'W' => Some("W"),
                            '0' | 'L' => Some("B"),
                            '=' | 'D' => Some("D"),
                            '+' => Some("FW"),
                            '-' => Some("FB"),
                            _ => None,
                        };
                        Some(Some((other, res)))
                    }
                    _ => None,
                };
                let Some(game) = code else { continue };
                board += 1;
                match game {
                    None => tx.execute(
                        "INSERT INTO games (tournament_id, round, board, white_id, black_id, result)
                         VALUES (?1, ?2, ?3, ?4, NULL, 'bye')",
                        rusqlite::params![t, round, board, me],
                    ),
                    Some((other, res)) => tx.execute(
                        "INSERT INTO games (tournament_id, round, board, white_id, black_id, result)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        rusqlite::params![t, round, board, me, other, res],
                    ),
                }
                .map_err(super::store::db)?;
            }
        }
        for group in &forbidden {
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    let (Some(&x), Some(&y)) = (ids.get(a), ids.get(b)) else {
                        return Err(ClubError::BadInput(format!(
                            "XXP {a} {b}: no such starting rank"
                        )));
                    };
                    tx.execute(
                        "INSERT OR IGNORE INTO forbidden (tournament_id, a, b) VALUES (?1, ?2, ?3)",
                        rusqlite::params![t, x.min(y), x.max(y)],
                    )
                    .map_err(super::store::db)?;
                }
            }
        }
        let change = super::store::Change::new(format!("#{t} {name} from TRF"))
            .about_tournament(t)
            .values(
                None,
                Some(format!("{} players, {played} rounds", players.len())),
            );
        Ok((t, change))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::access::Actor;
    use crate::club::members::{self, MemberFields, parse_rating};
    use crate::club::tiebreak::TieBreak;
    use crate::club::tournament::NewTournament;
    use crate::rules::variant::Variant;

    #[test]
    fn a_round_robin_in_trf_columns() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("club.sqlite")).unwrap();
        for (n, r) in [("Ann", "1800"), ("Bob", "1700"), ("Cor", "1600")] {
            let fields = MemberFields {
                federation_id: Some("12345".into()),
                ratings: vec![parse_rating(&format!("international={r}")).unwrap()],
                ..Default::default()
            };
            members::add(&mut s, &Actor::local(), n, &fields).unwrap();
        }
        let new = NewTournament {
            name: "Trio",
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: Some("80m+1m"),
            scoring: "2-1-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![TieBreak::SonnebornBerger],
            reports: Default::default(),
        };
        tournament::create(&mut s, &Actor::local(), &new).unwrap();
        tournament::enter(
            &mut s,
            &Actor::local(),
            "Trio",
            &["Ann".into(), "Bob".into(), "Cor".into()],
        )
        .unwrap();
        tournament::pair_next(&mut s, &Actor::local(), "Trio").unwrap();
        // Berger for 3 (4 with the bye): round 1 is 1–4 (Ann's bye), 2–3.
        tournament::record_result(
            &mut s,
            &Actor::local(),
            "Trio",
            1,
            "Bob",
            "Cor",
            Outcome::WhiteWins,
        )
        .unwrap();
        let trf = export(&s, "Trio").unwrap();
        let lines: Vec<&str> = trf.lines().collect();
        assert_eq!(lines[0], "012 Trio");
        assert!(lines.contains(&"142 3"), "{trf}");
        assert!(lines.contains(&"XXR 3"), "{trf}");
        assert!(lines.contains(&"162  W 2.0    D 1.0    L 0.0"), "{trf}");
        let bob = lines.iter().find(|l| l.contains("Bob")).unwrap();
        // Columns: 5–8 rank, 15–47 name, 49–52 rating, 58–68 FIDE number, 81–84 points,
        // 86–89 rank, 92–95 opponent, 97 colour, 99 result.
        assert_eq!(&bob[..8], "001    2");
        assert_eq!(&bob[14..17], "Bob");
        assert_eq!(&bob[48..52], "1700");
        assert_eq!(&bob[57..68], "      12345");
        assert_eq!(&bob[80..84], " 2.0");
        assert_eq!(&bob[91..99], "   3 w 1");
        let cor = lines.iter().find(|l| l.contains("Cor")).unwrap();
        assert_eq!(&cor[91..99], "   2 b 0");
        let ann = lines.iter().find(|l| l.contains("Ann")).unwrap();
        // No opponent is written 0000 (TRF-16); the pairing-allocated bye is U.
        assert_eq!(&ann[91..99], "0000 - U");

        // Read back into another club: the same file comes out.
        let other = tempfile::tempdir().unwrap();
        let mut t = Store::open(&other.path().join("club.sqlite")).unwrap();
        import(&mut t, &Actor::local(), &trf, Variant::International).unwrap();
        assert_eq!(export(&t, "Trio").unwrap(), trf);
        assert!(
            import(&mut t, &Actor::local(), &trf, Variant::International).is_err(),
            "the name is taken"
        );
        let bad = trf.replace("001    2", "001    x");
        assert!(
            import(&mut s, &Actor::local(), &bad, Variant::International)
                .unwrap_err()
                .to_string()
                .contains("line")
        );
    }
}
