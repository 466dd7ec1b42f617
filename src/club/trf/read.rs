//! Reading a TRF's lines: the header tags the club uses and the 001 player records, with the
//! line number in every error.

use crate::club::ClubError;
use crate::club::criteria::Colour;
use crate::club::tournament::Scoring;
use std::collections::BTreeMap;

/// What a TRF says, before it becomes a tournament or a round to pair.
pub(super) struct Parsed {
    /// Tag 012.
    pub name: Option<String>,
    /// Tag 092 or 192, lower case.
    pub kind: String,
    /// Tag 142 or `XXR`.
    pub rounds_tag: Option<u32>,
    /// Tag 122.
    pub time_control: Option<String>,
    /// Tags 162, `BBW`, `BBD`.
    pub scoring: Scoring,
    /// `XXC` or 152.
    pub initial_colour: Option<Colour>,
    /// `XXP`: groups of starting ranks that may not meet.
    pub forbidden: Vec<Vec<usize>>,
    /// 001 records by starting rank.
    pub players: BTreeMap<usize, TrfPlayer>,
}

/// One round of a 001 record: opponent's starting rank (0 for none), colour, result code.
pub(super) type RoundEntry = (usize, char, char);

/// A 001 record.
pub(super) struct TrfPlayer {
    pub name: String,
    pub rating: Option<f64>,
    pub fide_id: Option<String>,
    pub rounds: Vec<RoundEntry>,
}

/// The column range `from..=to` (1-based) of a line, trimmed; empty when the line is shorter.
fn field(line: &str, from: usize, to: usize) -> &str {
    let end = to.min(line.len());
    if from > end {
        return "";
    }
    line.get(from - 1..end).unwrap_or("").trim()
}

/// Reads the lines of a TRF; errors name the line.
pub(super) fn parse(text: &str) -> Result<Parsed, ClubError> {
    let bad = |line: usize, why: String| ClubError::BadInput(format!("line {line}: {why}"));
    let mut name = None;
    let mut kind = String::new();
    let mut rounds_tag = None;
    let mut time_control = None;
    let mut scoring = crate::club::tournament::Scoring {
        win: 1.0,
        draw: 0.5,
    };
    let mut players: BTreeMap<usize, TrfPlayer> = BTreeMap::new();
    let mut initial_colour = None;
    let mut forbidden = Vec::new();
    // Lines end in LF, CRLF or (as some pairing programs write them) CR alone.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_end_matches('\r');
        if !line.is_ascii() {
            return Err(bad(n, "TRF is plain ASCII text".into()));
        }
        let tag = line.get(..3).unwrap_or("");
        let rest = line.get(4..).unwrap_or("").trim();
        match tag {
            "012" => name = Some(rest.to_string()),
            "092" | "192" => kind = rest.to_ascii_lowercase(),
            "BBW" | "BBD" => {
                let p: f64 = rest
                    .parse()
                    .map_err(|_| bad(n, format!("{rest:?} is not a number of points")))?;
                if tag == "BBW" {
                    scoring.win = p;
                } else {
                    scoring.draw = p;
                }
            }
            "122" => time_control = Some(rest.to_string()),
            "142" | "XXR" => {
                rounds_tag = Some(
                    rest.parse::<u32>()
                        .map_err(|_| bad(n, format!("{rest:?} is not a number of rounds")))?,
                )
            }
            "162" => {
                let mut col = 6;
                while col <= line.len() {
                    let code = field(line, col, col);
                    let value = field(line, col + 1, col + 4);
                    if !code.is_empty() {
                        let p: f64 = value
                            .parse()
                            .map_err(|_| bad(n, format!("{value:?} is not a number of points")))?;
                        match code {
                            "W" => scoring.win = p,
                            "D" => scoring.draw = p,
                            _ => {}
                        }
                    }
                    col += 9;
                }
            }
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => initial_colour = Some(Colour::White),
                        "black1" => initial_colour = Some(Colour::Black),
                        _ => {}
                    }
                }
            }
            "152" => match rest {
                "W" => initial_colour = Some(Colour::White),
                "B" => initial_colour = Some(Colour::Black),
                _ => return Err(bad(n, format!("{rest:?} is not a colour (W or B)"))),
            },
            "XXP" => {
                let ranks = rest
                    .split_whitespace()
                    .map(|r| r.parse::<usize>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| bad(n, format!("{rest:?} is not a list of starting ranks")))?;
                forbidden.push(ranks);
            }
            "001" => {
                let rank: usize = field(line, 5, 8)
                    .parse()
                    .map_err(|_| bad(n, "no starting rank in columns 5–8".into()))?;
                let player_name = field(line, 15, 47).to_string();
                if player_name.is_empty() {
                    return Err(bad(n, "no name in columns 15–47".into()));
                }
                let rating = match field(line, 49, 52) {
                    "" | "0" => None,
                    r => Some(
                        r.parse::<f64>()
                            .map_err(|_| bad(n, format!("rating {r:?}")))?,
                    ),
                };
                let fide_id = Some(field(line, 58, 68).to_string()).filter(|s| !s.is_empty());
                let mut rounds = Vec::new();
                let mut col = 92;
                while col <= line.len() {
                    let opponent = match field(line, col, col + 3) {
                        "" => 0,
                        o => o
                            .parse::<usize>()
                            .map_err(|_| bad(n, format!("opponent {o:?} at column {col}")))?,
                    };
                    let colour = line.as_bytes().get(col + 4).map_or(' ', |&b| b as char);
                    let result = line.as_bytes().get(col + 6).map_or(' ', |&b| b as char);
                    rounds.push((
                        opponent,
                        colour.to_ascii_lowercase(),
                        result.to_ascii_uppercase(),
                    ));
                    col += 10;
                }
                if players
                    .insert(
                        rank,
                        TrfPlayer {
                            name: player_name,
                            rating,
                            fide_id,
                            rounds,
                        },
                    )
                    .is_some()
                {
                    return Err(bad(n, format!("starting rank {rank} given twice")));
                }
            }
            _ => {}
        }
    }
    Ok(Parsed {
        name,
        kind,
        rounds_tag,
        time_control,
        scoring,
        initial_colour,
        forbidden,
        players,
    })
}
