//! kube-proxy's choice of topology mode for one node, per era: a port of `topologyModeFromHints`
//! (1.33+) and `canUseTopology` (1.24–1.32) from k/k `pkg/proxy/topology.go` (docs/behaviour.md#proxy-eras),
//! with the klog lines they print as data.

use serde::Serialize;

use super::ProxyServiceInfo;
use super::cache::ProxyEndpoint;
use crate::model::version::ProxyEra;
use crate::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, Behaviour, LABEL_ZONE};
use crate::report::reason::{Facts, Reason, ReasonCode};

/// The topology mode kube-proxy applies to the cluster-endpoint list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TopologyMode {
    /// Only endpoints hinted for this node (1.33+, PreferSameTrafficDistribution gate).
    PreferSameNode,
    /// Only endpoints hinted for this node's zone.
    PreferSameZone,
}

/// One key/value pair of a structured klog line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogKeyValue {
    /// Key.
    pub key: String,
    /// Value as printed (unquoted).
    pub value: String,
}

/// A klog line kube-proxy prints when it ignores hints. The line as printed ([`ProxyLog::line`]) is
/// written only when something shows it: kube-proxy's view decides every node of every Service,
/// and most of those lines are compared by their parts, never printed.
#[derive(Debug, Clone, PartialEq)]
pub struct ProxyLog {
    /// What the line means.
    pub code: ReasonCode,
    /// klog verbosity (`V(n)`; 0 for plain `InfoS`).
    pub verbosity: u8,
    /// The message, exactly.
    pub message: String,
    /// Key/values in print order.
    pub key_values: Vec<LogKeyValue>,
}

impl ProxyLog {
    fn new(code: ReasonCode, verbosity: u8, message: String, key_values: &[(&str, &str)]) -> Self {
        let key_values = key_values
            .iter()
            .map(|(k, v)| LogKeyValue { key: k.to_string(), value: v.to_string() })
            .collect();
        ProxyLog { code, verbosity, message, key_values }
    }

    /// The line as klog's text format prints it after the header: `"msg" key="value" ...`.
    pub fn line(&self) -> String {
        let mut line = quote(&self.message);
        for kv in &self.key_values {
            line.push_str(&format!(" {}={}", kv.key, quote(&kv.value)));
        }
        line
    }
}

/// Serialized with its line, as when the line was a field.
impl Serialize for ProxyLog {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Shown<'l> {
            code: ReasonCode,
            verbosity: u8,
            message: &'l str,
            key_values: &'l [LogKeyValue],
            line: String,
        }
        let (code, verbosity, message, key_values) =
            (self.code, self.verbosity, &self.message, &self.key_values[..]);
        Shown { code, verbosity, message, key_values, line: self.line() }.serialize(serializer)
    }
}

/// `strconv.Quote` for the strings that occur here (Rust's escaping matches for printable ASCII).
fn quote(value: &str) -> String {
    format!("{value:?}")
}

/// Result of the topology decision for one node.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TopologyOutcome {
    pub mode: Option<TopologyMode>,
    pub logs: Vec<ProxyLog>,
    /// Set when this version does not consider hints for the Service at all (gate/annotation).
    pub not_used: Option<Reason>,
}

fn reason_of(code: ReasonCode, zone: Option<&str>, addresses: Vec<String>) -> Reason {
    Reason::with(code, Facts { zone: zone.map(str::to_string), addresses, ..Facts::default() })
}

/// The reason a log line stands for (node names are left out so nodes can be grouped).
pub(crate) fn log_reason(log: &ProxyLog) -> Reason {
    let zone = log.key_values.iter().find(|kv| kv.key == "zone").map(|kv| kv.value.as_str());
    let addresses =
        log.key_values.iter().filter(|kv| kv.key == "endpoint").map(|kv| kv.value.clone()).collect();
    reason_of(log.code, zone, addresses)
}

