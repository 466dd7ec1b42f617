//! What the lobby and its rooms share: the server's time and the club database.

use crate::clock::Tick;
use crate::club::{ClubError, Store};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the rooms share: the server's time and the database.
pub(crate) struct Shared {
    pub(super) epoch: Instant,
    pub(super) reconnect: Duration,
    pub(super) db: Option<PathBuf>,
    pub(super) store: Mutex<Option<Store>>,
    /// Move latencies measured in the server.
    pub(super) latency: super::latency::Latency,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("reconnect", &self.reconnect)
            .field("db", &self.db)
            .finish_non_exhaustive()
    }
}

impl Shared {
    pub(super) fn now(&self) -> Tick {
        self.epoch.elapsed()
    }

    /// Runs `f` on the club database, opened on first use; without a database, nothing is
    /// written. The server writes as [`Actor::Server`](crate::club::access::Actor::Server):
    /// the games played on it and their results.
    pub(super) fn with_store<T: Default>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, ClubError>,
    ) -> Result<T, ClubError> {
        let Some(path) = &self.db else {
            return Ok(T::default());
        };
        let mut guard = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Store::open(path)?);
        }
        match guard.as_mut() {
            Some(store) => f(store),
            None => Ok(T::default()),
        }
    }
}
