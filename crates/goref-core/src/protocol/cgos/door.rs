//! One CGOS client's connection at the venue, the CGOS door: its login as a
//! CGOS server takes it, then each game its board plays it in, told in
//! CGOS's words (`setup`, `genmove`, `play`, `gameover`) while the board
//! asks in GTP's, as it asks any seat.
//!
//! The board's GTP commands are answered here: the game's settings and
//! moves are gathered from them, and a move request becomes the client's
//! `genmove`, its answer the board's. A new game's `setup` goes out once
//! the board has told the game ([`ASSEMBLY_QUIET`] without a command, or at
//! the first move request) and the door knows which side is its own; a
//! `genmove` follows it at once, as the servers' lines reach their clients
//! (the Python server's pause before a game's first `genmove` blocks its
//! whole loop, so both lines arrive together, the clock running; here a
//! pause would be charged to the mover, whose turn began with the board's
//! request). What the game's stream says gives the rest: the sides
//! ([`Sides`]), the clocks, and the result for `gameover`.
//!
//! Sans-IO: the client's lines, the board's commands, the stream's news
//! and time in; [`DoorEvent`]s out.

use std::time::{Duration, Instant};

use super::wire::{parse_hello, parse_move, text_of, Hello, Named, ServerLine, Setup};
use crate::game::clock::ClockReading;
use crate::game::Color;
use crate::protocol::gtp::{format_response, parse_command_line};
use crate::protocol::seat::{Tokens, TokensError};

/// How long a board's quiet means it has told the game.
pub const ASSEMBLY_QUIET: Duration = Duration::from_millis(100);
/// How long a refused login waits before it hears so, against guessing.
const REFUSAL_DELAY: Duration = Duration::from_secs(2);
/// Lines a client may send in one second.
const MAX_LINES_PER_SECOND: u32 = 100;
/// The commands the door answers for its client, as `list_commands` says.
const KNOWN: [&str; 12] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "time_settings",
    "time_left",
];
/// With a client that sends its analysis with its move.
const ANALYZE: &str = "cgos-genmove_analyze";

/// The door's settings, the same for every client.
#[derive(Debug, Clone, PartialEq)]
pub struct DoorSettings {
    /// Taken off the venue's measure of each move, as the servers give it.
    pub gift: Duration,
    /// How long a new connection has to log in.
    pub login_wait: Duration,
}

impl Default for DoorSettings {
    fn default() -> Self {
        DoorSettings {
            gift: Duration::from_millis(250),
            login_wait: Duration::from_secs(30),
        }
    }
}

/// Who plays a game, as its board names it: the game's number for
/// `setup`, and both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    pub game: u64,
    pub black: Named,
    pub white: Named,
}

/// How the board's game ended, as its result says: goref's result
/// (`B+R`, `W+3.5`, `B+F`, `0`), its reason, and whether a forfeit was
/// for an illegal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub result: String,
    pub reason: String,
    pub illegal: bool,
}

/// What one connection's traffic and the passing of time amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum DoorEvent {
    /// A line to write to the client.
    Send(ServerLine),
    /// The client is in: it plays for `entrant`.
    Admitted { entrant: String, client: String },
    /// Not let in: tell it `Error: reason` once `after` has passed, then
    /// close.
    Refuse { reason: String, after: Duration },
    /// The answer to the board's command in flight, as a program would
    /// write it: for a move, the venue's measure from `genmove` to the
    /// answer, and the thinking charged: the measure less the gift or the
    /// link's round trip, whichever is larger. The servers' gift stands for
    /// the network they cannot see; where the kernel sees a longer trip,
    /// the trip is taken off instead, never both, so that a slow link is
    /// not charged and a program's own thinking is.
    Answer {
        text: String,
        think: Duration,
        venue_measure: Duration,
    },
    /// Something the game's journal should hear: a line out of turn.
    Note(String),
    /// Close the connection, after the lines sent before.
    Lost { why: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    Protocol,
    Username {
        client: String,
        analyze: bool,
    },
    Password {
        client: String,
        analyze: bool,
        entrant: String,
    },
    Open {
        entrant: String,
        client: String,
        analyze: bool,
    },
    Closed,
}

/// Whether the client has been told the game the board tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Told {
    /// No game since the last `gameover` (or ever).
    Nothing,
    /// The board is telling a game; quiet from `since` means it is done.
    Assembling { since: Instant },
    /// `setup` went out.
    SetUp,
}

/// The game as the board has told it since its last `clear_board`.
#[derive(Debug, Clone)]
struct Table {
    size: u32,
    komi: f64,
    main_ms: u64,
    moves: Vec<(Color, String)>,
    told: Told,
}

