//! How a round's pairing (the program's or one an organiser changed) fares on the quality
//! criteria the Dutch system minimises, counted per criterion so that two pairings of the same
//! state can be compared in the criteria's order of priority.
//!
//! Counted here: C.5 the score of the pairing-allocated bye, C.6 the downfloaters, C.10–C.13
//! the colour preferences not met (absolute imbalances, absolute preferences, preferences,
//! strong preferences), C.14–C.17 floats repeated from one and two rounds before. Not counted:
//! C.7–C.9 and C.18–C.21 (scores of floaters, completion of the next bracket, the bye
//! assignee's unplayed games), which only break ties the counts above leave.

use super::Field;
use super::player::{self, Float, Player};
use crate::club::criteria::Colour;

/// One quality criterion's count for a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The article of C.04.3.
    pub article: &'static str,
    /// What is counted.
    pub what: &'static str,
    /// The measure minimised (players counted, or the bye's score).
    pub measure: u64,
    /// The players behind the measure (indices into the field), one group per instance.
    pub instances: Vec<Vec<usize>>,
}

/// The counts of the quality criteria for `boards` ((White, Black) player indices) and `bye`,
/// in the criteria's order.
pub fn counts(field: &Field, boards: &[(usize, usize)], bye: Option<usize>) -> Vec<Count> {
    let players = player::derive(field);
    let get = |i: usize| players.get(i).and_then(Option::as_ref);
    let mut out = Vec::new();
    let mut push = |article, what, instances: Vec<Vec<usize>>, measure: Option<u64>| {
        out.push(Count {
            article,
            what,
            measure: measure.unwrap_or(instances.len() as u64),
            instances,
        });
    };
    let bye_score = bye.and_then(get).map(|p| u64::from(p.score));
    push(
        "C.04.3 C.5",
        "the pairing-allocated bye's score",
        bye.into_iter().map(|p| vec![p]).collect(),
        Some(bye_score.unwrap_or(0)),
    );
    // Each player with the colour given and the opponent.
    let mut seats: Vec<(&Player, Colour, &Player)> = Vec::new();
    for &(w, b) in boards {
        if let (Some(pw), Some(pb)) = (get(w), get(b)) {
            seats.push((pw, Colour::White, pb));
            seats.push((pb, Colour::Black, pw));
        }
    }
    let mut downfloaters: Vec<Vec<usize>> = seats
        .iter()
        .filter(|(p, _, o)| p.score > o.score)
        .map(|(p, _, o)| vec![p.id, o.id])
        .collect();
    downfloaters.extend(bye.map(|p| vec![p]));
    push("C.04.3 C.6", "downfloaters", downfloaters, None);
    let denied = |keep: &dyn Fn(&Player) -> bool| -> Vec<Vec<usize>> {
        seats
            .iter()
            .filter(|(p, c, _)| keep(p) && p.preference.is_some_and(|want| want != *c))
            .map(|(p, _, o)| vec![p.id, o.id])
            .collect()
    };
    push(
        "C.04.3 C.10",
        "colour imbalances of two or more kept",
        denied(&|p| p.absolute_imbalance()),
        None,
    );
    push(
        "C.04.3 C.11",
        "absolute colour preferences not met",
        denied(&|p| p.absolute()),
        None,
    );
    push(
        "C.04.3 C.12",
        "colour preferences not met",
        denied(&|_| true),
        None,
    );
    push(
        "C.04.3 C.13",
        "strong colour preferences not met",
        denied(&|p| p.strong),
        None,
    );
    for (back, down, up) in [
        (1, "C.04.3 C.14", "C.04.3 C.15"),
        (2, "C.04.3 C.16", "C.04.3 C.17"),
    ] {
        let mut again_down: Vec<Vec<usize>> = seats
            .iter()
            .filter(|(p, _, o)| p.floats[back] == Float::Down && p.score > o.score)
            .map(|(p, _, o)| vec![p.id, o.id])
            .collect();
        again_down.extend(
            bye.and_then(get)
                .filter(|p| p.floats[back] == Float::Down)
                .map(|p| vec![p.id]),
        );
        push(
            down,
            if back == 1 {
                "downfloats repeated from the last round"
            } else {
                "downfloats repeated from two rounds before"
            },
            again_down,
            None,
        );
        let again_up: Vec<Vec<usize>> = seats
            .iter()
            .filter(|(p, _, o)| p.floats[back] == Float::Up && p.score < o.score)
            .map(|(p, _, o)| vec![p.id, o.id])
            .collect();
        push(
            up,
            if back == 1 {
                "upfloats repeated from the last round"
            } else {
                "upfloats repeated from two rounds before"
            },
            again_up,
            None,
        );
    }
    out
}

/// The first quality criterion, in order of priority, on which `checked` falls short of
/// `best` (the Dutch system's own pairing of the same state): its index in both.
pub fn first_shortfall(checked: &[Count], best: &[Count]) -> Option<usize> {
    for (i, (c, b)) in checked.iter().zip(best).enumerate() {
        match c.measure.cmp(&b.measure) {
            std::cmp::Ordering::Greater => return Some(i),
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Equal => {}
        }
    }
    None
}
