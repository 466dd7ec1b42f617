//! The club server's shared state: who is online and what they are doing (each session holds a
//! [`Ticket`] that keeps its line up to date), open and direct challenges, and the games being
//! played between terminals ([`Room`]), with their one clock and their record in the club
//! database.

mod room;
mod shared;

pub use room::{Room, Seat, Table, Waker, Who};
use shared::Shared;

use crate::clock::{Tick, TimeControl};
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
            }),
            tablebases: settings.tablebases,
            loaded: Mutex::new(Vec::new()),
            challenges: Mutex::new(Vec::new()),
            rooms: Mutex::new(Vec::new()),
        }
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
    pub fn referee(&self) {
        let now = self.now();
        let rooms = self.rooms();
        let over: Vec<u64> = rooms
            .iter()
            .filter(|r| r.referee(now))
            .map(|r| r.id)
            .collect();
        if !over.is_empty() {
            lock(&self.rooms).retain(|r| !over.contains(&r.id));
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
                    .with_store(|store| online::finish(store, g.id, &pdn))?;
                continue;
            }
            if adjourn || g.status == online::Status::Adjourned {
                if g.status != online::Status::Adjourned {
                    self.shared.with_store(|store| {
                        online::set_status(store, g.id, online::Status::Adjourned)
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
            .with_store(|store| online::set_status(store, id, online::Status::Playing))
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
mod tests {
    use super::*;
    use crate::club::Store;
    use crate::club::members::{self, MemberFields};
    use crate::play::Notice;

    fn club(reconnect: Duration) -> (tempfile::TempDir, Lobby, [Who; 2]) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.sqlite");
        let mut s = Store::open(&db).unwrap();
        let ton = members::add(&mut s, "Ton", &MemberFields::default()).unwrap();
        let anna = members::add(&mut s, "Anna", &MemberFields::default()).unwrap();
        let lobby = Lobby::new(Settings {
            db: Some(db),
            tablebases: Some(dir.path().join("none")),
            reconnect,
        });
        let who = |name: &str, id| Who {
            name: name.into(),
            member: Some(id),
        };
        (dir, lobby, [who("Ton", ton), who("Anna", anna)])
    }

    fn open(from: &Who, color: Option<Color>, rated: bool) -> Challenge {
        Challenge {
            id: 0,
            from: from.clone(),
            to: None,
            variant: Variant::International,
            clock: Some(TimeControl::parse("5m+2s").unwrap()),
            rated,
            color,
            pairing: None,
        }
    }

    fn first_move(seat: &mut Seat, local: &mut LiveGame, now: Tick) -> Vec<Notice> {
        seat.pull(local);
        let mv = *local.position().legal_moves().iter().next().unwrap();
        seat.act(local, |live| live.play(&mv, now).unwrap())
            .unwrap()
    }

    #[test]
    fn a_challenge_accepted_is_one_game_for_both_with_one_clock_and_its_record_stored() {
        let (dir, lobby, [ton, anna]) = club(Duration::from_secs(60));
        let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::White), true)) else {
            panic!("the challenge waits")
        };
        assert_eq!(lobby.challenges("Anna").len(), 1);
        assert!(lobby.accept(id, &ton).is_err(), "not one's own challenge");
        let room = lobby.accept(id, &anna).unwrap();
        assert!(lobby.challenges("Anna").is_empty());
        assert!(Arc::ptr_eq(&lobby.game_of("Ton").unwrap(), &room));

        let mut white = room.sit("Ton", None);
        assert_eq!(white.color(), Some(Color::White));
        let mut local_w = room.table().live.clone();
        white.pull(&mut local_w);
        assert!(white.status().is_some(), "the clock waits for both players");
        assert!(local_w.clock().unwrap().running().is_none());
        let woken = Arc::new(AtomicU64::new(0));
        let count = Arc::clone(&woken);
        let waker: Waker = Arc::new(move || {
            count.fetch_add(1, Ordering::Relaxed);
        });
        let mut black = room.sit("Anna", Some(waker));
        let mut local_b = room.table().live.clone();
        black.pull(&mut local_b);
        assert_eq!(local_b.clock().unwrap().running(), Some(Color::White));
        let spectator = room.sit("Guest 1", None);
        assert_eq!(spectator.color(), None);
        assert!(room.line().contains("1 watching"));

        first_move(&mut white, &mut local_w, lobby.now());
        assert!(black.pull(&mut local_b), "Black sees the move");
        assert_eq!(
            woken.load(Ordering::Relaxed),
            2,
            "woken at the start and by the move"
        );
        assert_eq!(local_b.game().moves().len(), 1);
        assert_eq!(local_b.clock().unwrap().running(), Some(Color::Black));
        // A request on a position not seen yet is refused, not applied to another position.
        let offer = white.act(&mut local_w, |live| {
            live.offer_draw(Color::White, Tick::ZERO)
        });
        assert!(matches!(offer, Ok(Notice::Offered(_))));
        // Black, who has not looked since, may still answer it: the position is the same.
        let declined = black.act(&mut local_b, |live| live.decline(Color::Black));
        assert!(matches!(declined, Ok(Notice::Declined(_))));
        first_move(&mut black, &mut local_b, lobby.now());
        // White has not seen Black's move: a move asked for on the old position is refused.
        let stale = white.act(&mut local_w, |live| live.resign(Color::White, Tick::ZERO));
        assert!(stale.is_err());
        assert_eq!(local_w.game().moves().len(), 2, "and White now sees it");

        let store = Store::open(&dir.path().join("club.sqlite")).unwrap();
        let stored = online::list(&store, true).unwrap();
        assert_eq!(stored.len(), 1);
        assert_eq!(
            stored[0].record().unwrap().line.moves.len(),
            2,
            "the moves are written"
        );

        black
            .act(&mut local_b, |live| live.resign(Color::Black, lobby.now()))
            .unwrap();
        lobby.referee();
        assert!(lobby.rooms().is_empty());
        assert!(white.pull(&mut local_w));
        assert!(local_w.outcome().is_some());
        let g = online::get(&store, stored[0].id).unwrap();
        assert_eq!(g.status, online::Status::Finished);
        assert!(g.pdn.contains("[Result \"2-0\"]"));
        let ton = members::find(&store, "Ton").unwrap();
        assert!(
            ton.ratings["international"] > crate::club::ratings::DEFAULT_RATING,
            "the rated game moved Ton's rating"
        );
    }

    #[test]
    fn a_player_who_leaves_loses_by_forfeit_after_the_wait_and_one_who_returns_plays_on() {
        let (_dir, lobby, [ton, anna]) = club(Duration::ZERO);
        let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::Black), false))
        else {
            panic!()
        };
        let room = lobby.accept(id, &anna).unwrap();
        let white = room.sit("Anna", None);
        let black = room.sit("Ton", None);
        // A second session of the same member keeps the seat when the first goes.
        let again = room.sit("Ton", None);
        drop(black);
        lobby.referee();
        assert!(room.awaits("Ton"), "the second session keeps the game on");
        drop(again);
        lobby.referee();
        lobby.referee();
        let t = room.table();
        let o = t.live.outcome().expect("Ton forfeited");
        assert_eq!(o.winner, Some(Color::White));
        assert_eq!(o.reason, crate::rules::game::Reason::Forfeit);
        drop(t);
        drop(white);
    }

    #[test]
    fn games_in_progress_survive_a_restart_resumed_or_adjourned() {
        let (dir, lobby, [ton, anna]) = club(Duration::from_secs(60));
        let Ok(Offered::Waiting(id)) = lobby.challenge(open(&ton, Some(Color::White), false))
        else {
            panic!()
        };
        let room = lobby.accept(id, &anna).unwrap();
        let mut white = room.sit("Ton", None);
        let _black = room.sit("Anna", None);
        let mut local = room.table().live.clone();
        first_move(&mut white, &mut local, lobby.now());
        drop(lobby);

        let settings = Settings {
            db: Some(dir.path().join("club.sqlite")),
            tablebases: Some(dir.path().join("none")),
            reconnect: Duration::from_secs(60),
        };
        let again = Lobby::new(settings.clone());
        assert_eq!(again.restore(false).unwrap(), 1);
        let room = again.game_of("Anna").expect("resumed");
        assert_eq!(room.table().live.game().moves().len(), 1);
        assert!(room.table().waiting);
        let _a = room.sit("Anna", None);
        let _t = room.sit("Ton", None);
        assert_eq!(
            room.table().live.clock().unwrap().running(),
            Some(Color::Black),
            "the clock goes on when both are back"
        );
        drop((_a, _t, room));
        drop(again);

        let third = Lobby::new(settings);
        assert_eq!(third.restore(true).unwrap(), 0);
        assert!(third.game_of("Anna").is_none());
        let adjourned = third.adjourned("Anna");
        assert_eq!(adjourned.len(), 1);
        assert!(third.resume(adjourned[0].0, "Nobody").is_err());
        let room = third.resume(adjourned[0].0, "Anna").unwrap();
        assert_eq!(room.table().live.game().moves().len(), 1);
        assert!(third.adjourned("Anna").is_empty());
    }

    #[test]
    fn both_asking_to_play_a_pairing_starts_it_with_the_pairing_colours() {
        let (_dir, _, [ton, anna]) = club(Duration::from_secs(60));
        // No database: the pairing's tournament exists only here.
        let lobby = Lobby::default();
        let pairing = Pairing {
            tournament: 1,
            name: "Autumn".into(),
            round: 2,
            players: ["Anna".into(), "Ton".into()],
        };
        let ask = |who: &Who| Challenge {
            pairing: Some(pairing.clone()),
            ..open(who, None, false)
        };
        let Ok(Offered::Waiting(_)) = lobby.challenge(ask(&ton)) else {
            panic!()
        };
        assert!(matches!(
            lobby.challenge(ask(&ton)),
            Ok(Offered::Waiting(_))
        ));
        assert_eq!(
            lobby.challenges("Ton").len(),
            1,
            "asking twice is one challenge"
        );
        let Ok(Offered::Started(room)) = lobby.challenge(ask(&anna)) else {
            panic!("the game starts")
        };
        assert_eq!(room.table().players[0].name, "Anna");
        assert_eq!(room.table().live.tag("Event"), Some("Autumn"));
        assert_eq!(room.table().live.tag("Round"), Some("2"));
        let outsider = Who {
            name: "Kees".into(),
            member: None,
        };
        assert!(lobby.challenge(ask(&outsider)).is_err());
        assert!(
            lobby.challenge(open(&outsider, None, true)).is_err(),
            "guests play casual games"
        );
    }

    #[test]
    fn sessions_come_say_what_they_do_and_go() {
        let lobby = Arc::new(Lobby::default());
        let guest = Lobby::join(&lobby, "Guest 1", true);
        let ton = Lobby::join(&lobby, "Ton", false);
        let again = Lobby::join(&lobby, "Ton", false);
        ton.set_doing("playing International");
        let names: Vec<String> = lobby.online().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["Ton", "Ton", "Guest 1"]);
        assert!(
            lobby
                .online()
                .iter()
                .any(|p| p.doing == "playing International")
        );
        let challenge = Challenge {
            id: 0,
            from: Who {
                name: "Ton".into(),
                member: Some(1),
            },
            to: None,
            variant: Variant::International,
            clock: None,
            rated: false,
            color: None,
            pairing: None,
        };
        lobby.challenge(challenge).unwrap();
        drop(again);
        assert_eq!(lobby.challenges("Anna").len(), 1, "Ton is still online");
        drop(guest);
        assert_eq!(lobby.online().len(), 1);
        drop(ton);
        assert!(lobby.online().is_empty());
        assert!(lobby.challenges("Anna").is_empty(), "gone with Ton");
    }
}
