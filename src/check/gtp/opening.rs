//! The second run of a GTP engine: the referee's own GTP player sets it up
//! for the round's rules and clock and plays a game's opening with it, the
//! built-in engine on the other side; then the end of a game, as the rules
//! run it. The card reads every command and answer from the player's trace.

use std::time::Duration;

use crate::players::{PlayerSpec, Report};
use crate::shell_time::now;
use goref_core::game::rules::EndOfGame;
use goref_core::game::{Color, Move, Point};
use goref_core::referee::{Action, PlayerEvent, PlayerInfo};

use super::trace::{exchanges, judge_moves, judge_setup, known, stopped_reason, Exchanged};
use crate::check::card::{Section, Verdict};
use crate::check::script::{self, ask_move, Exchange, Opponent, Scripted, Stopped, Waited};
use crate::check::{millis, plural, CheckConfig};

/// The second run: the referee's GTP player sets the engine up and plays a
/// game's opening with it, then its end. Returns the player's reports.
pub(super) async fn play_opening(
    config: &CheckConfig,
    spec: &PlayerSpec,
    game: &mut Section,
    end: &mut Section,
) -> Vec<Report> {
    let setup = config.setup();
    let mut player = Scripted::start(spec, setup.clone());
    let set_up_within = config.command_timeout.saturating_mul(16);
    let info = player
        .wait(set_up_within, |report| match &report.event {
            PlayerEvent::Ready(info) => Some(info.clone()),
            _ => None,
        })
        .await;
    let mut opponent = Opponent::new(&setup);
    let (info, set_up_failure) = match info {
        Waited::Got(info) => (Some(info), None),
        Waited::Failed(failure) => (None, Some(failure.reason)),
        Waited::Silent(waited) => (None, Some(format!("not set up within {}", millis(waited)))),
    };
    let mut exchange = Exchange::default();
    let mut ending = Ending::default();
    if let Some(info) = &info {
        exchange = script::exchange(
            &mut player,
            &setup,
            &mut opponent,
            config.moves,
            config.move_limit(),
        )
        .await;
        if exchange.stopped.is_none() {
            ending = play_end(config, &mut player, &mut opponent, info).await;
        }
    }
    let log = player.finish(Duration::from_secs(15)).await;
    let exchanged = exchanges(&log);
    judge_setup(config, &exchanged, info.as_ref(), game);
    if let Some(why) = set_up_failure {
        if game.checks.iter().all(|c| c.verdict != Verdict::Fail) {
            game.fail("set-up", why);
        }
    }
    judge_moves(config, &exchanged, &exchange, game);
    if let Some(info) = &info {
        judge_end(config, &exchanged, info, &ending, &opponent, end);
    }
    log
}

/// What the end of the game brought.
#[derive(Debug, Default)]
struct Ending {
    /// The moves told to bring the game to its end.
    told: usize,
    cleanup: Option<Result<Move, Stopped>>,
    dead: Option<Result<Vec<Point>, String>>,
}

/// Each move told to the engine may take this long on top of the command
/// deadline, when the rest of a game is told before the dead stones are asked.
const TOLD_MOVE_ALLOWANCE: Duration = Duration::from_millis(50);

/// The end of a game as the rules run it. The engine is told the rest of a
/// game, both sides played by the built-in engine to two passes, so that it
/// is asked its dead stones on a finished board, as in a game; then the
/// cleanup move, where the rules use one.
async fn play_end(
    config: &CheckConfig,
    player: &mut Scripted,
    opponent: &mut Opponent,
    info: &PlayerInfo,
) -> Ending {
    let rules = &config.game.rules;
    let color = config.color;
    let mut ending = Ending::default();
    let (cleanup, asked) = match rules.end_of_game {
        EndOfGame::KgsCleanup => (info.kgs_end_protocol, info.kgs_end_protocol),
        EndOfGame::Judge => (false, info.claims_dead_stones),
    };
    if asked {
        ending.told = tell_rest_of_game(player, opponent, color);
        player.act(Action::RequestDeadStones { color });
        let within =
            config.command_timeout + TOLD_MOVE_ALLOWANCE.saturating_mul(ending.told as u32);
        let waited = player
            .wait(within, |report| match &report.event {
                PlayerEvent::DeadStones(stones) => Some(Ok(stones.clone())),
                PlayerEvent::DeadStonesUnavailable(why) => Some(Err(why.clone())),
                _ => None,
            })
            .await;
        ending.dead = Some(match waited {
            Waited::Got(answer) => answer,
            Waited::Failed(failure) => Err(failure.reason),
            Waited::Silent(waited) => Err(format!("no answer within {}", millis(waited))),
        });
    }
    if cleanup && matches!(ending.dead, Some(Ok(_))) {
        player.act(Action::RequestMove {
            color,
            cleanup: true,
            time_left: script::time_left(rules.time, now()),
        });
        let mut refused = Vec::new();
        ending.cleanup = Some(
            ask_move(player, config.move_limit(), &mut refused)
                .await
                .map(|timed| timed.mv),
        );
    }
    ending
}

/// Tells the engine the rest of a game, to two passes: the built-in engine
/// plays both sides. Returns how many moves were told.
fn tell_rest_of_game(player: &mut Scripted, opponent: &mut Opponent, to: Color) -> usize {
    let mut to_move = opponent.color_to_move();
    let mut passes = 0;
    let mut told = 0;
    let most = 4 * usize::from(opponent.board().size()).pow(2);
    while passes < 2 && told < most {
        let mv = opponent.move_for(to_move);
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        player.act(Action::TellMove {
            to,
            color: to_move,
            mv,
        });
        told += 1;
        to_move = to_move.opponent();
    }
    told
}

