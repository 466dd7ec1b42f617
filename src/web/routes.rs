//! The site, path by path: every path there is, and each one's bytes. `publish` writes every
//! path to a folder; the live server answers a request with the same bytes.

use super::site::{File, Site};
use super::{game, home, member, tournament};
use crate::club::ClubError;
use crate::club::games;
use crate::club::tournament as t;

/// The style sheet every page links to.
const STYLE: &str = include_str!("assets/site.css");
/// The game viewer's script (no build step: the file is served as written).
const VIEWER: &str = include_str!("assets/viewer.js");

impl Site<'_> {
    /// Every path of the site, in a fixed order.
    pub fn paths(&self) -> Result<Vec<String>, ClubError> {
        let mut out: Vec<String> = ["index.html", "ratings.csv", "assets/site.css"]
            .map(String::from)
            .to_vec();
        out.push("assets/viewer.js".into());
        for tour in &self.tournaments {
            let base = Site::tournament_base(tour);
            for ext in [".html", ".pdn", ".trf", "-standings.csv"] {
                out.push(format!("{base}{ext}"));
            }
            let rounds = t::progress(self.store, &tour.id.to_string())?.paired;
            for r in 1..=rounds {
                out.push(format!("{base}-round-{r}.html"));
            }
        }
        for m in self.members.values() {
            let base = Site::member_base(m);
            for ext in [".html", ".pdn", "-ratings.csv"] {
                out.push(format!("{base}{ext}"));
            }
        }
        for name in self.games.keys() {
            out.push(format!("games/{name}.html"));
            out.push(format!("games/{name}.pdn"));
        }
        Ok(out)
    }

    /// The file at `path`, or `None` when the site has no such path.
    pub fn render(&self, path: &str) -> Result<Option<File>, ClubError> {
        let file = |mime: &'static str, bytes: Vec<u8>| {
            Some(File {
                path: path.to_string(),
                mime,
                bytes,
            })
        };
        const HTML: &str = "text/html; charset=utf-8";
        const PDN: &str = "application/x-pdn; charset=utf-8";
        const CSV: &str = "text/csv; charset=utf-8";
        match path {
            "index.html" => return Ok(file(HTML, home::page(self)?.into_string().into_bytes())),
            "ratings.csv" => return Ok(file(CSV, home::ratings_csv(self)?.into_bytes())),
            "assets/site.css" => return Ok(file("text/css; charset=utf-8", STYLE.into())),
            "assets/viewer.js" => {
                return Ok(file("text/javascript; charset=utf-8", VIEWER.into()));
            }
            _ => {}
        }
        if path.starts_with("tournaments/") {
            for tour in &self.tournaments {
                let base = Site::tournament_base(tour);
                let Some(tail) = path.strip_prefix(&base) else {
                    continue;
                };
                let which = tour.id.to_string();
                let bytes = match tail {
                    ".html" => tournament::page(self, tour)?.into_string().into_bytes(),
                    ".pdn" => return Ok(file(PDN, games::export(self.store, &which)?.into())),
                    ".trf" => {
                        let text = crate::club::trf::export(self.store, &which)?;
                        return Ok(file("text/plain; charset=utf-8", text.into()));
                    }
                    "-standings.csv" => {
                        return Ok(file(CSV, t::standings_csv(self.store, &which)?.into()));
                    }
                    _ => {
                        let Some(round) = tail
                            .strip_prefix("-round-")
                            .and_then(|r| r.strip_suffix(".html"))
                            .and_then(|r| r.parse::<u32>().ok())
                        else {
                            continue;
                        };
                        let paired = t::progress(self.store, &which)?.paired;
                        if round == 0 || round > paired {
                            return Ok(None);
                        }
                        tournament::round_page(self, tour, round)?
                            .into_string()
                            .into_bytes()
                    }
                };
                return Ok(file(HTML, bytes));
            }
            return Ok(None);
        }
        if path.starts_with("members/") {
            for m in self.members.values() {
                let base = Site::member_base(m);
                let Some(tail) = path.strip_prefix(&base) else {
                    continue;
                };
                return Ok(match tail {
                    ".html" => file(HTML, member::page(self, m)?.into_string().into_bytes()),
                    ".pdn" => file(PDN, member::games_pdn(self, m)?.into_bytes()),
                    "-ratings.csv" => file(CSV, member::ratings_csv(self, m)?.into_bytes()),
                    _ => continue,
                });
            }
            return Ok(None);
        }
        if let Some(name) = path.strip_prefix("games/") {
            let (name, ext) = match name.rsplit_once('.') {
                Some(split) => split,
                None => return Ok(None),
            };
            let Some(g) = self.games.get(name) else {
                return Ok(None);
            };
            return Ok(match ext {
                "html" => file(HTML, game::page(self, g)?.into_string().into_bytes()),
                "pdn" => file(PDN, self.record(g)?.into_bytes()),
                _ => None,
            });
        }
        Ok(None)
    }
}
