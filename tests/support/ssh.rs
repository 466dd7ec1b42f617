//! The club server for end-to-end tests: keys made with ssh-keygen, `draughts serve` on a free
//! loopback port, and the system OpenSSH client in a tmux terminal.
// Each test crate that includes this file uses a part of it.
#![allow(dead_code)]

use super::common::{draughts, stderr};
use super::tmux::Tmux;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Makes an ed25519 key pair without a passphrase at `path` (and `path.pub`).
pub fn keygen(path: &Path) {
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "test", "-f"])
        .arg(path)
        .status()
        .expect("ssh-keygen is installed (openssh-client; .ci/run installs it)");
    assert!(status.success());
}

/// A running `draughts serve`, killed when dropped.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `draughts serve` on a free loopback port with `extra` arguments; its port.
pub fn serve(db: &Path, host_key: &Path, extra: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .arg("--host-key")
        .arg(host_key)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("the server says where it listens");
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_string();
    (Server(child), port)
}

/// The OpenSSH client's arguments for the server at `port` with `key` only, in batch mode.
pub fn ssh_args(port: &str, key: &Path) -> Vec<String> {
    [
        "-p",
        port,
        "-i",
        &key.display().to_string(),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "IdentitiesOnly=yes",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// `ssh -tt` as `user` with `key` in a tmux terminal of `size`; the pane stays after it ends.
pub fn ssh_session(port: &str, key: &Path, user: &str, (width, height): (u16, u16)) -> Tmux {
    let command = format!(
        "ssh -tt {} {user}@127.0.0.1; echo EXITED; sleep 60",
        ssh_args(port, key).join(" ")
    );
    Tmux::start(&command, width, height)
}

/// Adds a member with a new key; the key's path.
pub fn member_with_key(dir: &Path, db: &str, name: &str) -> std::path::PathBuf {
    let key = dir.join(name.to_lowercase());
    keygen(&key);
    let o = draughts(&["club", "--db", db, "member", "add", name]);
    assert!(o.status.success(), "{}", stderr(&o));
    let public = key.with_extension("pub").display().to_string();
    let o = draughts(&["club", "--db", db, "member", "add-key", name, &public]);
    assert!(o.status.success(), "{}", stderr(&o));
    key
}

/// Stops the server with SIGTERM and waits for it to exit cleanly.
pub fn terminate(server: &mut Server) {
    let pid = server.0.id().to_string();
    let sent = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(sent.success());
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Some(status) = server.0.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            return;
        }
        assert!(std::time::Instant::now() < until, "the server did not stop");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
