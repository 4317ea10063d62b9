//! The terminal's bytes as keys: what a terminal in raw mode sends (UTF-8
//! text, control bytes, CSI and SS3 escape sequences) turned into the
//! screen's [`Key`]s. Sans-IO: bytes go in as they were read, split
//! anywhere, and the keys they complete come out.
//!
//! An ESC byte begins a sequence or is the Esc key alone; only time tells
//! which. The decoder never reads a clock: the reader waits a little when
//! `KeyDecoder::is_mid_sequence` and, if no byte came, calls
//! `KeyDecoder::no_more_bytes`, which makes a lone ESC the Esc key.
//!
//! What a key is, where terminals differ:
//!
//! - Enter is CR or LF, Backspace is DEL or BS, Tab is HT; the other
//!   control bytes are ctrl-letters (0x01 ctrl-a to 0x1a ctrl-z; NUL is
//!   ctrl-space and 0x1c to 0x1f ctrl-4 to ctrl-7, as xterm's ctrl-digits).
//! - Modifiers on a sequence are dropped: ctrl-up (`ESC [ 1 ; 5 A`) is up,
//!   shift-F1 is F1, shift-tab has a key of its own (`ESC [ Z`).
//! - Alt, which terminals send as ESC before the key, is dropped too: alt-x
//!   is `x`, alt-enter is enter. Alt-`[` and alt-`O` begin sequences, and
//!   are `[` and `O` once nothing follows. ESC ESC is two Escs.
//! - Arrows, Home and End come as CSI (`ESC [ A`) or SS3 (`ESC O A`), and
//!   Home, End, Insert, Delete, PageUp, PageDown and F5 to F12 as `ESC [ N ~`
//!   with xterm's numbers (F1 to F4 as `ESC O P` to `S`, or `ESC [ 11 ~` to
//!   `14 ~`; the Linux console's `ESC [ [ A` to `E` are F1 to F5). Insert has
//!   no use here and is dropped.
//! - Anything else, or anything malformed (a mouse report, a focus event,
//!   a sequence cut short by another ESC, bytes that are not UTF-8), is
//!   dropped whole, and the keys after it come through.

use crate::ui::keys::Key;

/// The longest parameter list of a sequence kept; a longer one is read to
/// its end and dropped.
const MAX_PARAMETERS: usize = 16;

/// The state between two bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum State {
    #[default]
    Ground,
    /// A UTF-8 character begun: its bytes so far and how many it has.
    Utf8 { bytes: [u8; 4], have: u8, need: u8 },
    /// An ESC, nothing after it yet.
    Escape,
    /// `ESC [` or `ESC O` and the parameters since.
    Sequence {
        kind: Introducer,
        parameters: Vec<u8>,
        too_long: bool,
    },
    /// `ESC [ [`: a Linux console function key, one letter to come.
    LinuxFunction,
    /// `ESC [ M`: an X10 mouse report, with this many raw bytes to come.
    Mouse { left: u8 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Introducer {
    /// `ESC [`
    Csi,
    /// `ESC O`
    Ss3,
}

/// Turns a terminal's bytes into keys.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyDecoder {
    state: State,
}

impl KeyDecoder {
    pub(crate) fn new() -> KeyDecoder {
        KeyDecoder::default()
    }

