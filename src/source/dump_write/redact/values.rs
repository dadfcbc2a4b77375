//! The free text a redacted dump keeps, reduced to what the reports read of it. A field whose
//! value the engine compares against a few words (a policy, a trafficDistribution, the OS label,
//! Cilium's settings) keeps a value among those words and is otherwise `invalid`, which every
//! comparison treats as the unknown value it replaces; an Event keeps its message only when it
//! is one of the EndpointSlice controller's own sentences, numbers included (`topologycache`
//! `event.go`); any other message is replaced by a fixed sentence.

use topo_engine::core::topologycache::events as ev;
use topo_engine::core::trafficdist::{PREFER_CLOSE, PREFER_SAME_NODE, PREFER_SAME_ZONE};

use crate::prose::partial;
use crate::source::live::LIST_NODES;
use crate::triage::{AnnotationRule, IGNORE_ANNOTATION};

/// What an unknown value becomes: no comparison of the engine matches it, as none matched the
/// original.
pub(super) const INVALID: &str = "invalid";

/// The message of an Event whose message is not one of the controller's sentences.
pub(super) const MESSAGE_REMOVED: &str =
    "(message removed by --redact: not one of the EndpointSlice controller's sentences)";

/// What a note about a Node the read left out (`node "…" left out: field: why`, which quotes the
/// value it could not read) becomes.
pub(super) const NODE_LEFT_OUT: &str =
    "a Node was left out: it could not be read (details removed by --redact)";

/// A note of a partial read (ClusterInfo `partial`, names already replaced by their pseudonyms):
/// kept when it is one of ours as a read writes it, word for word; a Node left out is said without
/// the value it quoted; any other text (a dump's ClusterInfo can hold anything) is dropped.
pub(super) fn note(note: &str, namespaces: &[String]) -> Option<String> {
    let mut ours = vec![
        partial::nodes_forbidden_note(LIST_NODES),
        partial::dump_without_nodes_note(),
        partial::dump_without_slices_note(),
        partial::events_forbidden_note("list events at cluster scope"),
    ];
    ours.extend(
        namespaces
            .iter()
            .map(|ns| partial::events_forbidden_note(&format!("list events in namespace {ns:?}"))),
    );
    if ours.iter().any(|n| n == note) {
        return Some(note.to_string());
    }
    (note.starts_with("node ") && note.contains(" left out: ")).then(|| NODE_LEFT_OUT.to_string())
}

/// `value` when it is one of `known`, else [`INVALID`].
pub(super) fn one_of(value: &str, known: &[&str]) -> String {
    if known.contains(&value) { value.to_string() } else { INVALID.to_string() }
}

/// `kubernetes.io/os`: kube-proxy and the Windows caveat read `windows` only.
pub(super) fn os(value: &str) -> String {
    one_of(value, &["linux", "windows"])
}

/// `spec.trafficDistribution`: the values some version takes (an empty value stays empty).
pub(super) fn traffic_distribution(value: &str) -> String {
    one_of(value, &["", PREFER_CLOSE, PREFER_SAME_ZONE, PREFER_SAME_NODE])
}

/// `spec.internalTrafficPolicy`, `spec.externalTrafficPolicy`.
pub(super) fn traffic_policy(value: &str) -> String {
    one_of(value, &["Cluster", "Local"])
}

/// `spec.type`.
pub(super) fn service_type(value: &str) -> String {
    one_of(value, &["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"])
}

/// A port's protocol (ports are matched by name, number and protocol).
pub(super) fn protocol(value: &str) -> String {
    one_of(value, &["TCP", "UDP", "SCTP"])
}

/// An address family (`spec.ipFamilies`, `addressType`).
pub(super) fn address_type(value: &str) -> String {
    one_of(value, &["IPv4", "IPv6", "FQDN"])
}

/// A condition's status.
pub(super) fn condition(value: &str) -> String {
    one_of(value, &["True", "False", "Unknown"])
}

