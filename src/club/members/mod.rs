//! Members: `member` is a member's record (add, edit, list, search, deactivate but never
//! delete, roles), `keys` their SSH keys, `csv` the member file.

mod csv;
mod keys;
mod member;

pub use csv::{CsvRow, export_csv, import_csv, parse_csv};
pub use keys::{
    MemberKey, active_keys, add_key, keys, member_by_fingerprint, parse_public_key, remove_key,
};
pub(crate) use member::insert;
pub use member::{Member, MemberFields, add, edit, find, list, parse_rating, set_active, set_role};
