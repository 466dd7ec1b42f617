//! A member's page: their ratings with each variant's history as a chart, the tournaments they
//! played and their recorded games. Only what a club makes public: no contact, no keys.

use super::chart;
use super::layout::{Here, downloads, page as frame_page, points};
use super::site::Site;
use crate::club::ClubError;
use crate::club::members::Member;
use crate::club::ratings;
use crate::rules::variant::Variant;
use maud::{Markup, html};

/// A member's page.
pub fn page(site: &Site, m: &Member) -> Result<Markup, ClubError> {
    let base = Site::member_base(m);
    let path = format!("{base}.html");
    let here = Here {
        depth: 1,
        path: &path,
    };
    let mut charts = Vec::new();
    for v in Variant::ALL {
        let history = ratings::history(site.store, m.id, v)?;
        let Some(first) = history.first() else {
            continue;
        };
        let mut points = vec![(0.0, first.before)];
        points.extend(
            history
                .iter()
                .enumerate()
                .map(|(i, h)| ((i + 1) as f64, h.after)),
        );
        charts.push((v, history.len(), points));
    }
    let mut played = Vec::new();
    for tour in &site.tournaments {
        if !site.field(tour.id)?.iter().any(|e| e.member == m.id) {
            continue;
        }
        let row = site
            .standings(tour.id)?
            .iter()
            .find(|r| r.name == m.name)
            .cloned();
        played.push((tour, row));
    }
    let games: Vec<_> = site
        .games
        .iter()
        .filter(|(_, g)| g.white == m.name || g.black == m.name)
        .collect();
    let body = html! {
        h1 { (m.name) }
        @if let Some(id) = &m.federation_id {
            p.facts { "Federation id " (id) }
        }
        (downloads(here, &[
            ("games (PDN)", format!("{base}.pdn")),
            ("rating history (CSV)", format!("{base}-ratings.csv")),
        ]))
        section aria-labelledby="ratings" {
            h2 #ratings { "Ratings" }
            @if m.ratings.is_empty() {
                p { "No rating yet." }
            } @else {
                ul {
                    @for (v, r) in &m.ratings {
                        li { (super::layout::capitalised(v)) ": " (format!("{r:.0}")) }
                    }
                }
            }
            @for (v, n, points) in &charts {
                figure {
                    (chart::line(points, &format!("{} rating over {n} rated games", v.name()), None))
                    figcaption { (super::layout::capitalised(v.name())) " rating after each of " (n) " rated games" }
                }
            }
        }
        section aria-labelledby="tournaments" {
            h2 #tournaments { "Tournaments" }
            @if played.is_empty() {
                p { "None published." }
            } @else {
                ul {
                    @for (tour, row) in &played {
                        li {
                            a href=(here.to(&format!("{}.html", Site::tournament_base(tour)))) { (tour.name) }
                            @if let Some(r) = row {
                                ": place " (r.place) ", " (points(r.points)) " points from " (r.played)
                                @if r.played == 1 { " game" } @else { " games" }
                            }
                        }
                    }
                }
            }
        }
        section aria-labelledby="games" {
            h2 #games { "Games" }
            @if games.is_empty() {
                p { "No recorded games." }
            } @else {
                ul.games {
                    @for (name, g) in &games {
                        li {
                            a href=(here.to(&format!("games/{name}.html"))) { (g.white) " – " (g.black) }
                            " · " (g.tournament)
                            @if g.round > 0 { ", round " (g.round) }
                        }
                    }
                }
            }
        }
    };
    Ok(frame_page(&site.frame(), here, &m.name, body, None))
}

/// The member's recorded games as one PDN text.
pub fn games_pdn(site: &Site, m: &Member) -> Result<String, ClubError> {
    let mut out = String::new();
    for g in site.games.values() {
        if g.white == m.name || g.black == m.name {
            out.push_str(&site.record(g)?);
        }
    }
    Ok(out)
}

/// The member's rated games with the rating before and after, as CSV.
pub fn ratings_csv(site: &Site, m: &Member) -> Result<String, ClubError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let bad = |e: csv::Error| ClubError::BadInput(e.to_string());
    w.write_record([
        "variant",
        "tournament",
        "round",
        "opponent",
        "score",
        "before",
        "after",
    ])
    .map_err(bad)?;
    for v in Variant::ALL {
        for h in ratings::history(site.store, m.id, v)? {
            w.write_record([
                v.name().to_string(),
                h.tournament,
                h.round.to_string(),
                h.opponent,
                h.score.to_string(),
                format!("{:.1}", h.before),
                format!("{:.1}", h.after),
            ])
            .map_err(bad)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ClubError::BadInput(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ClubError::BadInput(e.to_string()))
}
