//! SGF FF\[4\] (`reference/rules.md` §7): a generic main-line model, a writer
//! and a tolerant reader.
//!
//! A game record is a list of [`Node`]s, the root first, each holding its
//! properties in order with unescaped values. The writer puts one node per
//! line; the reader follows the first variation at every branch and accepts
//! the older spellings found in the wild (lower-case letters in property
//! identifiers, `B[tt]` passes, soft line breaks). Nothing here reads the clock
//! or the file system: [`Date`] is computed from seconds the shell passes in.

use std::fmt;

use crate::game::coord::{Color, CoordError, Point};

/// One node: its properties in order, each with one or more unescaped values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    pub props: Vec<(String, Vec<String>)>,
}

impl Node {
    /// The first value of property `id`.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.values(id)?.first().map(String::as_str)
    }

    /// All values of property `id`.
    pub fn values(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(prop, _)| prop == id)
            .map(|(_, values)| values.as_slice())
    }

    /// Adds a value to property `id`, creating the property at the end if the
    /// node does not have it yet (SGF allows one property of each kind per node).
    pub fn push(&mut self, id: &str, value: impl Into<String>) {
        self.push_many(id, vec![value.into()]);
    }

    /// Adds values to property `id`, as [`Node::push`] does.
    pub(crate) fn push_many(&mut self, id: &str, values: Vec<String>) {
        match self.props.iter_mut().find(|(prop, _)| prop == id) {
            Some((_, existing)) => existing.extend(values),
            None => self.props.push((id.to_string(), values)),
        }
    }
}

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("SGF syntax error at byte {offset}: {message}")]
    Syntax {
        offset: usize,
        message: &'static str,
    },
    #[error("bad move in node {node}: {source}")]
    BadMove { node: usize, source: CoordError },
}

fn syntax(offset: usize, message: &'static str) -> SgfError {
    SgfError::Syntax { offset, message }
}

/// Writes one game tree, one node per line: `(;GM[1]FF[4]…\n;B[dd]BL[…]\n…)\n`.
/// Only `]` and `\` are escaped; a property without values is written `ID[]`.
pub fn write<'a>(nodes: impl IntoIterator<Item = &'a Node>) -> String {
    let mut out = String::from("(");
    let mut nodes = nodes.into_iter().peekable();
    if nodes.peek().is_none() {
        out.push(';');
    }
    for (index, node) in nodes.enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push(';');
        for (id, values) in &node.props {
            out.push_str(id);
            if values.is_empty() {
                out.push_str("[]");
            }
            for value in values {
                out.push('[');
                for c in value.chars() {
                    if c == ']' || c == '\\' {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push(']');
            }
        }
    }
    out.push_str(")\n");
    out
}

/// Reads the main line of the first game tree in `text`: its root sequence,
/// then the first variation at each branch. Text before the first `(` is
/// skipped, and anything after the first game tree is ignored. Property
/// identifiers keep only their upper-case letters (`AddBlack` reads as `AB`);
/// a property repeated in a node has its values merged.
pub fn parse(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let open = bytes
        .iter()
        .position(|&b| b == b'(')
        .ok_or_else(|| syntax(bytes.len(), "expected '(' to open a game tree"))?;
    let mut reader = Reader {
        bytes,
        pos: open + 1,
    };
    let mut nodes = Vec::new();
    let mut depth: usize = 1;
    let mut on_main_line = true;
    let mut need_node = true;
    loop {
        reader.skip_whitespace();
        let Some(byte) = reader.peek() else {
            return Err(syntax(reader.pos, "game tree not closed: expected ')'"));
        };
        if need_node && byte != b';' {
            return Err(syntax(reader.pos, "expected ';' to start a node after '('"));
        }
        match byte {
            b';' => {
                reader.pos += 1;
                need_node = false;
                let node = reader.node()?;
                if on_main_line {
                    nodes.push(node);
                }
            }
            b'(' => {
                reader.pos += 1;
                depth += 1;
                need_node = true;
            }
            b')' => {
                reader.pos += 1;
                depth -= 1;
                on_main_line = false;
                if depth == 0 {
                    return Ok(nodes);
                }
            }
            _ => return Err(syntax(reader.pos, "expected ';', '(' or ')'")),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// The properties of a node, up to the next `;`, `(`, `)` or other non-letter.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_whitespace();
            if !self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                return Ok(node);
            }
            let start = self.pos;
            let mut id = String::new();
            while let Some(b) = self.peek().filter(u8::is_ascii_alphabetic) {
                if b.is_ascii_uppercase() {
                    id.push(b as char);
                }
                self.pos += 1;
            }
            if id.is_empty() {
                return Err(syntax(
                    start,
                    "property identifier has no upper-case letter",
                ));
            }
            self.skip_whitespace();
            if self.peek() != Some(b'[') {
                return Err(syntax(self.pos, "expected '[' after a property identifier"));
            }
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
                self.skip_whitespace();
            }
            node.push_many(&id, values);
        }
    }

    /// One bracketed value, unescaped; soft line breaks (backslash-newline) vanish.
    fn value(&mut self) -> Result<String, SgfError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(syntax(start, "value not closed: expected ']'"));
            };
            self.pos += 1;
            match byte {
                b']' => break,
                b'\\' => match self.peek() {
                    None => return Err(syntax(start, "value not closed: expected ']'")),
                    Some(newline @ (b'\n' | b'\r')) => {
                        self.pos += 1;
                        let other = if newline == b'\n' { b'\r' } else { b'\n' };
                        if self.peek() == Some(other) {
                            self.pos += 1;
                        }
                    }
                    Some(escaped) => {
                        out.push(escaped);
                        self.pos += 1;
                    }
                },
                _ => out.push(byte),
            }
        }
        Ok(String::from_utf8(out)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned()))
    }
}

