//! The front-door lists' items, decoded lean ([`LeanItem`]): a route's parentRefs and backendRefs,
//! a Gateway's class, a class's controller, a policy's targets and whether it sets zone-aware
//! routing, an Ingress's class and backend Services, a Namespace's one annotation; serde skips every
//! other field without keeping it.

use serde::Deserialize;
use serde::de::IgnoredAny;

/// An item of any front-door list, decoded lean.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LeanItem {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) metadata: LeanMeta,
    #[serde(default, deserialize_with = "nullable")]
    pub(super) spec: LeanSpec,
}

impl LeanItem {
    /// Its namespace (empty for a cluster-scoped object).
    pub(crate) fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("")
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanMeta {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) name: String,
    #[serde(default)]
    pub(super) namespace: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(super) annotations: LeanAnnotations,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanAnnotations {
    #[serde(rename = "networking.istio.io/traffic-distribution", default)]
    pub(super) istio_traffic_distribution: Option<String>,
    #[serde(rename = "kubernetes.io/ingress.class", default)]
    pub(super) ingress_class: Option<String>,
    /// Any YAML scalar (a hand-written dump may say `true` unquoted).
    #[serde(rename = "nginx.ingress.kubernetes.io/service-upstream", default)]
    pub(super) service_upstream: Option<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LeanSpec {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) parent_refs: Vec<LeanRef>,
    #[serde(default, deserialize_with = "nullable")]
    pub(super) rules: Vec<LeanRule>,
    #[serde(default)]
    pub(super) gateway_class_name: Option<String>,
    #[serde(default)]
    pub(super) controller_name: Option<String>,
    /// An IngressClass's `spec.controller`.
    #[serde(default)]
    pub(super) controller: Option<String>,
    /// An Ingress's `spec.ingressClassName`.
    #[serde(default)]
    pub(super) ingress_class_name: Option<String>,
    /// An Ingress's `spec.defaultBackend`.
    #[serde(default)]
    pub(super) default_backend: Option<LeanBackend>,
    #[serde(default, deserialize_with = "nullable")]
    pub(super) target_refs: Vec<LeanRef>,
    #[serde(default)]
    pub(super) target_ref: Option<LeanRef>,
    #[serde(default)]
    pub(super) load_balancer: Option<LeanLoadBalancer>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LeanRule {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) backend_refs: Vec<LeanRef>,
    /// An Ingress rule's `http`.
    #[serde(default)]
    pub(super) http: Option<LeanHttp>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanHttp {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) paths: Vec<LeanPath>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanPath {
    #[serde(default)]
    pub(super) backend: Option<LeanBackend>,
}

/// An Ingress backend: its Service's name (a `resource` backend names none).
#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanBackend {
    #[serde(default)]
    pub(super) service: Option<LeanServiceBackend>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanServiceBackend {
    #[serde(default, deserialize_with = "nullable")]
    pub(super) name: String,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct LeanRef {
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) kind: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub(super) name: String,
    #[serde(default)]
    pub(super) namespace: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LeanLoadBalancer {
    #[serde(default)]
    pub(super) zone_aware: Option<LeanZoneAware>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LeanZoneAware {
    #[serde(default)]
    pub(super) prefer_local: Option<IgnoredAny>,
}

/// A field given as `null` reads as its default, as k8s-openapi reads it.
fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}
