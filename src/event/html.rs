//! `DIR/standings.html`: the crosstable as a static page the director can
//! publish, written after each round, each result linking to its game's
//! SGF record in the event's folder.

use std::path::{Path, PathBuf};

use super::file::EventFile;
use super::state::EventState;
use crate::journal::folder::RECORD;
use goref_core::tournament::crosstable::{
    cell_text, empty_round_text, halves_text, head_to_head_text, legend, rank_text,
    shows_head_to_head,
};
use goref_core::tournament::standings::Standings;

/// The page's name in the event's folder.
pub(crate) const STANDINGS_PAGE: &str = "standings.html";

/// Writes the page (atomically) and returns its path.
pub fn write(dir: &Path, file: &EventFile, state: &EventState) -> Result<PathBuf, String> {
    let path = dir.join(STANDINGS_PAGE);
    let text = page(file, state)?;
    crate::files::write_output(&path, &text, crate::files::Holds::Page)
        .map_err(|e| e.to_string())?;
    Ok(path)
}

/// The page's text.
pub fn page(file: &EventFile, state: &EventState) -> Result<String, String> {
    let divisions = state.division_standings(file)?;
    let mut html = String::new();
    let title = escape(&file.name);
    html.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}: standings</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; }}\n\
         table {{ border-collapse: collapse; }}\n\
         th, td {{ border: 1px solid #999; padding: 0.2em 0.6em; text-align: center; }}\n\
         td.name {{ text-align: left; }}\n\
         a {{ text-decoration: none; }}\n</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    ));
    let about: Vec<String> = [file.place.as_deref(), file.dates.as_deref()]
        .into_iter()
        .flatten()
        .map(escape)
        .collect();
    if !about.is_empty() {
        html.push_str(&format!("<p>{}</p>\n", about.join(", ")));
    }
    let played = state.rounds.iter().filter(|r| r.is_over()).count();
    html.push_str(&format!(
        "<p>After {played} of {} rounds. A cell is the opponent's number, the colour \
         (b or w), + - = for a win, a loss or a jigo, and how the game ended; it links \
         to the game's record.</p>\n",
        file.rounds.max(played as u32)
    ));
    if let Some(bracket) = state.bracket(file) {
        html.push_str("<h2>The bracket</h2>\n<pre class=\"bracket\">");
        html.push_str(&escape(&bracket.lines(100).join("\n")));
        html.push_str("</pre>\n");
    }
    for (division, table) in &divisions {
        if let Some(name) = division.as_deref().filter(|_| divisions.len() > 1) {
            html.push_str(&format!("<h2>{}</h2>\n", escape(name)));
        }
        html.push_str(&table_html(table, state));
    }
    html.push_str("</body>\n</html>\n");
    Ok(html)
}