/// An Event's type.
pub(super) fn event_type(value: &str) -> String {
    one_of(value, &["Normal", "Warning"])
}

/// A Service annotation the engine or `check` reads: the topology annotations' values kube-proxy
/// and the controller tell apart; the ignore annotation's reason codes (a word that is none stays
/// one, as `invalid`).
pub(super) fn annotation(key: &str, value: &str) -> String {
    if key == topo_engine::model::ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION {
        // Istio reads it in any case (`GetTrafficDistribution`).
        let word = value.to_ascii_lowercase();
        return one_of(&word, &["preferclose", "prefersamezone", "prefersamenode", "any"]);
    }
    if key != IGNORE_ANNOTATION {
        return one_of(value, &["", "Auto", "auto", "Disabled", "disabled"]);
    }
    let rule = AnnotationRule::parse(value);
    let mut words: Vec<String> = Vec::new();
    if rule.all {
        words.push("all".to_string());
    }
    words.extend(rule.codes.iter().map(|c| c.to_string()));
    words.extend(rule.unknown.iter().map(|_| INVALID.to_string()));
    words.join(",")
}

/// Cilium's `kube-proxy-replacement` (read trimmed, in any case).
pub(super) fn cilium_replacement(value: &str) -> String {
    let word = value.trim().to_ascii_lowercase();
    one_of(&word, &["true", "false", "strict", "partial", "probe", "disabled"])
}

/// Cilium's `enable-service-topology` (read trimmed, in any case).
pub(super) fn cilium_topology(value: &str) -> String {
    let word = value.trim().to_ascii_lowercase();
    one_of(&word, &["true", "false"])
}

/// kube-proxy's `mode` (read trimmed, in any case; `""` is the default mode).
pub(super) fn proxy_mode(value: &str) -> String {
    let word = value.trim().to_ascii_lowercase();
    if word.is_empty() {
        return word;
    }
    one_of(&word, &["iptables", "ipvs", "nftables", "kernelspace", "userspace"])
}

/// `lastTimestamp` when it is a timestamp (digits and `-:.TZ+`), else nothing.
pub(super) fn timestamp(value: &str) -> Option<String> {
    let looks_like = !value.is_empty()
        && value.len() <= 40
        && value.chars().all(|c| c.is_ascii_digit() || matches!(c, '-' | ':' | '.' | 'T' | 'Z' | '+'));
    looks_like.then(|| value.to_string())
}

/// The reporting component when it is the EndpointSlice controller's.
pub(super) fn event_source(value: &str) -> Option<String> {
    ["endpoint-slice-controller", "endpointslice-controller"].contains(&value).then(|| value.to_string())
}

/// The message as written when it is one of the controller's sentences, else [`MESSAGE_REMOVED`].
pub(super) fn event_message(message: &str) -> String {
    if is_controller_message(message) { message.to_string() } else { MESSAGE_REMOVED.to_string() }
}

/// One of `topologycache/event.go`'s sentences, with its numbers where it has some, and the
/// `, addressType: IPv4|IPv6` suffix the controller adds (`FormatWithAddressType`) or none.
fn is_controller_message(message: &str) -> bool {
    let sentence = ["IPv4", "IPv6"]
        .iter()
        .find_map(|t| message.strip_suffix(&format!(", addressType: {t}")))
        .unwrap_or(message);
    let fixed = [
        ev::NO_ZONE_SPECIFIED,
        ev::NO_ALLOCATED_HINTS_FOR_ZONES,
        ev::TOPOLOGY_AWARE_HINTS_ENABLED,
        ev::TOPOLOGY_AWARE_HINTS_DISABLED,
        ev::INSUFFICIENT_NODE_INFO,
        ev::NODES_READY_IN_ONE_ZONE_ONLY,
    ];
    if fixed.contains(&sentence) {
        return true;
    }
    [ev::INSUFFICIENT_NUMBER_OF_ENDPOINTS, ev::MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD].iter().any(
        |start| sentence.strip_prefix(start).and_then(|rest| rest.strip_prefix(" (")).is_some_and(counts),
    )
}

