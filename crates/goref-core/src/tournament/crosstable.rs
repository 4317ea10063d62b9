//! The standings written out: a crosstable fitted to a terminal's width,
//! CSV for a spreadsheet, and JSON for scripts.
//!
//! A cell tells one game from the row's side: the opponent's number, the
//! row's colour, `+` `-` `=` for a win, a loss or a jigo, and how it ended
//! (`3w+R`); `V` marks a void game and `bye` a bye. When the table is wider
//! than the terminal the cells lose their "how" first, then the columns
//! close up, then the names are shortened (to six characters at least); an
//! event whose rounds alone are wider runs past the width rather than lose
//! a game.
//!
//! A tie that head-to-head decided shows each tied row's points against the
//! others in an `h2h` column; a rank the pairing number decided is marked
//! `*`; `wd` fills the rounds of a withdrawn entrant; a legend under the
//! table says so whenever one of these appears.

use serde_json::{json, Value};

use super::standings::{Cell, Halves, Mark, Row, Standings, TieBreak};

/// Half points as text: `2`, `2½`, `½`.
pub fn halves_text(halves: Halves) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

fn halves_number(halves: Halves) -> Value {
    if halves.is_multiple_of(2) {
        json!(halves / 2)
    } else {
        json!(halves as f64 / 2.0)
    }
}

pub fn cell_text(cell: &Cell, with_how: bool) -> String {
    let Some(opponent) = cell.opponent else {
        return "bye".to_string();
    };
    let side = cell
        .side
        .map(|c| c.letter().to_ascii_lowercase().to_string())
        .unwrap_or_default();
    let mark = match cell.mark {
        Mark::Win => "+",
        Mark::Loss => "-",
        Mark::Jigo => "=",
        Mark::Void => "V",
        Mark::Bye => "",
    };
    let how = match (with_how, cell.mark) {
        (true, Mark::Win | Mark::Loss) => cell.how.as_str(),
        _ => "",
    };
    format!("{}{side}{mark}{how}", opponent + 1)
}

/// The text of each round's column for a row: games of a round joined by
/// `/`, `wd` for a round after the entrant withdrew, `-` for another round
/// without one.
fn round_cells(row: &Row, rounds: u32, with_how: bool) -> Vec<String> {
    (1..=rounds)
        .map(|round| {
            let texts: Vec<String> = row
                .cells
                .iter()
                .filter(|c| c.round == round)
                .map(|c| cell_text(c, with_how))
                .collect();
            match texts.is_empty() {
                true => empty_round_text(row, round).to_string(),
                false => texts.join("/"),
            }
        })
        .collect()
}

/// A round the row has no game in: `wd` once withdrawn, else `-`.
pub fn empty_round_text(row: &Row, round: u32) -> &'static str {
    match row.withdrawn_from.is_some_and(|from| round >= from) {
        true => "wd",
        false => "-",
    }
}

/// The rank: `3=` shared, `3*` placed by the pairing number, else `3`.
pub fn rank_text(row: &Row) -> String {
    match (row.tied, row.decided_by) {
        (true, _) => format!("{}=", row.rank),
        (false, Some(TieBreak::PairingNumber)) => format!("{}*", row.rank),
        _ => row.rank.to_string(),
    }
}

/// Whether the table has an `h2h` column: head-to-head is in the chain
/// and some tie reached it.
pub fn shows_head_to_head(standings: &Standings) -> bool {
    standings.tie_breaks.contains(&TieBreak::HeadToHead)
        && standings.rows.iter().any(|r| r.head_to_head.is_some())
}

/// The `h2h` cell: the points taken from the others tied, or nothing.
pub fn head_to_head_text(row: &Row) -> String {
    row.head_to_head.map(halves_text).unwrap_or_default()
}

/// What the marks in the table mean, for the ones it has.
pub fn legend(standings: &Standings) -> Vec<String> {
    let mut legend = Vec::new();
    if standings
        .rows
        .iter()
        .any(|r| r.decided_by == Some(TieBreak::HeadToHead))
    {
        legend.push("h2h: points against the others tied, which decided their places".into());
    }
    if standings
        .rows
        .iter()
        .any(|r| !r.tied && r.decided_by == Some(TieBreak::PairingNumber))
    {
        legend.push("*: placed by pairing number, tied on every other criterion".into());
    }
    if standings.rows.iter().any(|r| r.withdrawn_from.is_some()) {
        let names: Vec<String> = standings
            .rows
            .iter()
            .filter_map(|r| {
                r.withdrawn_from
                    .map(|from| format!("{} from round {from}", r.name))
            })
            .collect();
        legend.push(format!("wd: withdrawn ({})", names.join(", ")));
    }
    legend
}

