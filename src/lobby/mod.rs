//! The club server's shared state: who is online and what they are doing (each session holds a
//! [`Ticket`] that keeps its line up to date), open and direct challenges, and the games being
//! played between terminals ([`Room`]), with their one clock and their record in the club
//! database.

pub mod latency;
mod room;
mod shared;

pub use room::{Room, Seat, Table, Waker, Who};
use shared::Shared;

use crate::clock::{Tick, TimeControl};
use crate::club::access::Actor;
use crate::club::{ClubError, online};
use crate::play::{LiveGame, Options};
use crate::rules::game::Game;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One session's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presence {
    /// The member's (or guest's) name.
    pub name: String,
    /// Whether a guest.
    pub guest: bool,
    /// What the session shows, in words.
    pub doing: String,
}

/// How the server runs its games.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The club database games are written to (`None`: not written, e.g. in tests).
    pub db: Option<PathBuf>,
    /// Tablebases for adjudication (the default directories when `None`).
    pub tablebases: Option<PathBuf>,
    /// How long a game waits for a player whose connection dropped.
    pub reconnect: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            db: None,
            tablebases: None,
            reconnect: Duration::from_secs(120),
        }
    }
}

/// A tournament pairing to be played online.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The tournament's id.
    pub tournament: i64,
    /// Its name.
    pub name: String,
    /// The round.
    pub round: u32,
    /// White's and Black's names.
    pub players: [String; 2],
}

/// A challenge waiting for an opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its number.
    pub id: u64,
    /// Who challenges.
    pub from: Who,
    /// The member challenged; `None`: anyone may accept.
    pub to: Option<String>,
    /// The variant.
    pub variant: Variant,
    /// The time control; `None`: untimed.
    pub clock: Option<TimeControl>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// The challenger's colour; `None`: drawn by lot.
    pub color: Option<Color>,
    /// The tournament pairing this game is.
    pub pairing: Option<Pairing>,
}

impl Challenge {
    /// The challenge in words, for the lobby.
    pub fn describe(&self) -> String {
        let whom = self.to.as_deref().unwrap_or("anyone");
        let clock = self
            .clock
            .as_ref()
            .map_or("untimed".to_string(), |c| c.to_string());
        let color = match self.color {
            Some(c) => format!("{} plays {c}", self.from.name),
            None => "colours by lot".into(),
        };
        let kind = match &self.pairing {
            Some(p) => format!("{} round {}", p.name, p.round),
            None if self.rated => "rated".into(),
            None => "casual".into(),
        };
        format!(
            "{} → {whom} · {} · {clock} · {kind} · {color}",
            self.from.name,
            self.variant.name()
        )
    }
}

/// What became of a challenge.
#[derive(Debug)]
pub enum Offered {
    /// It waits for an opponent.
    Waiting(u64),
    /// The opponent had already asked for the same pairing: the game starts.
    Started(Arc<Room>),
}

/// The sessions on the server, their challenges and their games.
#[derive(Debug)]
pub struct Lobby {
    sessions: Mutex<Vec<(u64, Presence)>>,
    next: AtomicU64,
    shared: Arc<Shared>,
    tablebases: Option<PathBuf>,
    loaded: Mutex<Vec<(Variant, Option<Arc<Tablebase>>)>>,
    challenges: Mutex<Vec<Challenge>>,
    rooms: Mutex<Vec<Arc<Room>>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new(Settings::default())
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every change under these locks is a single push, retain or replace: a panic elsewhere
    // cannot leave them half done.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A session's place in the lobby; dropping it leaves.
#[derive(Debug)]
pub struct Ticket {
    lobby: Arc<Lobby>,
    id: u64,
}

impl Lobby {
    /// An empty lobby.
    pub fn new(settings: Settings) -> Lobby {
        Lobby {
            sessions: Mutex::new(Vec::new()),
            next: AtomicU64::new(1),
            shared: Arc::new(Shared {
                epoch: Instant::now(),
                reconnect: settings.reconnect,
                db: settings.db,
                store: Mutex::new(None),
                latency: latency::Latency::default(),
            }),
            tablebases: settings.tablebases,
            loaded: Mutex::new(Vec::new()),
            challenges: Mutex::new(Vec::new()),
            rooms: Mutex::new(Vec::new()),
        }
    }

    /// The move latencies measured in the server.
    pub fn latency(&self) -> &latency::Latency {
        &self.shared.latency
    }

    /// The server's time: every session and every game clock counts from the same moment.
    pub fn now(&self) -> Tick {
        self.shared.now()
    }

