//! The property: random operations by random actors with random roles change the records
//! exactly when the table allows, and every change has its audit row naming its actor. The
//! expectation is the roles table (docs/club.md, "Who may do what") restated here,
//! independently of the code under test.

use super::tests::{audit_rows, casual_game, club, dump, local, member};
use super::*;
use crate::club::audit;
use crate::club::members::{self, MemberFields};
use crate::club::store::Store;
use crate::club::tournament::{self, Confirmation, NewTournament, Outcome, System};
use proptest::prelude::*;

/// What a step tries.
#[derive(Clone, Debug)]
enum Step {
    AddMember(u8),
    Contact(u8),
    Federation(u8),
    Active(u8, bool),
    SetRole(u8, u8),
    AddKey(u8, u8),
    RemoveKey(u8),
    Setting(u8),
    Create(u8),
    Arbiter(u8, u8, bool),
    Enter(u8, u8),
    Withdraw(u8, u8),
    Pair(u8),
    Unpair(u8),
    Swap(u8, u8, u8),
    Forbid(u8, u8, u8),
    Absent(u8, u8, u8),
    Result(u8, u8, u8),
    Report(u8, u8, u8),
    Confirm(u8, u8),
    Reports(u8, bool),
    Archive,
    Online,
}

const PEOPLE: usize = 6;

fn person(i: u8) -> String {
    format!("P{}", i as usize % PEOPLE)
}

fn event(i: u8) -> &'static str {
    ["Open", "Closed"][i as usize % 2]
}

fn step() -> impl Strategy<Value = Step> {
    let n = 0u8..12;
    prop_oneof![
        n.clone().prop_map(Step::AddMember),
        n.clone().prop_map(Step::Contact),
        n.clone().prop_map(Step::Federation),
        (n.clone(), any::<bool>()).prop_map(|(a, b)| Step::Active(a, b)),
        (n.clone(), 0u8..3).prop_map(|(a, b)| Step::SetRole(a, b)),
        (n.clone(), 0u8..3).prop_map(|(a, b)| Step::AddKey(a, b)),
        (0u8..3).prop_map(Step::RemoveKey),
        n.clone().prop_map(Step::Setting),
        n.clone().prop_map(Step::Create),
        (n.clone(), n.clone(), any::<bool>()).prop_map(|(a, b, c)| Step::Arbiter(a, b, c)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::Enter(a, b)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::Withdraw(a, b)),
        n.clone().prop_map(Step::Pair),
        n.clone().prop_map(Step::Pair),
        n.clone().prop_map(Step::Unpair),
        (n.clone(), n.clone(), n.clone()).prop_map(|(a, b, c)| Step::Swap(a, b, c)),
        (n.clone(), n.clone(), n.clone()).prop_map(|(a, b, c)| Step::Forbid(a, b, c)),
        (n.clone(), n.clone(), 1u8..4).prop_map(|(a, b, c)| Step::Absent(a, b, c)),
        (n.clone(), n.clone(), 0u8..3).prop_map(|(a, b, c)| Step::Result(a, b, c)),
        (n.clone(), n.clone(), 0u8..3).prop_map(|(a, b, c)| Step::Result(a, b, c)),
        (n.clone(), n.clone(), 0u8..3).prop_map(|(a, b, c)| Step::Report(a, b, c)),
        (n.clone(), n.clone(), 0u8..3).prop_map(|(a, b, c)| Step::Report(a, b, c)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Step::Confirm(a, b)),
        (n.clone(), any::<bool>()).prop_map(|(a, b)| Step::Reports(a, b)),
        Just(Step::Archive),
        Just(Step::Online),
    ]
}

/// The actors: the local user, the server, a guest, and each person.
fn actor_of(store: &Store, i: u8) -> Actor {
    match i as usize % (PEOPLE + 3) {
        0 => local(),
        1 => Actor::Server,
        2 => Actor::Guest("Guest 1".into()),
        k => member(store, &person((k - 3) as u8)),
    }
}

fn key_text(k: u8) -> String {
    use ssh_key::public::{Ed25519PublicKey, KeyData};
    let key = ssh_key::PublicKey::new(KeyData::Ed25519(Ed25519PublicKey([k + 1; 32])), "test");
    key.to_openssh().unwrap()
}

fn outcome(i: u8) -> Outcome {
    [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][i as usize % 3]
}