/// The board's move request, sent to the client as `genmove`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    id: Option<u32>,
    colour: Color,
    analyze: bool,
    /// When `genmove` went out.
    sent: Instant,
}

/// The venue's side of one CGOS client connection. See the module
/// documentation.
#[derive(Debug)]
pub struct CgosDoor {
    settings: DoorSettings,
    stage: Stage,
    opened: Instant,
    window: (Instant, u32),
    table: Table,
    sides: Option<Sides>,
    /// The milliseconds each side may use, as the stream last said.
    clocks: [Option<u64>; 2],
    /// Each move's mover's time left after it, by move number from 1, as
    /// the stream said: for a resumed game's `setup`.
    move_ms: Vec<Option<u64>>,
    /// What `time_left` last said of each side, in milliseconds.
    time_left: [Option<u64>; 2],
    asked: Option<Asked>,
    round_trip: Duration,
    awaiting_ready: bool,
}

impl CgosDoor {
    /// A new connection; the first event asks the client who it is.
    pub fn new(now: Instant, settings: DoorSettings) -> (CgosDoor, Vec<DoorEvent>) {
        let door = CgosDoor {
            settings,
            stage: Stage::Protocol,
            opened: now,
            window: (now, 0),
            table: Table {
                size: 19,
                komi: 7.5,
                main_ms: 0,
                moves: Vec::new(),
                told: Told::Nothing,
            },
            sides: None,
            clocks: [None; 2],
            move_ms: Vec::new(),
            time_left: [None; 2],
            asked: None,
            round_trip: Duration::ZERO,
            awaiting_ready: false,
        };
        let ask = DoorEvent::Send(ServerLine::Protocol { analyze: true });
        (door, vec![ask])
    }

    /// The entrant this client plays for, once admitted.
    pub fn entrant(&self) -> Option<&str> {
        match &self.stage {
            Stage::Open { entrant, .. } => Some(entrant),
            _ => None,
        }
    }

    /// The link's round trip as the kernel measures it, taken off each
    /// move's measure.
    pub fn handle_round_trip(&mut self, trip: Duration) {
        self.round_trip = trip;
    }

    /// One line from the client, terminator removed.
    pub fn handle_line(&mut self, now: Instant, line: &[u8], passwords: &Tokens) -> Vec<DoorEvent> {
        if self.stage == Stage::Closed {
            return Vec::new();
        }
        if now.saturating_duration_since(self.window.0) >= Duration::from_secs(1) {
            self.window = (now, 0);
        }
        self.window.1 += 1;
        if self.window.1 > MAX_LINES_PER_SECOND {
            return self.broken(format!(
                "more than {MAX_LINES_PER_SECOND} lines in a second"
            ));
        }
        let text = match text_of(line) {
            Ok(text) => text.to_string(),
            Err(error) => return self.broken(error.to_string()),
        };
        match std::mem::replace(&mut self.stage, Stage::Closed) {
            Stage::Protocol => match parse_hello(&text) {
                Ok(Hello::Engine { client, analyze }) => {
                    self.stage = Stage::Username { client, analyze };
                    vec![DoorEvent::Send(ServerLine::Username)]
                }
                Ok(Hello::Viewer) => self.refuse(
                    "this is a tournament's door for players; watch its games with \
                     goref --watch or the event's page"
                        .into(),
                ),
                Err(error) => self.refuse(error.to_string()),
            },
            Stage::Username { client, analyze } => {
                let entrant = text.split_whitespace().next().unwrap_or_default();
                self.stage = Stage::Password {
                    client,
                    analyze,
                    entrant: entrant.to_string(),
                };
                vec![DoorEvent::Send(ServerLine::Password)]
            }
            Stage::Password {
                client,
                analyze,
                entrant,
            } => match passwords.check(&entrant, &text) {
                Err(TokensError::UnknownEntrant(name)) => self.refuse(format!(
                    "'{name}' is not an entrant of this event with a CGOS client"
                )),
                Err(TokensError::WrongToken(name)) => {
                    self.refuse(format!("Sorry, password doesn't match for '{name}'"))
                }
                Ok(()) => {
                    self.stage = Stage::Open {
                        entrant: entrant.clone(),
                        client: client.clone(),
                        analyze,
                    };
                    vec![DoorEvent::Admitted { entrant, client }]
                }
            },
            open @ Stage::Open { .. } => {
                self.stage = open;
                self.heard(now, &text)
            }
            Stage::Closed => Vec::new(),
        }
    }

