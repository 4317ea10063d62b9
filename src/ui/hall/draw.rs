//! The hall's frame: the status line, the boards (as tiles when every
//! board of the round fits as one, else as two lines each, scrolled to the
//! board selected), the standings, the pairing between rounds, the
//! event's newest line and the hint bar.
//!
//! ```text
//! Cup 2026 | round 2 of 5 | 6 boards: 4 playing, 1 over, 1 needs you
//! ┌! board 4 ────────────────────────┐┌ board 1 ─────────────────────────┐
//! │● alpha              12:04  ·····●│ ...
//! │○ beta          ▶     9:58  ··○···│
//! │move 37: W D4           ·········│
//! │awaits the judge                  │
//! │! the judge is called: ...        │
//! └──────────────────────────────────┘
//! round 2 board 3: alpha - beta W+R (Black resigned)
//! ! board 4 needs you: the judge is called   enter open  s standings  q quit
//! ```
//!
//! A tile shows a small board (one column a point) on its right when the
//! tile has the room; the tiles are laid out as few to a row as lets every
//! one show its board. No state rests on colour: a board that needs the
//! director is marked `!`, the board selected `>`, the side to move `▶`.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use goref_core::game::{Color, Move, Point};
use goref_core::referee::GameView;
use goref_core::tournament::crosstable;
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};

use super::super::board::point_glyph;
use super::super::clocks::{describe, reading_at};
use super::super::{cut, Theme};
use super::{board_state, HallKind, HallState, HallView, Mode};
use keys_help::{help_lines, hint_bar};

/// The least size of a tile, its frame included.
const TILE_WIDTH: u16 = 36;
const TILE_HEIGHT: u16 = 7;
/// The columns a tile's text keeps beside its small board.
const TEXT_WIDTH: u16 = 24;

/// What the frame drawn tells the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Laid {
    /// How many boards a row of tiles holds (1 as a list).
    pub columns: usize,
}

/// Draws the hall in `area` at `now`.
pub fn draw(
    area: Rect,
    buf: &mut Buffer,
    hall: &HallView,
    state: &mut HallState,
    theme: &Theme,
    now: Instant,
) -> Laid {
    if area.height < 4 || area.width < 20 {
        buf.set_stringn(
            area.x,
            area.y,
            "the hall needs 20x4",
            usize::from(area.width),
            theme.text,
        );
        return Laid { columns: 1 };
    }
    let width = usize::from(area.width);
    let row = |n: u16| Rect::new(area.x, area.y + n, area.width, 1);
    let status = fitted_title(status_text(hall, state), width);
    buf.set_stringn(
        area.x,
        area.y,
        format!("{status:<width$}"),
        width,
        theme.status,
    );
    let body = Rect::new(area.x, area.y + 1, area.width, area.height - 3);
    let laid = match (state.mode, &hall.picture.stage, &hall.panel) {
        (Mode::Standings, _, Some(panel)) => {
            let lines: Vec<(String, bool)> = (panel.lines.iter().chain(&panel.details))
                .map(|l| (l.clone(), false))
                .collect();
            text(body, buf, &lines, state, theme);
            Laid { columns: 1 }
        }
        (Mode::Boards, stage, Some(panel)) => {
            let below = super::panel::height(panel, body.height);
            let tiles = Rect::new(body.x, body.y, body.width, body.height - below);
            let laid = match (hall.picture.boards.is_empty(), stage) {
                (true, Stage::Over { .. }) => {
                    let over = "the match is over: every figure and game is in report.html";
                    text(tiles, buf, &[(over.into(), true)], state, theme);
                    Laid { columns: 1 }
                }
                _ => boards(tiles, buf, hall, state, theme, now),
            };
            let rest = Rect::new(body.x, tiles.y + tiles.height, body.width, below);
            super::panel::draw(rest, buf, panel, theme);
            laid
        }
        (Mode::Standings, _, None) => {
            let lines = standings_lines(hall, width);
            text(body, buf, &lines, state, theme);
            Laid { columns: 1 }
        }
        (Mode::Seats, _, _) => {
            let lines = seats_lines(hall, width);
            text(body, buf, &lines, state, theme);
            Laid { columns: 1 }
        }
        (Mode::Help, _, _) => {
            let lines = help_lines(hall.kind, state.director);
            text(body, buf, &lines, state, theme);
            Laid { columns: 1 }
        }
        (_, Stage::Playing | Stage::Starting, _) => boards(body, buf, hall, state, theme, now),
        _ => {
            let lines = between_rounds(hall, width);
            text(body, buf, &lines, state, theme);
            Laid { columns: 1 }
        }
    };
    let news = hall.news.last().map_or("", String::as_str);
    buf.set_stringn(
        area.x,
        row(area.height - 2).y,
        cut(news, width),
        width,
        theme.dim,
    );
    hint_bar(row(area.height - 1), buf, hall, state, theme);
    laid
}