/// One table of the page.
fn table_html(table: &Standings, state: &EventState) -> String {
    let mut html = String::from("<table>\n<tr><th>Rank</th><th>No</th><th>Name</th>");
    for round in 1..=table.rounds {
        html.push_str(&format!("<th>{round}</th>"));
    }
    html.push_str("<th>Score</th>");
    for tie_break in table.tie_breaks.iter().filter(|t| t.is_column()) {
        html.push_str(&format!("<th>{}</th>", escape(tie_break.heading())));
    }
    let head_to_head = shows_head_to_head(table);
    if head_to_head {
        html.push_str("<th>h2h</th>");
    }
    html.push_str("</tr>\n");
    for row in &table.rows {
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td class=\"name\">{}</td>",
            rank_text(row),
            row.number,
            escape(&row.name)
        ));
        for round in 1..=table.rounds {
            let cells: Vec<String> = row
                .cells
                .iter()
                .filter(|c| c.round == round)
                .map(|cell| {
                    let text = escape(&cell_text(cell, true));
                    match record_of(state, &row.name, round) {
                        Some(link) => format!("<a href=\"{}\">{text}</a>", escape(&link)),
                        None => text,
                    }
                })
                .collect();
            let shown = match cells.is_empty() {
                true => empty_round_text(row, round).to_string(),
                false => cells.join(" / "),
            };
            html.push_str(&format!("<td>{shown}</td>"));
        }
        html.push_str(&format!("<td>{}</td>", halves_text(row.score)));
        for (_, value) in &row.values {
            html.push_str(&format!("<td>{}</td>", halves_text(*value)));
        }
        if head_to_head {
            html.push_str(&format!("<td>{}</td>", head_to_head_text(row)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>\n");
    for line in legend(table) {
        html.push_str(&format!("<p class=\"legend\">{}</p>\n", escape(&line)));
    }
    html
}

/// The record of `name`'s game in `round`, relative to the event's folder.
fn record_of(state: &EventState, name: &str, round: u32) -> Option<String> {
    state
        .round(round)?
        .boards
        .iter()
        .find(|b| b.pair.black == name || b.pair.white == name)?
        .dirs
        .last()
        .map(|dir| format!("{dir}/{RECORD}"))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::file::parse;
    use crate::event::log::{EventLine, Pair};

    #[test]
    fn each_result_links_to_its_record_and_names_are_escaped() {
        let file = parse(
            "name = \"<club>\"\nsystem = \"swiss\"\nrounds = 1\n[[entrant]]\nname = \"a&b\"\n\
             player = \"bot\"\n[[entrant]]\nname = \"c\"\nplayer = \"bot\"\n",
        )
        .unwrap();
        let lines = vec![
            EventLine::Pairing {
                round: 1,
                boards: vec![Pair {
                    board: 1,
                    black: "a&b".into(),
                    white: "c".into(),
                }],
                byes: Vec::new(),
                confirmed_by: "--yes".into(),
            },
            EventLine::BoardStart {
                round: 1,
                board: 1,
                black: "a&b".into(),
                white: "c".into(),
                dir: "round-1/board-1".into(),
                resumed: false,
            },
            EventLine::BoardEnd {
                round: 1,
                board: 1,
                black: "a&b".into(),
                white: "c".into(),
                dir: "round-1/board-1".into(),
                result: "W+R".into(),
                end: "resign".into(),
                reason: "Black resigned".into(),
            },
        ];
        let html = page(&file, &EventState::fold(&file, &lines)).unwrap();
        assert!(html.contains("<h1>&lt;club&gt;</h1>"), "{html}");
        assert!(html.contains("a&amp;b"));
        assert!(html.contains("<a href=\"round-1/board-1/game.sgf\">2b-R</a>"));
        assert!(html.contains("<a href=\"round-1/board-1/game.sgf\">1w+R</a>"));
        assert!(html.contains("After 1 of 1 rounds"));
    }

    #[test]
    fn a_withdrawn_entrant_is_marked_on_the_page() {
        let file = parse(
            "name = \"club\"\nsystem = \"swiss\"\nrounds = 2\n[[entrant]]\nname = \"a\"\n\
             player = \"bot\"\n[[entrant]]\nname = \"b\"\nplayer = \"bot\"\n[[entrant]]\nname = \"c\"\nplayer = \"bot\"\n",
        )
        .unwrap();
        let lines = vec![
            EventLine::Result {
                round: 1,
                black: "a".into(),
                white: "c".into(),
                result: "B+R".into(),
                reason: "played elsewhere".into(),
                replaces: None,
            },
            EventLine::Withdraw {
                name: "c".into(),
                from_round: 2,
                reason: "its author left".into(),
            },
            EventLine::Result {
                round: 2,
                black: "a".into(),
                white: "b".into(),
                result: "W+R".into(),
                reason: "played elsewhere".into(),
                replaces: None,
            },
        ];
        let html = page(&file, &EventState::fold(&file, &lines)).unwrap();
        assert!(html.contains("<td>wd</td>"), "{html}");
        assert!(html.contains("wd: withdrawn (c from round 2)"), "{html}");
    }
}
