//! The Examples section at the end of each subcommand's `--help` (and `help SUBCOMMAND`). Every
//! `kubectl topo …` line here is parsed and resolved by the CLI's own parser in the tests, so an
//! example cannot drift from the flags it shows.

/// `zones --help`.
pub(crate) const ZONES: &str = "\
Examples:
  # Zone CPU weights of the current context's cluster
  kubectl topo zones
  # From a saved dump, as JSON
  kubectl topo zones -f cluster.yaml -o json";

/// `explain --help`.
pub(crate) const EXPLAIN: &str = "\
Examples:
  # Why does svc/web have (or not have) topology hints?
  kubectl topo explain svc/web -n shop
  # With the requests coming mostly from one zone
  kubectl topo explain svc/web -n shop --traffic us-east-1a=80,us-east-1b=20
  # Fail a script when the Service drifts or is blocked
  kubectl topo explain svc/web -n shop --exit-code --fail-on blocked";

/// `check --help`.
pub(crate) const CHECK: &str = "\
Columns:
  REPLICAS    Blocked in Auto mode: the nearest ready-endpoint count that gets hints
  CROSS-ZONE  share of requests leaving their zone today, with the hints on the slices now
  AFTER-SYNC  (-o wide) the same share after the controller's next sync; JSON has both
              (crossZoneNow, crossZoneAfterSync)

Examples:
  # Every Service of the cluster; exit code 1 on Drift
  kubectl topo check -A
  # The worst first, Services in kube-* left out
  kubectl topo check -A --sort-by verdict --exclude-namespace 'kube-*'
  # A JUnit report for CI from a saved dump, failing on Blocked too
  kubectl topo check -A -f cluster.yaml --fail-on blocked -o junit > check.xml
  # Every context of the kubeconfig
  kubectl topo check -A --all-contexts";

/// `dump --help`.
pub(crate) const DUMP: &str = "\
Examples:
  # Everything the reports read, for --from-file or a bug report
  kubectl topo dump -A > cluster.yaml
  # Only what the reports read, names and addresses replaced, as JSON (read back faster)
  kubectl topo dump -A --redact -o json > cluster.json
  # Redact a dump made with kubectl before sharing it (no cluster needed)
  kubectl topo dump -f cluster.yaml --redact -A > shared.yaml
  # A YAML dump as JSON (read back faster), one namespace only
  kubectl topo dump -f cluster.yaml -n shop -o json > shop.json";

/// `simulate --help`.
pub(crate) const SIMULATE: &str = "\
Examples:
  # Would 6 replicas get hints?
  kubectl topo simulate svc/web -n shop --replicas 6
  # Lose a zone
  kubectl topo simulate svc/web -n shop --remove-zone us-east-1c
  # Add a node and switch to trafficDistribution PreferSameZone
  kubectl topo simulate svc/web -n shop --add-node zone=us-east-1a,cpu=8 --mode PreferSameZone
  # A chart's change before it is applied: a pull-request comment, exit 1 if it blocks hints
  helm template web ./chart -n shop | kubectl topo simulate --apply - -n shop -o markdown
  kubectl topo simulate --apply rendered/ -n shop -f cluster.yaml --fail-on fragile";

/// `watch --help`.
pub(crate) const WATCH: &str = "\
Examples:
  # A line each time svc/web's verdict, reasons or hints change
  kubectl topo watch svc/web -n shop
  # Every Service of the cluster, one JSON object per change
  kubectl topo watch -A -o json";

/// `serve --help`.
pub(crate) const SERVE: &str = "\
Examples:
  # In the cluster (deploy/exporter), or from a workstation against the current context
  kubectl topo serve --listen 127.0.0.1:10064
  # One Prometheus scraping several clusters: label every series
  kubectl topo serve --context prod-eu --cluster-label prod-eu";

/// `reasons --help`.
pub(crate) const REASONS: &str = "\
Examples:
  # Every reason code with its one-line meaning
  kubectl topo reasons
  # What OverloadThreshold means, the upstream rule and how to fix it (any case)
  kubectl topo reasons overloadthreshold";

/// `completion --help`.
pub(crate) const COMPLETION: &str = "\
Examples:
  # bash, for the kubectl-topo executable
  kubectl topo completion bash > ~/.local/share/bash-completion/completions/kubectl-topo
  # fish
  kubectl topo completion fish > ~/.config/fish/completions/kubectl-topo.fish";

/// `version --help`.
pub(crate) const VERSION: &str = "\
Examples:
  # The plugin's version, then the server's (5 s at most)
  kubectl topo version
  # As JSON, asking another context
  kubectl topo version --context prod -o json";
