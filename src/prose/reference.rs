//! The reason reference: for every reason code, what it means, the upstream rule behind it (file,
//! function, pull request) and how to fix it per release. `kubectl topo reasons [CODE]` prints it
//! and `docs/reasons/<Code>.md` is generated from it (a test holds the two equal), so the words
//! live here once. One arm per code, no fallback: a new code does not compile until it has its page.

mod data_plane;
mod diff;
mod front_doors;
mod mode;
mod paths;
mod proxy;
mod safeguards;

use topo_engine::report::reason::ReasonCode as C;

/// The reference page of one reason code.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// One line: what the code says, for the list of every code.
    pub summary: &'static str,
    /// What it means, in a few sentences.
    pub meaning: &'static str,
    /// The upstream rule: repository, file, function and pull request, one per line.
    pub upstream: &'static [&'static str],
    /// How to fix it: (the releases it applies to, what to do), oldest releases first.
    pub fix: &'static [(&'static str, &'static str)],
}

/// Where the project lives (Cargo.toml `repository`): every URL the plugin prints starts here.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The URL of a code's reference page in the repository.
pub fn page_url(code: C) -> String {
    format!("{REPOSITORY}/blob/main/docs/reasons/{code}.md")
}

/// The code named `name`, in any case (`overloadthreshold` is `OverloadThreshold`).
pub fn parse_code(name: &str) -> Option<C> {
    crate::triage::rules::parse_code(name.trim())
}

/// The reference page of `code`.
pub fn entry(code: C) -> Entry {
    match code {
        C::NotEnabled => mode::NOT_ENABLED,
        C::AnnotationValueIgnored => mode::ANNOTATION_VALUE_IGNORED,
        C::DeprecatedAnnotationWins => mode::DEPRECATED_ANNOTATION_WINS,
        C::AnnotationOverridesTrafficDistribution => mode::ANNOTATION_OVERRIDES_TRAFFIC_DISTRIBUTION,
        C::TrafficDistributionUnsupported => mode::TRAFFIC_DISTRIBUTION_UNSUPPORTED,
        C::TopologyGateOff => mode::TOPOLOGY_GATE_OFF,
        C::NoSelector => mode::NO_SELECTOR,
        C::ExternalName => mode::EXTERNAL_NAME,
        C::NoManagedSlices => mode::NO_MANAGED_SLICES,
        C::TrafficPolicyLocal => data_plane::TRAFFIC_POLICY_LOCAL,
        C::HeadlessService => data_plane::HEADLESS_SERVICE,
        C::WindowsNodes => data_plane::WINDOWS_NODES,
        C::KubeProxyVersionSkew => data_plane::KUBE_PROXY_VERSION_SKEW,
        C::CiliumIgnoresHints => data_plane::CILIUM_IGNORES_HINTS,
        C::CiliumAppliesHints => data_plane::CILIUM_APPLIES_HINTS,
        C::NodesUnknown => safeguards::NODES_UNKNOWN,
        C::SlicesUnknown => safeguards::SLICES_UNKNOWN,
        C::NodeMissingZone => safeguards::NODE_MISSING_ZONE,
        C::NodeMissingCPU => safeguards::NODE_MISSING_CPU,
        C::SingleZone => safeguards::SINGLE_ZONE,
        C::InsufficientEndpoints => safeguards::INSUFFICIENT_ENDPOINTS,
        C::OverloadThreshold => safeguards::OVERLOAD_THRESHOLD,
        C::EndpointMissingZone => safeguards::ENDPOINT_MISSING_ZONE,
        C::NoHintsAllocated => safeguards::NO_HINTS_ALLOCATED,
        C::HintsMissing => diff::HINTS_MISSING,
        C::HintsUnexpected => diff::HINTS_UNEXPECTED,
        C::HintsInvalid => diff::HINTS_INVALID,
        C::RewrittenEverySync => diff::REWRITTEN_EVERY_SYNC,
        C::Overloaded => diff::OVERLOADED,
        C::ProxyMissingZoneHint => proxy::MISSING_ZONE_HINT,
        C::ProxyZoneNotHinted => proxy::ZONE_NOT_HINTED,
        C::ProxyNodeMissingZone => proxy::NODE_MISSING_ZONE,
        C::ProxyMissingNodeHint => proxy::MISSING_NODE_HINT,
        C::ProxyNodeNotHinted => proxy::NODE_NOT_HINTED,
        C::ProxyNoReadyEndpoints => proxy::NO_READY_ENDPOINTS,
        C::ProxyTopologyNotUsed => proxy::TOPOLOGY_NOT_USED,
        C::ProxyWindowsIgnoresHints => proxy::WINDOWS_IGNORES_HINTS,
        C::KubeProxyAppliesHints => paths::KUBE_PROXY_APPLIES_HINTS,
        C::KubeProxyIgnoresHints => paths::KUBE_PROXY_IGNORES_HINTS,
        C::CiliumSocketLbAppliesHints => paths::CILIUM_SOCKET_LB_APPLIES_HINTS,
        C::CiliumSocketLbIgnoresHints => paths::CILIUM_SOCKET_LB_IGNORES_HINTS,
        C::CiliumVersionIgnoresValue => paths::CILIUM_VERSION_IGNORES_VALUE,
        C::CiliumVersionUnknown => paths::CILIUM_VERSION_UNKNOWN,
        C::DataPlaneUnknown => paths::DATA_PLANE_UNKNOWN,
        C::OvnKubernetesIgnoresHints => paths::OVN_KUBERNETES_IGNORES_HINTS,
        C::NodeZoneNotSeen => paths::NODE_ZONE_NOT_SEEN,
        super::front_door_codes!() => front_doors::entry(code),
    }
}

