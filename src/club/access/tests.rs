use super::*;
use crate::club::audit;
use crate::club::members::{self, MemberFields};
use crate::club::store::Store;
use crate::club::tournament::{self, Confirmation, NewTournament, Outcome};

pub(super) use crate::club::store::temporary as club;

pub(super) fn local() -> Actor {
    Actor::local()
}

pub(super) fn member(store: &Store, name: &str) -> Actor {
    let m = members::find(store, name).unwrap();
    Actor::Member {
        id: m.id,
        name: m.name,
    }
}

/// Every table but the audit, row by row, as text.
pub(super) fn dump(store: &Store) -> Vec<String> {
    let conn = store.conn();
    let tables: Vec<String> = {
        let mut stmt = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'audit'
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let mut out = Vec::new();
    for t in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {t} ORDER BY rowid"))
            .unwrap();
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                let mut line = format!("{t}:");
                for i in 0..columns {
                    line.push_str(&format!(" {:?}", r.get_ref(i)?));
                }
                Ok(line)
            })
            .unwrap();
        for row in rows {
            out.push(row.unwrap());
        }
    }
    out
}

/// Starts a casual game between two guests on the club server's record, as `actor`.
pub(super) fn casual_game(store: &mut Store, actor: &Actor) -> Result<i64, ClubError> {
    let pdn = crate::rules::pdn::PdnGame::new(crate::rules::board::Position::start(
        crate::rules::variant::Variant::International,
    ));
    let new = crate::club::online::NewGame {
        variant: crate::rules::variant::Variant::International,
        sides: ["A", "B"].map(|n| crate::club::online::Side {
            name: n.into(),
            member: None,
        }),
        rated: false,
        pairing: None,
        pdn: &pdn,
    };
    crate::club::online::start(store, actor, &new)
}

pub(super) fn audit_rows(store: &Store) -> usize {
    audit::all(store).unwrap().len()
}

/// Ann (the owner, added first), Bob and Cor (members), Dirk (organiser); a round robin of Bob,
/// Cor, Dirk and Eva with round 1 paired, and Eva its arbiter; a second tournament.
fn evening() -> (tempfile::TempDir, Store) {
    let (dir, mut s) = club();
    for n in ["Ann", "Bob", "Cor", "Dirk", "Eva"] {
        members::add(&mut s, &local(), n, &MemberFields::default()).unwrap();
    }
    members::set_role(&mut s, &local(), "Dirk", Role::Organiser).unwrap();
    for t in ["Autumn", "Winter"] {
        tournament::create(&mut s, &local(), &NewTournament::test(t)).unwrap();
        let who: Vec<String> = ["Bob", "Cor", "Dirk", "Eva"].map(String::from).to_vec();
        tournament::enter(&mut s, &local(), t, &who).unwrap();
        tournament::pair_next(&mut s, &local(), t).unwrap();
    }
    tournament::set_arbiter(&mut s, &local(), "Autumn", "Eva", false).unwrap();
    (dir, s)
}

#[test]
fn the_first_member_owns_the_club_and_roles_are_the_owners_to_give() {
    let (_d, s) = evening();
    let role = |n: &str| members::find(&s, n).unwrap().role;
    assert_eq!(role("Ann"), Role::Owner);
    assert_eq!(role("Bob"), Role::Member);
    assert_eq!(role("Dirk"), Role::Organiser);
    let (_d, mut s) = evening();
    let dirk = member(&s, "Dirk");
    let e = members::set_role(&mut s, &dirk, "Bob", Role::Organiser).unwrap_err();
    assert_eq!(e.to_string(), "only an owner can change roles");
    let ann = member(&s, "Ann");
    members::set_role(&mut s, &ann, "Bob", Role::Organiser).unwrap();
    assert_eq!(members::find(&s, "Bob").unwrap().role, Role::Organiser);
}

#[test]
fn the_last_owner_is_neither_demoted_nor_deactivated() {
    let (_d, mut s) = evening();
    let before = dump(&s);
    let e = members::set_role(&mut s, &local(), "Ann", Role::Member).unwrap_err();
    assert!(matches!(e, ClubError::Refused(_)), "{e}");
    assert!(e.to_string().contains("last owner"), "{e}");
    let e = members::set_active(&mut s, &local(), "Ann", false).unwrap_err();
    assert!(e.to_string().contains("last owner"), "{e}");
    assert_eq!(dump(&s), before);
    // With a second owner, the first may step down.
    members::set_role(&mut s, &local(), "Dirk", Role::Owner).unwrap();
    members::set_role(&mut s, &local(), "Ann", Role::Member).unwrap();
    let e = members::set_active(&mut s, &local(), "Dirk", false).unwrap_err();
    assert!(e.to_string().contains("last owner"), "{e}");
}

