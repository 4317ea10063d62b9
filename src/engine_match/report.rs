//! `DIR/report.html`: the page a developer pastes into a pull request. The
//! figures, the pentanomial counts, a gauntlet's opponents, the SPRT's
//! log-likelihood ratio and Elo against the games played (drawn as SVG, a
//! point per completed pair), and every game linked to its record.

use std::fmt::Write as _;
use std::path::Path;

use crate::matches::Step;

use super::plan::GAMES_FOLDER;
use super::tally::{Counted, MatchFigures, Played, Tally};

/// The report's name in the match's folder.
pub const REPORT_PAGE: &str = "report.html";

/// Writes `DIR/report.html` for `figures`, its plots and game list from
/// `tally`.
pub fn write(dir: &Path, figures: &MatchFigures, tally: &Tally) -> Result<(), String> {
    let page = page(figures, tally.ledger().steps(), tally.played());
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

fn page(figures: &MatchFigures, steps: &[Step], games: &[Played]) -> String {
    let mut html = String::new();
    let title = escape(&figures.name);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n\
         <style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}\
         pre{{background:#f4f4f4;padding:1em}}svg{{background:#fafafa;border:1px solid #ddd}}\
         td,th{{padding:0 .6em;text-align:right}}</style></head><body>\n<h1>{title}</h1>\n"
    );
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
    html.push_str("<h2>The games</h2>\n<table class=\"games\"><tr><th>game</th><th>result</th><th>for the candidate</th></tr>\n");
    for game in games {
        let counted = match &game.counted {
            Counted::Game { outcome, end } => format!("{outcome:?} ({end})").to_lowercase(),
            Counted::Replay(_) => "played again".to_string(),
        };
        let _ = writeln!(
            html,
            "<tr><td><a href=\"{GAMES_FOLDER}/{name}/game.sgf\">{name}</a></td><td>{}</td><td>{counted}</td></tr>",
            escape(&game.result),
            name = escape(&game.name)
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
