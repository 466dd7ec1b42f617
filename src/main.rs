use anyhow::Result;
use clap::{Parser, Subcommand};
use draughts::clock::TimeControl;
use draughts::club::members::{self, Member, MemberFields};
use draughts::club::tournament::{self, NewTournament};
use draughts::club::{self, ClubError, Store};
use draughts::config::Config;
use draughts::notation::{move_text, parse_fen};
use draughts::tablebase::progress::Report;
use draughts::tablebase::{self, Material, Tablebase};
use draughts::tui::app::{load_pdn, open_tablebase, start_position};
use draughts::tui::{self, App, ColorDepth, GameSetup, PlayerKind};
use draughts::{Position, Variant, pdn, perft};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Draughts for clubs: International, Frisian and English.
#[derive(Parser)]
#[command(name = "draughts", version)]
struct Cli {
    /// Draw pieces with ASCII letters (automatic when the locale is not UTF-8).
    #[arg(long, global = true)]
    ascii: bool,
    /// Settings file [default: $DRAUGHTS_CONFIG or ~/.config/draughts/config.toml].
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// How a game started from the command line is played.
#[derive(clap::Args)]
struct PlayArgs {
    /// international, frisian or english [default: the settings' variant].
    #[arg(long)]
    variant: Option<String>,
    /// Who plays White: human, engine, or engine:<1-10|max>.
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black: human, engine, or engine:<1-10|max>.
    #[arg(long, default_value = "human")]
    black: String,
    /// Time control: 15m, 5m+3s, "5m d3s", "2h/50, 1h/25 repeating", or none
    /// [default: the settings' clock].
    #[arg(long)]
    clock: Option<String>,
    /// Start from this position (FEN, e.g. "W:W31-50:B1-20").
    #[arg(long, conflicts_with = "pdn")]
    fen: Option<String>,
    /// Open a recorded game from this PDN file to step through and continue.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Which game of the PDN file (1 is the first).
    #[arg(long, default_value_t = 1, requires = "pdn")]
    game: usize,
    /// Tablebase directory for adjudication [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Tournament conditions: no takebacks and no pausing the clock.
    #[arg(long)]
    tournament: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (the home screen opens without a command).
    Play(PlayArgs),
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft {
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Deepest depth; every depth from 1 up to it is printed.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Start from this position instead of the initial one.
        #[arg(long)]
        fen: Option<String>,
        /// Print each root move's count at the deepest depth.
        #[arg(long)]
        divide: bool,
    },
    /// The club database: members (more to come: ratings, tournaments, games).
    Club {
        /// Database file [default: $DRAUGHTS_DB or ~/.local/share/draughts/club.sqlite].
        #[arg(long, global = true, value_name = "FILE")]
        db: Option<PathBuf>,
        #[command(subcommand)]
        command: ClubCommand,
    },
    /// Play an engine match: pairs of games from each opening, colours reversed.
    Match {
        /// Engine A: engine, engine:<1-10|max>, or hub:<command>.
        #[arg(long)]
        engine_a: String,
        /// Engine B.
        #[arg(long)]
        engine_b: String,
        /// Number of games.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Time control for both (the clock syntax).
        #[arg(long, default_value = "1m+1s")]
        tc: String,
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Openings file (one opening a line) [default: every two-ply start].
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Games played at once [default: half the cores, at least one].
        #[arg(long)]
        concurrency: Option<usize>,
        /// Write every game to this PDN file.
        #[arg(long)]
        pdn: Option<PathBuf>,
        /// Tablebases for adjudication [default: tablebases/<variant> when present].
        #[arg(long)]
        tablebases: Option<PathBuf>,
        /// Moves (plies) after which a game is adjudicated drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
    },
    /// Play other programs over DXP (the DamExchange protocol, TCP port 27531).
    Dxp {
        /// Wait for a program to connect here (`host:port`, `:port`) and follow its requests.
        #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
        listen: Option<String>,
        /// Connect to a program here (`host`, `host:port`) and ask it for games.
        #[arg(long)]
        connect: Option<String>,
        /// The engine's level: 1-10 or max.
        #[arg(long, default_value = "max")]
        level: String,
        /// Think this many seconds a move instead of budgeting the clock.
        #[arg(long)]
        move_time: Option<f64>,
        /// international or frisian (both programs must agree; DXP does not say).
        #[arg(long, default_value = "international")]
        variant: String,
        /// The name sent to the other program.
        #[arg(long, default_value = concat!("draughts ", env!("CARGO_PKG_VERSION")))]
        name: String,
        /// Games to ask for (with --connect); the colours alternate.
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// Our colour in the first game (with --connect): white or black.
        #[arg(long, default_value = "white")]
        color: String,
        /// Minutes each for the game (with --connect; 0: no clock).
        #[arg(long, default_value_t = 5)]
        time: u16,
        /// Moves in that time (with --connect; 0: the whole game).
        #[arg(long, default_value_t = 0)]
        moves: u16,
        /// Start from this position (with --connect).
        #[arg(long, conflicts_with_all = ["openings", "two_ply"])]
        fen: Option<String>,
        /// Openings file (one a line): each pair of games starts from the next opening.
        #[arg(long, conflicts_with = "two_ply")]
        openings: Option<PathBuf>,
        /// Each pair of games starts from the next two-ply opening of the variant.
        #[arg(long)]
        two_ply: bool,
        /// Write the games to this PDN file (replaced after each session).
        #[arg(long)]
        pdn: Option<PathBuf>,
        /// Tablebase directory [default: tablebases/<variant> when present].
        #[arg(long)]
        tablebases: Option<PathBuf>,
    },
    /// Run the club's SSH server: members `ssh -p 2222 host` into the club TUI.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "0.0.0.0:2222")]
        listen: String,
        /// The club database [default: $DRAUGHTS_DB or ~/.local/share/draughts/club.sqlite].
        #[arg(long)]
        db: Option<PathBuf>,
        /// The server's host key (made on first start, mode 600) [default: next to the database].
        #[arg(long)]
        host_key: Option<PathBuf>,
        /// Tablebase directory for the games played.
        #[arg(long)]
        tablebases: Option<PathBuf>,
        /// Minutes a connection may stay idle before it is closed.
        #[arg(long, default_value_t = 60)]
        idle_minutes: u64,
        /// Let unknown keys in as guests (casual games only).
        #[arg(long)]
        guests: bool,
        /// Connections one address may hold at once.
        #[arg(long, default_value_t = 8)]
        per_ip: usize,
        /// Log file [default: draughts-serve.log next to the database].
        #[arg(long)]
        log: Option<PathBuf>,
        /// Seconds a game waits for a player whose connection dropped (their clock runs on);
        /// then the game is lost by forfeit.
        #[arg(long, default_value_t = 120)]
        reconnect_seconds: u64,
        /// What becomes of games in progress when the server restarts: resume (each clock
        /// starts again when both players are back) or adjourn (resumed from the lobby).
        #[arg(long, default_value = "resume", value_parser = ["resume", "adjourn"])]
        on_restart: String,
    },
    /// Speak the Hub protocol on standard input and output (for Hub GUIs such as Scan's).
    Hub {
        /// Tablebase directory [default: tablebases/<variant> when present].
        #[arg(long)]
        tablebases: Option<PathBuf>,
    },
    /// The engine: analyse a position, or measure the search.
    Engine {
        #[command(subcommand)]
        command: EngineCommand,
    },
    /// Read and check PDN files.
    Pdn {
        #[command(subcommand)]
        command: PdnCommand,
    },
    /// Endgame tablebases: generate, probe, check.
    Tb {
        #[command(subcommand)]
        command: TbCommand,
    },
}

