//! The published site: every page parses as HTML5 without an error, the same club gives the same
//! bytes, nothing private is in it, and the tournament pages mark byes, absences, forfeits and
//! withdrawals as the standings count them.

use super::*;
use crate::club::access::Actor;
use crate::club::members::{self, MemberFields};
use crate::club::tournament::{self as t, NewTournament, Outcome, System};
use html5ever::tendril::TendrilSink;

/// An odd Swiss of five with a bye each round, an absence, a withdrawal (and so a forfeit) and a
/// recorded game; a round robin of four with a reviewed game. Members have contacts and keys,
/// which must not be published.
pub(crate) fn club() -> (tempfile::TempDir, crate::club::Store) {
    let (dir, mut s) = crate::club::store::temporary();
    let me = Actor::local();
    for (i, n) in ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fay"]
        .iter()
        .enumerate()
    {
        let fields = MemberFields {
            contact: Some(format!("{}-secret@example.org", n.to_lowercase())),
            federation_id: Some(format!("FMJD-{}", 100 + i)),
            ratings: vec![
                members::parse_rating(&format!("international={}", 1500 + 20 * i)).unwrap(),
            ],
            ..Default::default()
        };
        members::add(&mut s, &me, n, &fields).unwrap();
    }
    let key = {
        use ssh_key::public::{Ed25519PublicKey, KeyData};
        ssh_key::PublicKey::new(KeyData::Ed25519(Ed25519PublicKey([9; 32])), "ann@home")
            .to_openssh()
            .unwrap()
    };
    members::add_key(&mut s, &me, "Ann", &key).unwrap();
    let swiss = NewTournament {
        system: System::Swiss { rounds: 3 },
        ..NewTournament::test("Club Open")
    };
    t::create(&mut s, &me, &swiss).unwrap();
    let five: Vec<String> = ["Ann", "Bob", "Cor", "Dirk", "Eva"]
        .map(String::from)
        .to_vec();
    t::enter(&mut s, &me, "Club Open", &five).unwrap();
    t::set_absent(&mut s, &me, "Club Open", "Eva", 2, true).unwrap();
    for round in 1..=2 {
        t::pair_next(&mut s, &me, "Club Open").unwrap();
        for p in t::pairings(&s, "Club Open", Some(round)).unwrap() {
            if let Some(b) = &p.black {
                let o =
                    [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][p.board as usize % 3];
                t::record_result(&mut s, &me, "Club Open", round, &p.white, b, o).unwrap();
            }
        }
    }
    t::pair_next(&mut s, &me, "Club Open").unwrap();
    t::withdraw(&mut s, &me, "Club Open", "Dirk").unwrap();
    t::create(&mut s, &me, &NewTournament::test("Autumn")).unwrap();
    let four: Vec<String> = ["Ann", "Bob", "Cor", "Fay"].map(String::from).to_vec();
    t::enter(&mut s, &me, "Autumn", &four).unwrap();
    t::pair_next(&mut s, &me, "Autumn").unwrap();
    let p = t::pairings(&s, "Autumn", Some(1)).unwrap();
    let pdn = format!(
        "[Event \"Autumn\"]\n[Round \"1\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"2-0\"]\n\n\
         1. 32-28 {{[%eval +0.10]}} 19-23?? {{[%eval +1.50] Blunder (+0.10 → +1.50); best 17-21}} \
         2. 28x19 {{[%eval +1.40]}} 14x23 {{[%eval +1.45]}} 2-0\n",
        p[0].white,
        p[0].black.as_deref().unwrap()
    );
    crate::club::games::import(&mut s, &me, "Autumn", &pdn).unwrap();
    (dir, s)
}

fn options() -> Options {
    Options {
        title: "DC Test".into(),
        ..Options::default()
    }
}

