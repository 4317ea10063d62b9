//! goref's integration tests, in one binary: each module tests one part of
//! the product through the real binary and real peers (GNU Go, Leela Zero,
//! socat ptys, tmux, `nats-server`, Chromium), with the helpers they share
//! in [`common`]. One binary, not one per file, so that an edit relinks one
//! test program: `cargo test --test it -- MODULE::` runs one module.

mod common;

mod analysis;
mod architecture;
mod broker;
mod cgos;
mod check;
mod clocks;
mod detached;
mod director;
mod engine_match;
mod engine_strength;
mod event;
mod fault_relay;
mod faults;
mod folder;
mod games;
mod hall;
mod human;
mod judge;
mod kept;
mod line_event;
mod line_games;
mod lines;
mod manual;
mod mirror;
mod outputs;
mod package;
mod replay;
mod screen;
mod screen_80x24;
mod seat;
mod seat_event;
mod standings;
mod stream;
mod usenix;
mod web;
mod workers;
