//! A tournament in one folder: the event file a director writes, and the
//! commands that run the event from it.
//!
//! - [`file`](mod@file): `DIR/event.toml`, read and checked, and its commented
//!   template.
//! - [`log`]: `DIR/event.jsonl`, the event's journal and stream.
//! - [`state`]: the event as the file and the journal say it stands.
//! - [`pairing`]: the next round's pairing, proposed; [`prompt`]: the
//!   director's answers to it.
//! - [`hall`]: `goref event DIR` on a terminal, every board of the round
//!   as a tile; each board is its own goref (`crate::boards`).
//! - [`run`]: `goref event DIR`, the rounds one after another, told to
//!   the director's desk (`crate::hall::desk`);
//!   its decisions are `runner`'s, a sans-IO state machine;
//!   [`progress`]: its lines for the director; [`picture`]: the event as
//!   the hall shows it.
//! - [`seat_check`]: a seated entrant's check card, through its seat.
//! - [`html`] writes `DIR/standings.html`.
//! - [`init`], [`standings`], [`set_result`]: `goref event init DIR`,
//!   `goref standings DIR` and `goref event DIR result`.

pub mod file;
pub mod hall;
pub mod html;
pub mod log;
pub mod pairing;
pub mod picture;
pub mod progress;
pub mod prompt;
pub mod run;
pub(crate) mod runner;
pub mod seat_check;
pub mod state;

#[cfg(test)]
mod proptests;

use std::path::Path;

use crate::boards;

use file::{EventFile, EVENT_FILE, TEMPLATE};
use goref_core::tournament::crosstable;
use goref_core::tournament::standings::Standings;
use log::{EventLine, EVENT_LOG};
use state::EventState;