    fn id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    fn tablebase(&self, variant: Variant) -> Option<Arc<Tablebase>> {
        let mut loaded = lock(&self.loaded);
        if let Some((_, tb)) = loaded.iter().find(|(v, _)| *v == variant) {
            return tb.clone();
        }
        let dir = self
            .tablebases
            .clone()
            .unwrap_or_else(|| crate::tablebase::default_dir(variant));
        let tb = match Tablebase::open_for(&dir, variant) {
            Ok(tb) if tb.max_pieces() > 0 => Some(Arc::new(tb)),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!("{}: tablebases not loaded: {e}", dir.display());
                None
            }
        };
        loaded.push((variant, tb.clone()));
        tb
    }

    /// Puts up a challenge. One for a tournament pairing the opponent has already asked to play
    /// starts the game at once.
    pub fn challenge(&self, mut c: Challenge) -> Result<Offered, String> {
        if c.rated && c.from.member.is_none() {
            return Err("rated games are for members".into());
        }
        if c.to.as_deref() == Some(c.from.name.as_str()) {
            return Err("you cannot challenge yourself".into());
        }
        if let Some(p) = &c.pairing {
            let mine = p.players.iter().position(|n| *n == c.from.name);
            let Some(mine) = mine else {
                return Err(format!("{} is not your pairing", p.name));
            };
            c.color = Some([Color::White, Color::Black][mine]);
            c.to = Some(p.players[1 - mine].clone());
            c.rated = false;
            let theirs = lock(&self.challenges)
                .iter()
                .find(|o| o.pairing.as_ref() == Some(p) && o.from.name != c.from.name)
                .map(|o| o.id);
            if let Some(id) = theirs {
                return self.accept(id, &c.from).map(Offered::Started);
            }
        }
        let mut all = lock(&self.challenges);
        if let Some(same) = all
            .iter()
            .find(|o| o.from.name == c.from.name && o.pairing.is_some() && o.pairing == c.pairing)
        {
            return Ok(Offered::Waiting(same.id));
        }
        c.id = self.id();
        let id = c.id;
        all.push(c);
        Ok(Offered::Waiting(id))
    }

    /// Takes back one's own challenge.
    pub fn withdraw(&self, id: u64, name: &str) -> bool {
        let mut all = lock(&self.challenges);
        let before = all.len();
        all.retain(|c| !(c.id == id && c.from.name == name));
        all.len() != before
    }

    /// The challenges `name` may see: open ones, their own, and those to them.
    pub fn challenges(&self, name: &str) -> Vec<Challenge> {
        lock(&self.challenges)
            .iter()
            .filter(|c| c.from.name == name || c.to.is_none() || c.to.as_deref() == Some(name))
            .cloned()
            .collect()
    }

