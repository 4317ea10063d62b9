//! One whole frame: the status line, the panes where the layout puts them,
//! the alert banner, the hint bar, and the overlays (help, an input box, a
//! confirmation) on top.
//!
//! ```text
//! B goref-bot (sgmp) vs W goref-bot (gtp) | kgs, komi 7.5 | move 12 | play
//! ▸ board                           clocks
//!     A B C D E F G H J             ▶ B  goref-bot   0:41  main  last 0.5s
//!   9 · · · · · · · · · 9             W  goref-bot   0:43  main  last 0.6s
//!   ...                             trace
//!                                   0:12.3 B ← 01 9a 83 50  move D4 ...
//! ! ALERT 1: White: the engine crashed (exit 1)       enter acknowledges
//! ? help  q quit  tab focus  z zoom  a adjudicate
//! ```
//!
//! [`draw`] is pure: the host's screen, a spectator's and a replay call it
//! with their own [`UiState`], and the same state gives the same buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Clear, Widget};
use ratatui::Frame;

use goref_core::referee::GameView;

use super::agreement::AgreementPane;
use super::board::BoardPane;
use super::clocks::ClocksPane;
use super::commands::{Command, Lookup, REGISTRY};
use super::layout::{self, Breakpoint};
use super::moves::MovesPane;
use super::overlays;
use super::state::{context, InputBox, InputPurpose, PaneId, Role, UiState};
use super::status::StatusLine;
use super::{cut, Theme};

/// Draws the whole screen into `frame`.
pub fn draw(frame: &mut Frame, view: &GameView, state: &UiState, theme: &Theme) {
    let area = frame.area();
    render(area, frame.buffer_mut(), view, state, theme);
}

/// Draws the whole screen into `buf`: what [`draw`] does, for tests and
/// benches that hold a buffer.
pub fn render(area: Rect, buf: &mut Buffer, view: &GameView, state: &UiState, theme: &Theme) {
    if area.is_empty() {
        return;
    }
    let areas = layout::areas(area, view, state);
    if let Breakpoint::TooSmall { width, height } = areas.breakpoint {
        too_small(area, buf, view.size, (width, height), state, theme);
        return;
    }
    let (lead, tail) = status_extra(view, state);
    StatusLine {
        view,
        theme,
        lead,
        tail,
        now_t_ms: (state.role != Role::Replay).then_some(state.now_t_ms),
    }
    .render(areas.status, buf);
    for &(pane, rect) in &areas.panes {
        draw_pane(pane, rect, buf, view, state, theme);
    }
    hint_bar(areas.hints, buf, view, state, theme);
    if let Some(rect) = areas.alert {
        alert_banner(rect, buf, view, state, theme);
    }
    overlays::draw(area, buf, view, state, theme);
    if !theme.unicode {
        ascii_only(area, buf);
    }
}

/// Without UTF-8 everything on screen is ASCII: the panes choose ASCII
/// glyphs themselves, and this pass catches what they cannot (a player's
/// name, an engine's line, a message): box lines become `+-|`, `…` a `~`,
/// arrows `<>`, anything else `?`.
fn ascii_only(area: Rect, buf: &mut Buffer) {
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buf[(x, y)];
            if cell.symbol().is_ascii() {
                continue;
            }
            let plain = match cell.symbol().chars().next().unwrap_or(' ') {
                '─' | '━' | '═' => '-',
                '│' | '┃' | '║' => '|',
                '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' => '+',
                '…' => '~',
                '→' | '▶' | '▸' | '»' => '>',
                '←' | '◀' | '«' => '<',
                '●' => 'X',
                '○' => 'O',
                '·' => '.',
                _ => '?',
            };
            cell.set_char(plain);
        }
    }
}