const SAME_NODE: &str = "Ignoring same-node topology hints for service since ";
const SAME_ZONE: &str = "Ignoring same-zone topology hints for service since ";
const SKIPPING: &str = "Skipping topology aware endpoint filtering since ";

/// The topology decision for kube-proxy on `node_name` in `zone` (`""` = no label) at this version.
pub(crate) fn topology_mode(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node_name: &str,
    zone: &str,
    behaviour: Behaviour,
) -> TopologyOutcome {
    match behaviour.proxy_era() {
        ProxyEra::Newest | ProxyEra::V133 => {
            topology_mode_from_hints(endpoints, svc, node_name, zone, behaviour)
        }
        ProxyEra::V121 => TopologyOutcome {
            not_used: Some(Reason::with(
                ReasonCode::ProxyTopologyNotUsed,
                Facts {
                    key: Some("TopologyAwareHints".into()),
                    value: Some("false".into()),
                    ..Facts::default()
                },
            )),
            ..TopologyOutcome::default()
        },
        _ => can_use_topology(endpoints, svc, zone, behaviour),
    }
}

// mirrors topology.go: topologyModeFromHints (1.33.0–1.33.5 without guard; 1.33.6–1.35 return ""
// for an empty list, k/k #132680 and its backport #133527; 1.36 returns "" when no endpoint is
// ready, k/k #136743)
fn topology_mode_from_hints(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    node_name: &str,
    zone: &str,
    behaviour: Behaviour,
) -> TopologyOutcome {
    let ready: Vec<&ProxyEndpoint> = endpoints.iter().filter(|ep| ep.ready).collect();
    let guarded = match behaviour.minor {
        36.. => ready.is_empty(),
        _ => behaviour.proxy_skips_topology_without_endpoints() && endpoints.is_empty(),
    };
    if guarded {
        return TopologyOutcome::default();
    }
    let service = svc.display();
    let mut logs = Vec::new();
    if behaviour.prefer_same_traffic_distribution_gate() {
        if ready.iter().all(|ep| ep.node_hints.is_some()) {
            if ready.iter().any(|ep| ep.has_node_hint(node_name)) {
                return TopologyOutcome {
                    mode: Some(TopologyMode::PreferSameNode),
                    ..TopologyOutcome::default()
                };
            }
            let message = format!("{SAME_NODE}no hints were provided for node");
            let kvs = [("service", service.as_str()), ("node", node_name)];
            logs.push(ProxyLog::new(ReasonCode::ProxyNodeNotHinted, 2, message, &kvs));
        } else {
            let message = format!("{SAME_NODE}one or more endpoints is missing a node hint");
            logs.push(ProxyLog::new(ReasonCode::ProxyMissingNodeHint, 7, message, &[("service", &service)]));
        }
    }
    if ready.iter().all(|ep| ep.zone_hints.is_some()) {
        if ready.iter().any(|ep| ep.has_zone_hint(zone)) {
            return TopologyOutcome { mode: Some(TopologyMode::PreferSameZone), logs, not_used: None };
        }
        let (code, suffix, kv) = if zone.is_empty() {
            (ReasonCode::ProxyNodeMissingZone, "node is missing label", ("label", LABEL_ZONE))
        } else {
            (ReasonCode::ProxyZoneNotHinted, "no hints were provided for zone", ("zone", zone))
        };
        logs.push(ProxyLog::new(code, 2, format!("{SAME_ZONE}{suffix}"), &[("service", &service), kv]));
    } else {
        let message = format!("{SAME_ZONE}one or more endpoints is missing a zone hint");
        logs.push(ProxyLog::new(ReasonCode::ProxyMissingZoneHint, 7, message, &[("service", &service)]));
    }
    TopologyOutcome { mode: None, logs, not_used: None }
}

