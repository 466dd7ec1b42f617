//! The club screens follow the acting member's role: what is offered, what a key pressed anyway
//! says, and that it changes nothing; what members, arbiters and organisers can do from them.

use super::*;
use crate::club::access::Actor;
use crate::club::members::{self, MemberFields};
use crate::club::tournament::{self as t, NewTournament};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyModifiers;

/// Ann owns the club, Dirk organises it; Bob, Cor and Eva are members; "Cup" is a round robin
/// of Bob, Cor, Dirk and Eva with round 1 paired.
fn club() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.sqlite");
    let mut s = Store::open(&path).unwrap();
    let me = Actor::local();
    for n in ["Ann", "Bob", "Cor", "Dirk", "Eva"] {
        members::add(&mut s, &me, n, &MemberFields::default()).unwrap();
    }
    members::set_role(&mut s, &me, "Dirk", Role::Organiser).unwrap();
    t::create(&mut s, &me, &NewTournament::test("Cup")).unwrap();
    let field: Vec<String> = ["Bob", "Cor", "Dirk", "Eva"].map(String::from).to_vec();
    t::enter(&mut s, &me, "Cup", &field).unwrap();
    t::pair_next(&mut s, &me, "Cup").unwrap();
    (dir, path)
}

fn screen_as(path: &std::path::Path, name: &str) -> ClubScreen {
    let store = Store::open(path).unwrap();
    let m = members::find(&store, name).unwrap();
    ClubScreen::new(
        store,
        Actor::Member {
            id: m.id,
            name: m.name,
        },
    )
}