/// `N endpoints, M zones)`, N and M decimal numbers as Go's `%d` writes them.
fn counts(text: &str) -> bool {
    let number = |s: &str| !s.is_empty() && s.len() <= 19 && s.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = text.strip_suffix(" zones)") else { return false };
    rest.split_once(" endpoints, ").is_some_and(|(n, m)| number(n) && number(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_controllers_sentences_are_kept_with_their_numbers_and_anything_else_is_not() {
        for kept in [
            "Insufficient number of endpoints (3 endpoints, 4 zones), addressType: IPv4",
            "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold (5 endpoints, 3 zones), addressType: IPv6",
            "Topology Aware Hints has been enabled, addressType: IPv4",
            "Nodes only ready in one zone",
        ] {
            assert_eq!(event_message(kept), kept);
        }
        for removed in [
            "customer acme-secret password=hunter2 at db.acme.internal",
            "Insufficient number of endpoints (3 endpoints, 4 zones) password=hunter2, addressType: IPv4",
            "Insufficient number of endpoints (x endpoints, 4 zones), addressType: IPv4",
            "Nodes only ready in one zone, addressType: acme",
            "Topology Aware Hints has been enabled for acme, addressType: IPv4",
            "",
        ] {
            assert_eq!(event_message(removed), MESSAGE_REMOVED, "{removed}");
        }
    }

    #[test]
    fn only_our_own_notes_are_kept() {
        let namespaces = vec!["ns-1".to_string()];
        let forbidden = partial::nodes_forbidden_note(LIST_NODES);
        assert_eq!(note(&forbidden, &namespaces), Some(forbidden.clone()));
        let events = partial::events_forbidden_note("list events in namespace \"ns-1\"");
        assert_eq!(note(&events, &namespaces), Some(events.clone()));
        let other = partial::events_forbidden_note("list events in namespace \"acme-hunter2\"");
        assert_eq!(note(&other, &namespaces), None);
        let left_out = "node \"node-1\" left out: status.allocatable.cpu: invalid quantity \"hunter2\"";
        assert_eq!(note(left_out, &namespaces).as_deref(), Some(NODE_LEFT_OUT));
        assert_eq!(note("customer acme password=hunter2", &namespaces), None);
    }

    #[test]
    fn free_text_becomes_what_the_engine_reads() {
        assert_eq!(os("windows"), "windows");
        assert_eq!(os("acme-os password=hunter2"), INVALID);
        assert_eq!(traffic_distribution("PreferClose"), "PreferClose");
        assert_eq!(traffic_distribution("db.acme.internal"), INVALID);
        assert_eq!(traffic_policy("Local"), "Local");
        assert_eq!(traffic_policy("hunter2"), INVALID);
        assert_eq!(cilium_replacement(" Strict "), "strict");
        assert_eq!(cilium_replacement("acme"), INVALID);
        assert_eq!(cilium_topology("TRUE"), "true");
        assert_eq!(annotation("service.kubernetes.io/topology-mode", "Auto"), "Auto");
        assert_eq!(annotation("service.kubernetes.io/topology-mode", "acme"), INVALID);
        assert_eq!(annotation(IGNORE_ANNOTATION, "SingleZone, hunter2"), "SingleZone,invalid");
        assert_eq!(timestamp("2024-05-01T10:00:00Z").as_deref(), Some("2024-05-01T10:00:00Z"));
        assert_eq!(timestamp("yesterday at acme"), None);
        assert_eq!(event_source("endpoint-slice-controller").as_deref(), Some("endpoint-slice-controller"));
        assert_eq!(event_source("acme-bot"), None);
    }
}
