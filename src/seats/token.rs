//! Where `goref seat` finds its entrant's token (`GOREF_TOKEN`) or its
//! CGOS password (`GOREF_CGOS_PASSWORD`): the environment or a file only
//! its owner can read, never the command line, which every user of the
//! machine reads in `ps`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::files::{read_text, SETTINGS_MAX};
use crate::transport::process::{CGOS_PASSWORD_VARIABLE, SECRET_VARIABLE};

/// Where one secret may come from: an environment variable or a file
/// given by a flag, and what it is called in messages.
struct SecretSource {
    variable: &'static str,
    flag: &'static str,
    what: &'static str,
    /// How the operator sets the variable, as the venue or server gives it.
    hint: &'static str,
}

/// The token from `from_environment` (the value of `GOREF_TOKEN`) or, if
/// none, from `file`, which must be a regular file readable by its owner
/// only, as ssh asks of its keys.
pub fn seat_token(from_environment: Option<String>, file: Option<&Path>) -> Result<String, String> {
    let source = SecretSource {
        variable: SECRET_VARIABLE,
        flag: "--token-file",
        what: "token",
        hint: "the venue's line gives it as GOREF_TOKEN=TOKEN before goref seat",
    };
    secret(&source, from_environment, file)
}

/// A CGOS password from `from_environment` (the value of
/// [`CGOS_PASSWORD_VARIABLE`]) or, if none, from `file`, kept as a token is.
pub fn cgos_password(
    from_environment: Option<String>,
    file: Option<&Path>,
) -> Result<String, String> {
    let source = SecretSource {
        variable: CGOS_PASSWORD_VARIABLE,
        flag: "--password-file",
        what: "password",
        hint: "give it as GOREF_CGOS_PASSWORD=PASSWORD before goref seat cgos://...",
    };
    secret(&source, from_environment, file)
}

fn secret(
    source: &SecretSource,
    from_environment: Option<String>,
    file: Option<&Path>,
) -> Result<String, String> {
    let SecretSource {
        variable,
        flag,
        what,
        hint,
    } = source;
    let from_environment = from_environment.filter(|secret| !secret.trim().is_empty());
    match (from_environment, file) {
        (Some(_), Some(file)) => Err(format!(
            "{variable} and {flag} {} both give the {what}: keep one",
            file.display()
        )),
        (Some(secret), None) => Ok(secret.trim().to_string()),
        (None, Some(file)) => secret_file(source, file),
        (None, None) => Err(format!(
            "no {what}: {hint} (or keep it in a file of mode 600 and give {flag} FILE)"
        )),
    }
}

fn secret_file(source: &SecretSource, file: &Path) -> Result<String, String> {
    let (flag, what) = (source.flag, source.what);
    let shown = file.display();
    let text = read_text(file, SETTINGS_MAX).map_err(|e| format!("{flag} {shown}: {e}"))?;
    let mode = std::fs::metadata(file)
        .map_err(|e| format!("{flag} {shown}: {e}"))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(format!(
            "{flag} {shown}: its mode {:o} lets others read the {what}: chmod 600 {shown}",
            mode & 0o777
        ));
    }
    let secret = text.trim();
    match secret.is_empty() || secret.contains(char::is_whitespace) {
        true => Err(format!("{flag} {shown}: not one {what} on its own")),
        false => Ok(secret.to_string()),
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
        let (_keep, open_password) = file_of(0o640, "pw\n");
        let error = cgos_password(None, Some(&open_password)).unwrap_err();
        assert!(
            error.contains("--password-file") && error.contains("the password"),
            "{error}"
        );
        let none = cgos_password(None, None).unwrap_err();
        assert!(none.contains("GOREF_CGOS_PASSWORD=PASSWORD"), "{none}");
        let device = seat_token(None, Some(Path::new("/dev/zero"))).unwrap_err();
        assert!(device.contains("/dev/zero"), "{device}");
    }
}