fn press(c: &mut ClubScreen, code: KeyCode) -> Action {
    c.key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(c: &mut ClubScreen, text: &str) {
    for ch in text.chars() {
        press(c, KeyCode::Char(ch));
    }
    press(c, KeyCode::Enter);
}

fn render(c: &ClubScreen) -> String {
    let mut terminal = Terminal::new(TestBackend::new(140, 30)).unwrap();
    terminal.draw(|f| c.draw(f, f.area(), false)).unwrap();
    crate::tui::screen_text(terminal.backend().buffer())
}

/// The records as the library reads them: members and the audit's length.
fn records(path: &std::path::Path) -> (Vec<Member>, usize, Vec<Pairing>) {
    let s = Store::open(path).unwrap();
    (
        members::list(&s, true, None).unwrap(),
        crate::club::audit::all(&s).unwrap().len(),
        t::pairings(&s, "Cup", None).unwrap(),
    )
}

fn select(c: &mut ClubScreen, name: &str) {
    c.selected = c.members().iter().position(|m| m.name == name).unwrap();
}

#[test]
fn a_member_is_not_offered_what_they_may_not_do_and_pressing_it_changes_nothing() {
    let (_d, path) = club();
    let mut bob = screen_as(&path, "Bob");
    let shown = render(&bob);
    assert!(
        !shown.contains("a adds a member") && !shown.contains("(de)activates"),
        "{shown}"
    );
    // No audit tab for a member: Tab goes round four lists.
    assert!(
        shown.contains("(Tab: Members, Tournaments, Games, Settings)"),
        "{shown}"
    );
    let before = records(&path);
    select(&mut bob, "Ann");
    press(&mut bob, KeyCode::Char('d'));
    assert_eq!(
        bob.message,
        "only an organiser can deactivate or reactivate members"
    );
    press(&mut bob, KeyCode::Char('a'));
    assert!(bob.prompt.is_none());
    assert_eq!(bob.message, "only an organiser can add members");
    press(&mut bob, KeyCode::Char('o'));
    assert_eq!(bob.message, "only an owner can change roles");
    press(&mut bob, KeyCode::Tab);
    press(&mut bob, KeyCode::Char('n'));
    assert!(bob.form.is_none());
    assert_eq!(bob.message, "only an organiser can create tournaments");
    press(&mut bob, KeyCode::Enter);
    let page = render(&bob);
    assert!(
        !page.contains("p pair next") && page.contains("reports your own"),
        "{page}"
    );
    press(&mut bob, KeyCode::Char('p'));
    assert_eq!(
        bob.message,
        "only an organiser or this tournament's arbiter can pair rounds"
    );
    // A board Bob does not play: recording is refused.
    let games = bob.round_games(bob_tournament(&bob), 1);
    let other = games
        .iter()
        .position(|g| g.white != "Bob" && g.black.as_deref() != Some("Bob"))
        .unwrap();
    if let Page::Tournament { id, round, .. } = bob.page {
        bob.page = Page::Tournament {
            id,
            round,
            board: other,
        };
    }
    press(&mut bob, KeyCode::Char('1'));
    assert_eq!(
        bob.message,
        "only an organiser or this tournament's arbiter can record results"
    );
    press(&mut bob, KeyCode::Char('g'));
    assert!(
        bob.message.starts_with("only an organiser"),
        "{}",
        bob.message
    );
    press(&mut bob, KeyCode::Esc);
    press(&mut bob, KeyCode::Tab);
    press(&mut bob, KeyCode::Tab);
    assert_eq!(bob.tab, Tab::Settings);
    press(&mut bob, KeyCode::Char('e'));
    assert_eq!(
        bob.message,
        "only an organiser can change the club's settings"
    );
    let after = records(&path);
    assert_eq!(before.0, after.0);
    assert_eq!(before.1, after.1, "no audit row");
    assert_eq!(
        format!("{:?}", before.2),
        format!("{:?}", after.2),
        "no pairing or result changed"
    );
}

fn bob_tournament(c: &ClubScreen) -> i64 {
    match c.page {
        Page::Tournament { id, .. } => id,
        _ => panic!("a tournament page"),
    }
}

#[test]
fn a_member_edits_their_own_contact_and_keys_and_reports_their_own_result() {
    let (_d, path) = club();
    let mut bob = screen_as(&path, "Bob");
    select(&mut bob, "Bob");
    press(&mut bob, KeyCode::Enter);
    assert!(
        bob.message.contains("e changes the contact"),
        "{}",
        bob.message
    );
    press(&mut bob, KeyCode::Char('e'));
    typed(&mut bob, "bob@example.org");
    assert_eq!(bob.message, "Bob's contact changed");
    press(&mut bob, KeyCode::Char('k'));
    let key = {
        use ssh_key::public::{Ed25519PublicKey, KeyData};
        ssh_key::PublicKey::new(KeyData::Ed25519(Ed25519PublicKey([7; 32])), "bob")
            .to_openssh()
            .unwrap()
    };
    typed(&mut bob, &key);
    assert!(bob.message.starts_with("Added SHA256:"), "{}", bob.message);
    let page = render(&bob);
    assert!(
        page.contains("SSH keys:") && page.contains("SHA256:"),
        "{page}"
    );
    press(&mut bob, KeyCode::Char('x'));
    assert!(
        bob.message.starts_with("Removed SHA256:"),
        "{}",
        bob.message
    );
    // Another member's profile shows no keys and takes no contact from Bob.
    press(&mut bob, KeyCode::Esc);
    select(&mut bob, "Cor");
    press(&mut bob, KeyCode::Enter);
    assert!(!render(&bob).contains("SSH keys:"));
    press(&mut bob, KeyCode::Char('e'));
    assert!(bob.prompt.is_none());
    assert_eq!(
        bob.message,
        "only an organiser or the member themselves can change a member's contact"
    );
    press(&mut bob, KeyCode::Esc);

    // Bob's own board: `1` reports; it shows, and counts only once confirmed.
    press(&mut bob, KeyCode::Tab);
    press(&mut bob, KeyCode::Enter);
    let id = bob_tournament(&bob);
    let games = bob.round_games(id, 1);
    let mine = games
        .iter()
        .position(|g| g.white == "Bob" || g.black.as_deref() == Some("Bob"))
        .unwrap();
    bob.page = Page::Tournament {
        id,
        round: 1,
        board: mine,
    };
    press(&mut bob, KeyCode::Char('='));
    assert!(bob.message.starts_with("Reported"), "{}", bob.message);
    let page = render(&bob);
    assert!(page.contains("½-½? reported by Bob, unconfirmed"), "{page}");
    press(&mut bob, KeyCode::Char('s'));
    let standings = render(&bob);
    assert!(
        standings.contains("unconfirmed, not counted"),
        "{standings}"
    );
    assert!(
        t::standings(&bob.store, "Cup")
            .unwrap()
            .iter()
            .all(|r| r.points == 0.0),
        "a report does not count"
    );
    press(&mut bob, KeyCode::Esc);
    press(&mut bob, KeyCode::Char('c'));
    assert_eq!(
        bob.message,
        "only an organiser or this tournament's arbiter can confirm reported results"
    );
    // The arbiter confirms it.
    t::set_arbiter(&mut bob.store, &Actor::local(), "Cup", "Eva", false).unwrap();
    let mut eva = screen_as(&path, "Eva");
    eva.page = Page::Tournament {
        id,
        round: 1,
        board: mine,
    };
    assert!(render(&eva).contains("c confirms a report"));
    press(&mut eva, KeyCode::Char('c'));
    assert!(eva.message.starts_with("Confirmed"), "{}", eva.message);
    let points: f64 = t::standings(&eva.store, "Cup")
        .unwrap()
        .iter()
        .map(|r| r.points)
        .sum();
    assert_eq!(points, 2.0);
}

#[test]
fn an_organiser_runs_the_club_from_the_screens_and_reads_the_audit() {
    let (_d, path) = club();
    let mut dirk = screen_as(&path, "Dirk");
    assert!(render(&dirk).contains("a adds a member"));
    press(&mut dirk, KeyCode::Char('a'));
    typed(&mut dirk, "Fay");
    assert!(dirk.message.starts_with("Added"), "{}", dirk.message);
    // An owner's membership is not an organiser's to change.
    select(&mut dirk, "Ann");
    press(&mut dirk, KeyCode::Char('d'));
    assert_eq!(
        dirk.message,
        "only an owner can change the membership of an owner"
    );
    // A new tournament through the form; a mistake keeps the form open.
    press(&mut dirk, KeyCode::Tab);
    press(&mut dirk, KeyCode::Char('n'));
    assert!(dirk.form.is_some());
    for ch in "Spring Swiss".chars() {
        press(&mut dirk, KeyCode::Char(ch));
    }
    let form = dirk.form.as_mut().unwrap();
    form.values[1] = "swiss".into();
    form.values[2].clear();
    press(&mut dirk, KeyCode::Enter);
    assert!(dirk.message.contains("rounds"), "{}", dirk.message);
    dirk.form.as_mut().unwrap().values[2] = "5".into();
    press(&mut dirk, KeyCode::Enter);
    assert!(dirk.form.is_none());
    assert!(dirk.message.starts_with("Created"), "{}", dirk.message);
    // A setting changed from the Settings tab.
    press(&mut dirk, KeyCode::Tab);
    press(&mut dirk, KeyCode::Tab);
    assert_eq!(dirk.tab, Tab::Settings);
    dirk.selected = 1;
    press(&mut dirk, KeyCode::Char('e'));
    let prompt = dirk.prompt.as_mut().unwrap();
    prompt.text.clear();
    press(&mut dirk, KeyCode::Char('3'));
    press(&mut dirk, KeyCode::Char('2'));
    press(&mut dirk, KeyCode::Enter);
    assert_eq!(dirk.message, "k-provisional = 32; ratings recomputed");
    // The audit tab names Dirk for each change, newest first.
    press(&mut dirk, KeyCode::Tab);
    assert_eq!(dirk.tab, Tab::Audit);
    let audit = render(&dirk);
    let rows: Vec<&str> = audit.lines().filter(|l| l.contains("Dirk (#4)")).collect();
    assert_eq!(rows.len(), 3, "{audit}");
    assert!(
        rows[0].contains("settings") && rows[0].contains("[40 → 32]"),
        "{audit}"
    );
    assert!(rows[1].contains("tournament create"), "{audit}");
    assert!(rows[2].contains("member add"), "{audit}");
}