/// Writes the commented event file into `dir`, creating the folder; an
/// event file already there is left alone.
pub fn init(dir: &Path) -> Result<std::path::PathBuf, String> {
    let path = dir.join(EVENT_FILE);
    if path.exists() {
        return Err(format!(
            "{} already exists: edit it, or give another folder",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    crate::files::write_output(&path, TEMPLATE, crate::files::Holds::EventFile)
        .map_err(|e| e.to_string())?;
    Ok(path)
}

/// The event in `dir` as it stands: its file, and its state from the
/// journal and, for boards the journal has no result for yet, from their
/// folders. Nothing is written.
pub fn standings(dir: &Path) -> Result<(EventFile, EventState), String> {
    let file = file::load(dir).map_err(|e| e.to_string())?;
    standings_with(dir, file)
}

/// The event in `dir` as it stands, under `file`, read already.
pub(crate) fn standings_with(
    dir: &Path,
    file: EventFile,
) -> Result<(EventFile, EventState), String> {
    let lines = log::read(&dir.join(EVENT_LOG)).map_err(|e| e.to_string())?;
    let journalled = EventState::fold(&file, lines.iter().map(|l| &l.line));
    check_names(dir, &journalled)?;
    let ends = ends_in_folders(dir, &journalled);
    let state = EventState::fold(&file, lines.iter().map(|l| &l.line).chain(&ends));
    Ok((file, state))
}

/// Refuses an event whose journal names an entrant the event file no
/// longer has: an entrant's name is fixed once it has played.
pub(crate) fn check_names(dir: &Path, state: &EventState) -> Result<(), String> {
    match state.stranger() {
        None => Ok(()),
        Some((name, round)) => Err(format!(
            "{} names {name} in round {round}, but {} has no entrant {name}: a name is fixed \
             once its entrant has played; give the entrant its name back",
            dir.join(EVENT_LOG).display(),
            dir.join(EVENT_FILE).display()
        )),
    }
}

/// The `board_end` lines the journal lacks: boards whose last folder holds
/// a result (the event was not watching as they ended, or was killed).
pub(crate) fn ends_in_folders(dir: &Path, state: &EventState) -> Vec<EventLine> {
    let mut ends = Vec::new();
    for round in &state.rounds {
        for board in round.boards.iter().filter(|b| b.played.is_none()) {
            let Some(folder) = board.dirs.last() else {
                continue;
            };
            if let boards::FolderState::Finished {
                result,
                end,
                reason,
            } = boards::folder_state(&dir.join(folder))
            {
                ends.push(EventLine::BoardEnd {
                    round: round.number,
                    board: board.pair.board,
                    black: board.pair.black.clone(),
                    white: board.pair.white.clone(),
                    dir: folder.clone(),
                    result,
                    end,
                    reason,
                });
            }
        }
    }
    ends
}

/// The standings of each division as text fitted to `width`, each table
/// under its division's name when there are several.
pub fn standings_text(divisions: &[(Option<String>, Standings)], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (division, table) in divisions {
        if let Some(name) = division.as_deref().filter(|_| divisions.len() > 1) {
            lines.push(format!("division {name}:"));
        }
        lines.extend(crosstable::table(table, width));
    }
    lines
}

/// What `goref standings DIR` prints: a knockout's bracket, then the
/// standings of each division, fitted to `width`.
pub fn event_text(
    file: &EventFile,
    state: &EventState,
    width: usize,
) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    if let Some(bracket) = state.bracket(file) {
        lines.extend(bracket.lines(width));
        lines.push(String::new());
    }
    lines.extend(standings_text(&state.division_standings(file)?, width));
    Ok(lines)
}

/// The standings as JSON: `{"tie_breaks": [...], "rows": [...]}` for an
/// event without divisions, `{"divisions": [{"division": NAME, "tie_breaks":
/// [...], "rows": [...]}, ...]}` for one with several.
pub fn standings_json(divisions: &[(Option<String>, Standings)]) -> serde_json::Value {
    match divisions {
        [(_, table)] => crosstable::json(table),
        _ => serde_json::json!({
            "divisions": divisions
                .iter()
                .map(|(division, table)| {
                    let mut value = crosstable::json(table);
                    value["division"] = serde_json::json!(division);
                    value
                })
                .collect::<Vec<_>>()
        }),
    }
}

/// The standings as CSV, each division's table after a `division,NAME`
/// line when there are several.
pub fn standings_csv(divisions: &[(Option<String>, Standings)]) -> String {
    let mut text = String::new();
    for (division, table) in divisions {
        if let Some(name) = division.as_deref().filter(|_| divisions.len() > 1) {
            text.push_str(&format!("division,{name}\n"));
        }
        text.push_str(&crosstable::csv(table));
    }
    text
}

/// The seat keys of the event in `dir` (made where missing) and, for each
/// seated entrant, the line its operator runs; for each entrant with a
/// CGOS client, the settings its client needs, one per line.
pub fn seat_lines(dir: &Path) -> Result<Vec<String>, String> {
    let file = file::load(dir).map_err(|e| e.to_string())?;
    let keys = seat_keys(dir, &file)?;
    let mut lines: Vec<String> = match file.seats.dialled() {
        Some(address) => seated(&file)
            .iter()
            .filter_map(|entrant| keys.command_line(&address, entrant))
            .map(|line| format!("{line} PROGRAM..."))
            .collect(),
        None => Vec::new(),
    };
    if let Some(address) = file.seats.cgos_dialled() {
        let (host, port) = address.rsplit_once(':').unwrap_or((&address, "6867"));
        let passwords = cgos_passwords(dir, &file)?;
        for (entrant, password) in passwords.entrants() {
            lines.extend([
                format!(
                    "# {entrant}: a CGOS client's settings \
                     (cgos-client-python's config; cgosGtp.tcl's -s -p -u -pw)"
                ),
                format!("ServerHost = {}", host.trim_matches(['[', ']'])),
                format!("ServerPort = {port}"),
                format!("ServerUser = {entrant}"),
                format!("ServerPassword = {password}"),
            ]);
        }
    }
    Ok(lines)
}

/// The event's entrants seated through `goref seat`.
pub(crate) fn seated(file: &file::EventFile) -> Vec<String> {
    file.entrants
        .iter()
        .filter(|e| e.player.starts_with("seat:") && !e.cgos)
        .map(|e| e.name.clone())
        .collect()
}

/// The event's entrants who play with a CGOS client, each with the
/// password the event file gives it.
pub(crate) fn cgos_entrants(file: &file::EventFile) -> Vec<(String, Option<String>)> {
    file.entrants
        .iter()
        .filter(|e| e.cgos)
        .map(|e| (e.name.clone(), e.password.clone()))
        .collect()
}

/// The CGOS entrants' passwords, made where missing, in the seats folder.
pub(crate) fn cgos_passwords(
    dir: &Path,
    file: &file::EventFile,
) -> Result<goref_core::protocol::seat::Tokens, String> {
    let folder = seats_folder(dir)?;
    crate::seats::keys::cgos_passwords(&folder, &cgos_entrants(file)).map_err(|e| e.to_string())
}

/// The event's seats folder, made private where missing.
fn seats_folder(dir: &Path) -> Result<std::path::PathBuf, String> {
    let folder = dir.join(file::SEATS_FOLDER);
    std::fs::create_dir_all(&folder)
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700))
        })
        .map_err(|e| format!("{}: {e}", folder.display()))?;
    Ok(folder)
}

/// The event's seat keys, made where missing: the certificate names the
/// hosts of both addresses of `[seats]` and localhost.
pub(crate) fn seat_keys(
    dir: &Path,
    file: &file::EventFile,
) -> Result<crate::seats::keys::SeatKeys, String> {
    let entrants = seated(file);
    if entrants.is_empty() && cgos_entrants(file).is_empty() {
        return Err(format!(
            "{}: no entrant has player = \"seat\" or \"cgos\"",
            dir.join(file::EVENT_FILE).display()
        ));
    }
    let host = |address: &Option<String>| {
        address
            .as_deref()
            .and_then(|a| a.rsplit_once(':'))
            .map(|(host, _)| host.trim_matches(['[', ']']).to_string())
    };
    let mut names: Vec<String> = [host(&file.seats.address), host(&file.seats.listen)]
        .into_iter()
        .flatten()
        .filter(|h| h != "0.0.0.0" && h != "::")
        .collect();
    names.push("localhost".into());
    names.dedup();
    let folder = seats_folder(dir)?;
    crate::seats::keys::SeatKeys::load_or_make(&folder, &entrants, &names)
        .map_err(|e| e.to_string())
}

