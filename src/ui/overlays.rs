//! What is drawn over the panes: the help, an input box, a confirmation.
//!
//! ```text
//! ┌ help: esc closes, up/down scroll ───────────────┐
//! │ General                                         │
//! │   ?            show or hide this help           │
//! │   q            quit (while a game is on: ...)   │
//! │ Operator                                        │
//! │   r b          Black resigns       (not now)    │
//! └─────────────────────────────────────────────────┘
//! ┌ White's move: D4, pass or resign ───────────────┐
//! │ d4_                                             │
//! └─────────────────────────────────────────────────┘
//! ```
//!
//! The help is generated from the command registry and the keys in force,
//! for the screen's role: a spectator's help has no operator commands.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Clear, Widget};

use goref_core::referee::GameView;

use super::board::BoardPane;
use super::commands::{Command, Group, REGISTRY};
use super::state::context;
use super::state::{Confirm, InputBox, InputPurpose, RiskyCommand, Role, UiState};
use super::Theme;

/// Draws whichever overlay is open; the confirmation over the input box
/// over the help.
pub fn draw(area: Rect, buf: &mut Buffer, view: &GameView, state: &UiState, theme: &Theme) {
    if let Some(offset) = state.help {
        help(area, buf, view, state, offset, theme);
    }
    if let Some(input) = state.input.as_ref().filter(|i| !on_hint_bar(i)) {
        input_box(area, buf, input, theme);
    }
    if let Some(confirm) = &state.confirm {
        confirmation(area, buf, confirm, theme);
    }
}

/// Whether an input is typed on the hint bar rather than in a box over the
/// panes: a typed player's move, which must leave the whole board in sight.
pub(crate) fn on_hint_bar(input: &InputBox) -> bool {
    matches!(input.purpose, InputPurpose::Move(_))
}

/// The help's lines for the screen's role, with the keys in force, the
/// legend in the theme's glyphs and the game's folder, before they wrap.
pub(crate) fn help_lines(view: &GameView, state: &UiState, theme: &Theme) -> Vec<(String, bool)> {
    let ctx = context(view, state);
    let mut lines = Vec::new();
    let mut group: Option<Group> = None;
    for info in REGISTRY {
        let exists = info.command.roles().contains(&state.role)
            && (info.command != Command::NextGame || state.can_start_next);
        if !exists {
            continue;
        }
        if group != Some(info.group) {
            group = Some(info.group);
            lines.push((info.group.title().to_string(), true));
        }
        let keys = state
            .keys
            .keys_of(info.command)
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let now = if info.command.available(&ctx) {
            ""
        } else {
            "  (not now)"
        };
        let description = info.description_for(state.role);
        lines.push((format!("  {keys:<14} {description}{now}"), false));
    }
    lines.push(("Board".to_string(), true));
    lines.extend(BoardPane::legend(theme).into_iter().map(|l| (l, false)));
    lines.push(("Clocks".to_string(), true));
    let to_move = if theme.unicode { '▶' } else { '>' };
    lines.push((
        format!(
            "  {to_move} to move   ! under 10 s   FLAG out of time   PAUSED stopped by the judge"
        ),
        false,
    ));
    if state.demo {
        lines.push(("This is the demo".to_string(), true));
        lines.push((
            "  the built-in engine plays itself, on a virtual serial line against GTP. A real game: goref play --black SPEC --white SPEC, e.g. --black \"gtp:/usr/games/gnugo --mode gtp\" --white human (goref play --help lists every flag)".to_string(),
            false,
        ));
    }
    if let Some(folder) = &view.folder {
        lines.push(("This game".to_string(), true));
        lines.push((format!("  folder {folder}"), false));
        if state.role == Role::Operator {
            lines.push((
                format!("  goref attach {folder} brings this screen back if the terminal goes; goref resume {folder} takes the game back if goref dies"),
                false,
            ));
        }
    }
    lines
}

fn help(
    area: Rect,
    buf: &mut Buffer,
    view: &GameView,
    state: &UiState,
    offset: u16,
    theme: &Theme,
) {
    let width = area.width.saturating_sub(4).min(84);
    let height = area.height.saturating_sub(2);
    if width < 20 || height < 4 {
        return;
    }
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + 1,
        width,
        height,
    };
    Clear.render(rect, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(border_set(theme))
        .title(" help: esc or ? closes, up/down scroll ");
    let inner = block.inner(rect);
    block.render(rect, buf);
    let width = usize::from(inner.width);
    let lines: Vec<(String, bool)> = help_lines(view, state, theme)
        .into_iter()
        .flat_map(|(text, heading)| {
            let indent = if text.starts_with("  ") { 19 } else { 2 };
            super::wrap(&text, width, indent)
                .into_iter()
                .map(move |part| (part, heading))
        })
        .collect();
    let offset = usize::from(offset).min(lines.len().saturating_sub(1));
    let shown = lines[offset..].iter().map(|(text, heading)| {
        let style = if *heading {
            theme.title_focused
        } else {
            theme.text
        };
        (text.clone(), style)
    });
    super::draw_lines(inner, buf, shown);
}

