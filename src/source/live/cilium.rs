//! The one optional read of cluster configuration: Cilium's agent ConfigMap, for the data-plane
//! caveat (does Cilium replace kube-proxy, and does it honour hints?).

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;

use super::{Connection, timed};
use crate::source::convert;

/// `kube-system/cilium-config`, best effort: absent, forbidden or unreadable all mean "say nothing"
/// (most users may not read kube-system; deploy/rbac.yaml grants `get` on this one name).
pub(super) async fn cilium_config(conn: &Connection) -> Option<ConfigMap> {
    let (namespace, name) = convert::CILIUM_CONFIG;
    let api: Api<ConfigMap> = Api::namespaced(conn.client.clone(), namespace);
    let found = timed(conn, "get configmaps cilium-config", || api.get_opt(name)).await.ok()??;
    let keys = ["kube-proxy-replacement", "enable-service-topology"];
    let data = found.data.map(|d| d.into_iter().filter(|(k, _)| keys.contains(&k.as_str())).collect());
    let metadata = kube::api::ObjectMeta {
        name: found.metadata.name,
        namespace: found.metadata.namespace,
        ..Default::default()
    };
    Some(ConfigMap { metadata, data, ..ConfigMap::default() })
}