/// A move of the main line; `point` is `None` for a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SgfMove {
    pub color: Color,
    pub point: Option<Point>,
}

/// The `B` and `W` moves of `nodes`, in order. `B[]`, and `B[tt]` on boards up
/// to 19x19, read as passes. An error names the node (0 = root).
pub fn main_line_moves(nodes: &[Node], size: u8) -> Result<Vec<SgfMove>, SgfError> {
    let mut moves = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        for (id, values) in &node.props {
            let color = match id.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let value = values.first().map_or("", |v| v.trim());
            let point = Point::parse_sgf(value, size).map_err(|source| SgfError::BadMove {
                node: index,
                source,
            })?;
            moves.push(SgfMove { color, point });
        }
    }
    Ok(moves)
}

/// A calendar date for `DT`, computed from days since the Unix epoch (the
/// shell passes SystemTime in; this module never reads the clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// The UTC date of a Unix time, in the proleptic Gregorian calendar.
    /// Years beyond `i32` saturate.
    pub fn from_unix_seconds(secs: i64) -> Date {
        let z = secs.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = yoe + era * 400 + i64::from(month <= 2);
        let year = i32::try_from(year).unwrap_or(if year < 0 { i32::MIN } else { i32::MAX });
        Date { year, month, day }
    }
}

impl std::str::FromStr for Date {
    type Err = String;

