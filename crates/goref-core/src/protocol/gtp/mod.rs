//! The Go Text Protocol, version 2, with the KGS extensions
//! (`reference/gtp-kgs.md`).
//!
//! [`codec`] frames commands and responses in both directions; [`controller`]
//! drives one engine, one command at a time, without doing any IO itself;
//! [`analysis`] reads what an engine thinks of its move, when asked, and
//! `analysis_lines` keeps its lines out of the answer.

pub mod analysis;
mod analysis_lines;
pub mod codec;
pub mod controller;

pub use codec::{
    format_response, parse_command_line, Command, GtpError, Response, ResponseReader, MAX_LINE,
    MAX_RESPONSE,
};
pub use controller::{Busy, Controller, ControllerEvent};
