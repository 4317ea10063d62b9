//! The line spec a tournament director writes after `sgmp:`/`gmp:` (a
//! serial device and its settings) or after `sgmp-tcp:`/`gmp-tcp:` (a
//! terminal server's host and port), its errors, and how it is shown on
//! screen. Pure: [`line`](super::line) opens it.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use goref_core::game::clock::{format_duration, parse_duration};

/// The baud rate when the spec names none (the CGF sample program's rate).
pub const DEFAULT_BAUD: u32 = 2400;

/// Flow control on a serial line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowControl {
    None,
    /// Hardware handshake; needs a cable that wires RTS and CTS.
    RtsCts,
    /// Software handshake with XON (0x11) and XOFF (0x13).
    XonXoff,
}

impl FlowControl {
    /// The name used in specs and on screen: `none`, `rtscts`, `xonxoff`.
    pub fn name(self) -> &'static str {
        match self {
            FlowControl::None => "none",
            FlowControl::RtsCts => "rtscts",
            FlowControl::XonXoff => "xonxoff",
        }
    }
}

/// Where a line goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineTarget {
    /// A serial device (or a pty standing in for one), always 8N1.
    Device {
        path: PathBuf,
        baud: u32,
        flow: FlowControl,
    },
    /// A TCP port of a terminal server that exposes a serial line.
    Tcp { host: String, port: u16 },
}

/// The set-up deadline when the spec names none.
pub const DEFAULT_SETUP: Duration = Duration::from_secs(180);

/// A line, the protocol timing options written with it, and the name of
/// the program on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineSpec {
    pub target: LineTarget,
    /// `resend=20s`: resend an unacknowledged packet after this long.
    pub resend_after: Option<Duration>,
    /// `retries=9`: raise the alarm after this many resends without an answer.
    pub alarm_after: Option<u32>,
    /// `setup=3m`: give up when the handshake has not finished this long
    /// after the line was opened ([`DEFAULT_SETUP`] when unset).
    pub setup: Option<Duration>,
    /// `name=NAME`: the program's name for the record and the screen, in
    /// place of the line's description.
    pub name: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("no device given (write e.g. sgmp:/dev/ttyS0,baud=2400)")]
    MissingDevice,
    #[error("unknown option '{option}' (known options: {known})")]
    UnknownOption { option: String, known: &'static str },
    #[error("option '{0}' needs a value, e.g. {0}={1}")]
    MissingValue(String, &'static str),
    #[error("option '{0}' is given twice")]
    Repeated(String),
    #[error("{option}={value} {problem}")]
    BadValue {
        option: String,
        value: String,
        problem: &'static str,
    },
    #[error("'{0}' is not HOST:PORT (write e.g. sgmp-tcp:10.0.0.5:4001)")]
    BadAddress(String),
    #[error("port '{0}' is not a number from 1 to 65535")]
    BadPort(String),
    #[error("cannot open {path}: {reason}")]
    Open { path: PathBuf, reason: String },
    #[error("cannot open {path}: another program is using it")]
    InUse { path: PathBuf },
    #[error("cannot set {what} on {path}: {reason}")]
    Setup {
        path: String,
        what: &'static str,
        reason: String,
    },
    #[error("cannot make a virtual line: {0}")]
    Virtual(String),
    #[error("cannot connect to {address}: {reason}")]
    Connect { address: String, reason: String },
}

const DEVICE_OPTIONS: &str = "baud, flow, resend, retries, setup, name";
const TCP_OPTIONS: &str = "resend, retries, setup, name";

impl LineSpec {
    /// Parses what follows `sgmp:`/`gmp:`
    /// (`/dev/ttyUSB0,baud=2400,flow=rtscts,resend=20s,retries=9,setup=3m,name=NAME`).
    /// Unset options: 2400 baud, no flow control, the protocol's own resend
    /// time and retry count, a set-up deadline of [`DEFAULT_SETUP`], the
    /// line's description as the name.
    pub fn parse_device(text: &str) -> Result<LineSpec, LineError> {
        let mut parts = text.split(',');
        let path = parts.next().unwrap_or("").trim();
        if path.is_empty() {
            return Err(LineError::MissingDevice);
        }
        let mut options = Options::parse(parts, DEVICE_OPTIONS)?;
        let baud = match options.take("baud") {
            None => DEFAULT_BAUD,
            Some(value) => match value.parse::<u32>() {
                Ok(0) => return Err(bad("baud", &value, "must be more than zero")),
                Ok(baud) => baud,
                Err(_) => return Err(bad("baud", &value, "is not a number")),
            },
        };
        let flow = match options.take("flow") {
            None => FlowControl::None,
            Some(value) => match value.to_ascii_lowercase().as_str() {
                "none" => FlowControl::None,
                "rtscts" => FlowControl::RtsCts,
                "xonxoff" => FlowControl::XonXoff,
                _ => return Err(bad("flow", &value, "is not none, rtscts or xonxoff")),
            },
        };
        options.finish(LineTarget::Device {
            path: PathBuf::from(path),
            baud,
            flow,
        })
    }

    /// Parses what follows `sgmp-tcp:`/`gmp-tcp:`
    /// (`host:port[,resend=20s][,retries=9][,setup=3m][,name=NAME]`).
    /// An IPv6 host is written in brackets: `[::1]:4001`.
    pub(crate) fn parse_tcp(text: &str) -> Result<LineSpec, LineError> {
        let mut parts = text.split(',');
        let address = parts.next().unwrap_or("").trim();
        let (host, port) = split_host_port(address)?;
        let options = Options::parse(parts, TCP_OPTIONS)?;
        options.finish(LineTarget::Tcp { host, port })
    }

    /// The set-up deadline: the spec's, or [`DEFAULT_SETUP`].
    pub(crate) fn setup_deadline(&self) -> Duration {
        self.setup.unwrap_or(DEFAULT_SETUP)
    }

    /// The program's name: `name=` when given, else the line's description.
    pub(crate) fn player_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.to_string())
    }
}