/// `goref event DIR retry ROUND BOARD` (and the hall's `t`): a board that
/// waits for the director because its game never started or its goref
/// failed is started again, in a new folder, by the running event at once
/// or by the next `goref event DIR`. Refused, with nothing written, for a
/// board that has a result, plays, or waits for the judge. Returns the line
/// that confirms it.
pub fn retry_board(dir: &Path, round: u32, board: u32, reason: &str) -> Result<String, String> {
    let (_, state) = standings(dir)?;
    let waits_for_a_seat = |found: &state::Board| {
        boards::waits_for_absent_seat(&dir.join(found.folder(round))).is_some()
    };
    if let Some(why) = state.retry_refusal(round, board, waits_for_a_seat) {
        return Err(why);
    }
    let line = EventLine::BoardRetry {
        round,
        board,
        reason: reason.to_string(),
    };
    log::append_to(&dir.join(EVENT_LOG), &line).map_err(|e| e.to_string())?;
    let runner = crate::files::FileLock::acquire(&dir.join(EVENT_LOG)).is_err();
    Ok(match runner {
        true => format!("round {round} board {board}: the running event starts it again"),
        false => format!(
            "round {round} board {board}: goref event {} starts it again",
            dir.display()
        ),
    })
}

/// What the director asks of `goref event DIR result` (and of the hall's
/// `R`): a game's result, why, and whether it may replace one the game
/// already has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectorResult {
    pub round: u32,
    pub black: String,
    pub white: String,
    pub result: String,
    pub reason: String,
    /// Replace a result the game already has, from play or the director.
    pub replace: bool,
}

/// `goref event DIR result`: a game's result set by the director, for a
/// board of the event or a game played elsewhere, written to the journal,
/// with `standings.html` written again. A result that would give an entrant
/// a second game in the round, names the wrong way round for the pairing,
/// or (without [`DirectorResult::replace`]) a second result for a game, is
/// refused and nothing is written.
///
/// A board still played ends void, naming the director's result and reason:
/// a running event (which holds the journal's lock, in this process or
/// another) ends it within a second; with none running, this does, through
/// the board's attach socket. Returns the lines that confirm what was
/// recorded: `recorded: round 1 board 1, a (B) - b (W), W+R`, and what
/// became of the board's game.
pub fn set_result(dir: &Path, asked: &DirectorResult) -> Result<Vec<String>, String> {
    let (file, state) = standings(dir)?;
    let DirectorResult {
        round,
        black,
        white,
        result,
        reason,
        replace,
    } = asked;
    let round = *round;
    goref_core::tournament::games::parse_outcome(result)?;
    let last = match file.knockout {
        Some(_) => file.rounds.max(state.rounds.len() as u32 + 1),
        None => file.rounds,
    };
    if round == 0 || round > last {
        return Err(format!("round {round}: the event has rounds 1 to {last}"));
    }
    for name in [black, white] {
        if !state.entrants.iter().any(|e| &e.name == name) {
            return Err(format!("{name} is not an entrant of {}", file.name));
        }
    }
    if black == white {
        return Err(format!("{black} cannot play itself"));
    }
    if reason.trim().is_empty() {
        return Err("--reason: say why the director sets this result".into());
    }
    let placement = state.place_result(round, black, white, *replace)?;
    let log_path = dir.join(EVENT_LOG);
    log::append_to(
        &log_path,
        &EventLine::Result {
            round,
            black: black.clone(),
            white: white.clone(),
            result: result.clone(),
            reason: reason.clone(),
            replaces: placement.replaces.clone(),
        },
    )
    .map_err(|e| e.to_string())?;
    let mut lines = vec![format!("recorded: {}, {result}", placement.recorded)];
    if let Some(old) = &placement.replaces {
        lines.push(format!("it replaces {old}; the journal keeps both"));
    }
    let (file, state) = standings(dir)?;
    html::write(dir, &file, &state)?;
    let Some(board) = placement.board.and_then(|b| state.board(round, b)) else {
        return Ok(lines);
    };
    let Some(folder) = board.dirs.last().map(|d| dir.join(d)) else {
        return Ok(lines);
    };
    if !boards::is_live(&folder) {
        return Ok(lines);
    }
    let runner = crate::files::FileLock::acquire(&log_path).is_err();
    if runner {
        lines.push(format!(
            "its game in {} is still played: the running event ends it void",
            folder.display()
        ));
        return Ok(lines);
    }
    let why = runner::director_void_reason(board);
    lines.push(match boards::void_game(&folder, &why) {
        Ok(()) => format!("its game in {} ended void: {why}", folder.display()),
        Err(trouble) => {
            boards::signal(&folder, None, libc::SIGTERM);
            format!(
                "its game in {} is still played, but {trouble}; its goref was sent SIGTERM",
                folder.display()
            )
        }
    });
    Ok(lines)
}