/// The last round's games with two players, of a tournament.
fn boards(store: &Store, t: &str) -> Vec<tournament::Pairing> {
    let all = tournament::pairings(store, t, None).unwrap_or_default();
    let last = all.iter().map(|p| p.round).max().unwrap_or(0);
    all.into_iter()
        .filter(|p| p.round == last && p.black.is_some())
        .collect()
}

/// What the model reads of the club: a member's role if active, and who arbitrates what.
struct Facts {
    roles: std::collections::BTreeMap<i64, Role>,
    arbiters: Vec<(i64, i64)>,
}

fn facts(store: &Store) -> Facts {
    let conn = store.conn();
    let mut stmt = conn
        .prepare("SELECT id, role FROM members WHERE active = 1")
        .unwrap();
    let roles = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (id, role) = r.unwrap();
            (id, role.parse().unwrap())
        })
        .collect();
    let mut stmt = conn
        .prepare("SELECT tournament_id, member_id FROM arbiters")
        .unwrap();
    let arbiters = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    Facts { roles, arbiters }
}

/// Who may, by the roles table (docs/club.md, "Who may do what"): the expectation for one step.
fn may(
    facts: &Facts,
    actor: &Actor,
    class: Operation,
    tournament: Option<i64>,
    target: Option<i64>,
    players: &[i64],
) -> bool {
    if class == Operation::OnlineGame {
        return *actor == Actor::Server;
    }
    let (me, role) = match actor {
        Actor::Local(_) => (None, Some(Role::Owner)),
        Actor::Member { id, .. } => (Some(*id), facts.roles.get(id).copied()),
        _ => return false,
    };
    let Some(role) = role else { return false };
    let organiser = matches!(role, Role::Organiser | Role::Owner);
    let arbiter =
        me.is_some_and(|me| tournament.is_some_and(|t| facts.arbiters.contains(&(t, me))));
    let myself = me.is_some() && me == target;
    let allowed = match class {
        Operation::SetRole => role == Role::Owner,
        Operation::EditContact | Operation::AddKey | Operation::RemoveKey => organiser || myself,
        Operation::Pair
        | Operation::Unpair
        | Operation::Swap
        | Operation::Forbid
        | Operation::Absence
        | Operation::Result
        | Operation::Confirm => organiser || arbiter,
        Operation::Report => me.is_some_and(|me| players.contains(&me)),
        _ => organiser,
    };
    let owner_target = target.is_some_and(|t| facts.roles.get(&t) == Some(&Role::Owner));
    allowed && !(owner_target && role != Role::Owner && !myself)
}

fn ok<T>(r: Result<T, ClubError>) -> Result<(), ClubError> {
    r.map(|_| ())
}

