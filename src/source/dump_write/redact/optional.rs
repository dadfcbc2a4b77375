//! The optional reads' objects in a redacted dump (`convert::optional`): rebuilt from the model,
//! every value among the words the engine reads (else `invalid`), images reduced to the
//! component's name and its version (no registry, account or build suffix).

use serde_json::{Map, Value, json};

use topo_engine::model::{DataPlane, OptionalObject, image_tag};

use super::values;
use crate::source::convert::optional::{OPTIONAL_READS, daemon_set_item};

/// The items of `data_plane`'s optional objects that were read.
pub(super) fn items(data_plane: &DataPlane) -> Vec<Value> {
    let mut items = Vec::new();
    if let Some(cilium) = &data_plane.cilium {
        let mut data = Map::new();
        for (key, value) in cilium.data() {
            let Some(value) = value else { continue };
            let word = match key {
                "kube-proxy-replacement" => values::cilium_replacement(value),
                _ => values::cilium_topology(value),
            };
            data.insert(key.to_string(), Value::String(word));
        }
        items.push(config_map("cilium-config", data));
    }
    if let Some(mode) = &data_plane.kube_proxy_mode {
        let mut data = Map::new();
        data.insert("config.conf".into(), Value::String(format!("mode: {:?}\n", values::proxy_mode(mode))));
        items.push(config_map("kube-proxy", data));
    }
    items.extend(data_plane.front_doors.linkerd.as_ref().map(linkerd_config));
    for (object, image) in [
        (OptionalObject::CiliumAgent, &data_plane.cilium_image),
        (OptionalObject::KubeProxyAgent, &data_plane.kube_proxy_image),
        (OptionalObject::Ztunnel, &data_plane.front_doors.ztunnel_image),
        (OptionalObject::OvnKubeNode, &data_plane.ovn_kubernetes_image),
    ] {
        let read = OPTIONAL_READS.iter().find(|r| r.object == object);
        if let (Some(read), Some(image)) = (read, image) {
            let image = format!("{}:{}", read.names[0], version_core(image_tag(image).unwrap_or("")));
            items.push(daemon_set_item(
                read.namespace,
                read.names[0],
                &[(read.keys[0].to_string(), Some(image))],
            ));
        }
    }
    items
}

/// linkerd-config reduced to its two lines; a version not shaped like a release (`stable-2.14.10`)
/// is `invalid`.
fn linkerd_config(linkerd: &topo_engine::model::Linkerd) -> Value {
    let release = |v: &String| {
        let (channel, number) = v.split_once('-').unwrap_or(("", ""));
        let known = ["stable", "edge", "enterprise"].contains(&channel)
            && !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit() || c == '.');
        if known { v.clone() } else { "invalid".to_string() }
    };
    let kept =
        topo_engine::model::Linkerd { version: linkerd.version.as_ref().map(release), ..linkerd.clone() };
    let mut data = Map::new();
    data.insert("values".into(), Value::String(kept.values()));
    let mut item = config_map("linkerd-config", data);
    item["metadata"]["namespace"] = Value::String("linkerd".into());
    item
}

fn config_map(name: &str, data: Map<String, Value>) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "kube-system", "name": name}, "data": data})
}

/// `v1.21.2` of `v1.21.2-eksbuild.2`: the release is what is read; the suffix names a build.
pub(super) fn version_core(tag: &str) -> &str {
    let end = tag
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == 'v')))
        .map_or(tag.len(), |(i, _)| i);
    &tag[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_keep_the_component_and_its_release_only() {
        let dp = DataPlane {
            kube_proxy_image: Some(
                "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/kube-proxy:v1.21.2-eksbuild.2".into(),
            ),
            kube_proxy_mode: Some("ipvs; rm -rf".into()),
            ..DataPlane::default()
        };
        let text = serde_json::to_string(&items(&dp)).unwrap();
        assert!(text.contains("\"kube-proxy:v1.21.2\""), "{text}");
        assert!(
            !text.contains("602401143452") && !text.contains("eksbuild") && !text.contains("rm -rf"),
            "{text}"
        );
        assert!(text.contains("mode: \\\"invalid\\\""), "{text}");
    }
}
