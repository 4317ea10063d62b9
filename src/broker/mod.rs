//! The NATS broker, as every goref that reaches one uses it: the
//! connection (`connect`), the broker's own authentication and TLS
//! ([`auth`]), an audience's address and subject tokens ([`address`]),
//! a stream made if missing ([`stream`]), and the streams, consumers and
//! object stores a match and its workers agree on ([`work`]). What goes over the connections is the business of
//! the rooms that use it: the mirror publishes and watches a game's lines,
//! the match and the worker trade jobs and results.

pub mod address;
pub mod auth;
pub(crate) mod connect;
pub mod stream;
pub mod work;