/// The HTML5 parse errors of a page, as the parser (html5ever) reports them.
fn parse_errors(html: &str) -> Vec<String> {
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            exact_errors: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), opts)
        .from_utf8()
        .read_from(&mut html.as_bytes())
        .unwrap();
    dom.errors.borrow().iter().map(|e| e.to_string()).collect()
}

#[test]
fn every_page_is_html5_without_a_parse_error() {
    let (_d, s) = club();
    let o = options();
    let site = Site::new(&s, &o).unwrap();
    let mut pages = 0;
    for path in site.paths().unwrap() {
        let file = site
            .render(&path)
            .unwrap()
            .expect("every listed path renders");
        if !path.ends_with(".html") {
            continue;
        }
        pages += 1;
        let text = String::from_utf8(file.bytes).unwrap();
        assert_eq!(parse_errors(&text), Vec::<String>::new(), "{path}");
        assert!(
            text.starts_with("<!DOCTYPE html><html lang=\"en\">"),
            "{path}"
        );
        // Nothing from elsewhere: the site works offline and from file://.
        for outside in ["src=\"http", "href=\"http", "src=\"//", "href=\"//", "url("] {
            assert!(!text.contains(outside), "{path} reaches outside: {outside}");
        }
        // Headings in order: one h1, and no level skipped.
        let levels: Vec<u8> = text
            .match_indices("<h")
            .filter_map(|(i, _)| text[i + 2..].chars().next()?.to_digit(10))
            .map(|d| d as u8)
            .collect();
        assert_eq!(levels.iter().filter(|l| **l == 1).count(), 1, "{path}");
        for w in levels.windows(2) {
            assert!(
                w[1] <= w[0] + 1,
                "{path}: heading h{} after h{}",
                w[1],
                w[0]
            );
        }
    }
    // Home, two tournaments, four rounds, six members, one game.
    assert_eq!(pages, 14);
}

#[test]
fn nothing_private_is_published() {
    let (_d, s) = club();
    let o = options();
    let site = Site::new(&s, &o).unwrap();
    let fingerprint = members::keys(&s, "Ann").unwrap()[0].fingerprint.clone();
    let secrets = [
        "secret@example.org".to_string(),
        fingerprint.clone(),
        fingerprint.trim_start_matches("SHA256:").to_string(),
        "ssh-ed25519".to_string(),
        // Words only the audit holds.
        "member add".to_string(),
        "local user".to_string(),
    ];
    for path in site.paths().unwrap() {
        let bytes = site.render(&path).unwrap().unwrap().bytes;
        let text = String::from_utf8_lossy(&bytes);
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "{path} holds {secret:?}");
        }
    }
}

#[test]
fn the_same_club_gives_the_same_bytes() {
    let (_d, s) = club();
    let o = options();
    let render_all = || {
        let site = Site::new(&s, &o).unwrap();
        site.paths()
            .unwrap()
            .into_iter()
            .map(|p| site.render(&p).unwrap().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(render_all(), render_all());
}

#[test]
fn byes_absences_forfeits_and_withdrawals_are_marked() {
    let (_d, s) = club();
    let o = options();
    let site = Site::new(&s, &o).unwrap();
    let open = t::find(&s, "Club Open").unwrap();
    let page =
        |path: String| String::from_utf8(site.render(&path).unwrap().unwrap().bytes).unwrap();
    let text = page(format!("{}.html", Site::tournament_base(&open)));
    assert!(text.contains(">bye<"), "a bye");
    assert!(text.contains("Absent: Eva"), "Eva's absence in round 2");
    assert!(text.contains("withdrawn"), "Dirk's withdrawal");
    assert!(
        text.contains("+ –") || text.contains("– +"),
        "Dirk's forfeit"
    );
    // A chosen tournament alone: its pages, its players, none of the other's games.
    let only = Options {
        tournaments: vec!["Club Open".into()],
        ..options()
    };
    let site = Site::new(&s, &only).unwrap();
    let paths = site.paths().unwrap();
    assert!(paths.iter().any(|p| p.contains("club-open")));
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("autumn") || p.starts_with("games/"))
    );
}

