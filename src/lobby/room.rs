//! A game between two terminals: one [`LiveGame`] with one clock, kept on the server. Each
//! session that shows it holds a [`Seat`] (a player's or a spectator's); every change happens
//! under the room's lock and is seen by the other seats on their next frame; the lobby's referee
//! writes it to the club database a moment later, for all games in one transaction, so that no
//! move waits for the disk.

use super::latency::{self, Awaited, Shows};
use super::shared::Shared;
use crate::clock::Tick;
use crate::club::access::Actor;
use crate::club::online;
use crate::play::LiveGame;
use crate::rules::piece::Color;
use std::sync::{Arc, Mutex, MutexGuard};

/// Who sits at a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Who {
    /// Name shown and recorded.
    pub name: String,
    /// The member's id; `None` for a guest.
    pub member: Option<i64>,
}

/// The state of a room, behind its lock.
#[derive(Debug)]
pub struct Table {
    /// The game.
    pub live: LiveGame,
    /// Counts changes, so that seats copy the game only when it changed.
    pub version: u64,
    /// White and Black.
    pub players: [Who; 2],
    /// Sessions of each player showing the game.
    pub present: [usize; 2],
    /// Since when a player has had no session showing the game.
    pub gone: [Option<Tick>; 2],
    /// Spectators.
    pub watching: usize,
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The game resumed after a restart: the clock waits until both players are back.
    pub waiting: bool,
    /// A problem writing the game to the database, for the players to see.
    pub trouble: Option<String>,
    /// The online game's id in the club database.
    record: Option<i64>,
    /// Moves written to the database so far.
    written: usize,
    /// Whether the result has been written.
    finished: bool,
    /// The last move, while the terminals showing it have not all drawn it.
    awaited: Option<Awaited>,
}

