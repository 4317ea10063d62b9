//! `goref seat` on a terminal: the operator's screen. The game the entrant
//! plays is drawn live from the venue's stream, folded by the same reducer
//! and drawn by the same panes as a spectator's screen of that board; the
//! status line gives the connection (the venue, the round trip, connected
//! for how long, or lost), and the hint bar the operator's two rights,
//! each confirmed with `y`: `R` has the program resign, `X` starts it
//! again with the same settings. Each game the seat is admitted to (the
//! venue's `info`) replaces the picture, and quitting mid-game asks first.
//! The clocks tick between events: the stream's time runs on from the last
//! event's, counted from when it arrived.
//! A terminal that goes away (an SSH session dropped) takes the screen,
//! not the seat: it plays on without one until it ends.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::cgos_seat::CgosOptions;
use crate::seats::client::{SeatEvent, SeatOptions, SeatUi};
use crate::shell_time::next_from;
use crate::ui::control::{handle_key, Effect};
use crate::ui::keys::Key;
use crate::ui::state::LinkStatus;
use crate::ui::{Role, UiState};
use goref_core::protocol::seat::Right;
use goref_core::referee::{GameView, Phase, StampedEvent};

use super::input::{spawn_reader, TerminalEvent};
use super::terminal::Screen;
use super::{draw_frame, Drawn, ScreenOptions, FRAME_GAP};

/// The hint the operator sees while no right is being confirmed.
const RIGHTS: &str = "R resign  X restart";

/// What the operator is asked to confirm with `y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Right(Right),
    Quit,
}

/// Whether the game the seat plays is under way: the operator's rights
/// mean something, and quitting leaves it with its clock running.
fn in_play(view: &GameView, connection: &Connection) -> bool {
    connection.game.is_some() && view.result.is_none() && view.phase != Phase::Setup
}

/// The connection as the status line says it.
struct Connection {
    venue: Option<(String, String)>,
    since: Option<Instant>,
    round_trip: Option<Duration>,
    lost: Option<String>,
    /// The game the entrant plays now, as the venue says it.
    game: Option<String>,
}

impl Connection {
    fn status(&self, address: &str) -> LinkStatus {
        match (&self.venue, self.since, &self.lost) {
            (Some((venue, entrant)), Some(since), None) => {
                let trip = self
                    .round_trip
                    .map_or("…".to_string(), |t| format!("{} ms", t.as_millis()));
                let connected = span(since.elapsed());
                let text = match &self.game {
                    Some(game) => {
                        format!("rtt {trip}, connected {connected} · {game} · {venue} ({address})")
                    }
                    None => format!(
                        "{entrant} at {venue} ({address}), rtt {trip}, connected {connected}"
                    ),
                };
                LinkStatus {
                    text,
                    trouble: false,
                }
            }
            (_, _, Some(why)) => LinkStatus {
                text: format!("dialling {address} again: {why}"),
                trouble: true,
            },
            _ => LinkStatus {
                text: format!("dialling {address}…"),
                trouble: true,
            },
        }
    }
}

