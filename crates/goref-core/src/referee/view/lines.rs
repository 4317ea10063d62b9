//! The lines a view keeps for its panes: moves, protocol lines, packets,
//! alerts, the audience's comings and goings, and the dead-stone agreement.

use serde::{Deserialize, Serialize};

use crate::game::Color;
use crate::protocol::sgmp::link::TraceEntry;
use crate::referee::event::LineDirection;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveLine {
    pub n: u32,
    pub color: Color,
    pub vertex: String,
    /// Thinking time charged for the move.
    pub ms: u64,
    /// Time the mover's GMP line spent carrying packets since its previous
    /// move, at the line's baud rate.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wire_ms: f64,
    /// Packets resent on the mover's line since its previous move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resends: u32,
    /// The referee's own share: from the move's arrival to its relay.
    #[serde(default)]
    pub referee_ms: f64,
    /// A seated program's network share: the venue's measure of the move
    /// less the seat's stamp of its thinking.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub net_ms: u64,
    /// Black's chance to win as the mover's program saw it when it chose
    /// the move, from 0 to 1; none when it said nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_winrate: Option<f32>,
}

fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The newest analysis of one side's program: the move it was of (`n`),
/// its chance to win from its own side, its lead, visits, and the moves it
/// expects, the move played first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisLine {
    pub n: u32,
    pub winrate: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_lead: Option<f64>,
    pub visits: u64,
    pub pv: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceLine {
    /// The event's number in the stream, 0 when it came without one.
    #[serde(default)]
    pub seq: u64,
    /// When it happened, in milliseconds of the stream.
    #[serde(default)]
    pub t_ms: u64,
    pub color: Color,
    pub direction: LineDirection,
    pub line: String,
    /// What goref made of the line, when there is something to say: a
    /// Usenix line ignored, or one a 1987 referee would have misread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A CGOS server's line (`goref seat cgos://`), not the program's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cgos: bool,
}

/// Spectators joined or left: one `spectators` event in words, for the
/// trace pane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudienceLine {
    pub seq: u64,
    pub t_ms: u64,
    pub text: String,
}

/// One packet of a GMP line, as the trace pane shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PacketLine {
    #[serde(default)]
    pub seq: u64,
    #[serde(default)]
    pub t_ms: u64,
    pub color: Color,
    pub wire_ms: Option<f64>,
    #[serde(flatten)]
    pub entry: TraceEntry,
}

/// Something the operator must see and acknowledge: an error (a crash, a
/// hang, a dead line, a refused command), an illegal move, a flag, the
/// judge being called.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alert {
    /// 1 for the game's first alert, and so on: a screen acknowledges all
    /// alerts up to a number.
    pub n: u64,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AgreementView {
    pub claims: [Option<Vec<String>>; 2],
    pub notes: [Option<String>; 2],
    pub agreed: Option<Vec<String>>,
    pub black_only: Vec<String>,
    pub white_only: Vec<String>,
    pub marked: Vec<String>,
}
