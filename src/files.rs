//! The files goref writes: the record, the trace, the log, a bot's record.
//!
//! Every path goes through [`resolve_output`] first: it must name a regular
//! file or nothing yet, and a symlink is followed to the file it points at,
//! which is then what gets written (a device, a directory or a pipe is
//! refused before the game). A file that is already there is written over
//! or added to only when it is empty or holds what goref would write there
//! ([`Holds`]): a record path that leads to `/etc/passwd` is refused, not
//! replaced. The temporary file beside a record is made afresh, never
//! opened through a link left in its place. A file that is rewritten during the game is
//! guarded by a `FileLock`, so two gorefs never write one record, and is
//! replaced with `write_atomically`, so a reader never sees half of it.
//!
//! The files goref reads (settings, keys, themes, openings, journals) go
//! through [`read_text`] or [`read_bytes`]: only a regular file is read,
//! and only up to a bound, so `--config /dev/zero` is an error, not a hang.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The most a settings file (a game's, an event's, a match's, a worker's,
/// the keys, a theme, a seat's check card) may hold.
pub(crate) const SETTINGS_MAX: u64 = 1 << 20;
/// The most an openings file may hold.
pub(crate) const OPENINGS_MAX: u64 = 256 << 20;
/// The most a journal or a capture may hold.
pub(crate) const JOURNAL_MAX: u64 = 4 << 30;

/// Reads the regular file at `path` (a symlink is followed), refusing a
/// directory, a device or a pipe before it is opened, and a file longer
/// than `max` bytes.
pub(crate) fn read_bytes(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind};
    let kind = fs::metadata(path)?.file_type();
    if !kind.is_file() {
        let said = format!("{}, not a regular file", kind_of(kind));
        return Err(Error::new(ErrorKind::InvalidInput, said));
    }
    let mut bytes = Vec::new();
    File::open(path)?.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        let said = format!("longer than {}", size_in_words(max));
        return Err(Error::new(ErrorKind::InvalidData, said));
    }
    Ok(bytes)
}

/// [`read_bytes`], as UTF-8 text.
pub(crate) fn read_text(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read_bytes(path, max)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

fn size_in_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b => format!("{b} bytes"),
    }
}

/// How many symlinks are followed before giving up (Linux's own limit).
const MAX_SYMLINKS: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path} is {kind}, not a regular file; goref writes only regular files")]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{path}: too many levels of symbolic links")]
    SymlinkLoop { path: PathBuf },
    #[error("cannot use {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is being written by another goref (PID {holder}); choose another path")]
    Locked { path: PathBuf, holder: String },
    #[error(
        "{path}{via} already holds something other than {holds}, so goref will not write \
         over it: move it away or give another path"
    )]
    Foreign {
        path: PathBuf,
        via: String,
        holds: &'static str,
    },
}

/// What goref writes in a file, so that a file already there is taken as
/// goref's own (to write over or add to) only when it holds the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// An SGF record: the game's, or a bot's.
    SgfRecord,
    /// One JSON object a line: a trace, an event's journal.
    JsonLines,
    /// The `--log` file, whose lines start with a timestamp.
    Log,
    /// An HTML page goref made, such as an event's standings.
    Page,
    /// An event file in TOML, as `goref event new` writes it.
    EventFile,
    /// A lock file: the holder's PID.
    Pid,
}

impl Holds {
    fn described(self) -> &'static str {
        match self {
            Holds::SgfRecord => "an SGF record",
            Holds::JsonLines => "JSON lines",
            Holds::Log => "a goref log",
            Holds::Page => "an HTML page",
            Holds::EventFile => "an event file",
            Holds::Pid => "a process number",
        }
    }

    /// Whether a file that starts with `head` holds this kind of text.
    fn recognises(self, head: &[u8]) -> bool {
        if head.contains(&0) {
            return false;
        }
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        match self {
            Holds::SgfRecord => text
                .strip_prefix('(')
                .is_some_and(|rest| rest.trim_start().starts_with(';')),
            Holds::JsonLines => text.starts_with('{'),
            Holds::Log => {
                let date = text.as_bytes();
                date.len() >= 11
                    && date[..4].iter().all(u8::is_ascii_digit)
                    && date[4] == b'-'
                    && date[7] == b'-'
                    && date[10] == b'T'
            }
            Holds::Page => text
                .get(..15)
                .is_some_and(|start| start.eq_ignore_ascii_case("<!DOCTYPE html>")),
            Holds::EventFile => text.starts_with('#') || text.starts_with('['),
            Holds::Pid => text.trim_end().bytes().all(|b| b.is_ascii_digit()),
        }
    }
}