fn status_text(hall: &HallView, state: &HallState) -> Vec<String> {
    let picture = &hall.picture;
    let mut parts = vec![picture.name.clone()];
    if picture.round > 0 {
        parts.push(format!("round {} of {}", picture.round, picture.rounds));
    }
    let boards = &picture.boards;
    let over = boards.iter().filter(|b| b.result.is_some()).count();
    let needs = boards
        .iter()
        .filter(|b| hall.needs(b, state).is_some())
        .count();
    let stale = boards
        .iter()
        .filter(|b| b.result.is_none() && hall.needs(b, state).is_none())
        .filter(|b| hall.game(b.board).is_some_and(|g| g.stale))
        .count();
    let playing = boards.len() - over - needs - stale;
    let noun = match boards.len() {
        1 => "board",
        _ => "boards",
    };
    let mut counts = format!("{} {noun}: {playing} playing, {over} over", boards.len());
    if stale > 0 {
        counts.push_str(&format!(", {stale} stale"));
    }
    if needs > 0 {
        let who = if state.director {
            "you"
        } else {
            "the director"
        };
        counts.push_str(&format!(", {needs} need {who}"));
    }
    if !boards.is_empty() {
        parts.push(counts);
    }
    if state.director {
        parts.extend(hall.serving.clone());
        parts.extend(
            hall.watching
                .filter(|&n| n > 0)
                .map(|n| format!("{n} watching")),
        );
    }
    let of_a_match = hall.panel.is_some();
    parts.push(match &picture.stage {
        Stage::Starting => "starting".into(),
        Stage::Playing => "playing".into(),
        Stage::Pairing { round, .. } => format!("round {round} to confirm"),
        Stage::Over { .. } if of_a_match => "the match is over".into(),
        Stage::Over { .. } => "the event is over".into(),
        Stage::Stopped { .. } => "stopped".into(),
    });
    if !state.director && !of_a_match {
        parts.push("watching".into());
    }
    parts
}

/// The hall's title in `width` columns: what it says last (where the event
/// stands) is kept; the boards' counts give way first, then where it is
/// served (to `served`), then the event's name is shortened.
fn fitted_title(parts: Vec<String>, width: usize) -> String {
    let long = |parts: &[String]| parts.join(" | ").chars().count() > width;
    let mut parts = parts;
    if long(&parts) {
        if let Some(counts) = parts.iter_mut().find(|p| p.contains(" playing, ")) {
            *counts = counts
                .split_once(": ")
                .map_or(counts.clone(), |(_, tail)| tail.to_string());
        }
    }
    if long(&parts) {
        if let Some(serving) = parts.iter_mut().find(|p| p.starts_with("serving ")) {
            *serving = "served".into();
        }
    }
    if long(&parts) {
        let rest: usize = parts[1..].iter().map(|p| p.chars().count() + 3).sum();
        let room = width.saturating_sub(rest).max(8);
        parts[0] = cut(&parts[0], room);
    }
    cut(&parts.join(" | "), width)
}

/// The round's boards, as tiles or as a list.
fn boards(
    area: Rect,
    buf: &mut Buffer,
    hall: &HallView,
    state: &mut HallState,
    theme: &Theme,
    now: Instant,
) -> Laid {
    let order = hall.order(state);
    if state.selected.is_none_or(|b| !order.contains(&b)) {
        state.selected = order.first().copied();
    }
    if order.is_empty() {
        let text = match hall.kind {
            HallKind::Worker => "no game in play: the worker waits for a job",
            HallKind::Match => "no game is playing yet",
            HallKind::Event => "no board is playing yet",
        };
        buf.set_stringn(area.x, area.y, text, usize::from(area.width), theme.dim);
        return Laid { columns: 1 };
    }
    let count = order.len() as u16;
    let most = (area.width / TILE_WIDTH).clamp(1, count);
    if count.div_ceil(most) * TILE_HEIGHT > area.height {
        list(area, buf, hall, state, theme, now, &order);
        return Laid { columns: 1 };
    }
    let size = hall.games.values().map(|g| board_size(&g.view)).max();
    let columns = (1..=most)
        .filter(|&columns| count.div_ceil(columns) * TILE_HEIGHT <= area.height)
        .find(|&columns| {
            let (width, height) = (area.width / columns, area.height / count.div_ceil(columns));
            size.is_some_and(|size| width > TEXT_WIDTH + size + 2 && height >= size + 2)
        })
        .unwrap_or(most);
    let rows = count.div_ceil(columns);
    let tile_width = area.width / columns;
    let tile_height = area.height / rows;
    for (i, &board) in order.iter().enumerate() {
        let (col, row) = (i as u16 % columns, i as u16 / columns);
        let tile = Rect::new(
            area.x + col * tile_width,
            area.y + row * tile_height,
            tile_width,
            tile_height,
        );
        if let Some(picture) = hall.picture.board(board) {
            self::tile(tile, buf, hall, picture, state, theme, now);
        }
    }
    Laid {
        columns: usize::from(columns),
    }
}