/// What the screen adds to the status line: what must stay in sight at 80
/// columns (a pause, a link in trouble, the replay's place, the
/// spectators), and what may go past them (the folder, where the game is
/// served, a link that is well).
fn status_extra(view: &GameView, state: &UiState) -> (Vec<String>, Vec<String>) {
    let mut lead = Vec::new();
    let mut tail = Vec::new();
    if let Some(hall) = &state.in_hall {
        lead.push(hall.text.clone());
    }
    if state.demo {
        lead.push("DEMO".to_string());
    }
    if view.clocks_paused {
        lead.push("PAUSED".to_string());
    }
    match &state.link {
        Some(link) if link.trouble || state.role == Role::Spectator => lead.push(link.text.clone()),
        Some(link) => tail.push(link.text.clone()),
        None => {}
    }
    if let Some((shown, total)) = state.replay_position {
        lead.push(format!("replay {shown}/{total}"));
    }
    if let Some(count) = view.spectators.filter(|&n| n > 0) {
        lead.push(format!("{count} watching"));
    }
    (lead, tail)
}

fn draw_pane(
    pane: PaneId,
    rect: Rect,
    buf: &mut Buffer,
    view: &GameView,
    state: &UiState,
    theme: &Theme,
) {
    if rect.height == 0 {
        return;
    }
    let focused = state.focus == pane;
    let marker = match (focused, theme.unicode) {
        (true, true) => "▸ ",
        (true, false) => "> ",
        _ => "  ",
    };
    let zoom = if state.zoom == Some(pane) {
        " (zoomed: z or esc returns)"
    } else {
        ""
    };
    let title = format!("{marker}{}{zoom}", pane.title());
    let style = if focused {
        theme.title_focused
    } else {
        theme.title
    };
    buf.set_stringn(rect.x, rect.y, title, usize::from(rect.width), style);
    let body = Rect {
        y: rect.y + 1,
        height: rect.height - 1,
        ..rect
    };
    match pane {
        PaneId::Board => BoardPane {
            view,
            theme,
            cursor: state.cursor,
            variation: state.variation,
        }
        .render(body, buf),
        PaneId::Clocks => ClocksPane {
            view,
            theme,
            now_t_ms: (view.result.is_none() && !view.clocks_paused).then_some(state.now_t_ms),
        }
        .render(body, buf),
        PaneId::Moves => MovesPane { view, theme }.render(body, buf),
        PaneId::Agreement => AgreementPane {
            view,
            theme,
            judge_keys: judge_keys(state),
        }
        .render(body, buf),
        PaneId::Trace => super::trace::TracePane {
            view,
            state: &state.trace,
            theme,
        }
        .render(body, buf),
        PaneId::TimeChart => super::time_chart::TimeChartPane { view, theme }.render(body, buf),
        PaneId::Winrate => super::winrate::WinratePane { view, theme }.render(body, buf),
    }
}

/// What the judge does next, in the keys of this screen: none on a
/// spectator's.
fn judge_keys(state: &UiState) -> Option<String> {
    if state.role != Role::Operator {
        return None;
    }
    let key = |command: Command| {
        state
            .keys
            .keys_of(command)
            .first()
            .map_or("?".to_string(), |k| k.to_string())
    };
    Some(format!(
        "{} marks dead, {} scores, {} adjudicates, {} voids",
        key(Command::Mark),
        key(Command::Score),
        key(Command::Adjudicate),
        key(Command::Void)
    ))
}

fn alert_banner(rect: Rect, buf: &mut Buffer, view: &GameView, state: &UiState, theme: &Theme) {
    let waiting: Vec<_> = view
        .alerts
        .iter()
        .filter(|a| a.n > state.alerts_acknowledged)
        .collect();
    let Some(first) = waiting.first() else {
        return;
    };
    let more = match waiting.len() {
        1 => String::new(),
        n => format!(" (+{} more)", n - 1),
    };
    let text = format!(
        "! ALERT {}: {}{more}  [enter acknowledges]",
        first.n, first.message
    );
    buf.set_string(
        rect.x,
        rect.y,
        " ".repeat(usize::from(rect.width)),
        theme.alert,
    );
    buf.set_stringn(rect.x, rect.y, text, usize::from(rect.width), theme.alert);
}

