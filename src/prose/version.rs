//! Words for where the modelled Kubernetes version came from: the header suffix of `explain` and
//! `simulate`, and the `note:` when the version was not given by `--k8s-version` or an exact server.

use topo_engine::core::version::{self, Chosen, Reporter, TooOld};
use topo_engine::model::version::{NEWEST_MINOR, OLDEST_MINOR};
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::VersionBasis;

/// What follows "Kubernetes 1.NN behaviour" in a header: empty when the version was asked for or
/// is the server's own.
pub(crate) fn header_suffix(basis: Option<&VersionBasis>) -> String {
    match basis {
        None | Some(VersionBasis::Flag) => String::new(),
        Some(VersionBasis::Server { git_version, newer_than_modelled }) => match newer_than_modelled {
            true => format!(", the newest modelled (server {git_version})"),
            false => String::new(),
        },
        Some(VersionBasis::Kubelets { highest, newer_than_modelled, .. }) => match newer_than_modelled {
            true => format!(", the newest modelled (kubelets {highest})"),
            false => ", inferred from kubelet versions".to_string(),
        },
        Some(VersionBasis::Default) => ", assumed (no version recorded)".to_string(),
    }
}

/// The `note:` lines a version choice owes the user: why this version when it was not simply
/// given, and the Nodes whose kubelets are older than the control plane.
pub(crate) fn notes(chosen: &Chosen, snapshot: &Snapshot) -> Vec<String> {
    let basis = note(&chosen.basis, chosen.behaviour);
    // kube-proxy's own version (its DaemonSet's image), when read, wins over the kubelets'.
    let skew = match kube_proxy_note(snapshot, chosen.behaviour) {
        Some(note) => Some(note),
        None => version::skew(chosen.behaviour, snapshot)
            .map(|skew| skew_note(skew.nodes, skew.oldest, chosen.behaviour)),
    };
    basis.into_iter().chain(skew).collect()
}

/// The `note:` when kube-proxy's DaemonSet names its version: it is modelled at that version on
/// every Linux Node instead of at the kubelets'.
pub(crate) fn kube_proxy_note(snapshot: &Snapshot, control_plane: Behaviour) -> Option<String> {
    let image = snapshot.data_plane.kube_proxy_image.as_deref()?;
    let release = snapshot.data_plane.kube_proxy_release()?;
    let tag = topo_engine::model::image_tag(image).unwrap_or("");
    let modelled = if release < control_plane { release.to_string() } else { control_plane.to_string() };
    let kubelets = topo_engine::model::version::KubeletMinors::of(
        snapshot.nodes.iter().filter_map(|n| n.kubelet_version.as_deref()),
    )
    .map(|k| {
        if k.lowest == k.highest {
            format!("1.{}", k.highest)
        } else {
            format!("1.{} to 1.{}", k.lowest, k.highest)
        }
    })
    .unwrap_or_else(|| "unknown".to_string());
    Some(format!(
        "kube-proxy runs {} (image of DaemonSet kube-system/kube-proxy), not the kubelets' version ({kubelets}): \
         kube-proxy is modelled at {modelled} on every Linux Node",
        crate::escape::escape(tag)
    ))
}

/// The `note:` for a skewed cluster: some kubelets older than the control plane.
pub(crate) fn skew_note(nodes: usize, oldest: Behaviour, control_plane: Behaviour) -> String {
    format!(
        "{nodes} Node(s) run an older kubelet than the control plane (oldest {oldest}, control plane \
         {control_plane}): kube-proxy there is modelled at each node's own version"
    )
}

/// The words for a kube-proxy group modelled at its node's older version.
pub(crate) fn kube_proxy_at(version: &str) -> String {
    format!("kube-proxy {version}")
}

/// The `note:` that says how the version was chosen, when it was not simply given.
pub(crate) fn note(basis: &VersionBasis, modelled: Behaviour) -> Option<String> {
    match basis {
        VersionBasis::Flag | VersionBasis::Default => None,
        VersionBasis::Server { newer_than_modelled: false, .. } => None,
        VersionBasis::Server { git_version, newer_than_modelled: true } => Some(format!(
            "the server runs {git_version}, newer than the newest line modelled (1.{NEWEST_MINOR}): \
             modelling Kubernetes {modelled} behaviour"
        )),
        VersionBasis::Kubelets { lowest, highest, nodes, newer_than_modelled } => {
            let span = if lowest == highest { highest.clone() } else { format!("{lowest} to {highest}") };
            let newest = if *newer_than_modelled { ", the newest line modelled" } else { "" };
            Some(format!(
                "no server version recorded: modelling Kubernetes {modelled}{newest}, inferred from the kubelets \
                 of {nodes} Node(s) ({span}); --k8s-version overrides"
            ))
        }
    }
}

/// The error line for a cluster older than any line modelled.
pub(crate) fn too_old(e: &TooOld) -> String {
    let who = match e.reporter {
        Reporter::Server => "the server",
        Reporter::NewestKubelet => "the newest kubelet",
    };
    format!(
        "{who} runs Kubernetes 1.{}, older than the oldest line modelled (1.{OLDEST_MINOR}, the first with \
         topology hints)",
        e.minor
    )
}