/// The heading a code's page is listed under (the groups of `kubectl topo reasons`).
pub fn group(code: C) -> &'static str {
    match code {
        C::NotEnabled
        | C::AnnotationValueIgnored
        | C::DeprecatedAnnotationWins
        | C::AnnotationOverridesTrafficDistribution
        | C::TrafficDistributionUnsupported
        | C::TopologyGateOff => "Mode: does the Service ask for hints",
        C::NoSelector | C::ExternalName | C::NoManagedSlices => {
            "Not reconciled by the EndpointSlice controller"
        }
        C::TrafficPolicyLocal
        | C::HeadlessService
        | C::WindowsNodes
        | C::KubeProxyVersionSkew
        | C::CiliumIgnoresHints
        | C::CiliumAppliesHints
        | C::KubeProxyAppliesHints
        | C::KubeProxyIgnoresHints
        | C::CiliumSocketLbAppliesHints
        | C::CiliumSocketLbIgnoresHints
        | C::CiliumVersionIgnoresValue
        | C::CiliumVersionUnknown
        | C::DataPlaneUnknown
        | C::OvnKubernetesIgnoresHints => "Data plane: who routes, and whether hints matter",
        super::front_door_codes!() => "Front doors: a gateway or mesh before the Service",
        C::NodesUnknown | C::SlicesUnknown => "Incomplete input",
        C::NodeMissingZone
        | C::NodeMissingCPU
        | C::SingleZone
        | C::InsufficientEndpoints
        | C::OverloadThreshold
        | C::EndpointMissingZone
        | C::NoHintsAllocated => "Safeguards: the controller withholds Auto hints",
        C::HintsMissing
        | C::HintsUnexpected
        | C::HintsInvalid
        | C::RewrittenEverySync
        | C::Overloaded
        | C::NodeZoneNotSeen => "Drift: the slices against the controller's next sync",
        C::ProxyMissingZoneHint
        | C::ProxyZoneNotHinted
        | C::ProxyNodeMissingZone
        | C::ProxyMissingNodeHint
        | C::ProxyNodeNotHinted
        | C::ProxyNoReadyEndpoints
        | C::ProxyTopologyNotUsed
        | C::ProxyWindowsIgnoresHints => "kube-proxy: why a node routes to every endpoint",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn every_code_has_a_whole_page() {
        for &code in C::VARIANTS {
            let e = entry(code);
            assert!(e.summary.ends_with('.') && !e.summary.contains('\n'), "{code}: {}", e.summary);
            assert!(e.meaning.ends_with('.'), "{code}: meaning");
            assert!(!e.upstream.is_empty() && !e.fix.is_empty(), "{code}: upstream and fix");
        }
    }

    #[test]
    fn codes_are_found_in_any_case_and_only_codes() {
        assert_eq!(parse_code("overloadthreshold"), Some(C::OverloadThreshold));
        assert_eq!(parse_code("NODEMISSINGCPU"), Some(C::NodeMissingCPU));
        assert_eq!(parse_code("Overload"), None);
        assert_eq!(parse_code(""), None);
    }

    #[test]
    fn urls_start_at_the_repository() {
        assert!(REPOSITORY.starts_with("https://github.com/"), "{REPOSITORY}");
        assert_eq!(page_url(C::HintsMissing), format!("{REPOSITORY}/blob/main/docs/reasons/HintsMissing.md"));
    }
}
