//! A tmux server of its own for end-to-end tests of the real binary in a real terminal.
// Each test crate that includes this file uses a part of it.
#![allow(dead_code)]

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A tmux server of its own (its own socket), killed when dropped.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    pub fn start(command: &str, width: u16, height: u16) -> Tmux {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let socket = format!("draughts-test-{}-{n}", std::process::id());
        let t = Tmux { socket };
        let status = t
            .cmd()
            .args(["new-session", "-d", "-s", "game", "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .arg(command)
            .status()
            .expect("tmux is installed (apt-get install tmux); .ci/run installs it");
        assert!(status.success(), "tmux new-session failed");
        t
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    pub fn keys(&self, keys: &[&str]) {
        let status = self
            .cmd()
            .args(["send-keys", "-t", "game"])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Types a line and presses Enter.
    pub fn line(&self, text: &str) {
        self.keys(&["-l", text]);
        self.keys(&["Enter"]);
    }

    pub fn screen(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "game"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows `text` (the program is slow to start on a busy machine).
    pub fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

impl Tmux {
    /// Types a line and waits for `text` to appear.
    pub fn line_then(&self, line: &str, text: &str) -> String {
        self.line(line);
        self.wait_for(text)
    }

    /// Gives the window a new size (the program sees a window change).
    pub fn resize(&self, width: u16, height: u16) {
        let status = self
            .cmd()
            .args(["resize-window", "-t", "game", "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .status()
            .expect("tmux resize-window");
        assert!(status.success());
    }
}
