//! The clocks pane: one line a side.
//!
//! ```text
//! ▶ B  GNU Go 3.8       12:34  byo-yomi 3x 0:30   last 4.2s
//!   W  goref-bot 0.1.0   0:07! main            last 0.9s
//! ```
//!
//! On a CPU-time clock the line shows the CPU time left, then the CPU time
//! charged and the real time taken side by side:
//!
//! ```text
//! ▶ B  oldprog         59:58  main   cpu 0:02 wall 0:35
//! ```
//!
//! The side to move is marked `▶` (`>` in ASCII), a clock under ten
//! seconds is followed by `!`, a flagged one reads `FLAG`; colour only
//! repeats what the glyphs say. In overtime the period left is shown with
//! the periods (byo-yomi) or the stones (Canadian) still to play. The
//! readings are the referee's, as the last clock or move event gave them.
//!
//! While the operator holds the game each line says so, in place of the last
//! move's time (of the phase, where the line is short), and a third line,
//! where the pane has one, says what the pause means:
//!
//! ```text
//! ▶ B  GNU Go 3.8       12:34  byo-yomi 3x  PAUSED
//!   W  goref-bot 0.1.0   0:07! main         PAUSED
//! PAUSED by the operator: no move is asked for or relayed until resume
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use goref_core::game::clock::ClockReading;
use goref_core::game::Color;
use goref_core::referee::GameView;

use super::Theme;

/// The most columns a player's name takes.
const NAME_WIDTH: usize = 24;

/// Below this much time left a clock is marked low.
const LOW_MS: u64 = 10_000;

/// What a clock line says while the operator holds the game.
const PAUSED: &str = "PAUSED";

/// The clocks of a [`GameView`], as a ratatui widget.
pub struct ClocksPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
    /// The stream time now: a running clock is drawn as it stands then,
    /// ticked from its last reading by the game's time system. `None` draws
    /// the readings as they are.
    pub now_t_ms: Option<u64>,
}

impl Widget for ClocksPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = Color::BOTH.map(|color| {
            let reading = self.reading(color);
            let style = match &reading {
                Some(ClockReading { flagged: true, .. }) => self.theme.flagged,
                Some(reading) if is_low(reading) => self.theme.low_time,
                _ if self.view.to_move == Some(color) => self.theme.to_move,
                _ => self.theme.text,
            };
            (self.line(color, reading.as_ref(), area.width), style)
        });
        let held = self.paused().then(|| {
            let text =
                format!("{PAUSED} by the operator: no move is asked for or relayed until resume");
            (text, self.theme.text)
        });
        let absent = Color::BOTH
            .iter()
            .filter(|color| self.view.seat_absent[color.index()] && self.view.result.is_none())
            .map(|color| {
                let text = format!("{color}'s seat is absent: the game waits, its clock running");
                (text, self.theme.alert)
            });
        super::draw_lines(area, buf, lines.into_iter().chain(held).chain(absent));
    }
}

