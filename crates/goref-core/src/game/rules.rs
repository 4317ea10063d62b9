//! Rules presets (`kgs`, `cgf`, `usenix`) and the settings each one fixes.
//!
//! A preset is only a starting point: every field can be overridden by a flag
//! or the game file. Where the tournament documents leave a point open
//! (`reference/rules.md` §5, §8) the choice is a field here, documented.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::board::{BoardRules, KoRule};
use super::clock::TimeSystem;
use super::score::Scoring;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    Kgs,
    Cgf,
    Usenix,
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "kgs" => Ok(Preset::Kgs),
            "cgf" => Ok(Preset::Cgf),
            "usenix" => Ok(Preset::Usenix),
            other => Err(format!(
                "unknown rules preset '{other}' (expected kgs, cgf or usenix)"
            )),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Preset::Kgs => "kgs",
            Preset::Cgf => "cgf",
            Preset::Usenix => "usenix",
        })
    }
}

/// How the dead stones are settled after the game stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndOfGame {
    /// The KGS protocol: `final_status_list dead`, a cleanup phase on
    /// disagreement, then everything alive after a second double pass.
    KgsCleanup,
    /// The programs' claims are compared; agreement is scored, a dispute goes
    /// to the judge (the operator), as in the CGF and Usenix tournaments.
    Judge,
}

/// The CGF move-count limits (`reference/rules.md` §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MoveLimits {
    /// A time-out before this move number loses on time; at or after it the
    /// game goes to the judge instead.
    pub time_loss_before: Option<u32>,
    /// The game stops for adjudication once this many moves have been played.
    pub stop_at: Option<u32>,
    /// Whether passes count as moves (the UEC rules count them; assumed here).
    pub count_passes: bool,
}

impl MoveLimits {
    pub(crate) const NONE: MoveLimits = MoveLimits {
        time_loss_before: None,
        stop_at: None,
        count_passes: true,
    };
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub preset: Preset,
    pub scoring: Scoring,
    pub ko: KoRule,
    pub suicide_allowed: bool,
    pub komi: f64,
    pub time: TimeSystem,
    pub limits: MoveLimits,
    pub end_of_game: EndOfGame,
    /// The longest a player may take over one answer, whatever its clock says;
    /// it keeps an untimed game from hanging on a silent program.
    pub move_timeout: Duration,
    /// How many times a program that crashes during play is started again
    /// (a GTP engine: with the same command line, told the position, its
    /// clock running throughout) before its crash forfeits. KGS lets the
    /// operator restart a program with the same settings (1); under CGF
    /// and Usenix rules a crash forfeits (0).
    pub restart_crashed: u32,
    /// A program (a Usenix program or a GTP engine) whose user CPU time
    /// does not grow for this long of real time while it is to move is
    /// stuck, and forfeits (the Usenix idle rule).
    #[serde(default)]
    pub idle_limit: Option<Duration>,
    /// What a Usenix program that starts a child process gets: a forfeit,
    /// as the 1987 rules say, or a report only.
    #[serde(default)]
    pub forks: ForkRule,
    /// For a program played through a seat (`goref seat`): how much less
    /// than the venue's own measure of a move its clock may be charged, on
    /// the seat's word for its thinking; 0 charges the venue's measure.
    #[serde(default = "default_lag_allowance")]
    pub lag_allowance: Duration,
}

fn default_lag_allowance() -> Duration {
    DEFAULT_LAG_ALLOWANCE
}

/// The lag a seat's own stamp may take off a move's charge, unless set.
pub const DEFAULT_LAG_ALLOWANCE: Duration = Duration::from_secs(1);

/// What a program that forks gets (the Usenix "no forking" rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForkRule {
    /// It is reported, and plays on.
    #[default]
    Report,
    /// It forfeits.
    Forfeit,
}

/// Under the Usenix rules a move may use the whole hour of CPU time and its
/// 10 s: the wall-clock limit on one answer is past that, and the idle rule
/// catches a program that is stuck.
const USENIX_MOVE_TIMEOUT: Duration = Duration::from_secs(2 * 60 * 60);