/// The crosstable as lines of at most `width` columns where it can be:
/// rank, number, name, a column per round, the score, and each tie-break
/// that is a value of the row's own.
pub fn table(standings: &Standings, width: usize) -> Vec<String> {
    let columns: Vec<_> = standings
        .tie_breaks
        .iter()
        .filter(|t| t.is_column())
        .collect();
    let mut heading: Vec<String> = vec!["#".into(), "no".into(), "name".into()];
    heading.extend((1..=standings.rounds).map(|r| format!("r{r}")));
    heading.push("pts".into());
    heading.extend(columns.iter().map(|t| t.heading().to_string()));
    let head_to_head = shows_head_to_head(standings);
    if head_to_head {
        heading.push(TieBreak::HeadToHead.heading().to_string());
    }
    let lines_with = |with_how: bool| -> Vec<Vec<String>> {
        let mut lines = vec![heading.clone()];
        for row in &standings.rows {
            let mut line = vec![rank_text(row), row.number.to_string(), row.name.clone()];
            line.extend(round_cells(row, standings.rounds, with_how));
            line.push(halves_text(row.score));
            line.extend(row.values.iter().map(|(_, v)| halves_text(*v)));
            if head_to_head {
                line.push(head_to_head_text(row));
            }
            lines.push(line);
        }
        lines
    };
    let widths = |lines: &[Vec<String>]| -> Vec<usize> {
        (0..heading.len())
            .map(|c| {
                lines
                    .iter()
                    .map(|l| l[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    };
    let total =
        |widths: &[usize], gap: usize| widths.iter().sum::<usize>() + gap * (widths.len() - 1);
    let mut lines = lines_with(true);
    let mut column_widths = widths(&lines);
    let mut gap = 2;
    if total(&column_widths, gap) > width {
        lines = lines_with(false);
        column_widths = widths(&lines);
    }
    if total(&column_widths, gap) > width {
        gap = 1;
    }
    let over = total(&column_widths, gap).saturating_sub(width);
    const NAME: usize = 2;
    column_widths[NAME] = column_widths[NAME].saturating_sub(over).max(6);
    let mut table: Vec<String> = lines
        .iter()
        .map(|line| {
            let cells: Vec<String> = line
                .iter()
                .enumerate()
                .map(|(c, text)| {
                    let w = column_widths[c];
                    let text = shorten(text, w);
                    match c == NAME {
                        true => format!("{text:<w$}"),
                        false => format!("{text:>w$}"),
                    }
                })
                .collect();
            cells.join(&" ".repeat(gap)).trim_end().to_string()
        })
        .collect();
    table.extend(legend(standings).iter().map(|l| shorten(l, width.max(20))));
    table
}

fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// The standings as CSV: a header, then a row per entrant by rank.
pub fn csv(standings: &Standings) -> String {
    let mut header = vec!["rank".to_string(), "tied".into(), "number".into()];
    header.push("name".into());
    header.push("score".into());
    header.extend(
        standings
            .tie_breaks
            .iter()
            .filter(|t| t.is_column())
            .map(|t| t.name().to_string()),
    );
    let head_to_head = standings.tie_breaks.contains(&TieBreak::HeadToHead);
    if head_to_head {
        header.push(TieBreak::HeadToHead.name().into());
    }
    header.push("decided_by".into());
    header.push("withdrawn_from".into());
    header.extend((1..=standings.rounds).map(|r| format!("r{r}")));
    let mut out = header.join(",") + "\n";
    for row in &standings.rows {
        let mut fields = vec![
            row.rank.to_string(),
            row.tied.to_string(),
            row.number.to_string(),
            csv_field(&row.name),
            (row.score as f64 / 2.0).to_string(),
        ];
        fields.extend(
            row.values
                .iter()
                .map(|(_, v)| (*v as f64 / 2.0).to_string()),
        );
        if head_to_head {
            fields.push(
                row.head_to_head
                    .map(|v| (v as f64 / 2.0).to_string())
                    .unwrap_or_default(),
            );
        }
        fields.push(row.decided_by.map(|t| t.name()).unwrap_or_default().into());
        fields.push(
            row.withdrawn_from
                .map(|r| r.to_string())
                .unwrap_or_default(),
        );
        fields.extend(round_cells(row, standings.rounds, true));
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

fn csv_field(text: &str) -> String {
    match text.contains([',', '"', '\n']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text.to_string(),
    }
}

/// The standings as one JSON document: the chain, then a row per entrant
/// with each tie-break under its name and every game.
pub fn json(standings: &Standings) -> Value {
    let rows: Vec<Value> = standings
        .rows
        .iter()
        .map(|row| {
            let mut object = json!({
                "rank": row.rank,
                "tied": row.tied,
                "number": row.number,
                "name": row.name,
                "score": halves_number(row.score),
            });
            for (tie_break, value) in &row.values {
                object[tie_break.name()] = halves_number(*value);
            }
            if standings.tie_breaks.contains(&TieBreak::HeadToHead) {
                object["head_to_head"] = row.head_to_head.map(halves_number).into();
            }
            if standings.tie_breaks.contains(&TieBreak::PairingNumber) {
                object["pairing_number"] = json!(row.number);
            }
            object["decided_by"] = json!(row.decided_by.map(|t| t.name()));
            object["withdrawn_from"] = json!(row.withdrawn_from);
            object["games"] = row
                .cells
                .iter()
                .map(|cell| {
                    json!({
                        "round": cell.round,
                        "opponent": cell.opponent.map(|o| &standings.names[o]),
                        "color": cell.side.map(|c| c.to_string().to_lowercase()),
                        "result": match cell.mark {
                            Mark::Win => "win",
                            Mark::Loss => "loss",
                            Mark::Jigo => "jigo",
                            Mark::Void => "void",
                            Mark::Bye => "bye",
                        },
                        "how": cell.how,
                    })
                })
                .collect();
            object
        })
        .collect();
    let chain: Vec<&str> = standings.tie_breaks.iter().map(|t| t.name()).collect();
    json!({ "tie_breaks": chain, "rows": rows })
}
