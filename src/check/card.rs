//! The card `goref check` prints: sections of checks, each pass, warn or
//! fail with a one-line reason, as text that fits 80 columns or as JSON.

use serde::Serialize;

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// As a game under these rules needs it.
    Pass,
    /// The program will get through a game, but something is worth knowing.
    Warn,
    /// The program will not get through a game as it stands.
    Fail,
}

impl Verdict {
    /// The word in the card's left column, loud when it is not a pass.
    fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Warn => "WARN",
            Verdict::Fail => "FAIL",
        }
    }
}

/// One check: what was tried and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Check {
    pub name: String,
    pub verdict: Verdict,
    pub reason: String,
    /// How long it took, where that was measured, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
}

/// A few checks under one heading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Section {
    pub title: String,
    pub checks: Vec<Check>,
}

impl Section {
    pub(crate) fn new(title: &str) -> Section {
        Section {
            title: title.to_string(),
            checks: Vec::new(),
        }
    }

    pub(crate) fn add(
        &mut self,
        name: &str,
        verdict: Verdict,
        reason: impl Into<String>,
    ) -> &mut Check {
        self.checks.push(Check {
            name: name.to_string(),
            verdict,
            reason: reason.into(),
            ms: None,
        });
        self.checks.last_mut().expect("just pushed")
    }

    pub(crate) fn pass(&mut self, name: &str, reason: impl Into<String>) -> &mut Check {
        self.add(name, Verdict::Pass, reason)
    }

    pub(crate) fn warn(&mut self, name: &str, reason: impl Into<String>) -> &mut Check {
        self.add(name, Verdict::Warn, reason)
    }

    pub(crate) fn fail(&mut self, name: &str, reason: impl Into<String>) -> &mut Check {
        self.add(name, Verdict::Fail, reason)
    }
}

impl Check {
    /// Records how long the check's exchange took.
    pub(crate) fn timed(&mut self, elapsed: std::time::Duration) -> &mut Check {
        self.ms = Some(elapsed.as_millis() as u64);
        self
    }
}

/// The whole card for one program.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Card {
    /// The player as given on the command line.
    pub spec: String,
    /// The game it was checked for, in a few words.
    pub game: String,
    pub sections: Vec<Section>,
}

/// How many checks came out each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Tally {
    pub pass: usize,
    pub warn: usize,
    pub fail: usize,
}

/// The widest verdict label, the check names' column, and the gaps.
const NAME_COLUMN: usize = 22;
const INDENT: usize = 2;
const LABEL: usize = 4;

impl Card {
    pub(crate) fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for check in self.sections.iter().flat_map(|s| &s.checks) {
            match check.verdict {
                Verdict::Pass => tally.pass += 1,
                Verdict::Warn => tally.warn += 1,
                Verdict::Fail => tally.fail += 1,
            }
        }
        tally
    }

    /// Nothing failed: the program is ready for the round.
    pub(crate) fn ready(&self) -> bool {
        self.tally().fail == 0
    }

    /// The card as data: every check, the tally and the verdict.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("a card is plain data");
        value["tally"] = serde_json::to_value(self.tally()).expect("plain data");
        value["ready"] = self.ready().into();
        value
    }

    /// The card as lines no wider than `width` (at least 40): a reason too
    /// long for its line goes on under itself.
    pub(crate) fn render(&self, width: usize) -> Vec<String> {
        let width = width.max(40);
        let mut lines = wrap(&printable(&format!("goref check {}", self.spec)), width, 4);
        lines.extend(wrap(&format!("for {}", self.game), width, 4));
        for section in &self.sections {
            lines.push(String::new());
            lines.push(section.title.clone());
            for check in &section.checks {
                lines.extend(check_lines(check, width));
            }
        }
        let tally = self.tally();
        let verdict = match (tally.fail, tally.warn) {
            (0, 0) => "ready for the round",
            (0, _) => "ready for the round, with the warnings above",
            _ => "not ready: see FAIL above",
        };
        lines.push(String::new());
        lines.extend(wrap(
            &format!(
                "{} pass, {} warn, {} fail: {verdict}",
                tally.pass, tally.warn, tally.fail
            ),
            width,
            0,
        ));
        lines
    }
}