/// The hint bar: the keys that do something now, or, in the middle of a
/// chord, what can follow; the screen's last message at the end.
fn hint_bar(rect: Rect, buf: &mut Buffer, view: &GameView, state: &UiState, theme: &Theme) {
    if let Some(input) = state.input.as_ref().filter(|i| overlays::on_hint_bar(i)) {
        move_line(rect, buf, input, view, theme);
        return;
    }
    if let Some(question) = &state.question {
        let width = usize::from(rect.width);
        buf.set_stringn(rect.x, rect.y, question, width, theme.notice);
        return;
    }
    let ctx = context(view, state);
    let mut hints: Vec<(String, &str)> = Vec::new();
    // The columns the game's message leaves to the urgent keys and the help.
    let mut reserved = 0;
    if state.input.is_some() {
        hints.push(("enter".into(), "accept"));
        hints.push(("esc".into(), "cancel"));
    } else if state.confirm.is_some() {
        hints.push(("y".into(), "confirm"));
        hints.push(("any other key".into(), "cancel"));
    } else if !state.pending.is_empty() {
        if let Lookup::Prefix(next) = state.keys.lookup(&state.pending, &ctx) {
            for (chord, command) in next {
                let rest = chord.0[state.pending.len()..]
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ");
                hints.push((rest, command.info().description));
            }
        }
        hints.push(("esc".into(), "cancel"));
    } else {
        let mut offered: Vec<_> = REGISTRY.iter().filter(|i| i.command.hinted(&ctx)).collect();
        offered.sort_by_key(|i| !i.command.urgent(&ctx));
        for info in offered {
            if let Some(chord) = state.keys.keys_of(info.command).first() {
                let (key, what) = match info.command {
                    Command::Quit if state.in_hall.is_some() => {
                        (format!("{chord}/esc"), "the hall")
                    }
                    command => (chord.to_string(), short_name(command)),
                };
                let way_back = info.command == Command::Quit && state.in_hall.is_some();
                if info.command.urgent(&ctx) || info.command == Command::Help || way_back {
                    reserved += hint_width(&key, what) + 2;
                }
                hints.push((key, what));
            }
        }
    }
    let mut x = rect.x;
    let end = rect.right();
    let idle = state.input.is_none() && state.confirm.is_none() && state.pending.is_empty();
    if let Some(told) = game_message(view, state).filter(|_| idle) {
        // What the game says comes first; the urgent keys and the help
        // keep their place after it.
        let room = usize::from(rect.width)
            .saturating_sub(reserved)
            .max(MESSAGE_ROOM);
        let told = cut(told, room);
        let (next, _) = buf.set_stringn(x, rect.y, told, usize::from(end - x), theme.notice);
        x = next.saturating_add(2);
    }
    for (key, what) in hints {
        if usize::from(end.saturating_sub(x)) < hint_width(&key, what) {
            break;
        }
        let room = usize::from(end - x);
        x = buf.set_stringn(x, rect.y, &key, room, theme.key).0;
        let room = usize::from(end - x);
        x = buf
            .set_stringn(x, rect.y, format!(" {what}"), room, theme.dim)
            .0;
        x = x.saturating_add(2);
    }
    if let Some(message) = &state.message {
        if x + 2 < end {
            buf.set_stringn(x, rect.y, message, usize::from(end - x), theme.notice);
        }
    }
}

