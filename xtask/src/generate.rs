//! `cargo xtask gen`: write a synthetic cluster as a `kubectl get -o json`-style `v1 List`.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::hints::{self, Drift, HintTable};
use crate::objects;
use crate::plan::{self, ClusterPlan, MAX_PER_SLICE, Rng, Size};

/// What was written.
#[derive(Debug)]
pub struct Summary {
    pub nodes: usize,
    pub services: usize,
    pub slices: usize,
    pub endpoints: usize,
    pub hinted_endpoints: usize,
    pub drift: Drift,
    pub bytes: u64,
}

/// How a dump is written: as `kubectl get -o json` or `-o yaml` prints a `v1 List`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Yaml,
}

impl Format {
    /// By the file name: `.yaml`/`.yml` is YAML, anything else JSON.
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => Format::Yaml,
            _ => Format::Json,
        }
    }
}

/// Generate `size` into `path` (JSON indented like kubectl's `-o json`, or YAML like `-o yaml`
/// when the name ends in `.yaml`), item by item.
pub fn write(size: Size, path: &Path) -> io::Result<Summary> {
    write_with(size, path, false)
}

/// [`write`], with the workloads behind each Service after the slices when `workloads`
/// (`gen --workloads`: [`crate::workloads`]); without, the same bytes as ever.
pub fn write_with(size: Size, path: &Path, workloads: bool) -> io::Result<Summary> {
    let mut plan = plan::plan(size);
    let behind = if workloads { crate::workloads::plan(&mut plan) } else { Vec::new() };
    let (table, drift) = hints::compute(&plan);
    let tmp = path.with_extension("tmp");
    let file = BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
    let mut out = ListWriter::new(file, Format::of(path))?;
    let mut objects = Objects::new(&plan, &table);
    objects.workloads = behind;
    for item in objects.by_ref() {
        out.item(&item)?;
    }
    out.finish()?;
    std::fs::rename(&tmp, path)?;
    Ok(Summary {
        nodes: plan.nodes.len(),
        services: plan.services.len(),
        slices: objects.slices,
        endpoints: endpoint_count(&plan),
        hinted_endpoints: table.len(),
        drift,
        bytes: std::fs::metadata(path)?.len(),
    })
}

/// The cluster's objects in dump order (Nodes, Services, EndpointSlices), made one at a time: the
/// dump writer and the live loader (`live::load_generated`) share it, so both are the same bytes.
pub struct Objects<'a> {
    plan: &'a ClusterPlan,
    table: &'a HintTable,
    rng: Rng,
    uids: Vec<String>,
    cursor: Cursor,
    /// EndpointSlices made so far.
    pub slices: usize,
    /// The workload of each Service, written after the slices (none unless `gen --workloads`).
    pub workloads: Vec<crate::workloads::WorkloadPlan>,
    /// The objects of the workload being written.
    pending: std::collections::VecDeque<Value>,
    workload_rng: Rng,
}

#[derive(Clone, Copy)]
enum Cursor {
    Node(usize),
    Service(usize),
    Slice(usize, usize),
    Workload(usize),
}

impl<'a> Objects<'a> {
    pub fn new(plan: &'a ClusterPlan, table: &'a HintTable) -> Objects<'a> {
        let rng = Rng::new(plan.size.seed ^ 0x0b1ec7);
        Objects {
            plan,
            table,
            rng,
            uids: Vec::new(),
            cursor: Cursor::Node(0),
            slices: 0,
            workloads: Vec::new(),
            pending: std::collections::VecDeque::new(),
            workload_rng: Rng::new(plan.size.seed ^ 0x3011_0b1e),
        }
    }
}

impl Iterator for Objects<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        let plan = self.plan;
        loop {
            match self.cursor {
                Cursor::Node(i) if i < plan.nodes.len() => {
                    self.cursor = Cursor::Node(i + 1);
                    return Some(objects::node(&plan.nodes[i], &mut self.rng));
                }
                Cursor::Node(_) => {
                    // The Service uids are drawn after the last Node, as the dump always did.
                    self.uids = plan.services.iter().map(|_| self.rng.uid()).collect();
                    self.cursor = Cursor::Service(0);
                }
                Cursor::Service(s) if s < plan.services.len() => {
                    self.cursor = Cursor::Service(s + 1);
                    return Some(objects::service(&plan.services[s], &self.uids[s]));
                }
                Cursor::Service(_) => self.cursor = Cursor::Slice(0, 0),
                Cursor::Slice(s, k) if s < plan.services.len() => {
                    if k >= plan.services[s].endpoints.len().div_ceil(MAX_PER_SLICE) {
                        self.cursor = Cursor::Slice(s + 1, 0);
                        continue;
                    }
                    self.cursor = Cursor::Slice(s, k + 1);
                    self.slices += 1;
                    return Some(objects::slice(plan, s, k, &self.uids[s], self.table, &mut self.rng));
                }
                Cursor::Slice(..) => self.cursor = Cursor::Workload(0),
                Cursor::Workload(s) => {
                    if let Some(object) = self.pending.pop_front() {
                        return Some(object);
                    }
                    let w = self.workloads.get(s)?;
                    self.pending = crate::workloads::objects(plan, s, w, &mut self.workload_rng).into();
                    self.cursor = Cursor::Workload(s + 1);
                }
            }
        }
    }
}

