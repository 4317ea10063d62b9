//! The `human` player: the operator types the moves of a program that has no
//! link, as the CGF proxy program allowed.
//!
//! The time the operator takes counts on that program's clock, from the
//! moment the prompt is shown until the move is entered. The prompts are
//! events (shown on stderr in headless mode), and the moves come from stdin
//! lines, which the driver hands over; the full-screen view will give it an
//! input box instead.
//!
//! A typo never loses the game: a line that is not a move, or a move the
//! rules refuse (an occupied point, a ko, a suicide), is told and typed
//! again. When the operator's input closes (Ctrl-D), the operator has gone,
//! not the program: the driver decides what becomes of the game.

use tokio::sync::mpsc;

use goref_core::game::{Color, Move};
use goref_core::referee::{Action, PlayerEvent, PlayerInfo};

use super::{PlayerSetup, Reporter};

/// Runs the typed player until the game is over or its input closes.
pub async fn run(
    name: String,
    setup: PlayerSetup,
    mut actions: mpsc::UnboundedReceiver<Action>,
    mut lines: mpsc::UnboundedReceiver<String>,
    reporter: Reporter,
) {
    let color = setup.color;
    reporter.send(PlayerEvent::Ready(PlayerInfo {
        protocol: "human".into(),
        spec: "human".into(),
        name,
        version: String::new(),
        kgs_end_protocol: false,
        claims_dead_stones: false,
        stops_at_double_pass: false,
    }));
    let mut to_move = false;
    let mut input_closed = false;
    let mut to_relay: Option<(Color, Move)> = None;
    loop {
        tokio::select! {
            action = actions.recv() => match action {
                Some(Action::RequestMove { .. }) => {
                    to_move = true;
                    reporter.send(PlayerEvent::Prompt(move_prompt(color, to_relay.take())));
                    reporter.send(PlayerEvent::Thinking);
                }
                Some(Action::TellMove { color: mover, mv, .. }) => {
                    to_move = false;
                    to_relay = Some((mover, mv));
                    reporter.send(PlayerEvent::Prompt(relay_prompt(color, mover, mv)));
                }
                Some(Action::MainTimeUsed { .. }) => {}
                Some(Action::RequestDeadStones { .. }) => {
                    reporter.send(PlayerEvent::DeadStonesUnavailable(
                        "moves are typed by the operator".into(),
                    ));
                }
                Some(Action::GameOver { .. }) | None => return,
            },
            line = lines.recv(), if !input_closed => {
                let Some(line) = line else {
                    input_closed = true;
                    continue;
                };
                match typed_move(&line, setup.size, to_move) {
                    Ok(mv) => reporter.send(PlayerEvent::Typed(mv)),
                    Err(message) => reporter.send(PlayerEvent::Info(message)),
                }
            }
        }
    }
}

/// What the operator is asked when the opponent's move must reach the
/// program.
fn relay_prompt(color: Color, mover: Color, mv: Move) -> String {
    format!("{mover} played {mv}: enter it into {color}'s program")
}

/// What the operator is asked at the program's turn: the opponent's move to
/// relay first, when there is one, stays in the prompt, which otherwise
/// replaced it at once.
fn move_prompt(color: Color, relayed: Option<(Color, Move)>) -> String {
    match relayed {
        Some((mover, mv)) => format!(
            "{color} to move: {mover} played {mv}, enter it into {color}'s program, then type its reply (e.g. D4, pass, resign)"
        ),
        None => format!("{color} to move: type its move (e.g. D4, pass, resign)"),
    }
}

/// Reads one typed move; says why when it cannot be one.
fn typed_move(line: &str, size: u8, to_move: bool) -> Result<Move, String> {
    let text = line.trim();
    if !to_move {
        return Err(format!("'{text}' ignored: no typed move is expected now"));
    }
    Move::parse_gtp(text, size).map_err(|e| format!("'{text}' is not a move ({e}); try again"))
}

/// Who should receive a typed line: the typed player whose turn it is, or
/// the only typed player there is.
pub(crate) fn addressee(typed: &[Color], to_move: Color) -> Option<Color> {
    match typed {
        [only] => Some(*only),
        _ => typed.iter().copied().find(|&c| c == to_move),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::game::Point;

    #[test]
    fn a_typed_move_is_read_in_any_case_and_checked_against_the_board() {
        assert_eq!(
            typed_move(" d4 ", 19, true),
            Ok(Move::Play(Point::new(3, 3)))
        );
        assert_eq!(typed_move("PASS", 9, true), Ok(Move::Pass));
        assert!(typed_move("Z9", 9, true)
            .unwrap_err()
            .contains("not a move"));
        assert!(typed_move("D4", 9, false)
            .unwrap_err()
            .contains("no typed move is expected"));
    }

    #[test]
    fn the_move_to_relay_stays_in_the_prompt_of_the_programs_turn() {
        let e5 = Move::Play(Point::new(4, 4));
        assert_eq!(
            move_prompt(Color::Black, Some((Color::White, e5))),
            "Black to move: White played E5, enter it into Black's program, then type its reply (e.g. D4, pass, resign)"
        );
        assert_eq!(
            move_prompt(Color::Black, None),
            "Black to move: type its move (e.g. D4, pass, resign)"
        );
    }

    #[test]
    fn typed_lines_go_to_the_typed_player_to_move() {
        use Color::{Black, White};
        assert_eq!(addressee(&[White], Black), Some(White));
        assert_eq!(addressee(&[Black, White], White), Some(White));
        assert_eq!(addressee(&[], Black), None);
    }
}
