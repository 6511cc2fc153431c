//! Engine descriptions and limits, read from the `--engine KEY=VALUE...`
//! words of the command line.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::arena::engines::process::Launch;
use crate::arena::ground::config_error::ConfigError;
use crate::arena::record::match_file::EngineInfo;

/// The keys an `--engine` (or `--each`) word may use.
pub const ENGINE_KEYS: &str = "cmd=COMMAND, name=NAME, proto=tabula|gtp, set.KEY=VALUE, \
init=LINE, dir=PATH, stderr=FILE, movetime=MS, depth=N, iterations=N, tc=MAIN[+[STONES/]BYO]";

/// The protocol dialect an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    /// tabula's protocol: `game`, `set`, per-call budgets, seat-bound play.
    #[default]
    Tabula,
    /// Plain GTP (an Othello engine): `boardsize`, `clear_board`, `play`,
    /// `genmove`, `time_settings`, `time_left`, `quit` only.
    Gtp,
}

impl Proto {
    /// The word used on the command line and in records.
    pub fn word(self) -> &'static str {
        match self {
            Proto::Tabula => "tabula",
            Proto::Gtp => "gtp",
        }
    }
}

/// The longest time any limit may have (`--tc`, `--timeout`, `movetime`):
/// about 11.6 days, far inside what engines accept (tabula's `time_settings`
/// takes up to 1e9 seconds) and what the system's clock can add.
pub const MAX_SECONDS: f64 = 1e6;

/// Seconds from a user's text: finite, not negative, at most
/// [`MAX_SECONDS`], kept to the millisecond.
pub fn parse_seconds(text: &str, what: &str) -> Result<Duration, ConfigError> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| ConfigError(format!("{what} needs a number of seconds, not '{text}'")))?;
    if !(v.is_finite() && (0.0..=MAX_SECONDS).contains(&v)) {
        return Err(ConfigError(format!(
            "{what} must be between 0 and {MAX_SECONDS} seconds, not '{text}'"
        )));
    }
    Ok(Duration::from_millis((v * 1000.0).round() as u64))
}

/// Whether `text` is seconds as a clock is written: digits, with up to
/// three decimals after a point (`5`, `0.5`, `1.25`).
fn plain_seconds(text: &str) -> bool {
    let (whole, decimals) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    digits(whole) && digits(decimals) && decimals.len() <= 3
}

/// Seconds as the protocol writes them: whole, or with up to three
/// decimals (`2`, `0.1`, `1.234`).
pub fn fmt_seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        return (ms / 1000).to_string();
    }
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').to_string()
}

/// A game clock as GTP's `time_settings MAIN BYO STONES` sets it: main
/// time, then periods of `stones` moves in `byoyomi` (Canadian byo-yomi;
/// 1 stone: byo-yomi per move). The referee keeps it with
/// [`SeatClock`](crate::arena::clock::seat_clock::SeatClock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time for the whole game.
    pub main: Duration,
    /// A byo-yomi period once the main time is spent (zero: none).
    pub byoyomi: Duration,
    /// Moves to play in each period (0 when there is no byo-yomi).
    pub stones: u32,
}

