//! The shape of a synthetic cluster: which nodes, Services and endpoints exist, drawn from a seeded
//! generator (a pure function of the size and the seed), before any hint is computed.

/// How big a cluster to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub nodes: usize,
    pub services: usize,
    pub endpoints: usize,
    pub zones: usize,
    pub seed: u64,
}

impl Size {
    /// `small` (100 / 200 / 2,000), `large` (5,000 / 10,000 / 100,000), `xlarge` (65,000 nodes
    /// over 6 zones / 100,000 / 1,000,000: GKE's 65,000-node limit), `ai` (130,000 nodes over 3
    /// zones / 1,000 / 20,000: the largest AI clusters), `small*K`, or `xmix*K`
    /// (xlarge's mix of nodes and zones at K/500 of its size: `xmix*500` is xlarge).
    pub fn preset(name: &str) -> Option<Size> {
        let small = Size { nodes: 100, services: 200, endpoints: 2_000, zones: 3, seed: 7 };
        match name {
            "small" => Some(small),
            "large" => Some(Size { nodes: 5_000, services: 10_000, endpoints: 100_000, ..small }),
            // The largest real clusters are AI clusters: 65,000 nodes supported and 130,000
            // experimental on GKE, 100,000 on EKS, with few Services.
            "ai" => Some(Size { nodes: 130_000, services: 1_000, endpoints: 20_000, zones: 3, ..small }),
            "xlarge" => {
                Some(Size { nodes: 65_000, services: 100_000, endpoints: 1_000_000, zones: 6, ..small })
            }
            _ if name.starts_with("xmix*") => {
                // xlarge's mix (6 zones, 0.65 nodes per Service) at 1/500 of it per step, so that
                // `xmix*500` is xlarge itself and `xmix*K` has small*K's Services and endpoints.
                let k: usize = name.strip_prefix("xmix*")?.parse().ok().filter(|&k| k > 0)?;
                Some(Size {
                    nodes: 130 * k,
                    services: small.services * k,
                    endpoints: small.endpoints * k,
                    zones: 6,
                    ..small
                })
            }
            _ => {
                let k: usize = name.strip_prefix("small*")?.parse().ok()?;
                Some(Size {
                    nodes: small.nodes * k,
                    services: small.services * k,
                    endpoints: small.endpoints * k,
                    ..small
                })
            }
        }
    }
}

/// splitmix64: small, seeded, good enough for synthetic data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// `len` lowercase alphanumerics, as generateName suffixes look.
    pub fn suffix(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..len).map(|_| ALPHABET[self.below(ALPHABET.len())] as char).collect()
    }
    pub fn hex(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            s.push_str(&format!("{:016x}", self.next()));
        }
        s.truncate(len);
        s
    }
    pub fn uid(&mut self) -> String {
        let h = self.hex(32);
        format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
    }
}

/// A node type: cores of capacity, millicores allocatable, instance type.
pub const NODE_TYPES: [(u32, i64, &str); 5] = [
    (4, 3_920, "m6i.xlarge"),
    (8, 7_910, "m6i.2xlarge"),
    (16, 15_890, "m6i.4xlarge"),
    (32, 31_850, "m6i.8xlarge"),
    (64, 63_770, "m6i.16xlarge"),
];

#[derive(Debug, Clone)]
pub struct NodePlan {
    pub name: String,
    pub zone: String,
    pub node_type: usize,
    pub ready: bool,
    pub control_plane: bool,
    pub ip: [u8; 4],
}

/// How a Service asks for topology hints: the product's own mode names.
pub use topo_engine::report::mode::Mode;

#[derive(Debug, Clone)]
pub struct EndpointPlan {
    pub ip: [u8; 4],
    /// Index into the node list.
    pub node: usize,
    pub ready: bool,
    pub pod: String,
}