    /// A GTP command line from the board, as a program's stdin would take
    /// it; its answer comes as [`DoorEvent::Answer`], now or when the
    /// client has moved.
    pub fn command(&mut self, now: Instant, line: &str) -> Vec<DoorEvent> {
        let Some(command) = parse_command_line(line) else {
            return Vec::new();
        };
        let id = command.id;
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let reply = |text: &str| vec![answer(format_response(id, Ok(text)))];
        let refuse = |text: &str| vec![answer(format_response(id, Err(text)))];
        let name = command.name.as_str();
        match (name, args.as_slice()) {
            ("protocol_version", _) => reply("2"),
            ("name", _) => reply(self.entrant().unwrap_or("cgos")),
            ("version", _) => reply(&self.client_text()),
            ("known_command", [asked]) => reply(match self.knows(asked) {
                true => "true",
                false => "false",
            }),
            ("list_commands", _) => reply(&self.known().join("\n")),
            ("boardsize", [size]) => match size.parse::<u32>() {
                Ok(size) if (2..=25).contains(&size) => {
                    self.table.size = size;
                    self.table.moves.clear();
                    reply("")
                }
                _ => refuse("unacceptable size"),
            },
            ("clear_board", _) => {
                self.table.moves.clear();
                self.table.told = Told::Assembling { since: now };
                self.asked = None;
                self.time_left = [None; 2];
                reply("")
            }
            ("komi", [komi]) => match komi.parse::<f64>() {
                Ok(komi) if komi.is_finite() => {
                    self.table.komi = komi;
                    reply("")
                }
                _ => refuse("syntax error"),
            },
            ("time_settings", [main, ..]) => match main.parse::<u64>() {
                Ok(main) => {
                    self.table.main_ms = main.saturating_mul(1000);
                    reply("")
                }
                Err(_) => refuse("syntax error"),
            },
            ("time_left", [colour, seconds, ..]) => {
                match (colour.parse::<Color>(), seconds.parse::<u64>()) {
                    (Ok(colour), Ok(seconds)) => {
                        self.time_left[colour.index()] = Some(seconds.saturating_mul(1000));
                        reply("")
                    }
                    _ => refuse("syntax error"),
                }
            }
            ("play", [colour, vertex]) => match colour.parse::<Color>() {
                Ok(colour) => {
                    let mut events = self.told_move(now, colour, vertex);
                    events.extend(reply(""));
                    events
                }
                Err(_) => refuse("invalid color"),
            },
            ("genmove" | "kgs-genmove_cleanup" | ANALYZE, [colour, ..]) => {
                match colour.parse::<Color>() {
                    Ok(colour) => self.ask(now, id, colour, name == ANALYZE),
                    Err(_) => refuse("invalid color"),
                }
            }
            ("quit", _) => reply(""),
            _ => refuse("unknown command"),
        }
    }

    /// The board's game and its sides, from what the stream says of it.
    pub fn handle_sides(&mut self, now: Instant, sides: Sides) -> Vec<DoorEvent> {
        if self
            .sides
            .as_ref()
            .is_some_and(|known| known.game != sides.game)
        {
            self.forget_clocks();
        }
        self.sides = Some(sides);
        self.handle_timeout(now)
    }

    /// A clock of the game as the stream read it.
    pub fn handle_clock(&mut self, colour: Color, reading: &ClockReading) {
        self.clocks[colour.index()] = Some(usable_ms(reading));
    }

    /// Move `n` (from 1) as the stream told it, with its mover's clock
    /// after it.
    pub fn handle_move(&mut self, n: u32, colour: Color, reading: &ClockReading) {
        self.handle_clock(colour, reading);
        let index = n.saturating_sub(1) as usize;
        if index < 10_000 {
            if self.move_ms.len() <= index {
                self.move_ms.resize(index + 1, None);
            }
            self.move_ms[index] = Some(usable_ms(reading));
        }
    }

    fn forget_clocks(&mut self) {
        self.clocks = [None; 2];
        self.move_ms.clear();
    }

    /// The game is over: the client is told so, `date` as `YYYY-MM-DD`,
    /// when it was told the game.
    pub fn handle_result(&mut self, date: &str, result: &Ended) -> Vec<DoorEvent> {
        let told = std::mem::replace(&mut self.table.told, Told::Nothing);
        self.asked = None;
        self.forget_clocks();
        if told != Told::SetUp || self.entrant().is_none() {
            return Vec::new();
        }
        self.awaiting_ready = true;
        let reason = (!result.reason.is_empty()).then(|| result.reason.clone());
        vec![DoorEvent::Send(ServerLine::Gameover {
            date: date.to_string(),
            result: cgos_result(result),
            reason,
        })]
    }

