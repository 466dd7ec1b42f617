//! The real binary in a real terminal: tmux runs `draughts play`, keys are typed with
//! `send-keys`, the screen is read with `capture-pane`, and the saved PDN is checked.

use draughts::Variant;
use draughts::rules::pdn::{GameResult, read_games};
#[path = "support/tmux.rs"]
mod tmux;
use tmux::Tmux;

/// Runs `draughts <args>` with a settings file, and keeps the pane open after it exits.
fn draughts(config: &std::path::Path, args: &str, width: u16, height: u16) -> Tmux {
    let command = format!(
        "env DRAUGHTS_CONFIG={} {} {args}; echo EXITED; sleep 60",
        config.display(),
        env!("CARGO_BIN_EXE_draughts"),
    );
    Tmux::start(&command, width, height)
}

#[test]
fn play_moves_offer_and_accept_a_draw_and_the_pdn_is_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("games_dir = \"{}\"\nnumbers = true\n", games.display()),
    )
    .expect("config file");
    let command = format!(
        "env LANG=C.UTF-8 TERM=xterm-256color DRAUGHTS_CONFIG={} {} play --variant international --clock 5m+3s; sleep 60",
        config.display(),
        env!("CARGO_BIN_EXE_draughts"),
    );
    let tmux = Tmux::start(&command, 100, 30);
    tmux.wait_for("White to move");
    tmux.wait_for("5m+3s");
    tmux.line("32-28");
    tmux.wait_for("White played 32-28");
    tmux.line("19-23");
    tmux.wait_for("Black played 19-23");
    // White offers a draw and makes the move; the offer stands.
    tmux.line(":draw");
    tmux.wait_for("White offers a draw");
    tmux.line("28x19");
    tmux.wait_for("White played 28x19");
    let screen = tmux.line_then(":accept", "saved to");
    assert!(screen.contains("draw by agreement"), "{screen}");

    let files: Vec<_> = std::fs::read_dir(&games)
        .expect("the games directory was made")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).expect("the saved file");
    let game = read_games(&text, Variant::International)
        .remove(0)
        .expect("the saved PDN reads back");
    assert_eq!(game.result, GameResult::Draw);
    assert_eq!(game.line.moves.len(), 3);
    assert_eq!(game.tag("TimeControl"), Some("5m+3s"));
    assert!(text.contains("[%clock"), "{text}");

    // The saved file opens in the TUI too.
    drop(tmux);
    let args = format!("play --pdn {}", files[0].display());
    let tmux = draughts(&config, &args, 100, 30);
    tmux.wait_for("Loaded 3 moves");
    tmux.keys(&["}"]);
    let screen = tmux.wait_for("Ply 3 of 3");
    assert!(screen.contains("Recorded result: 1-1"), "{screen}");
    tmux.keys(&["q"]);
}

#[test]
fn no_arguments_open_the_home_screen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmux = draughts(&dir.path().join("none.toml"), "", 80, 24);
    tmux.wait_for("New game");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Tournament conditions");
    tmux.keys(&["Enter"]);
    tmux.wait_for("White to move");
    tmux.line(":quit");
    tmux.wait_for("Load game");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED");
}

#[test]
fn a_tiny_terminal_asks_to_be_enlarged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmux = draughts(&dir.path().join("none.toml"), "play", 40, 10);
    tmux.wait_for("enlarge");
}

#[test]
fn a_malformed_settings_file_is_reported_and_left_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "theme = \"plaid\"\n").expect("config file");
    let tmux = draughts(&config, "", 100, 30);
    tmux.wait_for("Settings file problem");
    tmux.keys(&["s"]);
    tmux.wait_for("Theme");
    tmux.keys(&["Enter"]);
    tmux.keys(&["Escape"]);
    tmux.wait_for("New game");
    assert_eq!(
        std::fs::read_to_string(&config).expect("still there"),
        "theme = \"plaid\"\n"
    );
}