    /// `who` accepts a challenge: the game starts, written to the club database.
    pub fn accept(&self, id: u64, who: &Who) -> Result<Arc<Room>, String> {
        let c = {
            let mut all = lock(&self.challenges);
            let Some(i) = all.iter().position(|c| c.id == id) else {
                return Err("that challenge is gone".into());
            };
            let c = &all[i];
            if c.from.name == who.name {
                return Err("that is your own challenge (x withdraws it)".into());
            }
            if c.to.as_ref().is_some_and(|to| *to != who.name) {
                return Err(format!(
                    "that challenge is for {}",
                    c.to.as_deref().unwrap_or("")
                ));
            }
            if c.rated && who.member.is_none() {
                return Err("rated games are for members".into());
            }
            all.remove(i)
        };
        let challenger = c.color.unwrap_or(if rand::random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        });
        let players = match challenger {
            Color::White => [c.from.clone(), who.clone()],
            Color::Black => [who.clone(), c.from.clone()],
        };
        self.open_room(c.variant, c.clock, c.rated, c.pairing, players)
    }

    fn open_room(
        &self,
        variant: Variant,
        clock: Option<TimeControl>,
        rated: bool,
        pairing: Option<Pairing>,
        players: [Who; 2],
    ) -> Result<Arc<Room>, String> {
        let options = Options {
            clock,
            casual: !rated && pairing.is_none(),
            tablebase: self.tablebase(variant),
            adjudicate: true,
        };
        let mut live = LiveGame::new(Game::new(variant), options);
        let event = match &pairing {
            Some(p) => p.name.clone(),
            None if rated => "Rated online game".into(),
            None => "Casual online game".into(),
        };
        live.set_tag("Event", &event);
        live.set_tag("Site", "club server");
        live.set_tag("Date", &crate::date::today());
        if let Some(p) = &pairing {
            live.set_tag("Round", &p.round.to_string());
        }
        live.set_tag("White", &players[0].name);
        live.set_tag("Black", &players[1].name);
        let mut record = None;
        self.shared
            .with_store(|store| {
                record = Some(online::start(
                    store,
                    &Actor::Server,
                    &online::NewGame {
                        variant,
                        sides: players.clone().map(|w| online::Side {
                            name: w.name,
                            member: w.member,
                        }),
                        rated,
                        pairing: pairing.as_ref().map(|p| (p.tournament, p.round)),
                        pdn: &live.pdn(),
                    },
                )?);
                Ok(())
            })
            .map_err(|e| format!("the game could not be written to the club database: {e}"))?;
        tracing::info!(
            "game started: {} – {}, {}{}",
            players[0].name,
            players[1].name,
            variant.name(),
            if rated { ", rated" } else { "" }
        );
        let room = Arc::new(Room::new(
            self.id(),
            Arc::clone(&self.shared),
            live,
            players,
            rated || pairing.is_some(),
            record,
            true,
        ));
        lock(&self.rooms).push(Arc::clone(&room));
        Ok(room)
    }

    /// Games in progress.
    pub fn rooms(&self) -> Vec<Arc<Room>> {
        lock(&self.rooms).clone()
    }

    /// The game in progress `name` plays in, if any.
    pub fn game_of(&self, name: &str) -> Option<Arc<Room>> {
        // Each room is looked at without holding the list: a room may be busy writing a move.
        self.rooms().into_iter().find(|r| r.awaits(name))
    }

    /// Checks every game's clock and absent players; finished games leave the list (their seats
    /// still show them).
    ///
    /// It also writes every game's changes to the club database: the moves of all games in
    /// progress in one transaction, then the results of the games that ended.
    pub fn referee(&self) {
        let now = self.now();
        let rooms = self.rooms();
        let (ended, playing): (Vec<_>, Vec<_>) = rooms
            .iter()
            .filter_map(|r| r.referee(now).map(|p| (r, p)))
            .partition(|(_, p)| p.over);
        if !playing.is_empty() {
            let games: Vec<(i64, &crate::rules::pdn::PdnGame)> =
                playing.iter().map(|(_, p)| (p.id, &p.pdn)).collect();
            let results = self
                .shared
                .with_store(|store| Ok(online::save_moves_many(store, &Actor::Server, &games)));
            for (i, (room, p)) in playing.iter().enumerate() {
                let result = match &results {
                    Ok(each) => each.get(i).map_or(Ok(()), |r| {
                        r.as_ref().map(|_| ()).map_err(|e| e.to_string())
                    }),
                    Err(e) => Err(e.to_string()),
                };
                room.written(p, result);
            }
        }
        for (room, p) in &ended {
            let result = self.shared.with_store(|store| p.write(store));
            room.written(p, result.map_err(|e| e.to_string()));
        }
        if rooms.iter().any(|r| r.done()) {
            lock(&self.rooms).retain(|r| !r.done());
        }
    }

    /// Saves every game in progress (the server is stopping).
    pub fn save_all(&self) {
        for room in self.rooms() {
            room.save();
        }
    }

    /// Brings back the games in progress when the server stopped: resumed (`adjourn` false;
    /// each clock waits until both players are back) or marked adjourned, to be resumed from
    /// the lobby. A game whose result was written just before the stop is finished now.
    pub fn restore(&self, adjourn: bool) -> Result<usize, ClubError> {
        let mut games = Vec::new();
        self.shared.with_store(|store| {
            games = online::list(store, true)?;
            Ok(())
        })?;
        let mut restored = 0;
        for g in games {
            let pdn = match g.record() {
                Ok(p) => p,
                Err(e) => {
                    tracing::error!("online game {}: cannot be resumed: {e}", g.id);
                    continue;
                }
            };
            if pdn.result != crate::rules::pdn::GameResult::Unfinished {
                self.shared
                    .with_store(|store| online::finish(store, &Actor::Server, g.id, &pdn))?;
                continue;
            }
            if adjourn || g.status == online::Status::Adjourned {
                if g.status != online::Status::Adjourned {
                    self.shared.with_store(|store| {
                        online::set_status(store, &Actor::Server, g.id, online::Status::Adjourned)
                    })?;
                }
                continue;
            }
            self.reopen(&g, pdn);
            restored += 1;
        }
        Ok(restored)
    }

    fn reopen(&self, g: &online::OnlineGame, pdn: crate::rules::pdn::PdnGame) -> Arc<Room> {
        let pairing = g.pairing.map(|(tournament, round)| Pairing {
            tournament,
            name: pdn.tag("Event").unwrap_or("tournament").to_string(),
            round,
            players: g.sides.clone().map(|s| s.name),
        });
        let clock = pdn
            .tag("TimeControl")
            .and_then(|t| TimeControl::parse(t).ok());
        let options = Options {
            clock,
            casual: !g.rated && pairing.is_none(),
            tablebase: self.tablebase(g.variant),
            adjudicate: true,
        };
        let live = LiveGame::from_pdn(&pdn, options);
        let players = g.sides.clone().map(|s| Who {
            name: s.name,
            member: s.member,
        });
        let room = Arc::new(Room::new(
            self.id(),
            Arc::clone(&self.shared),
            live,
            players,
            g.rated || pairing.is_some(),
            Some(g.id),
            true,
        ));
        lock(&self.rooms).push(Arc::clone(&room));
        room
    }

    /// `name`'s adjourned games: (id, line).
    pub fn adjourned(&self, name: &str) -> Vec<(i64, String)> {
        let mut games = Vec::new();
        let _ = self.shared.with_store(|store| {
            games = online::list(store, true)?;
            Ok(())
        });
        games
            .into_iter()
            .filter(|g| {
                g.status == online::Status::Adjourned && g.sides.iter().any(|s| s.name == name)
            })
            .map(|g| {
                let moves = g.record().map_or(0, |p| p.line.moves.len());
                (
                    g.id,
                    format!(
                        "{} – {} · {} · adjourned at move {}",
                        g.sides[0].name,
                        g.sides[1].name,
                        g.variant.name(),
                        moves / 2 + 1
                    ),
                )
            })
            .collect()
    }

    /// Resumes an adjourned game of `name`'s: it is played on when both players are at the board.
    pub fn resume(&self, id: i64, name: &str) -> Result<Arc<Room>, String> {
        let mut game = None;
        self.shared
            .with_store(|store| {
                game = Some(online::get(store, id)?);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let g = game.ok_or("the club database is not available")?;
        if g.status != online::Status::Adjourned || !g.sides.iter().any(|s| s.name == name) {
            return Err("that is not an adjourned game of yours".into());
        }
        let pdn = g.record().map_err(|e| e.to_string())?;
        self.shared
            .with_store(|store| {
                online::set_status(store, &Actor::Server, id, online::Status::Playing)
            })
            .map_err(|e| e.to_string())?;
        Ok(self.reopen(&g, pdn))
    }
    /// A session of `name` arrives.
    pub fn join(lobby: &Arc<Lobby>, name: &str, guest: bool) -> Ticket {
        let id = lobby.next.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = lobby.sessions.lock() {
            s.push((
                id,
                Presence {
                    name: name.to_string(),
                    guest,
                    doing: "arriving".into(),
                },
            ));
        }
        Ticket {
            lobby: Arc::clone(lobby),
            id,
        }
    }

    /// Everyone online, members first, by name (a member on two terminals appears twice).
    pub fn online(&self) -> Vec<Presence> {
        let mut all: Vec<Presence> = self
            .sessions
            .lock()
            .map(|s| s.iter().map(|(_, p)| p.clone()).collect())
            .unwrap_or_default();
        all.sort_by(|a, b| (a.guest, &a.name).cmp(&(b.guest, &b.name)));
        all
    }
}

impl Ticket {
    /// Says what the session is doing now.
    pub fn set_doing(&self, doing: &str) {
        if let Ok(mut s) = self.lobby.sessions.lock()
            && let Some((_, p)) = s.iter_mut().find(|(id, _)| *id == self.id)
            && p.doing != doing
        {
            p.doing = doing.to_string();
        }
    }

    /// The lobby this session is in.
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut sessions = lock(&self.lobby.sessions);
        let Some(name) = sessions
            .iter()
            .find(|(id, _)| *id == self.id)
            .map(|(_, p)| p.name.clone())
        else {
            return;
        };
        sessions.retain(|(id, _)| *id != self.id);
        // A challenge stands while its author is online in some session.
        if !sessions.iter().any(|(_, p)| p.name == name) {
            drop(sessions);
            lock(&self.lobby.challenges).retain(|c| c.from.name != name);
        }
    }
}

#[cfg(test)]
mod tests;