impl ClocksPane<'_> {
    /// Whether the operator holds the game now.
    fn paused(&self) -> bool {
        self.view.clocks_paused && self.view.result.is_none()
    }

    /// `color`'s clock as it stands now.
    pub fn reading(&self, color: Color) -> Option<ClockReading> {
        reading_at(self.view, color, self.now_t_ms)
    }

    /// One side's line, cut to `width`: the name gives way first, then the
    /// clock drops the last move's time and shortens its phase.
    fn line(&self, color: Color, reading: Option<&ClockReading>, width: u16) -> String {
        let to_move = if self.view.to_move == Some(color) {
            if self.theme.unicode {
                '▶'
            } else {
                '>'
            }
        } else {
            ' '
        };
        let info = &self.view.players[color.index()];
        let name = match info.full_name() {
            name if name.is_empty() => color.to_string(),
            name => name,
        };
        let untimed = self.view.time_settings.kind == "none";
        let cpu = self.view.time_settings.cpu;
        let paused = self.paused();
        let clock = |compact: bool| match reading {
            Some(reading) if cpu => {
                let wall = reading.wall_ms.map_or_else(|| "--:--".to_string(), minutes);
                let gap = if compact { " " } else { "  " };
                format!(
                    "{}{gap}cpu {} wall {wall}",
                    describe(reading, true, paused),
                    minutes(reading.used_ms)
                )
            }
            Some(reading) if untimed => {
                let used = minutes(reading.used_ms);
                let last = reading.last_move_ms as f64 / 1000.0;
                match (compact, paused) {
                    (true, false) => format!("{used:>6} used"),
                    (true, true) => format!("{used:>6} used {PAUSED}"),
                    (false, false) => format!("{used:>6}  used, no limit last {last:.1}s"),
                    (false, true) => format!("{used:>6}  used, no limit {PAUSED}"),
                }
            }
            Some(reading) => describe(reading, compact, paused),
            None if paused => format!("--:-- {PAUSED}"),
            None => "--:--".to_string(),
        };
        let width = usize::from(width);
        let longest = Color::BOTH
            .iter()
            .map(|&c| match self.view.players[c.index()].full_name() {
                name if name.is_empty() => c.to_string().len(),
                name => name.chars().count(),
            })
            .max()
            .unwrap_or(0);
        let wanted = longest.clamp(4, NAME_WIDTH);
        let room = |clock: &str| width.saturating_sub(5 + 1 + clock.chars().count());
        let absent = self.view.seat_absent[color.index()] && self.view.result.is_none();
        let thinks = thinks(self.view, color, self.theme.unicode);
        let clock = |compact: bool| match absent {
            true => format!("{} absent{thinks}", clock(compact)),
            false => format!("{}{thinks}", clock(compact)),
        };
        let full = clock(false);
        let clock = if room(&full) >= wanted {
            full
        } else {
            clock(true)
        };
        let name_width = room(&clock).clamp(4, wanted);
        let name = super::cut(&name, name_width);
        format!("{to_move} {}  {name:<name_width$} {clock}", color.letter())
    }
}

/// What `color`'s program last thought its chance to win, from its own side
/// (` 62%`), marked `≠` (`<>` without Unicode) when both programs think
/// they are winning; empty before its first analysis.
pub(crate) fn thinks(view: &GameView, color: Color, unicode: bool) -> String {
    let Some(analysis) = &view.analysis[color.index()] else {
        return String::new();
    };
    let mark = disagreement_mark(view, unicode);
    format!(" {:.0}%{mark}", analysis.winrate * 100.0)
}

/// `≠` (`<>` without Unicode) when both programs think they are winning,
/// else nothing: the mark beside a chance to win.
pub(crate) fn disagreement_mark(view: &GameView, unicode: bool) -> &'static str {
    match (disagree(view), unicode) {
        (false, _) => "",
        (true, true) => "≠",
        (true, false) => "<>",
    }
}

/// Whether each program's newest analysis says it is the one winning.
pub(crate) fn disagree(view: &GameView) -> bool {
    view.analysis
        .iter()
        .all(|a| a.as_ref().is_some_and(|a| a.winrate > 0.5))
}

/// `color`'s clock at the stream time `now_t_ms`: its last reading ticked
/// on by the game's time system; the reading as it is without a time.
pub(crate) fn reading_at(
    view: &GameView,
    color: Color,
    now_t_ms: Option<u64>,
) -> Option<ClockReading> {
    let reading = view.clocks[color.index()].as_ref()?;
    let (Some(now), Some(system)) = (now_t_ms, view.time_settings.system()) else {
        return Some(reading.clone());
    };
    let elapsed = now.saturating_sub(view.clock_t_ms[color.index()]);
    Some(reading.ticked(system, std::time::Duration::from_millis(elapsed)))
}

/// How long until a running clock on screen shows another second: the app
/// sleeps that long and draws again, instead of ticking at a fixed rate.
/// `None` while no clock runs.
pub(crate) fn next_change_ms(view: &GameView, now_t_ms: u64) -> Option<u64> {
    let untimed = view.time_settings.kind == "none";
    Color::BOTH
        .into_iter()
        .filter_map(|color| reading_at(view, color, Some(now_t_ms)))
        .filter(|reading| reading.running && !reading.flagged)
        .map(|reading| {
            if untimed {
                return 1000 - reading.used_ms % 1000;
            }
            let left = match (reading.in_overtime, reading.period_left_ms) {
                (true, Some(period)) => period,
                _ => reading.main_left_ms,
            };
            left % 1000 + 1
        })
        .min()
}