#[test]
fn a_reviewed_game_shows_its_values_signs_and_graph() {
    let (_d, s) = club();
    let o = options();
    let site = Site::new(&s, &o).unwrap();
    let game = site
        .paths()
        .unwrap()
        .into_iter()
        .find(|p| p.starts_with("games/") && p.ends_with(".html"))
        .unwrap();
    let text = String::from_utf8(site.render(&game).unwrap().unwrap().bytes).unwrap();
    assert!(text.contains("19-23??"), "the sign");
    assert!(text.contains("+1.50"), "the value");
    assert!(text.contains("best 17-21"), "the better move");
    assert!(text.contains("class=\"advantage\""), "the graph");
    assert!(text.contains("#ply=3"), "moves link to their position");
}

#[test]
fn publishing_replaces_a_site_whole_and_only_a_site() {
    let (dir, s) = club();
    let o = options();
    let out = dir.path().join("site");
    let first = publish(&s, &o, &out, |_, _| {}).unwrap();
    assert!(out.join("index.html").is_file() && out.join(publish::MARK).is_file());
    let snapshot = |root: &std::path::Path| {
        let mut files = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                if e.path().is_dir() {
                    stack.push(e.path());
                } else {
                    files.push((
                        e.path().strip_prefix(root).unwrap().to_path_buf(),
                        std::fs::read(e.path()).unwrap(),
                    ));
                }
            }
        }
        files.sort();
        files
    };
    let before = snapshot(&out);
    assert_eq!(before.len(), first.files + 1);
    // A stale half-written folder from a stopped publish is cleared; the site is the same bytes.
    std::fs::create_dir_all(dir.path().join(".site.new-999999/games")).unwrap();
    publish(&s, &o, &out, |_, _| {}).unwrap();
    assert_eq!(snapshot(&out), before);
    assert!(!dir.path().join(".site.new-999999").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".site"))
        .collect();
    assert!(leftovers.is_empty());
    // A folder this program did not write is not replaced.
    let other = dir.path().join("photos");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("holiday.jpg"), b"jpeg").unwrap();
    let e = publish(&s, &o, &other, |_, _| {}).unwrap_err();
    assert!(
        e.to_string().contains("not a site published by draughts"),
        "{e}"
    );
    assert!(other.join("holiday.jpg").is_file());
}

/// The colour a style-sheet block gives a variable (`--fg: #1d1b16;`).
fn variable(block: &str, name: &str) -> [f64; 3] {
    let at = block
        .find(&format!("--{name}:"))
        .unwrap_or_else(|| panic!("--{name}"));
    let hex = block[at..].split('#').nth(1).unwrap();
    let n = u32::from_str_radix(&hex[..6], 16).unwrap();
    [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(|c| f64::from(c) / 255.0)
}

/// WCAG 2's contrast ratio of two colours.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lum = |c: [f64; 3]| {
        let l = c.map(|v| {
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        });
        0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn text_has_enough_contrast_in_light_and_dark() {
    let css = include_str!("assets/site.css");
    let light = &css[css.find(":root {").unwrap()..];
    let dark_at = css.find("prefers-color-scheme: dark").unwrap();
    let dark = &css[dark_at..];
    for (scheme, block) in [("light", light), ("dark", dark)] {
        let bg = variable(block, "bg");
        for (name, least) in [("fg", 7.0), ("muted", 4.5), ("accent", 4.5)] {
            let c = contrast(variable(block, name), bg);
            assert!(
                c >= least,
                "{scheme}: --{name} on --bg is {c:.2}:1, under {least}:1"
            );
            // Striped rows are read too.
            let s = contrast(variable(block, name), variable(block, "stripe"));
            assert!(s >= 4.5, "{scheme}: --{name} on --stripe is {s:.2}:1");
        }
    }
    assert!((contrast([0.0; 3], [1.0; 3]) - 21.0).abs() < 1e-9);
}
