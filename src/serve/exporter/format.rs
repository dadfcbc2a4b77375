//! Which exposition format a scraper asked for (its `Accept` header), and the Prometheus text
//! format (0.0.4) made from `prometheus-client`'s OpenMetrics text: the same samples, with the
//! OpenMetrics-only lines (`# UNIT`, `# EOF`) dropped and counters declared under their `_total`
//! sample name, as Prometheus's own Go client writes them.

/// An exposition format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `application/openmetrics-text; version=1.0.0`.
    OpenMetrics,
    /// `text/plain; version=0.0.4`.
    PrometheusText,
}

impl Format {
    /// The `Content-Type` of the answer.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
            Format::PrometheusText => "text/plain; version=0.0.4; charset=utf-8",
        }
    }

    /// OpenMetrics when the `Accept` header lists it with a non-zero quality, else the text format
    /// (Prometheus asks for OpenMetrics first; curl and older scrapers get text).
    pub fn negotiate(accept: Option<&str>) -> Format {
        let wants = accept.unwrap_or("").split(',').any(|part| {
            let mut params = part.split(';').map(str::trim);
            let media = params.next().unwrap_or("");
            let refused =
                params.any(|p| p.strip_prefix("q=").is_some_and(|q| q.trim().parse::<f64>() == Ok(0.0)));
            media.eq_ignore_ascii_case("application/openmetrics-text") && !refused
        });
        if wants { Format::OpenMetrics } else { Format::PrometheusText }
    }
}

/// A content coding of the answer: gzip when the scraper accepts it (Prometheus does; 15 MB of
/// text at 10,000 Services is about a tenth of that gzipped), else none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// As is.
    Identity,
    /// `gzip`, at the fastest level: a scrape is encoded anew each time.
    Gzip,
}

impl Encoding {
    /// Gzip when `Accept-Encoding` lists `gzip` (or `*`) with a non-zero quality.
    pub fn negotiate(accept_encoding: Option<&str>) -> Encoding {
        let gzip = accept_encoding.unwrap_or("").split(',').any(|part| {
            let mut params = part.split(';').map(str::trim);
            let coding = params.next().unwrap_or("");
            let refused =
                params.any(|p| p.strip_prefix("q=").is_some_and(|q| q.trim().parse::<f64>() == Ok(0.0)));
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        });
        if gzip { Encoding::Gzip } else { Encoding::Identity }
    }

    /// The `Content-Encoding` header, if any.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some("gzip"),
        }
    }

    /// The body in this coding.
    pub fn encode(self, body: Vec<u8>) -> Vec<u8> {
        match self {
            Encoding::Identity => body,
            Encoding::Gzip => {
                use std::io::Write;
                let out = Vec::with_capacity(body.len() / 8);
                let mut encoder = flate2::write::GzEncoder::new(out, flate2::Compression::fast());
                // Writing to a Vec cannot fail.
                let _ = encoder.write_all(&body);
                encoder.finish().unwrap_or_default()
            }
        }
    }
}

/// OpenMetrics text → Prometheus text format 0.0.4.
pub fn prometheus_text(openmetrics: &str) -> String {
    let mut out = String::with_capacity(openmetrics.len());
    let mut help: Option<&str> = None;
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        if line.starts_with("# HELP ") {
            help = Some(line);
            continue;
        }
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap_or((rest, "untyped"));
            let name = if kind == "counter" { format!("{name}_total") } else { name.to_string() };
            if let Some(text) = help.take().and_then(|h| h.strip_prefix("# HELP ")) {
                let text = text.split_once(' ').map_or("", |(_, t)| t);
                out.push_str(&format!("# HELP {name} {text}\n"));
            }
            out.push_str(&format!("# TYPE {name} {kind}\n"));
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// OpenMetrics text with the series of each family in the order of their labels:
/// `prometheus-client` writes a family's series in its hash map's order, which changes from one
/// scrape to the next. A histogram's lines keep their order (its buckets ascend); its family has
/// one series here.
pub fn in_label_order(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut samples: Vec<&str> = Vec::new();
    let mut sorted = true;
    let flush = |out: &mut String, samples: &mut Vec<&str>, sorted: bool| {
        if sorted {
            samples.sort_unstable();
        }
        for line in samples.drain(..) {
            out.push_str(line);
            out.push('\n');
        }
    };
    for line in text.lines() {
        if line.starts_with('#') {
            flush(&mut out, &mut samples, sorted);
            if let Some(kind) = line.strip_prefix("# TYPE ").and_then(|t| t.split(' ').nth(1)) {
                sorted = !matches!(kind, "histogram" | "gaugehistogram" | "summary");
            }
            out.push_str(line);
            out.push('\n');
        } else {
            samples.push(line);
        }
    }
    flush(&mut out, &mut samples, sorted);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_asks_for_openmetrics_curl_gets_text() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert_eq!(Format::negotiate(Some(prometheus)), Format::OpenMetrics);
        assert_eq!(Format::negotiate(Some("*/*")), Format::PrometheusText);
        assert_eq!(Format::negotiate(None), Format::PrometheusText);
        assert_eq!(Format::negotiate(Some("application/openmetrics-text;q=0")), Format::PrometheusText);
    }

    #[test]
    fn gzip_only_when_accepted() {
        assert_eq!(Encoding::negotiate(Some("gzip")), Encoding::Gzip);
        assert_eq!(Encoding::negotiate(Some("identity, GZIP;q=0.5")), Encoding::Gzip);
        assert_eq!(Encoding::negotiate(Some("*")), Encoding::Gzip);
        assert_eq!(Encoding::negotiate(Some("gzip;q=0")), Encoding::Identity);
        assert_eq!(Encoding::negotiate(Some("br, deflate")), Encoding::Identity);
        assert_eq!(Encoding::negotiate(None), Encoding::Identity);
    }

    #[test]
    fn counters_are_declared_under_their_sample_name_and_openmetrics_lines_go() {
        let om = "# HELP x_watch_restarts Watches.\n# TYPE x_watch_restarts counter\nx_watch_restarts_total{resource=\"nodes\"} 2\n# HELP x_ready Ready.\n# TYPE x_ready gauge\n# UNIT x_ready seconds\nx_ready 1\n# EOF\n";
        let text = prometheus_text(om);
        assert_eq!(
            text,
            "# HELP x_watch_restarts_total Watches.\n# TYPE x_watch_restarts_total counter\nx_watch_restarts_total{resource=\"nodes\"} 2\n# HELP x_ready Ready.\n# TYPE x_ready gauge\nx_ready 1\n"
        );
    }

    #[test]
    fn series_come_in_label_order_and_a_histogram_keeps_its_buckets_in_order() {
        let text = "# HELP a A.\n# TYPE a counter\na_total{r=\"s\"} 0\na_total{r=\"e\"} 0\na_total{r=\"n\"} 0\n\
                    # HELP h H.\n# TYPE h histogram\nh_sum 0\nh_count 0\nh_bucket{le=\"1\"} 0\nh_bucket{le=\"+Inf\"} 0\n# EOF\n";
        let ordered = in_label_order(text);
        let lines: Vec<&str> = ordered.lines().collect();
        assert_eq!(&lines[2..5], ["a_total{r=\"e\"} 0", "a_total{r=\"n\"} 0", "a_total{r=\"s\"} 0"]);
        assert_eq!(
            &lines[7..],
            ["h_sum 0", "h_count 0", "h_bucket{le=\"1\"} 0", "h_bucket{le=\"+Inf\"} 0", "# EOF"]
        );
    }
}