/// One board's tile: its frame titled with its number, the players and
/// their clocks, the last move, where it stands, what it needs, and a
/// small board when there is room.
fn tile(
    area: Rect,
    buf: &mut Buffer,
    hall: &HallView,
    board: &BoardPicture,
    state: &HallState,
    theme: &Theme,
    now: Instant,
) {
    let needs = hall.needs(board, state);
    let selected = state.selected == Some(board.board);
    let frame_style = match (&needs, selected) {
        (Some(_), _) => theme.alert,
        (None, true) => theme.title_focused,
        (None, false) => theme.dim,
    };
    frame(area, buf, frame_style, theme.unicode);
    let title = format!(
        "{}{}{} ",
        if selected { ">" } else { " " },
        if needs.is_some() { "! " } else { " " },
        board
            .label
            .clone()
            .unwrap_or_else(|| format!("board {}", board.board))
    );
    let title_width = usize::from(area.width.saturating_sub(2));
    buf.set_stringn(area.x + 1, area.y, title, title_width, frame_style);
    let inner = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    let game = hall.game(board.board);
    let view = game.map(|g| g.view.as_ref());
    let size = view.map_or(0, board_size);
    let small_board = size > 0 && inner.height >= size && inner.width > TEXT_WIDTH + size;
    let text_width = match small_board {
        true => inner.width - size - 1,
        false => inner.width,
    };
    let now_t_ms = hall.now_t_ms(board.board, now);
    let mut lines = players(board, view, now_t_ms, usize::from(text_width), theme);
    if let Some(bar) = view.and_then(|v| winrate_bar(v, usize::from(text_width), theme.unicode)) {
        lines.push((bar, theme.text));
    }
    lines.push((last_move(view), theme.text));
    let mut said = vec![(board_state(board, game), theme.text)];
    if let Some(trouble) = game.and_then(|g| g.trouble.as_ref()) {
        said.push((format!("? {trouble}"), theme.problem));
    }
    if let Some(why) = needs {
        said.push((format!("! {why}"), theme.alert));
    }
    let room = usize::from(inner.height).saturating_sub(lines.len());
    lines.extend(wrapped(&said, room, usize::from(text_width)));
    for (row, (text, style)) in (0..inner.height).zip(lines) {
        let text = cut(&text, usize::from(text_width));
        buf.set_stringn(inner.x, inner.y + row, text, usize::from(text_width), style);
    }
    if let (true, Some(view)) = (small_board, view) {
        let at = Rect::new(inner.x + inner.width - size, inner.y, size, size);
        small(at, buf, view, theme);
    }
}

/// The size of the board a tile draws: none before the game has started,
/// when the view's size is only its default.
fn board_size(view: &GameView) -> u16 {
    match view.first_to_move {
        Some(_) => u16::from(view.size),
        None => 0,
    }
}

/// Texts in at most `rows` lines of `width`, each text on lines of its
/// own: wrapped when they all fit so, else each cut to one line.
fn wrapped(texts: &[(String, Style)], rows: usize, width: usize) -> Vec<(String, Style)> {
    let lines: Vec<(String, Style)> = texts
        .iter()
        .flat_map(|(text, style)| {
            super::super::wrap(text, width, 2)
                .into_iter()
                .map(move |line| (line, *style))
        })
        .collect();
    match lines.len() <= rows {
        true => lines,
        false => texts
            .iter()
            .take(rows)
            .map(|(text, style)| (cut(text, width), *style))
            .collect(),
    }
}

