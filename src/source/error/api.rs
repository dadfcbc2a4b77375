//! API failures as a user would describe them: a `kube::Error` classified by its status code or
//! its cause chain (401, 403, 404, TLS, unreachable, cut off, …), with the one-line message and the
//! one line of remedy of each kind.

/// What kind of failure a `kube::Error` is, as a user would describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// 401.
    Unauthorized(String),
    /// 403.
    Forbidden(String),
    /// 404.
    NotFound(String),
    /// Another API status.
    Status(u16, String),
    /// The answer ended before its end (connection closed mid-body, incomplete JSON).
    Truncated(String),
    /// Certificate or TLS handshake problem.
    Tls(String),
    /// Connection refused, DNS, no route.
    Unreachable(String),
    /// A timeout below us (connect/read timeout).
    Timeout(String),
    /// Credentials could not be obtained (exec plugin, token file, ...).
    Auth(String),
    /// Anything else.
    Other(String),
}

/// The whole cause chain of an error on one line (`a: b: c`), without repeats.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut source = error.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    let text = parts.join(": ").replace('\n', " ");
    // kube/hyper wrap the cause in layers that say nothing to a user.
    let mut text = text.as_str();
    for noise in
        ["ServiceError: ", "HyperError: ", "client error (Connect): ", "client error (SendRequest): "]
    {
        while let Some(rest) = text.strip_prefix(noise) {
            text = rest;
        }
    }
    text.to_string()
}

/// Classify a kube error by its status code or its cause chain.
pub(crate) fn classify(error: &kube::Error) -> Failure {
    if let kube::Error::Api(status) = error {
        let message = status.message.clone();
        return match status.code {
            401 => Failure::Unauthorized(message),
            403 => Failure::Forbidden(message),
            404 => Failure::NotFound(message),
            code => Failure::Status(code, message),
        };
    }
    if let kube::Error::Auth(auth) = error {
        return Failure::Auth(auth_text(auth));
    }
    let text = chain(error);
    let lower = text.to_lowercase();
    if is_truncated(&lower) {
        Failure::Truncated(text)
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake") {
        Failure::Tls(text)
    } else if lower.contains("timed out") || lower.contains("timeout") || lower.contains("deadline") {
        Failure::Timeout(text)
    } else if [
        "connection refused",
        "dns error",
        "no route",
        "unreachable",
        "connection reset",
        "tcp connect",
        "failed to lookup",
    ]
    .iter()
    .any(|k| lower.contains(k))
    {
        Failure::Unreachable(text)
    } else {
        Failure::Other(text)
    }
}

/// What went wrong getting credentials, without what kube's message would quote: the credential
/// command's output and environment (`AuthExecRun` prints them as Rust debug text) or its answer.
fn auth_text(error: &kube::client::AuthError) -> String {
    use kube::client::AuthError as A;
    match error {
        A::AuthExecRun { out, .. } => format!("the credential command failed ({})", out.status),
        A::AuthExecParse(_) | A::ParseTokenKey(_) => {
            "the credential command's answer is not valid".to_string()
        }
        A::InvalidBasicAuth(_) | A::InvalidBearerToken(_) => {
            "the credentials contain characters an HTTP header cannot carry".to_string()
        }
        A::AuthExec(_) => "the auth provider failed".to_string(),
        other => super::without_values(&chain(other)),
    }
}

/// The texts hyper and serde_json give for a response cut off mid-body.
fn is_truncated(lower: &str) -> bool {
    ["end of file before message length reached", "connection closed before message completed"]
        .iter()
        .any(|k| lower.contains(k))
        || (lower.contains("deserializing response") && lower.contains("eof while parsing"))
}

/// ` (after N attempts)` when a transient failure was retried.
pub(super) fn attempts_note(attempts: u32) -> String {
    if attempts > 1 { format!(" (after {attempts} attempts)") } else { String::new() }
}

/// The remedy for a request that got no answer in time, however the timeout was noticed.
pub(crate) const TIMEOUT_HINT: &str =
    "the API server did not answer in time: check the server address and network, or raise --request-timeout";

/// The remedy for every missing permission: the shipped read-only ClusterRole.
pub(crate) const FORBIDDEN_HINT: &str = "bind the read-only ClusterRole kubectl-topo-reader (kubectl apply -f deploy/rbac.yaml, then a ClusterRoleBinding for your user or group): it grants get/list/watch on nodes, services, endpointslices.discovery.k8s.io and events";

/// The one-line message of an API failure.
pub(super) fn message(action: &str, server: &str, source: &kube::Error) -> String {
    match classify(source) {
        Failure::Forbidden(_) => format!("forbidden: cannot {action}"),
        Failure::Unauthorized(m) => {
            format!("unauthorized: {server} rejected the credentials while trying to {action} ({m})")
        }
        Failure::NotFound(m) => format!("not found: cannot {action}: {m}"),
        Failure::Status(code, m) => format!("cannot {action}: the API server answered {code}: {m}"),
        Failure::Truncated(m) => {
            format!("the API server's answer was cut off while trying to {action} on {server}: {m}")
        }
        Failure::Tls(m) => format!("TLS error talking to {server} (trying to {action}): {}", tls_message(&m)),
        Failure::Unreachable(m) => {
            format!("cannot reach the API server at {server} (trying to {action}): {m}")
        }
        Failure::Timeout(m) => format!("timed out trying to {action} on {server}: {m}"),
        Failure::Auth(m) => format!("cannot get credentials for {server} (trying to {action}): {m}"),
        Failure::Other(m) => format!("cannot {action} on {server}: {m}"),
    }
}

