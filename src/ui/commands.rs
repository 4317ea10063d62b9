//! The command registry: every command the screen knows, with its keys, its
//! description, its group and when it is available.
//!
//! One table drives the key map, the hint bar and the help, so they cannot
//! disagree. Availability depends on the role (a spectator has no operator
//! commands at all), the phase and what is on screen. Keys can be changed in
//! a TOML file (see `KeyMap::from_toml`), which is checked for keys bound
//! twice where both commands could apply.

use std::collections::BTreeMap;

use goref_core::game::Color;
use goref_core::referee::Phase;

use super::keys::{BadKey, Chord, Key};
use super::panes::{PaneId, Role};

/// What a key can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Command {
    Quit,
    Help,
    Back,
    Acknowledge,
    Interrupt,
    NextGame,
    FocusNext,
    FocusPrev,
    Zoom,
    Variation,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Top,
    Follow,
    TracePause,
    TraceSide,
    TracePackets,
    TraceGtp,
    TraceStderr,
    TraceSearch,
    TraceDetail,
    TypeMove,
    ResignBlack,
    ResignWhite,
    RestartBlack,
    RestartWhite,
    Adjudicate,
    Void,
    PauseClocks,
    ResumeClocks,
    AdjustBlack,
    AdjustWhite,
    Mark,
    Score,
    MoveBack,
    MoveForward,
    Start,
    End,
}

/// The help's sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    General,
    Panes,
    Trace,
    Operator,
    Scoring,
    Replay,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::General => "General",
            Group::Panes => "Panes",
            Group::Trace => "Trace",
            Group::Operator => "Operator",
            Group::Scoring => "Scoring (the judge marks dead stones)",
            Group::Replay => "Replay",
        }
    }
}

/// What the screen shows, which decides what is available.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    pub role: Role,
    pub phase: Phase,
    /// The game has a result.
    pub over: bool,
    pub focus: PaneId,
    /// A player whose moves the operator types is to move.
    pub typed_to_move: Option<Color>,
    pub clocks_paused: bool,
    /// Unacknowledged alerts are on screen.
    pub alerting: bool,
    /// Something is open that `esc` closes (help, zoom, a detail, a chord).
    pub closable: bool,
    /// Another game can follow this one (the demo).
    pub can_start_next: bool,
}

impl Context {
    /// The operator is marking dead stones on the board.
    pub(crate) fn marking(&self) -> bool {
        self.role == Role::Operator
            && matches!(self.phase, Phase::Adjudication | Phase::DeadStones)
            && !self.over
    }

    fn playing(&self) -> bool {
        !self.over && matches!(self.phase, Phase::Play | Phase::Cleanup)
    }
}

/// One row of the registry.
#[derive(Debug, Clone, Copy)]
pub struct CommandInfo {
    pub command: Command,
    /// The command's name in the key map file.
    pub name: &'static str,
    pub description: &'static str,
    pub group: Group,
    /// The default keys.
    pub keys: &'static [&'static str],
    /// Shown in the hint bar when available.
    pub quick: bool,
}

impl CommandInfo {
    /// What the command does on a screen of `role`: quitting a spectator's
    /// or a replay's screen ends nothing but that screen.
    pub(crate) fn description_for(&self, role: Role) -> &'static str {
        match (self.command, role) {
            (Command::Quit, Role::Spectator | Role::Replay) => "quit",
            (Command::Interrupt, Role::Spectator | Role::Replay) => "quit at once",
            _ => self.description,
        }
    }
}

const fn info(
    command: Command,
    name: &'static str,
    group: Group,
    keys: &'static [&'static str],
    quick: bool,
    description: &'static str,
) -> CommandInfo {
    CommandInfo {
        command,
        name,
        description,
        group,
        keys,
        quick,
    }
}

use Command as C;
use Group as G;

