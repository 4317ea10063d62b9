//! The words a screen's state and the command registry share: its panes,
//! and who is looking (which decides the commands there are).

/// The panes, in the order `Tab` visits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaneId {
    Board,
    Clocks,
    Trace,
    Moves,
    Agreement,
    Winrate,
    TimeChart,
}

impl PaneId {
    pub(crate) const ALL: [PaneId; 7] = [
        PaneId::Board,
        PaneId::Clocks,
        PaneId::Trace,
        PaneId::Moves,
        PaneId::Agreement,
        PaneId::Winrate,
        PaneId::TimeChart,
    ];

    pub fn title(self) -> &'static str {
        match self {
            PaneId::Board => "board",
            PaneId::Clocks => "clocks",
            PaneId::Trace => "trace",
            PaneId::Moves => "moves",
            PaneId::Agreement => "end of game",
            PaneId::Winrate => "winrate",
            PaneId::TimeChart => "time per move",
        }
    }
}

/// Who is looking, which decides the commands there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The referee's own screen: the operator's commands are there.
    Operator,
    /// A spectator's screen: read-only.
    Spectator,
    /// A recorded trace, stepped through.
    Replay,
}
