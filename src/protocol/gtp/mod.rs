//! The Go Text Protocol, version 2, with the KGS extensions
//! (`reference/gtp-kgs.md`).
//!
//! [`codec`] frames commands and responses in both directions.

pub mod codec;

pub use codec::{
    format_response, parse_bool, parse_command_line, parse_command_list, parse_vertex_list,
    Command, GtpError, Response, ResponseReader, MAX_LINE, MAX_RESPONSE,
};