/// The end of the game: the dead stones, the cleanup move, and what will
/// happen at the end of a game with this engine.
fn judge_end(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    info: &PlayerInfo,
    ending: &Ending,
    opponent: &Opponent,
    end: &mut Section,
) {
    let took = |name: &str| {
        exchanged
            .iter()
            .rev()
            .find(|e| e.name == name)
            .map(|e| e.took)
    };
    if ending.told > 0 {
        let last = exchanged
            .iter()
            .rposition(|e| e.name == "genmove")
            .unwrap_or(0);
        let told: Vec<&Exchanged> = exchanged[last..]
            .iter()
            .take_while(|e| e.name != "final_status_list")
            .filter(|e| e.name == "play")
            .collect();
        let spent: Duration = told.iter().map(|e| e.took).sum();
        match told.iter().find(|e| !e.success) {
            Some(refused) => end.fail(
                "rest of a game",
                format!(
                    "refused '{}' ({}) while told the rest of a game",
                    refused.command,
                    refused.answer.as_deref().unwrap_or_default().join(" ")
                ),
            ),
            None => end.pass(
                "rest of a game",
                format!(
                    "{} told, to two passes, answered in {} in all",
                    plural(told.len(), "move", "moves"),
                    millis(spent)
                ),
            ),
        }
        .timed(spent);
    }
    match &ending.dead {
        Some(Ok(stones)) => {
            let board = opponent.board();
            let empty: Vec<String> = stones
                .iter()
                .filter(|p| board.get(**p).is_none())
                .map(|p| p.to_gtp())
                .collect();
            let check = match empty.is_empty() {
                true => end.pass(
                    "final_status_list",
                    format!(
                        "'final_status_list dead' answered, {}",
                        plural(stones.len(), "stone", "stones")
                    ),
                ),
                false => end.warn(
                    "final_status_list",
                    format!(
                        "named empty points ({}): such a claim counts as no dead stones",
                        empty.join(" ")
                    ),
                ),
            };
            if let Some(took) = took("final_status_list") {
                check.timed(took);
            }
        }
        Some(Err(why)) => {
            end.fail(
                "final_status_list",
                format!("'final_status_list dead' failed: {why}"),
            );
        }
        None => {}
    }
    match &ending.cleanup {
        Some(Ok(mv)) => {
            let check = end.pass("kgs-genmove_cleanup", format!("answered {mv}"));
            if let Some(took) = took("kgs-genmove_cleanup") {
                check.timed(took);
            }
        }
        Some(Err(stopped)) => {
            end.fail("kgs-genmove_cleanup", stopped_reason(stopped, 0).1);
        }
        None => {}
    }
    let (yes, _) = known(exchanged);
    let game_over = yes.iter().any(|c| c == "kgs-game_over");
    end.pass(
        "kgs-game_over",
        match game_over {
            true => "known: it is told the game is over before quit",
            false => "not known: it is told only quit",
        },
    );
    let (verdict, text) = end_of_game_story(config.game.rules.end_of_game, info);
    end.add("at the end", verdict, text);
}

/// What will happen at the end of a game with this engine under `end`.
fn end_of_game_story(end: EndOfGame, info: &PlayerInfo) -> (Verdict, String) {
    match (end, info.kgs_end_protocol, info.claims_dead_stones) {
        (EndOfGame::KgsCleanup, true, _) => (
            Verdict::Pass,
            "after two passes it is asked its dead stones; if the claims differ, play resumes \
             with kgs-genmove_cleanup until the dead stones are captured"
                .into(),
        ),
        (EndOfGame::KgsCleanup, false, lists) => (
            Verdict::Warn,
            format!(
                "it lacks {}: it claims no dead stones, so if its opponent claims some, play \
                 resumes with plain genmove, and at a second double pass every stone is alive",
                match lists {
                    true => "kgs-genmove_cleanup",
                    false => "final_status_list and kgs-genmove_cleanup",
                }
            ),
        ),
        (EndOfGame::Judge, _, true) => (
            Verdict::Pass,
            "after two passes it is asked its dead stones; agreed claims are scored, a \
             dispute goes to the judge"
                .into(),
        ),
        (EndOfGame::Judge, _, false) => (
            Verdict::Warn,
            "it lacks final_status_list: it cannot claim dead stones, so the judge marks them \
             in every game it plays"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_game_story_follows_the_rules_and_the_engine() {
        let mut info = PlayerInfo {
            kgs_end_protocol: true,
            claims_dead_stones: true,
            ..PlayerInfo::default()
        };
        assert_eq!(
            end_of_game_story(EndOfGame::KgsCleanup, &info).0,
            Verdict::Pass
        );
        info.kgs_end_protocol = false;
        let (verdict, text) = end_of_game_story(EndOfGame::KgsCleanup, &info);
        assert_eq!(verdict, Verdict::Warn);
        assert!(text.contains("lacks kgs-genmove_cleanup"), "{text}");
        info.claims_dead_stones = false;
        let (verdict, text) = end_of_game_story(EndOfGame::Judge, &info);
        assert_eq!(verdict, Verdict::Warn);
        assert!(text.contains("judge marks them"), "{text}");
    }
}