/// Wakes a session that shows a game, so that it redraws at once after a change.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// A game on the server.
pub struct Room {
    /// A number for the lobby's list.
    pub id: u64,
    table: Mutex<Table>,
    shared: Arc<Shared>,
    wakers: Mutex<Vec<(u64, Waker)>>,
    seats: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for Room {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// A session's place at a game: a player's (with their colour) or a spectator's.
#[derive(Debug)]
pub struct Seat {
    room: Arc<Room>,
    id: u64,
    color: Option<Color>,
    seen: u64,
    /// The position this seat last saw (plies and hash): a move or request made on another
    /// position is refused.
    position: (usize, u64),
}

impl Room {
    pub(super) fn new(
        id: u64,
        shared: Arc<Shared>,
        live: LiveGame,
        players: [Who; 2],
        rated: bool,
        record: Option<i64>,
        waiting: bool,
    ) -> Room {
        let written = live.game().moves().len();
        Room {
            id,
            table: Mutex::new(Table {
                live,
                version: 1,
                players,
                present: [0, 0],
                gone: [None, None],
                watching: 0,
                rated,
                waiting,
                trouble: None,
                record,
                written,
                finished: false,
                awaited: None,
            }),
            shared,
            wakers: Mutex::new(Vec::new()),
            seats: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Wakes every session showing the game.
    fn wake(&self) {
        for (_, w) in self.wakers.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            w();
        }
    }

    /// The room's state (a poisoned lock still holds a consistent game: every change is one
    /// call into the game, made whole before the lock is released).
    pub fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a seat: a player's if `name` plays here, else a spectator's; `waker` is called
    /// whenever the game changes.
    pub fn sit(self: &Arc<Room>, name: &str, waker: Option<Waker>) -> Seat {
        let now = self.shared.now();
        let id = self
            .seats
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(w) = waker {
            self.wakers
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, w));
        }
        let mut t = self.table();
        let color = [Color::White, Color::Black]
            .into_iter()
            .find(|c| t.players[c.index()].name == name);
        match color {
            Some(c) => {
                t.present[c.index()] += 1;
                t.gone[c.index()] = None;
                if t.waiting && t.present.iter().all(|&n| n > 0) {
                    t.waiting = false;
                    t.live.start_clock(now);
                    t.version += 1;
                    self.wake();
                }
            }
            None => t.watching += 1,
        }
        Seat {
            room: Arc::clone(self),
            id,
            color,
            seen: 0,
            position: (0, 0),
        }
    }

    /// Whether `name` plays in this game and it is still going on.
    pub fn awaits(&self, name: &str) -> bool {
        let t = self.table();
        t.live.outcome().is_none() && t.players.iter().any(|p| p.name == name)
    }

    /// Checks the clock and the absent players at `now`: a fallen flag, or a player gone longer
    /// than the server waits, ends the game. Returns what is to be written to the club database.
    pub(super) fn referee(&self, now: Tick) -> Option<Pending> {
        let wait = self.shared.reconnect;
        let mut t = self.table();
        if t.live.outcome().is_none() {
            let mut changed = t.live.tick(now).is_some();
            for c in [Color::White, Color::Black] {
                let opponent_here = t.present[c.opposite().index()] > 0;
                match t.gone[c.index()] {
                    // The wait starts when the opponent is at the board (after a restart both
                    // may be away; neither then loses for it).
                    None if t.present[c.index()] == 0 && opponent_here && !changed => {
                        t.gone[c.index()] = Some(now);
                    }
                    Some(since) if now.saturating_sub(since) >= wait && !changed => {
                        t.live.forfeit(c, now);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if changed {
                t.version += 1;
                self.wake();
            }
        }
        pending(&t)
    }

    /// Whether the game is over and its record written (or it has none): it can leave the
    /// lobby's list.
    pub(super) fn done(&self) -> bool {
        let t = self.table();
        t.live.outcome().is_some() && (t.finished || t.record.is_none())
    }

    /// Notes how writing `p` went.
    pub(super) fn written(&self, p: &Pending, result: Result<(), String>) {
        let mut t = self.table();
        match result {
            Ok(()) => {
                if p.over {
                    tracing::info!(
                        "online game {}: {} – {}: {}",
                        p.id,
                        t.players[0].name,
                        t.players[1].name,
                        t.live.ending().unwrap_or("over")
                    );
                }
                t.written = p.moves;
                t.finished |= p.over;
                t.trouble = None;
            }
            Err(e) => {
                tracing::error!("online game {}: not written: {e}", p.id);
                t.trouble = Some(format!("the club database could not be written: {e}"));
            }
        }
    }

    /// The game's line for the lobby: players, variant and move number.
    pub fn line(&self) -> String {
        let t = self.table();
        let moves = t.live.game().moves().len();
        let watching = match t.watching {
            0 => String::new(),
            n => format!(" · {n} watching"),
        };
        format!(
            "{} – {} · {} · move {}{}{}",
            t.players[0].name,
            t.players[1].name,
            t.live.game().variant().name(),
            moves / 2 + 1,
            if t.rated { " · rated" } else { "" },
            watching
        )
    }

    /// Saves the game as it stands (the server is stopping): the moves are already written, the
    /// record now also gets the clock times of the last moves.
    pub(super) fn save(&self) {
        let p = {
            let mut t = self.table();
            t.written = 0;
            pending(&t)
        };
        if let Some(p) = p {
            let result = self.shared.with_store(|store| p.write(store));
            self.written(&p, result.map_err(|e| e.to_string()));
        }
    }
}

/// A change to a game's record in the club database: taken under the room's lock, written
/// without it (by the lobby's referee, for all games at once), so that a move never waits for
/// the disk.
#[derive(Debug)]
pub(super) struct Pending {
    /// The online game's id.
    pub id: i64,
    /// The game as it stands.
    pub pdn: crate::rules::pdn::PdnGame,
    /// Its moves.
    pub moves: usize,
    /// Whether it is over (the result is written, ratings and pairings with it).
    pub over: bool,
}

impl Pending {
    /// Writes a finished game's result (the moves of games in progress are written together,
    /// by [`online::save_moves_many`]).
    pub fn write(&self, store: &mut crate::club::Store) -> Result<(), crate::club::ClubError> {
        if self.over {
            online::finish(store, &Actor::Server, self.id, &self.pdn)
        } else {
            online::save_moves_many(store, &Actor::Server, &[(self.id, &self.pdn)])
                .pop()
                .unwrap_or(Ok(()))
        }
    }
}

/// What the room has not written yet.
fn pending(t: &Table) -> Option<Pending> {
    let id = t.record?;
    let moves = t.live.game().moves().len();
    let over = t.live.outcome().is_some();
    if (moves == t.written && !over) || t.finished {
        return None;
    }
    Some(Pending {
        id,
        pdn: t.live.pdn(),
        moves,
        over,
    })
}

impl Shows for Room {
    /// The last of the frames showing a move completes its latency.
    fn shown(&self, version: u64, now: std::time::Instant) {
        let mut t = self.table();
        let Some(a) = t.awaited.as_mut().filter(|a| a.version == version) else {
            return;
        };
        a.frames = a.frames.saturating_sub(1);
        if a.frames == 0 {
            self.shared
                .latency
                .record(now.saturating_duration_since(a.since));
            t.awaited = None;
        }
    }
}

impl Seat {
    /// The player's colour; `None` for a spectator.
    pub fn color(&self) -> Option<Color> {
        self.color
    }

    /// Copies the game into `local` if it changed since this seat last looked; returns whether
    /// it did.
    pub fn pull(&mut self, local: &mut LiveGame) -> bool {
        let t = self.room.table();
        if t.version == self.seen {
            return false;
        }
        *local = t.live.clone();
        if t.awaited.as_ref().is_some_and(|a| a.version == t.version) && self.seen + 1 == t.version
        {
            latency::owe(
                Arc::downgrade(&self.room) as std::sync::Weak<dyn Shows>,
                t.version,
            );
        }
        self.seen = t.version;
        self.position = position(&t.live);
        true
    }

    /// Makes a change to the game on the server, writes it, and copies the result into `local`.
    /// A change asked for on a position the player has not seen yet is refused (and the game
    /// as it now is copied into `local`).
    pub fn act<T>(
        &mut self,
        local: &mut LiveGame,
        f: impl FnOnce(&mut LiveGame) -> T,
    ) -> Result<T, String> {
        let mut t = self.room.table();
        let stale = position(&t.live) != self.position;
        *local = t.live.clone();
        self.seen = t.version;
        self.position = position(&t.live);
        if stale {
            return Err("the game changed a moment ago — look again".into());
        }
        let notices = f(&mut t.live);
        t.version += 1;
        if let Some(since) = latency::cause() {
            let frames = self
                .room
                .wakers
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .len();
            t.awaited = Some(Awaited {
                version: t.version,
                since,
                frames,
            });
            latency::owe(
                Arc::downgrade(&self.room) as std::sync::Weak<dyn Shows>,
                t.version,
            );
        }
        // The referee writes the record within a tenth of a second; the players need not wait.
        self.room.wake();
        *local = t.live.clone();
        self.seen = t.version;
        self.position = position(&t.live);
        Ok(notices)
    }

    /// Words about the room that the game itself does not say: who is away, who watches,
    /// trouble writing the record.
    pub fn status(&self) -> Option<String> {
        let t = self.room.table();
        if let Some(trouble) = &t.trouble {
            return Some(trouble.clone());
        }
        if t.live.outcome().is_some() {
            return None;
        }
        if t.waiting {
            return Some("The clock starts when both players are at the board".into());
        }
        let now = self.room.shared.now();
        for c in [Color::White, Color::Black] {
            if let Some(since) = t.gone[c.index()] {
                let left = self
                    .room
                    .shared
                    .reconnect
                    .saturating_sub(now.saturating_sub(since));
                return Some(format!(
                    "{} ({c}) has left: forfeit in {}s unless they return",
                    t.players[c.index()].name,
                    left.as_secs()
                ));
            }
        }
        None
    }
}

fn position(live: &LiveGame) -> (usize, u64) {
    (live.game().moves().len(), live.game().hash())
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.room
            .wakers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(id, _)| *id != self.id);
        let now = self.room.shared.now();
        let mut t = self.room.table();
        match self.color {
            Some(c) => {
                let n = &mut t.present[c.index()];
                *n = n.saturating_sub(1);
                if *n == 0
                    && t.live.outcome().is_none()
                    && !t.waiting
                    && t.gone[c.index()].is_none()
                {
                    t.gone[c.index()] = Some(now);
                }
            }
            None => t.watching = t.watching.saturating_sub(1),
        }
    }
}
