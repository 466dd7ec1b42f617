//! Tournaments in the club database: create, enter members, pair rounds, record results,
//! standings.
//!
//! `record` says what a tournament is; `state` reads its state from the database; `entries`
//! creates tournaments and manages who plays and who arbitrates; `history` reads a Swiss as the
//! Dutch system sees it; `systems` pairs a round by the tournament's system (round robin, Swiss,
//! Keizer); `rounds` pairs the next round and applies the organiser's changes; `results` enters
//! and corrects results and games, and takes the results players report; `standings` ranks the
//! players; `check` holds a Swiss round against the Dutch system's criteria; `field` says who
//! plays and how far the tournament has got, for the pages that publish it.

mod check;
mod entries;
mod field;
mod history;
mod record;
mod results;
mod rounds;
mod standings;
mod state;
mod systems;

pub use check::{Finding, check};
pub(crate) use entries::insert;
pub use entries::{
    arbiters, create, enter, entrant_names, find, list, set_arbiter, set_reports, withdraw,
};
pub use field::{Entrant, Progress, absences, field, progress, standings_csv};
pub use record::{
    Confirmation, NewTournament, Outcome, Pairing, Report, Scoring, Standing, System, Tournament,
    parse_tiebreaks,
};
pub(crate) use results::record_in;
pub use results::{
    confirm_result, game_pdn, pairings, record_game, record_result, report_result, to_play,
};
pub use rounds::{forbid, forbidden, pair_next, set_absent, swap, unpair};
pub use standings::{Crosstable, crosstable, standings};

#[cfg(test)]
mod tests;
