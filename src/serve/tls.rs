//! `serve --tls-cert-file/--tls-private-key-file`: the PEM files read once at start into rustls's
//! server configuration (rustls through tokio-rustls, with the ring provider kube already uses; TLS
//! 1.2 and 1.3, no client certificates). A file that cannot be used is one error naming it, before
//! the port is bound.

use std::path::Path;
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::settings::TlsFiles;
use crate::source::error::SourceError;

/// The acceptor for `files`.
pub(crate) fn acceptor(files: &TlsFiles) -> Result<TlsAcceptor, SourceError> {
    let certs = certificates(&files.cert)?;
    let key = PrivateKeyDer::from_pem_file(&files.key)
        .map_err(|e| bad(&files.key, &pem_error(&e, "private key")))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(&files.cert, &e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| bad(&files.key, &format!("it does not match the certificate or is not usable ({e})")))?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// Every certificate of a PEM file, at least one.
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, SourceError> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
        .map_err(|e| bad(path, &pem_error(&e, "certificate")))?
        .collect::<Result<_, _>>()
        .map_err(|e| bad(path, &pem_error(&e, "certificate")))?;
    if certs.is_empty() {
        return Err(bad(path, "no PEM certificate (-----BEGIN CERTIFICATE-----) in it"));
    }
    Ok(certs)
}

fn pem_error(e: &tokio_rustls::rustls::pki_types::pem::Error, what: &str) -> String {
    use tokio_rustls::rustls::pki_types::pem::Error;
    match e {
        Error::Io(io) => format!("cannot read it: {io}"),
        Error::NoItemsFound => format!("no PEM {what} in it"),
        other => format!("not a PEM {what}: {other:?}"),
    }
}

fn bad(path: &Path, why: &str) -> SourceError {
    SourceError::Tls { path: path.to_path_buf(), why: why.to_string() }
}
