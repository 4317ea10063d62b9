//! The files goref writes: the record, the trace, the log, a bot's record.
//!
//! Every path goes through [`resolve_output`] first: it must name a regular
//! file or nothing yet, and a symlink is followed to the file it points at,
//! which is then what gets written (a device, a directory or a pipe is
//! refused before the game). A file that is rewritten during the game is
//! guarded by a [`FileLock`], so two gorefs never write one record, and is
//! replaced with `write_atomically`, so a reader never sees half of it.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

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
}

impl FileError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The file that writing to `path` would write: `path` itself, or the end
/// of its chain of symlinks. It must be a regular file or not exist.
pub fn resolve_output(path: &Path) -> Result<PathBuf, FileError> {
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
            return Ok(current);
        }
        let kind = if kind.is_dir() {
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
        };
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    Err(FileError::SymlinkLoop {
        path: path.to_path_buf(),
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
pub struct FileLock {
    path: PathBuf,
    _file: File,
}

impl FileLock {
    /// Claims `target` (an already resolved output path), or says who holds it.
    pub(crate) fn acquire(target: &Path) -> Result<FileLock, FileError> {
        let path = resolve_output(&with_suffix(target, ".lock"))?;
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
pub fn replace(path: &Path, text: &str, sync: bool) -> std::io::Result<()> {
    let tmp = with_suffix(path, ".tmp");
    let written = (|| {
        let mut file = File::create(&tmp)?;
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
pub fn write_output(path: &Path, text: &str) -> Result<(), FileError> {
    let target = resolve_output(path)?;
    write_atomically(&target, text).map_err(FileError::io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_pipes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (path, kind) in [
            (PathBuf::from("/dev/full"), "a character device"),
            (dir.path().to_path_buf(), "a directory"),
        ] {
            let error = resolve_output(&path).unwrap_err();
            assert!(error.to_string().contains(kind), "{error}");
        }
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error = resolve_output(&fifo).unwrap_err();
        assert!(error.to_string().contains("a named pipe"), "{error}");
    }

    #[test]
    fn a_symlink_is_followed_to_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/target.sgf");
        fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.sgf");
        std::os::unix::fs::symlink("real/target.sgf", &link).unwrap();
        assert_eq!(
            resolve_output(&link).unwrap(),
            dir.path().join("real/target.sgf")
        );
        write_output(&link, "new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");

        let dangling = dir.path().join("dangling.sgf");
        std::os::unix::fs::symlink("real/later.sgf", &dangling).unwrap();
        assert_eq!(
            resolve_output(&dangling).unwrap(),
            dir.path().join("real/later.sgf")
        );

        let to_device = dir.path().join("device.sgf");
        std::os::unix::fs::symlink("/dev/null", &to_device).unwrap();
        assert!(resolve_output(&to_device).is_err());

        let looped = dir.path().join("loop.sgf");
        std::os::unix::fs::symlink("loop.sgf", &looped).unwrap();
        let error = resolve_output(&looped).unwrap_err();
        assert!(error.to_string().contains("symbolic links"), "{error}");
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
