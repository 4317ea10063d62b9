//! Pure protocol machines: bytes and time in, bytes, events and deadlines out.

pub mod cgos;
pub mod gtp;
pub mod seat;
pub mod sgmp;
pub mod usenix;