    /// `YYYY-MM-DD`.
    fn from_str(text: &str) -> Result<Date, String> {
        let bad = || format!("{text}: a date is written YYYY-MM-DD");
        let mut parts = text.trim().splitn(3, '-');
        let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let year: i32 = year.parse().map_err(|_| bad())?;
        let month: u8 = month.parse().map_err(|_| bad())?;
        let day: u8 = day.parse().map_err(|_| bad())?;
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return Err(bad());
        }
        Ok(Date { year, month, day })
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`, as `DT` requires.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn node(props: &[(&str, &str)]) -> Node {
        let mut node = Node::default();
        for (id, value) in props {
            node.push(id, *value);
        }
        node
    }

    fn pt(gtp: &str, size: u8) -> Option<Point> {
        Some(Point::parse_gtp(gtp, size).unwrap())
    }

    #[test]
    fn writes_one_node_per_line() {
        let nodes = vec![
            node(&[
                ("GM", "1"),
                ("FF", "4"),
                ("CA", "UTF-8"),
                ("SZ", "9"),
                ("KM", "5.5"),
                ("RE", "W+T"),
                ("C", "Black: over time [50 min]"),
            ]),
            node(&[("B", "ee"), ("BL", "2975.2")]),
            node(&[("W", "ge"), ("WL", "2990")]),
            node(&[("B", "")]),
        ];
        assert_eq!(
            write(&nodes),
            "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[5.5]RE[W+T]C[Black: over time [50 min\\]]\n\
             ;B[ee]BL[2975.2]\n\
             ;W[ge]WL[2990]\n\
             ;B[])\n"
        );
        assert_eq!(write(&[]), "(;)\n");
    }

    #[test]
    fn escapes_only_close_brackets_and_backslashes() {
        let mut root = Node::default();
        root.push("C", "a]b\\c:d[e]\nf");
        root.push_many("AB", vec![]);
        let text = write(&[root.clone()]);
        assert_eq!(text, "(;C[a\\]b\\\\c:d[e\\]\nf]AB[])\n");
        let back = parse(&text).unwrap();
        assert_eq!(back[0].get("C"), Some("a]b\\c:d[e]\nf"));
        assert_eq!(back[0].values("AB"), Some(&[String::new()][..]));
    }

    #[test]
    fn push_merges_values_of_the_same_property() {
        let mut root = Node::default();
        root.push("AB", "aa");
        root.push("KM", "6.5");
        root.push_many("AB", vec!["bb".into(), "cc".into()]);
        assert_eq!(root.props.len(), 2);
        assert_eq!(root.get("AB"), Some("aa"));
        assert_eq!(root.values("AB").unwrap().len(), 3);
        assert_eq!(root.get("PB"), None);
        assert_eq!(write(&[root]), "(;AB[aa][bb][cc]KM[6.5])\n");
    }

    const GNU_GO: &str = "(;GM[1]FF[4]\nSZ[9]\nGN[GNU Go 3.8 load and print]\nDT[2026-11-22]\n\
        KM[5.5]\nRU[Japanese]AP[GNU Go:3.8]\n;B[ee];W[ge];B[gd];W[fd];B[fc];W[hd]\n\
        ;B[gc];W[hc];B[gf];W[he];B[hf];W[];B[])\n";

    #[test]
    fn reads_gnu_go_records() {
        let nodes = parse(GNU_GO).unwrap();
        assert_eq!(nodes.len(), 14);
        let root = &nodes[0];
        assert_eq!(root.get("GN"), Some("GNU Go 3.8 load and print"));
        assert_eq!(root.get("AP"), Some("GNU Go:3.8"));
        assert_eq!(root.get("KM"), Some("5.5"));
        assert_eq!(root.get("RU"), Some("Japanese"));
        let moves = main_line_moves(&nodes, 9).unwrap();
        assert_eq!(moves.len(), 13);
        assert_eq!(
            moves[0],
            SgfMove {
                color: Color::Black,
                point: pt("E5", 9)
            }
        );
        assert_eq!(
            moves[1],
            SgfMove {
                color: Color::White,
                point: pt("G5", 9)
            }
        );
        assert_eq!(moves[11].point, None);
        assert_eq!(moves[12].color, Color::Black);
        assert_eq!(moves[12].point, None);
    }

    #[test]
    fn tt_is_a_pass_on_small_boards_only() {
        let nodes = parse("(;SZ[19];B[tt];W[ pd ])").unwrap();
        let moves = main_line_moves(&nodes, 19).unwrap();
        assert_eq!(moves[0].point, None);
        assert_eq!(moves[1].point, pt("Q16", 19));
        assert!(matches!(
            main_line_moves(&parse("(;B[tt])").unwrap(), 9),
            Ok(moves) if moves[0].point.is_none()
        ));
        let big = main_line_moves(&parse("(;B[tt])").unwrap(), 25).unwrap();
        assert_eq!(big[0].point, Some(Point::new(19, 5)));
    }

    #[test]
    fn bad_moves_name_their_node() {
        let nodes = parse("(;SZ[9];B[ee];W[zz])").unwrap();
        assert!(matches!(
            main_line_moves(&nodes, 9),
            Err(SgfError::BadMove {
                node: 2,
                source: CoordError::OffBoard { .. }
            })
        ));
        let nodes = parse("(;B[E5])").unwrap();
        assert!(main_line_moves(&nodes, 9).is_err());
    }

    #[test]
    fn follows_the_first_variation() {
        let text = "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff];B[gg]))(;SZ[19];B[pd])";
        let nodes = parse(text).unwrap();
        let moves: Vec<_> = main_line_moves(&nodes, 9)
            .unwrap()
            .iter()
            .map(|m| m.point.unwrap().to_sgf(9))
            .collect();
        assert_eq!(moves, ["aa", "bb", "cc", "dd"]);
    }

    #[test]
    fn reads_multiple_values_and_whitespace() {
        let text = "  junk\n( ; AB [aa]\n [bb]\t[cc] AW[dd]\r\n ; B[ee] )";
        let nodes = parse(text).unwrap();
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].values("AB").unwrap(), ["aa", "bb", "cc"]);
        assert_eq!(nodes[0].get("AW"), Some("dd"));
        assert_eq!(nodes[1].get("B"), Some("ee"));
    }

    #[test]
    fn keeps_only_upper_case_letters_of_old_property_ids() {
        let nodes = parse("(;GaMe[1]SiZe[19]AddBlack[aa][bb];Black[cc]B[dd])").unwrap();
        assert_eq!(nodes[0].get("GM"), Some("1"));
        assert_eq!(nodes[0].get("SZ"), Some("19"));
        assert_eq!(nodes[0].values("AB").unwrap(), ["aa", "bb"]);
        assert_eq!(nodes[1].values("B").unwrap(), ["cc", "dd"]);
    }

    #[test]
    fn soft_line_breaks_vanish_and_escapes_unescape() {
        let nodes = parse("(;C[one \\\ntwo \\\r\nthree\\\rfour\\]\\\\\\:five\nsix])").unwrap();
        assert_eq!(nodes[0].get("C"), Some("one two threefour]\\:five\nsix"));
    }

    #[test]
    fn syntax_errors_carry_a_byte_offset() {
        let cases = [
            ("", 0),
            ("no tree", 7),
            ("(;B[aa]", 7),
            ("(;B[aa", 3),
            ("(;C[a\\", 3),
            ("(B[aa])", 1),
            ("()", 1),
            ("(;B[aa]())", 8),
            ("(;b[aa])", 2),
            ("(;B)", 3),
            ("(;B[aa]1)", 7),
            ("(;B[aa] W)", 9),
        ];
        for (text, offset) in cases {
            match parse(text) {
                Err(SgfError::Syntax { offset: at, .. }) => assert_eq!(at, offset, "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
        assert_eq!(
            parse("(;B[aa").unwrap_err().to_string(),
            "SGF syntax error at byte 3: value not closed: expected ']'"
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let deep = format!("(;{}", "(;".repeat(200_000)) + &")".repeat(200_001);
        assert_eq!(parse(&deep).unwrap().len(), 200_001);
        assert!(parse(&"(".repeat(200_000)).is_err());
    }

    #[test]
    fn dates_from_unix_seconds() {
        let date = |secs| Date::from_unix_seconds(secs).to_string();
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(86_399), "1970-01-01");
        assert_eq!(date(-1), "1969-12-31");
        assert_eq!(date(1_795_305_600), "2026-11-22");
        assert_eq!(date(1_795_305_600 + 86_399), "2026-11-22");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(951_782_400 + 86_400), "2000-03-01");
        assert_eq!(date(1_735_603_200), "2024-12-31");
        assert_eq!(date(-2_203_891_200), "1900-03-01");
        assert_eq!(date(-2_203_891_200 - 86_400), "1900-02-28");
        assert_eq!(
            Date::from_unix_seconds(1_795_305_600),
            Date {
                year: 2026,
                month: 11,
                day: 22
            }
        );
        let _ = Date::from_unix_seconds(i64::MIN);
        let _ = Date::from_unix_seconds(i64::MAX);
    }

    fn arb_nodes() -> impl Strategy<Value = Vec<Node>> {
        let prop = ("[A-Z]{1,2}", prop::collection::vec(any::<String>(), 1..4));
        let node = prop::collection::vec(prop, 0..5).prop_map(|props| {
            let mut node = Node::default();
            for (id, values) in props {
                if node.values(&id).is_none() {
                    node.push_many(&id, values);
                }
            }
            node
        });
        prop::collection::vec(node, 1..6)
    }

    fn days_in_month(year: i32, month: u8) -> u8 {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }

    proptest! {
        #[test]
        fn write_then_parse_round_trips(nodes in arb_nodes()) {
            prop_assert_eq!(parse(&write(&nodes)), Ok(nodes));
        }

        #[test]
        fn parse_never_panics_on_strings(text in any::<String>()) {
            let _ = parse(&text);
        }

        #[test]
        fn parse_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn parse_never_panics_on_sgf_like_text(text in "[();\\[\\]\\\\a-cA-CtT \n\r]{0,200}") {
            if let Ok(nodes) = parse(&text) {
                let _ = main_line_moves(&nodes, 19);
            }
        }

        #[test]
        fn consecutive_days_are_consecutive_dates(day in -1_000_000i64..1_000_000) {
            let today = Date::from_unix_seconds(day * 86_400);
            let tomorrow = Date::from_unix_seconds((day + 1) * 86_400);
            prop_assert!((1..=12).contains(&today.month));
            prop_assert!((1..=days_in_month(today.year, today.month)).contains(&today.day));
            let expected = if today.day < days_in_month(today.year, today.month) {
                Date { day: today.day + 1, ..today }
            } else if today.month < 12 {
                Date { month: today.month + 1, day: 1, ..today }
            } else {
                Date { year: today.year + 1, month: 1, day: 1 }
            };
            prop_assert_eq!(tomorrow, expected);
        }
    }
}