/// Why the annotation keeps 1.24–1.30 kube-proxy from considering hints, if it does: the reason and
/// (1.24–1.26, unexpected value) the line it logs.
fn annotation_blocks(svc: &ProxyServiceInfo, behaviour: Behaviour) -> Option<(Reason, Option<ProxyLog>)> {
    // 1.30: the annotation matters only while ServiceTrafficDistribution is off (it is, alpha).
    if behaviour.service_traffic_distribution_gate() {
        return None;
    }
    let (key, value) = svc
        .hints_annotation
        .clone()
        .unwrap_or_else(|| (ANNOTATION_TOPOLOGY_AWARE_HINTS.into(), String::new()));
    let not_used = Reason::with(
        ReasonCode::ProxyTopologyNotUsed,
        Facts { key: Some(key.clone()), value: Some(value.clone()), ..Facts::default() },
    );
    let disabled = matches!(value.as_str(), "" | "disabled" | "Disabled");
    if behaviour.minor >= 27 {
        // mirrors canUseTopology (1.27+): "Any non-empty and non-disabled values ... are acceptable."
        return disabled.then_some((not_used, None));
    }
    if matches!(value.as_str(), "Auto" | "auto") {
        return None;
    }
    let log = (!disabled).then(|| {
        let message = format!("{SKIPPING}Service has unexpected value");
        let kvs =
            [("annotationTopologyAwareHints", ANNOTATION_TOPOLOGY_AWARE_HINTS), ("hints", value.as_str())];
        ProxyLog::new(ReasonCode::ProxyTopologyNotUsed, 0, message, &kvs)
    });
    Some((not_used, log))
}

// mirrors topology.go: canUseTopology (1.24–1.26 k/k v1.24.0; 1.27–1.29 k/k v1.27.0, v1.28.9/v1.28.11,
// v1.29.4/v1.29.5; 1.30 k/k v1.30.0; 1.31–1.32 k/k v1.31.0/v1.32.0)
fn can_use_topology(
    endpoints: &[ProxyEndpoint],
    svc: &ProxyServiceInfo,
    zone: &str,
    behaviour: Behaviour,
) -> TopologyOutcome {
    if let Some((reason, log)) = annotation_blocks(svc, behaviour) {
        return TopologyOutcome { mode: None, logs: log.into_iter().collect(), not_used: Some(reason) };
    }
    let minor = behaviour.minor;
    let base = if behaviour.proxy_skip_logs_at_v2() { 2 } else { 0 };
    let (hint_verbosity, zone_verbosity) = if minor >= 31 { (7, 7) } else { (base, base) };
    let label_log = || {
        ProxyLog::new(
            ReasonCode::ProxyNodeMissingZone,
            base,
            format!("{SKIPPING}node is missing label"),
            &[("label", LABEL_ZONE)],
        )
    };
    let skip = |log: ProxyLog| TopologyOutcome { mode: None, logs: vec![log], not_used: None };
    // Before 1.31 the node label is checked first; 1.31+ checks it per ready endpoint after its hints.
    if minor <= 30 && zone.is_empty() {
        return skip(label_log());
    }
    let mut has_endpoint_for_zone = false;
    for endpoint in endpoints.iter().filter(|ep| ep.ready) {
        if endpoint.zone_hints.is_none() {
            let message = format!("{SKIPPING}one or more endpoints is missing a zone hint");
            let identity = endpoint.identity();
            let kvs: &[(&str, &str)] =
                if behaviour.proxy_names_unhinted_endpoint() { &[("endpoint", &identity)] } else { &[] };
            return skip(ProxyLog::new(ReasonCode::ProxyMissingZoneHint, hint_verbosity, message, kvs));
        }
        if zone.is_empty() {
            return skip(label_log());
        }
        has_endpoint_for_zone |= endpoint.has_zone_hint(zone);
    }
    if !has_endpoint_for_zone {
        let message = format!("{SKIPPING}no hints were provided for zone");
        return skip(ProxyLog::new(
            ReasonCode::ProxyZoneNotHinted,
            zone_verbosity,
            message,
            &[("zone", zone)],
        ));
    }
    TopologyOutcome { mode: Some(TopologyMode::PreferSameZone), logs: vec![], not_used: None }
}
