//! What `serve` exports, in kube-state-metrics' manner: which namespaces it holds
//! (`--namespaces`, `--namespaces-denylist`), which Services get the per-zone families
//! (`--per-zone-series`), which metric families a scrape shows (`--metric-allowlist`,
//! `--metric-denylist`) and which findings are set aside (`check`'s ignore rules: the
//! `kubectl-topo.io/ignore` annotation and the config file). Pure: `settings` decides the values,
//! `serve` hands them in.

use std::collections::BTreeSet;

use regex::Regex;

use crate::triage::IgnoreRules;

/// Which Services get the per-zone families (`expected_hinted_endpoints`, `hinted_endpoints`):
/// two series per zone each, the bulk of a large cluster's series.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PerZone {
    /// Only Services that asked for hints or have some (what `check` lists by default).
    #[default]
    Hinted,
    /// Every Service.
    All,
}

/// The namespaces whose Services and EndpointSlices are held: those of `only` (every namespace
/// when empty) that are not in `except`. Exact names, as kube-state-metrics takes them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Namespaces {
    /// `--namespaces`: only these (empty: all).
    pub only: BTreeSet<String>,
    /// `--namespaces-denylist`: never these.
    pub except: BTreeSet<String>,
}

impl Namespaces {
    /// True when objects of `namespace` are held. Nodes have no namespace and are always held.
    pub fn keeps(&self, namespace: &str) -> bool {
        namespace.is_empty()
            || ((self.only.is_empty() || self.only.contains(namespace)) && !self.except.contains(namespace))
    }
}

/// Which metric families a scrape shows, matched by their name (`kubectl_topo_…`, counters
/// without `_total`) as kube-state-metrics matches its lists: a family is shown when some
/// allowlist regex matches somewhere in its name, or, with a denylist, when none does. The two
/// lists exclude each other (settings refuses both).
#[derive(Debug, Clone, Default)]
pub enum MetricFilter {
    /// Every family.
    #[default]
    All,
    /// Only families some regex matches.
    Allow(Vec<Regex>),
    /// Every family but those some regex matches.
    Deny(Vec<Regex>),
}

impl MetricFilter {
    /// True when the family `name` is shown.
    pub fn keeps(&self, name: &str) -> bool {
        match self {
            MetricFilter::All => true,
            MetricFilter::Allow(list) => list.iter().any(|r| r.is_match(name)),
            MetricFilter::Deny(list) => !list.iter().any(|r| r.is_match(name)),
        }
    }
}

/// What the exporter's state holds and how it sums a Service up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// `--per-zone-series`.
    pub per_zone: PerZone,
    /// `--namespaces`, `--namespaces-denylist`.
    pub namespaces: Namespaces,
    /// The config file's excludes and levels (the annotation is read per Service).
    pub rules: IgnoreRules,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn namespaces_allow_then_deny_and_nodes_always() {
        let all = Namespaces::default();
        assert!(all.keeps("default") && all.keeps(""));
        let only = Namespaces { only: set(&["a", "b"]), except: set(&["b"]) };
        assert!(only.keeps("a"));
        assert!(!only.keeps("b"), "the denylist wins");
        assert!(!only.keeps("c"));
        assert!(only.keeps(""), "Nodes have no namespace");
        let deny = Namespaces { only: BTreeSet::new(), except: set(&["kube-system"]) };
        assert!(deny.keeps("default") && !deny.keeps("kube-system"));
    }

    #[test]
    fn metric_lists_match_anywhere_in_the_name_like_kube_state_metrics() {
        let regexes = |list: &[&str]| list.iter().map(|r| Regex::new(r).unwrap()).collect::<Vec<_>>();
        let allow = MetricFilter::Allow(regexes(&["service_verdict", "^kubectl_topo_ready$"]));
        assert!(allow.keeps("kubectl_topo_service_verdict"));
        assert!(allow.keeps("kubectl_topo_ready"));
        assert!(!allow.keeps("kubectl_topo_ready_x"));
        assert!(!allow.keeps("kubectl_topo_hinted_endpoints"));
        let deny = MetricFilter::Deny(regexes(&[".*hinted_endpoints"]));
        assert!(!deny.keeps("kubectl_topo_expected_hinted_endpoints"));
        assert!(deny.keeps("kubectl_topo_service_verdict"));
        assert!(MetricFilter::All.keeps("anything"));
    }
}
