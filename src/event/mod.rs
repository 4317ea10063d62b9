//! A tournament in one folder: the event file a director writes, and the
//! commands that run the event from it.
//!
//! - [`file`](mod@file): `DIR/event.toml`, read and checked, and its commented
//!   template.
//! - [`log`]: `DIR/event.jsonl`, the event's journal and stream.
//! - [`state`]: the event as the file and the journal say it stands.
//! - [`pairing`]: the next round's pairing, proposed.
//! - [`init`]: `goref event init DIR`.

pub mod file;
pub mod log;
pub mod pairing;
pub mod state;

use std::path::Path;

use file::{EVENT_FILE, TEMPLATE};

/// Writes the commented event file into `dir`, creating the folder; an
/// event file already there is left alone.
pub fn init(dir: &Path) -> Result<std::path::PathBuf, String> {
    let path = dir.join(EVENT_FILE);
    if path.exists() {
        return Err(format!(
            "{} already exists: edit it, or give another folder",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    crate::files::write_atomically(&path, TEMPLATE)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}
