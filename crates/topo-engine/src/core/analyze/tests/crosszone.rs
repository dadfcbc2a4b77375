use crate::core::analyze::crosszone::{TrafficModel, origins, unknown_zones};
use crate::core::zones::{LABEL_CONTROL_PLANE, set_nodes};
use crate::model::{CpuAmount, LABEL_ZONE, Node};

fn node(name: &str, zone: &str, millis: i64) -> Node {
    Node {
        name: name.into(),
        labels: [(LABEL_ZONE.to_string(), zone.to_string())].into(),
        allocatable_cpu: Some(CpuAmount::from_millis(millis)),
        ready: Some("True".into()),
        kubelet_version: None,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn requests_follow_zone_cpu_then_node_cpu() {
    let nodes = vec![node("a1", "a", 1000), node("a2", "a", 3000), node("b1", "b", 4000)];
    let o = origins(&nodes, &set_nodes(&nodes), &TrafficModel::ZoneCpu);
    let shares: Vec<(&str, f64)> = o.iter().map(|(n, _, w)| (n.as_str(), *w)).collect();
    assert_eq!(shares.len(), 3);
    assert!(close(shares[0].1, 0.125) && close(shares[1].1, 0.375) && close(shares[2].1, 0.5), "{shares:?}");
}

#[test]
fn a_zone_of_uncounted_nodes_spreads_its_given_share_evenly() {
    let mut cp = node("cp1", "x", 4000);
    cp.labels.insert(LABEL_CONTROL_PLANE.into(), String::new());
    let nodes = vec![node("a1", "a", 1000), cp.clone(), Node { name: "cp2".into(), ..cp }];
    let given = TrafficModel::Given([("a".to_string(), 1.0), ("x".to_string(), 3.0)].into());
    let o = origins(&nodes, &set_nodes(&nodes), &given);
    let w = |name: &str| o.iter().find(|(n, _, _)| n == name).unwrap().2;
    assert!(close(w("a1"), 0.25) && close(w("cp1"), 0.375) && close(w("cp2"), 0.375));
    // With zone CPU, control-plane nodes originate nothing (the controller does not count them).
    let o = origins(&nodes, &set_nodes(&nodes), &TrafficModel::ZoneCpu);
    assert_eq!(o.len(), 1);
    assert_eq!(unknown_zones(&given, &nodes), Vec::<String>::new());
    let missing = TrafficModel::Given([("zz".to_string(), 1.0)].into());
    assert_eq!(unknown_zones(&missing, &nodes), vec!["zz".to_string()]);
}
