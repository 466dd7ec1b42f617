//! A member's record: add, edit, list, search, deactivate (never delete), roles.

use crate::club::access::{Actor, Operation, Role};
use crate::club::error::ClubError;
use crate::club::store::{Change, Store, db};
use crate::rules::variant::Variant;
use rusqlite::{OptionalExtension, Transaction, params};
use serde::Serialize;
use std::collections::BTreeMap;

/// A club member.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Member {
    /// Database id.
    pub id: i64,
    /// Full name (unique in the club, case-insensitively).
    pub name: String,
    /// FMJD or national federation id.
    pub federation_id: Option<String>,
    /// E-mail or phone.
    pub contact: Option<String>,
    /// Whether the member is active.
    pub active: bool,
    /// The member's role in the club.
    pub role: Role,
    /// Rating per variant (variant name → rating), where one is set.
    pub ratings: BTreeMap<String, f64>,
}

/// Fields of a member to set (unset fields are left as they are).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberFields {
    /// New name.
    pub name: Option<String>,
    /// Federation id (empty clears it).
    pub federation_id: Option<String>,
    /// Contact (empty clears it).
    pub contact: Option<String>,
    /// Ratings to set.
    pub ratings: Vec<(Variant, f64)>,
}

/// Reads `international=1500` (as `--rating` takes it).
pub fn parse_rating(text: &str) -> Result<(Variant, f64), ClubError> {
    let bad = |why: &str| {
        ClubError::BadInput(format!("rating {text:?}: {why} (e.g. international=1500)"))
    };
    let (v, r) = text
        .split_once('=')
        .ok_or_else(|| bad("expected <variant>=<rating>"))?;
    let variant: Variant = v.trim().parse().map_err(|_| bad("unknown variant"))?;
    let rating: f64 = r.trim().parse().map_err(|_| bad("not a number"))?;
    if !(0.0..=4000.0).contains(&rating) {
        return Err(bad("out of range 0–4000"));
    }
    Ok((variant, rating))
}

pub(crate) fn check_name(name: &str) -> Result<String, ClubError> {
    let n = name.trim();
    if n.is_empty() || n.len() > 200 || n.chars().any(char::is_control) {
        return Err(ClubError::BadInput(format!(
            "{name:?} is not a usable name (1–200 printable characters)"
        )));
    }
    if n.parse::<i64>().is_ok() {
        return Err(ClubError::BadInput(format!(
            "{name:?}: a name cannot be only a number (numbers name members by id)"
        )));
    }
    Ok(n.to_string())
}

fn optional(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Refuses a name another member (other than `except`) already has, whatever its case.
fn refuse_taken(tx: &Transaction, name: &str, except: Option<i64>) -> Result<(), ClubError> {
    let clash: Option<i64> = tx
        .query_row(
            "SELECT id FROM members WHERE name = ?1 COLLATE NOCASE AND id != ?2",
            params![name, except.unwrap_or(-1)],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?;
    match clash {
        Some(_) => Err(ClubError::Refused(format!(
            "a member named {name:?} exists already"
        ))),
        None => Ok(()),
    }
}

/// Checks and inserts a member inside a transaction; returns the id.
pub(crate) fn insert(
    tx: &Transaction,
    name: &str,
    fields: &MemberFields,
) -> Result<i64, ClubError> {
    let name = check_name(name)?;
    refuse_taken(tx, &name, None)?;
    tx.execute(
        "INSERT INTO members (name, federation_id, contact, created) VALUES (?1, ?2, ?3, datetime('now'))",
        params![
            name,
            fields.federation_id.as_deref().and_then(optional),
            fields.contact.as_deref().and_then(optional)
        ],
    )
    .map_err(db)?;
    let id = tx.last_insert_rowid();
    set_ratings(tx, id, &fields.ratings)?;
    Ok(id)
}

/// A member as the audit records it (name, federation id, contact, state, role, starting
/// ratings), read inside a transaction.
fn summary(tx: &Transaction, id: i64) -> Result<String, ClubError> {
    let (name, fed, contact, active, role): (String, Option<String>, Option<String>, bool, String) =
        tx.query_row(
            "SELECT name, federation_id, contact, active, role FROM members WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .map_err(db)?;
    let mut parts = vec![name];
    parts.extend(fed.map(|f| format!("federation id {f}")));
    parts.extend(contact.map(|c| format!("contact {c}")));
    parts.push(if active { "active" } else { "inactive" }.into());
    parts.push(role);
    let mut stmt = tx
        .prepare("SELECT variant, base FROM ratings WHERE member_id = ?1 AND base IS NOT NULL ORDER BY variant")
        .map_err(db)?;
    let rows = stmt
        .query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?)))
        .map_err(db)?;
    for row in rows {
        let (v, r) = row.map_err(db)?;
        parts.push(format!("{v} {r}"));
    }
    Ok(parts.join("; "))
}

