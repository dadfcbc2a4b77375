//! Which upstream behaviour to model: one Kubernetes minor version with its default feature gates,
//! and the patch release where a patch changed behaviour (docs/behaviour.md#version-table). Every
//! version-dependent branch in `core` asks a method here, so the table lives in one place.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Oldest minor version we model (the hints API exists since 1.21).
pub const OLDEST_MINOR: u32 = 21;
/// Newest minor version we model, and the default: the newest released line. 1.37 behaves as 1.36
/// for everything modelled (docs/behaviour.md#version-table).
pub const NEWEST_MINOR: u32 = 37;
/// The default behaviour when nothing says which version runs: the newest released line.
pub const DEFAULT_MINOR: u32 = NEWEST_MINOR;

/// Behaviour of the EndpointSlice controller and kube-proxy at one version, default gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Behaviour {
    /// Kubernetes minor version (1.`minor`).
    pub minor: u32,
    /// Patch release (1.`minor`.`patch`); `None` = the newest patch of that minor (what `1.33`
    /// means: a minor behaves as its newest patch release).
    pub patch: Option<u32>,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour::new(DEFAULT_MINOR)
    }
}

impl Ord for Behaviour {
    /// By release: a minor without a patch is its newest patch, so after every numbered one.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |b: &Behaviour| (b.minor, b.patch.unwrap_or(u32::MAX));
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Behaviour {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Error for a `--k8s-version` we do not model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported Kubernetes version {0:?}: expected 1.{OLDEST_MINOR} … 1.{NEWEST_MINOR} (e.g. 1.36)")]
pub struct VersionError(pub String);

/// The minor of `1.NN`, `v1.NN`, `1.NN.P` or a server `gitVersion` like `v1.33.4-eks-1234`,
/// whether or not we model it.
pub fn minor_of(text: &str) -> Option<u32> {
    version_of(text).map(|(minor, _)| minor)
}

/// Minor and patch of `1.NN`, `v1.NN`, `1.NN.P` or a `gitVersion` like `v1.33.4-eks-1234`
/// (patch `None` when not given); whether or not we model it.
pub fn version_of(text: &str) -> Option<(u32, Option<u32>)> {
    let mut parts = text.trim().trim_start_matches('v').splitn(3, '.');
    if parts.next() != Some("1") {
        return None;
    }
    let leading = |part: &str| -> Option<u32> {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let minor_part = parts.next()?;
    let minor = leading(minor_part)?;
    // `1.33-eks` has no patch; `1.33.` or `1.33.x` is not a version.
    let patch = match parts.next() {
        None => None,
        Some(_) if minor_part.len() != minor.to_string().len() => return None,
        Some(patch) => Some(leading(patch)?),
    };
    Some((minor, patch))
}

impl FromStr for Behaviour {
    type Err = VersionError;
    /// Accepts `1.NN`, `v1.NN`, `1.NN.P` and server `gitVersion`s like `v1.33.4-eks-1234`, for a
    /// minor we model; the patch is kept (docs/behaviour.md#version-table: patch releases).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match version_of(s) {
            Some((minor, patch)) if (OLDEST_MINOR..=NEWEST_MINOR).contains(&minor) => {
                Ok(Behaviour { minor, patch })
            }
            _ => Err(VersionError(s.to_string())),
        }
    }
}

/// How a running version maps to a modelled one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modelled {
    /// A minor we model.
    Exactly(Behaviour),
    /// Newer than the newest minor we model (the minor given): modelled as the newest.
    AsNewest(u32),
    /// Older than the oldest minor we model (the minor given): the hints API does not exist there.
    TooOld(u32),
}

impl Modelled {
    /// The modelled line for a running minor.
    pub fn of(minor: u32) -> Modelled {
        match minor {
            m if m < OLDEST_MINOR => Modelled::TooOld(m),
            m if m > NEWEST_MINOR => Modelled::AsNewest(m),
            m => Modelled::Exactly(Behaviour::new(m)),
        }
    }
}

/// The minors the Nodes' kubelets report (`status.nodeInfo.kubeletVersion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KubeletMinors {
    /// The oldest minor.
    pub lowest: u32,
    /// The newest minor: the control plane runs at least this one, since a kubelet is never newer
    /// than its API server (the version skew policy), and during an upgrade the control plane goes
    /// first.
    pub highest: u32,
    /// How many Nodes report a version we can read.
    pub nodes: usize,
}