    /// A newer login for the same entrant takes this one's place.
    pub fn replaced(&mut self, newer: &str) -> Vec<DoorEvent> {
        self.stage = Stage::Closed;
        let why = format!("another login is being attempted using this user name, from {newer}");
        vec![
            DoorEvent::Send(ServerLine::Info(why.clone())),
            DoorEvent::Lost { why },
        ]
    }

    /// When [`CgosDoor::handle_timeout`] is next due.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match &self.stage {
            Stage::Protocol | Stage::Username { .. } | Stage::Password { .. } => {
                Some(self.opened + self.settings.login_wait)
            }
            Stage::Open { .. } => match self.table.told {
                Told::Assembling { since } => Some(since + ASSEMBLY_QUIET),
                _ => None,
            },
            Stage::Closed => None,
        }
    }

    pub fn handle_timeout(&mut self, now: Instant) -> Vec<DoorEvent> {
        match &self.stage {
            Stage::Protocol | Stage::Username { .. } | Stage::Password { .. } => {
                if now >= self.opened + self.settings.login_wait {
                    return self.broken(format!(
                        "no login within {} s",
                        self.settings.login_wait.as_secs()
                    ));
                }
                Vec::new()
            }
            Stage::Open { .. } => match self.table.told {
                Told::Assembling { since } if now >= since + ASSEMBLY_QUIET => self.set_up_as(None),
                _ => Vec::new(),
            },
            Stage::Closed => Vec::new(),
        }
    }

    /// A move the board tells: gathered while it tells the game, sent as
    /// `play` once the client has it. A resignation is never sent.
    fn told_move(&mut self, now: Instant, colour: Color, vertex: &str) -> Vec<DoorEvent> {
        let vertex = match vertex.to_ascii_lowercase().as_str() {
            "pass" => "pass".to_string(),
            "resign" => return Vec::new(),
            _ => vertex.to_ascii_uppercase(),
        };
        self.table.moves.push((colour, vertex.clone()));
        match self.table.told {
            Told::Assembling { .. } => {
                self.table.told = Told::Assembling { since: now };
                Vec::new()
            }
            Told::SetUp => vec![DoorEvent::Send(ServerLine::Play {
                colour,
                vertex,
                ms_left: self.ms_left(colour),
            })],
            Told::Nothing => Vec::new(),
        }
    }

    /// The board's move request: the game set up first if it is not, then
    /// `genmove`.
    fn ask(
        &mut self,
        now: Instant,
        id: Option<u32>,
        colour: Color,
        analyze: bool,
    ) -> Vec<DoorEvent> {
        let mut events = Vec::new();
        if self.table.told != Told::SetUp {
            events.extend(self.set_up_as(Some(colour)));
        }
        self.asked = Some(Asked {
            id,
            colour,
            analyze,
            sent: now,
        });
        events.push(DoorEvent::Send(ServerLine::Genmove {
            colour,
            ms_left: self.ms_left(colour),
        }));
        events
    }

    /// Sends `setup` for the game told so far, once the door knows its own
    /// side (from the sides, or from the move request `asked_for`).
    fn set_up_as(&mut self, asked_for: Option<Color>) -> Vec<DoorEvent> {
        let Some(entrant) = self.entrant().map(str::to_string) else {
            return Vec::new();
        };
        let someone = |name: &str| Named {
            name: name.to_string(),
            rating: "?".into(),
        };
        let (game, black, white) = match (&self.sides, asked_for) {
            (Some(sides), _) if sides.black.name == entrant || sides.white.name == entrant => {
                (sides.game, sides.black.clone(), sides.white.clone())
            }
            (sides, Some(colour)) => {
                let game = sides.as_ref().map_or(0, |sides| sides.game);
                match colour {
                    Color::Black => (game, someone(&entrant), someone("opponent")),
                    Color::White => (game, someone("opponent"), someone(&entrant)),
                }
            }
            (_, None) => return Vec::new(),
        };
        let mut moves = Vec::with_capacity(self.table.moves.len());
        for (n, (colour, vertex)) in self.table.moves.iter().enumerate() {
            let ms = self.move_ms.get(n).copied().flatten();
            moves.push((vertex.clone(), ms.unwrap_or_else(|| self.ms_left(*colour))));
        }
        self.table.told = Told::SetUp;
        self.awaiting_ready = false;
        vec![DoorEvent::Send(ServerLine::Setup(Setup {
            game,
            size: self.table.size,
            komi: self.table.komi,
            main_ms: self.table.main_ms,
            white,
            black,
            moves,
        }))]
    }

    /// A line from an admitted client: its move, `ready`, or a line out of
    /// turn.
    fn heard(&mut self, now: Instant, text: &str) -> Vec<DoorEvent> {
        if text.is_empty() {
            return Vec::new();
        }
        match self.asked {
            Some(Asked {
                id, analyze, sent, ..
            }) => {
                self.asked = None;
                let venue_measure = now.saturating_duration_since(sent);
                let think = venue_measure.saturating_sub(self.settings.gift.max(self.round_trip));
                let (vertex, analysis) = match parse_move(text) {
                    Ok(reply) => (reply.vertex, reply.analysis),
                    Err(_) => (
                        text.split_whitespace().next().unwrap_or(text).to_string(),
                        None,
                    ),
                };
                let text = match (analyze, analysis) {
                    (true, Some(json)) => {
                        format_response(id, Ok(&format!("{json}\nplay {vertex}")))
                    }
                    (true, None) => format_response(id, Ok(&format!("play {vertex}"))),
                    (false, _) => format_response(id, Ok(&vertex)),
                };
                vec![DoorEvent::Answer {
                    text,
                    think,
                    venue_measure,
                }]
            }
            _ if text.eq_ignore_ascii_case("ready") => {
                let was = std::mem::take(&mut self.awaiting_ready);
                match was {
                    true => Vec::new(),
                    false => vec![DoorEvent::Note(
                        "'ready' with no game over to answer".into(),
                    )],
                }
            }
            _ => {
                let when = match self.awaiting_ready {
                    true => "after its gameover",
                    false => "with no move asked",
                };
                let shown: String = text.chars().take(60).collect();
                vec![DoorEvent::Note(format!("'{shown}' {when}: ignored"))]
            }
        }
    }

    /// The milliseconds `colour` may use, as best known: the stream's
    /// clock, else `time_left`, else the main time.
    fn ms_left(&self, colour: Color) -> u64 {
        self.clocks[colour.index()]
            .or(self.time_left[colour.index()])
            .unwrap_or(self.table.main_ms)
    }

    fn client_text(&self) -> String {
        match &self.stage {
            Stage::Open { client, .. } => client.clone(),
            _ => "CGOS client".into(),
        }
    }

    fn analyzes(&self) -> bool {
        matches!(self.stage, Stage::Open { analyze: true, .. })
    }

    fn known(&self) -> Vec<&'static str> {
        let mut known = KNOWN.to_vec();
        if self.analyzes() {
            known.push(ANALYZE);
        }
        known
    }

    fn knows(&self, name: &str) -> bool {
        self.known().contains(&name)
    }

    fn refuse(&mut self, reason: String) -> Vec<DoorEvent> {
        self.stage = Stage::Closed;
        vec![DoorEvent::Refuse {
            reason,
            after: REFUSAL_DELAY,
        }]
    }

    /// The client broke the protocol: it is told why, then closed.
    fn broken(&mut self, why: String) -> Vec<DoorEvent> {
        self.stage = Stage::Closed;
        vec![
            DoorEvent::Send(ServerLine::Error(why.clone())),
            DoorEvent::Lost { why },
        ]
    }
}

