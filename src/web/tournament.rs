//! A tournament's page — standings with its tie-breaks, the crosstable, every round's pairings
//! and results with byes, absences, forfeits and withdrawals marked as the standings count them —
//! and each round's page, for printing and pinning on the club's board.

use super::layout::{Here, downloads, page as frame_page, points};
use super::site::Site;
use crate::club::ClubError;
use crate::club::tournament::{self as t, Outcome, Pairing, Tournament};
use maud::{Markup, html};

/// A result as the round tables write it, in the tournament's scoring.
fn result(p: &Pairing, tour: &Tournament) -> String {
    let (w, d) = (points(tour.scoring.win), points(tour.scoring.draw));
    match (&p.black, p.result, p.forfeit) {
        (None, _, _) => "bye".into(),
        (_, Some(Outcome::WhiteWins), true) => "+ –".into(),
        (_, Some(Outcome::BlackWins), true) => "– +".into(),
        (_, None, true) => "– –".into(),
        (_, Some(Outcome::WhiteWins), false) => format!("{w}–0"),
        (_, Some(Outcome::Draw), _) => format!("{d}–{d}"),
        (_, Some(Outcome::BlackWins), false) => format!("0–{w}"),
        (_, None, false) => String::new(),
    }
}

/// One round's pairings as a table; names link to members, results to recorded games.
fn round_table(
    site: &Site,
    here: Here,
    tour: &Tournament,
    round: u32,
) -> Result<Markup, ClubError> {
    let which = tour.id.to_string();
    let games = t::pairings(site.store, &which, Some(round))?;
    let absent: Vec<String> = t::absences(site.store, &which)?
        .into_iter()
        .filter(|(r, _)| *r == round)
        .map(|(_, n)| n)
        .collect();
    let name = |n: &str| match site.member_page(n) {
        Some(p) => html! { a href=(here.to(&p)) { (n) } },
        None => html! { (n) },
    };
    Ok(html! {
        div.scroll {
            table.pairings data-round=(round) {
                caption { "Round " (round) }
                thead { tr {
                    th scope="col" { "Board" }
                    th scope="col" { "White" }
                    th scope="col" { "Result" }
                    th scope="col" { "Black" }
                } }
                tbody {
                    @for p in &games {
                        tr {
                            td.num { (p.board) }
                            td { (name(&p.white)) }
                            td.result {
                                @match site.game_page(p.id) {
                                    Some(g) => a href=(here.to(&g)) { (result(p, tour)) },
                                    None => (result(p, tour)),
                                }
                            }
                            td {
                                @match &p.black {
                                    Some(b) => (name(b)),
                                    None => "—",
                                }
                            }
                        }
                    }
                }
            }
        }
        @if !absent.is_empty() {
            p.absent { "Absent: " (absent.join(", ")) }
        }
    })
}

