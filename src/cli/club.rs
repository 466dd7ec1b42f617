//! `draughts club`: members, their roles and keys, ratings, settings, the games archive, the
//! server's online games and the audit (tournaments have their own module). Every change is made
//! as [`Actor::local`]: whoever holds the database file acts as the owner.

use super::output::OutputArgs;
use super::tournament::TournamentCommand;
use anyhow::Result;
use clap::Subcommand;
use draughts::Variant;
use draughts::bounded;
use draughts::club::access::{Actor, Role};
use draughts::club::members::{self, Member, MemberFields};
use draughts::club::{self, Store};
use draughts::rules::pdn;
use std::path::PathBuf;
use std::process::ExitCode;

/// The `club` commands.
#[derive(Subcommand)]
pub(crate) enum ClubCommand {
    /// Club members.
    Member {
        #[command(subcommand)]
        command: MemberCommand,
    },
    /// Tournaments: create, enter, pair, results, standings.
    Tournament {
        #[command(subcommand)]
        command: TournamentCommand,
    },
    /// Games played on the club server (`draughts serve`), finished and in progress.
    Online {
        /// Print this game's record (PDN) instead of the list.
        #[arg(long, value_name = "ID")]
        pdn: Option<i64>,
        /// Only games not finished (in progress or adjourned).
        #[arg(long)]
        unfinished: bool,
    },
    /// Recorded games: the tournaments' and the archive of games from elsewhere.
    Archive {
        #[command(subcommand)]
        command: ArchiveCommand,
    },
    /// The club's settings: rating system (elo, glicko2) and Elo's K factors.
    Settings {
        #[command(subcommand)]
        command: Option<SettingsCommand>,
    },
    /// Ratings (Elo per variant, from the rated tournaments' results).
    Rating {
        #[command(subcommand)]
        command: RatingCommand,
    },
    /// Write the club's results as a static web site: tournaments, members, games.
    Publish(super::publish::PublishArgs),
    /// Copy the database to FILE while it is in use (by a server, the TUI, scripts): a
    /// consistent copy, checked, put in place atomically.
    Backup {
        /// The backup file (replaced when it exists).
        file: PathBuf,
    },
    /// Every change to the club's records: who made it (a member, or the local user), when,
    /// what, and the values before and after.
    Audit {
        /// Only changes from this date (YYYY-MM-DD) or time (YYYY-MM-DD HH:MM:SS, UTC) on.
        #[arg(long)]
        since: Option<String>,
        /// Only changes made by this member or concerning them (name or id).
        #[arg(long)]
        member: Option<String>,
        /// Only changes concerning this tournament (name or id).
        #[arg(long)]
        tournament: Option<String>,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
}

/// Member fields that `add` and `edit` set.
#[derive(clap::Args)]
pub(crate) struct MemberArgs {
    /// FMJD or national federation id (empty clears it).
    #[arg(long)]
    federation_id: Option<String>,
    /// E-mail or phone (empty clears it).
    #[arg(long)]
    contact: Option<String>,
    /// A rating, as <variant>=<rating>; repeatable.
    #[arg(long = "rating", value_name = "VARIANT=RATING")]
    ratings: Vec<String>,
}

impl MemberArgs {
    fn fields(self, name: Option<String>) -> Result<MemberFields> {
        let ratings = self
            .ratings
            .iter()
            .map(|r| members::parse_rating(r))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MemberFields {
            name,
            federation_id: self.federation_id,
            contact: self.contact,
            ratings,
        })
    }
}

