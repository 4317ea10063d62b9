//! `DIR/report.html`: the page a developer pastes into a pull request. How
//! the match was played (the date, the rules and time control, each
//! engine's command and the name and version it gave, the openings, the
//! SPRT's hypotheses), the figures, the pentanomial counts, a gauntlet's
//! opponents, the SPRT's log-likelihood ratio and Elo against the games
//! played (drawn as SVG, a point per completed pair, both axes labelled),
//! and every game linked to its record with the candidate's colour.

use std::fmt::Write as _;
use std::path::Path;

use goref_core::game::Color;
use goref_core::matches::Step;

use super::precheck::{file_name, CARDS_FOLDER};
use crate::match_play::file::{MatchFile, OpeningSource};
use crate::match_play::games::{GameFolder, GamesFolder};
use crate::match_play::plan::{Plan, REPORT_PAGE};
use crate::match_play::tally::{Counted, MatchFigures, Played, Tally};

/// Writes `DIR/report.html` for `figures`, its plots and game list from
/// `tally`, under the settings of `file`.
pub(crate) fn write(
    dir: &Path,
    (file, plan): (&MatchFile, &Plan),
    figures: &MatchFigures,
    tally: &Tally,
) -> Result<(), String> {
    let settings = settings_lines(dir, file);
    let opening = |pair: u64| {
        plan.opening(pair).map_or(String::new(), |o| {
            let moves: Vec<String> = o.moves.iter().map(|p| p.to_gtp()).collect();
            format!("{} ({})", moves.join(" "), o.source)
        })
    };
    let page = page(
        &settings,
        figures,
        tally.ledger().steps(),
        (tally.played(), &opening),
    );
    let path = dir.join(REPORT_PAGE);
    crate::files::write_atomically(&path, &page)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// How the match was played, a line each.
fn settings_lines(dir: &Path, file: &MatchFile) -> Vec<String> {
    let today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let game = &file.game;
    let mut lines = vec![
        format!(
            "date: {}",
            goref_core::game::sgf::Date::from_unix_seconds(today)
        ),
        format!(
            "game: {} rules, {}x{}, komi {}, time {}",
            game.rules.as_deref().unwrap_or("kgs"),
            file.size(),
            file.size(),
            game.komi
                .map_or("as the rules give".to_string(), |k| k.to_string()),
            game.time.as_deref().unwrap_or("none")
        ),
    ];
    for (n, engine) in file.engines.iter().enumerate() {
        let role = match n {
            0 => "candidate",
            _ => "opponent",
        };
        let gave = program_on_card(dir, &engine.name)
            .map_or(String::new(), |program| format!(" ({program})"));
        lines.push(format!("{role} {}: {}{gave}", engine.name, engine.player));
    }
    lines.push(match &file.openings {
        OpeningSource::Random { plies } => {
            format!(
                "openings: {plies} random quiet moves each, from seed {}",
                file.seed
            )
        }
        OpeningSource::Sgf { path, plies } => {
            format!(
                "openings: the first {plies} moves of the games in {}",
                path.display()
            )
        }
    });
    if let Some(sprt) = file.sprt {
        lines.push(format!(
            "SPRT: elo0 {}, elo1 {}, alpha {}, beta {}, {:?} model",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, sprt.model
        ));
    }
    if let Some(pairs) = file.pairs {
        lines.push(format!("at most {pairs} pairs"));
    }
    lines
}

/// The name and version an engine gave its check before the match, from
/// its card.
fn program_on_card(dir: &Path, engine: &str) -> Option<String> {
    let card = crate::files::read_text(
        &dir.join(CARDS_FOLDER)
            .join(format!("{}.txt", file_name(engine))),
        crate::files::SETTINGS_MAX,
    )
    .ok()?;
    let said = |check: &str| {
        card.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("pass") && words.next() == Some(check))
                .then(|| words.collect::<Vec<_>>().join(" "))
        })
    };
    match (said("name"), said("version")) {
        (Some(name), Some(version)) => Some(format!("{name} {version}")),
        (name, _) => name,
    }
}