fn endpoint_count(plan: &ClusterPlan) -> usize {
    plan.services.iter().map(|s| s.endpoints.len()).sum()
}

/// Streams a `v1 List` item by item (as kubectl prints it: JSON with 4-space indentation, or YAML
/// with keys sorted), so a large dump never exists as one tree in memory.
struct ListWriter<W: Write> {
    out: W,
    format: Format,
    first: bool,
    buf: Vec<u8>,
}

impl<W: Write> ListWriter<W> {
    fn new(mut out: W, format: Format) -> io::Result<Self> {
        out.write_all(match format {
            Format::Json => b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [",
            Format::Yaml => b"apiVersion: v1\nitems:",
        })?;
        Ok(ListWriter { out, format, first: true, buf: Vec::new() })
    }

    fn item(&mut self, value: &Value) -> io::Result<()> {
        if self.format == Format::Yaml {
            return self.yaml_item(value);
        }
        self.buf.clear();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut self.buf, formatter))?;
        self.out.write_all(if self.first { b"\n" } else { b",\n" })?;
        self.first = false;
        for (i, line) in self.buf.split(|b| *b == b'\n').enumerate() {
            if i > 0 {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(b"        ")?;
            self.out.write_all(line)?;
        }
        Ok(())
    }

    /// `- ` before the item's first line, two spaces before the others (kubectl's layout).
    fn yaml_item(&mut self, value: &Value) -> io::Result<()> {
        let text = serde_saphyr::to_string(value).map_err(io::Error::other)?;
        self.first = false;
        for (i, line) in text.lines().enumerate() {
            self.out.write_all(if i == 0 { b"\n- " } else { b"\n  " })?;
            self.out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        if self.format == Format::Yaml {
            let empty = if self.first { " []" } else { "" };
            write!(self.out, "{empty}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n")?;
            return self.out.flush();
        }
        self.out.write_all(b"\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use topo_engine::core::analyze;
    use topo_engine::model::Behaviour;
    use topo_engine::report::Verdict;

    /// The small cluster: the promised counts, slices packed ≤ 100, hints on some endpoints, and
    /// our own `check` finds the drift the generator put in and agrees elsewhere.
    #[test]
    fn small_cluster_reads_back_with_its_drift() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small.json");
        let summary = write(Size::preset("small").unwrap(), &path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let snapshot = kubectl_topo::source::dump::parse_dump(&text, "small").unwrap().snapshot;
        assert_eq!((snapshot.nodes.len(), snapshot.services.len()), (100, 200));
        let endpoints: usize = snapshot.slices.iter().map(|s| s.endpoints.len()).sum();
        assert_eq!(endpoints, 2_000);
        assert!(snapshot.slices.iter().all(|s| s.endpoints.len() <= MAX_PER_SLICE));
        let hinted = snapshot.slices.iter().flat_map(|s| &s.endpoints).filter(|e| e.hints.is_some()).count();
        assert_eq!(hinted, summary.hinted_endpoints);
        let services: Vec<_> = snapshot.services.iter().collect();
        let report = analyze::check(&snapshot, &services, Behaviour::default());
        let drift =
            report.services.iter().filter(|r| r.families.iter().any(|f| f.verdict == Verdict::Drift)).count();
        assert_eq!(drift, summary.drift.stripped + summary.drift.wrong_zone);
    }

    /// The YAML the generator writes is the same cluster as its JSON.
    #[test]
    fn small_cluster_as_yaml_reads_back_as_its_json() {
        let dir = tempfile::tempdir().unwrap();
        let (json, yaml) = (dir.path().join("small.json"), dir.path().join("small.yaml"));
        write(Size::preset("small").unwrap(), &json).unwrap();
        write(Size::preset("small").unwrap(), &yaml).unwrap();
        let read = |p: &Path| {
            let text = std::fs::read_to_string(p).unwrap();
            kubectl_topo::source::dump::parse_dump(&text, "small").unwrap()
        };
        assert!(std::fs::read_to_string(&yaml).unwrap().starts_with("apiVersion: v1\nitems:\n- "));
        assert_eq!(read(&yaml), read(&json));
    }
}