impl KubeletMinors {
    /// The minors of the versions given; None when none of them reads as `v1.NN…`.
    pub fn of<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<KubeletMinors> {
        let minors: Vec<u32> = versions.into_iter().filter_map(minor_of).collect();
        Some(KubeletMinors {
            lowest: *minors.iter().min()?,
            highest: *minors.iter().max()?,
            nodes: minors.len(),
        })
    }
}

/// The release a `kubeletVersion` (`v1.30.14-eks-…`) names, whether or not we model its minor.
pub fn release_of(text: &str) -> Option<Behaviour> {
    version_of(text).map(|(minor, patch)| Behaviour { minor, patch })
}

/// The version kube-proxy on a node runs, when it behaves differently from the control plane's
/// `control_plane` (a skewed cluster, docs/behaviour.md#skewed-clusters): the node's
/// `status.nodeInfo.kubeletVersion` stands for kube-proxy's (`kubeProxyVersion` is deprecated and
/// empty). `None` when the node runs the control plane's behaviour: no readable version, the same
/// minor at a patch that behaves the same (or any patch when the control plane's patch is not
/// known: a bare minor stands for its newest patch cluster-wide), or a kubelet newer than the
/// control plane (the skew policy forbids a kube-proxy newer than its API server, so the control
/// plane's is modelled). A kubelet older than the oldest line is modelled as the oldest (no
/// topology filtering either way).
pub fn kube_proxy_on_node(control_plane: Behaviour, kubelet: Option<Behaviour>) -> Option<Behaviour> {
    let kubelet = kubelet?;
    let node = match kubelet.minor {
        m if m < OLDEST_MINOR => Behaviour::new(OLDEST_MINOR),
        m if m > NEWEST_MINOR => return None,
        _ => kubelet,
    };
    let behaves_apart = match control_plane.patch {
        None => node.minor != control_plane.minor,
        Some(_) => node.proxy_patch_class() != control_plane.proxy_patch_class(),
    };
    (node < control_plane && behaves_apart).then_some(node)
}

/// Minors with a patch release that changed modelled behaviour (docs/behaviour.md#era-boundaries).
const PATCH_LEVEL_MINORS: [u32; 6] = [25, 26, 27, 28, 29, 33];

impl fmt::Display for Behaviour {
    /// The behaviour modelled: `1.NN`, and `.P` only for a minor whose patches differ (every patch
    /// of 1.36 behaves as 1.36, so `v1.36.2` shows as `1.36`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(patch) if PATCH_LEVEL_MINORS.contains(&self.minor) => write!(f, "1.{}.{patch}", self.minor),
            _ => write!(f, "1.{}", self.minor),
        }
    }
}