#[derive(Subcommand)]
enum EngineCommand {
    /// Search a position and print each iteration: depth, score, nodes, time, principal variation.
    Analyse {
        /// international, frisian or english.
        #[arg(long, default_value = "international")]
        variant: String,
        /// The position (FEN); the initial position when absent.
        #[arg(long)]
        fen: Option<String>,
        /// Deepest iteration.
        #[arg(long)]
        depth: Option<u32>,
        /// Seconds to think [default: 10 when no depth is given].
        #[arg(long)]
        time: Option<f64>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Tablebase directory [default: tablebases/<variant> when present].
        #[arg(long)]
        tablebases: Option<PathBuf>,
    },
    /// Search the benchmark positions to a fixed depth and report nodes and speed.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = 10)]
        depth: u32,
    },
}

#[derive(Subcommand)]
enum ClubCommand {
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
}

#[derive(Subcommand)]
enum ArchiveCommand {
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

#[derive(Subcommand)]
enum SettingsCommand {
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

#[derive(Subcommand)]
enum RatingCommand {
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

#[derive(Subcommand)]
enum TournamentCommand {
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

/// Member fields that `add` and `edit` set.
#[derive(clap::Args)]
struct MemberArgs {
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

/// How a listing is printed.
#[derive(clap::Args)]
struct OutputArgs {
    /// JSON for machines.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV for spreadsheets.
    #[arg(long)]
    csv: bool,
}

#[derive(Subcommand)]
enum MemberCommand {
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

/// Which tables: a variant and their directory.
#[derive(clap::Args)]
struct TablesArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Directory of the tables [default: tablebases/<variant>].
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl TablesArgs {
    fn resolve(self) -> Result<(Variant, PathBuf)> {
        let variant: Variant = self.variant.parse()?;
        let dir = self.dir.unwrap_or_else(|| tablebase::default_dir(variant));
        Ok((variant, dir))
    }
}

#[derive(Subcommand)]
enum TbCommand {
    /// Compute every slice of 2 up to --pieces pieces (finished slices are kept), or one --slice.
    Generate {
        /// Largest number of pieces.
        #[arg(long, required_unless_present = "slice", conflicts_with = "slice")]
        pieces: Option<u32>,
        /// Compute only this job (a slice such as kk-k and its partner); its dependencies must exist.
        #[arg(long)]
        slice: Option<String>,
        #[command(flatten)]
        tables: TablesArgs,
        /// Worker threads [default: all cores].
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print the value of a position and of each of its moves, best first.
    Probe {
        /// The position.
        #[arg(long)]
        fen: String,
        #[command(flatten)]
        tables: TablesArgs,
    },
    /// Figures of every slice: positions, results, longest win, file sizes.
    Stats {
        #[command(flatten)]
        tables: TablesArgs,
    },
    /// Check every checksum and re-derive every stored value from its moves.
    Verify {
        #[command(flatten)]
        tables: TablesArgs,
        /// Worker threads [default: all cores].
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Measure probe latency on the largest slices present.
    Bench {
        #[command(flatten)]
        tables: TablesArgs,
        /// Positions to probe.
        #[arg(long, default_value_t = 200)]
        positions: usize,
    },
    /// Print the job graph for a scheduler (GNU make, a job array).
    Plan {
        /// Largest number of pieces.
        #[arg(long)]
        pieces: u32,
        /// make or json.
        #[arg(long, default_value = "make")]
        format: String,
        #[command(flatten)]
        tables: TablesArgs,
    },
}

#[derive(Subcommand)]
enum PdnCommand {
    /// Read each file, replay every game legally, report per file and every error.
    Check {
        /// Variant of games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("draughts: {e:#}");
            // Refused by the club's rules: 1; bad input or a broken file: 2.
            match e.downcast_ref::<ClubError>() {
                Some(ClubError::Refused(_)) => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}

/// Whether the locale says UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is set decides).
fn utf8_locale() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// Opens the TUI: on the home screen, or straight into a game.
fn tui(ascii: bool, config: Option<PathBuf>, play: Option<PlayArgs>) -> Result<ExitCode> {
    let path = config.unwrap_or_else(draughts::config::default_path);
    let (settings, writable, error) = match Config::load(&path) {
        Ok(c) => (c, true, None),
        Err(e) => (Config::default(), false, Some(e.to_string())),
    };
    let depth = ColorDepth::detect(|k| std::env::var(k).ok());
    let mut app = App::new(settings, writable.then_some(path), depth);
    app.config_error = error;
    app.ascii = ascii || !utf8_locale();
    if let Some(args) = play {
        let setup = game_setup(&app, args)?;
        app.direct = true;
        app.start_game(setup, std::time::Duration::ZERO);
    }
    tui::run_local(&mut app).map_err(|e| anyhow::anyhow!("terminal: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

fn game_setup(app: &App, args: PlayArgs) -> Result<GameSetup> {
    let mut variant: Variant = match &args.variant {
        Some(v) => v.parse()?,
        None => app.config.variant,
    };
    let white: PlayerKind = args
        .white
        .parse()
        .map_err(|e| anyhow::anyhow!("--white: {e}"))?;
    let black: PlayerKind = args
        .black
        .parse()
        .map_err(|e| anyhow::anyhow!("--black: {e}"))?;
    for p in [&white, &black] {
        if matches!(p, PlayerKind::Hub(_)) && variant == Variant::English {
            anyhow::bail!("Hub engines play International and Frisian draughts, not English");
        }
    }
    let mut record = None;
    if let Some(file) = &args.pdn {
        let games = load_pdn(file, variant).map_err(anyhow::Error::msg)?;
        let count = games.len();
        let game = games
            .into_iter()
            .nth(args.game.saturating_sub(1))
            .ok_or_else(|| {
                anyhow::anyhow!("{}: has {count} games, not {}", file.display(), args.game)
            })?;
        variant = game.variant;
        record = Some(game);
    }
    let clock_text = args.clock.unwrap_or_else(|| {
        record
            .as_ref()
            .and_then(|g| g.tag("TimeControl").map(str::to_string))
            .unwrap_or_else(|| app.config.clock.clone())
    });
    let clock =
        TimeControl::parse_optional(&clock_text).map_err(|e| anyhow::anyhow!("--clock: {e}"))?;
    let start = match &args.fen {
        Some(f) => Some(start_position(f, variant).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let tablebase = match &args.tablebases {
        Some(dir) if !dir.is_dir() => {
            anyhow::bail!("--tablebases: {} is not a directory", dir.display())
        }
        Some(dir) => open_tablebase(dir, variant).map_err(anyhow::Error::msg)?,
        None => None,
    };
    Ok(GameSetup {
        variant,
        white,
        black,
        clock,
        start,
        record,
        tournament: args.tournament,
        tablebase,
    })
}

fn print_members(list: &[Member], output: &OutputArgs) -> Result<()> {
    if output.json {
        println!("{}", serde_json::to_string_pretty(list)?);
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
    println!("{id:>4}  {name:<width$}  {fed:<12}   intl  fris  engl");
    for m in list {
        println!(
            "{:>4}  {:<width$}  {:<12}  {:>5} {:>5} {:>5}  {}",
            m.id,
            m.name,
            m.federation_id.as_deref().unwrap_or(""),
            rating(m, Variant::International),
            rating(m, Variant::Frisian),
            rating(m, Variant::English),
            if m.active { "" } else { "inactive" },
        );
    }
    Ok(())
}

fn club(db: Option<PathBuf>, command: ClubCommand) -> Result<ExitCode> {
    let path = db.unwrap_or_else(club::store::default_path);
    let mut store = Store::open(&path)?;
    match command {
        ClubCommand::Member { command } => match command {
            MemberCommand::Add { name, fields } => {
                let id = members::add(&mut store, &name, &fields.fields(None)?)?;
                println!("added #{id} {}", name.trim());
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
                let m = members::edit(&mut store, &member, &fields.fields(name)?)?;
                println!("changed #{} {}", m.id, m.name);
            }
            MemberCommand::Deactivate { member } => {
                let m = members::set_active(&mut store, &member, false)?;
                println!("deactivated #{} {}", m.id, m.name);
            }
            MemberCommand::Activate { member } => {
                let m = members::set_active(&mut store, &member, true)?;
                println!("activated #{} {}", m.id, m.name);
            }
            MemberCommand::Import { file } => {
                let text = std::fs::read_to_string(&file)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
                let n = members::import_csv(&mut store, &text)
                    .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
                println!("imported {n} members");
            }
            MemberCommand::Export => print!("{}", members::export_csv(&store)?),
            MemberCommand::AddKey { member, key } => {
                let path = std::path::Path::new(&key);
                let text = if !key.trim_start().starts_with("ssh-")
                    && !key.trim_start().starts_with("ecdsa-")
                    && path.exists()
                {
                    std::fs::read_to_string(path)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
                } else {
                    key
                };
                let k = members::add_key(&mut store, &member, &text)?;
                println!("added {}", k.fingerprint);
            }
            MemberCommand::Keys { member } => {
                for k in members::keys(&store, &member)? {
                    println!("{}  {}", k.fingerprint, k.key);
                }
            }
            MemberCommand::RemoveKey { fingerprint } => {
                members::remove_key(&mut store, &fingerprint)?;
                println!("removed {fingerprint}");
            }
        },
        ClubCommand::Tournament { command } => tournament_command(&mut store, command)?,
        ClubCommand::Rating { command } => rating_command(&store, command)?,
        ClubCommand::Online { pdn: Some(id), .. } => {
            print!("{}", club::online::get(&store, id)?.pdn);
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
                println!(
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
                let bytes =
                    std::fs::read(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
                let n =
                    club::games::archive_import(&mut store, &pdn::decode(&bytes), variant.parse()?)
                        .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
                println!("archived {n} games");
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
                    println!("{}", serde_json::to_string_pretty(&rows)?);
                } else {
                    for g in all {
                        println!(
                            "{:>6}  {:<24} {:>2}  {} – {}",
                            g.id, g.tournament, g.round, g.white, g.black
                        );
                    }
                }
            }
            ArchiveCommand::Export => {
                for g in club::games::archive(&store)? {
                    print!("{}", g.pdn);
                }
            }
        },
        ClubCommand::Settings { command } => match command.unwrap_or(SettingsCommand::Show) {
            SettingsCommand::Show => {
                for ((key, value), (_, meaning)) in club::settings::show(&store)?
                    .iter()
                    .zip(club::settings::KEYS)
                {
                    println!("{key:<18} {value:<16} {meaning}");
                }
            }
            SettingsCommand::Set { key, value } => {
                club::settings::set(&mut store, &key, &value)?;
                println!("{key} = {value}; ratings recomputed");
            }
        },
    }
    Ok(ExitCode::SUCCESS)
}

fn rating_command(store: &Store, command: RatingCommand) -> Result<()> {
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
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for (i, (name, r)) in list.iter().enumerate() {
                    println!("{:>3}  {r:>6.0}  {name}", i + 1);
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
                println!("{}", serde_json::to_string_pretty(&h)?);
            } else {
                for e in h {
                    println!(
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

fn engine_command(command: EngineCommand) -> Result<ExitCode> {
    use draughts::engine::{BENCH_POSITIONS, Limits, Searcher};
    match command {
        EngineCommand::Analyse {
            variant,
            fen,
            depth,
            time,
            hash,
            tablebases,
        } => {
            let variant: Variant = variant.parse()?;
            let pos = match &fen {
                Some(f) => parse_fen(f, variant)?,
                None => Position::start(variant),
            };
            let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
            let tb = open_tablebase(&dir, variant).map_err(anyhow::Error::msg)?;
            let mut searcher = Searcher::new(hash, tb);
            let time = match (time, depth) {
                (Some(t), _) => Some(std::time::Duration::from_secs_f64(t.max(0.0))),
                (None, None) => Some(std::time::Duration::from_secs(10)),
                (None, Some(_)) => None,
            };
            let limits = Limits {
                depth,
                time,
                max_time: time,
                nodes: None,
            };
            let outcome = searcher.search(&pos, &[], limits, &mut |info| {
                let r = draughts::engine::analysis::builtin_report(info, &pos);
                println!(
                    "depth={} score={} nodes={} time={:.3} nps={} pv={}",
                    r.depth,
                    r.score,
                    r.nodes,
                    info.time.as_secs_f64(),
                    r.nps,
                    r.pv.join(" ")
                );
            });
            match outcome.best {
                Some(mv) => println!("best={}", move_text(&pos, &mv)),
                None => println!("best=none (no legal move)"),
            }
        }
        EngineCommand::Bench { depth } => {
            let started = Instant::now();
            let mut total = 0u64;
            for (variant, fen) in BENCH_POSITIONS {
                let pos = parse_fen(fen, *variant)?;
                let mut searcher = Searcher::new(64, None);
                let t = Instant::now();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let o = searcher.search(&pos, &[], limits, &mut |_| {});
                let secs = t.elapsed().as_secs_f64();
                total += o.nodes;
                println!(
                    "{:<13} depth={} nodes={} time={secs:.3} nps={:.0} best={} score={}",
                    variant.name(),
                    o.depth,
                    o.nodes,
                    o.nodes as f64 / secs.max(1e-9),
                    o.best.map_or("-".into(), |m| move_text(&pos, &m)),
                    draughts::engine::score_words(o.score)
                );
            }
            let secs = started.elapsed().as_secs_f64();
            println!(
                "total nodes={total} time={secs:.3} nps={:.0}",
                total as f64 / secs.max(1e-9)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_round(store: &Store, which: &str, round: u32) -> Result<()> {
    for p in tournament::pairings(store, which, Some(round))? {
        let black = p.black.as_deref().unwrap_or("(bye)");
        println!("  {:>2}. {} – {black}", p.board, p.white);
    }
    Ok(())
}

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

fn tournament_command(store: &mut Store, command: TournamentCommand) -> Result<()> {
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
        } => {
            let id = tournament::create(
                store,
                &NewTournament {
                    name: &name,
                    system: tournament::System::parse(&system, rounds)?,
                    variant: variant.parse()?,
                    time_control: tc.as_deref(),
                    scoring: scoring.parse()?,
                    rated: !unrated,
                    tiebreaks: tournament::parse_tiebreaks(&tiebreaks)?,
                },
            )?;
            println!("created #{id} {}", name.trim());
        }
        TournamentCommand::List { json } => {
            let list = tournament::list(store)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else {
                for t in list {
                    println!(
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
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else {
                let mut current = 0;
                for p in list {
                    if p.round != current {
                        current = p.round;
                        println!("Round {current}");
                    }
                    println!(
                        "  {:>2}. {} – {}  {}",
                        p.board,
                        p.white,
                        p.black.as_deref().unwrap_or("(bye)"),
                        result_text(&p)
                    );
                }
            }
        }
        TournamentCommand::Enter {
            tournament: which,
            members,
        } => {
            let n = tournament::enter(store, &which, &members)?;
            println!("entered {n}");
        }
        TournamentCommand::Pair { tournament: which } => {
            let round = tournament::pair_next(store, &which)?;
            println!("Round {round}");
            print_round(store, &which, round)?;
        }
        TournamentCommand::Result {
            tournament: which,
            round,
            white,
            result,
            black,
        } => {
            let p =
                tournament::record_result(store, &which, round, &white, &black, result.parse()?)?;
            println!(
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
            "pdn" => print!("{}", club::games::export(store, &which)?),
            "trf" => print!("{}", club::trf::export(store, &which)?),
            other => anyhow::bail!("--format {other:?}: pdn or trf"),
        },
        TournamentCommand::Import {
            tournament: which,
            file,
        } => {
            let bytes =
                std::fs::read(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let text = pdn::decode(&bytes);
            let n = club::games::import(store, &which, &text)
                .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
            println!("recorded {n} games");
        }
        TournamentCommand::Forbid {
            tournament: which,
            a,
            b,
        } => {
            tournament::forbid(store, &which, &a, &b)?;
            println!("{a} and {b} will not be paired");
        }
        TournamentCommand::Absent {
            tournament: which,
            member,
            round,
            undo,
        } => {
            tournament::set_absent(store, &which, &member, round, !undo)?;
            let what = if undo { "present" } else { "absent" };
            println!("{member} {what} in round {round}");
        }
        TournamentCommand::Swap {
            tournament: which,
            a,
            b,
        } => {
            let round = tournament::swap(store, &which, &a, b.as_deref())?;
            println!("round {round} changed");
            print_round(store, &which, round)?;
        }
        TournamentCommand::Unpair { tournament: which } => {
            let round = tournament::unpair(store, &which)?;
            println!("round {round} unpaired");
        }
        TournamentCommand::ImportTrf { file, variant } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let id = club::trf::import(store, &text, variant.parse()?)
                .map_err(|e| anyhow::Error::new(e).context(file.display().to_string()))?;
            println!("created #{id}");
        }
        TournamentCommand::Withdraw {
            tournament: which,
            member,
        } => {
            let n = tournament::withdraw(store, &which, &member)?;
            println!("withdrawn; {n} unplayed game(s) forfeited");
        }
        TournamentCommand::Crosstable {
            tournament: which,
            json,
        } => {
            let x = tournament::crosstable(store, &which)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&x)?);
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
                println!("{empty:>3}  {empty:<width$}{heads}  points");
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
                    println!("{:>3}  {:<width$}{row}  {:>6}", i + 1, r.name, r.points);
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
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else if output.csv {
                let mut w = csv::Writer::from_writer(std::io::stdout());
                let mut header = vec!["place", "name", "points", "games"];
                header.extend(&names);
                w.write_record(&header)?;
                for r in &table {
                    let mut row = vec![
                        r.place.to_string(),
                        r.name.clone(),
                        r.points.to_string(),
                        r.played.to_string(),
                    ];
                    row.extend(r.tiebreaks.iter().map(f64::to_string));
                    w.write_record(&row)?;
                }
                w.flush()?;
            } else {
                let width = table
                    .iter()
                    .map(|r| r.name.chars().count())
                    .max()
                    .unwrap_or(4)
                    .max(4);
                let (place, name) = ("#", "name");
                let heads: String = names.iter().map(|n| format!("  {n:>8}")).collect();
                println!("{place:>3}  {name:<width$}  points  games{heads}");
                for r in table {
                    let values: String = r.tiebreaks.iter().map(|v| format!("  {v:>8}")).collect();
                    println!(
                        "{:>3}  {:<width$}  {:>6}  {:>5}{values}",
                        r.place, r.name, r.points, r.played
                    );
                }
            }
        }
    }
    Ok(())
}

fn run(cli: Cli) -> Result<ExitCode> {
    let Some(command) = cli.command else {
        return tui(cli.ascii, cli.config, None);
    };
    match command {
        Command::Play(args) => tui(cli.ascii, cli.config, Some(args)),
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => {
            let variant: Variant = variant.parse()?;
            let pos = match fen {
                Some(f) => {
                    parse_fen(&f, variant).map_err(|e| anyhow::anyhow!("bad FEN {f:?}: {e}"))?
                }
                None => Position::start(variant),
            };
            if divide {
                let start = Instant::now();
                let mut total = 0;
                for (mv, n) in perft::divide(&pos, depth) {
                    println!("{} {n}", move_text(&pos, &mv));
                    total += n;
                }
                report(depth, total, start);
            } else {
                for d in 1..=depth {
                    let start = Instant::now();
                    let n = perft::perft(&pos, d);
                    report(d, n, start);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Tb { command } => tb(command),
        Command::Engine { command } => engine_command(command),
        Command::Match {
            engine_a,
            engine_b,
            games,
            tc,
            variant,
            openings,
            concurrency,
            pdn: out,
            tablebases,
            max_plies,
        } => {
            use draughts::arena::{self, Contender, MatchSettings};
            let variant: Variant = variant.parse()?;
            let a: Contender = engine_a
                .parse()
                .map_err(|e| anyhow::anyhow!("--engine-a: {e}"))?;
            let b: Contender = engine_b
                .parse()
                .map_err(|e| anyhow::anyhow!("--engine-b: {e}"))?;
            let clock = TimeControl::parse(&tc).map_err(|e| anyhow::anyhow!("--tc: {e}"))?;
            let lines = match &openings {
                Some(f) => {
                    let text = std::fs::read_to_string(f)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
                    arena::read_openings(&text, variant)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?
                }
                None => arena::two_ply_openings(variant),
            };
            let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
            let settings = MatchSettings {
                variant,
                a,
                b,
                clock,
                tablebase: open_tablebase(&dir, variant).map_err(anyhow::Error::msg)?,
                max_plies,
            };
            let threads = concurrency.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
            });
            let played = arena::run(&settings, &lines, games, threads, &|i, p| {
                let result = pdn::result_text(p.pdn.result, variant);
                let termination = p.pdn.tag("Termination").unwrap_or("");
                println!(
                    "game {}/{games}: {} - {}: {result} ({termination})",
                    i + 1,
                    p.pdn.tag("White").unwrap_or("?"),
                    p.pdn.tag("Black").unwrap_or("?"),
                );
            })
            .map_err(anyhow::Error::msg)?;
            if let Some(path) = &out {
                let text = pdn::write_games(played.iter().map(|p| &p.pdn));
                draughts::config::write_atomic(path, text.as_bytes())
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
            println!(
                "{} vs {}: {}",
                settings.a,
                settings.b,
                arena::summarise(&played)
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Dxp {
            listen,
            connect,
            level,
            move_time,
            variant,
            name,
            games,
            color,
            time,
            moves,
            fen,
            openings,
            two_ply,
            pdn: out,
            tablebases,
        } => {
            use draughts::dxp::{Start, session};
            let variant: Variant = variant.parse()?;
            if variant == Variant::English {
                anyhow::bail!("DXP carries 50-square boards: international or frisian");
            }
            let level: draughts::engine::Level = level.parse().map_err(anyhow::Error::msg)?;
            let move_time = match move_time {
                Some(t) if !(t > 0.0 && t < 86_400.0) => {
                    anyhow::bail!("--move-time {t}: expected seconds above 0")
                }
                t => t.map(std::time::Duration::from_secs_f64),
            };
            let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
            let player = session::Player {
                variant,
                name,
                level,
                move_time,
                tablebase: open_tablebase(&dir, variant).map_err(anyhow::Error::msg)?,
            };
            let mut report = |line: &str| println!("{line}");
            let played = if let Some(addr) = listen {
                let listener = std::net::TcpListener::bind(session::address(&addr, true))
                    .map_err(|e| anyhow::anyhow!("--listen {addr}: {e}"))?;
                println!("listening on {}", listener.local_addr()?);
                session::listen(&listener, &player, &mut report)?
            } else {
                let addr = session::address(connect.as_deref().unwrap_or_default(), false);
                let color = match color.to_ascii_lowercase().as_str() {
                    "white" | "w" => draughts::Color::White,
                    "black" | "b" => draughts::Color::Black,
                    other => anyhow::bail!("--color {other:?}: expected white or black"),
                };
                let lines = match (&openings, two_ply) {
                    (Some(f), _) => {
                        let text = std::fs::read_to_string(f)
                            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
                        draughts::arena::read_openings(&text, variant)
                            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?
                    }
                    (None, true) => draughts::arena::two_ply_openings(variant),
                    (None, false) => Vec::new(),
                };
                let starts = match fen {
                    Some(f) => vec![Start::Position(draughts::notation::parse_fen(&f, variant)?)],
                    None if lines.is_empty() => vec![Start::Initial],
                    None => lines
                        .iter()
                        .map(|moves| {
                            let mut pos = draughts::Position::start(variant);
                            for m in moves {
                                pos = pos.play(m);
                            }
                            Start::Position(pos)
                        })
                        .collect(),
                };
                let request = session::Request {
                    games,
                    color,
                    minutes: time,
                    moves,
                    starts,
                };
                session::connect(&addr, &player, &request, &mut report)?
            };
            if let Some(path) = &out {
                let text = pdn::write_games(played.iter().map(|p| &p.pdn));
                draughts::config::write_atomic(path, text.as_bytes())
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
            let scored: Vec<draughts::arena::Played> = played
                .iter()
                .map(|p| draughts::arena::Played {
                    score_a: match p.pdn.result {
                        pdn::GameResult::Win(c) if c == p.color => 1.0,
                        pdn::GameResult::Win(_) => 0.0,
                        _ => 0.5,
                    },
                    pdn: p.pdn.clone(),
                    adjudicated: false,
                })
                .collect();
            println!("{}: {}", player.name, draughts::arena::summarise(&scored));
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            listen,
            db,
            host_key,
            tablebases,
            idle_minutes,
            guests,
            per_ip,
            log,
            reconnect_seconds,
            on_restart,
        } => {
            let db = db.unwrap_or_else(draughts::club::store::default_path);
            let host_key = host_key.unwrap_or_else(|| db.with_file_name("ssh_host_ed25519_key"));
            draughts::ssh::serve(draughts::ssh::Options {
                listen,
                host_key,
                tablebases,
                idle: std::time::Duration::from_secs(idle_minutes.max(1) * 60),
                guests,
                per_ip: per_ip.max(1),
                log: Some(log.unwrap_or_else(|| db.with_file_name("draughts-serve.log"))),
                reconnect: std::time::Duration::from_secs(reconnect_seconds),
                adjourn: on_restart == "adjourn",
                db,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Hub { tablebases } => {
            let stdin = std::io::stdin().lock();
            draughts::hub::server::serve(stdin, Box::new(std::io::stdout()), tablebases)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Club { db, command } => club(db, command),
        Command::Pdn {
            command: PdnCommand::Check { variant, files },
        } => {
            let variant: Variant = variant.parse()?;
            let mut all_ok = true;
            for file in files {
                let name = file.display();
                let bytes = match std::fs::read(&file) {
                    Ok(b) => b,
                    Err(e) => {
                        println!("{name}: cannot read: {e}");
                        all_ok = false;
                        continue;
                    }
                };
                let games = pdn::read_bytes(&bytes, variant);
                let errors: Vec<&pdn::PdnError> =
                    games.iter().filter_map(|g| g.as_ref().err()).collect();
                println!(
                    "{name} games={} ok={} errors={}",
                    games.len(),
                    games.len() - errors.len(),
                    errors.len()
                );
                for e in &errors {
                    println!("{name}:{e}");
                }
                all_ok &= errors.is_empty();
            }
            Ok(if all_ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

fn report(depth: u32, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("depth={depth} nodes={nodes} time={secs:.3} nps={nps}");
}

fn threads(n: Option<usize>) -> Result<()> {
    if let Some(n) = n {
        anyhow::ensure!(n > 0, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()?;
    }
    Ok(())
}

fn tb(command: TbCommand) -> Result<ExitCode> {
    match command {
        TbCommand::Generate {
            tables,
            pieces,
            slice,
            threads: t,
        } => {
            let (variant, dir) = tables.resolve()?;
            threads(t)?;
            let report = Report::for_stdout();
            let start = Instant::now();
            let jobs = match (pieces, slice) {
                (_, Some(slice)) => {
                    let m: Material = slice.parse()?;
                    vec![tablebase::generate::generate_job(variant, m, &dir, report)?]
                }
                (Some(p), None) => {
                    anyhow::ensure!(
                        (2..=tablebase::material::MAX_PIECES).contains(&p),
                        "--pieces must be between 2 and {}",
                        tablebase::material::MAX_PIECES
                    );
                    tablebase::generate::generate_all(variant, p, &dir, report)?
                }
                (None, None) => anyhow::bail!("give --pieces or --slice"),
            };
            let made: Vec<_> = jobs.iter().filter(|j| !j.skipped).collect();
            let positions: u64 = made.iter().map(|j| j.positions).sum();
            let secs = start.elapsed().as_secs_f64();
            println!(
                "generated {} jobs ({} already present) positions={positions} time={secs:.1}s rate={:.0}/s dir={}",
                made.len(),
                jobs.len() - made.len(),
                positions as f64 / secs.max(1e-9),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Probe { tables, fen } => {
            let (variant, dir) = tables.resolve()?;
            let pos =
                parse_fen(&fen, variant).map_err(|e| anyhow::anyhow!("bad FEN {fen:?}: {e}"))?;
            let tb = Tablebase::open_for(&dir, variant)?;
            let wdl = tb.wdl(&pos)?;
            let value = tb.dtw(&pos)?;
            anyhow::ensure!(
                wdl == value.wdl(),
                "{}: WDL table says {wdl}, DTW table says {}",
                dir.display(),
                value.wdl()
            );
            println!("{value}");
            let mut moves = Vec::new();
            for mv in pos.legal_moves().iter() {
                moves.push((move_text(&pos, mv), tb.dtw(&pos.play(mv))?.before()));
            }
            moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.preference()));
            for (text, v) in moves {
                println!("{text} {v}");
            }
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Stats { tables } => {
            let (variant, dir) = tables.resolve()?;
            let tb = Tablebase::open_for(&dir, variant)?;
            let stats = tb.stats()?;
            let bits = |bytes: u64, n: u64| bytes as f64 * 8.0 / n.max(1) as f64;
            for s in &stats {
                println!(
                    "{:<12} positions={} wins={} draws={} losses={} longest_win={} wdl_bytes={} dtw_bytes={} wdl_bits={:.3} dtw_bits={:.3}",
                    s.material.to_string(),
                    s.positions,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    s.wdl_bytes,
                    s.dtw_bytes,
                    bits(s.wdl_bytes, s.positions),
                    bits(s.dtw_bytes, s.positions)
                );
            }
            let sum =
                |f: fn(&tablebase::probe::SliceStats) -> u64| stats.iter().map(f).sum::<u64>();
            let positions = sum(|s| s.positions);
            println!(
                "total slices={} positions={} wins={} draws={} losses={} longest_win={} wdl_bytes={} dtw_bytes={} wdl_bits={:.3} dtw_bits={:.3}",
                stats.len(),
                positions,
                sum(|s| s.wins),
                sum(|s| s.draws),
                sum(|s| s.losses),
                stats.iter().map(|s| s.longest_win).max().unwrap_or(0),
                sum(|s| s.wdl_bytes),
                sum(|s| s.dtw_bytes),
                bits(sum(|s| s.wdl_bytes), positions),
                bits(sum(|s| s.dtw_bytes), positions)
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Verify { tables, threads: t } => {
            let (variant, dir) = tables.resolve()?;
            threads(t)?;
            let start = Instant::now();
            let summary = tablebase::verify::verify(variant, &dir, Report::for_stdout())?;
            println!(
                "verified slices={} positions={} time={:.1}s: all consistent",
                summary.slices,
                summary.positions,
                start.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Bench { tables, positions } => {
            let (variant, dir) = tables.resolve()?;
            anyhow::ensure!(positions > 0, "--positions must be at least 1");
            let t = tablebase::bench::probe_latency(&dir, variant, positions)?;
            println!(
                "probe positions={} wdl_cold_us={:.2} wdl_cached_us={:.3} dtw_cold_us={:.2} dtw_cached_us={:.3}",
                t.positions,
                t.wdl_cold_ns / 1000.0,
                t.wdl_cached_ns / 1000.0,
                t.dtw_cold_ns / 1000.0,
                t.dtw_cached_ns / 1000.0
            );
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Plan {
            tables,
            pieces,
            format,
        } => {
            let (variant, dir) = tables.resolve()?;
            match format.as_str() {
                "make" => {
                    let program = std::env::current_exe()?;
                    print!(
                        "{}",
                        tablebase::plan::makefile(
                            variant,
                            pieces,
                            &dir,
                            &program.display().to_string()
                        )
                    );
                }
                "json" => print!("{}", tablebase::plan::json(variant, pieces)),
                other => anyhow::bail!("unknown plan format {other:?} (make or json)"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
