//! A game's settings written out as a game file, `config.toml` in its
//! folder: the keys [`crate::config`] reads, every preset value spelled out.

use goref_core::game::board::KoRule;
use goref_core::game::clock::format_duration;
use goref_core::game::rules::ForkRule;
use goref_core::referee::Handicap;

use super::DriverConfig;
use crate::journal::JournalSync;

/// The resolved configuration as a game file: every setting the game is
/// played with, preset values included, so that `goref play --config FILE`
/// sets the same game up again and `goref resume` restarts the same players.
/// The record's and the trace's paths are left out: a game file that named
/// them would overwrite them.
pub(crate) fn game_file_text(config: &DriverConfig) -> String {
    let quote = |text: &str| toml::Value::String(text.to_string()).to_string();
    let rules = &config.game.rules;
    let or_zero = |n: Option<u32>| n.unwrap_or(0);
    let mut text = format!(
        "# The configuration goref {} played this game with, every preset value\n\
         # written out. `goref play --config THIS_FILE` sets the same game up again.\n\
         # Set by the rules preset and not by this file: scoring {:?}, end of game {:?}.\n",
        env!("CARGO_PKG_VERSION"),
        rules.scoring,
        rules.end_of_game,
    );
    let mut line = |key: &str, value: String| text.push_str(&format!("{key} = {value}\n"));
    line("black", quote(&config.black.to_string()));
    line("white", quote(&config.white.to_string()));
    line("rules", quote(&rules.preset.to_string()));
    line("size", config.game.size.to_string());
    line("komi", format!("{:?}", rules.komi));
    match &config.game.handicap {
        Handicap::None => line("handicap", "0".into()),
        Handicap::Fixed(n) => line("handicap", n.to_string()),
        Handicap::Free(points) => {
            let points: Vec<String> = points.iter().map(|p| p.to_gtp()).collect();
            line("handicap_stones", quote(&points.join(",")))
        }
    }
    if !config.game.opening.is_empty() {
        let points: Vec<String> = config.game.opening.iter().map(|p| p.to_gtp()).collect();
        line("opening", quote(&points.join(",")));
    }
    if config.journal_sync != JournalSync::default() {
        line("journal_sync", quote(&config.journal_sync.to_string()));
    }
    match config.analysis {
        None => line("analysis", "false".into()),
        Some(interval) if interval != super::DEFAULT_ANALYSIS_INTERVAL => {
            line("analysis_interval", quote(&format_duration(interval)))
        }
        Some(_) => {}
    }
    line("time", quote(&rules.time.to_string()));
    let ko = match rules.ko {
        KoRule::Simple => "simple",
        KoRule::PositionalSuperko => "positional",
        KoRule::SituationalSuperko => "situational",
        KoRule::Lax => "lax",
    };
    line("ko", quote(ko));
    line("allow_suicide", rules.suicide_allowed.to_string());
    line("move_timeout", quote(&format_duration(rules.move_timeout)));
    line(
        "command_timeout",
        quote(&format_duration(config.command_timeout)),
    );
    line(
        "time_loss_before",
        or_zero(rules.limits.time_loss_before).to_string(),
    );
    line("stop_at", or_zero(rules.limits.stop_at).to_string());
    line("count_passes", rules.limits.count_passes.to_string());
    line("restart_crashed", rules.restart_crashed.to_string());
    line(
        "lag_allowance",
        quote(&format_duration(rules.lag_allowance)),
    );
    let idle_limit = rules.idle_limit.map_or("off".to_string(), format_duration);
    line("idle_limit", quote(&idle_limit));
    let forks = match rules.forks {
        ForkRule::Forfeit => "forfeit",
        ForkRule::Report => "report",
    };
    line("forks", quote(forks));
    line("date", quote(&config.record.date.to_string()));
    for (key, value) in [
        ("event", &config.record.event),
        ("round", &config.record.round),
        ("place", &config.record.place),
        ("game_name", &config.record.game_name),
    ] {
        if let Some(value) = value {
            line(key, quote(value));
        }
    }
    text
}