#[test]
fn an_organiser_cannot_lock_out_an_owner() {
    let (_d, mut s) = evening();
    let dirk = member(&s, "Dirk");
    let before = dump(&s);
    let e = members::set_active(&mut s, &dirk, "Ann", false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "only an owner can change the membership of an owner"
    );
    assert_eq!(dump(&s), before);
    // Other members' membership is the organiser's.
    members::set_active(&mut s, &dirk, "Bob", false).unwrap();
}

#[test]
fn a_plain_member_changes_nothing_but_their_own_contact_and_keys() {
    let (_d, mut s) = evening();
    let bob = member(&s, "Bob");
    let before = dump(&s);
    let rows = audit_rows(&s);
    let refusals: Vec<(ClubError, &str)> = vec![
        (
            members::set_active(&mut s, &bob, "Cor", false).unwrap_err(),
            "only an organiser can deactivate or reactivate members",
        ),
        (
            members::add(&mut s, &bob, "Zed", &MemberFields::default()).unwrap_err(),
            "only an organiser can add members",
        ),
        (
            tournament::create(&mut s, &bob, &NewTournament::test("Spring")).unwrap_err(),
            "only an organiser can create tournaments",
        ),
        (
            tournament::unpair(&mut s, &bob, "Autumn").unwrap_err(),
            "only an organiser or this tournament's arbiter can unpair rounds",
        ),
        (
            tournament::record_result(&mut s, &bob, "Autumn", 1, "Bob", "Eva", Outcome::WhiteWins)
                .unwrap_err(),
            "only an organiser or this tournament's arbiter can record results",
        ),
        (
            crate::club::ratings::change_setting(&mut s, &bob, "k-top", "15").unwrap_err(),
            "only an organiser can change the club's settings",
        ),
        (
            members::edit(
                &mut s,
                &bob,
                "Cor",
                &MemberFields {
                    contact: Some("x@example.org".into()),
                    ..Default::default()
                },
            )
            .unwrap_err(),
            "only an organiser or the member themselves can change a member's contact",
        ),
        (
            members::edit(
                &mut s,
                &bob,
                "Bob",
                &MemberFields {
                    name: Some("Robert".into()),
                    ..Default::default()
                },
            )
            .unwrap_err(),
            "only an organiser can change members' names, federation ids and ratings",
        ),
    ];
    for (e, words) in refusals {
        assert!(matches!(e, ClubError::Denied(_)), "{e:?}");
        assert_eq!(e.to_string(), words);
    }
    assert_eq!(dump(&s), before);
    assert_eq!(audit_rows(&s), rows);
    // Their own contact is theirs to change, and the audit names them.
    members::edit(
        &mut s,
        &bob,
        "Bob",
        &MemberFields {
            contact: Some("bob@example.org".into()),
            ..Default::default()
        },
    )
    .unwrap();
    let last = audit::all(&s).unwrap().pop().unwrap();
    assert_eq!(
        (
            last.actor_kind.as_str(),
            last.actor.as_str(),
            last.action.as_str()
        ),
        ("member", "Bob", "member contact")
    );
    assert_eq!(last.actor_id, bob.member_id());
    assert!(last.new.unwrap().contains("contact bob@example.org"));
}

#[test]
fn an_arbiter_runs_their_tournament_only() {
    let (_d, mut s) = evening();
    let eva = member(&s, "Eva");
    let p = tournament::pairings(&s, "Autumn", Some(1)).unwrap();
    let black = p[0].black.clone().unwrap();
    tournament::record_result(
        &mut s,
        &eva,
        "Autumn",
        1,
        &p[0].white,
        &black,
        Outcome::Draw,
    )
    .unwrap();
    tournament::unpair(&mut s, &eva, "Winter").unwrap_err();
    let w = tournament::pairings(&s, "Winter", Some(1)).unwrap();
    let e = tournament::record_result(
        &mut s,
        &eva,
        "Winter",
        1,
        &w[0].white,
        w[0].black.as_deref().unwrap(),
        Outcome::Draw,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "only an organiser or this tournament's arbiter can record results"
    );
    // The appointment is an organiser's, and ends as it began.
    let dirk = member(&s, "Dirk");
    tournament::set_arbiter(&mut s, &eva, "Winter", "Eva", false).unwrap_err();
    tournament::set_arbiter(&mut s, &dirk, "Autumn", "Eva", true).unwrap();
    assert!(tournament::arbiters(&s, "Autumn").unwrap().is_empty());
    tournament::record_result(
        &mut s,
        &eva,
        "Autumn",
        1,
        &p[0].white,
        &black,
        Outcome::WhiteWins,
    )
    .unwrap_err();
}

