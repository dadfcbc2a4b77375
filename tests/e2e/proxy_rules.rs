//! Reading what a real kube-proxy decided, from its own artefacts: the rules it programmed
//! (`iptables-save` text) and the klog lines it printed while syncing. Pure text in, data out;
//! the unit tests run on text captured from kube-proxy v1.36.3 in this tier.

use std::collections::BTreeSet;

/// One `-A CHAIN ...` line of `iptables-save`, tokenised (double quotes removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub table: String,
    pub chain: String,
    pub args: Vec<String>,
}

impl Rule {
    /// The value after option `name` (e.g. `-d`, `--dport`, `-j`), when not negated.
    fn opt(&self, name: &str) -> Option<&str> {
        let i = self.args.iter().position(|a| a == name)?;
        if i > 0 && self.args[i - 1] == "!" {
            return None;
        }
        self.args.get(i + 1).map(String::as_str)
    }

    /// The jump (`-j`) or goto (`-g`) target.
    fn target(&self) -> Option<&str> {
        self.opt("-j").or_else(|| self.opt("-g"))
    }
}

/// Split one line as iptables-save quotes it: words, `"..."` groups with `\"` escapes.
fn tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => cur.extend(chars.next()),
            '"' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Every rule of every table in an `iptables-save` dump.
pub fn parse_save(text: &str) -> Vec<Rule> {
    let mut table = String::new();
    let mut rules = Vec::new();
    for line in text.lines() {
        if let Some(t) = line.strip_prefix('*') {
            table = t.trim().to_string();
        } else if line.starts_with("-A ") {
            let mut args = tokens(line);
            args.remove(0);
            let chain = args.remove(0);
            rules.push(Rule { table: table.clone(), chain, args });
        }
    }
    rules
}

/// Where kube-proxy sends ClusterIP traffic for one service port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Routing {
    /// Load-balanced over these endpoint IPs; `chain` is the first chain (`KUBE-SVC-…` /
    /// nftables `service-…` for the Cluster policy, `KUBE-SVL-…` / `local-…` for Local).
    Endpoints { chain: String, ips: BTreeSet<String> },
    /// A filter rule ends the traffic: `DROP` ("has no local endpoints") or `REJECT` ("has no
    /// endpoints"); nftables: the `no-endpoint-services` verdict (`drop` → `DROP`, `goto
    /// reject-chain` → `REJECT`) and the element's comment.
    Filtered { target: String, comment: String },
    /// No rule for this ClusterIP:port at all (kube-proxy has not seen the Service).
    Absent,
}

impl Routing {
    /// Load-balanced by the Local-policy chain (`KUBE-SVL-…`, nftables `local-…`).
    pub fn local_chain(&self) -> bool {
        matches!(self, Routing::Endpoints { chain, .. } if chain.starts_with("KUBE-SVL-") || chain.starts_with("local-"))
    }

    /// The endpoint IPs traffic reaches (empty when filtered or absent).
    pub fn ips(&self) -> BTreeSet<String> {
        match self {
            Routing::Endpoints { ips, .. } => ips.clone(),
            _ => BTreeSet::new(),
        }
    }
}

fn matches_service(rule: &Rule, ip: &str, port: u16, protocol: &str) -> bool {
    rule.chain == "KUBE-SERVICES"
        && rule.opt("-d") == Some(&format!("{ip}/32"))
        && rule.opt("--dport") == Some(&port.to_string())
        && rule.opt("-p").is_none_or(|p| p.eq_ignore_ascii_case(protocol))
}

/// Follow `chain` through KUBE-SVC/KUBE-SVL/KUBE-SEP chains to the DNAT destinations.
fn destinations(rules: &[Rule], chain: &str, seen: &mut BTreeSet<String>, ips: &mut BTreeSet<String>) {
    if !seen.insert(chain.to_string()) {
        return;
    }
    for rule in rules.iter().filter(|r| r.table == "nat" && r.chain == chain) {
        match rule.target() {
            Some("DNAT") => {
                let to = rule.opt("--to-destination").unwrap_or_default();
                let ip = to.rsplit_once(':').map_or(to, |(ip, _)| ip);
                ips.insert(ip.trim_matches(['[', ']']).to_string());
            }
            Some(t)
                if t.starts_with("KUBE-SEP-") || t.starts_with("KUBE-SVC-") || t.starts_with("KUBE-SVL-") =>
            {
                destinations(rules, t, seen, ips);
            }
            _ => {}
        }
    }
}

/// What the rules do with TCP/UDP traffic to `ip:port` (an IPv4 ClusterIP).
pub fn routing(rules: &[Rule], ip: &str, port: u16, protocol: &str) -> Routing {
    let nat = rules.iter().find(|r| r.table == "nat" && matches_service(r, ip, port, protocol));
    if let Some(chain) = nat.and_then(Rule::target) {
        let mut ips = BTreeSet::new();
        destinations(rules, chain, &mut BTreeSet::new(), &mut ips);
        return Routing::Endpoints { chain: chain.to_string(), ips };
    }
    let filter = rules.iter().find(|r| r.table == "filter" && matches_service(r, ip, port, protocol));
    match filter {
        Some(rule) => Routing::Filtered {
            target: rule.target().unwrap_or_default().to_string(),
            comment: rule.opt("--comment").unwrap_or_default().to_string(),
        },
        None => Routing::Absent,
    }
}

/// The message part of a klog text line (after the `I0102 15:04:05.000000 pid file:line] `
/// header), or the whole line when it has no header.
pub fn klog_message(line: &str) -> &str {
    let header = line.len() > 1 && matches!(line.as_bytes()[0], b'I' | b'W' | b'E' | b'F');
    match line.split_once("] ") {
        Some((_, msg)) if header => msg,
        _ => line,
    }
}

const SYNC_START: [&str; 2] = ["\"Syncing iptables rules\"", "\"Syncing nftables rules\""];
const SYNC_DONE: &str = "\"SyncProxyRules complete\"";

/// Messages of the first complete sync of the IPv4 proxier in `log` (from its "Syncing
/// iptables/nftables rules" line to its "SyncProxyRules complete" line, both included). Lines of other goroutines
/// (the IPv6 proxier, informers) may interleave; callers filter by Service.
pub fn first_sync_block(log: &str) -> Option<Vec<String>> {
    let v4 = |m: &str| !m.contains("ipFamily=") || m.contains("ipFamily=\"IPv4\"");
    let mut block: Option<Vec<String>> = None;
    for msg in log.lines().map(klog_message) {
        if SYNC_START.iter().any(|s| msg.starts_with(s)) && v4(msg) {
            block = Some(Vec::new());
        }
        if let Some(lines) = block.as_mut() {
            lines.push(msg.to_string());
            if msg.starts_with(SYNC_DONE) && v4(msg) {
                return block;
            }
        }
    }
    None
}

/// The topology lines (`Ignoring same-… topology hints…`, `Skipping topology aware…`) printed
/// for the Service shown as `service` (`clusterIP:port/protocol`) in a block.
pub fn topology_lines(block: &[String], service: &str) -> Vec<String> {
    let key = format!("service=\"{service}\"");
    block
        .iter()
        .filter(|m| m.starts_with("\"Ignoring same-") || m.starts_with("\"Skipping topology"))
        .filter(|m| m.contains(&key))
        .cloned()
        .collect()
}

#[cfg(test)]
#[path = "proxy_rules_tests.rs"]
mod tests;
