//! The Dutch system on small fields built from the articles; agreement with the reference
//! engine over thousands of rounds is `tests/dutch_reference.rs`.

use super::*;
use Colour::{Black, White};

const POINTS: Points = Points { win: 2, draw: 1 };

fn game(opponent: usize, colour: Colour, points: u32) -> Round {
    Round {
        opponent: Some(opponent),
        colour: Some(colour),
        played: true,
        participated: true,
        points,
    }
}

const BYE: Round = Round {
    opponent: None,
    colour: None,
    played: false,
    participated: true,
    points: 2,
};

fn field(rounds: Vec<Vec<Round>>, total: usize) -> Field {
    Field {
        players: rounds
            .into_iter()
            .map(|rounds| Player {
                rounds,
                present: true,
            })
            .collect(),
        forbidden: Vec::new(),
        total_rounds: total,
        points: POINTS,
        initial_colour: White,
    }
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half_alternating_colours() {
    // B.3 S1 = 1–3 against S2 = 4–6; E.5 the initial colour to odd pairing numbers of S1.
    let p = pair(&field(vec![Vec::new(); 6], 5)).unwrap();
    assert_eq!(p.boards, vec![(0, 3), (4, 1), (2, 5)]);
    assert_eq!(p.bye, None);
    let mut black = field(vec![Vec::new(); 6], 5);
    black.initial_colour = Black;
    assert_eq!(pair(&black).unwrap().boards, vec![(3, 0), (1, 4), (5, 2)]);
}

#[test]
fn the_bye_goes_to_the_lowest_player_who_may_have_it() {
    // C.5: the lowest; C.2: not to one who had it already.
    let p = pair(&field(vec![Vec::new(); 5], 5)).unwrap();
    assert_eq!(p.bye, Some(4));
    assert_eq!(p.boards, vec![(0, 2), (3, 1)]);
    // Round 2 with everyone on a draw except the bye: players 1 and 2 drew, 3 and 4 drew, 5 had
    // the bye (2 points, so on top). The bye falls to the lowest of the rest.
    let f = field(
        vec![
            vec![game(1, White, 1)],
            vec![game(0, Black, 1)],
            vec![game(3, White, 1)],
            vec![game(2, Black, 1)],
            vec![BYE],
        ],
        5,
    );
    let p = pair(&f).unwrap();
    assert_ne!(p.bye, Some(4), "a second bye breaks C.2: {p:?}");
    assert_eq!(p.bye, Some(3));
}

#[test]
fn no_one_meets_twice_and_an_unpairable_round_is_an_error() {
    // C.1: 1 beat 2 and 3 beat 4; round 2 puts the winners together and the losers together.
    let f = field(
        vec![
            vec![game(2, White, 2)],
            vec![game(3, Black, 2)],
            vec![game(0, Black, 0)],
            vec![game(1, White, 0)],
        ],
        3,
    );
    let p = pair(&f).unwrap();
    let met = |a: usize, b: usize| {
        p.boards
            .iter()
            .any(|&(w, x)| (w, x) == (a, b) || (x, w) == (a, b))
    };
    assert!(met(0, 1) && met(2, 3), "{p:?}");
    // E.1: both winners' preferences (0 wants Black, 1 wants White) are granted.
    assert!(p.boards.contains(&(1, 0)), "{p:?}");
    // Two players who met already cannot be paired again.
    let f = field(vec![vec![game(1, White, 2)], vec![game(0, Black, 0)]], 3);
    assert_eq!(pair(&f), Err(DutchError::Impossible(2)));
}

#[test]
fn two_players_who_must_have_the_same_colour_meet_only_as_topscorers_of_the_last_round() {
    // C.3: 1 and 2 both played Black twice (absolute preference for White) and lead the
    // field; 3 met them both; 4 sits this round out. In round 3 of 5, 1–2 breaks C.3 and the
    // rest are rematches.
    let mut f = field(
        vec![
            vec![game(2, Black, 2), game(3, Black, 2)],
            vec![game(3, Black, 2), game(2, Black, 2)],
            vec![game(0, White, 0), game(1, White, 0)],
            vec![game(1, White, 0), game(0, White, 0)],
        ],
        5,
    );
    f.players[3].present = false;
    assert_eq!(pair(&f), Err(DutchError::Impossible(3)));
    // In the last round, topscorers (more than half the maximum score) are exempt.
    f.total_rounds = 3;
    let p = pair(&f).unwrap();
    assert_eq!(p.boards.len(), 1, "{p:?}");
    assert_eq!(p.bye, Some(2));
}

#[test]
fn a_ragged_history_or_an_unknown_opponent_is_refused() {
    let f = field(vec![vec![game(1, White, 2)], vec![]], 3);
    assert!(matches!(
        pair(&f),
        Err(DutchError::Ragged { player: 1, .. })
    ));
    let f = field(vec![vec![game(7, White, 2)], vec![game(0, Black, 0)]], 3);
    assert_eq!(
        pair(&f),
        Err(DutchError::UnknownOpponent {
            player: 0,
            round: 1,
            opponent: 7
        })
    );
}

#[test]
fn an_empty_or_single_field_pairs_what_it_can() {
    assert_eq!(
        pair(&field(Vec::new(), 5)),
        Ok(Pairing {
            boards: Vec::new(),
            bye: None
        })
    );
    assert_eq!(pair(&field(vec![Vec::new()], 5)).unwrap().bye, Some(0));
}

#[test]
fn a_field_past_the_memory_limit_is_refused_before_any_work() {
    // 15,000 players: a matching graph of some 5 GB even in the first round.
    let f = field(vec![Vec::new(); 15_000], 9);
    assert!(
        matches!(pair(&f), Err(DutchError::TooLarge(15_000, _, mib)) if mib << 20 > MEMORY_LIMIT),
        "{:?}",
        pair(&f).err()
    );
}

#[test]
fn a_bracket_that_needs_wider_score_fields_gets_them_and_the_same_pairing() {
    // Score fields are laid out per bracket within a width guessed for the round; starting
    // from almost none, every bracket asks for more and the round is paired again, to the
    // same boards as from the estimate.
    let mut f = field(vec![Vec::new(); 40], 7);
    for round in 0..6 {
        let estimated = pair(&f).unwrap();
        assert_eq!(
            pair_from(&f, Some(0)).unwrap(),
            estimated,
            "round {}",
            round + 1
        );
        for &(w, b) in &estimated.boards {
            let (pw, pb) = match (w * 7 + b * 3 + round) % 5 {
                0 | 1 => (2, 0),
                2 => (1, 1),
                _ => (0, 2),
            };
            f.players[w].rounds.push(game(b, White, pw));
            f.players[b].rounds.push(game(w, Black, pb));
        }
        if let Some(p) = estimated.bye {
            f.players[p].rounds.push(BYE);
        }
    }
    let scores: std::collections::BTreeSet<u32> = f
        .players
        .iter()
        .map(|p| p.rounds.iter().map(|r| r.points).sum())
        .collect();
    assert!(scores.len() >= 6, "a spread of scores: {scores:?}");
}
