//! The members signed in, each session with the key it signed in with, so that a session ends
//! when its access does: the member deactivated or the key removed, on the club server or with
//! the command line in another process. The server checks the signed-in keys whenever the
//! database has changed (SQLite's `data_version`), about once a second.

use crate::club::Store;
use crate::club::members::active_keys;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One signed-in session.
struct Entry {
    member: i64,
    name: String,
    fingerprint: String,
    ended: Arc<AtomicBool>,
    wake: crate::lobby::Waker,
}

/// The signed-in sessions.
#[derive(Default)]
pub(crate) struct SignedIn {
    entries: Mutex<Vec<Entry>>,
    last_version: Mutex<Option<i64>>,
}

/// A session's place in the list; dropping it takes the session off.
pub(crate) struct Registration {
    list: Arc<SignedIn>,
    ended: Arc<AtomicBool>,
}

impl Registration {
    /// Whether the session's access has ended.
    pub(crate) fn ended(&self) -> &Arc<AtomicBool> {
        &self.ended
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut entries = self.list.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|e| !Arc::ptr_eq(&e.ended, &self.ended));
    }
}

impl SignedIn {
    /// Puts a member's session on the list.
    pub(crate) fn register(
        list: &Arc<SignedIn>,
        member: i64,
        name: &str,
        fingerprint: &str,
        wake: crate::lobby::Waker,
    ) -> Registration {
        let ended = Arc::new(AtomicBool::new(false));
        list.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Entry {
                member,
                name: name.to_string(),
                fingerprint: fingerprint.to_string(),
                ended: Arc::clone(&ended),
                wake,
            });
        Registration {
            list: Arc::clone(list),
            ended,
        }
    }

    /// Ends every session whose key no longer lets its member in, if the database changed since
    /// the last check; returns the names of the members whose sessions were ended.
    pub(crate) fn check(&self, store: &Store) -> Vec<String> {
        let version: Option<i64> = store
            .conn()
            .pragma_query_value(None, "data_version", |r| r.get(0))
            .ok();
        let mut last = self.last_version.lock().unwrap_or_else(|e| e.into_inner());
        if version.is_some() && *last == version {
            return Vec::new();
        }
        // A database that cannot be read says nothing about anyone's access (and is read
        // again next time).
        let Ok(keys) = active_keys(store) else {
            return Vec::new();
        };
        *last = version;
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let mut ended = Vec::new();
        for e in entries.iter().filter(|e| !e.ended.load(Ordering::Relaxed)) {
            if keys.get(&e.fingerprint) != Some(&e.member) {
                e.ended.store(true, Ordering::Relaxed);
                (e.wake)();
                ended.push(e.name.clone());
            }
        }
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::access::Actor;
    use crate::club::members::{self, MemberFields};

    #[test]
    fn a_session_ends_when_its_key_or_its_member_goes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let mut admin = Store::open(&path).unwrap();
        let local = Actor::local();
        for n in ["Ann", "Bob"] {
            members::add(&mut admin, &local, n, &MemberFields::default()).unwrap();
        }
        let key = |k: u8| {
            use ssh_key::public::{Ed25519PublicKey, KeyData};
            ssh_key::PublicKey::new(KeyData::Ed25519(Ed25519PublicKey([k; 32])), "t")
                .to_openssh()
                .unwrap()
        };
        let bob1 = members::add_key(&mut admin, &local, "Bob", &key(1)).unwrap();
        let bob2 = members::add_key(&mut admin, &local, "Bob", &key(2)).unwrap();
        let bob = members::find(&admin, "Bob").unwrap();
        let woken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let wake = {
            let woken = Arc::clone(&woken);
            Arc::new(move || {
                woken.fetch_add(1, Ordering::Relaxed);
            }) as crate::lobby::Waker
        };
        let list = Arc::new(SignedIn::default());
        let one = SignedIn::register(&list, bob.id, "Bob", &bob1.fingerprint, wake.clone());
        let two = SignedIn::register(&list, bob.id, "Bob", &bob2.fingerprint, wake);
        let server = Store::open(&path).unwrap();
        assert!(list.check(&server).is_empty());
        // Nothing changed: nothing is read again.
        assert!(list.check(&server).is_empty());
        // Another process removes one key: the session signed in with it ends.
        members::remove_key(&mut admin, &local, &bob1.fingerprint).unwrap();
        assert_eq!(list.check(&server), ["Bob"]);
        assert!(one.ended().load(Ordering::Relaxed));
        assert!(!two.ended().load(Ordering::Relaxed));
        // Deactivating the member ends the rest.
        members::set_active(&mut admin, &local, "Bob", false).unwrap();
        assert_eq!(list.check(&server), ["Bob"]);
        assert!(two.ended().load(Ordering::Relaxed));
        assert_eq!(woken.load(Ordering::Relaxed), 2);
        drop(one);
        drop(two);
        assert!(list.entries.lock().unwrap().is_empty());
    }
}