fn page(
    settings: &[String],
    figures: &MatchFigures,
    steps: &[Step],
    (games, opening): (&[Played], &dyn Fn(u64) -> String),
) -> String {
    let mut html = String::new();
    let title = escape(&figures.name);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n\
         <style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}\
         pre{{background:#f4f4f4;padding:1em}}svg{{background:#fafafa;border:1px solid #ddd}}\
         td,th{{padding:0 .6em;text-align:right}}</style></head><body>\n<h1>{title}</h1>\n"
    );
    let _ = writeln!(html, "<pre class=\"settings\">");
    for line in settings {
        let _ = writeln!(html, "{}", escape(line));
    }
    let _ = writeln!(html, "</pre>");
    let _ = writeln!(html, "<pre class=\"figures\">");
    for line in figures.lines() {
        let _ = writeln!(html, "{}", escape(&line));
    }
    let _ = writeln!(html, "</pre>");
    let elo: Vec<(u64, f64)> = steps
        .iter()
        .filter_map(|s| Some((s.games, s.elo?)))
        .collect();
    let llr: Vec<(u64, f64)> = steps
        .iter()
        .filter_map(|s| Some((s.games, s.llr?)))
        .collect();
    let bounds = match (figures.llr_lower, figures.llr_upper) {
        (Some(lower), Some(upper)) => vec![lower, upper],
        _ => Vec::new(),
    };
    if !llr.is_empty() {
        html.push_str("<h2>The SPRT's log-likelihood ratio</h2>\n");
        html.push_str(&plot("llr", &llr, &bounds));
    }
    if !elo.is_empty() {
        html.push_str("<h2>Elo</h2>\n");
        html.push_str(&plot("elo", &elo, &[0.0]));
    }
    html.push_str("<h2>The games</h2>\n<table class=\"games\"><tr><th>game</th><th>candidate</th><th>opening</th><th>result</th><th>for the candidate</th></tr>\n");
    for game in games {
        let counted = match &game.counted {
            Counted::Game { outcome, end } => format!("{outcome:?} ({end})").to_lowercase(),
            Counted::Replay(_) => "played again".to_string(),
        };
        let (colour, opening) = match GameFolder::parse_name(&game.name) {
            Some((slot, _)) => (
                match slot.candidate {
                    Color::Black => "Black",
                    Color::White => "White",
                },
                escape(&opening(slot.pair)),
            ),
            None => ("?", String::new()),
        };
        let _ = writeln!(
            html,
            "<tr><td><a href=\"{link}\">{name}</a></td><td>{colour}</td><td>{opening}</td><td>{}</td><td>{counted}</td></tr>",
            escape(&game.result),
            name = escape(&game.name),
            link = escape(&GamesFolder::record_link(&game.name))
        );
    }
    html.push_str("</table>\n</body></html>\n");
    html
}

/// A line plot of `points` (games, value), with dashed lines at `marks`.
fn plot(class: &str, points: &[(u64, f64)], marks: &[f64]) -> String {
    const WIDTH: f64 = 640.0;
    const HEIGHT: f64 = 200.0;
    let last = points.last().map_or(1, |p| p.0).max(1) as f64;
    let values = points.iter().map(|p| p.1).chain(marks.iter().copied());
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let span = (high - low).max(1e-9);
    let x = |games: u64| games as f64 / last * (WIDTH - 20.0) + 10.0;
    let y = |value: f64| HEIGHT - 10.0 - (value - low) / span * (HEIGHT - 20.0);
    let mut svg = format!(
        "<svg class=\"{class}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\n"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"12\" font-size=\"10\" text-anchor=\"end\">{high:.2}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{low:.2}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">games: {last}</text>",
        WIDTH - 12.0,
        WIDTH - 12.0,
        HEIGHT - 12.0,
        WIDTH / 2.0 + 40.0,
        HEIGHT - 2.0,
    );
    for mark in marks {
        let _ = writeln!(
            svg,
            "<line x1=\"10\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#999\" stroke-dasharray=\"4\"/>\
             <text x=\"12\" y=\"{:.1}\" font-size=\"10\">{mark:.2}</text>",
            WIDTH - 10.0,
            y(*mark) - 2.0,
            y = y(*mark)
        );
    }
    let path: Vec<String> = points
        .iter()
        .map(|(games, value)| format!("{:.1},{:.1}", x(*games), y(*value)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"{}\"/>",
        path.join(" ")
    );
    svg.push_str("</svg>\n");
    svg
}
