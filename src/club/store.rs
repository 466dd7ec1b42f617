//! The club database: one SQLite file, versioned migrations applied on open, WAL mode and a busy
//! timeout so several processes (TUI sessions, the command line) share it safely, and every
//! change in one transaction that first checks who acts ([`access`](super::access)) and then
//! appends its row to the audit.
//!
//! The connection is read-only (SQLite's `query_only`) except inside [`Store::write`], so a write
//! that does not go through the check fails in SQLite instead of changing the records.

use super::access::{self, Actor, Op};
use super::error::ClubError;
use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Schema migrations in order; migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: members, their ratings per variant, SSH keys, and the audit log.
    "CREATE TABLE members (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        federation_id TEXT,
        contact TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        created TEXT NOT NULL
    );
    CREATE UNIQUE INDEX members_name ON members (name COLLATE NOCASE);
    CREATE TABLE ratings (
        member_id INTEGER NOT NULL REFERENCES members (id),
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (member_id, variant)
    );
    CREATE TABLE member_keys (
        member_id INTEGER NOT NULL REFERENCES members (id),
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL UNIQUE,
        added TEXT NOT NULL
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
    );",
    // 2: tournaments, their entrants (numbered in entry order) and games (a bye has no Black).
    "CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        system TEXT NOT NULL,
        variant TEXT NOT NULL,
        time_control TEXT,
        scoring TEXT NOT NULL,
        rated INTEGER NOT NULL,
        created TEXT NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_name ON tournaments (name COLLATE NOCASE);
    CREATE TABLE entries (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        member_id INTEGER NOT NULL REFERENCES members (id),
        number INTEGER NOT NULL,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, member_id)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER REFERENCES tournaments (id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        white_id INTEGER NOT NULL REFERENCES members (id),
        black_id INTEGER REFERENCES members (id),
        result TEXT,
        pdn TEXT
    );
    CREATE UNIQUE INDEX games_board ON games (tournament_id, round, board);",
    // 3: ratings keep the organiser's starting value apart from the computed one, and a history.
    "ALTER TABLE ratings ADD COLUMN base REAL;
    UPDATE ratings SET base = rating;
    CREATE TABLE rating_history (
        id INTEGER PRIMARY KEY,
        member_id INTEGER NOT NULL REFERENCES members (id),
        variant TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id),
        before REAL NOT NULL,
        after REAL NOT NULL
    );",
    // 4: each tournament's tie-break order.
    "ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT NOT NULL DEFAULT 'sb,wins';",
    // 5: the number of rounds of a Swiss.
    "ALTER TABLE tournaments ADD COLUMN rounds INTEGER;",
    // 6: pairs the organiser ruled out, and players absent for one round (Swiss).
    "CREATE TABLE forbidden (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        a INTEGER NOT NULL REFERENCES members (id),
        b INTEGER NOT NULL REFERENCES members (id),
        PRIMARY KEY (tournament_id, a, b)
    );
    CREATE TABLE absences (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        member_id INTEGER NOT NULL REFERENCES members (id),
        round INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, member_id, round)
    );",
    // 7: club settings, and Glicko-2's deviation and volatility beside each rating.
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    ALTER TABLE ratings ADD COLUMN deviation REAL;
    ALTER TABLE ratings ADD COLUMN volatility REAL;",
    // 8: the archive: recorded games from outside the club's tournaments.
    "CREATE TABLE archive (
        id INTEGER PRIMARY KEY,
        event TEXT NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        pdn TEXT NOT NULL,
        added TEXT NOT NULL
    );",
    // 9: games played on the club server, written move by move; finished rated games outside
    // tournaments join `games` (no tournament) so that ratings count them.
    "CREATE TABLE online_games (
        id INTEGER PRIMARY KEY,
        variant TEXT NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        white_id INTEGER REFERENCES members (id),
        black_id INTEGER REFERENCES members (id),
        rated INTEGER NOT NULL,
        tournament_id INTEGER REFERENCES tournaments (id),
        round INTEGER,
        status TEXT NOT NULL,
        result TEXT,
        pdn TEXT NOT NULL,
        started TEXT NOT NULL,
        updated TEXT NOT NULL,
        game_id INTEGER REFERENCES games (id)
    );
    ALTER TABLE games ADD COLUMN variant TEXT;
    ALTER TABLE games ADD COLUMN played TEXT;",
    // 10: who may do what. Members' roles (the first active member of an existing club becomes
    // its owner, as the first member of a new club does), each tournament's arbiters, results
    // reported by players and who confirms them, and an audit that names its actor, keeps the
    // old and new values and refuses to be changed.
    "ALTER TABLE members ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
    UPDATE members SET role = 'owner' WHERE id = (SELECT min(id) FROM members WHERE active = 1);
    CREATE TABLE arbiters (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        member_id INTEGER NOT NULL REFERENCES members (id),
        PRIMARY KEY (tournament_id, member_id)
    );
    ALTER TABLE tournaments ADD COLUMN reports TEXT NOT NULL DEFAULT 'arbiter';
    ALTER TABLE games ADD COLUMN reported TEXT;
    ALTER TABLE games ADD COLUMN reported_by INTEGER REFERENCES members (id);
    ALTER TABLE audit ADD COLUMN actor_kind TEXT NOT NULL DEFAULT 'local';
    ALTER TABLE audit ADD COLUMN actor_id INTEGER;
    ALTER TABLE audit ADD COLUMN tournament_id INTEGER;
    ALTER TABLE audit ADD COLUMN member_id INTEGER;
    ALTER TABLE audit ADD COLUMN old TEXT;
    ALTER TABLE audit ADD COLUMN new TEXT;
    UPDATE audit SET actor_kind = 'server' WHERE actor = 'club server';
    CREATE INDEX audit_at ON audit (at);
    CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit is append-only'); END;
    CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit is append-only'); END;",
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The default database file: `$DRAUGHTS_DB`, or `club.sqlite` in the XDG data directory.
pub fn default_path() -> PathBuf {
    if let Some(p) = std::env::var_os("DRAUGHTS_DB") {
        return PathBuf::from(p);
    }
    directories::ProjectDirs::from("", "", "draughts").map_or_else(
        || PathBuf::from("club.sqlite"),
        |p| p.data_dir().join("club.sqlite"),
    )
}

