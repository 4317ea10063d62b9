//! A venue's seat keys, in one folder: its certificate and key (made once,
//! the key readable by its owner only) and a token for each seated entrant
//! (file `tokens`, `ENTRANT TOKEN` a line, readable by its owner only),
//! and the passwords of the entrants who play with a CGOS client.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::transport::process::SECRET_VARIABLE;
use crate::transport::tls::{self, Identity, TlsError};
use goref_core::protocol::seat::Tokens;

const TOKENS_FILE: &str = "tokens";
const CGOS_PASSWORDS_FILE: &str = "cgos-passwords";

/// The venue's identity and every seated entrant's token.
pub struct SeatKeys {
    pub identity: Identity,
    pub tokens: Tokens,
    pub folder: PathBuf,
}

impl SeatKeys {
    /// The keys in `folder`, with a token made for each of `entrants` that
    /// has none yet; the certificate names `names`.
    pub fn load_or_make(
        folder: &Path,
        entrants: &[String],
        names: &[String],
    ) -> Result<SeatKeys, TlsError> {
        let (identity, _) = tls::load_or_make(folder, names)?;
        let path = folder.join(TOKENS_FILE);
        let file_error = |why: String| TlsError::File {
            path: path.clone(),
            why,
        };
        let mut by_entrant = read_secrets(&path)?;
        let missing: Vec<&String> = entrants
            .iter()
            .filter(|e| !by_entrant.contains_key(*e))
            .collect();
        if !missing.is_empty() {
            for entrant in missing {
                by_entrant.insert(entrant.clone(), new_token().map_err(file_error)?);
            }
            let text: String = by_entrant
                .iter()
                .map(|(entrant, token)| format!("{entrant} {token}\n"))
                .collect();
            tls::write_private(&path, &text).map_err(|e| file_error(e.to_string()))?;
        }
        Ok(SeatKeys {
            identity,
            tokens: Tokens::new(by_entrant),
            folder: folder.to_path_buf(),
        })
    }

    /// The command `entrant`'s operator runs, to which the program's
    /// command line is appended: the token goes in the environment, out of
    /// the arguments every user of the entrant's machine reads in `ps`.
    pub fn command_line(&self, address: &str, entrant: &str) -> Option<String> {
        let token = self.tokens.get(entrant)?;
        Some(format!(
            "{SECRET_VARIABLE}={token} goref seat {address} --entrant {entrant} --pin {} --",
            self.identity.fingerprint()
        ))
    }
}

/// The passwords of an event's CGOS entrants, in the keys folder (file
/// `cgos-passwords`, `ENTRANT PASSWORD` a line, readable by its owner
/// only): each entrant's password from the event file, else the one made
/// for it on the first run and kept.
pub fn cgos_passwords(
    folder: &Path,
    entrants: &[(String, Option<String>)],
) -> Result<Tokens, TlsError> {
    let path = folder.join(CGOS_PASSWORDS_FILE);
    let file_error = |why: String| TlsError::File {
        path: path.clone(),
        why,
    };
    let mut kept = read_secrets(&path)?;
    let before = kept.clone();
    let mut by_entrant = BTreeMap::new();
    for (entrant, given) in entrants {
        let password = match (given, kept.get(entrant)) {
            (Some(given), _) => given.clone(),
            (None, Some(made)) => made.clone(),
            (None, None) => new_token().map_err(file_error)?[..16].to_string(),
        };
        kept.insert(entrant.clone(), password.clone());
        by_entrant.insert(entrant.clone(), password);
    }
    if kept != before {
        let text: String = kept
            .iter()
            .map(|(entrant, password)| format!("{entrant} {password}\n"))
            .collect();
        tls::write_private(&path, &text).map_err(|e| file_error(e.to_string()))?;
    }
    Ok(Tokens::new(by_entrant))
}

/// The `ENTRANT SECRET` lines of `path`; none when it is not there yet.
fn read_secrets(path: &Path) -> Result<BTreeMap<String, String>, TlsError> {
    let file_error = |why: String| TlsError::File {
        path: path.to_path_buf(),
        why,
    };
    match crate::files::read_text(path, crate::files::SETTINGS_MAX) {
        Ok(text) => parse_tokens(&text).map_err(file_error),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(file_error(e.to_string())),
    }
}

fn parse_tokens(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut tokens = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            [entrant, token] => {
                tokens.insert(entrant.to_string(), token.to_string());
            }
            _ => return Err(format!("line {}: not 'ENTRANT TOKEN'", n + 1)),
        }
    }
    Ok(tokens)
}

/// 128 random bits from the system, in hex.
fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn each_entrant_gets_its_own_private_token_kept_across_runs() {
        let folder = tempfile::tempdir().unwrap();
        let names = vec!["localhost".to_string()];
        let first = SeatKeys::load_or_make(folder.path(), &["alpha".into()], &names).unwrap();
        let alpha = first.tokens.get("alpha").unwrap().to_string();
        assert_eq!(alpha.len(), 32);
        let mode = std::fs::metadata(folder.path().join(TOKENS_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = SeatKeys::load_or_make(folder.path(), &["alpha".into(), "beta".into()], &names)
            .unwrap();
        assert_eq!(again.tokens.get("alpha"), Some(alpha.as_str()));
        assert_ne!(again.tokens.get("beta"), Some(alpha.as_str()));
        let line = again
            .command_line("venue.example.org:6819", "beta")
            .unwrap();
        let token = again.tokens.get("beta").unwrap();
        assert!(line.starts_with(&format!(
            "GOREF_TOKEN={token} goref seat venue.example.org:6819 --entrant beta --pin "
        )));
        assert!(!line.contains("--token"), "{line}");
        assert!(line.ends_with(&format!("--pin {} --", again.identity.fingerprint())));
        assert_eq!(again.command_line("x:1", "gamma"), None);
    }

    #[test]
    fn a_cgos_password_is_made_once_kept_private_or_taken_from_the_event() {
        let folder = tempfile::tempdir().unwrap();
        let first = cgos_passwords(folder.path(), &[("alpha".into(), None)]).unwrap();
        let made = first.get("alpha").unwrap().to_string();
        assert_eq!(made.len(), 16);
        assert!(made.chars().all(|c| c.is_ascii_hexdigit()), "{made}");
        let path = folder.path().join(CGOS_PASSWORDS_FILE);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = cgos_passwords(
            folder.path(),
            &[
                ("alpha".into(), None),
                ("beta".into(), Some("betapw".into())),
            ],
        )
        .unwrap();
        assert_eq!(
            again.get("alpha"),
            Some(made.as_str()),
            "the same on every run"
        );
        assert_eq!(again.get("beta"), Some("betapw"));
        assert_eq!(again.check("beta", "betapw"), Ok(()));
    }

    #[test]
    fn a_damaged_tokens_file_is_named_not_overwritten() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join(TOKENS_FILE), "alpha\n").unwrap();
        let error = SeatKeys::load_or_make(folder.path(), &["alpha".into()], &[])
            .err()
            .unwrap();
        assert!(error.to_string().contains("line 1"), "{error}");
    }
}
