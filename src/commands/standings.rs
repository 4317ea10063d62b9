//! `goref standings`: an event's crosstable, a match's figures, or the
//! standings of a plain list of games.

use std::io::IsTerminal;

use super::Outcome;
use crate::cli::StandingsArgs;
use crate::console;

/// `goref standings DIR` or `goref standings --games FILE`: the crosstable
/// of an event's folder, a match's figures, or the standings of a list of
/// games.
pub(super) fn standings(args: &StandingsArgs) -> Result<Outcome, String> {
    use crate::event::{event_text, standings_csv, standings_json, standings_text};
    if let Some(dir) = args
        .dir
        .as_ref()
        .filter(|dir| crate::engine_match::is_match(dir))
    {
        return match_standings(dir, args);
    }
    let event = match &args.dir {
        Some(dir) => Some(crate::event::standings(dir)?),
        None => None,
    };
    let divisions = match (&event, &args.games) {
        (Some((file, state)), None) => state.division_standings(file)?,
        (None, Some(games)) => vec![(None, standings_of_games(games, args)?)],
        _ => return Err("goref standings DIR, or goref standings --games FILE.csv".into()),
    };
    let bracket = event.as_ref().and_then(|(file, state)| state.bracket(file));
    if args.json {
        let mut json = standings_json(&divisions);
        if let Some(bracket) = &bracket {
            json["bracket"] = serde_json::to_value(bracket).map_err(|e| e.to_string())?;
            json["champion"] = bracket.champion().into();
        }
        console::out(json.to_string());
    } else if args.csv {
        console::out(standings_csv(&divisions).trim_end());
    } else {
        let width = match std::io::stdout().is_terminal() {
            true => crossterm::terminal::size().map_or(80, |(columns, _)| columns as usize),
            false => 80,
        };
        let lines = match &event {
            Some((file, state)) => event_text(file, state, width)?,
            None => standings_text(&divisions, width),
        };
        for line in lines {
            console::out(line);
        }
    }
    if console::stdout_closed() {
        return Ok(Outcome::Incomplete(vec![
            "stdout did not take the whole standings (closed, or the disk is full)".into(),
        ]));
    }
    Ok(Outcome::Done)
}

/// `goref standings DIR` on a match's folder: its figures.
pub(super) fn match_standings(
    dir: &std::path::Path,
    args: &StandingsArgs,
) -> Result<Outcome, String> {
    let file = crate::match_play::file::load(dir).map_err(|e| e.to_string())?;
    let figures = crate::match_play::tally::figures(dir, &file);
    if args.json {
        console::out(serde_json::to_string(&figures).map_err(|e| e.to_string())?);
    } else if args.csv {
        console::out(figures.csv().trim_end());
    } else {
        for line in figures.lines() {
            console::out(line);
        }
    }
    Ok(Outcome::Done)
}

/// The standings of a plain list of games, `round,black,white,result`.
pub(super) fn standings_of_games(
    path: &std::path::Path,
    args: &StandingsArgs,
) -> Result<goref_core::tournament::standings::Standings, String> {
    use goref_core::tournament::{games, standings};
    let shown = path.display();
    let text = crate::files::read_text(path, games::MAX_GAMES_FILE)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let played = games::parse_games(&text).map_err(|e| format!("{shown}, {e}"))?;
    if played.is_empty() {
        return Err(format!(
            "{shown} holds no game: round,black,white,result, one a line"
        ));
    }
    let chain = standings::TieBreak::parse_chain(&args.tie_breaks)
        .map_err(|e| format!("--tie-breaks: {e}"))?;
    let bye = standings::bye_halves(args.bye_score).map_err(|e| format!("--bye-score {e}"))?;
    let entrants = standings::entrants_in(&played);
    standings::standings(&entrants, &played, &chain, bye)
}