/// The players' lines: colour, name, the side to move, the clock.
fn players(
    board: &BoardPicture,
    view: Option<&GameView>,
    now_t_ms: Option<u64>,
    width: usize,
    theme: &Theme,
) -> Vec<(String, Style)> {
    Color::BOTH
        .iter()
        .map(|&color| {
            let name = match color {
                Color::Black => &board.black,
                Color::White => &board.white,
            };
            let (clock, to_move) = match view {
                Some(view) => (
                    clock(view, color, now_t_ms),
                    view.to_move == Some(color) && view.result.is_none(),
                ),
                None => ("--:--".into(), false),
            };
            let stone = point_glyph(theme, Some(color)).0;
            let mover = match (to_move, theme.unicode) {
                (true, true) => '▶',
                (true, false) => '>',
                (false, _) => ' ',
            };
            let room = width.saturating_sub(4 + clock.chars().count());
            let absent =
                view.is_some_and(|view| view.seat_absent[color.index()] && view.result.is_none());
            let name = match absent {
                true => cut(
                    &format!("{} absent", cut(name, room.saturating_sub(7))),
                    room,
                ),
                false => cut(name, room),
            };
            let style = match (absent, to_move) {
                (true, _) => theme.alert,
                (false, true) => theme.to_move,
                (false, false) => theme.text,
            };
            (format!("{stone} {name:<room$} {mover}{clock}"), style)
        })
        .collect()
}

/// A side's clock in a few columns, ticking.
fn clock(view: &GameView, color: Color, now_t_ms: Option<u64>) -> String {
    let paused = view.clocks_paused && view.result.is_none();
    match reading_at(view, color, now_t_ms) {
        Some(reading) if view.time_settings.kind == "none" => {
            describe(&reading, true, paused).trim().to_string()
        }
        Some(reading) => describe(&reading, true, paused)
            .trim()
            .trim_end_matches("main")
            .trim()
            .to_string(),
        None => "--:--".into(),
    }
}

/// Black's chance as the newest analysed move saw it, as a bar the width
/// of the tile's text: `B ██████░░░░ 62%`, marked `≠` (`<>`) when both
/// programs think they are winning; none before any analysis.
pub(crate) fn winrate_bar(view: &GameView, width: usize, unicode: bool) -> Option<String> {
    let black = view.moves.iter().rev().find_map(|m| m.black_winrate)?;
    let black = f64::from(black.clamp(0.0, 1.0));
    let mark = super::super::clocks::disagreement_mark(view, unicode);
    let figure = format!(" {:.0}%{mark}", black * 100.0);
    let bar_width = width.saturating_sub(2 + figure.chars().count());
    if bar_width < 4 {
        return None;
    }
    let filled = (black * bar_width as f64).round() as usize;
    let (full, empty) = if unicode { ('█', '░') } else { ('#', '-') };
    let bar: String = std::iter::repeat_n(full, filled)
        .chain(std::iter::repeat_n(empty, bar_width - filled))
        .collect();
    Some(format!("B {bar}{figure}"))
}

fn last_move(view: Option<&GameView>) -> String {
    match view.and_then(|v| v.last_move.as_ref()) {
        Some(mv) => format!("move {}: {} {}", mv.n, mv.color.letter(), mv.vertex),
        None => "no move yet".into(),
    }
}

/// The position, one column a point, the last move in its style.
fn small(area: Rect, buf: &mut Buffer, view: &GameView, theme: &Theme) {
    let size = view.size;
    let last = view
        .last_move
        .as_ref()
        .and_then(|m| Move::parse_gtp(&m.vertex, size).ok());
    for row in 0..size {
        for col in 0..size {
            let point = Point::new(col, size - 1 - row);
            let (glyph, mut style) = point_glyph(theme, view.stone(point));
            if last == Some(Move::Play(point)) {
                style = style.patch(theme.last_move);
            }
            let cell = (area.x + u16::from(col), area.y + u16::from(row));
            if let Some(cell) = buf.cell_mut(cell) {
                cell.set_char(glyph).set_style(style);
            }
        }
    }
}