/// How much of a file already there is read to tell what it holds.
const HEAD_BYTES: u64 = 4096;

impl FileError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The file that writing to `path` would write: `path` itself, or the end
/// of its chain of symlinks. It must not exist yet, or be a regular file
/// that is empty or [`Holds`] what goref writes there.
pub(crate) fn resolve_output(path: &Path, holds: Holds) -> Result<PathBuf, FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        let meta = match fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(FileError::io(&current)(e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let target = fs::read_link(&current).map_err(FileError::io(&current))?;
            current = match current.parent() {
                Some(parent) if target.is_relative() => parent.join(target),
                _ => target,
            };
            continue;
        }
        if kind.is_file() {
            return own_or_empty(path, current, meta.len(), holds);
        }
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(kind),
        });
    }
    Err(FileError::SymlinkLoop {
        path: path.to_path_buf(),
    })
}

/// What kind of file this is, in words.
pub(crate) fn kind_of(kind: fs::FileType) -> &'static str {
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// `target` (the regular file `path` leads to, `len` bytes long) if it is
/// empty or holds what goref writes there.
fn own_or_empty(
    path: &Path,
    target: PathBuf,
    len: u64,
    holds: Holds,
) -> Result<PathBuf, FileError> {
    if len == 0 {
        return Ok(target);
    }
    let mut head = Vec::new();
    File::open(&target)
        .and_then(|file| file.take(HEAD_BYTES).read_to_end(&mut head))
        .map_err(FileError::io(path))?;
    if holds.recognises(&head) {
        return Ok(target);
    }
    let via = match target == path {
        true => String::new(),
        false => format!(" (which leads to {})", target.display()),
    };
    Err(FileError::Foreign {
        path: path.to_path_buf(),
        via,
        holds: holds.described(),
    })
}

