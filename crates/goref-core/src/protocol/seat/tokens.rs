//! Who may sit at the venue: each seated entrant's secret token, compared
//! in constant time.

use std::collections::BTreeMap;

/// Why a `hello` is not let in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokensError {
    #[error("'{0}' is not a seated entrant of this event")]
    UnknownEntrant(String),
    #[error("wrong token for '{0}'")]
    WrongToken(String),
}

/// The tokens of every seated entrant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    by_entrant: BTreeMap<String, String>,
}

impl Tokens {
    pub fn new(by_entrant: BTreeMap<String, String>) -> Tokens {
        Tokens { by_entrant }
    }

    pub fn entrants(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_entrant
            .iter()
            .map(|(name, token)| (name.as_str(), token.as_str()))
    }

    pub fn get(&self, entrant: &str) -> Option<&str> {
        self.by_entrant.get(entrant).map(String::as_str)
    }

    /// Whether `token` is `entrant`'s. The comparison takes the same time
    /// wherever the first difference is.
    pub fn check(&self, entrant: &str, token: &str) -> Result<(), TokensError> {
        let expected = self
            .by_entrant
            .get(entrant)
            .ok_or_else(|| TokensError::UnknownEntrant(entrant.to_string()))?;
        if constant_time_eq(expected.as_bytes(), token.as_bytes()) {
            Ok(())
        } else {
            Err(TokensError::WrongToken(entrant.to_string()))
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_entrants_own_token_lets_it_in() {
        let tokens = Tokens::new(BTreeMap::from([
            ("alpha".to_string(), "aaaa1111".to_string()),
            ("beta".to_string(), "bbbb2222".to_string()),
        ]));
        assert_eq!(tokens.check("alpha", "aaaa1111"), Ok(()));
        assert_eq!(
            tokens.check("alpha", "bbbb2222"),
            Err(TokensError::WrongToken("alpha".into()))
        );
        assert!(tokens.check("alpha", "aaaa111").is_err());
        assert!(tokens.check("alpha", "").is_err());
        assert_eq!(
            tokens.check("gamma", "aaaa1111"),
            Err(TokensError::UnknownEntrant("gamma".into()))
        );
    }
}