/// One check as lines: `  pass  name                reason…`.
fn check_lines(check: &Check, width: usize) -> Vec<String> {
    let head = format!(
        "{:INDENT$}{:LABEL$}  {:NAME_COLUMN$}",
        "",
        check.verdict.label(),
        check.name
    );
    let text_column = INDENT + LABEL + 2 + NAME_COLUMN + 1;
    let start = if head.chars().count() >= text_column {
        format!("{} ", head.trim_end())
    } else {
        format!("{head} ")
    };
    let rest = width.saturating_sub(text_column).max(20);
    let first = width.saturating_sub(start.chars().count());
    let mut lines = Vec::new();
    let reason = printable(&check.reason);
    let mut parts = if first < 10 {
        lines.push(start.trim_end().to_string());
        fill(&reason, rest, rest).into_iter()
    } else {
        let mut parts = fill(&reason, first, rest).into_iter();
        let head = format!("{start}{}", parts.next().unwrap_or_default());
        lines.push(head.trim_end().to_string());
        parts
    };
    lines.extend(
        parts
            .by_ref()
            .map(|part| format!("{:text_column$}{part}", "")),
    );
    lines
}

/// `text` with its control characters escaped: a program's garbage quoted
/// in a reason must not reach the terminal as commands.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// `text` in lines of at most `width`, those after the first indented by
/// `indent`.
fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let mut parts = fill(text, width, width.saturating_sub(indent).max(20)).into_iter();
    let mut lines: Vec<String> = parts.next().into_iter().collect();
    lines.extend(parts.map(|part| format!("{:indent$}{part}", "")));
    lines
}

/// Splits `text` at spaces into pieces of at most `first` characters, then
/// `rest`; a word longer than its line is cut.
fn fill(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut line = String::new();
    let mut limit = first;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + word.len() <= limit {
                if gap == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                pieces.push(std::mem::take(&mut line));
                limit = rest;
                continue;
            }
            let cut: String = word.drain(..limit).collect();
            pieces.push(cut);
            limit = rest;
        }
    }
    if !line.is_empty() || pieces.is_empty() {
        pieces.push(line);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        let mut start = Section::new("Start-up");
        start
            .pass("start-up", "first answer 41 ms after the start")
            .timed(std::time::Duration::from_millis(41));
        start.warn(
            "time settings",
            "no kgs-time_settings: the byo-yomi 5:00 + 3 x 0:30 is told as time_settings \
             300 30 1, so the engine does not know of its spare periods",
        );
        let mut protocol = Section::new("Protocol");
        protocol.fail(
            "illegal play",
            "accepted 'play white D4' on Black's stone at D4",
        );
        Card {
            spec: "gtp:/usr/games/gnugo --mode gtp --level 0".into(),
            game: "Black, kgs rules, 19x19".into(),
            sections: vec![start, protocol],
        }
    }

    #[test]
    fn the_card_fits_eighty_columns_and_ends_with_the_tally() {
        let lines = card().render(80);
        for line in &lines {
            assert!(line.chars().count() <= 80, "too wide: {line:?}");
        }
        let text = lines.join("\n");
        assert!(text.contains("  pass  start-up               first answer 41 ms"));
        assert!(text.contains("  WARN  time settings          no kgs-time_settings"));
        let continued = lines
            .iter()
            .find(|l| l.contains("spare periods"))
            .expect("the warning goes on under itself");
        assert!(continued.starts_with(&" ".repeat(31)), "{continued:?}");
        assert!(text.contains("  FAIL  illegal play"));
        assert_eq!(
            lines.last().unwrap(),
            "1 pass, 1 warn, 1 fail: not ready: see FAIL above"
        );
    }

    #[test]
    fn a_card_is_ready_when_nothing_fails_and_says_so_in_its_json() {
        let mut card = card();
        assert!(!card.ready());
        let json = card.to_json();
        assert_eq!(json["ready"], false);
        assert_eq!(json["tally"]["fail"], 1);
        assert_eq!(json["sections"][0]["checks"][0]["ms"], 41);
        assert_eq!(json["sections"][0]["checks"][0]["verdict"], "pass");
        assert!(json["sections"][0]["checks"][1].get("ms").is_none());
        card.sections.pop();
        assert!(card.ready());
        assert_eq!(card.to_json()["ready"], true);
        assert!(card
            .render(80)
            .last()
            .unwrap()
            .ends_with("ready for the round, with the warnings above"));
    }

    #[test]
    fn a_reason_quoting_garbage_reaches_the_terminal_without_its_control_characters() {
        let mut section = Section::new("Start-up");
        section.fail("start-up", "engine sent '\u{1b}[2J\u{7}boom'");
        let text = check_lines(&section.checks[0], 80).join("\n");
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert!(text.contains("\\u{1b}[2J\\u{7}boom"), "{text}");
    }

    #[test]
    fn long_names_and_long_words_still_fit() {
        let mut section = Section::new("KGS end of game");
        section.pass("kgs-genmove_cleanup (cleanup phase)", "x".repeat(120));
        let lines = check_lines(&section.checks[0], 60);
        assert!(lines.iter().all(|l| l.chars().count() <= 60), "{lines:#?}");
        assert_eq!(lines.concat().matches('x').count(), 120);
        assert_eq!(fill("", 10, 10), vec![String::new()]);
    }
}