/// Whether two resolved output paths name the same file: the same inode when
/// both exist, else the same path once their folders are canonical.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) {
        return ma.dev() == mb.dev() && ma.ino() == mb.ino();
    }
    let canonical = |p: &Path| {
        let parent = p.parent().filter(|p| !p.as_os_str().is_empty());
        let folder = fs::canonicalize(parent.unwrap_or(Path::new("."))).ok()?;
        Some(folder.join(p.file_name()?))
    };
    match (canonical(a), canonical(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// `path` with `suffix` added to its file name: `game.sgf` → `game.sgf.lock`.
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// An exclusive claim on an output file for the whole game, held as a lock
/// on `FILE.lock` beside it, which also names the holder's PID. The lock
/// goes with the process, so a goref that was killed leaves no stale claim;
/// the lock file is removed when the claim is dropped.
#[derive(Debug)]
pub(crate) struct FileLock {
    path: PathBuf,
    _file: File,
}

impl FileLock {
    /// Claims `target` (an already resolved output path), or says who holds it.
    pub(crate) fn acquire(target: &Path) -> Result<FileLock, FileError> {
        let path = resolve_output(&with_suffix(target, ".lock"), Holds::Pid)?;
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(FileError::io(&path))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = match holder.trim() {
                        "" => "unknown".to_string(),
                        pid => pid.to_string(),
                    };
                    return Err(FileError::Locked {
                        path: target.to_path_buf(),
                        holder,
                    });
                }
                Err(TryLockError::Error(e)) => return Err(FileError::io(&path)(e)),
            }
            // The last holder removes the file as it lets go: if it did so
            // after we opened it, our lock is on a file nobody else sees.
            let ours = file.metadata().map_err(FileError::io(&path))?;
            let still_there = fs::metadata(&path)
                .is_ok_and(|now| now.dev() == ours.dev() && now.ino() == ours.ino());
            if !still_there {
                continue;
            }
            file.set_len(0).map_err(FileError::io(&path))?;
            writeln!(file, "{}", std::process::id()).map_err(FileError::io(&path))?;
            return Ok(FileLock { path, _file: file });
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Replaces `path` with `text`: written to `PATH.tmp` beside it, synced,
/// and renamed over it. On failure the temporary file is removed and
/// `path` keeps its last complete text.
pub(crate) fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    replace(path, text, true)
}

/// Replaces `path` with `text` as `write_atomically` does, syncing the
/// new text first only when `sync` says so: a reader never sees half a
/// file either way, but only a synced one survives a power cut.
///
/// Unsynced, the new text is swapped with the old (`RENAME_EXCHANGE`) and
/// the old one unlinked, where the file system can: a plain rename over a
/// file makes ext4 write the new text out at once (`auto_da_alloc`), which
/// is the cost of a sync without its promise. Swapped, the text is written
/// back later, once for however many versions replaced each other.
pub(crate) fn replace(path: &Path, text: &str, sync: bool) -> std::io::Result<()> {
    let tmp = with_suffix(path, ".tmp");
    let written = (|| {
        let mut file = fresh_file(&tmp)?;
        file.write_all(text.as_bytes())?;
        if sync {
            file.sync_data()?;
            return fs::rename(&tmp, path);
        }
        drop(file);
        match exchange(&tmp, path) {
            Ok(()) => fs::remove_file(&tmp),
            Err(_) => fs::rename(&tmp, path),
        }
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A new, empty file at `path`, made afresh: whatever was left there (a
/// temporary file from a goref that was killed, or a link) is removed, not
/// opened, so nothing is written through a link to another file.
fn fresh_file(path: &Path) -> std::io::Result<File> {
    let create = || OpenOptions::new().write(true).create_new(true).open(path);
    match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            fs::remove_file(path)?;
            create()
        }
        made => made,
    }
}

/// Swaps two files' names in one step.
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Resolves `path` and writes `text` to it atomically: for files written
/// once, such as a bot's record.
pub(crate) fn write_output(path: &Path, text: &str, holds: Holds) -> Result<(), FileError> {
    let target = resolve_output(path, holds)?;
    write_atomically(&target, text).map_err(FileError::io(path))
}

/// The longest path a Unix socket's address holds (`sun_path`, less its
/// closing NUL).
const SOCKET_PATH_MAX: usize = 107;

/// A Unix socket's path as `bind` and `connect` take it. A game folder deep
/// in a long path (a worker's `--dir`, an event under a long home) has an
/// `attach.sock` longer than a socket's address holds; such a path is
/// reached through its folder, held open, as `/proc/self/fd/N/NAME`. The
/// folder stays open while this lives.
#[derive(Debug)]
pub(crate) struct SocketPath {
    path: PathBuf,
    _folder: Option<File>,
}

impl SocketPath {
    /// The path to bind or connect for the socket at `path`.
    pub(crate) fn of(path: &Path) -> std::io::Result<SocketPath> {
        use std::os::fd::AsRawFd;
        let whole = SocketPath {
            path: path.to_path_buf(),
            _folder: None,
        };
        if path.as_os_str().len() <= SOCKET_PATH_MAX {
            return Ok(whole);
        }
        let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(whole);
        };
        let folder = File::open(folder)?;
        Ok(SocketPath {
            path: Path::new(&format!("/proc/self/fd/{}", folder.as_raw_fd())).join(name),
            _folder: Some(folder),
        })
    }

    /// The path to hand to `bind` or `connect`.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_deeper_than_an_address_holds_is_bound_and_reached() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a-folder-name-long-enough".repeat(4));
        fs::create_dir_all(&deep).unwrap();
        let socket = deep.join("attach.sock");
        assert!(socket.as_os_str().len() > SOCKET_PATH_MAX);
        assert!(std::os::unix::net::UnixListener::bind(&socket).is_err());
        let bound = SocketPath::of(&socket).unwrap();
        let listener = std::os::unix::net::UnixListener::bind(bound.path()).unwrap();
        assert!(socket.exists(), "the socket is where it was asked for");
        let reach = SocketPath::of(&socket).unwrap();
        let _client = std::os::unix::net::UnixStream::connect(reach.path()).unwrap();
        assert!(listener.accept().is_ok());
        let short = dir.path().join("attach.sock");
        assert_eq!(SocketPath::of(&short).unwrap().path(), short);
    }

    #[test]
    fn only_a_regular_file_within_its_bound_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let settings = dir.path().join("game.toml");
        fs::write(&settings, "size = 9\n").unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&settings, &link).unwrap();
        assert_eq!(read_text(&link, SETTINGS_MAX).unwrap(), "size = 9\n");
        for (path, kind) in [("/dev/zero", "a character device"), ("/tmp", "a directory")] {
            let error = read_text(Path::new(path), SETTINGS_MAX).unwrap_err();
            assert_eq!(error.to_string(), format!("{kind}, not a regular file"));
        }
        let big = dir.path().join("big.toml");
        fs::write(&big, vec![b'#'; 1025]).unwrap();
        let error = read_text(&big, 1024).unwrap_err();
        assert_eq!(error.to_string(), "longer than 1024 bytes");
        assert_eq!(read_bytes(&big, 1025).unwrap().len(), 1025);
        fs::write(&big, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_text(&big, 8).unwrap_err().to_string(),
            "not UTF-8 text"
        );
        let missing = read_text(&dir.path().join("none"), 8).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn devices_directories_and_pipes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (path, kind) in [
            (PathBuf::from("/dev/full"), "a character device"),
            (dir.path().to_path_buf(), "a directory"),
        ] {
            let error = resolve_output(&path, Holds::SgfRecord).unwrap_err();
            assert!(error.to_string().contains(kind), "{error}");
        }
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error = resolve_output(&fifo, Holds::SgfRecord).unwrap_err();
        assert!(error.to_string().contains("a named pipe"), "{error}");
    }

    #[test]
    fn a_symlink_is_followed_to_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/target.sgf");
        fs::write(&target, "(;C[old])").unwrap();
        let link = dir.path().join("link.sgf");
        std::os::unix::fs::symlink("real/target.sgf", &link).unwrap();
        assert_eq!(
            resolve_output(&link, Holds::SgfRecord).unwrap(),
            dir.path().join("real/target.sgf")
        );
        write_output(&link, "(;C[new])", Holds::SgfRecord).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "(;C[new])");

        let dangling = dir.path().join("dangling.sgf");
        std::os::unix::fs::symlink("real/later.sgf", &dangling).unwrap();
        assert_eq!(
            resolve_output(&dangling, Holds::SgfRecord).unwrap(),
            dir.path().join("real/later.sgf")
        );

        let to_device = dir.path().join("device.sgf");
        std::os::unix::fs::symlink("/dev/null", &to_device).unwrap();
        assert!(resolve_output(&to_device, Holds::SgfRecord).is_err());

        let looped = dir.path().join("loop.sgf");
        std::os::unix::fs::symlink("loop.sgf", &looped).unwrap();
        let error = resolve_output(&looped, Holds::SgfRecord).unwrap_err();
        assert!(error.to_string().contains("symbolic links"), "{error}");
    }

    #[test]
    fn a_file_that_is_not_gorefs_kind_is_refused_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let passwd = dir.path().join("passwd");
        let precious = "root:x:0:0:root:/root:/bin/bash\n";
        fs::write(&passwd, precious).unwrap();
        let error = write_output(&passwd, "(;)", Holds::SgfRecord).unwrap_err();
        assert!(matches!(error, FileError::Foreign { .. }), "{error}");
        assert!(error.to_string().contains("an SGF record"), "{error}");

        let link = dir.path().join("game.sgf");
        std::os::unix::fs::symlink(&passwd, &link).unwrap();
        let error = resolve_output(&link, Holds::SgfRecord).unwrap_err();
        let said = error.to_string();
        assert!(said.contains("game.sgf"), "{said}");
        assert!(
            said.contains(&format!("leads to {}", passwd.display())),
            "{said}"
        );
        for holds in [Holds::JsonLines, Holds::Log, Holds::Page, Holds::Pid] {
            assert!(resolve_output(&link, holds).is_err(), "{holds:?}");
        }
        let lock_link = dir.path().join("record.sgf.lock");
        std::os::unix::fs::symlink(&passwd, &lock_link).unwrap();
        assert!(FileLock::acquire(&dir.path().join("record.sgf")).is_err());
        assert_eq!(fs::read_to_string(&passwd).unwrap(), precious);

        let binary = dir.path().join("binary.sgf");
        fs::write(&binary, b"(;\0\x7fELF").unwrap();
        assert!(resolve_output(&binary, Holds::SgfRecord).is_err());
    }

    #[test]
    fn each_kind_takes_what_goref_writes_there_and_an_empty_file() {
        let dir = tempfile::tempdir().unwrap();
        let own = [
            (Holds::SgfRecord, "\u{feff}\n( ;FF[4]GM[1]SZ[9])"),
            (Holds::JsonLines, "{\"type\":\"game_start\"}\n"),
            (
                Holds::Log,
                "2026-11-27T08:20:54.123456Z  INFO goref: started\n",
            ),
            (Holds::Page, "<!doctype html>\n<html>"),
            (Holds::EventFile, "# The event file\n[event]\n"),
            (Holds::Pid, "4242\n"),
        ];
        for (i, (holds, text)) in own.iter().enumerate() {
            let path = dir.path().join(format!("own{i}"));
            fs::write(&path, text).unwrap();
            assert_eq!(resolve_output(&path, *holds).unwrap(), path, "{holds:?}");
            for (j, (other, _)) in own.iter().enumerate() {
                if i != j {
                    assert!(
                        resolve_output(&path, *other).is_err(),
                        "{holds:?} as {other:?}"
                    );
                }
            }
        }
        let empty = dir.path().join("empty");
        fs::write(&empty, "").unwrap();
        assert!(resolve_output(&empty, Holds::SgfRecord).is_ok());
    }

    #[test]
    fn a_link_left_where_the_temporary_file_goes_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::write(&elsewhere, "keep").unwrap();
        let path = dir.path().join("game.sgf");
        std::os::unix::fs::symlink(&elsewhere, dir.path().join("game.sgf.tmp")).unwrap();
        write_atomically(&path, "(;)").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;)");
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "keep");
        assert!(!dir.path().join("game.sgf.tmp").exists());
    }

    #[test]
    fn a_second_claim_names_the_holder_and_the_claim_goes_with_its_holder() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("game.sgf");
        let first = FileLock::acquire(&record).unwrap();
        let lock_file = dir.path().join("game.sgf.lock");
        let holder = fs::read_to_string(&lock_file).unwrap();
        assert_eq!(holder.trim(), std::process::id().to_string());
        let error = FileLock::acquire(&record).unwrap_err();
        assert!(
            error
                .to_string()
                .contains(&format!("PID {}", std::process::id())),
            "{error}"
        );
        drop(first);
        assert!(!lock_file.exists());
        let _again = FileLock::acquire(&record).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_last_complete_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        write_atomically(&path, "(;)").unwrap();
        fs::create_dir(dir.path().join("game.sgf.tmp")).unwrap();
        assert!(write_atomically(&path, "(;C[x])").is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;)");
    }

    #[test]
    fn the_same_file_is_recognised_through_different_spellings() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.sgf");
        let dotted = dir.path().join(".").join("a.sgf");
        assert!(same_file(&a, &dotted));
        fs::write(&a, "").unwrap();
        assert!(same_file(&a, &dotted));
        assert!(!same_file(&a, &dir.path().join("b.sgf")));
    }
}
