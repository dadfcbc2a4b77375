//! Where kube-proxy's nftables mode sends ClusterIP traffic, from `nft list table ip kube-proxy`:
//! the `service-ips` map element `IP . proto . port : goto <chain>`, then that chain's
//! `dnat ip to numgen random mod N map { 0 : IP . port, … }` (v1.36.3), or `goto`/`jump`s to
//! endpoint chains with `dnat … to IP:port` (session affinity, older releases); or the
//! `no-endpoint-services` element (`drop` / `goto reject-chain`).

use std::collections::{BTreeMap, BTreeSet};

use crate::proxy_rules::Routing;

/// `name → body` of every `map`/`chain` block of the table (inner braces kept in the body).
fn blocks(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some((_, body, depth)) = current.as_mut() {
            *depth += trimmed.matches('{').count();
            *depth -= trimmed.matches('}').count().min(*depth);
            if *depth == 0 {
                let (name, body, _) = current.take().unwrap();
                out.insert(name, body);
            } else {
                body.push_str(trimmed);
                body.push('\n');
            }
            continue;
        }
        for kind in ["map ", "chain "] {
            if let Some(rest) = trimmed.strip_prefix(kind).and_then(|r| r.strip_suffix(" {")) {
                current = Some((format!("{kind}{}", rest.trim_matches('"')), String::new(), 1));
            }
        }
    }
    out
}

/// The verdict of the element keyed `ip . proto . port` in a map body, and its comment.
fn element(map: &str, ip: &str, port: u16, protocol: &str) -> Option<(String, String)> {
    let flat = map.replace('\n', " ");
    let elements = flat.split_once("elements = {")?.1;
    let key = format!("{ip} . {} . {port}", protocol.to_ascii_lowercase());
    let at = elements.split([',', '{']).map(str::trim).find(|e| e.starts_with(&format!("{key} ")))?;
    let (head, verdict) = at[key.len()..].split_once(" : ")?;
    let comment = head.trim().strip_prefix("comment ").unwrap_or_default().trim_matches('"').to_string();
    Some((verdict.trim_end_matches([' ', '}']).trim().to_string(), comment))
}

/// The `IP . port` values of a `numgen … map { 0 : IP . port, … }` in a rule.
fn numgen_map(rule: &str) -> Vec<String> {
    let Some((_, map)) = rule.split_once("map {") else { return vec![] };
    let map = map.split('}').next().unwrap_or_default();
    map.split(',')
        .filter_map(|e| {
            e.split_once(" : ").map(|(_, v)| v.split(" . ").next().unwrap_or_default().trim().to_string())
        })
        .collect()
}

/// Follow `goto`/`jump` targets from `chain` and collect the DNAT addresses.
fn destinations(
    chains: &BTreeMap<String, String>,
    chain: &str,
    seen: &mut BTreeSet<String>,
    ips: &mut BTreeSet<String>,
) {
    if !seen.insert(chain.to_string()) {
        return;
    }
    let Some(body) = chains.get(&format!("chain {chain}")) else { return };
    for rule in body.lines() {
        if rule.contains(" to numgen ") {
            ips.extend(numgen_map(rule));
            continue;
        }
        let words: Vec<&str> = rule.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let Some(next) = words.get(i + 1).map(|n| n.trim_end_matches(',').trim_matches('"')) else {
                continue;
            };
            match *w {
                "goto" | "jump" if next != "mark-for-masquerade" => destinations(chains, next, seen, ips),
                "to" if words[..i].contains(&"dnat") => {
                    ips.insert(next.rsplit_once(':').map_or(next, |(ip, _)| ip).to_string());
                }
                _ => {}
            }
        }
    }
}

/// What the table does with traffic to ClusterIP `ip:port`.
pub fn routing(text: &str, ip: &str, port: u16, protocol: &str) -> Routing {
    let blocks = blocks(text);
    let map = |name: &str| blocks.get(&format!("map {name}")).and_then(|m| element(m, ip, port, protocol));
    if let Some((verdict, _)) = map("service-ips") {
        let chain = verdict.strip_prefix("goto ").unwrap_or(&verdict).trim_matches('"').to_string();
        let mut ips = BTreeSet::new();
        destinations(&blocks, &chain, &mut BTreeSet::new(), &mut ips);
        return Routing::Endpoints { chain, ips };
    }
    match map("no-endpoint-services") {
        Some((verdict, comment)) => {
            let target = match verdict.as_str() {
                "drop" => "DROP".to_string(),
                "goto reject-chain" => "REJECT".to_string(),
                other => other.to_string(),
            };
            Routing::Filtered { target, comment }
        }
        None => Routing::Absent,
    }
}

