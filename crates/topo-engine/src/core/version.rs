//! Which Kubernetes version to model for a cluster, and why: the flag's version (`--k8s-version`,
//! given by the caller) first, else the server's `gitVersion` (live, or recorded by `dump`; its
//! patch too, docs/behaviour.md#version-table), else the newest minor of the Nodes' kubelets (a
//! `kubectl get` dump records no server version; a kubelet is never newer than its API server),
//! else the newest line modelled. A version newer than the newest line is modelled as the newest;
//! one older than the oldest is refused ([`TooOld`]). Not a port of an upstream function: the
//! choice every caller makes before the ports run. Codes and facts only; the caller words them.

use crate::model::version::{
    KubeletMinors, Modelled, NEWEST_MINOR, kube_proxy_on_node, release_of, version_of,
};
use crate::model::{Behaviour, Snapshot};
use crate::report::VersionBasis;

/// The version to model and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The behaviour modelled.
    pub behaviour: Behaviour,
    /// Why.
    pub basis: VersionBasis,
}

/// Whose version was too old.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reporter {
    /// The API server's `gitVersion`.
    Server,
    /// The newest kubelet among the Nodes (no server version recorded).
    NewestKubelet,
}

/// The cluster runs a version older than any line modelled (the first with topology hints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooOld {
    /// Whose version it is.
    pub reporter: Reporter,
    /// The minor it runs.
    pub minor: u32,
}

/// The version to model for `snapshot`, `flag` (`--k8s-version`) first.
pub fn choose(flag: Option<Behaviour>, snapshot: &Snapshot) -> Result<Chosen, TooOld> {
    if let Some(behaviour) = flag {
        return Ok(Chosen { behaviour, basis: VersionBasis::Flag });
    }
    let server = snapshot.info.server_version.as_deref();
    if let Some((git_version, (minor, patch))) = server.and_then(|v| Some((v, version_of(v)?))) {
        let (behaviour, newer) = modelled(minor, Reporter::Server)?;
        // The server's patch selects patch-level behaviour; a newer-than-modelled server is the
        // newest line at its newest patch.
        let behaviour = if newer { behaviour } else { Behaviour { patch, ..behaviour } };
        let git_version = git_version.to_string();
        return Ok(Chosen {
            behaviour,
            basis: VersionBasis::Server { git_version, newer_than_modelled: newer },
        });
    }
    let kubelets = snapshot.nodes.iter().filter_map(|n| n.kubelet_version.as_deref());
    if let Some(k) = KubeletMinors::of(kubelets) {
        let (behaviour, newer) = modelled(k.highest, Reporter::NewestKubelet)?;
        let basis = VersionBasis::Kubelets {
            lowest: format!("1.{}", k.lowest),
            highest: format!("1.{}", k.highest),
            nodes: k.nodes,
            newer_than_modelled: newer,
        };
        return Ok(Chosen { behaviour, basis });
    }
    Ok(Chosen { behaviour: Behaviour::default(), basis: VersionBasis::Default })
}

/// Nodes whose kubelet runs older than the control plane's `behaviour`: kube-proxy there is
/// modelled at that version (docs/behaviour.md#skewed-clusters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skew {
    /// How many Nodes.
    pub nodes: usize,
    /// The oldest version among them.
    pub oldest: Behaviour,
}

/// The skew of `snapshot`'s Nodes against the control plane's `behaviour`, if any.
pub fn skew(behaviour: Behaviour, snapshot: &Snapshot) -> Option<Skew> {
    let kubelets = snapshot.nodes.iter().map(|n| n.kubelet_version.as_deref().and_then(release_of));
    let skewed: Vec<Behaviour> = kubelets.filter_map(|k| kube_proxy_on_node(behaviour, k)).collect();
    Some(Skew { nodes: skewed.len(), oldest: *skewed.iter().min()? })
}

fn modelled(minor: u32, reporter: Reporter) -> Result<(Behaviour, bool), TooOld> {
    match Modelled::of(minor) {
        Modelled::Exactly(b) => Ok((b, false)),
        Modelled::AsNewest(_) => Ok((Behaviour::new(NEWEST_MINOR), true)),
        Modelled::TooOld(minor) => Err(TooOld { reporter, minor }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Node;

    fn snapshot(server: Option<&str>, kubelets: &[&str]) -> Snapshot {
        let node = |v: &&str| Node {
            name: format!("n-{v}"),
            labels: Default::default(),
            allocatable_cpu: None,
            ready: None,
            kubelet_version: Some((*v).to_string()),
        };
        let mut s = Snapshot { nodes: kubelets.iter().map(node).collect(), ..Snapshot::default() };
        s.info.server_version = server.map(String::from);
        s
    }

    #[test]
    fn the_flag_wins_then_the_server_then_the_kubelets_then_the_newest_line() {
        let v129 = Behaviour::new(29);
        let s = snapshot(Some("v1.33.4-eks-1"), &["v1.30.1"]);
        assert_eq!(choose(Some(v129), &s).unwrap(), Chosen { behaviour: v129, basis: VersionBasis::Flag });
        assert_eq!(choose(None, &s).unwrap().behaviour, Behaviour::patch(33, 4));
        let kubelets = choose(None, &snapshot(None, &["v1.28.2", "v1.29.9-gke.1"])).unwrap();
        assert_eq!(kubelets.behaviour, v129);
        assert!(
            matches!(kubelets.basis, VersionBasis::Kubelets { nodes: 2, ref lowest, .. } if lowest == "1.28")
        );
        assert_eq!(choose(None, &snapshot(None, &[])).unwrap().basis, VersionBasis::Default);
        assert_eq!(choose(None, &snapshot(None, &[])).unwrap().behaviour, Behaviour::default());
    }

    #[test]
    fn nodes_older_than_the_control_plane_are_a_skew() {
        let s = snapshot(Some("v1.33.13"), &["v1.33.13", "v1.30.2", "v1.31.0", "v1.33.4"]);
        let skew = skew(choose(None, &s).unwrap().behaviour, &s).unwrap();
        assert_eq!(skew, Skew { nodes: 3, oldest: Behaviour::patch(30, 2) });
        assert_eq!(skew_of(Behaviour::new(30), &s), None, "kubelets newer than the flag's version");
        assert_eq!(skew_of(Behaviour::new(36), &snapshot(None, &["v1.36.0"])), None);
    }

    fn skew_of(behaviour: Behaviour, s: &Snapshot) -> Option<Skew> {
        skew(behaviour, s)
    }

    #[test]
    fn newer_is_modelled_as_the_newest_and_older_is_refused() {
        let newer = choose(None, &snapshot(Some("v1.40.0"), &[])).unwrap();
        assert!(matches!(newer.basis, VersionBasis::Server { newer_than_modelled: true, .. }));
        assert_eq!(newer.behaviour, Behaviour::default());
        let bare = choose(None, &snapshot(Some("v1.33"), &[])).unwrap();
        assert_eq!(bare.behaviour, Behaviour::new(33), "no patch: the newest patch");
        assert_eq!(
            choose(None, &snapshot(Some("v1.19.3"), &[])),
            Err(TooOld { reporter: Reporter::Server, minor: 19 })
        );
        let old = choose(None, &snapshot(None, &["v1.20.1"])).unwrap_err();
        assert_eq!(old.reporter, Reporter::NewestKubelet);
    }
}
