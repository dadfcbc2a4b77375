use super::*;
use crate::source::dump::fast::{read_item, read_item_two_pass};
use crate::source::dump::{DumpError, ParsedDump};

const NODE_REST: &str = r#""metadata": {"name": "n", "labels": {"topology.kubernetes.io/zone": "a"}}, "status": {"allocatable": {"cpu": "2"}}"#;

/// Items, each with whether the one-pass decode takes it in a `List` and in a `NodeList`.
fn items() -> Vec<(String, bool, bool)> {
    let items = vec![
        (format!(r#"{{"apiVersion": "v1", "kind": "Node", {NODE_REST}}}"#), true, true),
        (format!(r#"{{"kind": "Node", "apiVersion": "v1", {NODE_REST}}}"#), true, true),
        (format!(r#"{{{NODE_REST}, "apiVersion": "v1", "kind": "Node"}}"#), true, false),
        (format!(r#"{{"apiVersion": "v1", {NODE_REST}, "kind": "Node"}}"#), true, true),
        (format!(r#"{{"apiVersion": "v1", "kind": "Node", {NODE_REST}, "kind": "Node"}}"#), false, false),
        (format!(r#"{{"apiVersion": "v1", "kind": "Node", {NODE_REST}, "apiVersion": "v2"}}"#), false, false),
        (format!(r#"{{"apiVersion": "v1", "kind": "Node", "kind": "Pod", {NODE_REST}}}"#), false, false),
        (format!(r#"{{"apiVersion": "v1", "kind": null, {NODE_REST}}}"#), false, false),
        (format!(r#"{{"apiVersion": 1, "kind": "Node", {NODE_REST}}}"#), false, false),
        (format!(r#"{{"apiVersion": "v1", "kin\u0064": "Node", {NODE_REST}}}"#), false, false),
        (format!(r#"{{"apiVersion": "v\u0031", "kind": "Node", {NODE_REST}}}"#), false, false),
        (format!(r#"{{"apiVersion": "v1", {NODE_REST}}}"#), false, false),
        (format!(r#"{{"kind": "Node", {NODE_REST}}}"#), false, false),
        (format!(r#"{{{NODE_REST}}}"#), false, true),
        (format!(r#"{{{NODE_REST}, "kind": "Node"}}"#), false, false),
        (r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "x"}}}"#.into(), false, false),
        // Nameless: the general reader refuses it with its message.
        (r#"{"apiVersion": "v1", "kind": "Node", "status": {}}"#.into(), false, false),
        (r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 80}]}}"#.into(), true, true),
        (r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": "80"}]}}"#.into(), false, false),
        (r#"{"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "endpoints": [{"addresses": ["10.0.0.1"], "zone": "a"}], "kind": "EndpointSlice", "metadata": {"name": "s-1"}}"#.into(), true, false),
        (r#"{"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.2"}"#.into(), true, true),
        (r#"{"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.2", "kind": "Node"}"#.into(), false, false),
        (r#"{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}, "involvedObject": {"kind": "Service", "name": "s"}, "message": "m"}"#.into(), true, true),
        (r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}"#.into(), false, false),
        (r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}"#.into(), false, false),
        (r#"{"apiVersion": "v1", "kind": "NodeList", "items": [{"metadata": {"name": "n"}}]}"#.into(), false, false),
        (r#"{"apiVersion": "discovery.k8s.io/v1beta1", "kind": "EndpointSlice", "metadata": {"name": "s"}}"#.into(), false, false),
        ("{}".into(), false, false),
        ("null".into(), false, false),
        ("[1]".into(), false, false),
    ];
    items
}

fn read(items: &[&str], inherited: Inherited<'_>, one_pass: bool) -> Result<ParsedDump, DumpError> {
    let mut reader = Reader::new("t");
    for item in items {
        if one_pass {
            read_item(item, inherited, &mut reader)?
        } else {
            read_item_two_pass(item, inherited, &mut reader)?
        }
    }
    reader.finish()
}

#[test]
fn one_pass_reads_exactly_what_two_passes_read() {
    let anchor = format!(r#"{{"apiVersion": "v1", "kind": "Node", {NODE_REST}}}"#);
    for inherited in [None, Some(("v1", "Node")), Some(("v1", "Service"))] {
        for (item, ..) in items() {
            let both = [anchor.as_str(), item.as_str()];
            assert_eq!(
                read(&both, inherited, true),
                read(&both, inherited, false),
                "{item} in {inherited:?}"
            );
        }
    }
}

#[test]
fn one_pass_decodes_only_what_two_passes_decode_directly() {
    for (item, in_list, in_node_list) in items() {
        for (inherited, decodes) in [(None, in_list), (Some(("v1", "Node")), in_node_list)] {
            let mut reader = Reader::new("t");
            assert_eq!(read_in_one_pass(&item, inherited, &mut reader), decodes, "{item} in {inherited:?}");
            if !decodes {
                let nothing = Err(DumpError::Empty { origin: "t".into() });
                assert_eq!(reader.finish(), nothing, "{item}: nothing recorded");
            }
        }
    }
}
