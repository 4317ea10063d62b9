//! TLS for the seats: the venue's own certificate, made once and kept in a
//! folder with its key readable by its owner only, its SHA-256 fingerprint
//! (`sha256:HEX`), which a seat pins instead of trusting any authority,
//! and the rustls configurations of both ends.

use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{ring as provider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

const CERT_FILE: &str = "venue.crt";
const KEY_FILE: &str = "venue.key";

/// A TLS identity that could not be made, read or used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: {why}")]
    File { path: PathBuf, why: String },
    #[error("cannot make a certificate: {0}")]
    Generate(String),
    #[error("'{0}' is not a pin: it is sha256: and 64 hex digits")]
    BadPin(String),
    #[error("TLS: {0}")]
    Config(String),
}

/// The venue's certificate and key.
pub struct Identity {
    pub certificate: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl Identity {
    /// The pin a seat gives with `--pin`.
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.certificate)
    }

    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, TlsError> {
        let config =
            rustls::ServerConfig::builder_with_provider(Arc::new(provider::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(|e| TlsError::Config(e.to_string()))?
                .with_no_client_auth()
                .with_single_cert(vec![self.certificate.clone()], self.key.clone_key())
                .map_err(|e| TlsError::Config(e.to_string()))?;
        Ok(Arc::new(config))
    }
}

/// The identity kept in `folder`, made there first if there is none. The
/// certificate names `names` (the host names and addresses seats dial);
/// the key file is readable by its owner only.
pub fn load_or_make(folder: &Path, names: &[String]) -> Result<(Identity, bool), TlsError> {
    let (cert_path, key_path) = (folder.join(CERT_FILE), folder.join(KEY_FILE));
    let file_error = |path: &Path, why: String| TlsError::File {
        path: path.to_path_buf(),
        why,
    };
    if cert_path.exists() || key_path.exists() {
        let certificate = CertificateDer::from_pem_file(&cert_path)
            .map_err(|e| file_error(&cert_path, e.to_string()))?;
        let key = PrivateKeyDer::from_pem_file(&key_path)
            .map_err(|e| file_error(&key_path, e.to_string()))?;
        return Ok((Identity { certificate, key }, false));
    }
    let made = rcgen::generate_simple_self_signed(names.to_vec())
        .map_err(|e| TlsError::Generate(e.to_string()))?;
    std::fs::create_dir_all(folder).map_err(|e| file_error(folder, e.to_string()))?;
    write_private(&key_path, &made.signing_key.serialize_pem())
        .map_err(|e| file_error(&key_path, e.to_string()))?;
    std::fs::write(&cert_path, made.cert.pem())
        .map_err(|e| file_error(&cert_path, e.to_string()))?;
    let identity = Identity {
        certificate: made.cert.der().clone(),
        key: PrivateKeyDer::try_from(made.signing_key.serialize_der())
            .map_err(|e| TlsError::Generate(e.to_string()))?,
    };
    Ok((identity, true))
}

/// Writes `text` to a new file only its owner may read.
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// `sha256:` and the certificate's digest in lower-case hex.
pub fn fingerprint(certificate: &CertificateDer<'_>) -> String {
    let digest = Sha256::digest(certificate.as_ref());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// A client that trusts exactly the certificate whose fingerprint is `pin`.
pub fn pinned_client_config(pin: &str) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    let hex = pin
        .strip_prefix("sha256:")
        .filter(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| TlsError::BadPin(pin.to_string()))?;
    let provider = Arc::new(provider::default_provider());
    let verifier = PinnedVerifier {
        pin: format!("sha256:{}", hex.to_ascii_lowercase()),
        provider: provider.clone(),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Accepts the one certificate pinned, whatever name it carries, and checks
/// the handshake's signatures against it as usual.
#[derive(Debug)]
struct PinnedVerifier {
    pin: String,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ServerCertVerifier for PinnedVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = fingerprint(end_entity);
        if seen == self.pin {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "the venue's certificate is {seen}, not the pinned {}",
                self.pin
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_is_made_once_with_a_private_key_and_read_back_the_same() {
        let folder = tempfile::tempdir().unwrap();
        let names = vec!["localhost".to_string(), "127.0.0.1".to_string()];
        let (made, new) = load_or_make(folder.path(), &names).unwrap();
        assert!(new);
        let mode = std::fs::metadata(folder.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let (again, new) = load_or_make(folder.path(), &names).unwrap();
        assert!(!new);
        assert_eq!(made.fingerprint(), again.fingerprint());
        assert!(made.fingerprint().starts_with("sha256:"));
        assert_eq!(made.fingerprint().len(), 7 + 64);
        assert!(again.server_config().is_ok());
    }

    #[test]
    fn a_pin_must_be_a_sha256_fingerprint() {
        assert!(pinned_client_config(&format!("sha256:{}", "ab".repeat(32))).is_ok());
        for bad in [
            "",
            "sha256:abc",
            "md5:00",
            &format!("sha256:{}", "zz".repeat(32)),
        ] {
            assert!(matches!(
                pinned_client_config(bad),
                Err(TlsError::BadPin(_))
            ));
        }
    }
}
