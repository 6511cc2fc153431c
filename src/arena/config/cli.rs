//! The command line of `tabula match` (clap): its flags, their help and
//! the examples `--help` ends with.

use std::path::PathBuf;

use clap::ArgAction;

/// `--timemargin`'s default, in milliseconds: the grace over every
/// enforced time limit. Fit for a busy machine: at load 11-15 on 2 cores
/// a tabula reply came 471 ms after its 100 ms move time, and `tabula
/// bench --clock` read answers up to 1.6 s late at load 20 (200 ms, the
/// default before, lost games on time there).
pub const DEFAULT_TIMEMARGIN_MS: u64 = 1000;

const EXAMPLES: &str = "\
Where `tabula` comes from: `cargo install --locked --path .` in the source tree puts
it on PATH; or name the build itself, e.g. cmd=./target/release/tabula after
`cargo build --release`. The examples below assume it is on PATH.

Examples:
  # Two searches of tabula on Othello, 10 games, 2 at a time, 20 ms a move:
  tabula match --engine cmd=tabula name=mcts set.search=mcts \\
               --engine cmd=tabula name=ab set.search=alphabeta \\
               --game othello --games 10 --concurrency 2 --movetime 20 --chart match.svg

  # The same, 2 games with a clock of 1 s + 0.1 s byo-yomi per game, watched live
  # (open live.svg in a browser: it reloads itself while the match runs):
  tabula match --engine cmd=tabula name=mcts set.search=mcts \\
               --engine cmd=tabula name=ab set.search=alphabeta --games 2 --tc 1+0.1 --live live.svg

  # Hearts, seat-bound engines refereed by the runner, stop early by SPRT:
  tabula match --game hearts -o hands=single --games 40 \\
               --engine cmd=tabula name=new set.iterations=400 \\
               --engine cmd=tabula name=old set.iterations=100 --each set.search=ismcts \\
               --sprt elo0=0 elo1=50

  # Wizard, one ismcts player against three rules players (ABBB, rotated):
  tabula match --game wizard --table ABBB --games 8 \\
               --engine cmd=tabula name=ismcts set.search=ismcts set.iterations=200 \\
               --engine cmd=tabula name=rules set.search=rules

  # Three engines: a round robin with a cross-table, 2 games per pairing:
  tabula match --engine cmd=tabula name=mcts set.search=mcts --engine cmd=tabula name=flat \\
               set.search=flat --engine cmd=tabula name=rules set.search=rules --games 2 --movetime 20

  # One match over four machines (or cores): each plays a quarter of the deals
  # of the same seed, then the four records merge into the report of the whole:
  for k in 1 2 3 4; do
    tabula match --engine cmd=tabula name=mcts set.search=mcts \\
                 --engine cmd=tabula name=flat set.search=flat \\
                 --games 8 --movetime 20 --seed 1 --shard $k/4 --record shard$k.txt
  done
  tabula match --merge shard1.txt shard2.txt shard3.txt shard4.txt --chart all.svg

  # A plain GTP Othello engine (if you have one, e.g. Edax) against tabula,
  # 4 games of 20 s + 1 s a move each side (plain GTP clocks are whole seconds):
  tabula match --engine cmd=\"edax -gtp\" proto=gtp --engine cmd=tabula --games 4 --tc 20+1

Engine keys: cmd=COMMAND (required), name=NAME, proto=tabula|gtp, set.KEY=VALUE
(sent as `set KEY VALUE` to tabula engines), init=LINE (any command sent at start),
dir=PATH, stderr=FILE, and per-engine limits movetime=MS, depth=N, iterations=N,
tc=MAIN[+[STONES/]BYO]. Plain GTP engines count time in whole seconds: their movetime must be
a multiple of 1000 and their clock whole seconds.

Before the first game every engine is started once and sent its set-up lines: one
that cannot start or refuses a line stops the match with an error. During the match
faults (a crash, a move later than its time and --timemargin, an illegal move, a
malformed reply, a refused command) lose that game for the culprit and are counted
in the report; the match goes on, but exits non-zero if an engine forfeited every
game it played. A late move is a loss on time, never a crash: on a busy machine give
more --timemargin or lower --concurrency. A crashed or hung engine (no reply within
--timeout to a command without a time limit) is restarted for its next game; its
second crash or hang stops the match unless --recover is given. Ctrl-C
stops starting games, lets those under way finish and prints the report; a second
Ctrl-C, SIGTERM or SIGHUP quits at once, ending every engine, with the record whole
up to the last finished game. Every output path is checked before the first game.";

