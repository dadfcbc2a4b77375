
use builtin;
use str;

set edit:completion:arg-completer[kubectl-topo] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kubectl-topo'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kubectl-topo'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand zones 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out'
            cand explain 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy''s view'
            cand check 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on'
            cand dump 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports'
            cand simulate 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)'
            cand watch 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it'
            cand serve 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (docs/monitoring.md). SIGTERM or Ctrl-C stops it'
            cand reasons 'What each reason code means, the upstream rule behind it and how to fix it, per release'
            cand completion 'Print shell completion code (bash, zsh, fish, powershell, elvish)'
            cand version 'Print the plugin version (and the server version when a cluster is reachable)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-topo;zones'= {
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand -f 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --from-file 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37'
            cand --quiet 'Print no `note:` lines on stderr (errors and their hints still are)'
            cand --no-headers 'Omit table headers'
            cand --color 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;explain'= {
            cand --exit-code 'Exit with code 1 when the Service''s verdict is at or above --fail-on'
            cand --fail-on 'Severity that makes --exit-code fail, and implies --exit-code [default: drift]'
            cand --config 'Config file with excludes and failure levels, as for check (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists)'
            cand --traffic 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)'
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand -n 'Namespace of the Service(s)'
            cand --namespace 'Namespace of the Service(s)'
            cand -f 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --from-file 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37'
            cand --quiet 'Print no `note:` lines on stderr (errors and their hints still are)'
            cand --no-headers 'Omit table headers'
            cand --color 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;check'= {
            cand --fail-on 'Severity that makes `check` exit with code 1'
            cand --traffic 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)'
            cand --verdict 'List only Services with a family at one of these verdicts (comma-separated or repeated)'
            cand --reason 'List only Services with one of these reason codes (comma-separated or repeated)'
            cand --mode 'List only Services in one of these modes: Auto, PreferClose, PreferSameZone, PreferSameNode, None'
            cand --sort-by 'Row order: namespace and name ascending, verdict worst first, cross-zone and replicas largest first'
            cand --exclude-namespace 'Leave out namespaces matching this glob (e.g. `kube-*`; repeatable)'
            cand --show-all 'Also list the Services for which nobody asked for hints and that have none'
            cand --all-contexts 'Check every context of the kubeconfig, one cluster each'
            cand --list '-o json|yaml: one CheckReportList even for one cluster (it always is with several -f, a directory of dumps or --all-contexts)'
            cand --config 'Config file with excludes and failure levels (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists)'
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand -n 'Namespace of the Service(s)'
            cand --namespace 'Namespace of the Service(s)'
            cand -A 'All namespaces'
            cand --all-namespaces 'All namespaces'
            cand -l 'Label selector for Services, e.g. `app=web,tier!=db`'
            cand --selector 'Label selector for Services, e.g. `app=web,tier!=db`'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37'
            cand --quiet 'Print no `note:` lines on stderr (errors and their hints still are)'
            cand --no-headers 'Omit table headers'
            cand --color 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -f 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. Repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster'
            cand --from-file 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. Repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster'
            cand --context 'The kubeconfig context to use (repeatable: one cluster each)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;dump'= {
            cand --redact 'Keep only what the reports read, names and addresses replaced consistently; with -f, redact that dump offline'
            cand -o 'Output format [default: yaml]'
            cand --output 'Output format [default: yaml]'
            cand -n 'Namespace of the Service(s)'
            cand --namespace 'Namespace of the Service(s)'
            cand -A 'All namespaces'
            cand --all-namespaces 'All namespaces'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -f 'Write this saved dump again instead of reading a live cluster: as it is, converted (-o json) and narrowed to the namespace (-n, default `default`; -A keeps all), or redacted with --redact; `-` reads stdin'
            cand --from-file 'Write this saved dump again instead of reading a live cluster: as it is, converted (-o json) and narrowed to the namespace (-n, default `default`; -A keeps all), or redacted with --redact; `-` reads stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;simulate'= {
            cand --replicas 'Ready endpoints per address family afterwards (spread as the pods are spread today unless --spread says otherwise)'
            cand --spread 'How --replicas spreads endpoints: `even` over the zones, or `zone=A:N,B:N` exactly'
            cand --remove-node 'Delete a node (its pods'' endpoints disappear)'
            cand --remove-zone 'Delete every node of a zone'
            cand --not-ready 'Turn a node''s Ready condition False (its endpoints stay as they are)'
            cand --add-node 'Add a node'
            cand --set-cpu 'Set a node''s allocatable CPU'
            cand --mode 'Switch the Service''s mode: Auto, PreferClose, PreferSameZone, PreferSameNode or None'
            cand --traffic 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)'
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand -n 'Namespace of the Service(s)'
            cand --namespace 'Namespace of the Service(s)'
            cand -f 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --from-file 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version (live, or recorded by `dump`), else the newest kubelet''s, else 1.37'
            cand --quiet 'Print no `note:` lines on stderr (errors and their hints still are)'
            cand --no-headers 'Omit table headers'
            cand --color 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;watch'= {
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand -n 'Namespace of the Service(s)'
            cand --namespace 'Namespace of the Service(s)'
            cand -A 'All namespaces'
            cand --all-namespaces 'All namespaces'
            cand -l 'Label selector for Services, e.g. `app=web,tier!=db`'
            cand --selector 'Label selector for Services, e.g. `app=web,tier!=db`'
            cand --quiet 'Print no `note:` lines on stderr (errors and their hints still are)'
            cand --no-headers 'Omit table headers'
            cand --color 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version, else the newest kubelet''s, else 1.37'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;serve'= {
            cand --listen 'Address to serve /metrics, /healthz and /readyz on'
            cand --cluster-label 'Add `cluster="NAME"` to every series (when one Prometheus scrapes several clusters; with one Prometheus per cluster, prefer its `external_labels`)'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --k8s-version 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server''s version, else the newest kubelet''s, else 1.37'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'kubectl-topo;reasons'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'kubectl-topo;completion'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'kubectl-topo;version'= {
            cand --client 'The plugin''s version only: ask no server (as `kubectl version --client`)'
            cand -o 'Output format [default: table]'
            cand --output 'Output format [default: table]'
            cand --kubeconfig 'Path to the kubeconfig file'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand --request-timeout 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]'
            cand -s 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --server 'The address and port of the Kubernetes API server (overrides the kubeconfig''s)'
            cand --token 'Bearer token for authentication to the API server'
            cand --certificate-authority 'Path to a cert file for the certificate authority'
            cand --insecure-skip-tls-verify 'Do not check the server''s certificate: insecure'
            cand --tls-server-name 'Server name to validate the server''s certificate against'
            cand --as 'User to impersonate for the requests'
            cand --as-group 'Group to impersonate (repeatable; needs --as)'
            cand -v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand --v 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'kubectl-topo;help'= {
            cand zones 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out'
            cand explain 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy''s view'
            cand check 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on'
            cand dump 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports'
            cand simulate 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)'
            cand watch 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it'
            cand serve 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (docs/monitoring.md). SIGTERM or Ctrl-C stops it'
            cand reasons 'What each reason code means, the upstream rule behind it and how to fix it, per release'
            cand completion 'Print shell completion code (bash, zsh, fish, powershell, elvish)'
            cand version 'Print the plugin version (and the server version when a cluster is reachable)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kubectl-topo;help;zones'= {
        }
        &'kubectl-topo;help;explain'= {
        }
        &'kubectl-topo;help;check'= {
        }
        &'kubectl-topo;help;dump'= {
        }
        &'kubectl-topo;help;simulate'= {
        }
        &'kubectl-topo;help;watch'= {
        }
        &'kubectl-topo;help;serve'= {
        }
        &'kubectl-topo;help;reasons'= {
        }
        &'kubectl-topo;help;completion'= {
        }
        &'kubectl-topo;help;version'= {
        }
        &'kubectl-topo;help;help'= {
        }
    ]
    $completions[$command]
}