    /// The keys `bytes` complete, in order. Bytes of a key not yet complete
    /// are kept for the next call.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Vec<Key> {
        let mut keys = Vec::new();
        for &byte in bytes {
            self.byte(byte, &mut keys);
        }
        keys
    }

    /// Whether an escape sequence is under way, so that the reader should
    /// wait a little for its rest and then call [`KeyDecoder::no_more_bytes`].
    pub(crate) fn is_mid_sequence(&self) -> bool {
        !matches!(self.state, State::Ground | State::Utf8 { .. })
    }

    /// No byte came for a while: a lone ESC is the Esc key, an ESC and `[`
    /// or `O` is that character (alt dropped), and any other sequence cut
    /// short is dropped. A UTF-8 character begun is kept: its next byte,
    /// or the next byte that cannot be one, decides it.
    pub(crate) fn no_more_bytes(&mut self) -> Option<Key> {
        match std::mem::take(&mut self.state) {
            State::Escape => Some(Key::Esc),
            State::Sequence {
                kind, parameters, ..
            } if parameters.is_empty() => Some(Key::Char(match kind {
                Introducer::Csi => '[',
                Introducer::Ss3 => 'O',
            })),
            State::Utf8 { bytes, have, need } => {
                self.state = State::Utf8 { bytes, have, need };
                None
            }
            _ => None,
        }
    }

    fn byte(&mut self, byte: u8, keys: &mut Vec<Key>) {
        match std::mem::take(&mut self.state) {
            State::Ground => self.ground(byte, keys),
            State::Utf8 {
                mut bytes,
                have,
                need,
            } => {
                if !is_continuation(byte) {
                    return self.ground(byte, keys);
                }
                bytes[usize::from(have)] = byte;
                let have = have + 1;
                if have < need {
                    self.state = State::Utf8 { bytes, have, need };
                    return;
                }
                let text = std::str::from_utf8(&bytes[..usize::from(need)]).ok();
                if let Some(c) = text.and_then(|t| t.chars().next()) {
                    if !c.is_control() {
                        keys.push(Key::Char(c));
                    }
                }
            }
            State::Escape => match byte {
                b'[' => self.state = State::sequence(Introducer::Csi),
                b'O' => self.state = State::sequence(Introducer::Ss3),
                ESC => {
                    keys.push(Key::Esc);
                    self.state = State::Escape;
                }
                _ => self.ground(byte, keys),
            },
            State::Sequence {
                kind,
                mut parameters,
                mut too_long,
            } => match byte {
                0x20..=0x3f => {
                    if parameters.len() < MAX_PARAMETERS {
                        parameters.push(byte);
                    } else {
                        too_long = true;
                    }
                    self.state = State::Sequence {
                        kind,
                        parameters,
                        too_long,
                    };
                }
                0x40..=0x7e if too_long => {}
                b'[' if kind == Introducer::Csi && parameters.is_empty() => {
                    self.state = State::LinuxFunction;
                }
                b'M' if kind == Introducer::Csi && parameters.is_empty() => {
                    self.state = State::Mouse { left: 3 };
                }
                0x40..=0x7e => keys.extend(sequence_key(&parameters, byte)),
                _ => self.ground(byte, keys),
            },
            State::LinuxFunction => match byte {
                b'A'..=b'E' => keys.push(Key::F(byte - b'A' + 1)),
                _ => self.ground(byte, keys),
            },
            State::Mouse { left } => {
                if left > 1 {
                    self.state = State::Mouse { left: left - 1 };
                }
            }
        }
    }

    /// A byte outside any sequence.
    fn ground(&mut self, byte: u8, keys: &mut Vec<Key>) {
        let key = match byte {
            ESC => {
                self.state = State::Escape;
                return;
            }
            b'\r' | b'\n' => Key::Enter,
            b'\t' => Key::Tab,
            0x08 | 0x7f => Key::Backspace,
            0x00 => Key::Ctrl(' '),
            0x01..=0x1a => Key::Ctrl(char::from(b'a' + byte - 1)),
            0x1c..=0x1f => Key::Ctrl(char::from(b'4' + byte - 0x1c)),
            0x20..=0x7e => Key::Char(char::from(byte)),
            _ => {
                if let Some(need) = utf8_length(byte) {
                    let mut bytes = [0; 4];
                    bytes[0] = byte;
                    self.state = State::Utf8 {
                        bytes,
                        have: 1,
                        need,
                    };
                }
                return;
            }
        };
        keys.push(key);
    }
}

const ESC: u8 = 0x1b;

impl State {
    fn sequence(kind: Introducer) -> State {
        State::Sequence {
            kind,
            parameters: Vec::new(),
            too_long: false,
        }
    }
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xc0 == 0x80
}

/// The length of the UTF-8 character `lead` begins, if it can begin one.
fn utf8_length(lead: u8) -> Option<u8> {
    match lead {
        0xc2..=0xdf => Some(2),
        0xe0..=0xef => Some(3),
        0xf0..=0xf4 => Some(4),
        _ => None,
    }
}

/// The key a complete CSI or SS3 sequence names: its parameters (digits
/// and `;`; modifiers after the first are dropped) and its final byte.
fn sequence_key(parameters: &[u8], last: u8) -> Option<Key> {
    if !parameters.iter().all(|&b| b.is_ascii_digit() || b == b';') {
        return None;
    }
    let first = parameters.split(|&b| b == b';').next().unwrap_or_default();
    let number: Option<u16> = std::str::from_utf8(first).ok()?.parse().ok();
    Some(match last {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        b'Z' => Key::BackTab,
        b'P'..=b'S' => Key::F(last - b'P' + 1),
        b'~' => match number? {
            1 | 7 => Key::Home,
            4 | 8 => Key::End,
            3 => Key::Delete,
            5 => Key::PageUp,
            6 => Key::PageDown,
            n @ 11..=15 => Key::F((n - 10) as u8),
            n @ 17..=21 => Key::F((n - 11) as u8),
            n @ 23..=24 => Key::F((n - 12) as u8),
            _ => return None,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
