//! Members: add, edit, list, search, deactivate (never delete), CSV import and export.

use super::error::ClubError;
use super::store::{Store, db};
use crate::rules::variant::Variant;
use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};
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

fn check_name(name: &str) -> Result<String, ClubError> {
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
        super::ratings::recompute(tx, *v)?;
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

/// Adds a member; returns the new id.
pub fn add(store: &mut Store, name: &str, fields: &MemberFields) -> Result<i64, ClubError> {
    store.write("member add", |tx| {
        let id = insert(tx, name, fields)?;
        Ok((id, format!("#{id} {}", name.trim())))
    })
}

/// Changes a member's fields.
pub fn edit(store: &mut Store, who: &str, fields: &MemberFields) -> Result<Member, ClubError> {
    let m = find(store, who)?;
    let new_name = fields.name.as_deref().map(check_name).transpose()?;
    store.write("member edit", |tx| {
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
        Ok(((), format!("#{} {}", m.id, m.name)))
    })?;
    find(store, &m.id.to_string())
}

/// Marks a member inactive (members are never deleted: their games stay theirs), or active again.
pub fn set_active(store: &mut Store, who: &str, active: bool) -> Result<Member, ClubError> {
    let m = find(store, who)?;
    if m.active == active {
        return Err(ClubError::Refused(format!(
            "{} is already {}",
            m.name,
            if active { "active" } else { "inactive" }
        )));
    }
    let action = if active {
        "member activate"
    } else {
        "member deactivate"
    };
    store.write(action, |tx| {
        tx.execute(
            "UPDATE members SET active = ?1 WHERE id = ?2",
            params![active, m.id],
        )
        .map_err(db)?;
        Ok(((), format!("#{} {}", m.id, m.name)))
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
            "SELECT id, name, federation_id, contact, active FROM members
             ORDER BY name COLLATE NOCASE",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Member {
                id: r.get(0)?,
                name: r.get(1)?,
                federation_id: r.get(2)?,
                contact: r.get(3)?,
                active: r.get(4)?,
                ratings: BTreeMap::new(),
            })
        })
        .map_err(db)?;
    let needle = search.map(str::to_lowercase);
    let mut out = Vec::new();
    for row in rows {
        let mut m = row.map_err(db)?;
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
pub fn add_key(store: &mut Store, who: &str, text: &str) -> Result<MemberKey, ClubError> {
    let m = find(store, who)?;
    let key = parse_public_key(text)?;
    store.write("member add-key", |tx| {
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
        Ok((key.clone(), format!("#{} {}: {}", m.id, m.name, key.fingerprint)))
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
pub fn remove_key(store: &mut Store, fingerprint: &str) -> Result<(), ClubError> {
    store.write("member remove-key", |tx| {
        let n = tx
            .execute(
                "DELETE FROM member_keys WHERE fingerprint = ?1",
                [fingerprint.trim()],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClubError::BadInput(format!("no key {fingerprint}")));
        }
        Ok(((), fingerprint.trim().to_string()))
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

/// One CSV row of the member file.
#[derive(Debug, Serialize, Deserialize)]
struct CsvMember {
    name: String,
    #[serde(default)]
    federation_id: String,
    #[serde(default)]
    contact: String,
    #[serde(default)]
    active: Option<String>,
    #[serde(default)]
    international: Option<String>,
    #[serde(default)]
    frisian: Option<String>,
    #[serde(default)]
    english: Option<String>,
}

/// Writes all members as CSV (`name,federation_id,contact,active,international,frisian,english`).
pub fn export_csv(store: &Store) -> Result<String, ClubError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for m in list(store, true, None)? {
        let rating = |v: Variant| m.ratings.get(v.name()).map(|r| format!("{r}"));
        w.serialize(CsvMember {
            name: m.name.clone(),
            federation_id: m.federation_id.clone().unwrap_or_default(),
            contact: m.contact.clone().unwrap_or_default(),
            active: Some(if m.active { "yes" } else { "no" }.into()),
            international: rating(Variant::International),
            frisian: rating(Variant::Frisian),
            english: rating(Variant::English),
        })
        .map_err(|e| ClubError::BadInput(e.to_string()))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ClubError::BadInput(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ClubError::BadInput(e.to_string()))
}

/// A member read from a CSV file, checked but not yet added.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRow {
    /// The line of the file it is on.
    pub line: usize,
    /// The name.
    pub name: String,
    /// Federation id, contact and ratings.
    pub fields: MemberFields,
    /// Whether the member is active.
    pub active: bool,
}

/// Reads and checks the members of a CSV file (header `name` required; `federation_id`,
/// `contact`, `active`, and a rating column per variant optional): the first bad row is an error
/// with its line.
pub fn parse_csv(text: &str) -> Result<Vec<CsvRow>, ClubError> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in reader.deserialize::<CsvMember>().enumerate() {
        let line = i + 2;
        let row = rec.map_err(|e| ClubError::BadInput(format!("line {line}: {e}")))?;
        let mut fields = MemberFields {
            name: None,
            federation_id: Some(row.federation_id.clone()),
            contact: Some(row.contact.clone()),
            ratings: Vec::new(),
        };
        for (v, r) in [
            (Variant::International, &row.international),
            (Variant::Frisian, &row.frisian),
            (Variant::English, &row.english),
        ] {
            if let Some(r) = r.as_deref().filter(|r| !r.is_empty()) {
                let (_, rating) = parse_rating(&format!("{}={r}", v.name()))
                    .map_err(|e| ClubError::BadInput(format!("line {line}: {e}")))?;
                fields.ratings.push((v, rating));
            }
        }
        let active = match row
            .active
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("" | "yes" | "y" | "1" | "true") => true,
            Some("no" | "n" | "0" | "false") => false,
            Some(other) => {
                return Err(ClubError::BadInput(format!(
                    "line {line}: active {other:?} is not yes or no"
                )));
            }
        };
        check_name(&row.name).map_err(|e| ClubError::BadInput(format!("line {line}: {e}")))?;
        rows.push(CsvRow {
            line,
            name: row.name,
            fields,
            active,
        });
    }
    Ok(rows)
}

/// Adds the members of a CSV file ([`parse_csv`]) in one transaction: any bad row (with its
/// line) or a name already in the club refuses the whole file. Returns how many were added.
pub fn import_csv(store: &mut Store, text: &str) -> Result<usize, ClubError> {
    let rows = parse_csv(text)?;
    let count = rows.len();
    store.write("member import", |tx| {
        for CsvRow {
            line,
            name,
            fields,
            active,
        } in &rows
        {
            let id = insert(tx, name, fields).map_err(|e| match e {
                ClubError::Refused(m) => ClubError::Refused(format!("line {line}: {m}")),
                other => other,
            })?;
            if !active {
                tx.execute("UPDATE members SET active = 0 WHERE id = ?1", [id])
                    .map_err(db)?;
            }
        }
        Ok((count, format!("{count} members")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("club.sqlite")).unwrap();
        (dir, store)
    }

    #[test]
    fn add_edit_find_deactivate() {
        let (_d, mut s) = store();
        let fields = MemberFields {
            federation_id: Some("FMJD-123".into()),
            ratings: vec![parse_rating("international=1650").unwrap()],
            ..Default::default()
        };
        let id = add(&mut s, "Ton Sijbrands", &fields).unwrap();
        assert!(matches!(
            add(&mut s, "ton sijbrands", &MemberFields::default()),
            Err(ClubError::Refused(_))
        ));
        let m = find(&s, "TON SIJBRANDS").unwrap();
        assert_eq!((m.id, m.federation_id.as_deref()), (id, Some("FMJD-123")));
        assert_eq!(m.ratings.get("international"), Some(&1650.0));
        let m = edit(
            &mut s,
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
        set_active(&mut s, "Ton Sijbrands", false).unwrap();
        assert!(list(&s, false, None).unwrap().is_empty());
        assert_eq!(list(&s, true, Some("example")).unwrap().len(), 1);
        assert!(matches!(
            set_active(&mut s, &id.to_string(), false),
            Err(ClubError::Refused(_))
        ));
        let actions: Vec<String> = s.audit().unwrap().into_iter().map(|a| a.2).collect();
        assert_eq!(actions, ["member add", "member edit", "member deactivate"]);
    }

    #[test]
    fn ssh_keys_identify_members() {
        let (_d, mut s) = store();
        add(&mut s, "Ann", &MemberFields::default()).unwrap();
        add(&mut s, "Bob", &MemberFields::default()).unwrap();
        // An ed25519 public key; the fingerprint is what `ssh-keygen -lf` prints for it.
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOIMEmNuotHsJqPG+r3LNJ7H2Ysc0h1rnZiUbNgxMt6e ann@home";
        let k = add_key(&mut s, "Ann", key).unwrap();
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
            add_key(&mut s, "Bob", key),
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
        set_active(&mut s, "Ann", false).unwrap();
        assert_eq!(member_by_fingerprint(&s, &k.fingerprint).unwrap(), None);
        remove_key(&mut s, &k.fingerprint).unwrap();
        assert!(keys(&s, "Ann").unwrap().is_empty());
        for bad in ["", "ssh-ed25519", "ssh-ed25519 !!!!", "not a key at all"] {
            assert!(
                matches!(parse_public_key(bad), Err(ClubError::BadInput(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn bad_names_and_ratings_say_why() {
        let (_d, mut s) = store();
        for bad in ["", "  ", "42", "a\u{7}b"] {
            assert!(matches!(
                add(&mut s, bad, &MemberFields::default()),
                Err(ClubError::BadInput(_))
            ));
        }
        for bad in ["international", "chess=1500", "english=lots", "frisian=-5"] {
            assert!(parse_rating(bad).is_err(), "{bad}");
        }
        assert!(matches!(find(&s, "nobody"), Err(ClubError::BadInput(_))));
    }

    #[test]
    fn csv_round_trip_and_all_or_nothing_import() {
        let (_d, mut s) = store();
        let text = "name,federation_id,contact,international,english\n\
                    \"Baba Sy\",,baba@example.org,1700,\n\
                    Iser Kuperman,KNDB-9,,1690,1500\n";
        assert_eq!(import_csv(&mut s, text).unwrap(), 2);
        let out = export_csv(&s).unwrap();
        let (_d2, mut t) = store();
        assert_eq!(import_csv(&mut t, &out).unwrap(), 2);
        assert_eq!(list(&s, true, None).unwrap(), list(&t, true, None).unwrap());
        // A duplicate on line 3 refuses the whole file.
        let again = "name\nNew Person\nBaba Sy\n";
        let e = import_csv(&mut s, again).unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        assert_eq!(list(&s, true, None).unwrap().len(), 2);
        let bad = "name,international\nSomeone,strong\n";
        assert!(
            import_csv(&mut s, bad)
                .unwrap_err()
                .to_string()
                .contains("line 2")
        );
        assert!(import_csv(&mut s, "nom\nX\n").is_err());
    }
}