/// Makes `id` the owner when the club has none: the first member added to a new club is its
/// owner.
pub(crate) fn own_if_ownerless(tx: &Transaction, id: i64) -> Result<(), ClubError> {
    tx.execute(
        "UPDATE members SET role = 'owner' WHERE id = ?1
           AND NOT EXISTS (SELECT 1 FROM members WHERE role = 'owner' AND active = 1)",
        [id],
    )
    .map_err(db)?;
    Ok(())
}

/// The number of active owners other than `except`.
fn other_owners(tx: &Transaction, except: i64) -> Result<i64, ClubError> {
    tx.query_row(
        "SELECT count(*) FROM members WHERE role = 'owner' AND active = 1 AND id != ?1",
        [except],
        |r| r.get(0),
    )
    .map_err(db)
}

/// Sets starting ratings (what the organiser knows: a federation rating) and re-runs the
/// variant's rated games on top of them.
fn set_ratings(tx: &Transaction, id: i64, ratings: &[(Variant, f64)]) -> Result<(), ClubError> {
    for (v, r) in ratings {
        tx.execute(
            "INSERT INTO ratings (member_id, variant, rating, base) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (member_id, variant) DO UPDATE SET base = excluded.base",
            params![id, v.name(), r],
        )
        .map_err(db)?;
        crate::club::ratings::recompute(tx, *v)?;
    }
    Ok(())
}

