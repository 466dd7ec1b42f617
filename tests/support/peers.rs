//! The reference programs in `../shared/peers`, built by the peers' own script once per test
//! binary: the tests of a binary run at once, and two builds into one folder spoil each other.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The peers' folder and what its build script printed (one "name path" line per program), or
/// `None` when the folder is absent, after saying so: "SKIPPED: … is absent, so {skipped}".
pub fn built(skipped: &str) -> Option<(PathBuf, &'static str)> {
    static BUILT: OnceLock<Option<String>> = OnceLock::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers");
    let printed = BUILT.get_or_init(|| {
        if !dir.join("build.sh").exists() {
            return None;
        }
        let o = Command::new("bash")
            .arg(dir.join("build.sh"))
            .output()
            .expect("bash runs the peers' build script");
        assert!(
            o.status.success(),
            "build.sh failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        Some(String::from_utf8_lossy(&o.stdout).into_owned())
    });
    match printed {
        Some(text) => Some((dir, text.as_str())),
        None => {
            eprintln!("SKIPPED: {} is absent, so {skipped}", dir.display());
            None
        }
    }
}