/// Every command, in the order the help lists them.
pub(crate) const REGISTRY: &[CommandInfo] = &[
    info(
        C::Help,
        "help",
        G::General,
        &["?"],
        true,
        "show or hide this help",
    ),
    info(
        C::Quit,
        "quit",
        G::General,
        &["q"],
        true,
        "quit (while a game is on: void it, after confirming)",
    ),
    info(
        C::Back,
        "back",
        G::General,
        &["esc"],
        false,
        "close the help, the zoom, a detail or a started chord",
    ),
    info(
        C::Acknowledge,
        "acknowledge",
        G::General,
        &["enter"],
        true,
        "acknowledge the alert on screen",
    ),
    info(
        C::Interrupt,
        "interrupt",
        G::General,
        &["ctrl-c"],
        false,
        "quit (a game on: void it, after confirming; ctrl-c twice confirms)",
    ),
    info(
        C::NextGame,
        "next_game",
        G::General,
        &["n"],
        true,
        "start the next game",
    ),
    info(
        C::FocusNext,
        "focus_next",
        G::Panes,
        &["tab"],
        true,
        "focus the next pane (zoomed: show it)",
    ),
    info(
        C::FocusPrev,
        "focus_prev",
        G::Panes,
        &["shift-tab"],
        false,
        "focus the previous pane",
    ),
    info(
        C::Zoom,
        "zoom",
        G::Panes,
        &["z"],
        true,
        "show the focused pane on the whole screen, or not",
    ),
    info(
        C::Variation,
        "variation",
        G::Panes,
        &["w"],
        false,
        "number the moves the last mover expects, or not",
    ),
    info(
        C::Up,
        "up",
        G::Panes,
        &["up", "k"],
        false,
        "scroll up; move the cursor on the board",
    ),
    info(
        C::Down,
        "down",
        G::Panes,
        &["down", "j"],
        false,
        "scroll down; move the cursor on the board",
    ),
    info(
        C::Left,
        "left",
        G::Panes,
        &["left", "h"],
        false,
        "move the cursor; in a replay, one event back",
    ),
    info(
        C::Right,
        "right",
        G::Panes,
        &["right", "l"],
        false,
        "move the cursor; in a replay, one event on",
    ),
    info(
        C::PageUp,
        "page_up",
        G::Panes,
        &["pgup"],
        false,
        "scroll a page up",
    ),
    info(
        C::PageDown,
        "page_down",
        G::Panes,
        &["pgdn"],
        false,
        "scroll a page down",
    ),
    info(
        C::Top,
        "top",
        G::Panes,
        &["home"],
        false,
        "scroll to the oldest line",
    ),
    info(
        C::Follow,
        "follow",
        G::Trace,
        &["end", "f"],
        false,
        "follow the newest lines again",
    ),
    info(
        C::TracePause,
        "trace_pause",
        G::Trace,
        &["p"],
        false,
        "pause the trace (the game goes on), or resume it",
    ),
    info(
        C::TraceSide,
        "trace_side",
        G::Trace,
        &["s"],
        false,
        "show both sides, Black only, White only",
    ),
    info(
        C::TracePackets,
        "trace_packets",
        G::Trace,
        &["1"],
        false,
        "show or hide GMP packets",
    ),
    info(
        C::TraceGtp,
        "trace_gtp",
        G::Trace,
        &["2"],
        false,
        "show or hide GTP lines",
    ),
    info(
        C::TraceStderr,
        "trace_stderr",
        G::Trace,
        &["3"],
        false,
        "show or hide engines' stderr",
    ),
    info(
        C::TraceSearch,
        "trace_search",
        G::Trace,
        &["/"],
        false,
        "show only lines containing a text",
    ),
    info(
        C::TraceDetail,
        "trace_detail",
        G::Trace,
        &["d"],
        false,
        "the selected packet's bytes and fields",
    ),
    info(
        C::TypeMove,
        "type_move",
        G::Operator,
        &["m"],
        true,
        "type the move of the player to move",
    ),
    info(
        C::ResignBlack,
        "resign_black",
        G::Operator,
        &["r b"],
        false,
        "Black resigns (its operator says so)",
    ),
    info(
        C::ResignWhite,
        "resign_white",
        G::Operator,
        &["r w"],
        false,
        "White resigns (its operator says so)",
    ),
    info(
        C::RestartBlack,
        "restart_black",
        G::Operator,
        &["e b"],
        false,
        "start Black's program again, told the position",
    ),
    info(
        C::RestartWhite,
        "restart_white",
        G::Operator,
        &["e w"],
        false,
        "start White's program again, told the position",
    ),
    info(
        C::Adjudicate,
        "adjudicate",
        G::Operator,
        &["a"],
        true,
        "end the game with a result you give",
    ),
    info(
        C::Void,
        "void",
        G::Operator,
        &["v"],
        false,
        "end the game with no result",
    ),
    info(
        C::PauseClocks,
        "pause_clocks",
        G::Operator,
        &["c p"],
        false,
        "hold the game: no clock runs, no move is asked for or relayed",
    ),
    info(
        C::ResumeClocks,
        "resume_clocks",
        G::Operator,
        &["c r"],
        true,
        "let the game go on: the clocks run, a move held is taken",
    ),
    info(
        C::AdjustBlack,
        "adjust_black",
        G::Operator,
        &["c b"],
        false,
        "add or take time from Black's clock",
    ),
    info(
        C::AdjustWhite,
        "adjust_white",
        G::Operator,
        &["c w"],
        false,
        "add or take time from White's clock",
    ),
    info(
        C::Mark,
        "mark",
        G::Scoring,
        &["x", "space"],
        true,
        "mark the group at the cursor dead, or alive again",
    ),
    info(
        C::Score,
        "score",
        G::Scoring,
        &["S"],
        true,
        "count the game with the stones marked dead",
    ),
    info(
        C::MoveBack,
        "move_back",
        G::Replay,
        &["["],
        true,
        "back to the previous move",
    ),
    info(
        C::MoveForward,
        "move_forward",
        G::Replay,
        &["]"],
        true,
        "on to the next move",
    ),
    info(
        C::Start,
        "start",
        G::Replay,
        &["g"],
        false,
        "the recording's start",
    ),
    info(
        C::End,
        "end",
        G::Replay,
        &["G"],
        false,
        "the recording's end",
    ),
];