impl TimeControl {
    /// Parses `MAIN`, `MAIN+BYO` (byo-yomi per move) or `MAIN+N/BYO` (N
    /// moves in each period of BYO) in seconds (decimals allowed, to the
    /// millisecond; at most [`MAX_SECONDS`] each).
    pub fn parse(text: &str) -> Result<TimeControl, ConfigError> {
        let bad = |why: String| {
            ConfigError(format!(
                "bad clock '{text}': expected MAIN, MAIN+BYO or MAIN+STONES/BYO in seconds ({why})"
            ))
        };
        // Only the written forms: digits, and at most three decimals (the
        // clock keeps milliseconds: more would be rounded away without a
        // word); no sign, exponent, spaces, `inf`.
        let secs = |s: &str, what: &str| {
            if !plain_seconds(s) {
                return Err(bad(format!(
                    "{what} '{s}' is not seconds written as digits with at most three decimals"
                )));
            }
            parse_seconds(s, what).map_err(|e| bad(e.0))
        };
        let (main, byo, stones) = match text.split_once('+') {
            Some((m, b)) => {
                let (stones, b) = match b.split_once('/') {
                    Some((n, b)) => (
                        Some(n)
                            .filter(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
                            .and_then(|n| n.parse::<u32>().ok())
                            .filter(|&n| n > 0)
                            .ok_or_else(|| bad(format!("stones must be 1 or more, not '{n}'")))?,
                        b,
                    ),
                    None => (1, b),
                };
                let byo = secs(b, "byo-yomi")?;
                if byo.is_zero() {
                    return Err(bad(
                        "a byo-yomi of 0 seconds is none: leave out '+...'".to_string()
                    ));
                }
                (secs(m, "main time")?, byo, stones)
            }
            None => (secs(text, "main time")?, Duration::ZERO, 0),
        };
        TimeControl::new(main, byo, stones).map_err(|e| bad(e.0))
    }

    /// GTP's `time_settings` numbers, checked: some time to play, and a
    /// period with stones (GTP reads byo-yomi with 0 stones as no limit
    /// at all, which no referee enforces). No byo-yomi time means no
    /// byo-yomi, whatever the stones.
    pub fn new(main: Duration, byoyomi: Duration, stones: u32) -> Result<TimeControl, ConfigError> {
        let (byoyomi, stones) = if byoyomi.is_zero() {
            (Duration::ZERO, 0)
        } else {
            (byoyomi, stones)
        };
        if !byoyomi.is_zero() && stones == 0 {
            return Err(ConfigError(
                "byo-yomi with 0 stones is no time limit in GTP: give its stones".to_string(),
            ));
        }
        if main.is_zero() && byoyomi.is_zero() {
            return Err(ConfigError("no time at all".to_string()));
        }
        Ok(TimeControl {
            main,
            byoyomi,
            stones,
        })
    }

    /// Whether a byo-yomi follows the main time.
    pub fn has_byoyomi(&self) -> bool {
        self.stones > 0
    }

    /// The `time_settings` command that announces this clock.
    pub fn time_settings_command(&self) -> String {
        format!(
            "time_settings {} {} {}",
            fmt_seconds(self.main),
            fmt_seconds(self.byoyomi),
            self.stones
        )
    }

    /// Whether both times are whole seconds (all that GTP can announce).
    pub fn whole_seconds(&self) -> bool {
        self.main.subsec_nanos() == 0 && self.byoyomi.subsec_nanos() == 0
    }
}

impl fmt::Display for TimeControl {
    /// As [`TimeControl::parse`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", fmt_seconds(self.main))?;
        match self.stones {
            0 => Ok(()),
            1 => write!(f, "+{}", fmt_seconds(self.byoyomi)),
            n => write!(f, "+{n}/{}", fmt_seconds(self.byoyomi)),
        }
    }
}

/// What an engine may spend per move or per game. Every limit set applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Milliseconds per move (sent as `genmove ... movetime=MS`; enforced).
    pub movetime: Option<u64>,
    /// Depth per move (sent as `depth=N`; not enforced).
    pub depth: Option<u32>,
    /// Iterations per move (sent as `iterations=N`; not enforced).
    pub iterations: Option<u64>,
    /// A clock per game (`time_settings` / `time_left`; enforced).
    pub clock: Option<TimeControl>,
}

impl Limits {
    /// These limits, with each unset one taken from `fallback`.
    pub fn or(self, fallback: Limits) -> Limits {
        Limits {
            movetime: self.movetime.or(fallback.movetime),
            depth: self.depth.or(fallback.depth),
            iterations: self.iterations.or(fallback.iterations),
            clock: self.clock.or(fallback.clock),
        }
    }
}