/// A clock reading in a few columns: `12:34  main  last 4.2s`, or compact,
/// `12:34  byo 3x`. While `paused` the last move's time gives way to
/// `PAUSED`, and so does the phase when compact; a side that has not moved
/// yet shows no last move.
pub(crate) fn describe(reading: &ClockReading, compact: bool, paused: bool) -> String {
    let moved = reading.used_ms > 0 || reading.last_move_ms > 0;
    let last = match (compact, paused) {
        (true, _) => String::new(),
        (false, true) => format!("  {PAUSED}"),
        (false, false) if !moved => String::new(),
        (false, false) => format!(" last {:.1}s", reading.last_move_ms as f64 / 1000.0),
    };
    if reading.flagged {
        return format!("  FLAG{last}");
    }
    let (left, phase) = match (reading.in_overtime, reading.period_left_ms) {
        (true, Some(period)) => {
            let phase = match (reading.periods_left, reading.stones_left, compact) {
                (Some(periods), _, false) => format!("byo-yomi {periods}x"),
                (Some(periods), _, true) => format!("byo {periods}x"),
                (_, Some(stones), false) => format!("{stones} stones"),
                (_, Some(stones), true) => format!("{stones} st"),
                _ => "overtime".to_string(),
            };
            (period, phase)
        }
        _ => (reading.main_left_ms, "main".to_string()),
    };
    let phase = if paused && compact {
        PAUSED.to_string()
    } else {
        phase
    };
    let low = if is_low(reading) { "!" } else { " " };
    let phase_width = if compact { 6 } else { 12 };
    format!("{:>6}{low} {phase:<phase_width$}{last}", minutes(left))
        .trim_end()
        .to_string()
}

/// Whether the clock is under [`LOW_MS`] in the time that counts now.
fn is_low(reading: &ClockReading) -> bool {
    let left = match (reading.in_overtime, reading.period_left_ms) {
        (true, Some(period)) => period,
        _ => reading.main_left_ms,
    };
    left < LOW_MS && !reading.flagged && (reading.main_left_ms > 0 || reading.in_overtime)
}

