//! A NATS broker's own authentication and TLS, as every goref that reaches
//! one uses them: `--publish`, `--watch nats://…`, `goref match
//! --workers` and `goref worker`. A user and password, a `.creds` file
//! (a JWT and an nkey seed), and the CA of the broker's certificate, which
//! makes TLS required.
//!
//! Each may come from the environment ([`BrokerAuth::from_env`]), so that a
//! password need not stand on a command line, where `ps` shows it to every
//! user of the machine; a process's environment is readable by its own
//! user only. A worker hands its credentials to its games' gorefs this
//! way ([`BrokerAuth::env_pairs`]).

use std::path::PathBuf;

/// The user of the broker.
pub const ENV_USER: &str = "GOREF_NATS_USER";
/// The user's password.
pub const ENV_PASSWORD: &str = "GOREF_NATS_PASSWORD";
/// A `.creds` file.
pub const ENV_CREDS: &str = "GOREF_NATS_CREDS";
/// The CA of the broker's certificate.
pub const ENV_TLS_CA: &str = "GOREF_NATS_TLS_CA";

/// How a goref proves itself to a broker, and whom it trusts.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct BrokerAuth {
    pub user: Option<User>,
    pub creds: Option<PathBuf>,
    pub tls_ca: Option<PathBuf>,
}

impl std::fmt::Debug for BrokerAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrokerAuth")
            .field("user", &self.user.as_ref().map(|(user, _)| user))
            .field("creds", &self.creds)
            .field("tls_ca", &self.tls_ca)
            .finish()
    }
}

impl BrokerAuth {
    /// What the environment gives: a user with its password, a `.creds`
    /// file, a CA. A user without a password is no user.
    pub fn from_env() -> BrokerAuth {
        let var = |name| std::env::var(name).ok().filter(|value| !value.is_empty());
        BrokerAuth {
            user: var(ENV_USER).zip(var(ENV_PASSWORD)),
            creds: var(ENV_CREDS).map(PathBuf::from),
            tls_ca: var(ENV_TLS_CA).map(PathBuf::from),
        }
    }

    /// This, with what it lacks taken from `fallback`; a user or a
    /// `.creds` file given here keeps the other of `fallback` out.
    pub fn or(self, fallback: BrokerAuth) -> BrokerAuth {
        let proven = self.user.is_some() || self.creds.is_some();
        BrokerAuth {
            user: self.user.or(fallback.user.filter(|_| !proven)),
            creds: self.creds.or(fallback.creds.filter(|_| !proven)),
            tls_ca: self.tls_ca.or(fallback.tls_ca),
        }
    }

    /// Whether the broker is reached with no credentials and no TLS.
    pub fn is_none(&self) -> bool {
        self.user.is_none() && self.creds.is_none() && self.tls_ca.is_none()
    }

    /// The environment that hands these to another goref: files as
    /// absolute paths, since it may run elsewhere.
    pub fn env_pairs(&self) -> Vec<(&'static str, String)> {
        let absolute = |path: &PathBuf| {
            std::path::absolute(path)
                .unwrap_or_else(|_| path.clone())
                .to_string_lossy()
                .into_owned()
        };
        let mut pairs = Vec::new();
        if let Some((user, password)) = &self.user {
            pairs.push((ENV_USER, user.clone()));
            pairs.push((ENV_PASSWORD, password.clone()));
        }
        if let Some(creds) = &self.creds {
            pairs.push((ENV_CREDS, absolute(creds)));
        }
        if let Some(ca) = &self.tls_ca {
            pairs.push((ENV_TLS_CA, absolute(ca)));
        }
        pairs
    }

    /// `options` with these credentials and this CA.
    pub async fn apply(
        &self,
        mut options: async_nats::ConnectOptions,
    ) -> Result<async_nats::ConnectOptions, String> {
        if let Some((user, password)) = &self.user {
            options = options.user_and_password(user.clone(), password.clone());
        }
        if let Some(creds) = &self.creds {
            options = options
                .credentials_file(creds)
                .await
                .map_err(|e| format!("the credentials {}: {e}", creds.display()))?;
        }
        if let Some(ca) = &self.tls_ca {
            if !ca.is_file() {
                return Err(format!("the broker's CA {}: no such file", ca.display()));
            }
            options = options.add_root_certificates(ca.clone()).require_tls(true);
        }
        Ok(options)
    }
}

/// A user's name and password.
pub type User = (String, String);

/// Splits `USER:PASS@HOST…` into the user and the rest; an `@` without a
/// `USER:PASS` before it is an error.
pub fn split_user(rest: &str) -> Result<(Option<User>, &str), &'static str> {
    match rest
        .split_once('/')
        .map_or(rest, |(server, _)| server)
        .rsplit_once('@')
    {
        Some((user, _)) => {
            let (name, password) = user.split_once(':').ok_or("a user needs USER:PASS@")?;
            let host = &rest[user.len() + 1..];
            Ok((Some((name.to_string(), password.to_string())), host))
        }
        None => Ok((None, rest)),
    }
}

/// `HOST[:PORT]` as `HOST:PORT`, the port 4222 when it is left out.
pub fn server_of(host: &str) -> Result<String, &'static str> {
    match host.rsplit_once(':') {
        _ if host.is_empty() => Err("no host"),
        Some((name, port)) if !name.is_empty() && port.parse::<u16>().is_ok() => Ok(host.into()),
        Some(_) => Err("the port is not a number"),
        None => Ok(format!("{host}:4222")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_takes_the_default_port_and_refuses_a_bad_one() {
        assert_eq!(server_of("venue").unwrap(), "venue:4222");
        assert_eq!(server_of("127.0.0.1:4333").unwrap(), "127.0.0.1:4333");
        assert_eq!(server_of("venue:http"), Err("the port is not a number"));
        assert_eq!(server_of(":4222"), Err("the port is not a number"));
        assert_eq!(server_of(""), Err("no host"));
    }

    #[test]
    fn a_user_is_split_from_the_host_and_its_path() {
        let (user, rest) = split_user("ref:s3cr@t@venue:4222/cup/3").unwrap();
        assert_eq!(user, Some(("ref".into(), "s3cr@t".into())));
        assert_eq!(rest, "venue:4222/cup/3");
        assert_eq!(split_user("venue/a@b").unwrap(), (None, "venue/a@b"));
        assert!(split_user("nobody@venue").is_err());
    }

    #[test]
    fn given_credentials_keep_the_fallbacks_out_but_the_ca_fills_in() {
        let given = BrokerAuth {
            user: Some(("a".into(), "b".into())),
            ..BrokerAuth::default()
        };
        let fallback = BrokerAuth {
            user: None,
            creds: Some("x.creds".into()),
            tls_ca: Some("ca.pem".into()),
        };
        let merged = given.or(fallback.clone());
        assert_eq!(merged.creds, None);
        assert_eq!(merged.tls_ca, Some("ca.pem".into()));
        assert_eq!(BrokerAuth::default().or(fallback.clone()), fallback);
    }

    #[test]
    fn the_password_is_never_printed_in_debug() {
        let auth = BrokerAuth {
            user: Some(("ref".into(), "hunter2".into())),
            ..BrokerAuth::default()
        };
        assert!(!format!("{auth:?}").contains("hunter2"));
        let pairs = auth.env_pairs();
        assert!(pairs.contains(&(ENV_PASSWORD, "hunter2".into())));
    }
}