/// A movetime in milliseconds, checked against [`MAX_SECONDS`].
pub fn check_movetime(ms: u64) -> Result<u64, ConfigError> {
    if ms == 0 || ms as f64 > MAX_SECONDS * 1000.0 {
        return Err(ConfigError(format!(
            "movetime must be between 1 and {} milliseconds, not {ms}",
            MAX_SECONDS * 1000.0
        )));
    }
    Ok(ms)
}

impl Limits {
    /// Checks that an engine of dialect `proto` can be told these limits
    /// exactly: GTP's `time_settings` and `time_left` count whole seconds,
    /// so a GTP engine's clock and movetime must be whole seconds (a limit
    /// announced rounded but enforced exactly forfeits games).
    pub fn check_for(&self, proto: Proto, engine: &str) -> Result<(), ConfigError> {
        if proto != Proto::Gtp {
            return Ok(());
        }
        if let Some(ms) = self.movetime
            && ms % 1000 != 0
        {
            return Err(ConfigError(format!(
                "engine {engine} speaks plain GTP, which announces time in whole seconds: \
                 its movetime must be a multiple of 1000 ms, not {ms} \
                 (give it its own, e.g. movetime={})",
                ms.div_ceil(1000) * 1000
            )));
        }
        if let Some(c) = self.clock
            && !c.whole_seconds()
        {
            return Err(ConfigError(format!(
                "engine {engine} speaks plain GTP, which announces time in whole seconds: \
                 its clock must be whole seconds, not {c} (give it its own, e.g. tc={})",
                TimeControl {
                    main: Duration::from_secs(c.main.as_secs_f64().round() as u64),
                    byoyomi: Duration::from_secs(c.byoyomi.as_secs_f64().ceil() as u64),
                    ..c
                }
            )));
        }
        Ok(())
    }
}

/// One engine of the match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its unique name in reports and records.
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Its dialect.
    pub proto: Proto,
    /// Lines sent once after it starts: `set ...` lines (tabula engines
    /// only) and `init=` lines (every engine), in the order given.
    pub init: Vec<String>,
    /// The `init=` lines alone: all that a plain GTP engine is sent at
    /// start (`set` is not a GTP command).
    pub gtp_init: Vec<String>,
    /// Its own limits (already combined with the match's).
    pub limits: Limits,
    /// Whether its settings fix a seed (then the runner sends none).
    pub sets_seed: bool,
}

impl EngineSpec {
    /// Parses the words of `--each` then of one `--engine` (later words
    /// win). `index` numbers the engine for a default name.
    pub fn parse<S: AsRef<str>>(each: &[S], words: &[S]) -> Result<EngineSpec, ConfigError> {
        let mut spec = EngineSpec::default();
        let mut limits = Limits::default();
        for word in each.iter().chain(words) {
            let word = word.as_ref();
            let (key, value) = word.split_once('=').ok_or_else(|| {
                ConfigError(format!(
                    "engine word '{word}' is not KEY=VALUE ({ENGINE_KEYS})"
                ))
            })?;
            let num = |what: &str| -> Result<u64, ConfigError> {
                value
                    .parse()
                    .map_err(|_| ConfigError(format!("{what} needs a whole number, not '{value}'")))
            };
            match key {
                "cmd" => spec.launch.command = value.to_string(),
                "name" => spec.name = value.to_string(),
                "proto" => {
                    spec.proto = match value {
                        "tabula" => Proto::Tabula,
                        "gtp" => Proto::Gtp,
                        _ => {
                            return Err(ConfigError(format!(
                                "proto must be tabula or gtp, not '{value}'"
                            )));
                        }
                    }
                }
                "init" => {
                    spec.init.push(value.to_string());
                    spec.gtp_init.push(value.to_string());
                }
                "dir" => spec.launch.dir = Some(PathBuf::from(value)),
                "stderr" => spec.launch.stderr = Some(PathBuf::from(value)),
                "movetime" => limits.movetime = Some(check_movetime(num("movetime")?)?),
                "depth" => {
                    limits.depth = Some(
                        u32::try_from(num("depth")?)
                            .map_err(|_| ConfigError("depth is too large".into()))?,
                    )
                }
                "iterations" => limits.iterations = Some(num("iterations")?),
                "tc" => limits.clock = Some(TimeControl::parse(value)?),
                _ => match key.strip_prefix("set.") {
                    Some(setting) if !setting.is_empty() => {
                        if setting.eq_ignore_ascii_case("seed") {
                            spec.sets_seed = true;
                        }
                        spec.init.push(format!("set {setting} {value}"));
                    }
                    _ => {
                        return Err(ConfigError(format!(
                            "unknown engine key '{key}' (accepted: {ENGINE_KEYS})"
                        )));
                    }
                },
            }
        }
        if spec.launch.command.trim().is_empty() {
            return Err(ConfigError(format!(
                "an engine needs cmd=COMMAND (keys: {ENGINE_KEYS})"
            )));
        }
        if spec
            .init
            .iter()
            .any(|l| l.split_whitespace().next() == Some("set") && l.contains(" seed "))
        {
            spec.sets_seed = true;
        }
        spec.limits = limits;
        Ok(spec)
    }

