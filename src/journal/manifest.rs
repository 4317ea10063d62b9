//! The manifest: the SHA-256 of every file of a finished game, in the form
//! `sha256sum -c MANIFEST.sha256` checks, so that a disputed result can be
//! held against exactly what was written at the time.

use std::fs;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::folder::{MANIFEST, SOCKET};
use crate::files::write_atomically;

/// Writes the manifest of the folder's regular files (claims, the socket
/// and the manifest itself left out), sorted by name, and returns its text.
pub fn write(folder: &Path) -> std::io::Result<String> {
    let mut names: Vec<String> = fs::read_dir(folder)?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| {
            name != MANIFEST
                && name != SOCKET
                && !name.ends_with(".lock")
                && !name.ends_with(".tmp")
        })
        .collect();
    names.sort();
    let mut text = String::new();
    for name in names {
        let digest = sha256_of(&folder.join(&name))?;
        text.push_str(&format!("{digest}  {name}\n"));
    }
    write_atomically(&folder.join(MANIFEST), &text)?;
    Ok(text)
}

/// The files a manifest names, in its order.
pub fn manifest_files(manifest: &str) -> Vec<String> {
    manifest_entries(manifest)
        .into_iter()
        .map(|(_, name)| name)
        .collect()
}

/// A manifest's lines as `(sha256, file)` pairs, in its order.
pub fn manifest_entries(manifest: &str) -> Vec<(String, String)> {
    manifest
        .lines()
        .filter_map(|line| line.split_once("  "))
        .map(|(sum, name)| (sum.to_string(), name.to_string()))
        .collect()
}

/// The SHA-256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn sha256_of(path: &Path) -> std::io::Result<String> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 64 * 1024];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_is_what_sha256sum_checks() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("game.sgf"), "(;GM[1])").unwrap();
        fs::write(dir.path().join("journal.jsonl"), "abc").unwrap();
        fs::write(dir.path().join("journal.jsonl.lock"), "1").unwrap();
        let text = write(dir.path()).unwrap();
        assert_eq!(
            text.lines().nth(1).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  journal.jsonl"
        );
        assert_eq!(text.lines().count(), 2);
        let checked = std::process::Command::new("sha256sum")
            .args(["-c", "--quiet", MANIFEST])
            .current_dir(dir.path())
            .status();
        if let Ok(status) = checked {
            assert!(status.success());
        }
    }
}