#[cfg(test)]
mod tests {
    //! On `nft list table ip kube-proxy` captured from kube-proxy v1.36.3 (nftables mode) in this
    //! tier: round 1 on k-a1 and k-a2, round 3 on k-d1 (zone-d added).

    use super::*;

    const A1: &str = include_str!("testdata/kube-proxy-v1.36.3/nft-list-k-a1.txt");
    const A2: &str = include_str!("testdata/kube-proxy-v1.36.3/nft-list-k-a2.txt");
    const D1: &str = include_str!("testdata/kube-proxy-v1.36.3/nft-list-k-d1.txt");
    const LOCAL: &str = "10.96.212.218";
    const EKS: &str = "10.96.160.166";
    const SAME_ZONE: &str = "10.96.252.96";

    fn set(ips: &[&str]) -> BTreeSet<String> {
        ips.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn blocks_split_maps_and_chains_with_nested_braces() {
        let b = blocks(A1);
        assert!(b["map service-ips"].contains("elements = {"));
        assert!(b["chain local-G742P6RH-kp-zones/local/tcp/http"].contains("numgen random mod 2"));
        assert!(!b.contains_key("map service-ips {"));
    }

    #[test]
    fn elements_match_the_whole_key() {
        let b = blocks(A2);
        let (verdict, comment) = element(&b["map no-endpoint-services"], LOCAL, 80, "TCP").unwrap();
        assert_eq!((verdict.as_str(), comment.as_str()), ("drop", "kp-zones/local:http"));
        // A port that is a prefix of the listed one, and an address that is a suffix, do not match.
        assert_eq!(element(&b["map service-ips"], EKS, 8, "tcp"), None);
        assert_eq!(element(&b["map service-ips"], "0.96.160.166", 80, "tcp"), None);
    }

    #[test]
    fn the_service_chain_numgen_map_gives_the_endpoints() {
        let Routing::Endpoints { chain, ips } = routing(A1, LOCAL, 80, "tcp") else {
            panic!("local on k-a1")
        };
        assert!(chain.starts_with("local-"), "{chain}");
        assert_eq!(ips, set(&["10.244.0.12", "10.244.0.13"]));
        assert!(routing(A1, LOCAL, 80, "tcp").local_chain());
        let eks = routing(D1, EKS, 80, "tcp");
        assert!(!eks.local_chain());
        assert_eq!(eks.ips(), set(&["10.244.0.3", "10.244.0.4", "10.244.0.5"]));
        assert_eq!(
            routing(D1, SAME_ZONE, 80, "tcp").ips(),
            set(&["10.244.0.9", "10.244.0.10", "10.244.0.11"])
        );
    }

    #[test]
    fn no_endpoint_verdicts_are_drop_or_reject() {
        assert_eq!(
            routing(A2, LOCAL, 80, "tcp"),
            Routing::Filtered { target: "DROP".into(), comment: "kp-zones/local:http".into() }
        );
        let Routing::Filtered { target, .. } = routing(A2, "10.96.0.1", 443, "tcp") else { panic!() };
        assert_eq!(target, "REJECT");
        assert_eq!(routing(A2, "10.96.0.1", 80, "tcp"), Routing::Absent);
        assert_eq!(routing("", EKS, 80, "tcp"), Routing::Absent);
    }

    #[test]
    fn endpoint_chains_with_plain_dnat_are_followed() {
        let text = "table ip kube-proxy {\n\tmap service-ips {\n\t\ttype ipv4_addr . inet_proto . inet_service : verdict\n\
                    \t\telements = { 10.96.0.9 . tcp . 80 : goto service-X }\n\t}\n\
                    \tchain service-X {\n\t\tnumgen random mod 2 vmap { 0 : goto endpoint-A, 1 : goto endpoint-B }\n\t}\n\
                    \tchain endpoint-A {\n\t\tip saddr 10.0.0.1 jump mark-for-masquerade\n\t\tmeta l4proto tcp dnat to 10.0.0.1:8080\n\t}\n\
                    \tchain endpoint-B {\n\t\tmeta l4proto tcp dnat ip to 10.0.0.2:8080\n\t}\n}\n";
        assert_eq!(routing(text, "10.96.0.9", 80, "tcp").ips(), set(&["10.0.0.1", "10.0.0.2"]));
    }
}
