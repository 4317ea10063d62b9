//! What every runner of followed boards and its screen share: the event's
//! hall, a match's screen and a worker's. The runner says what happens at
//! its [`desk`], on the terminal or on the screen; the screen's one loop
//! ([`screen`]) runs the runner on a thread of its own and draws what it
//! hears. Each board is followed through its folder's socket, or on the
//! broker when another machine plays it ([`follower`]), and shown on
//! tiles; [`frame`] paces the frames, turns the terminal's input into keys
//! and carries an operator's line to a board's goref.

pub(crate) mod desk;
pub(crate) mod follower;
pub(crate) mod frame;
pub(crate) mod screen;