impl LineTarget {
    /// Where the line goes, for messages: the device path, or `tcp HOST:PORT`.
    pub fn place(&self) -> String {
        match self {
            LineTarget::Device { path, .. } => path.display().to_string(),
            LineTarget::Tcp { host, port } if host.contains(':') => format!("tcp [{host}]:{port}"),
            LineTarget::Tcp { host, port } => format!("tcp {host}:{port}"),
        }
    }
}

fn bad(option: &str, value: &str, problem: &'static str) -> LineError {
    LineError::BadValue {
        option: option.to_string(),
        value: value.to_string(),
        problem,
    }
}

fn split_host_port(address: &str) -> Result<(String, u16), LineError> {
    let bad_address = || LineError::BadAddress(address.to_string());
    let (host, port) = if let Some(rest) = address.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or_else(bad_address)?;
        (host, after.strip_prefix(':').ok_or_else(bad_address)?)
    } else {
        let (host, port) = address.rsplit_once(':').ok_or_else(bad_address)?;
        if host.contains(':') {
            return Err(bad_address());
        }
        (host, port)
    };
    if host.is_empty() {
        return Err(bad_address());
    }
    match port.parse::<u16>() {
        Ok(0) | Err(_) => Err(LineError::BadPort(port.to_string())),
        Ok(port) => Ok((host.to_string(), port)),
    }
}

/// The `key=value` options after the device or address, each at most once.
struct Options {
    pairs: Vec<(String, String)>,
}

impl Options {
    fn parse<'a>(
        parts: impl Iterator<Item = &'a str>,
        known: &'static str,
    ) -> Result<Options, LineError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (key, value) = match part.split_once('=') {
                Some((key, value)) => (key.trim().to_ascii_lowercase(), value.trim()),
                None => (part.to_ascii_lowercase(), ""),
            };
            let Some(example) = example_value(&key, known) else {
                return Err(LineError::UnknownOption { option: key, known });
            };
            if value.is_empty() {
                return Err(LineError::MissingValue(key, example));
            }
            if pairs.iter().any(|(k, _)| *k == key) {
                return Err(LineError::Repeated(key));
            }
            pairs.push((key, value.to_string()));
        }
        Ok(Options { pairs })
    }

    fn take(&mut self, key: &str) -> Option<String> {
        let at = self.pairs.iter().position(|(k, _)| k == key)?;
        Some(self.pairs.remove(at).1)
    }

    /// A duration option (`resend=`, `setup=`): longer than zero.
    fn duration(&mut self, key: &str) -> Result<Option<Duration>, LineError> {
        match self.take(key) {
            None => Ok(None),
            Some(value) => match parse_duration(&value) {
                Ok(d) if d.is_zero() => Err(bad(key, &value, "must be longer than zero")),
                Ok(d) => Ok(Some(d)),
                Err(_) => Err(bad(key, &value, "is not a duration such as 20s or 500ms")),
            },
        }
    }

    /// The options common to every kind of line (`resend=`, `retries=`,
    /// `setup=`, `name=`), with the target they go with.
    fn finish(mut self, target: LineTarget) -> Result<LineSpec, LineError> {
        let resend_after = self.duration("resend")?;
        let alarm_after = match self.take("retries") {
            None => None,
            Some(value) => match value.parse::<u32>() {
                Ok(n) => Some(n),
                Err(_) => return Err(bad("retries", &value, "is not a number")),
            },
        };
        let setup = self.duration("setup")?;
        let name = self.take("name");
        Ok(LineSpec {
            target,
            resend_after,
            alarm_after,
            setup,
            name,
        })
    }
}

/// An example value for a known option, `None` for an unknown one.
fn example_value(key: &str, known: &str) -> Option<&'static str> {
    let example = match key {
        "baud" => "2400",
        "flow" => "rtscts",
        "resend" => "20s",
        "retries" => "9",
        "setup" => "3m",
        "name" => "Many-Faces",
        _ => return None,
    };
    known.split(", ").any(|k| k == key).then_some(example)
}

impl fmt::Display for LineSpec {
    /// `/dev/ttyS0 2400 8N1 flow none`, `tcp 10.0.0.5:4001`, then
    /// ` resend 20s`, ` retries 9` and ` setup 3m` when set. The name is
    /// not part of the description.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            LineTarget::Device { path, baud, flow } => {
                write!(f, "{} {baud} 8N1 flow {}", path.display(), flow.name())?
            }
            LineTarget::Tcp { .. } => f.write_str(&self.target.place())?,
        }
        if let Some(resend) = self.resend_after {
            write!(f, " resend {}", format_duration(resend))?;
        }
        if let Some(retries) = self.alarm_after {
            write!(f, " retries {retries}")?;
        }
        if let Some(setup) = self.setup {
            write!(f, " setup {}", format_duration(setup))?;
        }
        Ok(())
    }
}
