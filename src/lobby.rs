//! Who is online on the club server and what they are doing: each session holds a [`Ticket`]
//! that keeps its line up to date and takes it away when the session ends.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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

/// The sessions on the server.
#[derive(Debug, Default)]
pub struct Lobby {
    sessions: Mutex<Vec<(u64, Presence)>>,
    next: AtomicU64,
}

/// A session's place in the lobby; dropping it leaves.
#[derive(Debug)]
pub struct Ticket {
    lobby: Arc<Lobby>,
    id: u64,
}

impl Lobby {
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
        if let Ok(mut s) = self.lobby.sessions.lock() {
            s.retain(|(id, _)| *id != self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        drop(again);
        drop(guest);
        assert_eq!(lobby.online().len(), 1);
        drop(ton);
        assert!(lobby.online().is_empty());
    }
}
