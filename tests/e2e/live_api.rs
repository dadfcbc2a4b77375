//! `source::live` against the real apiserver, below the CLI: paging, the explain-shaped read,
//! and the one-line errors for 401, TLS and an unreachable server (403 and 404 are also asserted
//! through the binary in `readers::rbac`). Reads `live-api/web`, the EKS demo made here.

use std::path::Path;
use std::time::Duration;

use kubectl_topo::source::LiveSpec;
use kubectl_topo::source::live::{self, Namespace, Want};

use crate::cluster::Cluster;
use crate::harness::{self, ControlPlane, User};

fn spec(kubeconfig: &Path) -> LiveSpec {
    LiveSpec {
        kubeconfig: Some(kubeconfig.to_path_buf()),
        request_timeout: Some(Duration::from_secs(5)),
        ..LiveSpec::default()
    }
}

pub async fn run(cp: &ControlPlane, cl: &Cluster) {
    crate::fixtures::auto_web(cl, "live-api").await;
    let conn = live::connect(&spec(&cp.admin_kubeconfig)).await.expect("connect");
    assert_eq!(live::server_version(&conn).await.unwrap(), cp.version);

    // Paging: the Nodes in pages of 1 equal one unpaged list.
    let nodes: kube::Api<k8s_openapi::api::core::v1::Node> = kube::Api::all(conn.client.clone());
    let paged: Vec<k8s_openapi::api::core::v1::Node> =
        live::list_paged(&conn, &nodes, Default::default(), "list nodes at cluster scope", 1).await.unwrap();
    let whole: Vec<k8s_openapi::api::core::v1::Node> =
        live::list_all(&conn, &nodes, Default::default(), "list nodes at cluster scope").await.unwrap();
    assert!(paged.len() >= 2, "need several nodes to page");
    assert_eq!(paged.len(), whole.len());

    // The explain read: one Service, its slices by label, its Events.
    let want = Want {
        namespace: Namespace::Named("live-api".into()),
        service: Some("web".into()),
        nodes_only: false,
        whole: true,
        workloads: false,
    };
    let (raw, ns) = live::read::<live::Whole>(&conn, &want).await.unwrap();
    assert_eq!(ns.as_deref(), Some("live-api"));
    assert_eq!(raw.services.len(), 1);
    assert!(!raw.slices.is_empty());
    for s in &raw.slices {
        assert_eq!(s.metadata.labels.as_ref().unwrap()["kubernetes.io/service-name"], "web");
    }
    assert!(!raw.events.is_empty(), "the controller's Events on the Service");

    // Every command but `dump` decodes only what the model takes: the same Snapshot.
    for want in [want.clone(), Want { service: None, ..want.clone() }] {
        let lean = live::read_loaded(&conn, &Want { whole: false, ..want.clone() }).await.unwrap();
        let whole = live::read_loaded(&conn, &want).await.unwrap();
        assert!(lean.raw.is_none() && whole.raw.is_some());
        let (mut lean, mut whole) = (lean.snapshot, whole.snapshot);
        assert!(!lean.slices.is_empty() && !lean.nodes.is_empty());
        // An Event may come between the two reads; the objects hold still.
        (lean.events, whole.events) = (vec![], vec![]);
        assert_eq!(lean, whole);
    }

    let pki = |n: &str| cp.dir.path().join("pki").join(n);
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.kubeconfig");

    // 401: a client certificate from another CA.
    let stranger = User {
        name: "stranger".into(),
        cert: pki("front-proxy-client.crt"),
        key: pki("front-proxy-client.key"),
    };
    harness::write_kubeconfig(&bad, &cp.server, &cp.ca, &stranger);
    let c = live::connect(&spec(&bad)).await.unwrap();
    let err = live::server_version(&c).await.unwrap_err();
    assert!(err.to_string().starts_with("unauthorized: "), "{err}");
    assert_eq!(err.exit_status().code(), 3);

    // TLS: the kubeconfig trusts another CA.
    let admin = User { name: "admin".into(), cert: pki("user-admin.crt"), key: pki("user-admin.key") };
    harness::write_kubeconfig(&bad, &cp.server, &pki("front-proxy-ca.crt"), &admin);
    let c = live::connect(&spec(&bad)).await.unwrap();
    let err = live::server_version(&c).await.unwrap_err();
    assert!(err.to_string().starts_with("TLS error"), "{err}");
    assert!(err.hint("kubectl topo").is_some());

    // Unreachable: nothing listens on the port.
    let dead = format!("https://127.0.0.1:{}", harness::free_port());
    harness::write_kubeconfig(&bad, &dead, &cp.ca, &admin);
    let c = live::connect(&spec(&bad)).await.unwrap();
    let err = live::server_version(&c).await.unwrap_err();
    assert!(err.to_string().starts_with("cannot reach the API server"), "{err}");
    assert!(!err.to_string().contains('\n'));
}