/// `m:ss`, or `h:mm:ss` from an hour.
fn minutes(ms: u64) -> String {
    let seconds = ms / 1000;
    match seconds {
        s if s >= 3600 => format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60),
        s => format!("{}:{:02}", s / 60, s % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::referee::PlayerInfo;

    fn reading(main: u64, period: Option<u64>, periods: Option<u32>) -> ClockReading {
        ClockReading {
            main_left_ms: main,
            period_left_ms: period,
            periods_left: periods,
            stones_left: None,
            in_overtime: main == 0 && period.is_some(),
            running: false,
            flagged: false,
            used_ms: 0,
            last_move_ms: 4_200,
            wall_ms: None,
        }
    }

    fn draw(view: &GameView, theme: &Theme) -> String {
        draw_in(view, theme, Rect::new(0, 0, 60, 2))
    }

    fn draw_in(view: &GameView, theme: &Theme, area: Rect) -> String {
        let mut buf = Buffer::empty(area);
        ClocksPane {
            view,
            theme,
            now_t_ms: None,
        }
        .render(area, &mut buf);
        crate::test_support::buffer_lines(&buf).join("\n")
    }

    #[test]
    fn each_side_shows_its_time_its_phase_and_who_is_to_move() {
        let mut view = GameView::new();
        view.players[0] = PlayerInfo {
            name: "GNU Go".into(),
            version: "3.8".into(),
            ..PlayerInfo::default()
        };
        view.clocks = [
            Some(reading(754_000, Some(30_000), Some(3))),
            Some(reading(0, Some(7_500), Some(1))),
        ];
        view.to_move = Some(Color::White);
        insta::assert_snapshot!(draw(&view, &Theme::default()));
        let ascii = draw(&view, &Theme::mono());
        assert!(ascii.lines().nth(1).unwrap().starts_with("> W"), "{ascii}");
        assert!(ascii.contains("0:07!"), "low time is marked: {ascii}");

        view.clocks[1].as_mut().unwrap().flagged = true;
        assert!(draw(&view, &Theme::mono()).contains("FLAG"));
    }

    #[test]
    fn each_clock_shows_what_its_program_thinks_and_marks_a_disagreement() {
        let mut view = GameView::new();
        view.clocks = [
            Some(reading(754_000, None, None)),
            Some(reading(600_000, None, None)),
        ];
        let analysis = |n, winrate| goref_core::referee::view::AnalysisLine {
            n,
            winrate,
            score_lead: None,
            visits: 10,
            pv: Vec::new(),
        };
        view.analysis = [Some(analysis(1, 0.62)), None];
        let drawn = draw(&view, &Theme::mono());
        assert!(drawn.lines().next().unwrap().ends_with(" 62%"), "{drawn}");
        assert!(!drawn.lines().nth(1).unwrap().contains('%'), "{drawn}");
        view.analysis[1] = Some(analysis(2, 0.55));
        let drawn = draw(&view, &Theme::mono());
        assert!(
            drawn.contains(" 62%<>") && drawn.contains(" 55%<>"),
            "{drawn}"
        );
        view.analysis[1] = Some(analysis(2, 0.35));
        assert!(!draw(&view, &Theme::mono()).contains("<>"));
    }

    #[test]
    fn a_paused_game_says_so_on_each_clock_and_what_the_pause_means() {
        let mut view = GameView::new();
        view.players[0] = PlayerInfo {
            name: "GNU Go".into(),
            version: "3.8".into(),
            ..PlayerInfo::default()
        };
        view.clocks = [
            Some(reading(754_000, Some(30_000), Some(3))),
            Some(reading(0, Some(7_500), Some(1))),
        ];
        view.to_move = Some(Color::White);
        view.clocks_paused = true;
        let wide = Rect::new(0, 0, 72, 3);
        insta::assert_snapshot!(draw_in(&view, &Theme::default(), wide));

        let narrow = draw_in(&view, &Theme::mono(), Rect::new(0, 0, 30, 2));
        for line in narrow.lines() {
            assert!(line.contains("PAUSED"), "short lines say it too:\n{narrow}");
        }
        view.time_settings.kind = "cpu".into();
        view.time_settings.cpu = true;
        assert_eq!(draw(&view, &Theme::mono()).matches("PAUSED").count(), 2);
        view.time_settings = Default::default();
        view.time_settings.kind = "none".into();
        assert_eq!(draw(&view, &Theme::mono()).matches("PAUSED").count(), 2);

        view.clocks_paused = false;
        assert!(!draw_in(&view, &Theme::mono(), wide).contains("PAUSED"));
    }

    #[test]
    fn an_absent_seat_is_said_under_the_clocks() {
        let mut view = GameView::new();
        view.clocks = [
            Some(reading(600_000, None, None)),
            Some(reading(600_000, None, None)),
        ];
        view.seat_absent = [false, true];
        let drawn = draw_in(&view, &Theme::mono(), Rect::new(0, 0, 72, 3));
        assert!(
            drawn.contains("White's seat is absent: the game waits, its clock running"),
            "{drawn}"
        );
        let two_rows = draw_in(&view, &Theme::mono(), Rect::new(0, 0, 40, 2));
        let white = two_rows.lines().nth(1).unwrap();
        assert!(
            white.ends_with("absent"),
            "on the clock's own line:\n{two_rows}"
        );
        assert!(!two_rows.lines().next().unwrap().contains("absent"));
        view.seat_absent = [false, false];
        assert!(!draw_in(&view, &Theme::mono(), Rect::new(0, 0, 72, 3)).contains("absent"));
    }

    #[test]
    fn a_cpu_time_clock_shows_cpu_time_and_wall_time_side_by_side() {
        let mut view = GameView::new();
        view.time_settings.kind = "cpu".into();
        view.time_settings.cpu = true;
        let mut black = reading(3_598_000, Some(10_000), None);
        black.used_ms = 2_000;
        black.wall_ms = Some(35_000);
        view.clocks = [Some(black), Some(reading(0, Some(4_000), None))];
        let text = draw(&view, &Theme::mono());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("59:58  main"), "{text}");
        assert!(lines[0].contains("cpu 0:02 wall 0:35"), "{text}");
        assert!(lines[1].contains("0:04! overtime"), "{text}");
        assert!(lines[1].contains("wall --:--"), "{text}");
    }

    #[test]
    fn long_times_read_in_hours() {
        assert_eq!(minutes(3_600_000 + 61_000), "1:01:01");
        assert_eq!(minutes(59_999), "0:59");
    }
}
