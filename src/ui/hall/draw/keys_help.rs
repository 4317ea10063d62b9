//! The hall's bottom line and its help: the box being typed in, the
//! question asked, the board that needs the director, or the keys of the
//! screen shown; and the keys listed by `?`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use goref_core::tournament::hall::Stage;

use super::super::super::{cut, Theme};
use super::super::{HallKind, HallState, HallView, Mode};

/// The hint bar: the box being typed in, the question asked, what needs
/// the director, or the keys.
pub(super) fn hint_bar(
    area: Rect,
    buf: &mut Buffer,
    hall: &HallView,
    state: &HallState,
    theme: &Theme,
) {
    let width = usize::from(area.width);
    let (text, style) = if let Some(input) = &state.input {
        let problem = state
            .message
            .as_deref()
            .map(|m| format!("  ({m})"))
            .unwrap_or_default();
        (
            format!("{}: {}▏{problem}", input.label, input.text),
            theme.key,
        )
    } else if let Some((question, _)) = &state.confirm {
        (format!("{question}  y: yes, any other key: no"), theme.key)
    } else {
        let needs = hall.order(state).into_iter().find_map(|n| {
            let board = hall.picture.board(n)?;
            hall.needs(board, state).map(|why| (n, why))
        });
        let keys = keys_text(hall, state);
        let lead = match (&state.message, needs) {
            (Some(message), _) => message.clone(),
            (None, Some((n, why))) if state.director => {
                format!("! board {n} needs you: {why}  (enter {n} opens it)")
            }
            (None, _) => String::new(),
        };
        let text = match lead.is_empty() {
            true => keys,
            false => format!("{lead}   {keys}"),
        };
        let style = match lead.starts_with('!') {
            true => theme.alert,
            false => theme.key,
        };
        (text, style)
    };
    buf.set_stringn(area.x, area.y, cut(&text, width), width, style);
}

fn keys_text(hall: &HallView, state: &HallState) -> String {
    let pairing = matches!(hall.picture.stage, Stage::Pairing { .. });
    match (hall.kind, state.mode) {
        (HallKind::Match, Mode::Boards) => {
            return "enter open  arrows select  s figures  ? help  q quit".into()
        }
        (HallKind::Worker, Mode::Boards) => {
            return "enter open  arrows select  ? help  q quit".into()
        }
        _ => {}
    }
    match (state.mode, pairing && state.director) {
        (Mode::Standings, _) => "s, esc: the boards  j/k scroll  ? help  q quit".into(),
        (Mode::Seats, _) => "S, esc: the boards  j/k scroll  ? help  q quit".into(),
        (Mode::Help, _) => "?, esc: the boards  j/k scroll  q quit".into(),
        (_, true) => {
            "y start  c swap  w withdraw  a add  r re-pair  R result  ? help  q quit".into()
        }
        _ if !state.director => "enter open  arrows select  s standings  ? help  q quit".into(),
        _ => "enter open  arrows select  R result  t retry  s standings  ? help  q quit".into(),
    }
}

/// The keys of a match's or a worker's tiles, for `?`.
fn tile_help_lines(kind: HallKind) -> Vec<(String, bool)> {
    let (title, figures, quit) = match kind {
        HallKind::Match => (
            "the match's keys",
            Some("  s                 the figures and plots (s again, or esc: the games)"),
            "  q                 leave (the games play on; the next goref match follows them)",
        ),
        _ => (
            "the worker's keys",
            None,
            "  q                 stop the worker (asks first while games play; jobs handed back)",
        ),
    };
    let mut lines = vec![(title.to_string(), true)];
    let keys = [
        Some("  arrows, h/j/k/l   select a game"),
        Some("  N then enter      open game N; enter alone: the one selected"),
        Some("  in a game         its own keys (? there lists them); q or esc: back"),
        figures,
        Some("  ctrl-l            draw the screen anew"),
        Some(quit),
    ];
    lines.extend(keys.into_iter().flatten().map(|l| (l.to_string(), false)));
    lines.push((String::new(), false));
    lines.push(("?  or esc: close this help".to_string(), false));
    lines
}

/// The hall's keys, for `?`: the director's marked as such on a
/// spectator's hall; a match's and a worker's their own.
pub(super) fn help_lines(kind: HallKind, director: bool) -> Vec<(String, bool)> {
    if kind != HallKind::Event {
        return tile_help_lines(kind);
    }
    let mine = |line: &str| match director {
        true => line.to_string(),
        false => format!("{line} (the director)"),
    };
    let mut lines = vec![("the hall's keys".to_string(), true)];
    let keys = [
        "  arrows, h/j/k/l   select a board".to_string(),
        "  N then enter      open board N; enter alone: the one selected".into(),
        "  in a board        its own keys (? there lists them); q or esc: the hall".into(),
        "  s                 the standings (s again, or esc: the boards)".into(),
        "  S                 the seats of the entrants on their own machines".into(),
        mine("  R                 a result for the selected board"),
        mine("  t                 start the selected board again (its line failed)"),
        "  ctrl-l            draw the screen anew".into(),
        "  q                 leave the hall (the event stops; the boards play on)".into(),
    ];
    lines.extend(keys.into_iter().map(|l| (l, false)));
    lines.push((String::new(), false));
    lines.push((mine("between rounds"), true));
    let between = [
        "  y  start the round           c  swap a board's colours",
        "  w  withdraw an entrant       a  add a late entrant",
        "  r  pair the round again      R  a result for a game of the round",
        "  j/k  scroll                  each change asks y before it is made",
    ];
    lines.extend(between.into_iter().map(|l| (l.to_string(), false)));
    lines.push((String::new(), false));
    lines.push(("?  or esc: close this help".to_string(), false));
    lines
}