impl Command {
    pub fn info(self) -> &'static CommandInfo {
        REGISTRY
            .iter()
            .find(|i| i.command == self)
            .expect("every command is in the registry")
    }

    /// The roles that have the command at all.
    pub(crate) fn roles(self) -> &'static [Role] {
        const ALL: &[Role] = &[Role::Operator, Role::Spectator, Role::Replay];
        match self.info().group {
            G::Operator | G::Scoring => &[Role::Operator],
            G::Replay => &[Role::Replay],
            _ if self == C::NextGame => &[Role::Operator],
            _ => ALL,
        }
    }

    /// Whether the command does something now.
    pub(crate) fn available(self, ctx: &Context) -> bool {
        if !self.roles().contains(&ctx.role) {
            return false;
        }
        let operating = ctx.role == Role::Operator && !ctx.over;
        let trace = ctx.focus == PaneId::Trace;
        match self {
            C::Back => ctx.closable,
            C::Acknowledge => ctx.alerting,
            C::NextGame => ctx.over && ctx.can_start_next,
            C::Left | C::Right => ctx.marking() || ctx.role == Role::Replay,
            C::Follow
            | C::TracePause
            | C::TraceSide
            | C::TracePackets
            | C::TraceGtp
            | C::TraceStderr
            | C::TraceSearch
            | C::TraceDetail => trace,
            C::TypeMove => operating && ctx.typed_to_move.is_some(),
            C::ResignBlack | C::ResignWhite => operating && ctx.playing(),
            C::RestartBlack | C::RestartWhite => operating && ctx.playing(),
            C::Adjudicate | C::Void => operating,
            C::PauseClocks => operating && ctx.playing() && !ctx.clocks_paused,
            C::ResumeClocks => operating && ctx.clocks_paused,
            C::AdjustBlack | C::AdjustWhite => operating && ctx.phase != Phase::Setup,
            C::Mark | C::Score => ctx.marking(),
            _ => true,
        }
    }
}

impl Command {
    /// Whether the hint bar offers the command now: a quick command that is
    /// available, and adjudication only when the game waits for the judge
    /// (the help lists it always).
    pub(crate) fn hinted(self, ctx: &Context) -> bool {
        self.info().quick
            && self.available(ctx)
            && (self != C::Adjudicate || ctx.phase == Phase::Adjudication)
    }

    /// Whether the command is what the moment asks for: such commands lead
    /// the hint bar, before the keys that are always there.
    pub(crate) fn urgent(self, ctx: &Context) -> bool {
        match self {
            C::Acknowledge
            | C::TypeMove
            | C::ResumeClocks
            | C::Mark
            | C::Score
            | C::NextGame
            | C::MoveBack
            | C::MoveForward => true,
            C::Adjudicate => ctx.phase == Phase::Adjudication,
            _ => false,
        }
    }
}

/// What a key press (after any earlier keys of a chord) means.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lookup {
    Command(Command),
    /// The keys begin one or more chords: these could follow.
    Prefix(Vec<(Chord, Command)>),
    None,
}

/// Chords to commands.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyMap {
    chords: BTreeMap<Chord, Vec<Command>>,
}

/// A key map file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum KeyMapError {
    #[error("{origin}: {message}")]
    Syntax { origin: String, message: String },
    #[error("{origin}: '{name}' is not a command; the commands are: {known}")]
    UnknownCommand {
        origin: String,
        name: String,
        known: String,
    },
    #[error("{origin}: {name}: {error}")]
    BadKey {
        origin: String,
        name: String,
        error: BadKey,
    },
    #[error("{origin}: '{chord}' is bound to both {first} and {second}")]
    Duplicate {
        origin: String,
        chord: String,
        first: &'static str,
        second: &'static str,
    },
    #[error("{origin}: '{prefix}' ({first}) begins '{chord}' ({second}), which could then never be typed")]
    Prefix {
        origin: String,
        prefix: String,
        first: &'static str,
        chord: String,
        second: &'static str,
    },
}