/// One line of remedy for an API failure.
pub(super) fn hint(failure: &Failure) -> &'static str {
    match failure {
        Failure::Forbidden(_) => FORBIDDEN_HINT,
        Failure::Unauthorized(_) => {
            "the credentials of the current context are missing or expired: log in again (e.g. aws eks update-kubeconfig, gcloud container clusters get-credentials, az aks get-credentials)"
        }
        Failure::NotFound(_) => "check the namespace (-n) and the name",
        Failure::Tls(m) => tls_hint(m),
        Failure::Unreachable(_) => {
            "check that the cluster is running and that the current context points at it (kubectl config current-context)"
        }
        Failure::Timeout(_) => TIMEOUT_HINT,
        Failure::Auth(_) => {
            "check the exec credential plugin or token of the current user (kubectl config view --minify)"
        }
        Failure::Status(..) | Failure::Truncated(_) | Failure::Other(_) => {
            "retry; if it persists, check the API server's health (kubectl get --raw /readyz)"
        }
    }
}

/// Which certificate a TLS failure refuses: the kubeconfig's own (client-certificate-data and
/// client-key-data, refused by rustls before any connection: kube reports it as an invalid private
/// key or identity) or the API server's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    /// The kubeconfig's client certificate or key.
    ClientIdentity,
    /// The certificate the API server presented.
    ServerCertificate,
}

fn refused(text: &str) -> Refused {
    let lower = text.to_lowercase();
    match lower.contains("invalid private key") || lower.contains("identity pem") {
        true => Refused::ClientIdentity,
        false => Refused::ServerCertificate,
    }
}

/// rustls (webpki) accepts X.509 v3 certificates only.
fn is_x509_v1(text: &str) -> bool {
    text.contains("UnsupportedCertVersion")
}

/// The TLS failure said as which certificate is refused and why, rustls' words kept after it.
fn tls_message(text: &str) -> String {
    match (refused(text), is_x509_v1(text)) {
        (Refused::ClientIdentity, true) => format!(
            "the kubeconfig's client certificate (client-certificate-data) is refused: it is an X.509 v1 \
             certificate, and rustls accepts v3 only ({text})"
        ),
        (Refused::ClientIdentity, false) => {
            format!(
                "the kubeconfig's client certificate or key (client-certificate-data, client-key-data) is refused ({text})"
            )
        }
        (Refused::ServerCertificate, true) => format!(
            "the API server's certificate is refused: it is an X.509 v1 certificate, and rustls accepts v3 only ({text})"
        ),
        (Refused::ServerCertificate, false) => text.to_string(),
    }
}

/// The remedy for the certificate that was refused.
fn tls_hint(text: &str) -> &'static str {
    match (refused(text), is_x509_v1(text)) {
        (Refused::ClientIdentity, true) => {
            "reissue the client certificate as X.509 v3 (e.g. through a CertificateSigningRequest, or openssl x509 -req with -extfile), then update client-certificate-data in the kubeconfig"
        }
        (Refused::ClientIdentity, false) => {
            "check the user's client-certificate-data and client-key-data: PEM, the key matching the certificate (kubectl config view --minify --raw), or refresh the kubeconfig"
        }
        (Refused::ServerCertificate, true) => {
            "the API server presents an X.509 v1 certificate: reissue the serving certificate as v3 (or connect through a proxy that presents one)"
        }
        (Refused::ServerCertificate, false) => {
            "the server certificate does not match the kubeconfig's certificate-authority-data or server name: check the context (--context) and refresh the kubeconfig"
        }
    }
}

#[cfg(test)]
mod tls_tests {
    use super::*;

    #[test]
    fn a_refused_certificate_is_named_with_why_and_its_own_remedy() {
        let client_v1 = "rustls tls error: invalid private key: invalid peer certificate: Other(OtherError(UnsupportedCertVersion))";
        let message = tls_message(client_v1);
        assert!(
            message.starts_with("the kubeconfig's client certificate (client-certificate-data) is refused")
        );
        assert!(message.contains("X.509 v1") && message.contains("UnsupportedCertVersion"), "{message}");
        assert!(tls_hint(client_v1).starts_with("reissue the client certificate as X.509 v3"));
        let server_v1 = "invalid peer certificate: Other(OtherError(UnsupportedCertVersion))";
        assert!(tls_message(server_v1).starts_with("the API server's certificate is refused"));
        assert!(tls_hint(server_v1).contains("serving certificate"));
        let unknown_issuer = "invalid peer certificate: UnknownIssuer";
        assert_eq!(tls_message(unknown_issuer), unknown_issuer);
        assert!(tls_hint(unknown_issuer).contains("certificate-authority-data"));
        let bad_key = "rustls tls error: identity PEM is missing a private key";
        assert!(
            tls_message(bad_key).contains("client-key-data") && tls_hint(bad_key).contains("client-key-data")
        );
    }
}
