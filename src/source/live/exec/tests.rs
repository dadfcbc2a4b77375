use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::*;

const TOKEN: &str = "sekret-token-123";

/// A plugin: a shell script in `dir`, run non-interactively.
fn plugin(dir: &Path, body: &str) -> ExecConfig {
    let path = dir.join("plugin.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    ExecConfig {
        api_version: Some("client.authentication.k8s.io/v1".into()),
        command: Some(path.display().to_string()),
        args: None,
        env: Some(vec![HashMap::from([("name".into(), "PLANTED".into()), ("value".into(), TOKEN.into())])]),
        drop_env: None,
        install_hint: None,
        interactive_mode: Some(ExecInteractiveMode::Never),
        provide_cluster_info: false,
        cluster: None,
        other: Default::default(),
    }
}

fn config_with(exec: ExecConfig) -> kube::Config {
    let mut config = kube::Config::new("https://127.0.0.1:1".parse().unwrap());
    config.auth_info.exec = Some(exec);
    config
}

fn fails(body: &str, timeout: Duration) -> ExecError {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_with(plugin(dir.path(), body));
    let error = resolve(&mut config, timeout).expect_err("the plugin fails");
    let text = error.to_string();
    assert!(text.contains("plugin.sh"), "names the plugin: {text}");
    for secret in [TOKEN, "KUBERNETES_EXEC_INFO", "Output {", "stderr"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert!(!error.hint().contains(TOKEN));
    error
}

#[test]
fn a_token_replaces_the_exec_section() {
    let dir = tempfile::tempdir().unwrap();
    let answer = r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"$PLANTED"}}"#;
    let mut config =
        config_with(plugin(dir.path(), &format!("echo '{answer}' | sed \"s/\\$PLANTED/$PLANTED/\"")));
    resolve(&mut config, Duration::from_secs(30)).unwrap();
    assert!(config.auth_info.exec.is_none());
    let token = config.auth_info.token.as_ref().map(|t| secrecy::ExposeSecret::expose_secret(t).to_string());
    assert_eq!(token.as_deref(), Some(TOKEN));
}

#[test]
fn a_client_certificate_is_handed_over_as_kubeconfig_data() {
    let dir = tempfile::tempdir().unwrap();
    let answer =
        r#"{"kind":"ExecCredential","status":{"clientCertificateData":"CERT","clientKeyData":"KEY"}}"#;
    let mut config = config_with(plugin(dir.path(), &format!("echo '{answer}'")));
    resolve(&mut config, Duration::from_secs(30)).unwrap();
    assert_eq!(config.auth_info.client_certificate_data.as_deref(), Some("Q0VSVA=="));
    assert!(config.auth_info.token.is_none());
}

#[test]
fn the_exec_info_is_passed_in_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"case "$KUBERNETES_EXEC_INFO" in *'"interactive":false'*) echo '{"status":{"token":"t"}}';; *) exit 7;; esac"#;
    let mut config = config_with(plugin(dir.path(), body));
    resolve(&mut config, Duration::from_secs(30)).unwrap();
}

#[test]
fn a_plugin_that_never_answers_is_stopped_at_the_timeout() {
    let error = fails("exec sleep 600", Duration::from_secs(1));
    assert!(matches!(error, ExecError::Timeout { .. }), "{error}");
    assert!(error.to_string().contains("did not answer within 1s"), "{error}");
}

#[test]
fn a_plugin_that_prints_forever_is_stopped_at_the_cap() {
    let error = fails("exec yes \"$PLANTED\"", Duration::from_secs(60));
    assert!(matches!(error, ExecError::TooLarge { .. }), "{error}");
}

#[test]
fn a_failing_plugin_is_named_and_its_output_is_not_shown() {
    let error = fails("echo \"token: $PLANTED\" >&2; echo \"$PLANTED\"; exit 3", Duration::from_secs(30));
    assert!(matches!(error, ExecError::Failed { .. }), "{error}");
    assert!(error.to_string().contains("exit status: 3"), "{error}");
}

#[test]
fn an_answer_that_is_not_an_exec_credential_is_located_not_quoted() {
    let error = fails("printf '{\\n  \"status\": {\"token\": %s}}' \"$PLANTED\"", Duration::from_secs(30));
    assert_eq!(error.to_string().split(": ").last(), Some("invalid JSON at line 2 column 23"), "{error}");
    let error = fails("echo '{\"status\": {\"token\": 5}}'", Duration::from_secs(30));
    assert!(error.to_string().contains("a field of the wrong type at line 1"), "{error}");
    let error = fails("echo '{\"status\": {}}'", Duration::from_secs(30));
    assert!(matches!(error, ExecError::NoCredential { .. }), "{error}");
}

#[test]
fn a_missing_plugin_is_named_with_its_install_hint() {
    let dir = tempfile::tempdir().unwrap();
    let mut exec = plugin(dir.path(), "");
    exec.command = Some(dir.path().join("absent").display().to_string());
    exec.install_hint = Some("brew install absent".into());
    let error = resolve(&mut config_with(exec), Duration::from_secs(5)).unwrap_err();
    assert!(error.to_string().starts_with("cannot run exec credential plugin "), "{error}");
    assert_eq!(error.hint(), "brew install absent");
}