/// Finds a member by id (a number) or name (exact, case-insensitive).
pub fn find(store: &Store, who: &str) -> Result<Member, ClubError> {
    let conn = store.conn();
    let id: Option<i64> = match who.trim().parse::<i64>() {
        Ok(id) => conn
            .query_row("SELECT id FROM members WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(db)?,
        Err(_) => conn
            .query_row(
                "SELECT id FROM members WHERE name = ?1 COLLATE NOCASE",
                [who.trim()],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?,
    };
    let id = id.ok_or_else(|| ClubError::BadInput(format!("no member {who:?}")))?;
    Ok(list(store, true, None)?
        .into_iter()
        .find(|m| m.id == id)
        .expect("the member was just found by id"))
}

/// Adds a member; returns the new id. The first member of a club becomes its owner.
pub fn add(
    store: &mut Store,
    actor: &Actor,
    name: &str,
    fields: &MemberFields,
) -> Result<i64, ClubError> {
    store.write(actor, Operation::AddMember.op(), |tx| {
        let id = insert(tx, name, fields)?;
        own_if_ownerless(tx, id)?;
        let change = Change::new(format!("#{id} {}", name.trim()))
            .values(None, Some(summary(tx, id)?))
            .about_member(id);
        Ok((id, change))
    })
}

/// Changes a member's fields. A member may change their own contact; the rest is an
/// organiser's.
pub fn edit(
    store: &mut Store,
    actor: &Actor,
    who: &str,
    fields: &MemberFields,
) -> Result<Member, ClubError> {
    let m = find(store, who)?;
    let new_name = fields.name.as_deref().map(check_name).transpose()?;
    let only_contact =
        fields.name.is_none() && fields.federation_id.is_none() && fields.ratings.is_empty();
    let operation = if only_contact {
        Operation::EditContact
    } else {
        Operation::EditMember
    };
    store.write(actor, operation.op().member(m.id), |tx| {
        let before = summary(tx, m.id)?;
        if let Some(n) = &new_name {
            refuse_taken(tx, n, Some(m.id))?;
            tx.execute(
                "UPDATE members SET name = ?1 WHERE id = ?2",
                params![n, m.id],
            )
            .map_err(db)?;
        }
        if let Some(f) = &fields.federation_id {
            tx.execute(
                "UPDATE members SET federation_id = ?1 WHERE id = ?2",
                params![optional(f), m.id],
            )
            .map_err(db)?;
        }
        if let Some(c) = &fields.contact {
            tx.execute(
                "UPDATE members SET contact = ?1 WHERE id = ?2",
                params![optional(c), m.id],
            )
            .map_err(db)?;
        }
        set_ratings(tx, m.id, &fields.ratings)?;
        let change = Change::new(format!("#{} {}", m.id, m.name))
            .values(Some(before), Some(summary(tx, m.id)?));
        Ok(((), change))
    })?;
    find(store, &m.id.to_string())
}

/// Marks a member inactive (members are never deleted: their games stay theirs), or active
/// again. The last active owner stays active.
pub fn set_active(
    store: &mut Store,
    actor: &Actor,
    who: &str,
    active: bool,
) -> Result<Member, ClubError> {
    let m = find(store, who)?;
    if m.active == active {
        return Err(ClubError::Refused(format!(
            "{} is already {}",
            m.name,
            if active { "active" } else { "inactive" }
        )));
    }
    store.write(actor, Operation::SetActive.op().member(m.id), |tx| {
        let role: String = tx
            .query_row("SELECT role FROM members WHERE id = ?1", [m.id], |r| {
                r.get(0)
            })
            .map_err(db)?;
        if !active && role == Role::Owner.name() && other_owners(tx, m.id)? == 0 {
            return Err(ClubError::Refused(format!(
                "{} is the club's last owner: make another member owner first",
                m.name
            )));
        }
        tx.execute(
            "UPDATE members SET active = ?1 WHERE id = ?2",
            params![active, m.id],
        )
        .map_err(db)?;
        let state = |a: bool| Some(if a { "active" } else { "inactive" }.to_string());
        let change = Change::new(format!(
            "#{} {} {}",
            m.id,
            m.name,
            if active { "activated" } else { "deactivated" }
        ))
        .values(state(!active), state(active));
        Ok(((), change))
    })?;
    find(store, &m.id.to_string())
}

/// Gives a member a role (an owner's decision); the last owner keeps theirs.
pub fn set_role(
    store: &mut Store,
    actor: &Actor,
    who: &str,
    role: Role,
) -> Result<Member, ClubError> {
    let m = find(store, who)?;
    store.write(actor, Operation::SetRole.op().member(m.id), |tx| {
        let old: String = tx
            .query_row("SELECT role FROM members WHERE id = ?1", [m.id], |r| {
                r.get(0)
            })
            .map_err(db)?;
        if old == role.name() {
            return Err(ClubError::Refused(format!(
                "{} is {} already",
                m.name,
                role.name()
            )));
        }
        if old == Role::Owner.name() && other_owners(tx, m.id)? == 0 {
            return Err(ClubError::Refused(format!(
                "{} is the club's last owner: make another member owner first",
                m.name
            )));
        }
        tx.execute(
            "UPDATE members SET role = ?1 WHERE id = ?2",
            params![role.name(), m.id],
        )
        .map_err(db)?;
        let change = Change::new(format!("#{} {} is {}", m.id, m.name, role.name()))
            .values(Some(old), Some(role.name().to_string()));
        Ok(((), change))
    })?;
    find(store, &m.id.to_string())
}

/// Members by name; inactive ones only with `all`; `search` matches name, federation id or
/// contact (case-insensitive substring).
pub fn list(store: &Store, all: bool, search: Option<&str>) -> Result<Vec<Member>, ClubError> {
    let conn = store.conn();
    let mut ratings: BTreeMap<i64, BTreeMap<String, f64>> = BTreeMap::new();
    let mut stmt = conn
        .prepare("SELECT member_id, variant, rating FROM ratings")
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, f64>(2)?,
            ))
        })
        .map_err(db)?;
    for row in rows {
        let (id, v, r) = row.map_err(db)?;
        ratings.entry(id).or_default().insert(v, r);
    }
    let mut stmt = conn
        .prepare(
            "SELECT id, name, federation_id, contact, active, role FROM members
             ORDER BY name COLLATE NOCASE",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                Member {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    federation_id: r.get(2)?,
                    contact: r.get(3)?,
                    active: r.get(4)?,
                    role: Role::Member,
                    ratings: BTreeMap::new(),
                },
                r.get::<_, String>(5)?,
            ))
        })
        .map_err(db)?;
    let needle = search.map(str::to_lowercase);
    let mut out = Vec::new();
    for row in rows {
        let (mut m, role) = row.map_err(db)?;
        m.role = role.parse()?;
        if !all && !m.active {
            continue;
        }
        if let Some(n) = &needle {
            let hay = [
                Some(m.name.as_str()),
                m.federation_id.as_deref(),
                m.contact.as_deref(),
            ];
            if !hay.iter().flatten().any(|h| h.to_lowercase().contains(n)) {
                continue;
            }
        }
        m.ratings = ratings.remove(&m.id).unwrap_or_default();
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::club::store::temporary as store;

    #[test]
    fn add_edit_find_deactivate() {
        let (_d, mut s) = store();
        // The first member is the club's owner, who stays active.
        add(
            &mut s,
            &Actor::local(),
            "Club Owner",
            &MemberFields::default(),
        )
        .unwrap();
        let fields = MemberFields {
            federation_id: Some("FMJD-123".into()),
            ratings: vec![parse_rating("international=1650").unwrap()],
            ..Default::default()
        };
        let id = add(&mut s, &Actor::local(), "Ton Sijbrands", &fields).unwrap();
        assert!(matches!(
            add(
                &mut s,
                &Actor::local(),
                "ton sijbrands",
                &MemberFields::default()
            ),
            Err(ClubError::Refused(_))
        ));
        let m = find(&s, "TON SIJBRANDS").unwrap();
        assert_eq!((m.id, m.federation_id.as_deref()), (id, Some("FMJD-123")));
        assert_eq!(m.ratings.get("international"), Some(&1650.0));
        let m = edit(
            &mut s,
            &Actor::local(),
            &id.to_string(),
            &MemberFields {
                contact: Some("ton@example.org".into()),
                ratings: vec![parse_rating("frisian=1400").unwrap()],
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(m.contact.as_deref(), Some("ton@example.org"));
        assert_eq!(m.ratings.len(), 2);
        set_active(&mut s, &Actor::local(), "Ton Sijbrands", false).unwrap();
        let active: Vec<String> = list(&s, false, None)
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(active, ["Club Owner"]);
        assert_eq!(list(&s, true, Some("example")).unwrap().len(), 1);
        assert!(matches!(
            set_active(&mut s, &Actor::local(), &id.to_string(), false),
            Err(ClubError::Refused(_))
        ));
        let audit = crate::club::audit::all(&s).unwrap();
        let actions: Vec<&str> = audit.iter().map(|a| a.action.as_str()).collect();
        assert_eq!(
            actions,
            ["member add", "member add", "member edit", "member active"]
        );
        assert_eq!(audit[3].old.as_deref(), Some("active"));
        assert_eq!(audit[3].new.as_deref(), Some("inactive"));
    }

    #[test]
    fn bad_names_and_ratings_say_why() {
        let (_d, mut s) = store();
        for bad in ["", "  ", "42", "a\u{7}b"] {
            assert!(matches!(
                add(&mut s, &Actor::local(), bad, &MemberFields::default()),
                Err(ClubError::BadInput(_))
            ));
        }
        for bad in ["international", "chess=1500", "english=lots", "frisian=-5"] {
            assert!(parse_rating(bad).is_err(), "{bad}");
        }
        assert!(matches!(find(&s, "nobody"), Err(ClubError::BadInput(_))));
    }
}
