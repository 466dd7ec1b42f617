//! Who may do what to the club's records.
//!
//! Every change goes through [`Store::write`](super::Store::write), which takes the [`Actor`]
//! and the [`Op`] and calls [`check`] inside the write's own transaction, before anything is
//! written: the actor's role is read afresh there, so a role taken away counts at once, and a
//! refused operation changes nothing. The one table of operations × roles is [`Operation::rule`];
//! the screens and commands only ask [`allowed`] what to offer.
//!
//! Who acts is decided in one place, here: on the command line and in the local TUI the actor
//! is [`Actor::local`], the owner, because whoever holds the database file can change it anyway
//! (the audit names the operating-system user); on the club server a session acts as the member
//! who signed in, with that member's role; the server's referee, recording the games played on
//! it, is [`Actor::Server`].

use super::error::ClubError;
use rusqlite::{Connection, OptionalExtension, params};
use std::str::FromStr;

/// A member's role in the club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A member: plays, challenges, watches, sees the records, edits their own contact and keys.
    Member,
    /// Runs the club: members, tournaments, pairings, results, settings.
    Organiser,
    /// The club's administrator: everything, including roles.
    Owner,
}

impl Role {
    /// The name stored and typed (`owner`, `organiser`, `member`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Organiser => "organiser",
            Role::Member => "member",
        }
    }
}

impl FromStr for Role {
    type Err = ClubError;
    fn from_str(s: &str) -> Result<Role, ClubError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "owner" => Ok(Role::Owner),
            "organiser" | "organizer" => Ok(Role::Organiser),
            "member" => Ok(Role::Member),
            other => Err(ClubError::BadInput(format!(
                "{other:?} is not a role (owner, organiser, member)"
            ))),
        }
    }
}

/// Who acts on the club's records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// Local use (the command line, the TUI on this machine) by this operating-system user: acts
    /// as the owner.
    Local(String),
    /// A member signed in on the club server: acts with their role.
    Member {
        /// The member's id.
        id: i64,
        /// The member's name (as signed in; the audit also keeps the id).
        name: String,
    },
    /// A guest of the club server (an unknown key let in with `--guests`): plays casual games,
    /// changes nothing.
    Guest(String),
    /// The club server's referee, writing the games played on it and their results.
    Server,
}

impl Actor {
    /// Who acts on the command line and in the local TUI: the owner, named in the audit by the
    /// operating-system user (`$USER`, `$LOGNAME`, or the user id).
    pub fn local() -> Actor {
        let user = ["USER", "LOGNAME"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|u| !u.trim().is_empty());
        Actor::Local(user.unwrap_or_else(uid))
    }

    /// The name the audit records.
    pub fn name(&self) -> &str {
        match self {
            Actor::Local(user) => user,
            Actor::Member { name, .. } | Actor::Guest(name) => name,
            Actor::Server => "club server",
        }
    }

    /// The kind the audit records: `local`, `member` or `server`.
    pub fn kind(&self) -> &'static str {
        match self {
            Actor::Local(_) => "local",
            Actor::Member { .. } => "member",
            Actor::Guest(_) => "guest",
            Actor::Server => "server",
        }
    }

    /// The member's id, for a member.
    pub fn member_id(&self) -> Option<i64> {
        match self {
            Actor::Member { id, .. } => Some(*id),
            _ => None,
        }
    }
}

#[cfg(unix)]
fn uid() -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map_or_else(|_| "unknown".into(), |m| format!("uid {}", m.uid()))
}

#[cfg(not(unix))]
fn uid() -> String {
    "unknown".into()
}

/// Who may perform an operation: one row class of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Owners only.
    Owner,
    /// Owners and organisers.
    Organiser,
    /// Owners, organisers, and the arbiters of the tournament concerned.
    Arbiter,
    /// Owners, organisers, and the member concerned, on their own record.
    OrganiserOrSelf,
    /// The players of the game concerned.
    Player,
    /// The club server, for the games played on it.
    Server,
}

impl Rule {
    /// Who may, in words ("an organiser or this tournament's arbiter").
    pub fn who(self) -> &'static str {
        match self {
            Rule::Owner => "an owner",
            Rule::Organiser => "an organiser",
            Rule::Arbiter => "an organiser or this tournament's arbiter",
            Rule::OrganiserOrSelf => "an organiser or the member themselves",
            Rule::Player => "the game's players",
            Rule::Server => "the club server",
        }
    }
}