/// The command line of `tabula match`.
#[derive(Clone, Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct MatchArgs {
    /// The engines (`--engine KEY=VALUE...`, repeated).
    #[command(flatten)]
    pub engines: EngineWords,

    /// KEY=VALUE words applied to every engine (an engine's own words win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// The game to play.
    #[arg(long, default_value = crate::games::default_game().name)]
    pub game: String,

    /// A game option (repeatable), e.g. `-o size=7`.
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,

    /// Games per pairing. Use a multiple of the seat rotation (2 for
    /// two-seat games) so that every deal is played from every side.
    #[arg(short = 'n', long, default_value_t = 100)]
    pub games: usize,

    /// Games played at the same time (default: the number of cores).
    #[arg(short = 'j', long)]
    pub concurrency: Option<usize>,

    /// Who sits where, as one letter per seat: A for the first engine of a
    /// pairing, B for the second, e.g. ABBB (one engine against three
    /// copies of the other). Every rotation is played on each deal, so
    /// --games should be a multiple of the number of seats. Default: the
    /// engines alternate (ABAB, and BABA).
    #[arg(long, value_name = "PATTERN")]
    pub table: Option<String>,

    /// Milliseconds per move, for every engine (enforced, plus --timemargin).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,

    /// Search depth per move (sent with genmove; not enforced).
    #[arg(long)]
    pub depth: Option<u32>,

    /// Iterations per move (sent with genmove; not enforced).
    #[arg(long)]
    pub iterations: Option<u64>,

    /// A game clock per seat: MAIN seconds, optionally +BYO seconds per
    /// move once main time is spent, or +STONES/BYO: STONES moves in each
    /// BYO seconds (GTP time_settings/time_left, Canadian byo-yomi).
    #[arg(long, value_name = "MAIN[+[STONES/]BYO]")]
    pub tc: Option<String>,

    /// Milliseconds of grace over every enforced time limit (per move
    /// under --movetime; once a game, or once a byo-yomi period, under
    /// --tc). The default leaves room for a busy machine, where an engine
    /// may wait most of a second for a core.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEMARGIN_MS)]
    pub timemargin: u64,

    /// Seconds to wait for a reply that has no time limit of its own
    /// (setup commands, moves under depth or iteration budgets; at most
    /// 1e6).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Engine moves after which a game is adjudicated a draw (0: never).
    #[arg(long, default_value_t = 2000)]
    pub max_moves: usize,

    /// Random moves played at the start of every perfect-information game
    /// (the same for both colours of a deal), for varied openings.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,

    /// Adjudicate games whose result is known: solve=N ends an Othello
    /// game at N empty squares or fewer with the exact solver's result.
    /// On the engines' own scores (two-player games of perfect
    /// information; a score is the mover's win value in [0, 1]):
    /// resign.movecount=K resign.score=S [resign.twosided=true] gives the
    /// game against a seat whose last K scores are all at most S (two-sided:
    /// while the other's last K are all at least 1-S); draw.movecount=K
    /// draw.score=S [draw.movenumber=N] draws it once both seats' last K
    /// scores lie within S of 0.5, after N moves of each. See docs/match.md.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub adjudicate: Option<Vec<String>>,

    /// Play the deals from an opening suite: FILE, then format=moves|positions
    /// order=sequential|random start=N (see docs/match.md). Each opening is
    /// played once per seat rotation; start=N begins at opening N.
    #[arg(long, value_name = "FILE [KEY=VALUE]", num_args = 1..)]
    pub openings: Option<Vec<String>>,

    /// The match seed: deals, openings and engine seeds derive from it
    /// (default: from the clock; always printed and recorded).
    #[arg(long)]
    pub seed: Option<u64>,

    /// Do not send tabula engines `set seed N` before each game.
    #[arg(long)]
    pub no_game_seeds: bool,

    /// Stop early by a sequential probability ratio test (two engines):
    /// elo0=E elo1=E alpha=A beta=B (defaults 0, 5, 0.05, 0.05).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    pub sprt: Option<Vec<String>>,

    /// The record file (default: tabula-match-SEED.txt); every game as
    /// replayable protocol commands with result headers.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Write no record.
    #[arg(long, conflicts_with = "record")]
    pub no_record: bool,

    /// Draw the win rates per pairing, with 95% intervals, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,

    /// Rewrite this SVG chart while the match runs (about once a second),
    /// with the Elo curve so far; open it in a browser, which reloads it.
    #[arg(long, value_name = "FILE.svg")]
    pub live: Option<PathBuf>,

    /// Play only shard K of N of the match: the deals numbered K-1 modulo
    /// N, each with all its seat rotations, of the same --seed (give one).
    /// `--merge` of the N records is the whole match.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// Merge these record files into one report instead of playing
    /// (with --record, also write the merged record). The shards of one
    /// match merge into that match, game numbers kept.
    #[arg(long, value_name = "RECORD", num_args = 1..)]
    pub merge: Vec<PathBuf>,

    /// With --merge: merge even when deals of the match are missing (the
    /// report names them); without it such a merge is refused.
    #[arg(long, requires = "merge")]
    pub partial: bool,

    /// Also write the games in other formats: ggf=FILE (Othello, GGF as
    /// NBoard and Edax read it), quoridor=FILE (Quoridor text, a line per
    /// move), jsonl=FILE (any game, one JSON object per game).
    #[arg(long, value_name = "FORMAT=FILE", num_args = 1..)]
    pub export: Vec<String>,

    /// Scale every time limit by this machine's speed: the reference
    /// machine's nodes a second from `tabula bench` (its signature line);
    /// limits are multiplied by REF_NPS / this machine's.
    #[arg(long, value_name = "REF_NPS")]
    pub tc_scale: Option<f64>,

    /// The report is returned in [`MatchReport::text`](crate::arena::output::match_report::MatchReport)
    /// and not printed, nor the progress and fault lines (they are in
    /// the report and the record): for callers of the library (the
    /// tests) that read them themselves. Not on the command line.
    #[arg(skip)]
    pub unprinted: bool,

    /// Restart an engine that crashed or hung and go on, however often
    /// (its games are lost as forfeits). Without it the match stops at
    /// an engine's second crash or hang.
    #[arg(long)]
    pub recover: bool,

    /// No progress bar, one line per finished game instead.
    #[arg(long)]
    pub no_progress: bool,

    /// No progress at all (faults and the report are still printed).
    #[arg(short, long)]
    pub quiet: bool,

    /// Print every line sent to and received from engines on stderr.
    #[arg(long)]
    pub debug: bool,
}

