//! User settings kept in a TOML file under the XDG config directory
//! (`~/.config/draughts/config.toml`, or `$DRAUGHTS_CONFIG`).
//!
//! A malformed file is reported and left untouched: the program runs on defaults and does not
//! write settings over it until the user fixes or removes it.

use crate::bounded::{self, BoundedError};
use crate::rules::variant::Variant;
use directories::ProjectDirs;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A colour scheme for the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    /// Brown and beige, like a wooden board.
    #[default]
    Wood,
    /// Green and cream, like a tournament board.
    Green,
    /// Blue and grey.
    Blue,
    /// No colours: shapes and brackets only.
    Mono,
}

impl ThemeName {
    /// All themes, in the order the settings screen cycles through them.
    pub const ALL: [ThemeName; 4] = [
        ThemeName::Wood,
        ThemeName::Green,
        ThemeName::Blue,
        ThemeName::Mono,
    ];

    /// Its name in the config file.
    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Wood => "wood",
            ThemeName::Green => "green",
            ThemeName::Blue => "blue",
            ThemeName::Mono => "mono",
        }
    }
}

/// The settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Board colours.
    pub theme: ThemeName,
    /// ASCII pieces instead of Unicode.
    pub ascii: bool,
    /// Show square numbers on the board.
    pub numbers: bool,
    /// Show the board from Black's side (White's side otherwise; the engine games put the human
    /// at the bottom regardless).
    pub flipped: bool,
    /// The variant a new game starts with.
    #[serde(with = "variant_name")]
    pub variant: Variant,
    /// The clock a new game starts with (`none` for untimed).
    pub clock: String,
    /// Where games are saved; the XDG data directory's `games/` when unset.
    pub games_dir: Option<PathBuf>,
    /// Where tablebases are; `tablebases/<variant>/` when unset.
    pub tablebases: Option<PathBuf>,
    /// End games the tablebases prove drawn, and propose proven wins.
    pub adjudicate: bool,
    /// The engine plays the openings from its book (variety, and time saved for later).
    pub book: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            theme: ThemeName::Wood,
            ascii: false,
            numbers: false,
            flipped: false,
            variant: Variant::International,
            clock: "5m+3s".into(),
            games_dir: None,
            tablebases: None,
            adjudicate: true,
            book: true,
        }
    }
}

mod variant_name {
    use crate::rules::variant::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Everything that can go wrong reading or writing the config file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not valid settings.
    #[error("{}: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and why (line and column included).
        message: String,
    },
}

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "draughts")
}

/// The config file's path: `$DRAUGHTS_CONFIG`, or `config.toml` in the XDG config directory.
pub fn default_path() -> PathBuf {
    if let Some(p) = std::env::var_os("DRAUGHTS_CONFIG") {
        return PathBuf::from(p);
    }
    project().map_or_else(
        || PathBuf::from("draughts.toml"),
        |p| p.config_dir().join("config.toml"),
    )
}

/// The default games directory: `games/` in the XDG data directory.
pub fn default_games_dir() -> PathBuf {
    project().map_or_else(|| PathBuf::from("games"), |p| p.data_dir().join("games"))
}

impl Config {
    /// Reads the settings; a missing file gives the defaults.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = match bounded::read_text(path, bounded::MAX_SETTINGS_FILE, "settings file") {
            Ok(t) => t,
            Err(BoundedError::Io { error: source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(Config::default());
            }
            Err(BoundedError::Io { error: source, .. }) => {
                return Err(ConfigError::Io {
                    path: path.into(),
                    source,
                });
            }
            Err(e) => {
                return Err(ConfigError::Malformed {
                    path: path.into(),
                    message: e.reason(),
                });
            }
        };
        Config::parse(&text).map_err(|message| ConfigError::Malformed {
            path: path.into(),
            message,
        })
    }

    /// Reads settings from the text of a settings file; the error says where and why.
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim().replace('\n', " "))
    }

    /// Writes the settings atomically (temporary file, then rename).
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let io = |source| ConfigError::Io {
            path: path.into(),
            source,
        };
        let text = toml::to_string_pretty(self).map_err(|e| ConfigError::Malformed {
            path: path.into(),
            message: e.to_string(),
        })?;
        write_atomic(path, text.as_bytes()).map_err(io)
    }

    /// The games directory in force.
    pub fn games_dir(&self) -> PathBuf {
        self.games_dir.clone().unwrap_or_else(default_games_dir)
    }

    /// The tablebase directory in force for a variant.
    pub fn tablebase_dir(&self, variant: Variant) -> PathBuf {
        self.tablebases
            .clone()
            .unwrap_or_else(|| crate::tablebase::default_dir(variant))
    }
}

/// Writes a file through a temporary file in the same directory and a rename, creating the
/// directory if needed, so a reader never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        assert_eq!(Config::load(&path).unwrap(), Config::default());
        let c = Config {
            theme: ThemeName::Green,
            ascii: true,
            variant: Variant::Frisian,
            clock: "2h/50, 1h/25 repeating".into(),
            games_dir: Some("/tmp/g".into()),
            ..Config::default()
        };
        c.save(&path).unwrap();
        assert_eq!(Config::load(&path).unwrap(), c);
    }

    #[test]
    fn partial_files_fill_in_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "variant = \"english\"\nnumbers = true\n").unwrap();
        let c = Config::load(&path).unwrap();
        assert_eq!(
            (c.variant, c.numbers, c.ascii),
            (Variant::English, true, false)
        );
    }

    #[test]
    fn malformed_files_say_where_and_stay_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        for bad in [
            "theme = \"purple\"\n",
            "numbers = yes\n",
            "variant = \"chess\"\n",
            "colour = 1\n",
        ] {
            std::fs::write(&path, bad).unwrap();
            let e = Config::load(&path).unwrap_err();
            assert!(matches!(e, ConfigError::Malformed { .. }), "{bad}: {e}");
            assert!(e.to_string().contains("config.toml"), "{e}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
        }
    }
}