#[test]
fn a_reported_result_counts_once_confirmed() {
    let (_d, mut s) = evening();
    let p = tournament::pairings(&s, "Autumn", Some(1)).unwrap();
    let (white, black) = (p[0].white.clone(), p[0].black.clone().unwrap());
    let reporter = member(&s, &white);
    let points = |s: &Store| -> Vec<(String, f64)> {
        tournament::standings(s, "Autumn")
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.points))
            .collect()
    };
    let before = points(&s);
    let r = tournament::report_result(
        &mut s,
        &reporter,
        "Autumn",
        1,
        &[&white, &black],
        Outcome::WhiteWins,
    )
    .unwrap();
    assert_eq!(r.result, None);
    assert_eq!(
        r.reported,
        Some(tournament::Report {
            outcome: Outcome::WhiteWins,
            by: white.clone()
        })
    );
    assert_eq!(points(&s), before, "a report does not count");
    // Someone else's game is not theirs to report.
    let other = tournament::pairings(&s, "Autumn", Some(1)).unwrap()[1].clone();
    let e = tournament::report_result(
        &mut s,
        &reporter,
        "Autumn",
        1,
        &[&other.white, other.black.as_deref().unwrap()],
        Outcome::Draw,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "only the game's players can report its result"
    );
    // With the arbiter's confirmation it counts.
    let eva = member(&s, "Eva");
    let bob = member(&s, "Bob");
    tournament::confirm_result(&mut s, &bob, "Autumn", 1, &[&white, &black]).unwrap_err();
    let confirmed =
        tournament::confirm_result(&mut s, &eva, "Autumn", 1, &[&white, &black]).unwrap();
    assert_eq!(
        (confirmed.result, confirmed.reported),
        (Some(Outcome::WhiteWins), None)
    );
    let after = points(&s);
    let won = after.iter().find(|(n, _)| *n == white).unwrap().1;
    assert_eq!(won, 2.0);
    // A recorded result is the arbiter's to correct, not the players'.
    let e = tournament::report_result(
        &mut s,
        &reporter,
        "Autumn",
        1,
        &[&white, &black],
        Outcome::Draw,
    )
    .unwrap_err();
    assert!(e.to_string().contains("ask the arbiter"), "{e}");
}

#[test]
fn the_opponent_may_confirm_where_the_tournament_says_so() {
    let (_d, mut s) = evening();
    tournament::set_reports(&mut s, &local(), "Winter", Confirmation::Opponent).unwrap();
    let p = tournament::pairings(&s, "Winter", Some(1)).unwrap();
    let (white, black) = (p[0].white.clone(), p[0].black.clone().unwrap());
    let (w, b) = (member(&s, &white), member(&s, &black));
    let pair = [white.as_str(), black.as_str()];
    tournament::report_result(&mut s, &w, "Winter", 1, &pair, Outcome::BlackWins).unwrap();
    // A different report is the arbiter's to settle; nothing changes.
    let before = dump(&s);
    let e = tournament::report_result(&mut s, &b, "Winter", 1, &pair, Outcome::Draw).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{white} reported 0-2: the arbiter decides")
    );
    assert_eq!(dump(&s), before);
    let done =
        tournament::report_result(&mut s, &b, "Winter", 1, &pair, Outcome::BlackWins).unwrap();
    assert_eq!(
        (done.result, done.reported),
        (Some(Outcome::BlackWins), None)
    );
    let last = audit::all(&s).unwrap().pop().unwrap();
    assert!(
        last.detail.contains("confirmed by the opponent"),
        "{last:?}"
    );
    assert_eq!(last.actor, black);
}

#[test]
fn the_audit_is_append_only_even_to_sql() {
    let (dir, mut s) = evening();
    members::add(&mut s, &local(), "Fay", &MemberFields::default()).unwrap();
    let rows = audit_rows(&s);
    // The program's own connection writes only through the checked path.
    let e = s
        .conn()
        .execute("UPDATE members SET role = 'owner' WHERE name = 'Bob'", [])
        .unwrap_err();
    assert!(e.to_string().contains("readonly"), "{e}");
    // Any other connection is refused by the table's triggers.
    let raw = rusqlite::Connection::open(dir.path().join("club.sqlite")).unwrap();
    for sql in [
        "UPDATE audit SET actor = 'nobody'",
        "DELETE FROM audit",
        "DELETE FROM audit WHERE id = 1",
    ] {
        let e = raw.execute(sql, []).unwrap_err();
        assert!(e.to_string().contains("append-only"), "{sql}: {e}");
    }
    assert_eq!(audit_rows(&s), rows);
}

#[test]
fn guests_and_the_server_have_their_own_narrow_rights() {
    let (_d, mut s) = evening();
    let e = members::add(
        &mut s,
        &Actor::Guest("Guest 1".into()),
        "Zed",
        &MemberFields::default(),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "guests do not change the club's records");
    let e = members::add(&mut s, &Actor::Server, "Zed", &MemberFields::default()).unwrap_err();
    assert_eq!(e.to_string(), "only an organiser can add members");
    let e = casual_game(&mut s, &local()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "only the club server can record the games played on it"
    );
    casual_game(&mut s, &Actor::Server).unwrap();
}
