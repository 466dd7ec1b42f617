//! The club's home page: the tournaments running and finished, the recent games, and the rating
//! list of each variant.

use super::layout::{Here, capitalised, downloads, page as frame_page};
use super::site::Site;
use crate::club::ClubError;
use crate::club::ratings::DEFAULT_RATING;
use crate::club::tournament as t;
use crate::rules::variant::Variant;
use maud::{Markup, html};

/// How many of the latest recorded games the home page lists.
const RECENT: usize = 20;

/// The rating list of a variant: members (with a page) by rating, highest first, names breaking
/// ties; those without a rating in the variant are left out.
fn rating_list(site: &Site, v: Variant) -> Vec<(String, f64)> {
    let mut list: Vec<(String, f64)> = site
        .members
        .values()
        .filter(|m| m.active)
        .filter_map(|m| m.ratings.get(v.name()).map(|r| (m.name.clone(), *r)))
        .collect();
    list.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list
}

/// The home page.
pub fn page(site: &Site) -> Result<Markup, ClubError> {
    let here = Here {
        depth: 0,
        path: "index.html",
    };
    let mut running = Vec::new();
    let mut finished = Vec::new();
    for tour in &site.tournaments {
        let which = tour.id.to_string();
        let progress = t::progress(site.store, &which)?;
        let players = site.field(tour.id)?.len();
        let row = (tour, progress, players);
        if progress.finished {
            finished.push(row);
        } else {
            running.push(row);
        }
    }
    let mut recent: Vec<_> = site
        .games
        .values()
        .filter(|g| g.tournament_id.is_some())
        .collect();
    recent.sort_by_key(|g| std::cmp::Reverse(g.id));
    recent.truncate(RECENT);
    let table = |rows: &[(&t::Tournament, t::Progress, usize)], caption: &str| {
        html! {
            table.list {
                caption { (caption) }
                thead { tr {
                    th scope="col" { "Tournament" }
                    th scope="col" { "Variant" }
                    th scope="col" { "Rounds" }
                    th scope="col" { "Players" }
                } }
                tbody {
                    @for (tour, progress, players) in rows {
                        tr {
                            th scope="row" {
                                a href=(here.to(&format!("{}.html", Site::tournament_base(tour)))) {
                                    (tour.name)
                                }
                            }
                            td { (tour.variant.name()) }
                            td {
                                (progress.paired)
                                @if let Some(r) = progress.rounds { " of " (r) }
                            }
                            td.num { (players) }
                        }
                    }
                }
            }
        }
    };
    let body = html! {
        h1 { (site.options.title) }
        section aria-labelledby="tournaments" {
            h2 #tournaments { "Tournaments" }
            @if running.is_empty() && finished.is_empty() {
                p { "No tournaments yet." }
            }
            @if !running.is_empty() { div.scroll { (table(&running, "Running")) } }
            @if !finished.is_empty() { div.scroll { (table(&finished, "Finished")) } }
        }
        section aria-labelledby="recent" {
            h2 #recent { "Recent games" }
            @if recent.is_empty() {
                p { "No recorded games yet." }
            } @else {
                ul.games {
                    @for g in &recent {
                        li {
                            a href=(here.to(&format!("games/{}.html", g.id))) {
                                (g.white) " – " (g.black)
                            }
                            " · " (g.tournament) ", round " (g.round)
                        }
                    }
                }
            }
        }
        section aria-labelledby="ratings" {
            h2 #ratings { "Ratings" }
            (downloads(here, &[("ratings (CSV)", "ratings.csv".into())]))
            @for v in Variant::ALL {
                @let list = rating_list(site, v);
                @if !list.is_empty() {
                    h3 { (capitalised(v.name())) }
                    div.scroll {
                        table.list {
                            thead { tr {
                                th scope="col" { "#" }
                                th scope="col" { "Name" }
                                th scope="col" { "Rating" }
                            } }
                            tbody {
                                @for (i, (name, rating)) in list.iter().enumerate() {
                                    tr {
                                        td.num { (i + 1) }
                                        th scope="row" {
                                            @match site.member_page(name) {
                                                Some(p) => a href=(here.to(&p)) { (name) },
                                                None => (name),
                                            }
                                        }
                                        td.num { (format!("{rating:.0}")) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            p.note { "Members without a rating in a variant start at " (DEFAULT_RATING) "." }
        }
    };
    Ok(frame_page(&site.frame(), here, "Home", body, None))
}

/// Every variant's rating list as CSV: variant, place, name, rating.
pub fn ratings_csv(site: &Site) -> Result<String, ClubError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let bad = |e: csv::Error| ClubError::BadInput(e.to_string());
    w.write_record(["variant", "place", "name", "rating"])
        .map_err(bad)?;
    for v in Variant::ALL {
        for (i, (name, rating)) in rating_list(site, v).iter().enumerate() {
            w.write_record([
                v.name().to_string(),
                (i + 1).to_string(),
                name.clone(),
                format!("{rating:.0}"),
            ])
            .map_err(bad)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ClubError::BadInput(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ClubError::BadInput(e.to_string()))
}