/// The boards as a list, two lines each, scrolled to keep the board
/// selected on screen.
#[allow(clippy::too_many_arguments)]
fn list(
    area: Rect,
    buf: &mut Buffer,
    hall: &HallView,
    state: &mut HallState,
    theme: &Theme,
    now: Instant,
    order: &[u32],
) {
    let shown = usize::from(area.height / 2).max(1);
    let at = state
        .selected
        .and_then(|b| order.iter().position(|&o| o == b))
        .unwrap_or(0);
    state.scroll = state.scroll.min(at).max((at + 1).saturating_sub(shown));
    let width = usize::from(area.width);
    for (i, &number) in order.iter().enumerate().skip(state.scroll).take(shown) {
        let Some(board) = hall.picture.board(number) else {
            continue;
        };
        let y = area.y + 2 * (i - state.scroll) as u16;
        let needs = hall.needs(board, state);
        let game = hall.game(number);
        let view = game.map(|g| g.view.as_ref());
        let mark = format!(
            "{}{}{number:>3} ",
            if state.selected == Some(number) {
                '>'
            } else {
                ' '
            },
            if needs.is_some() { '!' } else { ' ' },
        );
        let half = (width.saturating_sub(mark.len() + 2)) / 2;
        let players = players(board, view, hall.now_t_ms(number, now), half, theme);
        let style = match (&needs, state.selected == Some(number)) {
            (Some(_), _) => theme.alert,
            (None, true) => theme.selected,
            (None, false) => theme.text,
        };
        buf.set_stringn(area.x, y, &mark, width, style);
        let mut x = area.x + mark.len() as u16;
        for (text, style) in players {
            buf.set_stringn(x, y, &text, half, style);
            x += half as u16 + 2;
        }
        let label = board.label.as_deref().unwrap_or("");
        let mut second = format!(
            "      {label}{}{}  {}",
            if label.is_empty() { "" } else { "  " },
            last_move(view),
            board_state(board, game)
        );
        let trouble = game.and_then(|g| g.trouble.as_ref());
        if let Some(trouble) = trouble {
            second.push_str(&format!("  ? {trouble}"));
        }
        if let Some(why) = &needs {
            second.push_str(&format!("  ! {why}"));
        }
        let second_style = match (&needs, trouble) {
            (Some(_), _) => theme.alert,
            (None, Some(_)) => theme.problem,
            (None, None) => theme.dim,
        };
        buf.set_stringn(area.x, y + 1, cut(&second, width), width, second_style);
    }
    if order.len() > shown {
        let more = format!(
            " {}-{} of {} boards ",
            state.scroll + 1,
            (state.scroll + shown).min(order.len()),
            order.len()
        );
        let x = area.x + area.width.saturating_sub(more.len() as u16);
        buf.set_stringn(x, area.y + area.height - 1, more, width, theme.dim);
    }
}

/// What the standings shown count: none of the rounds yet, a round still
/// in play (its finished games counted), or the rounds played.
fn standings_label(picture: &EventPicture) -> String {
    let round = picture.round;
    let in_play = matches!(picture.stage, Stage::Playing | Stage::Starting)
        && picture.boards.iter().any(|b| b.result.is_none());
    match round {
        0 => "standings before round 1".into(),
        _ if in_play => {
            format!("standings, round {round} in play: its finished games counted")
        }
        _ => format!("standings after round {round}"),
    }
}

/// The standings of each division, fitted to `width`.
/// The seats view: each seated entrant, connected or not and since when,
/// its round trip, and the program and seat it answered with.
fn seats_lines(hall: &HallView, width: usize) -> Vec<(String, bool)> {
    let seats = &hall.picture.seats;
    let connected = seats.iter().filter(|s| s.connected).count();
    let mut lines = vec![(
        format!("seats: {connected} of {} connected", seats.len()),
        true,
    )];
    let name_width = seats
        .iter()
        .map(|s| s.entrant.chars().count())
        .max()
        .unwrap_or(0);
    for seat in seats {
        let state = match (seat.connected, &seat.since) {
            (true, Some(since)) => format!("connected since {since}"),
            (true, None) => "connected".into(),
            (false, Some(since)) => format!("ABSENT since {since}"),
            (false, None) => "absent: never connected".into(),
        };
        let rtt = seat
            .rtt_ms
            .map_or(String::new(), |ms| format!("rtt {ms} ms"));
        let program = match (&seat.program, &seat.client) {
            (Some(program), Some(client)) => format!("{program} ({client})"),
            (Some(program), None) => program.clone(),
            (None, Some(client)) => client.clone(),
            (None, None) => String::new(),
        };
        let line = format!(
            "{:<name_width$}  {state:<28} {rtt:<11} {program}",
            seat.entrant
        );
        lines.push((cut(line.trim_end(), width).to_string(), false));
        if let Some(card) = &seat.card {
            let line = format!("{:<name_width$}  card: {card}", "");
            lines.push((cut(&line, width).to_string(), false));
        }
    }
    lines
}