impl Default for KeyMap {
    fn default() -> KeyMap {
        let bindings = REGISTRY.iter().flat_map(|info| {
            info.keys.iter().map(|k| {
                (
                    k.parse::<Chord>().expect("default keys parse"),
                    info.command,
                )
            })
        });
        KeyMap::build(bindings.collect(), "the default keys").expect("the default keys are sound")
    }
}

/// Whether two commands can both be available on one screen.
fn can_meet(a: Command, b: Command) -> bool {
    a.roles().iter().any(|r| b.roles().contains(r))
}

impl KeyMap {
    fn build(bindings: Vec<(Chord, Command)>, origin: &str) -> Result<KeyMap, KeyMapError> {
        let mut chords: BTreeMap<Chord, Vec<Command>> = BTreeMap::new();
        for (chord, command) in bindings {
            let bound = chords.entry(chord.clone()).or_default();
            if let Some(&other) = bound.iter().find(|&&c| can_meet(c, command)) {
                return Err(KeyMapError::Duplicate {
                    origin: origin.into(),
                    chord: chord.to_string(),
                    first: other.info().name,
                    second: command.info().name,
                });
            }
            bound.push(command);
        }
        for (prefix, first) in &chords {
            for (chord, second) in chords.range(prefix.clone()..).skip(1) {
                if !chord.0.starts_with(&prefix.0) {
                    break;
                }
                let clash = first
                    .iter()
                    .find_map(|&a| second.iter().find(|&&b| can_meet(a, b)).map(|&b| (a, b)));
                if let Some((a, b)) = clash {
                    return Err(KeyMapError::Prefix {
                        origin: origin.into(),
                        prefix: prefix.to_string(),
                        first: a.info().name,
                        chord: chord.to_string(),
                        second: b.info().name,
                    });
                }
            }
        }
        Ok(KeyMap { chords })
    }

    /// The default keys with those of a TOML file in place of theirs:
    ///
    /// ```toml
    /// [keys]
    /// quit = ["q", "ctrl-q"]
    /// resign_black = ["r b"]
    /// ```
    ///
    /// A command named in the file has exactly the keys the file gives.
    pub(crate) fn from_toml(text: &str, origin: &str) -> Result<KeyMap, KeyMapError> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            #[serde(default)]
            keys: BTreeMap<String, Vec<String>>,
        }
        let file: File = toml::from_str(text).map_err(|e| KeyMapError::Syntax {
            origin: origin.into(),
            message: crate::toml_errors::locate(text, &e),
        })?;
        let mut bindings = Vec::new();
        for (name, keys) in &file.keys {
            let Some(info) = REGISTRY.iter().find(|i| i.name == name) else {
                return Err(KeyMapError::UnknownCommand {
                    origin: origin.into(),
                    name: name.clone(),
                    known: REGISTRY
                        .iter()
                        .map(|i| i.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            for key in keys {
                let chord = key.parse::<Chord>().map_err(|error| KeyMapError::BadKey {
                    origin: origin.into(),
                    name: name.clone(),
                    error,
                })?;
                bindings.push((chord, info.command));
            }
        }
        for info in REGISTRY {
            if !file.keys.contains_key(info.name) {
                for key in info.keys {
                    bindings.push((key.parse().expect("default keys parse"), info.command));
                }
            }
        }
        KeyMap::build(bindings, origin)
    }

    /// What `keys` mean now: a command, the beginning of chords, or nothing.
    pub(crate) fn lookup(&self, keys: &[Key], ctx: &Context) -> Lookup {
        let chord = Chord(keys.to_vec());
        if let Some(commands) = self.chords.get(&chord) {
            if let Some(&command) = commands.iter().find(|c| c.available(ctx)) {
                return Lookup::Command(command);
            }
        }
        let next: Vec<(Chord, Command)> = self
            .chords
            .range(chord.clone()..)
            .take_while(|(c, _)| c.0.starts_with(keys))
            .filter(|(c, _)| c.0.len() > keys.len())
            .flat_map(|(c, commands)| commands.iter().map(move |&command| (c.clone(), command)))
            .filter(|(_, command)| command.available(ctx))
            .collect();
        if next.is_empty() {
            Lookup::None
        } else {
            Lookup::Prefix(next)
        }
    }

    /// The keys of a command, as the help and the hint bar print them.
    pub(crate) fn keys_of(&self, command: Command) -> Vec<&Chord> {
        self.chords
            .iter()
            .filter(|(_, commands)| commands.contains(&command))
            .map(|(chord, _)| chord)
            .collect()
    }
}

#[cfg(test)]
mod tests;