/// What an input box asks for.
pub(crate) fn input_title(purpose: &InputPurpose) -> String {
    match purpose {
        InputPurpose::Move(color) => format!("{color}'s move: a point such as D4, pass or resign"),
        InputPurpose::Reason(command) => format!(
            "{}: the reason (none: '{}')",
            risky_title(command),
            super::control::default_reason(command)
        ),
        InputPurpose::Result => "the result: B+3.5, W+R, B+T, W+F, 0 (draw) or ?".into(),
        InputPurpose::ClockAdjustment(color) => {
            format!("{color}'s clock: +30s adds, -1m takes away")
        }
        InputPurpose::TraceFilter => "show only trace lines containing".into(),
    }
}

/// A risky command as a question.
pub(crate) fn risky_title(command: &RiskyCommand) -> String {
    match command {
        RiskyCommand::Resign(color) => format!("{color} resigns"),
        RiskyCommand::Restart(color) => format!("{color}'s program is started again"),
        RiskyCommand::Adjudicate(result) => format!("end the game as {result}"),
        RiskyCommand::Void => "void the game".into(),
        RiskyCommand::AdjustClock { color, delta_ms } => {
            let sign = if *delta_ms < 0 { "-" } else { "+" };
            format!(
                "{sign}{:.1}s on {color}'s clock",
                delta_ms.unsigned_abs() as f64 / 1000.0
            )
        }
        RiskyCommand::Score => "count the game with the stones marked dead".into(),
        RiskyCommand::Quit => "quit: the game on the board is void".into(),
        RiskyCommand::Interrupt => "ctrl-c: void the game on the board and quit".into(),
    }
}

/// The lines a box is drawn with: ASCII where the terminal has no UTF-8.
pub(crate) fn border_set(theme: &Theme) -> ratatui::symbols::border::Set<'static> {
    match theme.unicode {
        true => ratatui::symbols::border::PLAIN,
        false => ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        },
    }
}

fn boxed(area: Rect, rows: u16, buf: &mut Buffer, title: String, theme: &Theme) -> Option<Rect> {
    let width = area.width.saturating_sub(4).min(76);
    let height = rows + 2;
    if width < 10 || area.height < height + 2 {
        return None;
    }
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.bottom() - height - 2,
        width,
        height,
    };
    Clear.render(rect, buf);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(border_set(theme))
        .title(format!(" {title} "));
    let inner = block.inner(rect);
    block.render(rect, buf);
    Some(inner)
}

fn input_box(area: Rect, buf: &mut Buffer, input: &InputBox, theme: &Theme) {
    let Some(inner) = boxed(area, 2, buf, input_title(&input.purpose), theme) else {
        return;
    };
    let width = usize::from(inner.width);
    let chars: Vec<char> = input.text.chars().collect();
    let start = (input.cursor + 1).saturating_sub(width);
    let shown: String = chars.iter().skip(start).take(width).collect();
    buf.set_stringn(inner.x, inner.y, &shown, width, theme.text);
    let cursor_x = inner.x + (input.cursor - start) as u16;
    if cursor_x < inner.right() {
        let cell = &mut buf[(cursor_x, inner.y)];
        cell.set_style(theme.selected);
    }
    if let Some(problem) = &input.problem {
        buf.set_stringn(inner.x, inner.y + 1, problem, width, theme.problem);
    }
}

fn confirmation(area: Rect, buf: &mut Buffer, confirm: &Confirm, theme: &Theme) {
    let title = format!("{}?", risky_title(&confirm.command));
    let Some(inner) = boxed(area, 2, buf, title, theme) else {
        return;
    };
    let width = usize::from(inner.width);
    let reason = format!("reason: {}", confirm.reason);
    buf.set_stringn(inner.x, inner.y, reason, width, theme.text);
    let keys = match confirm.command {
        RiskyCommand::Interrupt => "y or ctrl-c again confirms; any other key cancels",
        _ => "y confirms; any other key cancels",
    };
    buf.set_stringn(inner.x, inner.y + 1, keys, width, theme.key);
}