fn standings_lines(hall: &HallView, width: usize) -> Vec<(String, bool)> {
    let standings = &hall.picture.standings;
    let mut lines = Vec::new();
    if let Some(bracket) = &hall.picture.bracket {
        lines.push(("the bracket".to_string(), true));
        lines.extend(bracket.lines(width).into_iter().map(|l| (l, false)));
        lines.push((String::new(), false));
    }
    lines.push((standings_label(&hall.picture), true));
    for (division, table) in standings {
        if let Some(name) = division.as_deref().filter(|_| standings.len() > 1) {
            lines.push((format!("division {name}:"), true));
        }
        lines.extend(
            crosstable::table(table, width)
                .into_iter()
                .map(|l| (l, false)),
        );
    }
    lines
}

/// Between rounds: what comes next (the proposed pairing, or the
/// event's end), the round just played, and the standings.
fn between_rounds(hall: &HallView, width: usize) -> Vec<(String, bool)> {
    let picture = &hall.picture;
    let pair = |board: u32, black: &str, white: &str| {
        format!("  board {board:>2}  {black} (B) - {white} (W)")
    };
    let mut lines = Vec::new();
    match &picture.stage {
        Stage::Pairing {
            round,
            boards,
            byes,
            rematches,
            notes,
        } => {
            lines.push((
                format!("round {round} of {}, proposed:", picture.rounds),
                true,
            ));
            for board in boards {
                let mut line = pair(board.board, &board.black, &board.white);
                if rematches.contains(&board.board) {
                    line.push_str("  (rematch)");
                }
                lines.push((line, false));
            }
            for bye in byes {
                lines.push((format!("  bye       {bye}"), false));
            }
            for note in notes {
                let wrapped = crate::ui::wrap(&format!("  note: {note}"), width, 8);
                lines.extend(wrapped.into_iter().map(|l| (l, false)));
            }
        }
        Stage::Over { standings_html } => lines.push((
            format!("the event is over: the standings are in {standings_html}"),
            true,
        )),
        Stage::Stopped { why } => lines.push((format!("the event stopped: {why}"), true)),
        Stage::Playing | Stage::Starting => {}
    }
    if picture.round > 0 {
        lines.push((String::new(), false));
        lines.push((format!("round {} results:", picture.round), true));
        for board in &picture.boards {
            let state = board_state(board, None);
            lines.push((
                format!("{}  {state}", pair(board.board, &board.black, &board.white)),
                false,
            ));
        }
        for bye in &picture.byes {
            lines.push((format!("  bye       {bye}"), false));
        }
        lines.push((String::new(), false));
        lines.extend(standings_lines(hall, width));
    }
    lines
}

/// Lines of text, headings in the title style, scrolled.
fn text(
    area: Rect,
    buf: &mut Buffer,
    lines: &[(String, bool)],
    state: &mut HallState,
    theme: &Theme,
) {
    let room = usize::from(area.height);
    state.scroll = state.scroll.min(lines.len().saturating_sub(room));
    let width = usize::from(area.width);
    for (row, (line, heading)) in lines.iter().skip(state.scroll).take(room).enumerate() {
        let style = match heading {
            true => theme.title,
            false => theme.text,
        };
        buf.set_stringn(area.x, area.y + row as u16, cut(line, width), width, style);
    }
}

/// A tile's frame.
fn frame(area: Rect, buf: &mut Buffer, style: Style, unicode: bool) {
    if area.width < 2 || area.height < 2 {
        return;
    }
    let (h, v, corners) = match unicode {
        true => ('─', '│', ['┌', '┐', '└', '┘']),
        false => ('-', '|', ['+', '+', '+', '+']),
    };
    let (left, right) = (area.x, area.x + area.width - 1);
    let (top, bottom) = (area.y, area.y + area.height - 1);
    for x in left..=right {
        for y in [top, bottom] {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_char(h).set_style(style);
            }
        }
    }
    for y in top..=bottom {
        for x in [left, right] {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_char(v).set_style(style);
            }
        }
    }
    for (corner, at) in
        corners
            .into_iter()
            .zip([(left, top), (right, top), (left, bottom), (right, bottom)])
    {
        if let Some(cell) = buf.cell_mut(at) {
            cell.set_char(corner).set_style(style);
        }
    }
}

mod keys_help;

#[cfg(test)]
mod winrate_bar_tests;
