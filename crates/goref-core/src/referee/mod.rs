//! The referee: pure game logic between the players and everything that watches.
//!
//! [`Referee`] is the state machine; [`GameEvent`] is its output stream;
//! [`GameView`] and [`Recorder`] fold that stream into a screen's state and
//! an SGF record.

pub mod cgos_seat;
pub mod event;
pub(crate) mod game_config;
pub mod machine;
pub mod operator;
pub mod record;
pub mod replay;
pub mod report;
pub mod resume;
pub mod view;

pub use event::{
    AgreementEvent, End, EventBatch, GameEvent, GameResult, GameStart, HandedOn, LineDirection,
    Phase, PlayerInfo, SessionChange, StampedEvent, StreamHeader, SCHEMA_VERSION,
};
pub use game_config::{GameConfig, Handicap, SetupError};
pub use machine::Referee;
pub use operator::{OperatorCommand, OperatorInput};
pub use record::{PlannedGame, RecordInfo, Recorder};
pub use report::{Action, Failure, FailureKind, PlayerEvent, TimeLeft};
pub use resume::{ResumeError, ResumePoint};
pub use view::GameView;