/// Everything that changes the club's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    /// Add a member.
    AddMember,
    /// Add the members of a CSV file.
    ImportMembers,
    /// Change a member's name, federation id or ratings.
    EditMember,
    /// Change a member's contact.
    EditContact,
    /// Deactivate or reactivate a member.
    SetActive,
    /// Change a member's role.
    SetRole,
    /// Add an SSH key to a member.
    AddKey,
    /// Remove a member's SSH key.
    RemoveKey,
    /// Change the rating settings.
    Settings,
    /// Create a tournament.
    CreateTournament,
    /// Create a tournament from a TRF.
    ImportTrf,
    /// Appoint or remove a tournament's arbiter.
    Arbiter,
    /// Say who confirms the results players report.
    ReportSetting,
    /// Enter members into a tournament.
    Enter,
    /// Withdraw a player.
    Withdraw,
    /// Pair the next round.
    Pair,
    /// Take back the last round's pairing.
    Unpair,
    /// Change the last round's pairing by hand.
    Swap,
    /// Rule out a pairing.
    Forbid,
    /// Mark a player absent or present for a round.
    Absence,
    /// Record or correct a result.
    Result,
    /// Confirm a result a player reported.
    Confirm,
    /// Record games (and their results) from PDN.
    ImportGames,
    /// Write a review into a game's record.
    Annotate,
    /// Report the result of one's own game.
    Report,
    /// Add games to the archive.
    Archive,
    /// Start, adjourn, resume or finish a game on the club server.
    OnlineGame,
    /// Write the moves of the server's games in progress (not audited: the record is the game's).
    OnlineMoves,
}

impl Operation {
    /// Every operation, in the order of the roles table (docs/club.md).
    pub const ALL: [Operation; 28] = [
        Operation::AddMember,
        Operation::ImportMembers,
        Operation::EditMember,
        Operation::EditContact,
        Operation::SetActive,
        Operation::SetRole,
        Operation::AddKey,
        Operation::RemoveKey,
        Operation::Settings,
        Operation::CreateTournament,
        Operation::ImportTrf,
        Operation::Arbiter,
        Operation::ReportSetting,
        Operation::Enter,
        Operation::Withdraw,
        Operation::Pair,
        Operation::Unpair,
        Operation::Swap,
        Operation::Forbid,
        Operation::Absence,
        Operation::Result,
        Operation::Confirm,
        Operation::ImportGames,
        Operation::Annotate,
        Operation::Report,
        Operation::Archive,
        Operation::OnlineGame,
        Operation::OnlineMoves,
    ];

    /// The table: who may perform it.
    pub fn rule(self) -> Rule {
        use Operation::*;
        match self {
            SetRole => Rule::Owner,
            AddMember | ImportMembers | EditMember | SetActive | Settings | CreateTournament
            | ImportTrf | Arbiter | ReportSetting | Enter | Withdraw | Archive => Rule::Organiser,
            EditContact | AddKey | RemoveKey => Rule::OrganiserOrSelf,
            Pair | Unpair | Swap | Forbid | Absence | Result | Confirm | ImportGames | Annotate => {
                Rule::Arbiter
            }
            Report => Rule::Player,
            OnlineGame | OnlineMoves => Rule::Server,
        }
    }

    /// The name the audit records (as the commands name it).
    pub fn name(self) -> &'static str {
        use Operation::*;
        match self {
            AddMember => "member add",
            ImportMembers => "member import",
            EditMember => "member edit",
            EditContact => "member contact",
            SetActive => "member active",
            SetRole => "member role",
            AddKey => "member add-key",
            RemoveKey => "member remove-key",
            Settings => "settings",
            CreateTournament => "tournament create",
            ImportTrf => "tournament import-trf",
            Arbiter => "tournament arbiter",
            ReportSetting => "tournament reports",
            Enter => "tournament enter",
            Withdraw => "tournament withdraw",
            Pair => "tournament pair",
            Unpair => "tournament unpair",
            Swap => "tournament swap",
            Forbid => "tournament forbid",
            Absence => "tournament absent",
            Result => "tournament result",
            Confirm => "tournament confirm",
            ImportGames => "tournament import",
            Annotate => "annotate game",
            Report => "tournament report",
            Archive => "archive import",
            OnlineGame => "online game",
            OnlineMoves => "online moves",
        }
    }

    /// What it does, as the end of "only … can …".
    pub fn doing(self) -> &'static str {
        use Operation::*;
        match self {
            AddMember => "add members",
            ImportMembers => "import members",
            EditMember => "change members' names, federation ids and ratings",
            EditContact => "change a member's contact",
            SetActive => "deactivate or reactivate members",
            SetRole => "change roles",
            AddKey => "add a member's SSH keys",
            RemoveKey => "remove a member's SSH keys",
            Settings => "change the club's settings",
            CreateTournament => "create tournaments",
            ImportTrf => "import tournaments",
            Arbiter => "appoint arbiters",
            ReportSetting => "say who confirms reported results",
            Enter => "enter players",
            Withdraw => "withdraw players",
            Pair => "pair rounds",
            Unpair => "unpair rounds",
            Swap => "change pairings",
            Forbid => "forbid pairings",
            Absence => "mark absences",
            Result => "record results",
            Confirm => "confirm reported results",
            ImportGames => "record games",
            Annotate => "write reviews into the records",
            Report => "report its result",
            Archive => "add games to the archive",
            OnlineGame | OnlineMoves => "record the games played on it",
        }
    }

    /// Whether its changes get an audit row (the moves of a game in progress do not: they are
    /// the game's own record, written ten times a second).
    pub fn audited(self) -> bool {
        self != Operation::OnlineMoves
    }

    /// The operation on no particular tournament, member or game.
    pub fn op(self) -> Op {
        Op {
            operation: self,
            tournament: None,
            member: None,
            game: None,
        }
    }
}