/// The `club member` commands.
#[derive(Subcommand)]
pub(crate) enum MemberCommand {
    /// Add a member.
    Add {
        /// Full name.
        name: String,
        #[command(flatten)]
        fields: MemberArgs,
    },
    /// List active members (all with --all), optionally only those matching --search.
    List {
        /// Include inactive members.
        #[arg(long)]
        all: bool,
        /// Only members whose name, federation id or contact contains this.
        #[arg(long)]
        search: Option<String>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Change a member (named by name or id).
    Edit {
        /// Name or id.
        member: String,
        /// New name.
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        fields: MemberArgs,
    },
    /// Mark a member inactive (members with games are kept; nobody is deleted).
    Deactivate {
        /// Name or id.
        member: String,
    },
    /// Mark an inactive member active again.
    Activate {
        /// Name or id.
        member: String,
    },
    /// Give a member a role: owner (everything, including roles), organiser (members,
    /// tournaments, pairings, results, settings) or member.
    Role {
        /// Name or id.
        member: String,
        /// owner, organiser or member.
        #[arg(value_name = "owner|organiser|member")]
        role: String,
    },
    /// Add the members of a CSV file (header: name[,federation_id,contact,active,international,frisian,english]).
    Import {
        /// The CSV file.
        file: PathBuf,
    },
    /// Write all members as CSV to standard output.
    Export,
    /// Add an SSH public key (the key text, or a .pub file) by which the member logs in.
    AddKey {
        /// Name or id.
        member: String,
        /// "ssh-ed25519 AAAA… comment", or the path of a public key file.
        key: String,
    },
    /// List a member's SSH keys with their fingerprints.
    Keys {
        /// Name or id.
        member: String,
    },
    /// Remove an SSH key by its fingerprint (SHA256:…).
    RemoveKey {
        /// The fingerprint.
        fingerprint: String,
    },
}

/// The `club archive` commands.
#[derive(Subcommand)]
pub(crate) enum ArchiveCommand {
    /// Add the games of a PDN file to the archive.
    Import {
        /// The PDN file.
        file: PathBuf,
        /// Variant of games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
    },
    /// List every recorded game.
    List {
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// Write every recorded game as one PDN file to standard output.
    Export,
}

/// The `club settings` commands.
#[derive(Subcommand)]
pub(crate) enum SettingsCommand {
    /// Show every setting (the default without a subcommand).
    Show,
    /// Change a setting; every rating is recomputed under it.
    Set {
        /// rating-system, k-provisional, provisional-games, k-bands, k-top.
        key: String,
        /// The new value.
        value: String,
    },
}

/// The `club rating` commands.
#[derive(Subcommand)]
pub(crate) enum RatingCommand {
    /// Active members by rating.
    List {
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// A member's rated games with the rating before and after each round.
    History {
        /// Name or id.
        member: String,
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// JSON for machines.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a club command on the database (`--db`, or the default one), as the local user.
pub(crate) fn run(db: Option<PathBuf>, command: ClubCommand) -> Result<ExitCode> {
    let path = db.unwrap_or_else(club::store::default_path);
    let mut store = Store::open(&path)?;
    let actor = &Actor::local();
    match command {
        ClubCommand::Member { command } => match command {
            MemberCommand::Add { name, fields } => {
                let id = members::add(&mut store, actor, &name, &fields.fields(None)?)?;
                outln!("added #{id} {}", name.trim());
            }
            MemberCommand::List {
                all,
                search,
                output,
            } => {
                let list = members::list(&store, all, search.as_deref())?;
                print_members(&list, &output)?;
            }
            MemberCommand::Edit {
                member,
                name,
                fields,
            } => {
                let m = members::edit(&mut store, actor, &member, &fields.fields(name)?)?;
                outln!("changed #{} {}", m.id, m.name);
            }
            MemberCommand::Deactivate { member } => {
                let m = members::set_active(&mut store, actor, &member, false)?;
                outln!("deactivated #{} {}", m.id, m.name);
            }
            MemberCommand::Activate { member } => {
                let m = members::set_active(&mut store, actor, &member, true)?;
                outln!("activated #{} {}", m.id, m.name);
            }
            MemberCommand::Role { member, role } => {
                let role: Role = role.parse()?;
                let m = members::set_role(&mut store, actor, &member, role)?;
                outln!("#{} {} is {}", m.id, m.name, m.role.name());
            }
            MemberCommand::Import { file } => {
                let text = bounded::read_text(&file, bounded::MAX_TEXT_FILE, "members file")?;
                let n = members::import_csv(&mut store, actor, &text)
                    .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
                outln!("imported {n} members");
            }
            MemberCommand::Export => out!("{}", members::export_csv(&store)?),
            MemberCommand::AddKey { member, key } => {
                let path = std::path::Path::new(&key);
                let text = if !key.trim_start().starts_with("ssh-")
                    && !key.trim_start().starts_with("ecdsa-")
                    && path.exists()
                {
                    bounded::read_text(path, bounded::MAX_SETTINGS_FILE, "key file")?
                } else {
                    key
                };
                let k = members::add_key(&mut store, actor, &member, &text)?;
                outln!("added {}", k.fingerprint);
            }
            MemberCommand::Keys { member } => {
                for k in members::keys(&store, &member)? {
                    outln!("{}  {}", k.fingerprint, k.key);
                }
            }
            MemberCommand::RemoveKey { fingerprint } => {
                members::remove_key(&mut store, actor, &fingerprint)?;
                outln!("removed {fingerprint}");
            }
        },
        ClubCommand::Tournament { command } => super::tournament::run(&mut store, actor, command)?,
        ClubCommand::Audit {
            since,
            member,
            tournament,
            json,
        } => audit(&store, since, member, tournament, json)?,
        ClubCommand::Publish(args) => super::publish::run(&store, args)?,
        ClubCommand::Backup { file } => {
            let copied = club::backup::backup(&store, &file)?;
            outln!(
                "backed up {} to {} ({} KiB, schema {})",
                store.path().display(),
                copied.path.display(),
                copied.bytes.div_ceil(1024),
                copied.schema
            );
        }
        ClubCommand::Rating { command } => rating(&store, command)?,
        ClubCommand::Online { pdn: Some(id), .. } => {
            out!("{}", club::online::get(&store, id)?.pdn);
        }
        ClubCommand::Online {
            pdn: None,
            unfinished,
        } => {
            for g in club::online::list(&store, unfinished)? {
                let record = g.record();
                let result = match &record {
                    Ok(p) if g.status == club::online::Status::Finished => {
                        pdn::result_text(p.result, g.variant).to_string()
                    }
                    _ => format!("{:?}", g.status).to_lowercase(),
                };
                let moves = record.map_or(0, |p| p.line.moves.len());
                outln!(
                    "{:>5}  {}  {:<13} {} – {}  {result}  {moves} plies{}",
                    g.id,
                    g.started,
                    g.variant.name(),
                    g.sides[0].name,
                    g.sides[1].name,
                    if g.rated { "  rated" } else { "" }
                );
            }
        }
        ClubCommand::Archive { command } => match command {
            ArchiveCommand::Import { file, variant } => {
                let bytes = bounded::read_file(&file, bounded::MAX_PDN_FILE, "PDN file")?;
                let variant: Variant = variant.parse()?;
                let n =
                    club::games::archive_import(&mut store, actor, &pdn::decode(&bytes), variant)
                        .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
                outln!("archived {n} games");
            }
            ArchiveCommand::List { json } => {
                let all = club::games::archive(&store)?;
                if json {
                    let rows: Vec<serde_json::Value> = all
                        .iter()
                        .map(|g| {
                            serde_json::json!({
                                "id": g.id, "event": g.tournament, "round": g.round,
                                "white": g.white, "black": g.black,
                            })
                        })
                        .collect();
                    outln!("{}", serde_json::to_string_pretty(&rows)?);
                } else {
                    for g in all {
                        outln!(
                            "{:>6}  {:<24} {:>2}  {} – {}",
                            g.id,
                            g.tournament,
                            g.round,
                            g.white,
                            g.black
                        );
                    }
                }
            }
            ArchiveCommand::Export => {
                for g in club::games::archive(&store)? {
                    out!("{}", g.pdn);
                }
            }
        },
        ClubCommand::Settings { command } => match command.unwrap_or(SettingsCommand::Show) {
            SettingsCommand::Show => {
                for ((key, value), (_, meaning)) in club::settings::show(&store)?
                    .iter()
                    .zip(club::settings::KEYS)
                {
                    outln!("{key:<18} {value:<16} {meaning}");
                }
            }
            SettingsCommand::Set { key, value } => {
                club::ratings::change_setting(&mut store, actor, &key, &value)?;
                outln!("{key} = {value}; ratings recomputed");
            }
        },
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the audit, filtered.
fn audit(
    store: &Store,
    since: Option<String>,
    member: Option<String>,
    tournament: Option<String>,
    json: bool,
) -> Result<()> {
    let filter = club::audit::Filter {
        since: since.as_deref().map(club::audit::parse_since).transpose()?,
        member: member
            .map(|m| members::find(store, &m).map(|m| m.id))
            .transpose()?,
        tournament: tournament
            .map(|t| club::tournament::find(store, &t).map(|t| t.id))
            .transpose()?,
    };
    let entries = club::audit::list(store, &filter)?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    for e in entries {
        let values = e.values().map_or(String::new(), |v| format!("  [{v}]"));
        outln!(
            "{:>5}  {}  {:<24} {:<22} {}{values}",
            e.id,
            e.at,
            e.who(),
            e.action,
            e.detail
        );
    }
    Ok(())
}

/// Prints the members as a table, CSV or JSON.
fn print_members(list: &[Member], output: &OutputArgs) -> Result<()> {
    if output.json {
        outln!("{}", serde_json::to_string_pretty(list)?);
        return Ok(());
    }
    let rating = |m: &Member, v: Variant| {
        m.ratings
            .get(v.name())
            .map_or(String::new(), |r| format!("{r:.0}"))
    };
    if output.csv {
        let mut w = csv::Writer::from_writer(std::io::stdout());
        w.write_record([
            "id",
            "name",
            "federation_id",
            "contact",
            "active",
            "international",
            "frisian",
            "english",
            "role",
        ])?;
        for m in list {
            w.write_record([
                m.id.to_string(),
                m.name.clone(),
                m.federation_id.clone().unwrap_or_default(),
                m.contact.clone().unwrap_or_default(),
                if m.active { "yes" } else { "no" }.to_string(),
                rating(m, Variant::International),
                rating(m, Variant::Frisian),
                rating(m, Variant::English),
                m.role.name().to_string(),
            ])?;
        }
        w.flush()?;
        return Ok(());
    }
    let width = list
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let (id, name, fed) = ("id", "name", "federation");
    outln!("{id:>4}  {name:<width$}  {fed:<12}   intl  fris  engl");
    for m in list {
        let mut notes = Vec::new();
        if m.role != Role::Member {
            notes.push(m.role.name());
        }
        if !m.active {
            notes.push("inactive");
        }
        outln!(
            "{:>4}  {:<width$}  {:<12}  {:>5} {:>5} {:>5}  {}",
            m.id,
            m.name,
            m.federation_id.as_deref().unwrap_or(""),
            rating(m, Variant::International),
            rating(m, Variant::Frisian),
            rating(m, Variant::English),
            notes.join(", "),
        );
    }
    Ok(())
}

/// Prints the ratings list or a member's rating history.
fn rating(store: &Store, command: RatingCommand) -> Result<()> {
    match command {
        RatingCommand::List { variant, json } => {
            let v: Variant = variant.parse()?;
            let mut list: Vec<(String, f64)> = members::list(store, false, None)?
                .into_iter()
                .map(|m| {
                    let r = m.ratings.get(v.name()).copied();
                    (m.name, r.unwrap_or(club::ratings::DEFAULT_RATING))
                })
                .collect();
            list.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            if json {
                let rows: Vec<serde_json::Value> = list
                    .iter()
                    .map(|(n, r)| serde_json::json!({ "name": n, "rating": r }))
                    .collect();
                outln!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for (i, (name, r)) in list.iter().enumerate() {
                    outln!("{:>3}  {r:>6.0}  {name}", i + 1);
                }
            }
        }
        RatingCommand::History {
            member,
            variant,
            json,
        } => {
            let v: Variant = variant.parse()?;
            let m = members::find(store, &member)?;
            let h = club::ratings::history(store, m.id, v)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&h)?);
            } else {
                for e in h {
                    outln!(
                        "{} round {}: {} vs {}  {:.0} → {:.0} ({:+.1})",
                        e.tournament,
                        e.round,
                        e.score,
                        e.opponent,
                        e.before,
                        e.after,
                        e.after - e.before
                    );
                }
            }
        }
    }
    Ok(())
}