    /// The lines sent once after start: every setting to a tabula
    /// engine, the `init=` lines alone to a GTP engine.
    pub fn start_lines(&self) -> &[String] {
        match self.proto {
            Proto::Tabula => &self.init,
            Proto::Gtp => &self.gtp_init,
        }
    }

    /// A default name from the command: the program's file name.
    pub fn default_name(&self) -> String {
        let program = self
            .launch
            .command
            .split_whitespace()
            .next()
            .unwrap_or("engine");
        program.rsplit('/').next().unwrap_or(program).to_string()
    }

    /// How the record describes this engine.
    pub fn info(&self) -> EngineInfo {
        EngineInfo {
            name: self.name.clone(),
            proto: self.proto.word().to_string(),
            command: self.launch.command.clone(),
            init: self.init.clone(),
            settings: self.record_settings(),
        }
    }

    /// What of this engine, beyond its command and set-up lines, changes
    /// its games, as the record's `key=value` pairs: its working directory
    /// and its limits (the match's, where it has none of its own).
    fn record_settings(&self) -> Vec<(String, String)> {
        let l = &self.limits;
        [
            (
                "dir",
                self.launch.dir.as_ref().map(|d| d.display().to_string()),
            ),
            ("movetime", l.movetime.map(|v| v.to_string())),
            ("depth", l.depth.map(|v| v.to_string())),
            ("iterations", l.iterations.map(|v| v.to_string())),
            ("tc", l.clock.map(|c| c.to_string())),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
        .collect()
    }
}

/// Makes engine names usable in records and tables: no spaces, commas,
/// quotes or `=`, not empty, and unique (a `-2`, `-3`... suffix).
pub fn settle_names(specs: &mut [EngineSpec]) {
    let mut taken: Vec<String> = Vec::new();
    for spec in specs.iter_mut() {
        let raw = if spec.name.is_empty() {
            spec.default_name()
        } else {
            spec.name.clone()
        };
        let mut clean: String = raw
            .chars()
            .map(|c| {
                if c.is_whitespace() || ",\"'=\\#".contains(c) {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        if clean.is_empty() {
            clean = "engine".to_string();
        }
        let mut name = clean.clone();
        let mut k = 2;
        while taken.contains(&name) {
            name = format!("{clean}-{k}");
            k += 1;
        }
        taken.push(name.clone());
        spec.name = name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_words() {
        let each = ["movetime=50", "proto=tabula"];
        let spec = EngineSpec::parse(
            &each,
            &[
                "cmd=./tabula -q",
                "name=uct",
                "set.search=uct",
                "set.seed=3",
                "movetime=70",
            ],
        )
        .unwrap();
        assert_eq!(spec.launch.command, "./tabula -q");
        assert_eq!(spec.init, vec!["set search uct", "set seed 3"]);
        assert!(spec.sets_seed);
        assert_eq!(spec.limits.movetime, Some(70));
        assert!(EngineSpec::parse(&each, &["name=x"]).is_err());
        assert!(
            EngineSpec::parse::<&str>(&[], &["cmd=x", "colour=red"])
                .unwrap_err()
                .0
                .contains("accepted")
        );
    }

    #[test]
    fn clocks() {
        assert_eq!(
            TimeControl::parse("60").unwrap().main,
            Duration::from_secs(60)
        );
        assert_eq!(
            TimeControl::parse("1+0.5").unwrap().byoyomi,
            Duration::from_millis(500)
        );
        let periods = TimeControl::parse("2+5/10").unwrap();
        assert_eq!(
            (periods.main, periods.byoyomi, periods.stones),
            (Duration::from_secs(2), Duration::from_secs(10), 5)
        );
        assert_eq!(periods.time_settings_command(), "time_settings 2 10 5");
        assert_eq!(TimeControl::parse("1+0.5").unwrap().stones, 1);
        assert_eq!(TimeControl::parse("60").unwrap().stones, 0);
        // Read back as written, in the record.
        for text in ["60", "1+0.5", "0+5/10", "2.5+3/1.5"] {
            assert_eq!(TimeControl::parse(text).unwrap().to_string(), text);
        }
        assert!(TimeControl::parse("x").is_err());
        assert!(TimeControl::parse("0").is_err());
        assert!(TimeControl::parse("1+0/10").is_err());
        assert!(TimeControl::new(Duration::ZERO, Duration::from_secs(5), 0).is_err());
        for absurd in ["2e9", "1e300", "inf", "NaN", "-1", "1+-1", "1+1e7"] {
            assert!(TimeControl::parse(absurd).is_err(), "{absurd}");
        }
        // Lax forms that f64 and u32 parsing would take: a sign, an
        // exponent, spaces, a bare point, decimals past the millisecond,
        // a byo-yomi of nothing, stones with a sign.
        for lax in [
            "+5", "1e1", " 5", "5 ", "5 + 1", ".5", "5.", "0.0001", "1.2345", "5+0", "5+0.000",
            "5+0/3", "5++1", "5+1/+2", "5+1/2/3", "5+", "+", "",
        ] {
            let err = TimeControl::parse(lax).expect_err(lax).to_string();
            assert!(err.contains("bad clock"), "{lax}: {err}");
        }
        assert_eq!(fmt_seconds(Duration::from_millis(100)), "0.1");
        assert_eq!(fmt_seconds(Duration::from_millis(1234)), "1.234");
        assert_eq!(fmt_seconds(Duration::from_secs(60)), "60");
    }

    #[test]
    fn gtp_engines_get_whole_seconds_only() {
        let limits = |movetime, tc: Option<&str>| Limits {
            movetime,
            clock: tc.map(|t| TimeControl::parse(t).unwrap()),
            ..Limits::default()
        };
        assert!(limits(Some(300), None).check_for(Proto::Gtp, "e").is_err());
        assert!(limits(Some(1500), None).check_for(Proto::Gtp, "e").is_err());
        assert!(limits(Some(2000), None).check_for(Proto::Gtp, "e").is_ok());
        assert!(
            limits(None, Some("2+0.1"))
                .check_for(Proto::Gtp, "e")
                .is_err()
        );
        assert!(limits(None, Some("2+1")).check_for(Proto::Gtp, "e").is_ok());
        assert!(
            limits(Some(300), Some("2+0.1"))
                .check_for(Proto::Tabula, "e")
                .is_ok()
        );
    }

    #[test]
    fn names_unique_and_clean() {
        let mut specs = vec![
            EngineSpec::default(),
            EngineSpec::default(),
            EngineSpec::default(),
        ];
        specs[0].launch.command = "/usr/bin/tabula".into();
        specs[1].launch.command = "tabula".into();
        specs[2].name = "my engine".into();
        settle_names(&mut specs);
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["tabula", "tabula-2", "my_engine"]);
    }
}
