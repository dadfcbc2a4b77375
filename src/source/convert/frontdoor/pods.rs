//! The front doors' Pods (docs/stability.md#callers-from-the-front-door): ingress-nginx's controller
//! Pods and Envoy Gateway's proxy Pods, listed across namespaces by label selector and reduced to
//! their name, whose they are and their node — where the requests of the Services behind those
//! doors come from. Pure: the lists are `source/live/frontdoor.rs`; a dump's Pods come through
//! `convert/object.rs`, which hands these ones here rather than to the workload reads.

use serde::Deserialize;
use serde_json::{Value, json};
use topo_engine::model::{FrontPod, FrontPodOf, ObjectRef};

use super::Name;

/// ingress-nginx's controller Pods: its chart's selector labels (kubernetes/ingress-nginx
/// `charts/ingress-nginx/templates/_helpers.tpl`, `ingress-nginx.selectorLabels`, with
/// `app.kubernetes.io/component: controller` from `controller-deployment.yaml`; the static
/// manifests under `deploy/static/` carry the same).
const NGINX_NAME: (&str, &str) = ("app.kubernetes.io/name", "ingress-nginx");
/// See [`NGINX_NAME`].
const NGINX_COMPONENT: (&str, &str) = ("app.kubernetes.io/component", "controller");
/// Envoy Gateway's labels on the proxy of a Gateway (envoyproxy/gateway
/// `internal/gatewayapi/translator.go`, `OwningGatewayNameLabel`, `OwningGatewayNamespaceLabel`).
const OWNING_GATEWAY_NAME: &str = "gateway.envoyproxy.io/owning-gateway-name";
/// See [`OWNING_GATEWAY_NAME`].
const OWNING_GATEWAY_NAMESPACE: &str = "gateway.envoyproxy.io/owning-gateway-namespace";

/// The label selectors of the two Pod lists. `deploy/rbac.yaml` grants `list` on Pods already
/// (the workload reads).
pub(crate) const FRONT_POD_SELECTORS: [&str; 2] =
    ["app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller", OWNING_GATEWAY_NAME];

/// A Pod, decoded lean: its name, the four labels above, its node.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LeanPod {
    #[serde(default)]
    metadata: Meta,
    #[serde(default)]
    spec: Option<Spec>,
}

#[derive(Debug, Default, Deserialize)]
struct Meta {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    labels: Option<Labels>,
}

#[derive(Debug, Default, Deserialize)]
struct Labels {
    #[serde(rename = "app.kubernetes.io/name", default)]
    name: Option<String>,
    #[serde(rename = "app.kubernetes.io/component", default)]
    component: Option<String>,
    #[serde(rename = "gateway.envoyproxy.io/owning-gateway-name", default)]
    gateway_name: Option<String>,
    #[serde(rename = "gateway.envoyproxy.io/owning-gateway-namespace", default)]
    gateway_namespace: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default)]
    node_name: Option<String>,
}

impl LeanPod {
    /// The front door's Pod it is, if any (an Envoy proxy Pod without its namespace label belongs
    /// to a Gateway of its own namespace).
    pub(crate) fn into_model(self) -> Option<FrontPod> {
        let namespace = self.metadata.namespace.unwrap_or_default();
        let labels = self.metadata.labels?;
        let of = if let Some(gateway) = labels.gateway_name {
            let gateway_namespace = labels.gateway_namespace.unwrap_or_else(|| namespace.clone());
            FrontPodOf::EnvoyGateway(ObjectRef { namespace: gateway_namespace, name: gateway })
        } else if labels.name.as_deref() == Some(NGINX_NAME.1)
            && labels.component.as_deref() == Some(NGINX_COMPONENT.1)
        {
            FrontPodOf::IngressNginx
        } else {
            return None;
        };
        let pod = ObjectRef { namespace, name: self.metadata.name.unwrap_or_default() };
        Some(FrontPod { pod, of, node: self.spec.and_then(|s| s.node_name).filter(|n| !n.is_empty()) })
    }
}

