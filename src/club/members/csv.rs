//! The member file: members as CSV, written for other programs and read back in one
//! transaction.

use super::member::{MemberFields, check_name, insert, list, own_if_ownerless, parse_rating};
use crate::club::access::{Actor, Operation};
use crate::club::error::ClubError;
use crate::club::store::{Change, Store, db};
use crate::rules::variant::Variant;
use serde::{Deserialize, Serialize};

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
pub fn import_csv(store: &mut Store, actor: &Actor, text: &str) -> Result<usize, ClubError> {
    let rows = parse_csv(text)?;
    let count = rows.len();
    store.write(actor, Operation::ImportMembers.op(), |tx| {
        let mut names = Vec::new();
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
            } else {
                own_if_ownerless(tx, id)?;
            }
            names.push(format!("#{id} {name}"));
        }
        let change = Change::new(format!("{count} members")).values(None, Some(names.join(", ")));
        Ok((count, change))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::club::store::temporary as store;

    #[test]
    fn csv_round_trip_and_all_or_nothing_import() {
        let (_d, mut s) = store();
        let text = "name,federation_id,contact,international,english\n\
                    \"Baba Sy\",,baba@example.org,1700,\n\
                    Iser Kuperman,KNDB-9,,1690,1500\n";
        assert_eq!(import_csv(&mut s, &Actor::local(), text).unwrap(), 2);
        let out = export_csv(&s).unwrap();
        let (_d2, mut t) = store();
        assert_eq!(import_csv(&mut t, &Actor::local(), &out).unwrap(), 2);
        assert_eq!(list(&s, true, None).unwrap(), list(&t, true, None).unwrap());
        // A duplicate on line 3 refuses the whole file.
        let again = "name\nNew Person\nBaba Sy\n";
        let e = import_csv(&mut s, &Actor::local(), again).unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        assert_eq!(list(&s, true, None).unwrap().len(), 2);
        let bad = "name,international\nSomeone,strong\n";
        assert!(
            import_csv(&mut s, &Actor::local(), bad)
                .unwrap_err()
                .to_string()
                .contains("line 2")
        );
        assert!(import_csv(&mut s, &Actor::local(), "nom\nX\n").is_err());
    }
}