/// The standings and crosstable's rows, with withdrawals marked.
fn standings(site: &Site, here: Here, tour: &Tournament) -> Result<Markup, ClubError> {
    let which = tour.id.to_string();
    let table = site.standings(tour.id)?;
    let x = t::crosstable(site.store, &which)?;
    let withdrawn: Vec<String> = site
        .field(tour.id)?
        .iter()
        .filter(|e| e.withdrawn)
        .map(|e| e.name.clone())
        .collect();
    let name = |n: &str| {
        let link = match site.member_page(n) {
            Some(p) => html! { a href=(here.to(&p)) { (n) } },
            None => html! { (n) },
        };
        html! {
            (link)
            @if withdrawn.iter().any(|w| w == n) { " " span.tag { "withdrawn" } }
        }
    };
    Ok(html! {
        section aria-labelledby="standings" {
            h2 #standings { "Standings" }
            div.scroll {
                table #standings-table .standings {
                    thead { tr {
                        th scope="col" { "Place" }
                        th scope="col" { "Name" }
                        th scope="col" { "Points" }
                        th scope="col" { "Games" }
                        @for b in &tour.tiebreaks {
                            th scope="col" { (b.name()) }
                        }
                    } }
                    tbody {
                        @for r in table.iter() {
                            tr {
                                td.num { (r.place) }
                                th scope="row" { (name(&r.name)) }
                                td.num { (points(r.points)) }
                                td.num { (r.played) }
                                @for v in &r.tiebreaks {
                                    td.num { (points(*v)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        section aria-labelledby="crosstable" {
            h2 #crosstable { "Crosstable" }
            div.scroll {
                table #crosstable-table .crosstable {
                    thead { tr {
                        th scope="col" { "#" }
                        th scope="col" { "Name" }
                        @for i in 1..=x.standings.len() {
                            th scope="col" { (i) }
                        }
                        th scope="col" { "Points" }
                    } }
                    tbody {
                        @for (i, r) in x.standings.iter().enumerate() {
                            tr {
                                td.num { (i + 1) }
                                th scope="row" { (name(&r.name)) }
                                @for (j, cell) in x.cells[i].iter().enumerate() {
                                    @if i == j {
                                        td.self { "×" }
                                    } @else {
                                        // Bare cells: a Swiss of 300 has 90,000 of them.
                                        td { (cell.iter().map(|p| points(*p)).collect::<Vec<_>>().join(" ")) }
                                    }
                                }
                                td.num { (points(r.points)) }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// What a tournament is, in one line.
fn facts(tour: &Tournament, progress: t::Progress) -> String {
    let system = match tour.system {
        t::System::RoundRobin => "round robin".to_string(),
        t::System::DoubleRoundRobin => "double round robin".to_string(),
        t::System::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
        t::System::Keizer { rounds: 0 } => "Keizer".to_string(),
        t::System::Keizer { rounds } => format!("Keizer, {rounds} rounds"),
    };
    let state = if progress.finished {
        "finished".to_string()
    } else {
        format!("round {} paired", progress.paired)
    };
    format!(
        "{} · {system} · {} · scoring {}–{}–0 · {} · {state}",
        super::layout::capitalised(tour.variant.name()),
        tour.time_control.as_deref().unwrap_or("no clock"),
        points(tour.scoring.win),
        points(tour.scoring.draw),
        if tour.rated { "rated" } else { "unrated" },
    )
}

/// A tournament's page.
pub fn page(site: &Site, tour: &Tournament) -> Result<Markup, ClubError> {
    let base = Site::tournament_base(tour);
    let path = format!("{base}.html");
    let here = Here {
        depth: 1,
        path: &path,
    };
    let which = tour.id.to_string();
    let progress = t::progress(site.store, &which)?;
    let file = |ext: &str| format!("{base}{ext}");
    let mut rounds = Vec::new();
    for r in (1..=progress.paired).rev() {
        rounds.push((r, round_table(site, here, tour, r)?));
    }
    let body = html! {
        h1 { (tour.name) }
        p.facts { (facts(tour, progress)) }
        (downloads(here, &[
            ("games (PDN)", file(".pdn")),
            ("tournament report (TRF)", file(".trf")),
            ("standings (CSV)", file("-standings.csv")),
        ]))
        @if progress.paired == 0 {
            p { "No round has been paired yet." }
        } @else {
            (standings(site, here, tour)?)
            section aria-labelledby="rounds" {
                h2 #rounds { "Rounds" }
                @for (r, table) in rounds {
                    (table)
                    p.print { a href=(here.to(&file(&format!("-round-{r}.html")))) { "Round " (r) " to print" } }
                }
            }
        }
    };
    Ok(frame_page(&site.frame(), here, &tour.name, body, None))
}

/// A round's page: its pairings and results alone, laid out for the notice board.
pub fn round_page(site: &Site, tour: &Tournament, round: u32) -> Result<Markup, ClubError> {
    let base = Site::tournament_base(tour);
    let path = format!("{base}-round-{round}.html");
    let here = Here {
        depth: 1,
        path: &path,
    };
    let body = html! {
        h1 { (tour.name) ", round " (round) }
        p.back { a href=(here.to(&format!("{base}.html"))) { "The whole tournament" } }
        (downloads(here, &[
            ("games (PDN)", format!("{base}.pdn")),
            ("tournament report (TRF)", format!("{base}.trf")),
        ]))
        (round_table(site, here, tour, round)?)
    };
    Ok(frame_page(
        &site.frame(),
        here,
        &format!("{}, round {round}", tour.name),
        body,
        None,
    ))
}
