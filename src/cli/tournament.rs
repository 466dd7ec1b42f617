//! `draughts club tournament`: create, enter, pair, enter results, standings, TRF and PDN.

use super::output::OutputArgs;
use anyhow::Result;
use clap::Subcommand;
use draughts::bounded;
use draughts::club::access::Actor;
use draughts::club::tournament::{self, NewTournament};
use draughts::club::{self, Store};
use draughts::rules::pdn;
use std::path::PathBuf;

/// The `club tournament` commands.
#[derive(Subcommand)]
pub(crate) enum TournamentCommand {
    /// Create a tournament.
    Create {
        /// Its name.
        name: String,
        /// round-robin, double-round-robin or swiss.
        #[arg(long, default_value = "round-robin")]
        system: String,
        /// Rounds of a Swiss.
        #[arg(long)]
        rounds: Option<u32>,
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Time control (the clock syntax, e.g. 80m+1m).
        #[arg(long)]
        tc: Option<String>,
        /// 2-1-0 (FMJD) or 1-0.5-0.
        #[arg(long, default_value = "2-1-0")]
        scoring: String,
        /// Casual: the games do not count for ratings.
        #[arg(long)]
        unrated: bool,
        /// Tie-breaks after points, in order: sb, buchholz, buchholz-cut1, median-buchholz,
        /// wins, direct, aro, performance.
        #[arg(long, default_value = "sb,wins")]
        tiebreaks: String,
        /// Who confirms the results players report on the club server: arbiter (the
        /// tournament's arbiter or an organiser) or opponent (also the opponent, reporting the
        /// same result).
        #[arg(long, default_value = "arbiter", value_name = "arbiter|opponent")]
        reports: String,
    },
    /// Appoint a member arbiter of a tournament (pairings, results, corrections, absences,
    /// swaps and forbidden pairs of that tournament), or remove them with --remove.
    Arbiter {
        /// Name or id.
        tournament: String,
        /// The member, by name or id.
        member: String,
        /// End the appointment.
        #[arg(long)]
        remove: bool,
    },
    /// List a tournament's arbiters.
    Arbiters {
        /// Name or id.
        tournament: String,
    },
    /// Say who confirms the results players report: arbiter, or opponent.
    Reports {
        /// Name or id.
        tournament: String,
        /// arbiter or opponent.
        #[arg(value_name = "arbiter|opponent")]
        by: String,
    },
    /// Confirm the result a player reported: <white> <black>.
    Confirm {
        /// Name or id.
        tournament: String,
        /// The round.
        #[arg(long)]
        round: u32,
        /// White's name or id.
        white: String,
        /// Black's name or id.
        black: String,
    },
    /// List tournaments.
    List {
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// Show a tournament's pairings and results, round by round.
    Show {
        /// Name or id.
        tournament: String,
        /// Only this round.
        #[arg(long)]
        round: Option<u32>,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// Enter members (by name or id) before the first round.
    Enter {
        /// Name or id.
        tournament: String,
        /// Members, by name or id.
        #[arg(required = true)]
        members: Vec<String>,
    },
    /// Write the tournament to standard output: every game as one PDN file, or a FIDE TRF.
    Export {
        /// Name or id.
        tournament: String,
        /// pdn or trf.
        #[arg(long, default_value = "pdn")]
        format: String,
    },
    /// Record games from a PDN file (matched to pairings by their Round, White and Black tags).
    Import {
        /// Name or id.
        tournament: String,
        /// The PDN file.
        file: PathBuf,
    },
    /// Rule out a pairing of two players (Swiss).
    Forbid {
        /// Name or id.
        tournament: String,
        /// One player.
        a: String,
        /// The other.
        b: String,
    },
    /// Mark a player absent for a Swiss round not yet paired (not paired, no points).
    Absent {
        /// Name or id.
        tournament: String,
        /// The player.
        member: String,
        /// The round.
        #[arg(long)]
        round: u32,
        /// Present after all.
        #[arg(long)]
        undo: bool,
    },
    /// Override the last round's pairing before it starts: two players change places, or with
    /// one player their game's colours are reversed.
    Swap {
        /// Name or id.
        tournament: String,
        /// A player.
        a: String,
        /// The player to change places with (none: reverse a's colours).
        b: Option<String>,
    },
    /// Check a Swiss round's pairings (the last paired round by default) against the FIDE Dutch
    /// system's absolute criteria, colour rules and quality criteria (held against its own
    /// pairing of the same players); exit code 1 when an absolute one is broken.
    Check {
        /// Name or id.
        tournament: String,
        /// The round to check.
        #[arg(long)]
        round: Option<u32>,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// Take back the last round's pairing while none of its games has a result.
    Unpair {
        /// Name or id.
        tournament: String,
    },
    /// Create a tournament from a FIDE TRF file (players matched to members by name).
    ImportTrf {
        /// The TRF file.
        file: PathBuf,
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
    },
    /// Pair the next round of a FIDE TRF file by the Dutch system, without importing it (the
    /// round after the last one played; entries in that round's column are players sitting it
    /// out).
    PairTrf {
        /// The TRF file.
        file: PathBuf,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
        /// The pairing file of the reference pairing programs: the number of boards, then
        /// `white black` starting ranks per line, the bye as `rank 0`.
        #[arg(long, conflicts_with = "json")]
        numbers: bool,
    },
    /// Withdraw a player: their unplayed games are lost by forfeit.
    Withdraw {
        /// Name or id.
        tournament: String,
        /// The player, by name or id.
        member: String,
    },
    /// Pair the next round (refused while the previous one has missing results).
    Pair {
        /// Name or id.
        tournament: String,
    },
    /// Record or correct a result: <white> <result> <black>, result as 2-0, 1-1, 0-2.
    Result {
        /// Name or id.
        tournament: String,
        /// The round.
        #[arg(long)]
        round: u32,
        /// White's name or id.
        white: String,
        /// 2-0, 1-1, 0-2 (or 1-0, 1/2-1/2, 0-1).
        result: String,
        /// Black's name or id.
        black: String,
    },
    /// The crosstable: each player's points against each other player, in standings order.
    Crosstable {
        /// Name or id.
        tournament: String,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// The standings: points, then the tournament's tie-breaks.
    Standings {
        /// Name or id.
        tournament: String,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// Runs a tournament command on the club database as `actor`.
pub(crate) fn run(store: &mut Store, actor: &Actor, command: TournamentCommand) -> Result<()> {
    match command {
        TournamentCommand::Create {
            name,
            system,
            variant,
            tc,
            scoring,
            unrated,
            tiebreaks,
            rounds,
            reports,
        } => {
            let id = tournament::create(
                store,
                actor,
                &NewTournament {
                    name: &name,
                    system: tournament::System::parse(&system, rounds)?,
                    variant: variant.parse()?,
                    time_control: tc.as_deref(),
                    scoring: scoring.parse()?,
                    rated: !unrated,
                    tiebreaks: tournament::parse_tiebreaks(&tiebreaks)?,
                    reports: reports.parse()?,
                },
            )?;
            outln!("created #{id} {}", name.trim());
        }
        TournamentCommand::Arbiter {
            tournament: which,
            member,
            remove,
        } => {
            tournament::set_arbiter(store, actor, &which, &member, remove)?;
            let is = if remove { "is no longer" } else { "is" };
            outln!("{member} {is} an arbiter of {which}");
        }
        TournamentCommand::Arbiters { tournament: which } => {
            for name in tournament::arbiters(store, &which)? {
                outln!("{name}");
            }
        }
        TournamentCommand::Reports {
            tournament: which,
            by,
        } => {
            let by: tournament::Confirmation = by.parse()?;
            tournament::set_reports(store, actor, &which, by)?;
            outln!("reported results are confirmed by the {}", by.name());
        }
        TournamentCommand::Confirm {
            tournament: which,
            round,
            white,
            black,
        } => {
            let p = tournament::confirm_result(store, actor, &which, round, &[&white, &black])?;
            outln!(
                "round {}: {} – {} {} (confirmed)",
                p.round,
                p.white,
                p.black.as_deref().unwrap_or(""),
                result_text(&p)
            );
        }
        TournamentCommand::List { json } => {
            let list = tournament::list(store)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&list)?);
            } else {
                for t in list {
                    outln!(
                        "{:>4}  {}  ({}, {}, {}, {})",
                        t.id,
                        t.name,
                        t.variant.name(),
                        serde_json::to_value(t.system)?.as_str().unwrap_or(""),
                        t.time_control.as_deref().unwrap_or("no clock"),
                        if t.rated { "rated" } else { "unrated" }
                    );
                }
            }
        }
        TournamentCommand::Show {
            tournament: which,
            round,
            json,
        } => {
            let list = tournament::pairings(store, &which, round)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&list)?);
            } else {
                let mut current = 0;
                for p in list {
                    if p.round != current {
                        current = p.round;
                        outln!("Round {current}");
                    }
                    outln!(
                        "  {:>2}. {} – {}  {}{}",
                        p.board,
                        p.white,
                        p.black.as_deref().unwrap_or("(bye)"),
                        result_text(&p),
                        report_text(&p)
                    );
                }
            }
        }
        TournamentCommand::Enter {
            tournament: which,
            members,
        } => {
            let n = tournament::enter(store, actor, &which, &members)?;
            outln!("entered {n}");
        }
        TournamentCommand::Pair { tournament: which } => {
            let round = tournament::pair_next(store, actor, &which)?;
            outln!("Round {round}");
            print_round(store, &which, round)?;
        }
        TournamentCommand::Result {
            tournament: which,
            round,
            white,
            result,
            black,
        } => {
            let outcome: tournament::Outcome = result.parse()?;
            let p =
                tournament::record_result(store, actor, &which, round, &white, &black, outcome)?;
            outln!(
                "round {}: {} – {} {}",
                p.round,
                p.white,
                p.black.as_deref().unwrap_or(""),
                result_text(&p)
            );
        }
        TournamentCommand::Export {
            tournament: which,
            format,
        } => match format.as_str() {
            "pdn" => out!("{}", club::games::export(store, &which)?),
            "trf" => out!("{}", club::trf::export(store, &which)?),
            other => anyhow::bail!("--format {other:?}: pdn or trf"),
        },
        TournamentCommand::Import {
            tournament: which,
            file,
        } => {
            let bytes = bounded::read_file(&file, bounded::MAX_PDN_FILE, "PDN file")?;
            let text = pdn::decode(&bytes);
            let n = club::games::import(store, actor, &which, &text)
                .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
            outln!("recorded {n} games");
        }
        TournamentCommand::Forbid {
            tournament: which,
            a,
            b,
        } => {
            tournament::forbid(store, actor, &which, &a, &b)?;
            outln!("{a} and {b} will not be paired");
        }
        TournamentCommand::Absent {
            tournament: which,
            member,
            round,
            undo,
        } => {
            tournament::set_absent(store, actor, &which, &member, round, !undo)?;
            let what = if undo { "present" } else { "absent" };
            outln!("{member} {what} in round {round}");
        }
        TournamentCommand::Swap {
            tournament: which,
            a,
            b,
        } => {
            let round = tournament::swap(store, actor, &which, &a, b.as_deref())?;
            outln!("round {round} changed");
            print_round(store, &which, round)?;
            // An arbiter may override the criteria, but is told which ones the change breaks.
            if let Ok((_, findings)) = tournament::check(store, &which, Some(round)) {
                for f in findings.iter().filter(|f| f.absolute) {
                    eprintln!("warning: {}: {}", f.article, f.text);
                }
            }
        }
        TournamentCommand::Check {
            tournament: which,
            round,
            json,
        } => {
            let (round, findings) = tournament::check(store, &which, round)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&findings)?);
            } else {
                for f in &findings {
                    outln!("{:<11} {}", f.article, f.text);
                }
                outln!(
                    "round {round}: {} finding(s), {} against an absolute criterion",
                    findings.len(),
                    findings.iter().filter(|f| f.absolute).count()
                );
            }
            let broken = findings.iter().filter(|f| f.absolute).count();
            if broken > 0 {
                return Err(club::ClubError::Refused(format!(
                    "round {round} breaks {broken} absolute criterion(s) of the Dutch system"
                ))
                .into());
            }
        }
        TournamentCommand::Unpair { tournament: which } => {
            let round = tournament::unpair(store, actor, &which)?;
            outln!("round {round} unpaired");
        }
        TournamentCommand::ImportTrf { file, variant } => {
            let text = bounded::read_text(&file, bounded::MAX_TEXT_FILE, "TRF file")?;
            let variant: draughts::Variant = variant.parse()?;
            let id = club::trf::import(store, actor, &text, variant)
                .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
            outln!("created #{id}");
        }
        TournamentCommand::PairTrf {
            file,
            json,
            numbers,
        } => pair_trf(&file, json, numbers)?,
        TournamentCommand::Withdraw {
            tournament: which,
            member,
        } => {
            let n = tournament::withdraw(store, actor, &which, &member)?;
            outln!("withdrawn; {n} unplayed game(s) forfeited");
        }
        TournamentCommand::Crosstable {
            tournament: which,
            json,
        } => {
            let x = tournament::crosstable(store, &which)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&x)?);
            } else {
                let width = x
                    .standings
                    .iter()
                    .map(|r| r.name.chars().count())
                    .max()
                    .unwrap_or(4)
                    .max(4);
                let cell = |v: &[f64]| -> String {
                    v.iter()
                        .map(|p| {
                            if *p == 0.5 {
                                "½".to_string()
                            } else {
                                p.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("")
                };
                let empty = "";
                let heads: String = (1..=x.standings.len())
                    .map(|i| format!(" {i:>3}"))
                    .collect();
                outln!("{empty:>3}  {empty:<width$}{heads}  points");
                for (i, r) in x.standings.iter().enumerate() {
                    let row: String = x.cells[i]
                        .iter()
                        .enumerate()
                        .map(|(j, v)| {
                            if i == j {
                                format!(" {:>3}", "×")
                            } else {
                                format!(" {:>3}", cell(v))
                            }
                        })
                        .collect();
                    outln!("{:>3}  {:<width$}{row}  {:>6}", i + 1, r.name, r.points);
                }
            }
        }
        TournamentCommand::Standings {
            tournament: which,
            output,
        } => {
            let t = tournament::find(store, &which)?;
            let table = tournament::standings(store, &which)?;
            let names: Vec<&str> = t.tiebreaks.iter().map(|b| b.name()).collect();
            if output.json {
                let rows: Vec<serde_json::Value> = table
                    .iter()
                    .map(|r| {
                        let breaks: serde_json::Map<String, serde_json::Value> = names
                            .iter()
                            .zip(&r.tiebreaks)
                            .map(|(n, v)| (n.to_string(), serde_json::json!(v)))
                            .collect();
                        serde_json::json!({
                            "place": r.place, "name": r.name, "points": r.points,
                            "games": r.played, "tiebreaks": breaks,
                        })
                    })
                    .collect();
                outln!("{}", serde_json::to_string_pretty(&rows)?);
            } else if output.csv {
                out!("{}", tournament::standings_csv(store, &which)?);
            } else {
                let width = table
                    .iter()
                    .map(|r| r.name.chars().count())
                    .max()
                    .unwrap_or(4)
                    .max(4);
                let (place, name) = ("#", "name");
                let heads: String = names.iter().map(|n| format!("  {n:>8}")).collect();
                outln!("{place:>3}  {name:<width$}  points  games{heads}");
                for r in table {
                    let values: String = r.tiebreaks.iter().map(|v| format!("  {v:>8}")).collect();
                    outln!(
                        "{:>3}  {:<width$}  {:>6}  {:>5}{values}",
                        r.place,
                        r.name,
                        r.points,
                        r.played
                    );
                }
                // Results reported by players count only once confirmed: shown, not counted.
                for p in tournament::pairings(store, &which, None)? {
                    if let Some(r) = &p.reported {
                        outln!(
                            "unconfirmed, not counted: round {}, {} – {} {} reported by {}",
                            p.round,
                            p.white,
                            p.black.as_deref().unwrap_or(""),
                            r.outcome.text(t.scoring),
                            r.by
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

/// Prints a round's pairings.
fn print_round(store: &Store, which: &str, round: u32) -> Result<()> {
    for p in tournament::pairings(store, which, Some(round))? {
        let black = p.black.as_deref().unwrap_or("(bye)");
        outln!("  {:>2}. {} – {black}", p.board, p.white);
    }
    Ok(())
}

/// A pairing's result as the round listing shows it.
fn result_text(p: &tournament::Pairing) -> &'static str {
    match (p.black.as_ref(), p.result) {
        (None, _) => "bye",
        (_, Some(tournament::Outcome::WhiteWins)) if p.forfeit => "2-0 (forfeit)",
        (_, Some(tournament::Outcome::BlackWins)) if p.forfeit => "0-2 (forfeit)",
        (_, None) if p.forfeit => "0-0 (both withdrew)",
        (_, Some(tournament::Outcome::WhiteWins)) => "2-0",
        (_, Some(tournament::Outcome::Draw)) => "1-1",
        (_, Some(tournament::Outcome::BlackWins)) => "0-2",
        (_, None) => "-",
    }
}

/// A result reported and not yet confirmed, as the round listing shows it.
fn report_text(p: &tournament::Pairing) -> String {
    match &p.reported {
        Some(r) => format!(
            " (reported {} by {}, unconfirmed)",
            match r.outcome {
                tournament::Outcome::WhiteWins => "2-0",
                tournament::Outcome::Draw => "1-1",
                tournament::Outcome::BlackWins => "0-2",
            },
            r.by
        ),
        None => String::new(),
    }
}

/// `tournament pair-trf`: the Dutch system's pairing of a TRF's next round.
fn pair_trf(file: &std::path::Path, json: bool, numbers: bool) -> anyhow::Result<()> {
    let text = bounded::read_text(file, bounded::MAX_TEXT_FILE, "TRF file")?;
    let next = club::trf::next_round(&text)
        .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
    let pairing =
        club::dutch::pair(&next.field).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let rank = |i: usize| next.starting_ranks[i];
    let name = |i: usize| next.names[i].as_str();
    if numbers {
        let byes = usize::from(pairing.bye.is_some());
        outln!("{}", pairing.boards.len() + byes);
        for &(w, b) in &pairing.boards {
            outln!("{} {}", rank(w), rank(b));
        }
        if let Some(p) = pairing.bye {
            outln!("{} 0", rank(p));
        }
    } else if json {
        let boards: Vec<serde_json::Value> = pairing
            .boards
            .iter()
            .map(|&(w, b)| {
                serde_json::json!({
                    "white": { "rank": rank(w), "name": name(w) },
                    "black": { "rank": rank(b), "name": name(b) },
                })
            })
            .collect();
        let bye = pairing
            .bye
            .map(|p| serde_json::json!({ "rank": rank(p), "name": name(p) }));
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "boards": boards, "bye": bye }))?
        );
    } else {
        for (board, &(w, b)) in pairing.boards.iter().enumerate() {
            outln!(
                "{:>3}  {:>4} {:<24} - {:>4} {}",
                board + 1,
                rank(w),
                name(w),
                rank(b),
                name(b)
            );
        }
        if let Some(p) = pairing.bye {
            outln!("bye  {:>4} {}", rank(p), name(p));
        }
    }
    Ok(())
}