/// An open club database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What a write changed, for its audit row: a line in words, and the values before and after.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// What was done, in words.
    pub detail: String,
    /// The value before (none for something new).
    pub old: Option<String>,
    /// The value after (none for something removed).
    pub new: Option<String>,
    /// The member it concerns, when only the change knows it (a member just added).
    pub member: Option<i64>,
    /// The tournament it concerns, when only the change knows it (a tournament just created).
    pub tournament: Option<i64>,
}

impl Change {
    /// A change described by `detail`, with no values yet.
    pub fn new(detail: impl Into<String>) -> Change {
        Change {
            detail: detail.into(),
            ..Change::default()
        }
    }

    /// The same change with the value before and after.
    pub fn values(self, old: Option<String>, new: Option<String>) -> Change {
        Change { old, new, ..self }
    }

    /// The same change, concerning a member the operation did not name before it ran.
    pub fn about_member(self, id: i64) -> Change {
        Change {
            member: Some(id),
            ..self
        }
    }

    /// The same change, concerning a tournament the operation did not name before it ran.
    pub fn about_tournament(self, id: i64) -> Change {
        Change {
            tournament: Some(id),
            ..self
        }
    }
}

/// Makes the connection writable for as long as it lives, read-only again when dropped (after
/// the transaction that borrowed it has ended).
struct Writable<'a>(&'a Connection);

impl<'a> Writable<'a> {
    fn new(conn: &'a Connection) -> rusqlite::Result<Writable<'a>> {
        conn.pragma_update(None, "query_only", false)?;
        Ok(Writable(conn))
    }
}

impl Drop for Writable<'_> {
    fn drop(&mut self) {
        // Failing to make it read-only again only loses the second line of defence: every write
        // path still goes through the check.
        let _ = self.0.pragma_update(None, "query_only", true);
    }
}

fn sql(path: &Path) -> impl Fn(rusqlite::Error) -> ClubError + '_ {
    move |e| ClubError::Database {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date. A file
    /// written by a newer version of the program is refused, never changed.
    pub fn open(path: &Path) -> Result<Store, ClubError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| ClubError::Database {
                path: path.to_path_buf(),
                message: format!("cannot create {}: {e}", dir.display()),
            })?;
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sql(path))?;
        // Other processes may hold the write lock for a moment: wait rather than fail.
        conn.busy_timeout(Duration::from_secs(10))
            .map_err(sql(path))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql(path))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(sql(path))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.migrate()?;
        store
            .conn
            .pragma_update(None, "query_only", true)
            .map_err(sql(path))?;
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&mut self) -> Result<(), ClubError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql(&path))?;
        let version: u32 = tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(sql(&path))?;
        if version > SCHEMA_VERSION {
            return Err(ClubError::Database {
                path,
                message: format!(
                    "the database has schema version {version}, newer than this program's \
                     {SCHEMA_VERSION}; use a newer draughts (the file was not changed)"
                ),
            });
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(m).map_err(sql(&path))?;
            tx.pragma_update(None, "user_version", i as u32 + 1)
                .map_err(sql(&path))?;
        }
        tx.commit().map_err(sql(&path))
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<u32, ClubError> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(sql(&self.path))
    }

    /// Runs `f` in one write transaction (taken at once, so concurrent writers queue instead of
    /// failing) after checking that `actor` may perform `op` (read in the same transaction);
    /// appends the audit row (who, when, what, the old and new values) and commits only if the
    /// check and `f` succeed. A refused or failed write changes nothing.
    pub fn write<T>(
        &mut self,
        actor: &Actor,
        op: Op,
        f: impl FnOnce(&Transaction) -> Result<(T, Change), ClubError>,
    ) -> Result<T, ClubError> {
        let path = self.path.clone();
        let _writable = Writable::new(&self.conn).map_err(sql(&path))?;
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
            .map_err(sql(&path))?;
        access::check(&tx, actor, &op)?;
        let (value, change) = f(&tx)?;
        if op.operation.audited() {
            tx.execute(
                "INSERT INTO audit (at, actor_kind, actor_id, actor, action, tournament_id,
                   member_id, detail, old, new)
                 VALUES (datetime('now'), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    actor.kind(),
                    actor.member_id(),
                    actor.name(),
                    op.operation.name(),
                    op.tournament.or(change.tournament),
                    op.member.or(change.member),
                    change.detail,
                    change.old,
                    change.new
                ],
            )
            .map_err(sql(&path))?;
        }
        tx.commit().map_err(sql(&path))?;
        Ok(value)
    }

    /// The connection, for reading.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }
}