/// A typed player's move, typed on the hint bar: the whole board stays in
/// sight. The opponent's move, which the operator enters into the program,
/// comes first; what the text lacks follows it, then the keys.
///
/// ```text
/// White played O4, relay it. Black's move: e5▏ enter plays  esc keys
/// ```
fn move_line(rect: Rect, buf: &mut Buffer, input: &InputBox, view: &GameView, theme: &Theme) {
    let InputPurpose::Move(color) = input.purpose else {
        return;
    };
    let relay = match view.moves.last() {
        Some(last) if last.color != color => {
            format!("{} played {}, relay it. ", last.color, last.vertex)
        }
        _ => String::new(),
    };
    let end = rect.right();
    let (mut x, _) = buf.set_stringn(
        rect.x,
        rect.y,
        format!("{relay}{color}'s move: "),
        usize::from(rect.width),
        theme.notice,
    );
    let text: String = input.text.chars().collect();
    let (after, _) = buf.set_stringn(x, rect.y, &text, usize::from(end - x), theme.text);
    let cursor_x = x + input.text.chars().take(input.cursor).count() as u16;
    if cursor_x < end {
        buf[(cursor_x, rect.y)].set_style(theme.selected);
    }
    x = after.max(cursor_x).saturating_add(2);
    let mut parts = Vec::new();
    if let Some(problem) = &input.problem {
        parts.push((format!("{problem}  "), theme.problem));
    }
    parts.extend([
        ("enter".to_string(), theme.key),
        (" plays  ".to_string(), theme.dim),
        ("esc".to_string(), theme.key),
        (" keys".to_string(), theme.dim),
    ]);
    for (part, style) in parts {
        if x >= end {
            return;
        }
        let (next, _) = buf.set_stringn(x, rect.y, part, usize::from(end - x), style);
        x = next;
    }
}

/// How long a notice stays on the hint bar, in stream time.
const NOTICE_SHOWN_MS: u64 = 10_000;

/// What the game asks or tells the operator now: goref's prompt (a typed
/// player's move, the judge's call) while it asks, else the newest notice
/// (a set-up that waits, a typed move to enter again) for ten seconds, or
/// for as long as the set-up lasts. It takes at most half the bar, so that
/// the keys stay in sight.
fn game_message<'a>(view: &'a GameView, state: &UiState) -> Option<&'a str> {
    if let Some(prompt) = &view.prompt {
        return Some(prompt);
    }
    let fresh = state.now_t_ms.saturating_sub(view.notice_t_ms?) < NOTICE_SHOWN_MS;
    let notice = view.notices.back()?;
    (fresh || view.phase == goref_core::referee::Phase::Setup).then_some(notice.as_str())
}

/// The fewest columns the game's message on the hint bar keeps.
const MESSAGE_ROOM: usize = 30;

/// The columns of one hint, `m type a move`: shown whole or not at all.
fn hint_width(key: &str, what: &str) -> usize {
    key.chars().count() + 1 + what.chars().count()
}

/// A word or two for the hint bar.
fn short_name(command: Command) -> &'static str {
    match command {
        Command::Help => "help",
        Command::Quit => "quit",
        Command::Acknowledge => "acknowledge",
        Command::NextGame => "next game",
        Command::FocusNext => "focus",
        Command::Zoom => "zoom",
        Command::TypeMove => "type a move",
        Command::Adjudicate => "adjudicate",
        Command::ResumeClocks => "resume",
        Command::Mark => "mark dead",
        Command::Score => "score",
        Command::MoveBack => "prev move",
        Command::MoveForward => "next move",
        _ => command.info().name,
    }
}

/// The screen below the smallest usable size: what is needed, and that `q`
/// still quits.
fn too_small(
    area: Rect,
    buf: &mut Buffer,
    size: u8,
    (width, height): (u16, u16),
    state: &UiState,
    theme: &Theme,
) {
    Clear.render(area, buf);
    let quit = state
        .keys
        .keys_of(Command::Quit)
        .first()
        .map_or("q".to_string(), |k| k.to_string());
    let lines = [
        format!("goref needs {width}x{height} for a {size}x{size} board;"),
        format!("this terminal is {}x{}.", area.width, area.height),
        "Enlarge it, or make the font smaller.".to_string(),
        format!("{quit} quits"),
    ];
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.iter().enumerate() {
        let y = top + i as u16;
        if y >= area.bottom() {
            break;
        }
        let x = area.x + area.width.saturating_sub(line.chars().count() as u16) / 2;
        let style = if i == 0 { theme.notice } else { Style::new() };
        buf.set_stringn(x, y, line, usize::from(area.right() - x), style);
    }
}

#[cfg(test)]
mod tests;