/// An operation and what it concerns: the tournament (for its arbiters), the member (for their
/// own record, and an owner's protection) and the game (for its players).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// What is done.
    pub operation: Operation,
    /// The tournament concerned.
    pub tournament: Option<i64>,
    /// The member concerned.
    pub member: Option<i64>,
    /// The tournament game concerned.
    pub game: Option<i64>,
}

impl Op {
    /// The same operation, concerning a tournament.
    pub fn tournament(self, id: i64) -> Op {
        Op {
            tournament: Some(id),
            ..self
        }
    }

    /// The same operation, concerning a member.
    pub fn member(self, id: i64) -> Op {
        Op {
            member: Some(id),
            ..self
        }
    }

    /// The same operation, concerning a tournament game.
    pub fn game(self, id: i64) -> Op {
        Op {
            game: Some(id),
            ..self
        }
    }
}

/// A member's role, or `None` for no such member; an inactive member has none.
fn role_of(conn: &Connection, id: i64) -> Result<Option<Role>, ClubError> {
    let row: Option<(String, bool)> = conn
        .query_row(
            "SELECT role, active FROM members WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(super::error::db)?;
    match row {
        Some((role, true)) => Ok(Some(role.parse()?)),
        _ => Ok(None),
    }
}

/// Whether a member arbitrates a tournament.
pub(crate) fn arbitrates(
    conn: &Connection,
    member: i64,
    tournament: i64,
) -> Result<bool, ClubError> {
    conn.query_row(
        "SELECT count(*) FROM arbiters WHERE member_id = ?1 AND tournament_id = ?2",
        params![member, tournament],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
    .map_err(super::error::db)
}

/// Whether a member plays in a tournament game.
fn plays(conn: &Connection, member: i64, game: i64) -> Result<bool, ClubError> {
    conn.query_row(
        "SELECT count(*) FROM games WHERE id = ?1 AND (white_id = ?2 OR black_id = ?2)",
        params![game, member],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
    .map_err(super::error::db)
}

/// The role an actor acts with: the owner locally, the member's own on the server, none for the
/// server's referee (which has its own rule), a guest, or a member no longer active.
pub fn acting_role(conn: &Connection, actor: &Actor) -> Result<Option<Role>, ClubError> {
    match actor {
        Actor::Local(_) => Ok(Some(Role::Owner)),
        Actor::Member { id, .. } => role_of(conn, *id),
        Actor::Guest(_) | Actor::Server => Ok(None),
    }
}

/// Checks an operation against the table; the error says who may do it. Reads the database as
/// it is now (called inside the write's transaction).
pub fn check(conn: &Connection, actor: &Actor, op: &Op) -> Result<(), ClubError> {
    let rule = op.operation.rule();
    let denied = || ClubError::Denied(format!("only {} can {}", rule.who(), op.operation.doing()));
    if rule == Rule::Server {
        return if *actor == Actor::Server {
            Ok(())
        } else {
            Err(denied())
        };
    }
    let Some(role) = acting_role(conn, actor)? else {
        return Err(match actor {
            Actor::Member { name, .. } => {
                ClubError::Denied(format!("{name} is not an active member of the club"))
            }
            Actor::Guest(_) => ClubError::Denied("guests do not change the club's records".into()),
            _ => denied(),
        });
    };
    let me = actor.member_id();
    let organiser = role >= Role::Organiser;
    let allowed = match rule {
        Rule::Owner => role == Role::Owner,
        Rule::Organiser => organiser,
        Rule::Arbiter => {
            organiser
                || match (me, op.tournament) {
                    (Some(me), Some(t)) => arbitrates(conn, me, t)?,
                    _ => false,
                }
        }
        Rule::OrganiserOrSelf => organiser || (me.is_some() && me == op.member),
        Rule::Player => match (me, op.game) {
            (Some(me), Some(g)) => plays(conn, me, g)?,
            _ => false,
        },
        Rule::Server => false,
    };
    if !allowed {
        return Err(denied());
    }
    // An owner's membership is in the hands of owners (and their own): an organiser cannot lock
    // the club's administrator out.
    if let Some(target) = op.member
        && role != Role::Owner
        && me != Some(target)
        && role_of(conn, target)? == Some(Role::Owner)
    {
        return Err(ClubError::Denied(format!(
            "only an owner can {} of an owner",
            match op.operation {
                Operation::AddKey | Operation::RemoveKey => "change the SSH keys",
                _ => "change the membership",
            }
        )));
    }
    Ok(())
}

/// Whether the actor may perform the operation now (what the screens offer; the write checks
/// again in its transaction).
pub fn allowed(conn: &Connection, actor: &Actor, op: &Op) -> bool {
    check(conn, actor, op).is_ok()
}

#[cfg(test)]
mod property;
#[cfg(test)]
mod tests;