impl Behaviour {
    /// The newest patch of `1.NN`.
    pub const fn new(minor: u32) -> Self {
        Behaviour { minor, patch: None }
    }
    /// Patch release `1.NN.P`.
    pub const fn patch(minor: u32, patch: u32) -> Self {
        Behaviour { minor, patch: Some(patch) }
    }
    /// The same minor, newest patch: what the rows of the version table describe.
    pub fn newest_patch(self) -> Self {
        Behaviour::new(self.minor)
    }
    /// This is 1.`minor`.`patch` or a later patch of that minor (a minor without a patch is its
    /// newest patch, so at least every numbered one).
    fn at_or_after_patch(&self, patch: u32) -> bool {
        self.patch.is_none_or(|p| p >= patch)
    }
    /// kube-proxy's `topologyModeFromHints` returns "" for an empty endpoint list, printing no
    /// topology line: 1.33.6+ (the backport k/k #133527 of #132680, v1.33.6
    /// `pkg/proxy/topology.go:156`) and 1.34+ (where `CategorizeEndpoints` returns even earlier).
    pub fn proxy_skips_topology_without_endpoints(&self) -> bool {
        self.minor >= 34 || (self.minor == 33 && self.at_or_after_patch(6))
    }
    /// `canUseTopology`'s "Skipping topology aware endpoint filtering" lines are `V(2)`, not
    /// `InfoS`: 1.30+, and backported to 1.29.5 and 1.28.10 (k/k v1.29.4 → v1.29.5 and v1.28.9 →
    /// v1.28.11 `pkg/proxy/topology.go`; v1.28.10, released with v1.29.5, is not served by the Go
    /// module proxy).
    pub fn proxy_skip_logs_at_v2(&self) -> bool {
        match self.minor {
            30.. => true,
            29 => self.at_or_after_patch(5),
            28 => self.at_or_after_patch(10),
            _ => false,
        }
    }
    /// The "missing a zone hint" line names the endpoint (#121457): 1.29.0+, and 1.28.10+ with
    /// the verbosity change.
    pub fn proxy_names_unhinted_endpoint(&self) -> bool {
        self.minor >= 29 || (self.minor == 28 && self.at_or_after_patch(10))
    }
    /// What sets one patch release of kube-proxy apart from another of its minor.
    fn proxy_patch_class(&self) -> (u32, bool, bool, bool) {
        let b = self;
        (
            b.minor,
            b.proxy_skips_topology_without_endpoints(),
            b.proxy_skip_logs_at_v2(),
            b.proxy_names_unhinted_endpoint(),
        )
    }
    /// TopologyAwareHints gate on in kube-controller-manager / apiserver / kube-proxy (beta-on 1.24).
    /// Off means the controller has no topology cache (docs/behaviour.md#mode-selection).
    pub fn topology_aware_hints_gate(&self) -> bool {
        self.minor >= 24
    }
    /// The controller records topology Events (`TopologyAwareHintsEnabled`/`Disabled`): 1.26+
    /// (k/k v1.26.0 `topologycache/event.go`, #113544); before, `AddHints` returns only the slices
    /// and the same outcomes are only logged (k/k v1.25.16 `topologycache.go:87`).
    pub fn controller_emits_events(&self) -> bool {
        self.minor >= 26
    }
    /// `service.kubernetes.io/topology-mode` is read (1.27+); before only the deprecated key.
    pub fn reads_topology_mode_annotation(&self) -> bool {
        self.minor >= 27
    }
    /// ServiceTrafficDistribution gate (alpha off 1.30, on 1.31+, removed 1.36 = always).
    pub fn service_traffic_distribution_gate(&self) -> bool {
        self.minor >= 31
    }
    /// PreferSameTrafficDistribution gate (alpha off 1.33, beta on 1.34, GA 1.35).
    pub fn prefer_same_traffic_distribution_gate(&self) -> bool {
        self.minor >= 34
    }
    /// The controller validates `trafficDistribution` (`validTrafficDistribution`, 1.33+); before,
    /// any value with the gate on reaches `trafficdist` (1.30–1.32).
    pub fn validates_traffic_distribution(&self) -> bool {
        self.minor >= 33
    }
    /// 1.30–1.32 prefer-close writes `forZones:[""]` for zone-less ready endpoints (ES `ae45d1c`).
    pub fn writes_empty_zone_hints(&self) -> bool {
        (30..=32).contains(&self.minor)
    }
    /// The controller ignores a `topology.kubernetes.io/zone` label added to an existing Node
    /// (kubernetes/kubernetes#117245): before the fix its `updateNode` re-read the Nodes only when
    /// readiness changed (k/k v1.24.17 `endpointslice_controller.go` `updateNode`), so a Node that
    /// joined without a zone leaves the topology cache zone-less until a Node is added, deleted or
    /// changes readiness, or the controller restarts. Fixed in 1.28.0 and backported to 1.27.5
    /// (#117269), 1.26.8 (#117268) and 1.25.13 (#117267) (CHANGELOG-1.25/1.26/1.27.md); 1.24 never
    /// got it. Before 1.24 the gate is off by default and there is no cache to go stale.
    pub fn ignores_node_zone_updates(&self) -> bool {
        match self.minor {
            24 => true,
            25 => !self.at_or_after_patch(ZONE_UPDATE_FIX[0].1),
            26 => !self.at_or_after_patch(ZONE_UPDATE_FIX[1].1),
            27 => !self.at_or_after_patch(ZONE_UPDATE_FIX[2].1),
            _ => false,
        }
    }
    /// The first release of this line that sees a zone label added to an existing Node
    /// (kubernetes/kubernetes#117245): 1.25.13, 1.26.8, 1.27.5, else 1.28.0.
    pub fn node_zone_update_fix(&self) -> Behaviour {
        ZONE_UPDATE_FIX
            .iter()
            .find(|(minor, _)| *minor == self.minor)
            .map_or(Behaviour::patch(28, 0), |(minor, patch)| Behaviour::patch(*minor, *patch))
    }
    /// Which `spec.trafficDistribution` values the API server accepts at this version with its
    /// default gates (k/k `validation.go` `validateServiceTrafficDistribution`,
    /// `kube_features.go`): the field does not exist before 1.30; `PreferClose` behind the
    /// ServiceTrafficDistribution gate (alpha, off) on 1.30; `PreferClose` alone on 1.31–1.32; on
    /// 1.33 `PreferSameZone`/`PreferSameNode` behind PreferSameTrafficDistribution (alpha, off);
    /// every value from 1.34, `PreferClose` deprecated from 1.35.
    pub fn traffic_distribution_values(&self) -> TrafficDistributionValues {
        match self.minor {
            ..=29 => TrafficDistributionValues::NoField,
            30 => TrafficDistributionValues::BehindGate,
            31..=32 => TrafficDistributionValues::PreferCloseOnly,
            33 => TrafficDistributionValues::PreferCloseSameBehindGate,
            34 => TrafficDistributionValues::All,
            _ => TrafficDistributionValues::AllPreferCloseDeprecated,
        }
    }
    /// The kube-proxy era of this version (docs/behaviour.md#proxy-eras).
    pub fn proxy_era(&self) -> ProxyEra {
        match self.minor {
            34.. => ProxyEra::Newest,
            33 => ProxyEra::V133,
            30..=32 => ProxyEra::V130,
            27..=29 => ProxyEra::V127,
            24..=26 => ProxyEra::V124,
            _ => ProxyEra::V121,
        }
    }
}