pub(crate) use super::error::db;

/// A new club database in a temporary directory (for tests; the directory goes with the
/// returned guard).
#[cfg(test)]
pub(crate) fn temporary() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(&dir.path().join("club.sqlite")).expect("a new database");
    (dir, store)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_gets_the_current_schema_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/club.sqlite");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        drop(store);
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            SCHEMA_VERSION
        );
    }

    #[test]
    fn an_older_file_is_upgraded_keeping_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO members (name, created) VALUES ('Old Member', 'then')",
            [],
        )
        .unwrap();
        drop(conn);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let name: String = store
            .conn()
            .query_row("SELECT name FROM members", [], |r| r.get(0))
            .unwrap();
        assert_eq!(name, "Old Member");
        let tables: i64 = store
            .conn()
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'tournaments'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 1);
    }

    #[test]
    fn a_club_from_before_roles_gets_an_owner_and_keeps_its_audit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let conn = Connection::open(&path).unwrap();
        for (i, m) in MIGRATIONS.iter().enumerate().take(9) {
            conn.execute_batch(m).unwrap();
            conn.pragma_update(None, "user_version", i as u32 + 1)
                .unwrap();
        }
        conn.execute_batch(
            "INSERT INTO members (name, active, created) VALUES ('Gone', 0, 'then');
             INSERT INTO members (name, created) VALUES ('First', 'then');
             INSERT INTO members (name, created) VALUES ('Second', 'then');
             INSERT INTO audit (at, actor, action, detail)
               VALUES ('then', 'ton', 'member add', '#1 Gone'),
                      ('then', 'club server', 'online game', 'online game 1 started');",
        )
        .unwrap();
        drop(conn);
        let store = Store::open(&path).unwrap();
        let roles: Vec<(String, String)> = store
            .conn()
            .prepare("SELECT name, role FROM members ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let roles: Vec<(&str, &str)> = roles
            .iter()
            .map(|(n, r)| (n.as_str(), r.as_str()))
            .collect();
        assert_eq!(
            roles,
            [("Gone", "member"), ("First", "owner"), ("Second", "member")]
        );
        let audit = crate::club::audit::all(&store).unwrap();
        let kinds: Vec<(&str, &str)> = audit
            .iter()
            .map(|e| (e.actor.as_str(), e.actor_kind.as_str()))
            .collect();
        assert_eq!(kinds, [("ton", "local"), ("club server", "server")]);
    }

    #[test]
    fn a_newer_file_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        drop(Store::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        let e = Store::open(&path).err().expect("refused");
        assert!(e.to_string().contains("newer"), "{e}");
        let conn = Connection::open(&path).unwrap();
        let v: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION + 1);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        std::fs::write(
            &path,
            b"this is not a database, just text padded out to a page....",
        )
        .unwrap();
        let e = Store::open(&path).err().expect("refused");
        assert!(e.to_string().contains("club.sqlite"), "{e}");
    }

    #[test]
    fn failed_writes_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("c.sqlite")).unwrap();
        let op = crate::club::access::Operation::AddMember.op();
        let r: Result<(), _> = store.write(&Actor::local(), op, |tx| {
            tx.execute(
                "INSERT INTO members (name, created) VALUES ('A', 'now')",
                [],
            )
            .map_err(db)?;
            Err(ClubError::Refused("changed my mind".into()))
        });
        assert!(r.is_err());
        let n: i64 = store
            .conn()
            .query_row("SELECT count(*) FROM members", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
        assert!(crate::club::audit::all(&store).unwrap().is_empty());
    }
}
