//! A real Prometheus (Debian's, as the `monitoring` group runs it) scraping one `serve` every
//! second with a test copy of deploy/prometheus/rules.yaml: every `for:` is 1 s and the
//! `KubectlTopoExporterStale` threshold is [`STALE_AFTER`] seconds instead of 300, so that the
//! shipped expression fires within a fault a test can afford. The fault tier polls
//! `/api/v1/alerts` for it.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{Proc, free_port, tail};
use crate::monitoring::get;

/// The test copy's staleness threshold, in seconds (the shipped rule: 300).
pub const STALE_AFTER: f64 = 20.0;
pub const ALERT: &str = "KubectlTopoExporterStale";
const WAIT: Duration = Duration::from_secs(120);

/// deploy/prometheus/rules.yaml with `for: 1s` and the staleness threshold lowered.
fn test_rules() -> String {
    let rules = std::fs::read_to_string("deploy/prometheus/rules.yaml").expect("rules");
    let shipped = "time() - kubectl_topo_last_sync_timestamp_seconds > 300";
    assert!(rules.contains(shipped), "the Stale alert's expression changed: update the test copy");
    let rules = rules.replace(shipped, &shipped.replace("300", &format!("{STALE_AFTER}")));
    let lines = rules.lines().map(|l| match l.split_once("for: ") {
        Some((indent, _)) if indent.trim().is_empty() => format!("{indent}for: 1s"),
        _ => l.to_string(),
    });
    lines.collect::<Vec<_>>().join("\n")
}

pub struct Prometheus {
    port: u16,
    process: Proc,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    /// Started, scraping `127.0.0.1:exporter_port`, once its target is up.
    pub async fn start(exporter_port: u16) -> Prometheus {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("rules.yaml"), test_rules()).unwrap();
        let config = format!(
            "global: {{scrape_interval: 1s, evaluation_interval: 1s}}\nrule_files: [rules.yaml]\n\
             scrape_configs:\n  - job_name: kubectl-topo\n    static_configs: [{{targets: ['127.0.0.1:{exporter_port}']}}]\n"
        );
        std::fs::write(dir.path().join("prometheus.yml"), config).unwrap();
        let port = free_port();
        let process = Proc::spawn(
            "prometheus",
            Command::new("prometheus")
                .arg(format!("--config.file={}", dir.path().join("prometheus.yml").display()))
                .arg(format!("--storage.tsdb.path={}", dir.path().join("data").display()))
                .arg(format!("--web.listen-address=127.0.0.1:{port}")),
            dir.path(),
        );
        let prometheus = Prometheus { port, process, _dir: dir };
        prometheus.until("its target up", |p| p.up()).await;
        prometheus
    }

    fn up(&self) -> bool {
        let Some((200, body)) = get(self.port, "/api/v1/query?query=up") else { return false };
        let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        v["data"]["result"].as_array().is_some_and(|r| r.iter().any(|s| s["value"][1] == "1"))
    }

    /// The state of [`ALERT`] (`pending`, `firing`), None when it is not active.
    pub fn stale_alert(&self) -> Option<String> {
        let (status, body) = get(self.port, "/api/v1/alerts")?;
        assert_eq!(status, 200, "/api/v1/alerts: {body}");
        let v: Value = serde_json::from_str(&body).expect("alerts JSON");
        let alerts = v["data"]["alerts"].as_array()?;
        let stale = alerts.iter().find(|a| a["labels"]["alertname"] == ALERT)?;
        stale["state"].as_str().map(str::to_string)
    }

    /// Wait until `done` (a fault's bound: two minutes); prints how long it took.
    pub async fn until(&self, what: &str, mut done: impl FnMut(&Prometheus) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() < WAIT,
                "prometheus: {what}: not after {WAIT:?} (alerts: {:?}); its log:\n{}",
                self.stale_alert(),
                tail(&self.process.log, 10)
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        println!("e2e: serve_faults: prometheus: {what} after {:.1}s", start.elapsed().as_secs_f64());
    }

    /// Until [`ALERT`] fires.
    pub async fn until_firing(&self) {
        self.until(&format!("{ALERT} firing"), |p| p.stale_alert().as_deref() == Some("firing")).await;
    }

    /// Until [`ALERT`] is resolved (no longer active).
    pub async fn until_resolved(&self) {
        self.until(&format!("{ALERT} resolved"), |p| p.stale_alert().is_none()).await;
    }
}