/// Runs one step; its operation, whether the table allows it, and the outcome.
fn run(store: &mut Store, actor: &Actor, step: &Step) -> (Operation, bool, Result<(), ClubError>) {
    let id = |s: &Store, p: u8| members::find(s, &person(p)).map(|m| m.id).ok();
    let tid = |s: &Store, t: u8| tournament::find(s, event(t)).map(|t| t.id).ok();
    let facts = facts(store);
    let check = |class, t, target, players: &[i64]| may(&facts, actor, class, t, target, players);
    match step {
        Step::AddMember(n) => {
            let r = members::add(store, actor, &format!("New {n}"), &MemberFields::default());
            (
                Operation::AddMember,
                check(Operation::AddMember, None, None, &[]),
                ok(r),
            )
        }
        Step::Contact(p) => {
            let allowed = check(Operation::EditContact, None, id(store, *p), &[]);
            let fields = MemberFields {
                contact: Some(format!("c{p}@example.org")),
                ..Default::default()
            };
            let r = members::edit(store, actor, &person(*p), &fields);
            (Operation::EditContact, allowed, ok(r))
        }
        Step::Federation(p) => {
            let allowed = check(Operation::EditMember, None, id(store, *p), &[]);
            let fields = MemberFields {
                federation_id: Some(format!("F-{p}")),
                ..Default::default()
            };
            let r = members::edit(store, actor, &person(*p), &fields);
            (Operation::EditMember, allowed, ok(r))
        }
        Step::Active(p, a) => {
            let allowed = check(Operation::SetActive, None, id(store, *p), &[]);
            let r = members::set_active(store, actor, &person(*p), *a);
            (Operation::SetActive, allowed, ok(r))
        }
        Step::SetRole(p, r) => {
            let allowed = check(Operation::SetRole, None, id(store, *p), &[]);
            let role = [Role::Member, Role::Organiser, Role::Owner][*r as usize];
            let r = members::set_role(store, actor, &person(*p), role);
            (Operation::SetRole, allowed, ok(r))
        }
        Step::AddKey(p, k) => {
            let allowed = check(Operation::AddKey, None, id(store, *p), &[]);
            let r = members::add_key(store, actor, &person(*p), &key_text(*k));
            (Operation::AddKey, allowed, ok(r))
        }
        Step::RemoveKey(k) => {
            let print = members::parse_public_key(&key_text(*k))
                .unwrap()
                .fingerprint;
            let owner = members::list(store, true, None)
                .unwrap()
                .into_iter()
                .find(|m| {
                    members::keys(store, &m.id.to_string())
                        .unwrap()
                        .iter()
                        .any(|key| key.fingerprint == print)
                })
                .map(|m| m.id);
            let allowed = owner.is_some() && check(Operation::RemoveKey, None, owner, &[]);
            let r = members::remove_key(store, actor, &print);
            (Operation::RemoveKey, allowed, r)
        }
        Step::Setting(v) => {
            let allowed = check(Operation::Settings, None, None, &[]);
            let value = format!("{}", 10 + v);
            let r = crate::club::ratings::change_setting(store, actor, "k-provisional", &value);
            (Operation::Settings, allowed, r)
        }
        Step::Create(n) => {
            let allowed = check(Operation::CreateTournament, None, None, &[]);
            let name = format!("Cup {n}");
            let r = tournament::create(store, actor, &NewTournament::test(&name));
            (Operation::CreateTournament, allowed, ok(r))
        }
        Step::Arbiter(t, p, remove) => {
            let allowed = check(Operation::Arbiter, tid(store, *t), None, &[]);
            let r = tournament::set_arbiter(store, actor, event(*t), &person(*p), *remove);
            (Operation::Arbiter, allowed, r)
        }
        Step::Enter(t, p) => {
            let allowed = check(Operation::Enter, tid(store, *t), None, &[]);
            let r = tournament::enter(store, actor, event(*t), &[person(*p)]);
            (Operation::Enter, allowed, ok(r))
        }
        Step::Withdraw(t, p) => {
            let allowed = check(Operation::Withdraw, tid(store, *t), None, &[]);
            let r = tournament::withdraw(store, actor, event(*t), &person(*p));
            (Operation::Withdraw, allowed, ok(r))
        }
        Step::Pair(t) => {
            let allowed = check(Operation::Pair, tid(store, *t), None, &[]);
            let r = tournament::pair_next(store, actor, event(*t));
            (Operation::Pair, allowed, ok(r))
        }
        Step::Unpair(t) => {
            let allowed = check(Operation::Unpair, tid(store, *t), None, &[]);
            let r = tournament::unpair(store, actor, event(*t));
            (Operation::Unpair, allowed, ok(r))
        }
        Step::Swap(t, a, b) => {
            let allowed = check(Operation::Swap, tid(store, *t), None, &[]);
            let r = tournament::swap(store, actor, event(*t), &person(*a), Some(&person(*b)));
            (Operation::Swap, allowed, ok(r))
        }
        Step::Forbid(t, a, b) => {
            let allowed = check(Operation::Forbid, tid(store, *t), None, &[]);
            let r = tournament::forbid(store, actor, event(*t), &person(*a), &person(*b));
            (Operation::Forbid, allowed, r)
        }
        Step::Absent(t, p, round) => {
            let allowed = check(Operation::Absence, tid(store, *t), None, &[]);
            let r = tournament::set_absent(
                store,
                actor,
                event(*t),
                &person(*p),
                u32::from(*round),
                true,
            );
            (Operation::Absence, allowed, r)
        }
        Step::Result(t, b, o) | Step::Report(t, b, o) => {
            let games = boards(store, event(*t));
            let report = matches!(step, Step::Report(..));
            let class = if report {
                Operation::Report
            } else {
                Operation::Result
            };
            let Some(g) = games.get(*b as usize % games.len().max(1)) else {
                let r =
                    tournament::record_result(store, actor, event(*t), 1, "P0", "P1", outcome(*o));
                return (class, false, ok(r));
            };
            let pair = [g.white.as_str(), g.black.as_deref().unwrap_or("")];
            let players: Vec<i64> = pair
                .iter()
                .filter_map(|n| members::find(store, n).ok().map(|m| m.id))
                .collect();
            let allowed = check(class, tid(store, *t), None, &players);
            let r = if report {
                tournament::report_result(store, actor, event(*t), g.round, &pair, outcome(*o))
            } else {
                tournament::record_game(store, actor, event(*t), g.round, &pair, outcome(*o), None)
            };
            (class, allowed, ok(r))
        }
        Step::Confirm(t, b) => {
            let games = boards(store, event(*t));
            let allowed = check(Operation::Confirm, tid(store, *t), None, &[]);
            let Some(g) = games.get(*b as usize % games.len().max(1)) else {
                return (
                    Operation::Confirm,
                    false,
                    Err(ClubError::BadInput("no game".into())),
                );
            };
            let pair = [g.white.as_str(), g.black.as_deref().unwrap_or("")];
            let r = tournament::confirm_result(store, actor, event(*t), g.round, &pair);
            (Operation::Confirm, allowed, ok(r))
        }
        Step::Reports(t, opponent) => {
            let allowed = check(Operation::ReportSetting, tid(store, *t), None, &[]);
            let by = if *opponent {
                Confirmation::Opponent
            } else {
                Confirmation::Arbiter
            };
            let r = tournament::set_reports(store, actor, event(*t), by);
            (Operation::ReportSetting, allowed, r)
        }
        Step::Archive => {
            let allowed = check(Operation::Archive, None, None, &[]);
            let text = "[Event \"Elsewhere\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2-0\n";
            let r = crate::club::games::archive_import(
                store,
                actor,
                text,
                crate::rules::variant::Variant::International,
            );
            (Operation::Archive, allowed, ok(r))
        }
        Step::Online => {
            let allowed = check(Operation::OnlineGame, None, None, &[]);
            (
                Operation::OnlineGame,
                allowed,
                ok(casual_game(store, actor)),
            )
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn the_records_change_exactly_when_the_table_allows_and_every_change_is_audited(
        roles in proptest::collection::vec(0u8..3, PEOPLE - 1),
        arbiters in proptest::collection::vec((0u8..2, 0u8..PEOPLE as u8), 0..3),
        steps in proptest::collection::vec((0u8..(PEOPLE as u8 + 3), step()), 1..40),
    ) {
        let (_d, mut s) = club();
        for p in 0..PEOPLE as u8 {
            members::add(&mut s, &local(), &person(p), &MemberFields::default()).unwrap();
        }
        for (p, r) in roles.iter().enumerate() {
            let role = [Role::Member, Role::Organiser, Role::Owner][*r as usize];
            if role != Role::Member {
                members::set_role(&mut s, &local(), &person(p as u8 + 1), role).unwrap();
            }
        }
        let open = NewTournament {
            system: System::Swiss { rounds: 3 },
            ..NewTournament::test("Open")
        };
        tournament::create(&mut s, &local(), &open).unwrap();
        tournament::create(&mut s, &local(), &NewTournament::test("Closed")).unwrap();
        let field: Vec<String> = (1..5).map(person).collect();
        for t in ["Open", "Closed"] {
            tournament::enter(&mut s, &local(), t, &field).unwrap();
            tournament::pair_next(&mut s, &local(), t).unwrap();
        }
        for (t, p) in &arbiters {
            let _ = tournament::set_arbiter(&mut s, &local(), event(*t), &person(*p), false);
        }
        for (who, step) in &steps {
            let actor = actor_of(&s, *who);
            let before = dump(&s);
            let rows = audit_rows(&s);
            let (class, allowed, result) = run(&mut s, &actor, step);
            match &result {
                Ok(()) => {
                    prop_assert!(allowed, "{actor:?} was let {step:?}");
                    let all = audit::all(&s).unwrap();
                    prop_assert_eq!(all.len(), rows + 1, "{:?} by {:?} left no audit row", step, actor);
                    let last = all.last().unwrap();
                    prop_assert_eq!(last.action.as_str(), class.name());
                    prop_assert_eq!(last.actor.as_str(), actor.name());
                    prop_assert_eq!(last.actor_kind.as_str(), actor.kind());
                    prop_assert_eq!(last.actor_id, actor.member_id());
                }
                Err(e) => {
                    prop_assert!(
                        !(allowed && matches!(e, ClubError::Denied(_))),
                        "{actor:?} was refused {step:?}: {e}"
                    );
                    prop_assert_eq!(dump(&s), before, "{:?} by {:?} failed ({}) but changed the records", step, actor, e);
                    prop_assert_eq!(audit_rows(&s), rows);
                }
            }
        }
    }
}