impl Rules {
    pub fn preset(preset: Preset) -> Rules {
        match preset {
            Preset::Kgs => Rules {
                preset,
                scoring: Scoring::Area,
                ko: KoRule::PositionalSuperko,
                suicide_allowed: false,
                komi: 7.5,
                time: TimeSystem::None,
                limits: MoveLimits::NONE,
                end_of_game: EndOfGame::KgsCleanup,
                move_timeout: Duration::from_secs(600),
                restart_crashed: 1,
                idle_limit: None,
                forks: ForkRule::Report,
                lag_allowance: DEFAULT_LAG_ALLOWANCE,
            },
            Preset::Cgf => Rules {
                preset,
                scoring: Scoring::Territory,
                ko: KoRule::Simple,
                suicide_allowed: false,
                komi: 5.5,
                time: TimeSystem::Absolute {
                    main: Duration::from_secs(50 * 60),
                },
                limits: MoveLimits {
                    time_loss_before: Some(300),
                    stop_at: Some(400),
                    count_passes: true,
                },
                end_of_game: EndOfGame::Judge,
                move_timeout: Duration::from_secs(600),
                restart_crashed: 0,
                idle_limit: None,
                forks: ForkRule::Report,
                lag_allowance: DEFAULT_LAG_ALLOWANCE,
            },
            Preset::Usenix => Rules {
                preset,
                scoring: Scoring::Territory,
                ko: KoRule::Simple,
                suicide_allowed: false,
                komi: 5.5,
                time: TimeSystem::Cpu {
                    main: Duration::from_secs(60 * 60),
                    per_move: Duration::from_secs(10),
                },
                limits: MoveLimits::NONE,
                end_of_game: EndOfGame::Judge,
                move_timeout: USENIX_MOVE_TIMEOUT,
                restart_crashed: 0,
                idle_limit: Some(Duration::from_secs(10 * 60)),
                forks: ForkRule::Forfeit,
                lag_allowance: DEFAULT_LAG_ALLOWANCE,
            },
        }
    }

    pub(crate) fn board_rules(&self) -> BoardRules {
        BoardRules {
            ko: self.ko,
            suicide_allowed: self.suicide_allowed,
        }
    }

    /// The SGF `RU` value.
    pub fn sgf_name(&self) -> &'static str {
        match self.scoring {
            Scoring::Area => "Chinese",
            Scoring::Territory => "Japanese",
        }
    }

    /// The `kgs-rules` argument for engines that understand it.
    pub fn kgs_rules_name(&self) -> &'static str {
        match self.scoring {
            Scoring::Area => "chinese",
            Scoring::Territory => "japanese",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_follow_the_design_table() {
        let kgs = Rules::preset(Preset::Kgs);
        assert_eq!(
            (kgs.scoring, kgs.ko, kgs.komi),
            (Scoring::Area, KoRule::PositionalSuperko, 7.5)
        );
        assert_eq!(kgs.end_of_game, EndOfGame::KgsCleanup);

        let cgf = Rules::preset(Preset::Cgf);
        assert_eq!(
            (cgf.scoring, cgf.ko, cgf.komi),
            (Scoring::Territory, KoRule::Simple, 5.5)
        );
        assert_eq!(cgf.time.to_string(), "absolute:50m");
        assert_eq!(cgf.limits.time_loss_before, Some(300));
        assert_eq!(cgf.limits.stop_at, Some(400));

        let usenix = Rules::preset(Preset::Usenix);
        assert_eq!(usenix.time.to_string(), "cpu:1h,10s");
        assert_eq!(usenix.sgf_name(), "Japanese");
        assert_eq!(usenix.idle_limit, Some(Duration::from_secs(600)));
        assert_eq!(usenix.forks, ForkRule::Forfeit);
        assert_eq!(kgs.forks, ForkRule::Report);
    }

    #[test]
    fn preset_names_parse_in_any_case() {
        assert_eq!("KGS".parse::<Preset>(), Ok(Preset::Kgs));
        assert!("aga"
            .parse::<Preset>()
            .unwrap_err()
            .contains("kgs, cgf or usenix"));
    }
}
