//! What `serve`'s flags resolve to.

use super::super::tests::{parses, resolve, tty};
use super::super::*;

#[test]
fn serve_listens_on_10064_by_default_on_a_live_cluster_only() {
    let serve = |args: &[&str]| match resolve(args, &tty()).map(|s| s.job) {
        Ok(Job::Serve(job)) => Ok(job),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e),
    };
    let job = serve(&["serve"]).unwrap();
    assert_eq!((job.listen, job.cluster.as_deref()), ("0.0.0.0:10064".parse().unwrap(), None));
    assert!(!job.per_zone_all && job.namespaces.is_empty() && job.metrics == MetricList::All);
    assert!(matches!(resolve(&["serve"], &tty()).unwrap().source, SourceSpec::Live(_)));
    let job = serve(&["serve", "--listen", "127.0.0.1:0", "--cluster-label", "eu-1"]).unwrap();
    assert_eq!((job.listen, job.cluster.as_deref()), ("127.0.0.1:0".parse().unwrap(), Some("eu-1")));
    assert!(!parses(&["serve", "-f", "d.yaml"]), "serve declares no -f");
    let bad = resolve(&["serve", "--listen", ":9464"], &tty()).unwrap_err();
    assert_eq!(bad, SettingsError::ServeListen(":9464".into()));
    assert!(bad.to_string().contains("0.0.0.0:10064"), "{bad}");
}

/// The default port is the one the image exposes, the Deployment listens on and the Services (deploy/
/// and the chart) serve.
#[test]
fn the_default_port_is_the_one_of_the_image_the_manifests_and_the_chart() {
    let port = crate::cli::DEFAULT_LISTEN.rsplit_once(':').unwrap().1;
    let files = [
        ("deploy/Dockerfile", include_str!("../../../deploy/Dockerfile"), format!("EXPOSE {port}")),
        (
            "deploy/exporter/20-deployment.yaml",
            include_str!("../../../deploy/exporter/20-deployment.yaml"),
            format!("containerPort: {port}"),
        ),
        (
            "deploy/exporter/20-deployment.yaml",
            include_str!("../../../deploy/exporter/20-deployment.yaml"),
            format!("\"0.0.0.0:{port}\""),
        ),
        (
            "deploy/exporter/30-service.yaml",
            include_str!("../../../deploy/exporter/30-service.yaml"),
            format!("port: {port}"),
        ),
        (
            "charts/kubectl-topo/values.yaml",
            include_str!("../../../charts/kubectl-topo/values.yaml"),
            format!("port: {port}"),
        ),
    ];
    for (file, text, line) in files {
        assert!(text.lines().any(|l| l.trim() == line || l.contains(&line)), "{file}: no {line:?}");
    }
}

#[test]
fn serve_filters_like_kube_state_metrics() {
    let serve = |args: &[&str]| match resolve(args, &tty()).map(|s| s.job) {
        Ok(Job::Serve(job)) => Ok(job),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e),
    };
    let job =
        serve(&["serve", "--per-zone-series=ALL", "--namespaces", "a, b,,a", "--namespaces-denylist=c"]);
    let job = job.unwrap();
    assert!(job.per_zone_all);
    assert_eq!(job.namespaces.iter().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(job.namespaces_denylist.iter().collect::<Vec<_>>(), ["c"]);
    let job = serve(&["serve", "--metric-allowlist", "service_verdict,^kubectl_topo_ready$"]).unwrap();
    let MetricList::Allow(allow) = job.metrics else { panic!("{:?}", job.metrics) };
    assert_eq!(
        allow.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        ["service_verdict", "^kubectl_topo_ready$"]
    );
    assert!(matches!(serve(&["serve", "--metric-denylist=zone"]).unwrap().metrics, MetricList::Deny(_)));
    let both = serve(&["serve", "--metric-allowlist=a", "--metric-denylist=b"]).unwrap_err();
    assert_eq!(both, SettingsError::MetricLists);
    let bad = serve(&["serve", "--metric-denylist=ok,(open"]).unwrap_err();
    assert!(
        matches!(&bad, SettingsError::MetricRegex { flag: "--metric-denylist", regex, .. } if regex == "(open"),
        "{bad:?}"
    );
    assert!(!bad.to_string().contains('\n'), "one line: {bad}");
    assert_eq!(serve(&["serve", "--tls-cert-file=c.pem"]).unwrap_err(), SettingsError::TlsPair);
    assert_eq!(serve(&["serve", "--tls-private-key-file=k.pem"]).unwrap_err(), SettingsError::TlsPair);
    assert_eq!(serve(&["serve", "--auth=tokenreview"]).unwrap_err(), SettingsError::AuthWithoutTls);
    let tls =
        serve(&["serve", "--auth=TokenReview", "--tls-cert-file=c.pem", "--tls-private-key-file=k.pem"]);
    let tls = tls.unwrap();
    assert!(tls.token_review);
    assert_eq!(tls.tls, Some(TlsFiles { cert: "c.pem".into(), key: "k.pem".into() }));
    assert!(!serve(&["serve"]).unwrap().token_review);
    let job = serve(&["serve", "--config", "/etc/topo.yaml"]).unwrap();
    assert_eq!(job.config, crate::triage::config::ConfigPath::Given("/etc/topo.yaml".into()));
}
