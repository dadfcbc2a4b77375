//! The text a scrape serves, kept between scrapes. On a large cluster nearly all of `/metrics` is
//! per Service (15 MB for 10,000 Services) and a change touches one Service, so each Service's
//! sample lines are kept per family, as `prometheus-client` encoded them for that Service alone,
//! and only the Services whose summary changed are encoded again ([`Exporter::take_changed`]). A
//! scrape writes each family's HELP/TYPE once and then that family's lines of every Service, in
//! Service order, so families stay contiguous; the small node and health part is encoded anew.
//! A property test holds the result equal to a from-scratch encoding ([`metrics::openmetrics`]).

use std::collections::BTreeMap;

use super::format::{Format, prometheus_text};
use super::metrics::{self, Health, PREFIX, SERVICE_FAMILIES};
use super::policy::MetricFilter;
use super::state::Exporter;
use super::store::Key;

/// One family's lines in one encoding: its name, the `#` header and the samples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Block {
    name: String,
    header: String,
    samples: String,
}

/// Split OpenMetrics text into its families (a family starts at its `# HELP` line;
/// `prometheus-client` leaves out a family without series, header included).
fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        if let Some(help) = line.strip_prefix("# HELP ") {
            let name = help.split_once(' ').map_or(help, |(name, _)| name);
            out.push(Block { name: name.to_string(), ..Block::default() });
        }
        let Some(block) = out.last_mut() else { continue };
        let part = if line.starts_with('#') { &mut block.header } else { &mut block.samples };
        part.push_str(line);
        part.push('\n');
    }
    out
}

/// The position of a family in [`SERVICE_FAMILIES`].
fn family_index(name: &str) -> Option<usize> {
    let short = name.strip_prefix(PREFIX)?.strip_prefix('_')?;
    SERVICE_FAMILIES.iter().position(|(family, _)| *family == short)
}

/// One Service's sample lines, every family's in one allocation of their exact size (a `String`
/// per family, grown line by line, held 10 headers and up to twice its text per Service).
#[derive(Debug, Clone, Default)]
struct Kept {
    text: Box<str>,
    /// Where each family's lines end in `text` (they start where the previous family's end).
    ends: [u32; SERVICE_FAMILIES.len()],
}

impl Kept {
    fn new(samples: &[String; SERVICE_FAMILIES.len()]) -> Kept {
        let mut text = String::with_capacity(samples.iter().map(String::len).sum());
        let mut ends = [0; SERVICE_FAMILIES.len()];
        for (end, lines) in ends.iter_mut().zip(samples) {
            text.push_str(lines);
            // One Service's lines are a few kilobytes: far below 4 GiB.
            *end = u32::try_from(text.len()).unwrap_or(u32::MAX);
        }
        Kept { text: text.into_boxed_str(), ends }
    }

    /// The lines of family `family` (empty when the Service has none).
    fn family(&self, family: usize) -> &str {
        let start = family.checked_sub(1).map_or(0, |before| self.ends[before] as usize);
        self.text.get(start..self.ends[family] as usize).unwrap_or_default()
    }
}

/// The kept per-Service text of the scrapes.
#[derive(Debug, Clone, Default)]
pub struct Exposition {
    cluster: Option<String>,
    /// `--metric-allowlist`, `--metric-denylist`.
    filter: MetricFilter,
    /// Per family of [`SERVICE_FAMILIES`]: its header in OpenMetrics and in the text format,
    /// once a Service had a series of it.
    headers: [Option<(String, String)>; SERVICE_FAMILIES.len()],
    /// Per Service: its sample lines of every family.
    services: BTreeMap<Key, Kept>,
    /// Bytes of sample lines held (the capacity a scrape reserves).
    bytes: usize,
}

impl Exposition {
    /// Nothing encoded yet; `cluster`: the `cluster` label on every series, if any.
    pub fn new(cluster: Option<&str>) -> Self {
        Exposition { cluster: cluster.map(str::to_string), ..Exposition::default() }
    }

    /// Show only the families `filter` keeps.
    #[must_use]
    pub fn filtered(self, filter: MetricFilter) -> Self {
        Exposition { filter, ..self }
    }

    /// Encode again the Services whose summary changed since the last refresh, and drop those
    /// that went. Returns how many were encoded.
    pub fn refresh(&mut self, state: &mut Exporter) -> usize {
        let changed = state.take_changed();
        let mut encoded = 0;
        for key in changed {
            if let Some(old) = self.services.remove(&key) {
                self.bytes -= old.text.len();
            }
            let Some(summary) = state.services().get(&key) else { continue };
            let text = metrics::encode_services([(&key, summary)], state, self.cluster.as_deref());
            let mut samples: [String; SERVICE_FAMILIES.len()] = Default::default();
            for block in blocks(&text) {
                let Some(family) = family_index(&block.name) else { continue };
                if !self.filter.keeps(&block.name) {
                    continue;
                }
                if self.headers[family].is_none() {
                    let text = prometheus_text(&block.header);
                    self.headers[family] = Some((block.header, text));
                }
                samples[family] = block.samples;
            }
            let kept = Kept::new(&samples);
            self.bytes += kept.text.len();
            self.services.insert(key, kept);
            encoded += 1;
        }
        encoded
    }

    /// One scrape in `format`: the kept per-Service families (those with a series), then the
    /// node side and the exporter's health encoded now (and `# EOF` in OpenMetrics).
    pub fn scrape(&self, state: &Exporter, health: &Health, format: Format) -> String {
        let tail = kept(&metrics::tail_text(state, health, self.cluster.as_deref()), &self.filter);
        let mut out = String::with_capacity(self.bytes + 4096 + 2 * tail.len());
        for (family, header) in self.headers.iter().enumerate() {
            let Some((om, text)) = header else { continue };
            let start = out.len();
            out.push_str(match format {
                Format::OpenMetrics => om,
                Format::PrometheusText => text,
            });
            let samples = out.len();
            for service in self.services.values() {
                out.push_str(service.family(family));
            }
            if out.len() == samples {
                out.truncate(start);
            }
        }
        match format {
            Format::OpenMetrics => {
                out.push_str(&tail);
                out.push_str(&metrics::eof());
            }
            Format::PrometheusText => out.push_str(&prometheus_text(&tail)),
        }
        out
    }
}

/// The families of `text` that `filter` keeps.
fn kept(text: &str, filter: &MetricFilter) -> String {
    if matches!(filter, MetricFilter::All) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for block in blocks(text).into_iter().filter(|b| filter.keeps(&b.name)) {
        out.push_str(&block.header);
        out.push_str(&block.samples);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_starts_at_its_help_line_and_keeps_its_samples() {
        let text =
            "# HELP a A.\n# TYPE a gauge\na{x=\"1\"} 1\na{x=\"2\"} 2\n# HELP b B.\n# TYPE b gauge\nb 3\n";
        let split = blocks(text);
        assert_eq!(split.len(), 2);
        assert_eq!(split[0].name, "a");
        assert_eq!(split[0].header, "# HELP a A.\n# TYPE a gauge\n");
        assert_eq!(split[0].samples, "a{x=\"1\"} 1\na{x=\"2\"} 2\n");
        let b = Block {
            name: "b".into(),
            header: "# HELP b B.\n# TYPE b gauge\n".into(),
            samples: "b 3\n".into(),
        };
        assert_eq!(split[1], b);
        assert_eq!(family_index("kubectl_topo_hinted_endpoints"), Some(4));
        assert_eq!(family_index("kubectl_topo_ready"), None);
    }
}
