//! What every screen of followed boards shares: the event's hall, a
//! match's screen and a worker's. Each board is followed through its
//! folder's socket, or on the broker when another machine plays it
//! ([`follower`]), and shown on tiles; [`frame`] paces the frames, turns
//! the terminal's input into keys and carries an operator's line to a
//! board's goref.

pub(crate) mod follower;
pub(crate) mod frame;