#[derive(Debug, Clone)]
pub struct ServicePlan {
    pub namespace: String,
    pub name: String,
    pub mode: Mode,
    pub cluster_ip: [u8; 4],
    pub endpoints: Vec<EndpointPlan>,
    /// generateName suffix of each slice (endpoints packed 100 per slice, in order).
    pub slice_suffixes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct ClusterPlan {
    pub size: Size,
    pub nodes: Vec<NodePlan>,
    pub services: Vec<ServicePlan>,
}

/// Endpoints per slice, as the controller packs them (`--max-endpoints-per-slice` default).
pub const MAX_PER_SLICE: usize = 100;

pub fn zone_name(z: usize) -> String {
    format!("us-east-1{}", (b'a' + z as u8) as char)
}

fn ip_of(base: u8, i: usize) -> [u8; 4] {
    [10, base, (i / 250) as u8, (i % 250 + 1) as u8]
}

fn nodes(size: &Size, rng: &mut Rng) -> Vec<NodePlan> {
    (0..size.nodes)
        .map(|i| {
            let zone = i % size.zones;
            // Zones differ in their node mix, so their CPU shares differ.
            let node_type = (rng.below(3) + zone) % NODE_TYPES.len();
            // Unique past 62,500 nodes (xlarge), the same addresses as before below that.
            let ip = [10, (zone + 1 + 16 * (i / 62_500)) as u8, ((i / 250) % 250) as u8, (i % 250 + 1) as u8];
            NodePlan {
                name: format!("ip-{}-{}-{}-{}.ec2.internal", ip[0], ip[1], ip[2], ip[3]),
                zone: zone_name(zone),
                node_type,
                ready: !rng.chance(1),
                control_plane: i < 3,
                ip,
            }
        })
        .collect()
}

fn mode(rng: &mut Rng) -> Mode {
    match rng.below(100) {
        0..30 => Mode::Auto,
        30..45 => Mode::PreferClose,
        45..55 => Mode::PreferSameZone,
        55..60 => Mode::PreferSameNode,
        _ => Mode::None,
    }
}

/// Endpoint counts per Service: mostly small, a few large (several slices), summing to `total`.
fn endpoint_counts(size: &Size, rng: &mut Rng) -> Vec<usize> {
    let raw: Vec<u64> = (0..size.services)
        .map(|_| match rng.below(100) {
            0..70 => 1 + rng.below(8) as u64,
            70..97 => 10 + rng.below(30) as u64,
            _ => 100 + rng.below(250) as u64,
        })
        .collect();
    let sum: u64 = raw.iter().sum();
    let mut counts: Vec<usize> =
        raw.iter().map(|r| ((r * size.endpoints as u64) / sum).max(1) as usize).collect();
    let mut assigned: usize = counts.iter().sum();
    while assigned < size.endpoints {
        let i = rng.below(counts.len());
        counts[i] += 1;
        assigned += 1;
    }
    while assigned > size.endpoints {
        let i = rng.below(counts.len());
        if counts[i] > 1 {
            counts[i] -= 1;
            assigned -= 1;
        }
    }
    counts
}

/// Draw a cluster of `size`.
pub fn plan(size: Size) -> ClusterPlan {
    let mut rng = Rng::new(size.seed);
    let nodes = nodes(&size, &mut rng);
    let workers: Vec<usize> = (0..nodes.len()).filter(|&i| !nodes[i].control_plane).collect();
    let namespaces = (size.services / 200).max(1);
    let mut next_ip = 0usize;
    let services = endpoint_counts(&size, &mut rng)
        .into_iter()
        .enumerate()
        .map(|(s, count)| {
            let name = format!("svc-{s:05}-{}", rng.suffix(4));
            let endpoints = (0..count)
                .map(|_| {
                    next_ip += 1;
                    EndpointPlan {
                        ip: ip_of(64 + (next_ip / 62_500) as u8, next_ip % 62_500),
                        node: workers[rng.below(workers.len())],
                        ready: !rng.chance(3),
                        pod: format!("{name}-{}-{}", rng.hex(10), rng.suffix(5)),
                    }
                })
                .collect();
            ServicePlan {
                namespace: format!("team-{:03}", s % namespaces),
                mode: mode(&mut rng),
                // Unique past 62,500 Services (xlarge), as before below that.
                cluster_ip: [10, 96 + (s / 62_500) as u8, (1 + (s / 250) % 250) as u8, (s % 250 + 1) as u8],
                slice_suffixes: (0..count.div_ceil(MAX_PER_SLICE)).map(|_| rng.suffix(5)).collect(),
                endpoints,
                name,
            }
        })
        .collect();
    ClusterPlan { size, nodes, services }
}
