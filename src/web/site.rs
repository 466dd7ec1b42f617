//! What the site is made of: the tournaments, members and recorded games it publishes, read
//! from the club database as it is now, and where each one's page is. Nothing here writes to
//! the club.

use super::layout::Frame;
use crate::club::games::{self, Archived};
use crate::club::members::{self, Member};
use crate::club::tournament::{self as t, Tournament};
use crate::club::{ClubError, Store};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// What to publish and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The site's title: the club's name.
    pub title: String,
    /// Only these tournaments (by name or id); all when empty.
    pub tournaments: Vec<String>,
    /// The address the site will be read at (canonical links).
    pub base_url: Option<String>,
    /// Served live by the club server (games in progress are shown).
    pub live: bool,
}

/// A page or file of the site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Its path from the site's root (`tournaments/1-autumn.html`).
    pub path: String,
    /// Its media type.
    pub mime: &'static str,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A name as it goes into a path: lower-case letters and digits, words joined by `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 48 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "x".into() } else { out }
}

/// The site of one club database.
pub struct Site<'a> {
    pub(super) store: &'a Store,
    pub(super) options: &'a Options,
    /// The tournaments published, newest first.
    pub(super) tournaments: Vec<Tournament>,
    /// The members with a page: active ones, and everyone who played in a published tournament.
    pub(super) members: BTreeMap<i64, Member>,
    /// The recorded games with a page, by their path's name (`12`, `a3`), without their records
    /// ([`Site::record`] reads one).
    pub(super) games: BTreeMap<String, Archived>,
    /// Each member's page, by name.
    pages: BTreeMap<String, String>,
    /// Each tournament's players and standings, read once however many pages show them.
    fields: RefCell<BTreeMap<i64, Rc<Vec<t::Entrant>>>>,
    standings: RefCell<BTreeMap<i64, Rc<Vec<t::Standing>>>>,
}

impl<'a> Site<'a> {
    /// Reads what is to be published.
    pub fn new(store: &'a Store, options: &'a Options) -> Result<Site<'a>, ClubError> {
        let all = t::list(store)?;
        let tournaments: Vec<Tournament> = if options.tournaments.is_empty() {
            all
        } else {
            let mut chosen = Vec::new();
            for which in &options.tournaments {
                let found = t::find(store, which)?;
                if !chosen.iter().any(|c: &Tournament| c.id == found.id) {
                    chosen.push(found);
                }
            }
            chosen.sort_by_key(|c| std::cmp::Reverse(c.id));
            chosen
        };
        let ids: BTreeSet<i64> = tournaments.iter().map(|t| t.id).collect();
        let mut players: BTreeSet<i64> = BTreeSet::new();
        for tour in &tournaments {
            players.extend(
                t::field(store, &tour.id.to_string())?
                    .iter()
                    .map(|e| e.member),
            );
        }
        let members: BTreeMap<i64, Member> = members::list(store, true, None)?
            .into_iter()
            .filter(|m| m.active || players.contains(&m.id))
            .map(|m| (m.id, m))
            .collect();
        let pages = members
            .values()
            .map(|m| (m.name.clone(), format!("{}.html", Site::member_base(m))))
            .collect();
        let games = games::archive_index(store)?
            .into_iter()
            .filter(|g| match g.tournament_id {
                Some(t) => ids.contains(&t),
                // The archive proper goes with the whole club, not with a chosen tournament.
                None => options.tournaments.is_empty(),
            })
            .map(|g| (game_name(&g), g))
            .collect();
        Ok(Site {
            store,
            options,
            tournaments,
            members,
            games,
            pages,
            fields: RefCell::default(),
            standings: RefCell::default(),
        })
    }

    pub(super) fn frame(&self) -> Frame<'_> {
        Frame {
            title: &self.options.title,
            base_url: self.options.base_url.as_deref(),
            live: self.options.live,
        }
    }

    /// A tournament's page, without `.html` (its downloads and rounds add to it).
    pub(super) fn tournament_base(t: &Tournament) -> String {
        format!("tournaments/{}-{}", t.id, slug(&t.name))
    }

    /// A member's page, without `.html`.
    pub(super) fn member_base(m: &Member) -> String {
        format!("members/{}-{}", m.id, slug(&m.name))
    }

    /// The page of the member named `name`, if they have one.
    pub(super) fn member_page(&self, name: &str) -> Option<String> {
        self.pages.get(name).cloned()
    }

    /// A recorded game's record.
    pub(super) fn record(&self, g: &Archived) -> Result<String, ClubError> {
        Ok(games::record(self.store, g.id)?.unwrap_or_default())
    }

    /// A tournament's players.
    pub(super) fn field(&self, tournament: i64) -> Result<Rc<Vec<t::Entrant>>, ClubError> {
        if let Some(f) = self.fields.borrow().get(&tournament) {
            return Ok(Rc::clone(f));
        }
        let f = Rc::new(t::field(self.store, &tournament.to_string())?);
        self.fields.borrow_mut().insert(tournament, Rc::clone(&f));
        Ok(f)
    }

    /// A tournament's standings.
    pub(super) fn standings(&self, tournament: i64) -> Result<Rc<Vec<t::Standing>>, ClubError> {
        if let Some(s) = self.standings.borrow().get(&tournament) {
            return Ok(Rc::clone(s));
        }
        let s = Rc::new(t::standings(self.store, &tournament.to_string())?);
        self.standings
            .borrow_mut()
            .insert(tournament, Rc::clone(&s));
        Ok(s)
    }

    /// The page of a tournament game, if it has a record.
    pub(super) fn game_page(&self, game_id: i64) -> Option<String> {
        let name = game_id.to_string();
        self.games
            .contains_key(&name)
            .then(|| format!("games/{name}.html"))
    }
}

/// A recorded game's name in paths: its id for a tournament game, `a` and its number for the
/// archive's.
pub(super) fn game_name(g: &Archived) -> String {
    if g.id < 0 {
        format!("a{}", -g.id)
    } else {
        g.id.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_plain_and_bounded() {
        assert_eq!(slug("Autumn RR 2026"), "autumn-rr-2026");
        assert_eq!(slug("  Ton Sijbrands!! "), "ton-sijbrands");
        assert_eq!(slug("Ĳsselmonde–Open"), "sselmonde-open");
        assert_eq!(slug("../../etc"), "etc");
        assert_eq!(slug("***"), "x");
        assert!(slug(&"long name ".repeat(20)).len() <= 48);
    }
}
