//! The front doors that read the hints themselves (docs/data-plane.md#front-doors): ingress-nginx
//! (the Ingresses of its class, and its controller's flag) and Linkerd (linkerd-config's values),
//! reduced to the few fields the rules read.

use serde::{Deserialize, Serialize};

use super::object_ref::ObjectRef;

/// ingress-nginx's IngressClass controller (kubernetes/ingress-nginx
/// `cmd/nginx/flags.go`, `--controller-class` default).
pub const INGRESS_NGINX_CONTROLLER: &str = "k8s.io/ingress-nginx";

/// ingress-nginx's class name when an Ingress names its class by the deprecated annotation
/// `kubernetes.io/ingress.class` (its `--ingress-class` default).
pub const INGRESS_NGINX_CLASS: &str = "nginx";

/// A `networking.k8s.io/v1` Ingress, reduced to what the rules read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ingress {
    /// The Ingress.
    pub ingress: ObjectRef,
    /// `spec.ingressClassName`, else the annotation `kubernetes.io/ingress.class`.
    #[serde(default)]
    pub class: Option<String>,
    /// The Services of `spec.defaultBackend` and `rules[].http.paths[].backend`.
    #[serde(default)]
    pub backends: Vec<ObjectRef>,
    /// `nginx.ingress.kubernetes.io/service-upstream: "true"`: ingress-nginx sends this Ingress's
    /// requests to the ClusterIP (through kube-proxy) instead of the endpoints.
    #[serde(default)]
    pub service_upstream: bool,
}

/// ingress-nginx's controller, from its Deployment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressController {
    /// The image of its `controller` container.
    #[serde(default)]
    pub image: Option<String>,
    /// `--enable-topology-aware-routing` is on (kubernetes/ingress-nginx#9165, controller v1.6.0).
    #[serde(default)]
    pub topology_aware_routing: bool,
}

/// Linkerd's control plane, from ConfigMap `linkerd/linkerd-config` (its Helm values).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Linkerd {
    /// `linkerdVersion` (`stable-2.14.10`, `edge-24.5.1`, `enterprise-2.16.0`).
    #[serde(default)]
    pub version: Option<String>,
    /// `enableEndpointSlices` (the destination controller watches EndpointSlices, where the hints
    /// are; `None`: not set, the default `true`).
    #[serde(default)]
    pub endpoint_slices: Option<bool>,
}

/// ingress-nginx's flag that turns on its use of the zone hints (kubernetes/ingress-nginx
/// `cmd/nginx/flags.go`, #9165).
pub const INGRESS_NGINX_TOPOLOGY_FLAG: &str = "--enable-topology-aware-routing";

/// Whether `args` (a container's) turn [`INGRESS_NGINX_TOPOLOGY_FLAG`] on, as Go's flag package
/// reads a boolean: `--flag`, `-flag`, `--flag=true` (or `1`, `t`, `T`, `TRUE`, `True`); the last
/// one given wins.
pub fn ingress_nginx_topology_flag<'a>(args: impl IntoIterator<Item = &'a str>) -> bool {
    let name = INGRESS_NGINX_TOPOLOGY_FLAG.trim_start_matches('-');
    let mut on = false;
    for arg in args {
        let Some(flag) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else { continue };
        match flag.split_once('=') {
            None if flag == name => on = true,
            Some((key, value)) if key == name => {
                on = matches!(value, "1" | "t" | "T" | "true" | "TRUE" | "True");
            }
            _ => {}
        }
    }
    on
}

impl Linkerd {
    /// What `linkerd-config`'s `values` (the Helm values as YAML) say: its top-level
    /// `linkerdVersion:` and `enableEndpointSlices:` lines, nothing else.
    pub fn from_values(values: &str) -> Self {
        let top = |key: &str| {
            values.lines().find_map(|line| {
                let value = line.strip_prefix(key)?.strip_prefix(':')?;
                Some(
                    value
                        .split(" #")
                        .next()
                        .unwrap_or("")
                        .trim()
                        .trim_matches(|c| c == '"' || c == '\'')
                        .to_string(),
                )
            })
        };
        Linkerd {
            version: top("linkerdVersion").filter(|v| !v.is_empty()),
            endpoint_slices: top("enableEndpointSlices").and_then(|v| match v.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            }),
        }
    }

    /// The lines [`Linkerd::from_values`] reads, as a dump keeps them.
    pub fn values(&self) -> String {
        let mut text = String::new();
        if let Some(enabled) = self.endpoint_slices {
            text.push_str(&format!("enableEndpointSlices: {enabled}\n"));
        }
        if let Some(version) = &self.version {
            text.push_str(&format!("linkerdVersion: {version:?}\n"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_ingress_nginx_flag_as_go_reads_a_boolean() {
        let on = |args: &[&str]| ingress_nginx_topology_flag(args.iter().copied());
        assert!(on(&["/nginx-ingress-controller", "--enable-topology-aware-routing=true"]));
        assert!(on(&["-enable-topology-aware-routing"]));
        assert!(!on(&["--enable-topology-aware-routing=false"]));
        assert!(
            !on(&["--enable-topology-aware-routing=true", "--enable-topology-aware-routing=0"]),
            "last wins"
        );
        assert!(!on(&["--enable-topology-aware-routing-x"]));
        assert!(!on(&[]));
    }

    #[test]
    fn linkerd_values_keep_the_version_and_endpoint_slices() {
        let values = "controllerReplicas: 1\nenableEndpointSlices: false\nidentity:\n  linkerdVersion: nested\nlinkerdVersion: stable-2.14.10\n";
        let linkerd = Linkerd::from_values(values);
        assert_eq!(linkerd.version.as_deref(), Some("stable-2.14.10"));
        assert_eq!(linkerd.endpoint_slices, Some(false));
        assert_eq!(Linkerd::from_values(&linkerd.values()), linkerd, "what a dump keeps reads the same");
        assert_eq!(Linkerd::from_values("proxy:\n  image: x\n"), Linkerd::default());
    }
}
