//! The game folder and what keeps a game alive through failures.
//!
//! - [`folder`]: one folder per game, named and claimed.
//! - [`writer`]: the journal, every event appended and synced before a move
//!   is relayed or a result announced.
//! - [`reader`]: the journal read back, up to its last whole event.
//! - [`manifest`]: the SHA-256 of every file once the game is over.

pub mod folder;
pub mod manifest;
pub mod reader;
pub mod writer;

pub use folder::{FolderError, FolderPlace, GameFolder};
pub use writer::{Journal, JournalStatus, JournalSync};
