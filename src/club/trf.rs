//! FIDE Tournament Report File (TRF, 2016/2026 layout): the fixed-column text format pairing
//! programs exchange, so a club's pairings can be checked by, or moved to, other programs.

use super::ClubError;
use super::store::Store;
use super::tournament::{self, Outcome, System};
use std::collections::BTreeMap;

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
    format!("{p:>4.1}")
}

/// The tournament as a TRF: header tags (012 name, 062 players, 092 type, 122 time control,
/// 142 rounds, 162 scoring when not 1-½-0) and a 001 record per player with every round's
/// opponent, colour and result.
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
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    let field = (people.len() + people.len() % 2).saturating_sub(1) as u32;
    let total = match t.system {
        System::Swiss { rounds } => rounds,
        System::RoundRobin => field,
        System::DoubleRoundRobin => 2 * field,
    };
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", t.name));
    out.push_str(&format!("062 {}\n", people.len()));
    let kind = match t.system {
        System::RoundRobin => "Round robin",
        System::DoubleRoundRobin => "Double round robin",
        System::Swiss { .. } => "Swiss",
    };
    out.push_str(&format!("092 {kind}\n"));
    if let Some(tc) = &t.time_control {
        out.push_str(&format!("122 {tc}\n"));
    }
    out.push_str(&format!("142 {total}\n"));
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
        put(&mut line, 81, &points(row.map_or(0.0, |r| r.points)));
        put(&mut line, 86, &format!("{:>4}", row.map_or(0, |r| r.place)));
        for round in 1..=rounds {
            let col = 92 + 10 * (round as usize - 1);
            let game = games
                .iter()
                .find(|g| g.round == round && (&g.white == name || g.black.as_ref() == Some(name)));
            let (opponent, colour, result) = match game {
                None => (0, '-', 'Z'),
                Some(g) if g.black.is_none() => (0, '-', 'U'),
                Some(g) => {
                    let white = &g.white == name;
                    let other = if white {
                        g.black.as_deref().unwrap_or("")
                    } else {
                        g.white.as_str()
                    };
                    let won = match g.result {
                        Some(Outcome::WhiteWins) => Some(white),
                        Some(Outcome::BlackWins) => Some(!white),
                        Some(Outcome::Draw) | None => None,
                    };
                    let result = match (g.result, won, g.forfeit) {
                        (None, _, true) => '-',
                        (None, _, false) => ' ',
                        (Some(_), Some(true), true) => '+',
                        (Some(_), Some(false), true) => '-',
                        (Some(_), Some(true), false) => '1',
                        (Some(_), Some(false), false) => '0',
                        (Some(_), None, _) => '=',
                    };
                    let colour = if white { 'w' } else { 'b' };
                    (rank.get(other).copied().unwrap_or(0), colour, result)
                }
            };
            put(&mut line, col, &format!("{opponent:>4}"));
            put(&mut line, col + 5, &colour.to_string());
            put(&mut line, col + 7, &result.to_string());
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        out.push_str(&text);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{self, MemberFields, parse_rating};
    use crate::club::tiebreak::TieBreak;
    use crate::club::tournament::NewTournament;
    use crate::variant::Variant;

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
            members::add(&mut s, n, &fields).unwrap();
        }
        let new = NewTournament {
            name: "Trio",
            system: System::RoundRobin,
            variant: Variant::International,
            time_control: Some("80m+1m"),
            scoring: "2-1-0".parse().unwrap(),
            rated: false,
            tiebreaks: vec![TieBreak::SonnebornBerger],
        };
        tournament::create(&mut s, &new).unwrap();
        tournament::enter(&mut s, "Trio", &["Ann".into(), "Bob".into(), "Cor".into()]).unwrap();
        tournament::pair_next(&mut s, "Trio").unwrap();
        // Berger for 3 (4 with the bye): round 1 is 1–4 (Ann's bye), 2–3.
        tournament::record_result(&mut s, "Trio", 1, "Bob", "Cor", Outcome::WhiteWins).unwrap();
        let trf = export(&s, "Trio").unwrap();
        let lines: Vec<&str> = trf.lines().collect();
        assert_eq!(lines[0], "012 Trio");
        assert!(lines.contains(&"142 3"), "{trf}");
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
        assert_eq!(&ann[91..99], "   0 - U");
    }
}