fn answer(text: String) -> DoorEvent {
    DoorEvent::Answer {
        text,
        think: Duration::ZERO,
        venue_measure: Duration::ZERO,
    }
}

/// What a program may use for its next move on `reading`, in CGOS's one
/// number: the main time left, and in overtime the current period's time
/// (a Canadian period's shared by its stones still to play).
pub fn usable_ms(reading: &ClockReading) -> u64 {
    match (reading.in_overtime, reading.period_left_ms) {
        (true, Some(period)) => period / u64::from(reading.stones_left.unwrap_or(1).max(1)),
        (false, Some(period)) if reading.stones_left.is_none() => reading.main_left_ms + period,
        _ => reading.main_left_ms,
    }
}

/// goref's result as the CGOS servers write theirs: `B+Resign`,
/// `W+Time`, `B+Illegal`, `W+Forfeit`, `B+6.5`, `Draw`.
pub fn cgos_result(result: &Ended) -> String {
    let text = result.result.as_str();
    let Some((winner, how)) = text.split_once('+') else {
        return match text {
            "0" | "Draw" => "Draw".into(),
            other => other.to_string(),
        };
    };
    let how = match how {
        "R" | "Resign" => "Resign".to_string(),
        "T" | "Time" => "Time".to_string(),
        "F" | "Forfeit" if result.illegal => "Illegal".to_string(),
        "F" | "Forfeit" => "Forfeit".to_string(),
        score => score.to_string(),
    };
    format!("{winner}+{how}")
}

#[cfg(test)]
mod tests;
