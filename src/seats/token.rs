//! Where `goref seat` finds its entrant's token: the environment
//! (`GOREF_TOKEN`) or a file only its owner can read, never the command
//! line, which every user of the machine reads in `ps`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::files::{read_text, SETTINGS_MAX};
use crate::transport::process::SECRET_VARIABLE;

/// The token from `from_environment` (the value of `GOREF_TOKEN`) or, if
/// none, from `file`, which must be a regular file readable by its owner
/// only, as ssh asks of its keys.
pub fn seat_token(from_environment: Option<String>, file: Option<&Path>) -> Result<String, String> {
    let from_environment = from_environment.filter(|token| !token.trim().is_empty());
    match (from_environment, file) {
        (Some(_), Some(file)) => Err(format!(
            "{SECRET_VARIABLE} and --token-file {} both give the token: keep one",
            file.display()
        )),
        (Some(token), None) => Ok(token.trim().to_string()),
        (None, Some(file)) => token_file(file),
        (None, None) => Err(format!(
            "no token: the venue's line gives it as {SECRET_VARIABLE}=TOKEN before goref seat \
             (or keep it in a file of mode 600 and give --token-file FILE)"
        )),
    }
}

fn token_file(file: &Path) -> Result<String, String> {
    let shown = file.display();
    let text = read_text(file, SETTINGS_MAX).map_err(|e| format!("--token-file {shown}: {e}"))?;
    let mode = std::fs::metadata(file)
        .map_err(|e| format!("--token-file {shown}: {e}"))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(format!(
            "--token-file {shown}: its mode {:o} lets others read the token: chmod 600 {shown}",
            mode & 0o777
        ));
    }
    let token = text.trim();
    match token.is_empty() || token.contains(char::is_whitespace) {
        true => Err(format!("--token-file {shown}: not one token on its own")),
        false => Ok(token.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(mode: u32, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("token");
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        (folder, path)
    }

    #[test]
    fn the_token_comes_from_the_environment_or_a_private_file() {
        assert_eq!(seat_token(Some("ab12\n".into()), None).unwrap(), "ab12");
        let (_keep, private) = file_of(0o600, "cd34\n");
        assert_eq!(seat_token(None, Some(&private)).unwrap(), "cd34");
        let both = seat_token(Some("ab12".into()), Some(&private)).unwrap_err();
        assert!(both.contains("keep one"), "{both}");
        let none = seat_token(Some(" ".into()), None).unwrap_err();
        assert!(none.contains("GOREF_TOKEN=TOKEN"), "{none}");
    }

    #[test]
    fn a_token_file_others_can_read_is_refused_as_ssh_refuses_a_key() {
        let (_keep, open) = file_of(0o644, "cd34\n");
        let error = seat_token(None, Some(&open)).unwrap_err();
        assert!(error.contains("mode 644"), "{error}");
        assert!(error.contains("chmod 600"), "{error}");
        let (_keep, two) = file_of(0o600, "cd34 ef56\n");
        assert!(seat_token(None, Some(&two)).is_err());
        let device = seat_token(None, Some(Path::new("/dev/zero"))).unwrap_err();
        assert!(device.contains("/dev/zero"), "{device}");
    }
}