/// The words of each `--engine` occurrence, kept apart per engine.
///
/// clap's derive cannot group values by occurrence (`Vec<Vec<String>>`
/// is unstable there), so this argument is implemented by hand with
/// `get_occurrences`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineWords(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineWords {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineWords(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineWords {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .help(
                    "An engine, as KEY=VALUE words: cmd=COMMAND (required), name=, proto=tabula|gtp, \
                     set.KEY=VALUE, init=LINE, dir=, stderr=, movetime=, depth=, iterations=, tc=. \
                     Repeat for each engine (two for a match, more for a round robin)",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Refuses a game option given twice (`-o hands=single -o hands=game`):
/// the game would take one of them without a word. Keys are compared as
/// the game reads them, without regard to case.
pub fn check_game_options(
    words: &[String],
) -> Result<(), crate::arena::ground::config_error::ConfigError> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for word in words {
        let key = word.split_once('=').map_or(word.as_str(), |(k, _)| k);
        let key = key.to_ascii_lowercase();
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(crate::arena::ground::config_error::ConfigError(format!(
                "game option '{key}' given twice (-o {first}, -o {word}): give each option once"
            )));
        }
        seen.push((key, word));
    }
    Ok(())
}

#[cfg(test)]
mod option_tests {
    use super::check_game_options;

    #[test]
    fn a_game_option_given_twice_is_refused() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_game_options(&words(&["size=7", "walls=5"])).is_ok());
        let err = check_game_options(&words(&["size=7", "walls=5", "SIZE=9"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("'size' given twice (-o size=7, -o SIZE=9)"),
            "{err}"
        );
    }
}
