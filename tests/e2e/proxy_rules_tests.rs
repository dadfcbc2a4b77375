//! The parsers on text captured from kube-proxy v1.36.3 (iptables mode) in this tier:
//! `testdata/kube-proxy-v1.36.3/`, round 1 on k-a1 and k-a2 and round 3 on k-d1 (zone-d added).

use super::*;

const A1: &str = include_str!("testdata/kube-proxy-v1.36.3/iptables-save-k-a1.txt");
const A2: &str = include_str!("testdata/kube-proxy-v1.36.3/iptables-save-k-a2.txt");
const D1: &str = include_str!("testdata/kube-proxy-v1.36.3/iptables-save-k-d1.txt");
const D1_LOG: &str = include_str!("testdata/kube-proxy-v1.36.3/kube-proxy-k-d1.log");

// ClusterIPs in the captured text.
const EKS: &str = "10.96.153.199";
const LOCAL: &str = "10.96.129.61";
const SAME_ZONE: &str = "10.96.254.147";
const SAME_NODE: &str = "10.96.3.46";

fn set(ips: &[&str]) -> BTreeSet<String> {
    ips.iter().map(|s| s.to_string()).collect()
}

#[test]
fn tokens_keep_quoted_comments_whole() {
    let line = r#"-A KUBE-SVC-X -m comment --comment "ns/svc:http -> 10.0.0.1:80" -j KUBE-SEP-Y"#;
    assert_eq!(tokens(line)[5], "ns/svc:http -> 10.0.0.1:80");
    assert_eq!(tokens(r#"a "b \"c\" d" "" e"#), vec!["a", r#"b "c" d"#, "", "e"]);
}

#[test]
fn rules_are_read_per_table_and_chain() {
    let rules = parse_save(A1);
    assert!(rules.iter().any(|r| r.table == "filter" && r.chain == "KUBE-FIREWALL"));
    let services = rules.iter().filter(|r| r.table == "nat" && r.chain == "KUBE-SERVICES").count();
    assert!(services >= 6, "{services} nat KUBE-SERVICES rules");
    let negated = rules.iter().find(|r| r.chain.starts_with("KUBE-SVC-")).unwrap();
    // `! -s 10.244.0.0/16`: a negated option is not a match on that value.
    assert_eq!(negated.opt("-s"), None);
    assert_eq!(negated.target(), Some("KUBE-MARK-MASQ"));
}

#[test]
fn cluster_policy_follows_the_svc_chain_to_its_dnat_targets() {
    let rules = parse_save(A1);
    let Routing::Endpoints { chain, ips } = routing(&rules, EKS, 80, "tcp") else { panic!("eks on k-a1") };
    assert!(chain.starts_with("KUBE-SVC-"), "{chain}");
    assert_eq!(ips, set(&["10.244.0.3"]));
    // PreferSameNode on k-d1 (no hint for the node nor its zone): all three endpoints.
    let d1 = parse_save(D1);
    assert_eq!(routing(&d1, SAME_NODE, 80, "TCP").ips(), set(&["10.244.0.6", "10.244.0.7", "10.244.0.8"]));
    assert_eq!(routing(&d1, SAME_ZONE, 80, "tcp").ips(), set(&["10.244.0.9", "10.244.0.10", "10.244.0.11"]));
}

#[test]
fn local_policy_is_an_svl_chain_or_a_drop_rule() {
    let a1 = parse_save(A1);
    let Routing::Endpoints { chain, ips } = routing(&a1, LOCAL, 80, "tcp") else { panic!("local on k-a1") };
    assert!(chain.starts_with("KUBE-SVL-"), "{chain}");
    assert_eq!(ips, set(&["10.244.0.12", "10.244.0.13"]));
    let a2 = parse_save(A2);
    assert_eq!(
        routing(&a2, LOCAL, 80, "tcp"),
        Routing::Filtered {
            target: "DROP".into(),
            comment: "kp-zones/local:http has no local endpoints".into()
        }
    );
}

#[test]
fn no_endpoints_is_a_reject_and_unknown_ports_are_absent() {
    let a2 = parse_save(A2);
    let Routing::Filtered { target, comment } = routing(&a2, "10.96.0.1", 443, "tcp") else { panic!() };
    assert_eq!((target.as_str(), comment.as_str()), ("REJECT", "default/kubernetes:https has no endpoints"));
    assert_eq!(routing(&a2, EKS, 81, "tcp"), Routing::Absent);
    assert_eq!(routing(&a2, EKS, 80, "udp"), Routing::Absent);
    assert_eq!(routing(&a2, "10.96.1.1", 80, "tcp"), Routing::Absent);
}

#[test]
fn klog_message_strips_the_header_only() {
    let line = r#"I1121 17:23:44.807842   31405 proxier.go:668] "Syncing iptables rules" ipFamily="IPv4""#;
    assert_eq!(klog_message(line), r#""Syncing iptables rules" ipFamily="IPv4""#);
    assert_eq!(klog_message("\tAccept: a] b"), "\tAccept: a] b");
}

#[test]
fn the_first_ipv4_sync_block_holds_its_topology_lines() {
    let block = first_sync_block(D1_LOG).expect("a complete IPv4 sync");
    assert!(block[0].contains("fullSync=true"), "{}", block[0]);
    assert!(block.last().unwrap().starts_with(SYNC_DONE));
    assert!(!block.iter().any(|m| m.contains("ipFamily=\"IPv6\"")));
    assert_eq!(
        topology_lines(&block, &format!("{SAME_ZONE}:80/TCP")),
        vec![
            format!(
                "\"Ignoring same-node topology hints for service since one or more endpoints is missing a node hint\" service=\"{SAME_ZONE}:80/TCP\""
            ),
            format!(
                "\"Ignoring same-zone topology hints for service since no hints were provided for zone\" service=\"{SAME_ZONE}:80/TCP\" zone=\"zone-d\""
            ),
        ]
    );
    assert_eq!(topology_lines(&block, &format!("{LOCAL}:80/TCP")), Vec::<String>::new());
}

#[test]
fn a_block_starts_after_the_offset_and_must_be_complete() {
    let ipv6_start = D1_LOG.find("\"Syncing iptables rules\" ipFamily=\"IPv6\"").unwrap();
    let rest = &D1_LOG[ipv6_start..];
    let block = first_sync_block(rest).expect("the next IPv4 sync");
    assert!(block[0].contains("fullSync=false"), "{}", block[0]);
    let cut = rest.rfind("\"SyncProxyRules complete\"").unwrap();
    assert_eq!(first_sync_block(&rest[..cut]), None);
}

#[test]
fn nftables_syncs_are_blocks_too() {
    let log = include_str!("testdata/kube-proxy-v1.36.3/kube-proxy-k-c1-nftables.log");
    let block = first_sync_block(log).expect("a complete IPv4 nftables sync");
    assert!(block[0].starts_with("\"Syncing nftables rules\" ipFamily=\"IPv4\""), "{}", block[0]);
    assert_eq!(
        topology_lines(&block, "10.96.119.92:80/TCP"),
        vec![
            "\"Ignoring same-node topology hints for service since no hints were provided for node\" service=\"10.96.119.92:80/TCP\" node=\"k-c1\"",
            "\"Ignoring same-zone topology hints for service since no hints were provided for zone\" service=\"10.96.119.92:80/TCP\" zone=\"zone-c\"",
        ]
    );
}
