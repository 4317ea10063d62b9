//! A TOML file's error as one line: where it is (line, column, and the key
//! written there) and what is wrong. The game file, theme files and key
//! files all report their errors this way.

/// One line for a TOML error: `line 3, column 8, key size: invalid type: ...`.
/// Line and column (both from 1, the column in characters) come from the
/// error's span; the key is the one written at the start of that line, when
/// there is one, prefixed with the table it is in (`black_stone.fg`). The
/// game file and theme files read their errors this way.
pub(crate) fn locate(text: &str, error: &toml::de::Error) -> String {
    let message = error
        .message()
        .lines()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let Some(span) = error.span() else {
        return message;
    };
    let (line, column) = position(text, span.start);
    let lines: Vec<&str> = text.lines().collect();
    let Some(line_key) = lines.get(line - 1).and_then(|l| key_of_line(l)) else {
        return format!("line {line}, column {column}: {message}");
    };
    let table = lines[..line - 1]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| l.starts_with('['))
        .and_then(key_of_line);
    let key = match table {
        Some(table) if !lines[line - 1].trim().starts_with('[') => format!("{table}.{line_key}"),
        _ => line_key,
    };
    format!("line {line}, column {column}, key {key}: {message}")
}

/// Line and column, both from 1, the column in characters, of a byte offset
/// into `text`.
pub(crate) fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut start = offset.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

/// The key a TOML line sets (`size = 9`, `"size" = 9`) or the table it opens
/// (`[white]`).
fn key_of_line(line: &str) -> Option<String> {
    let line = line.trim();
    let key = if line.starts_with('[') {
        line.trim_start_matches('[').split(']').next()?
    } else {
        line.split_once('=')?.0
    };
    let key = key.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    (!key.is_empty() && !key.starts_with('#')).then(|| key.to_string())
}
