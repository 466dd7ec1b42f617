//! The reference pairing engine, bbpPairings, built once per test binary from `../shared/peers`.

#[path = "peers.rs"]
mod peers;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bbpPairings executable, built by the peers' script (once for all the tests here);
/// `None` (with a message) without `../shared/peers`.
pub fn bbp() -> Option<PathBuf> {
    let (_, printed) =
        peers::built("bbpPairings cannot be built; the reference comparisons are not made")?;
    let path = printed
        .lines()
        .find_map(|l| l.strip_prefix("bbpPairings"))
        .map(|p| PathBuf::from(p.trim()))
        .expect("build.sh prints the bbpPairings path");
    assert!(path.exists(), "{} was not built", path.display());
    Some(path)
}

/// Writes a random tournament with bbpPairings' generator (`-g`): `config` is its
/// configuration (PlayersNumber=…, RoundsNumber=…), `seed` its random seed. Returns the TRF.
pub fn generate(bbp: &Path, dir: &Path, config: &str, seed: u64) -> String {
    let config_file = dir.join(format!("config{seed}.txt"));
    std::fs::write(&config_file, config).expect("generator configuration written");
    let out = dir.join(format!("gen{seed}.trf"));
    let o = Command::new(bbp)
        .args(["--dutch", "-g"])
        .arg(&config_file)
        .arg("-o")
        .arg(&out)
        .args(["-s", &seed.to_string()])
        .output()
        .expect("bbpPairings generates");
    assert!(
        o.status.success(),
        "generator: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(&out).expect("generated TRF")
}

/// Asks bbpPairings to pair the round after the last one in `trf` (`-p`): its output and, when
/// it paired, its pairing file (a count line, then `white black` per board, `player 0` for the
/// bye).
pub fn pair(bbp: &Path, trf: &Path) -> (std::process::Output, Option<String>) {
    let out = trf.with_extension("pairs");
    let o = Command::new(bbp)
        .arg("--dutch")
        .arg(trf)
        .arg("-p")
        .arg(&out)
        .output()
        .expect("bbpPairings runs");
    let pairs = o
        .status
        .success()
        .then(|| std::fs::read_to_string(&out).expect("bbpPairings wrote its pairings"));
    (o, pairs)
}