/// What a dump's front-door Pod contributes, and its namespace (`None`: not a front door's).
pub(crate) fn pod_found(pod: LeanPod) -> Option<(crate::source::convert::optional::Found, String)> {
    let pod = pod.into_model()?;
    let namespace = pod.pod.namespace.clone();
    Some((
        crate::source::convert::optional::Found::FrontDoor(
            super::FrontKind::Pod,
            super::FrontObject::Pod(pod),
        ),
        namespace,
    ))
}

/// Whether a dump's Pod is a front door's (by its labels), without decoding the rest.
pub(crate) fn is_front_pod(value: &Value) -> bool {
    let label =
        |key: &str| value.pointer("/metadata/labels").and_then(|l| l.get(key)).and_then(Value::as_str);
    label(OWNING_GATEWAY_NAME).is_some()
        || (label(NGINX_NAME.0) == Some(NGINX_NAME.1) && label(NGINX_COMPONENT.0) == Some(NGINX_COMPONENT.1))
}

/// A front door's Pod as `dump` writes it: its name, the labels that say whose it is, its node.
pub(crate) fn pod_item(p: &FrontPod, name: &dyn Fn(Name, &str) -> String) -> Value {
    let labels = match &p.of {
        FrontPodOf::IngressNginx => json!({NGINX_NAME.0: NGINX_NAME.1, NGINX_COMPONENT.0: NGINX_COMPONENT.1}),
        FrontPodOf::EnvoyGateway(g) => json!({OWNING_GATEWAY_NAME: name(Name::Object, &g.name),
            OWNING_GATEWAY_NAMESPACE: name(Name::Namespace, &g.namespace)}),
    };
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"namespace": name(Name::Namespace, &p.pod.namespace), "name": name(Name::Object, &p.pod.name), "labels": labels},
        "spec": {"nodeName": p.node.as_deref().map(|n| name(Name::Node, n))}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(value: Value) -> Option<FrontPod> {
        serde_json::from_value::<LeanPod>(value).unwrap().into_model()
    }

    #[test]
    fn the_front_doors_pods_are_known_by_their_labels_and_keep_their_node() {
        let nginx = json!({"metadata": {"namespace": "ingress-nginx", "name": "c-1", "labels": {
            "app.kubernetes.io/name": "ingress-nginx", "app.kubernetes.io/component": "controller", "x": "y"}},
            "spec": {"nodeName": "node-a", "containers": [{"name": "controller"}]}});
        assert!(is_front_pod(&nginx));
        let pod = decode(nginx).expect("ingress-nginx's controller");
        assert_eq!((pod.of, pod.node.as_deref()), (FrontPodOf::IngressNginx, Some("node-a")));
        let envoy = json!({"metadata": {"namespace": "envoy-gateway-system", "name": "envoy-1", "labels": {
            "gateway.envoyproxy.io/owning-gateway-name": "eg", "gateway.envoyproxy.io/owning-gateway-namespace": "infra"}}});
        assert!(is_front_pod(&envoy));
        let pod = decode(envoy).expect("an Envoy proxy");
        let gateway = ObjectRef { namespace: "infra".into(), name: "eg".into() };
        assert_eq!((pod.of, pod.node), (FrontPodOf::EnvoyGateway(gateway), None), "not scheduled");
        let webhook = json!({"metadata": {"name": "w", "labels": {"app.kubernetes.io/name": "ingress-nginx",
            "app.kubernetes.io/component": "admission-webhook"}}});
        assert!(!is_front_pod(&webhook));
        assert_eq!(decode(webhook), None);
    }

    #[test]
    fn a_written_pod_reads_back_the_same() {
        for of in [
            FrontPodOf::IngressNginx,
            FrontPodOf::EnvoyGateway(ObjectRef { namespace: "infra".into(), name: "eg".into() }),
        ] {
            let pod = FrontPod {
                pod: ObjectRef { namespace: "ns".into(), name: "p".into() },
                of,
                node: Some("n".into()),
            };
            let item = pod_item(&pod, &|_, n| n.to_string());
            assert!(is_front_pod(&item));
            assert_eq!(decode(item), Some(pod));
        }
    }
}
