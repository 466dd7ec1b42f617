//! The frame every page shares: the document head, the site's header and footer, and links that
//! work wherever the site is put (relative to the page, so a folder opened from `file://`, a
//! static host and the live server all follow them).

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// Where a page is: how many folders below the site's root, and its own path.
#[derive(Clone, Copy, Debug)]
pub struct Here<'a> {
    /// Folders below the root (0 for `index.html`, 1 for `tournaments/…`).
    pub depth: usize,
    /// The page's path from the root.
    pub path: &'a str,
}

impl Here<'_> {
    /// A link from this page to `path` (from the root).
    pub fn to(&self, path: &str) -> String {
        format!("{}{path}", "../".repeat(self.depth))
    }
}

/// What every page is given: the site's title and, for a published site, its address.
pub struct Frame<'a> {
    /// The site's title (the club's name).
    pub title: &'a str,
    /// The address the site is published at, for canonical links.
    pub base_url: Option<&'a str>,
    /// The page is served live (it then says so, and watches games in progress).
    pub live: bool,
}

/// A whole page: `title` in the head, `body` in `main`, and `script` (a path from the root) run
/// once the page is read.
pub fn page(frame: &Frame, here: Here, title: &str, body: Markup, script: Option<&str>) -> Markup {
    let canonical = frame
        .base_url
        .map(|b| format!("{}/{}", b.trim_end_matches('/'), here.path));
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) " — " (frame.title) }
                link rel="stylesheet" href=(here.to("assets/site.css"));
                @if let Some(c) = canonical {
                    link rel="canonical" href=(c);
                }
                @if let Some(s) = script {
                    script src=(here.to(s)) defer {}
                }
            }
            body {
                a.skip href="#main" { "Skip to the content" }
                header.site {
                    nav aria-label="Site" {
                        a href=(here.to("index.html")) { (frame.title) }
                        @if frame.live {
                            " · "
                            a href=(here.to("live.html")) { "Games in progress" }
                        }
                    }
                }
                main #main { (body) }
                footer.site {
                    p { "Published by draughts from the club's records." }
                }
            }
        }
    }
}

/// Links to the data a page shows, for download.
pub fn downloads(here: Here, files: &[(&str, String)]) -> Markup {
    html! {
        @if !files.is_empty() {
            p.downloads {
                "Download: "
                @for (i, (label, path)) in files.iter().enumerate() {
                    @if i > 0 { " · " }
                    a href=(here.to(path)) download { (label) }
                }
            }
        }
    }
}

/// A number as the tables write it: `1` or `1.5`, halves as `½` after the whole part.
pub fn points(x: f64) -> String {
    let whole = x.trunc();
    let half = (x - whole - 0.5).abs() < 1e-9;
    match (whole == 0.0, half) {
        (true, true) => "½".into(),
        (false, true) => format!("{whole}½"),
        _ if (x - x.round()).abs() < 1e-9 => format!("{}", x.round()),
        _ => format!("{x:.2}"),
    }
}

/// "international" as a heading writes it.
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Text that is already HTML (a chart or a board drawn by this crate).
pub fn raw(s: String) -> PreEscaped<String> {
    PreEscaped(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_written_as_club_sheets_write_them() {
        assert_eq!(points(0.0), "0");
        assert_eq!(points(0.5), "½");
        assert_eq!(points(3.5), "3½");
        assert_eq!(points(12.0), "12");
        assert_eq!(points(13.25), "13.25");
    }

    #[test]
    fn links_climb_to_the_root() {
        let here = Here {
            depth: 1,
            path: "tournaments/1-cup.html",
        };
        assert_eq!(here.to("assets/site.css"), "../assets/site.css");
    }
}