fn span(elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

/// Runs the seat with its screen until the operator quits or the venue
/// refuses it or says goodbye (its words are returned; none when the
/// operator quit).
pub async fn run(options: SeatOptions, screen_options: ScreenOptions) -> Result<String, String> {
    let address = options.address.clone();
    let start = |ui| tokio::spawn(crate::seats::client::run(options, Some(ui)));
    run_seat(address, start, screen_options).await
}

/// Runs `goref seat cgos://` with its screen, as [`run`] runs a venue's
/// seat.
pub async fn run_cgos(
    options: CgosOptions,
    screen_options: ScreenOptions,
) -> Result<String, String> {
    let address = format!("cgos://{}", options.address);
    let start = |ui| tokio::spawn(crate::cgos_seat::run(options, Some(ui)));
    run_seat(address, start, screen_options).await
}

type SeatTask = tokio::task::JoinHandle<Result<String, String>>;

async fn run_seat(
    address: String,
    start: impl FnOnce(SeatUi) -> SeatTask,
    screen_options: ScreenOptions,
) -> Result<String, String> {
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let (rights, rights_rx) = mpsc::unbounded_channel();
    let ui = SeatUi {
        events: events_tx,
        rights: rights_rx,
    };
    let mut seat = start(ui);
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut keys = Some(spawn_reader());
    let mut view = GameView::new();
    let mut state = fresh_state(&screen_options);
    let mut connection = Connection {
        venue: None,
        since: None,
        round_trip: None,
        lost: None,
        game: None,
    };
    let mut asking: Option<Asked> = None;
    let mut drawn = Drawn {
        panes: Vec::new(),
        page: 10,
    };
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME_GAP;
    let mut heard = StreamTime::default();
    loop {
        state.link = Some(connection.status(&address));
        state.now_t_ms = heard.at(Instant::now()).max(view.last_t_ms);
        if dirty && Instant::now() >= last_frame + FRAME_GAP {
            drawn = draw_frame(&mut screen, &view, &mut state, &screen_options.theme);
            last_frame = Instant::now();
            dirty = false;
        }
        if screen.is_lost() {
            drop((screen, events, keys));
            return seat.await.map_err(|e| format!("the seat stopped: {e}"))?;
        }
        let wake = match dirty {
            true => last_frame + FRAME_GAP,
            false => Instant::now() + Duration::from_secs(1),
        };
        tokio::select! {
            ended = &mut seat => {
                drop(screen);
                return ended.map_err(|e| format!("the seat stopped: {e}"))?;
            }
            event = events.recv() => {
                match event {
                    Some(SeatEvent::Connected { venue, entrant }) => {
                        connection.venue = Some((venue, entrant));
                        connection.since = Some(Instant::now());
                        connection.lost = None;
                    }
                    Some(SeatEvent::Lost(why)) => {
                        connection.lost = Some(why);
                        connection.since = None;
                    }
                    Some(SeatEvent::RoundTrip(trip)) => connection.round_trip = Some(trip),
                    Some(SeatEvent::Stream(line)) => {
                        if let Ok(stamped) = serde_json::from_str::<StampedEvent>(&line) {
                            view.apply_stamped(&stamped);
                            heard = StreamTime::heard(stamped.t_ms, Instant::now());
                        }
                    }
                    Some(SeatEvent::Game(game)) => {
                        view = GameView::new();
                        heard = StreamTime::default();
                        state = fresh_state(&screen_options);
                        asking = None;
                        connection.game = Some(game);
                    }
                    Some(SeatEvent::Said(_)) => {}
                    None => {}
                }
                dirty = true;
            }
            input = next_from(&mut keys) => match input {
                Some(TerminalEvent::Key(key)) => {
                    dirty = true;
                    if let Some(asked) = asking.take() {
                        state.question = None;
                        state.message = Some(RIGHTS.to_string());
                        match (asked, key) {
                            (Asked::Quit, Key::Char('y')) => return Ok(String::new()),
                            (Asked::Right(right), Key::Char('y')) => {
                                let _ = rights.send(right);
                                state.message = Some(format!("sent: {}  {RIGHTS}", what(right)));
                            }
                            _ => {}
                        }
                        continue;
                    }
                    let right = match key {
                        Key::Char('R') => Some(Right::Resign),
                        Key::Char('X') => Some(Right::Restart),
                        _ => None,
                    };
                    if let Some(right) = right {
                        match (right, in_play(&view, &connection)) {
                            (Right::Resign, false) => {
                                state.message = Some(format!("no game in play to resign  {RIGHTS}"));
                            }
                            _ => {
                                asking = Some(Asked::Right(right));
                                state.question =
                                    Some(format!("{}? y: yes, any other key: no", what(right)));
                            }
                        }
                        continue;
                    }
                    for effect in handle_key(key, &view, &mut state, &drawn.panes, drawn.page) {
                        match effect {
                            Effect::Quit if in_play(&view, &connection) => {
                                asking = Some(Asked::Quit);
                                state.question = Some(
                                    "quit mid-game? the seat goes away and its clock runs; \
                                     y: yes, any other key: no"
                                        .into(),
                                );
                            }
                            Effect::Quit | Effect::Interrupt => return Ok(String::new()),
                            _ => {}
                        }
                    }
                }
                Some(TerminalEvent::Repaint) => {
                    screen.repaint();
                    dirty = true;
                }
                Some(TerminalEvent::Lost(_)) | None => keys = None,
            },
            _ = tokio::time::sleep_until(wake) => dirty = true,
        }
    }
}

/// The stream's time as the screen reckons it: the last event's, run on
/// from when it arrived.
#[derive(Debug, Clone, Copy, Default)]
struct StreamTime {
    last: Option<(u64, Instant)>,
}

impl StreamTime {
    fn heard(t_ms: u64, at: Instant) -> StreamTime {
        StreamTime {
            last: Some((t_ms, at)),
        }
    }

    /// The stream's time at `now`; 0 before any event.
    fn at(&self, now: Instant) -> u64 {
        self.last.map_or(0, |(t_ms, at)| {
            let since = now.saturating_duration_since(at).as_millis();
            t_ms.saturating_add(u64::try_from(since).unwrap_or(u64::MAX))
        })
    }
}

/// The screen's state for a new game: nothing scrolled, nothing asked.
fn fresh_state(screen_options: &ScreenOptions) -> UiState {
    let mut state = UiState::new(Role::Spectator);
    state.keys = screen_options.keys.clone();
    state.message = Some(RIGHTS.into());
    state
}

fn what(right: Right) -> &'static str {
    match right {
        Right::Resign => "resign",
        Right::Restart => "restart the program",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_time_runs_on_from_the_last_event_heard() {
        let at = Instant::now();
        assert_eq!(StreamTime::default().at(at), 0);
        let heard = StreamTime::heard(41_500, at);
        assert_eq!(heard.at(at), 41_500);
        assert_eq!(heard.at(at + Duration::from_millis(2_250)), 43_750);
        assert_eq!(heard.at(at - Duration::from_secs(1)), 41_500);
    }
}
