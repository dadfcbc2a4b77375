
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-topo' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-topo'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-topo' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('zones', 'zones', [CompletionResultType]::ParameterValue, 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy''s view')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (docs/monitoring.md). SIGTERM or Ctrl-C stops it')
            [CompletionResult]::new('reasons', 'reasons', [CompletionResultType]::ParameterValue, 'What each reason code means, the upstream rule behind it and how to fix it, per release')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print shell completion code (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the plugin version (and the server version when a cluster is reachable)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-topo;zones' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no `note:` lines on stderr (errors and their hints still are)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit table headers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;explain' {
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit with code 1 when the Service''s verdict is at or above --fail-on')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Severity that makes --exit-code fail, and implies --exit-code [default: drift]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file with excludes and failure levels, as for check (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists)')
            [CompletionResult]::new('--traffic', '--traffic', [CompletionResultType]::ParameterName, 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no `note:` lines on stderr (errors and their hints still are)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit table headers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;check' {
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Severity that makes `check` exit with code 1')
            [CompletionResult]::new('--traffic', '--traffic', [CompletionResultType]::ParameterName, 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)')
            [CompletionResult]::new('--verdict', '--verdict', [CompletionResultType]::ParameterName, 'List only Services with a family at one of these verdicts (comma-separated or repeated)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'List only Services with one of these reason codes (comma-separated or repeated)')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'List only Services in one of these modes: Auto, PreferClose, PreferSameZone, PreferSameNode, None')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Row order: namespace and name ascending, verdict worst first, cross-zone and replicas largest first')
            [CompletionResult]::new('--exclude-namespace', '--exclude-namespace', [CompletionResultType]::ParameterName, 'Leave out namespaces matching this glob (e.g. `kube-*`; repeatable)')
            [CompletionResult]::new('--show-all', '--show-all', [CompletionResultType]::ParameterName, 'Also list the Services for which nobody asked for hints and that have none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Check every context of the kubeconfig, one cluster each')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, '-o json|yaml: one CheckReportList even for one cluster (it always is with several -f, a directory of dumps or --all-contexts)')
            [CompletionResult]::new('--certify', '--certify', [CompletionResultType]::ParameterName, 'Also certify every Auto Service: read the workloads behind it (Pods, Deployments, StatefulSets, ReplicaSets, HPAs) and say whether its hints hold at every replica count its HPA allows (else its replicas) in every placement its zone spread allows (CERTIFICATE column; --fail-on fragile fails an exception)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file with excludes and failure levels (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector for Services, e.g. `app=web,tier!=db`')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector for Services, e.g. `app=web,tier!=db`')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no `note:` lines on stderr (errors and their hints still are)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit table headers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. Repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. Repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use (repeatable: one cluster each)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;dump' {
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'Keep only what the reports read, names and addresses replaced consistently; with -f, redact that dump offline')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: yaml]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: yaml]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Write this saved dump again instead of reading a live cluster: as it is, converted (-o json) and narrowed to the namespace (-n, default `default`; -A keeps all), or redacted with --redact; `-` reads stdin')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Write this saved dump again instead of reading a live cluster: as it is, converted (-o json) and narrowed to the namespace (-n, default `default`; -A keeps all), or redacted with --redact; `-` reads stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;simulate' {
            [CompletionResult]::new('--apply', '--apply', [CompletionResultType]::ParameterName, 'Rendered manifests to apply over the cluster (Helm or kustomize output: Deployments, StatefulSets, HorizontalPodAutoscalers, Services, Nodes), a directory of them, or - for stdin; repeatable. Reports every Service they affect, before → after (docs/apply.md)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'With --apply: the verdict a change must newly bring a Service to for exit code 1 [default: blocked]')
            [CompletionResult]::new('--replicas', '--replicas', [CompletionResultType]::ParameterName, 'Ready endpoints per address family afterwards (spread as the pods are spread today unless --spread says otherwise); MIN..MAX: the stability certificate, whether hints hold at every count and every placement the spread allows (docs/stability.md)')
            [CompletionResult]::new('--max-skew', '--max-skew', [CompletionResultType]::ParameterName, 'With --replicas MIN..MAX: a zone topologySpreadConstraint with this maxSkew')
            [CompletionResult]::new('--min-domains', '--min-domains', [CompletionResultType]::ParameterName, 'With --max-skew: its minDomains')
            [CompletionResult]::new('--when-unsatisfiable', '--when-unsatisfiable', [CompletionResultType]::ParameterName, 'With --max-skew: its whenUnsatisfiable, DoNotSchedule (the default) or ScheduleAnyway')
            [CompletionResult]::new('--spread', '--spread', [CompletionResultType]::ParameterName, 'How --replicas spreads endpoints: `even` over the zones, or `zone=A:N,B:N` exactly')
            [CompletionResult]::new('--remove-node', '--remove-node', [CompletionResultType]::ParameterName, 'Delete a node (its pods'' endpoints disappear)')
            [CompletionResult]::new('--remove-zone', '--remove-zone', [CompletionResultType]::ParameterName, 'Delete every node of a zone')
            [CompletionResult]::new('--not-ready', '--not-ready', [CompletionResultType]::ParameterName, 'Turn a node''s Ready condition False (its endpoints stay as they are)')
            [CompletionResult]::new('--add-node', '--add-node', [CompletionResultType]::ParameterName, 'Add a node')
            [CompletionResult]::new('--set-cpu', '--set-cpu', [CompletionResultType]::ParameterName, 'Set a node''s allocatable CPU')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Switch the Service''s mode: Auto, PreferClose, PreferSameZone, PreferSameNode or None')
            [CompletionResult]::new('--traffic', '--traffic', [CompletionResultType]::ParameterName, 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]; markdown, junit and sarif with --apply')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]; markdown, junit and sarif with --apply')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no `note:` lines on stderr (errors and their hints still are)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit table headers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;watch' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the Service(s)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector for Services, e.g. `app=web,tier!=db`')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector for Services, e.g. `app=web,tier!=db`')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no `note:` lines on stderr (errors and their hints still are)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit table headers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version, else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to serve /, /metrics, /healthz and /readyz on (the port: docs/monitoring.md)')
            [CompletionResult]::new('--cluster-label', '--cluster-label', [CompletionResultType]::ParameterName, 'Add `cluster="NAME"` to every series (when one Prometheus scrapes several clusters; with one Prometheus per cluster, prefer its `external_labels`)')
            [CompletionResult]::new('--per-zone-series', '--per-zone-series', [CompletionResultType]::ParameterName, 'Which Services get the per-zone series (two per zone each): those that asked for hints or have some, or all')
            [CompletionResult]::new('--namespaces', '--namespaces', [CompletionResultType]::ParameterName, 'Hold only the Services and EndpointSlices of these namespaces (comma-separated; default: all)')
            [CompletionResult]::new('--namespaces-denylist', '--namespaces-denylist', [CompletionResultType]::ParameterName, 'Never hold the Services and EndpointSlices of these namespaces (comma-separated)')
            [CompletionResult]::new('--metric-allowlist', '--metric-allowlist', [CompletionResultType]::ParameterName, 'Show only the metric families a regex matches anywhere in their name (comma-separated, as kube-state-metrics takes them)')
            [CompletionResult]::new('--metric-denylist', '--metric-denylist', [CompletionResultType]::ParameterName, 'Show every metric family but those a regex matches anywhere in their name (comma-separated)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file with excludes and levels, as check reads it (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists): findings set aside are labelled ignored="true"')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'Serve HTTPS with this certificate chain (PEM, read at start); with --tls-private-key-file')
            [CompletionResult]::new('--tls-private-key-file', '--tls-private-key-file', [CompletionResultType]::ParameterName, 'The private key of --tls-cert-file (PEM)')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Who may read /metrics: anyone who reaches the port, or a caller whose bearer token the API server authenticates and authorizes for `get` on /metrics (needs TLS)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version, else the newest kubelet''s, else 1.37')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;reasons' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-topo;completion' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-topo;version' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'The plugin''s version only: ask no server (as `kubectl version --client`)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table]')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a cert file for the certificate authority')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not check the server''s certificate: insecure')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to validate the server''s certificate against')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate for the requests')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable; needs --as)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-topo;help' {
            [CompletionResult]::new('zones', 'zones', [CompletionResultType]::ParameterValue, 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy''s view')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (docs/monitoring.md). SIGTERM or Ctrl-C stops it')
            [CompletionResult]::new('reasons', 'reasons', [CompletionResultType]::ParameterValue, 'What each reason code means, the upstream rule behind it and how to fix it, per release')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print shell completion code (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the plugin version (and the server version when a cluster is reachable)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-topo;help;zones' {
            break
        }
        'kubectl-topo;help;explain' {
            break
        }
        'kubectl-topo;help;check' {
            break
        }
        'kubectl-topo;help;dump' {
            break
        }
        'kubectl-topo;help;simulate' {
            break
        }
        'kubectl-topo;help;watch' {
            break
        }
        'kubectl-topo;help;serve' {
            break
        }
        'kubectl-topo;help;reasons' {
            break
        }
        'kubectl-topo;help;completion' {
            break
        }
        'kubectl-topo;help;version' {
            break
        }
        'kubectl-topo;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
