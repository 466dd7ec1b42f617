//! `draughts serve` end to end with the system OpenSSH client: a member signs in with their key
//! and uses the club TUI in a real terminal (tmux); an unknown key, commands and a session without
//! a terminal are refused; SIGTERM stops the server.

use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{draughts, stderr, stdout};
#[path = "support/ssh.rs"]
mod ssh;
#[path = "support/tmux.rs"]
mod tmux;
use ssh::{keygen, member_with_key, serve, ssh_args, ssh_session, terminate};

#[test]
fn a_member_signs_in_with_a_key_and_uses_the_club() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let db_text = db.display().to_string();
    let (member_key, stranger_key) = (dir.path().join("ton"), dir.path().join("stranger"));
    keygen(&member_key);
    keygen(&stranger_key);
    let o = draughts(&["club", "--db", &db_text, "member", "add", "Ton Sijbrands"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let public = member_key.with_extension("pub").display().to_string();
    let o = draughts(&[
        "club",
        "--db",
        &db_text,
        "member",
        "add-key",
        "Ton Sijbrands",
        &public,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let host_key = dir.path().join("host_key");
    let (server, port) = serve(&db, &host_key, &[]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&host_key)
            .expect("host key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // The member, in a real terminal: home screen, the club's members, a game, a resize, quit.
    let tmux = ssh_session(&port, &member_key, "ton", (100, 30));
    // A session starts in the lobby; q goes to the home screen.
    tmux.wait_for("Club lobby — Ton Sijbrands");
    tmux.keys(&["q"]);
    tmux.wait_for("New game");
    tmux.keys(&["c"]);
    let screen = tmux.wait_for("Ton Sijbrands");
    assert!(screen.contains("Members"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Lobby");
    // Files on the server are out of reach.
    tmux.keys(&["s"]);
    tmux.wait_for("Not available over SSH");
    tmux.keys(&["n"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("White to move");
    tmux.line("32-28");
    tmux.wait_for("White played 32-28");
    tmux.resize(140, 45);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        // The game panel's right border moves out to the new width.
        let wide = tmux.screen();
        if wide
            .lines()
            .any(|l| l.trim_end().ends_with('┐') && l.chars().count() > 110)
        {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the screen never followed the new size:\n{wide}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    tmux.keys(&["q"]);
    tmux.wait_for("New game");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED");

    // An unknown key is refused; so are commands and sessions without a terminal.
    let mut stranger = Command::new("ssh");
    stranger
        .args(ssh_args(&port, &stranger_key))
        .args(["x@127.0.0.1", "true"]);
    let o = stranger.output().expect("ssh runs");
    assert_eq!(o.status.code(), Some(255));
    assert!(stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    let o = Command::new("ssh")
        .args(ssh_args(&port, &member_key))
        .args(["ton@127.0.0.1", "cat /etc/passwd"])
        .output()
        .expect("ssh runs");
    assert!(!o.status.success());
    assert!(!stdout(&o).contains("root:"), "{}", stdout(&o));
    let o = Command::new("ssh")
        .arg("-T")
        .args(ssh_args(&port, &member_key))
        .arg("ton@127.0.0.1")
        .stdin(Stdio::null())
        .output()
        .expect("ssh runs");
    assert!(!o.status.success());

    // SIGTERM stops the server cleanly.
    let mut server = server;
    terminate(&mut server);
}

#[test]
fn guests_play_casual_games_and_one_address_has_a_connection_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let stranger = dir.path().join("stranger");
    keygen(&stranger);
    let log = dir.path().join("serve.log");
    let log_text = log.display().to_string();
    let (_server, port) = serve(
        &db,
        &dir.path().join("host_key"),
        &["--guests", "--per-ip", "2", "--log", &log_text],
    );
    let tmux = ssh_session(&port, &stranger, "visitor", (100, 30));
    tmux.wait_for("Club lobby — Guest 1");
    tmux.keys(&["q"]);
    tmux.keys(&["c"]);
    tmux.wait_for("guests play casual games");
    // A second guest from the same address comes in and is seen online; a third connection is
    // refused.
    let other = ssh_session(&port, &stranger, "visitor", (100, 30));
    other.wait_for("Club lobby — Guest 2");
    // The home screen shows who is online beside its notice. (No Escape here: on the home
    // screen a lone Esc, once the terminal's pause has passed, quits.)
    tmux.wait_for("2 online");
    tmux.keys(&["o"]);
    let list = tmux.wait_for("Guest 2 (guest)");
    assert!(
        list.contains("Guest 1 (guest)") && list.contains("at the home screen"),
        "{list}"
    );
    // Any key closes the overlay; a letter, so that nothing waits to be read as Alt+key.
    tmux.keys(&["x"]);
    let third = Command::new("ssh")
        .args(ssh_args(&port, &stranger))
        .args(["visitor@127.0.0.1", "true"])
        .output()
        .expect("ssh runs");
    assert_eq!(third.status.code(), Some(255), "{}", stderr(&third));
    other.keys(&["q"]);
    other.wait_for("New game");
    other.keys(&["q"]);
    other.wait_for("EXITED");
    tmux.wait_for("1 online");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED");
    let text = std::fs::read_to_string(&log).expect("the log file");
    assert!(text.contains("let in as Guest 1"), "{text}");
    assert!(text.contains("more than 2 connections"), "{text}");
}

fn online_games(db: &Path) -> Vec<draughts::club::online::OnlineGame> {
    let store = draughts::club::Store::open(db).expect("the club database");
    draughts::club::online::list(&store, false).expect("online games")
}

/// The online games once `written` holds: the server writes a move to the club database a
/// moment after the terminals show it (its referee writes all games' moves together).
fn online_games_once(
    db: &Path,
    what: &str,
    written: impl Fn(&[draughts::club::online::OnlineGame]) -> bool,
) -> Vec<draughts::club::online::OnlineGame> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let games = online_games(db);
        if written(&games) {
            return games;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not written within 10 s: {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn moves_of(game: &draughts::club::online::OnlineGame) -> usize {
    game.record().expect("the record").line.moves.len()
}

#[test]
fn two_members_play_a_rated_game_over_ssh_through_a_dropped_connection() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let db_text = db.display().to_string();
    let ton = member_with_key(dir.path(), &db_text, "Ton");
    let anna = member_with_key(dir.path(), &db_text, "Anna");
    let (_server, port) = serve(
        &db,
        &dir.path().join("host_key"),
        &["--reconnect-seconds", "60"],
    );
    let session = |key: &Path, user: &str| ssh_session(&port, key, user, (110, 32));
    let t = session(&ton, "ton");
    t.wait_for("Club lobby — Ton");
    let a = session(&anna, "anna");
    a.wait_for("Club lobby — Anna");
    t.wait_for("2 online");

    // Ton challenges Anna: rated, 5 minutes + 2 s, Ton with White.
    t.keys(&["c"]);
    t.wait_for("New challenge");
    t.keys(&["Down"]);
    for _ in 0..8 {
        t.keys(&["BSpace"]);
    }
    t.line("5m+2s");
    t.keys(&["Down", "Right", "Down"]);
    t.line("Anna");
    t.keys(&["Enter"]);
    t.wait_for("Challenge up: Ton → Anna");
    let lobby = a.wait_for("← to you");
    assert!(lobby.contains("rated · Ton plays White"), "{lobby}");
    a.keys(&["Enter"]);
    t.wait_for("you play White");
    a.wait_for("Both players are at the board");

    t.line("32-28");
    a.wait_for("White played 32-28");
    a.line("19-23");
    t.wait_for("Black played 19-23");
    let games = online_games_once(&db, "moves are written as they are played", |g| {
        g.len() == 1 && moves_of(&g[0]) == 2
    });
    assert_eq!(games.len(), 1);

    // Anna's connection drops: Ton is told, and the game waits for her.
    drop(a);
    t.wait_for("Anna (Black) has left: forfeit in");
    let a = session(&anna, "anna");
    // Back in, she is put straight into the game.
    a.wait_for("you play Black");
    a.wait_for("19-23");
    t.wait_for("Both players are at the board");
    t.line("28x19");
    a.wait_for("White played 28x19");

    a.line(":resign");
    a.wait_for("Black resigned");
    t.wait_for("Black resigned");
    let games = online_games_once(&db, "the result", |g| {
        g[0].status == draughts::club::online::Status::Finished
    });
    let game = &games[0];
    let record = game.record().expect("the record");
    assert_eq!(record.line.moves.len(), 3);
    assert_eq!(record.tag("White"), Some("Ton"));
    assert_eq!(record.tag("Black"), Some("Anna"));
    assert_eq!(record.tag("TimeControl"), Some("5m+2s"));
    let pdn = draughts(&[
        "club",
        "--db",
        &db_text,
        "online",
        "--pdn",
        &game.id.to_string(),
    ]);
    let text = stdout(&pdn);
    assert!(
        text.contains("1. 32-28") && text.contains("19-23") && text.contains("2. 28x19"),
        "{text}"
    );
    assert!(
        text.contains("[Termination \"White wins (resignation)"),
        "{text}"
    );
    assert!(stdout(&pdn).contains("2-0"), "{}", stdout(&pdn));
    let list = draughts(&["club", "--db", &db_text, "online"]);
    assert!(
        stdout(&list).contains("Ton – Anna  2-0  3 plies  rated"),
        "{}",
        stdout(&list)
    );
    let ratings = draughts(&["club", "--db", &db_text, "rating", "history", "Ton"]);
    assert!(
        stdout(&ratings).contains("Anna"),
        "{}{}",
        stdout(&ratings),
        stderr(&ratings)
    );

    // Both go back to the lobby; the server's log has the game's start and end.
    t.line(":q");
    t.wait_for("Club lobby — Ton");
    let log = std::fs::read_to_string(dir.path().join("draughts-serve.log")).expect("the log");
    assert!(
        log.contains("game started: Ton – Anna, international, rated"),
        "{log}"
    );
    assert!(
        log.contains("Ton – Anna: White wins (resignation)"),
        "{log}"
    );
}

#[test]
fn a_game_in_progress_survives_a_server_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.sqlite");
    let db_text = db.display().to_string();
    let host_key = dir.path().join("host_key");
    let ton = member_with_key(dir.path(), &db_text, "Ton");
    let anna = member_with_key(dir.path(), &db_text, "Anna");
    let session = |port: &str, key: &Path, user: &str| ssh_session(port, key, user, (110, 32));
    let (mut server, port) = serve(&db, &host_key, &[]);
    let t = session(&port, &ton, "ton");
    t.wait_for("Club lobby — Ton");
    // An open challenge with the default settings (10m+5s, rated), taken by Anna.
    t.keys(&["c"]);
    t.wait_for("New challenge");
    t.keys(&["Up", "Enter"]);
    t.wait_for("Challenge up");
    let a = session(&port, &anna, "anna");
    a.wait_for("Ton → anyone");
    a.keys(&["Enter"]);
    a.wait_for("Both players are at the board");
    let white_is_ton = t.wait_for("you play").contains("you play White");
    let (white, black) = if white_is_ton { (&t, &a) } else { (&a, &t) };
    white.line("32-28");
    black.wait_for("White played 32-28");

    terminate(&mut server);
    t.wait_for("EXITED");
    a.wait_for("EXITED");
    let games = online_games(&db);
    assert_eq!(games[0].status, draughts::club::online::Status::Playing);
    assert_eq!(games[0].record().expect("record").line.moves.len(), 1);

    let (_server, port) = serve(&db, &host_key, &[]);
    let t = session(&port, &ton, "ton");
    t.wait_for("The clock starts when both players are at the board");
    let a = session(&port, &anna, "anna");
    a.wait_for("you play");
    t.wait_for("Both players are at the board");
    let (white, black) = if white_is_ton { (&t, &a) } else { (&a, &t) };
    black.wait_for("32-28");
    black.line("19-23");
    white.wait_for("Black played 19-23");
    online_games_once(&db, "the move after the restart", |g| moves_of(&g[0]) == 2);
}
