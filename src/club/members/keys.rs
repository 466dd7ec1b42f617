//! Members' SSH public keys: how members sign in to the club server. A key belongs to one
//! member; an inactive member's keys let nobody in.

use super::member::Member;
use super::member::find;
use crate::club::access::{Actor, Operation};
use crate::club::error::ClubError;
use crate::club::store::{Change, Store, db};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// A member's SSH public key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberKey {
    /// The key's SHA-256 fingerprint as OpenSSH prints it (`SHA256:…`).
    pub fingerprint: String,
    /// The key in OpenSSH form (`ssh-ed25519 AAAA… comment`).
    pub key: String,
}

/// Reads an OpenSSH public key line and gives its canonical text and fingerprint.
pub fn parse_public_key(text: &str) -> Result<MemberKey, ClubError> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| ClubError::BadInput("no public key given".into()))?;
    let key = ssh_key::PublicKey::from_openssh(line).map_err(|e| {
        ClubError::BadInput(format!(
            "not an OpenSSH public key ({e}); expected e.g. \"ssh-ed25519 AAAA… you@host\""
        ))
    })?;
    Ok(MemberKey {
        fingerprint: key.fingerprint(ssh_key::HashAlg::Sha256).to_string(),
        key: key
            .to_openssh()
            .map_err(|e| ClubError::BadInput(e.to_string()))?,
    })
}

/// Adds an SSH public key to a member (a key belongs to one member only).
pub fn add_key(
    store: &mut Store,
    actor: &Actor,
    who: &str,
    text: &str,
) -> Result<MemberKey, ClubError> {
    let m = find(store, who)?;
    let key = parse_public_key(text)?;
    store.write(actor, Operation::AddKey.op().member(m.id), |tx| {
        let owner: Option<String> = tx
            .query_row(
                "SELECT m.name FROM member_keys k JOIN members m ON m.id = k.member_id
                 WHERE k.fingerprint = ?1",
                [&key.fingerprint],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        if let Some(owner) = owner {
            return Err(ClubError::Refused(format!(
                "the key {} belongs to {owner} already",
                key.fingerprint
            )));
        }
        tx.execute(
            "INSERT INTO member_keys (member_id, key, fingerprint, added) VALUES (?1, ?2, ?3, datetime('now'))",
            params![m.id, key.key, key.fingerprint],
        )
        .map_err(db)?;
        let change = Change::new(format!("#{} {}: key added", m.id, m.name))
            .values(None, Some(key.fingerprint.clone()));
        Ok((key.clone(), change))
    })
}

/// A member's SSH keys.
pub fn keys(store: &Store, who: &str) -> Result<Vec<MemberKey>, ClubError> {
    let m = find(store, who)?;
    let mut stmt = store
        .conn()
        .prepare("SELECT fingerprint, key FROM member_keys WHERE member_id = ?1 ORDER BY added")
        .map_err(db)?;
    let rows = stmt
        .query_map([m.id], |r| {
            Ok(MemberKey {
                fingerprint: r.get(0)?,
                key: r.get(1)?,
            })
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// Removes a key by its fingerprint.
pub fn remove_key(store: &mut Store, actor: &Actor, fingerprint: &str) -> Result<(), ClubError> {
    let fingerprint = fingerprint.trim();
    let owner: Option<(i64, String)> = store
        .conn()
        .query_row(
            "SELECT m.id, m.name FROM member_keys k JOIN members m ON m.id = k.member_id
             WHERE k.fingerprint = ?1",
            [fingerprint],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(db)?;
    let Some((id, name)) = owner else {
        return Err(ClubError::BadInput(format!("no key {fingerprint}")));
    };
    store.write(actor, Operation::RemoveKey.op().member(id), |tx| {
        let n = tx
            .execute(
                "DELETE FROM member_keys WHERE fingerprint = ?1 AND member_id = ?2",
                params![fingerprint, id],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClubError::BadInput(format!("no key {fingerprint}")));
        }
        let change = Change::new(format!("#{id} {name}: key removed"))
            .values(Some(fingerprint.to_string()), None);
        Ok(((), change))
    })
}

/// The active member a key fingerprint belongs to (how the club server knows who connects).
pub fn member_by_fingerprint(
    store: &Store,
    fingerprint: &str,
) -> Result<Option<Member>, ClubError> {
    let id: Option<i64> = store
        .conn()
        .query_row(
            "SELECT k.member_id FROM member_keys k JOIN members m ON m.id = k.member_id
             WHERE k.fingerprint = ?1 AND m.active = 1",
            [fingerprint],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?;
    id.map(|id| find(store, &id.to_string())).transpose()
}

/// Every key that lets a member in now (an active member's), with whose it is: one query for
/// the server's periodic check of its signed-in sessions.
pub fn active_keys(store: &Store) -> Result<std::collections::HashMap<String, i64>, ClubError> {
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT k.fingerprint, k.member_id FROM member_keys k
             JOIN members m ON m.id = k.member_id WHERE m.active = 1",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::members::{MemberFields, add, set_active};

    use crate::club::store::temporary as store;

    #[test]
    fn ssh_keys_identify_members() {
        let (_d, mut s) = store();
        add(
            &mut s,
            &Actor::local(),
            "Club Owner",
            &MemberFields::default(),
        )
        .unwrap();
        add(&mut s, &Actor::local(), "Ann", &MemberFields::default()).unwrap();
        add(&mut s, &Actor::local(), "Bob", &MemberFields::default()).unwrap();
        // An ed25519 public key; the fingerprint is what `ssh-keygen -lf` prints for it.
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOIMEmNuotHsJqPG+r3LNJ7H2Ysc0h1rnZiUbNgxMt6e ann@home";
        let k = add_key(&mut s, &Actor::local(), "Ann", key).unwrap();
        assert_eq!(
            k.fingerprint,
            "SHA256:6HnWD6PNIKqB7b/wRK117xZOtBvFl3kTsE9ceYjleFM"
        );
        assert_eq!(
            k.fingerprint,
            parse_public_key(&format!("# comment\n{key}\n"))
                .unwrap()
                .fingerprint
        );
        assert!(matches!(
            add_key(&mut s, &Actor::local(), "Bob", key),
            Err(ClubError::Refused(_))
        ));
        assert_eq!(
            member_by_fingerprint(&s, &k.fingerprint)
                .unwrap()
                .unwrap()
                .name,
            "Ann"
        );
        assert_eq!(keys(&s, "Ann").unwrap().len(), 1);
        set_active(&mut s, &Actor::local(), "Ann", false).unwrap();
        assert_eq!(member_by_fingerprint(&s, &k.fingerprint).unwrap(), None);
        remove_key(&mut s, &Actor::local(), &k.fingerprint).unwrap();
        assert!(keys(&s, "Ann").unwrap().is_empty());
        for bad in ["", "ssh-ed25519", "ssh-ed25519 !!!!", "not a key at all"] {
            assert!(
                matches!(parse_public_key(bad), Err(ClubError::BadInput(_))),
                "{bad}"
            );
        }
    }
}