/// The patch release of 1.25, 1.26 and 1.27 that carries the fix of kubernetes/kubernetes#117245
/// (`Behaviour::ignores_node_zone_updates`).
const ZONE_UPDATE_FIX: [(u32, u32); 3] = [(25, 13), (26, 8), (27, 5)];

/// What `spec.trafficDistribution` can be set to at one version, default gates
/// ([`Behaviour::traffic_distribution_values`]); the remedies name only these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrafficDistributionValues {
    /// Before 1.30: the field does not exist (the API server drops it).
    NoField,
    /// 1.30: `PreferClose`, behind the ServiceTrafficDistribution gate (alpha, off) on
    /// kube-apiserver, kube-controller-manager and kube-proxy.
    BehindGate,
    /// 1.31–1.32: `PreferClose` only.
    PreferCloseOnly,
    /// 1.33: `PreferClose`; `PreferSameZone`/`PreferSameNode` behind the
    /// PreferSameTrafficDistribution gate (alpha, off).
    PreferCloseSameBehindGate,
    /// 1.34: `PreferClose`, `PreferSameZone` (the same meaning) and `PreferSameNode`.
    All,
    /// 1.35+: as 1.34, `PreferClose` a deprecated alias of `PreferSameZone` (k/k `types.go`).
    AllPreferCloseDeprecated,
}

/// kube-proxy behaviour eras (docs/behaviour.md#proxy-eras).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProxyEra {
    /// 1.34+: node → zone → none; no topology logs for a port without endpoints
    /// (kubernetes/kubernetes#132680), from 1.36 also without ready endpoints (#136743).
    Newest,
    /// 1.33: as newest, but no early return in `CategorizeEndpoints`, and `topologyModeFromHints`'
    /// for an empty list only from 1.33.6 (the backport #133527,
    /// [`Behaviour::proxy_skips_topology_without_endpoints`]); node hints need the gate (off in 1.33).
    V133,
    /// 1.30–1.32: zone only; gate/annotation requirement; `Z == ""` → no topology.
    V130,
    /// 1.27–1.29: annotation non-empty and not `disabled`/`Disabled`; node label checked first.
    V127,
    /// 1.24–1.26: annotation exactly `Auto`/`auto`.
    V124,
    /// 1.21–1.23: gate off by default → no topology filtering.
    V121,
}

#[cfg(test)]
mod tests;
