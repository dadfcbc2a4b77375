# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_topo_global_optspecs
    string join \n f/from-file= k8s-version= n/namespace= A/all-namespaces l/selector= o/output= no-headers color= kubeconfig= context= cluster= user= request-timeout= s/server= token= certificate-authority= insecure-skip-tls-verify tls-server-name= as= as-group= v/v= h/help V/version
end

function __fish_kubectl_topo_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_topo_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_topo_using_subcommand
    set -l cmd (__fish_kubectl_topo_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "zones" -d 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "explain" -d 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy\'s view'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "check" -d 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "dump" -d 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "simulate" -d 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "watch" -d 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "serve" -d 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (README "Monitoring"). SIGTERM or Ctrl-C stops it'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "completion" -d 'Print shell completion code (bash, zsh, fish, powershell, elvish)'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "version" -d 'Print the plugin version (and the server version when a cluster is reachable)'
complete -c kubectl-topo -n "__fish_kubectl_topo_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand zones" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l fail-on -d 'Severity that makes --exit-code fail (needs --exit-code)' -r -f -a "none\t'Never fail on findings'
drift\t'Fail when live hints differ from what the controller would keep or write'
blocked\t'Also fail when a safeguard or constraint blocks hints that were asked for'
any\t'Also fail on Unmanaged Services'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l traffic -d 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l exit-code -d 'Exit with code 1 when the Service\'s verdict is at or above --fail-on'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l fail-on -d 'Severity that makes `check` exit with code 1' -r -f -a "none\t'Never fail on findings'
drift\t'Fail when live hints differ from what the controller would keep or write'
blocked\t'Also fail when a safeguard or constraint blocks hints that were asked for'
any\t'Also fail on Unmanaged Services'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l traffic -d 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l verdict -d 'List only Services with a family at one of these verdicts (comma-separated or repeated)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l reason -d 'List only Services with one of these reason codes (comma-separated or repeated)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l mode -d 'List only Services in one of these modes: Auto, PreferClose, PreferSameZone, PreferSameNode, None' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l sort-by -d 'Row order: namespace and name ascending, verdict worst first, cross-zone and replicas largest first' -r -f -a "namespace\t'Namespace, then name'
name\t'Name, then namespace'
verdict\t'Worst verdict first'
cross-zone\t'Largest cross-zone share first'
replicas\t'Largest replicas needed first'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l exclude-namespace -d 'Leave out namespaces matching this glob (e.g. `kube-*`; repeatable)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l config -d 'Config file with excludes and failure levels (default: $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it exists)' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l show-all -d 'Also list the Services for which nobody asked for hints and that have none'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l all-contexts -d 'Check every context of the kubeconfig, one cluster each'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l redact -d 'Replace names and addresses consistently (zones, CPU, conditions and hints are kept)'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand dump" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l replicas -d 'Ready endpoints per address family afterwards (spread as the pods are spread today unless --spread says otherwise)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l spread -d 'How --replicas spreads endpoints: `even` over the zones, or `zone=A:N,B:N` exactly' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l remove-node -d 'Delete a node (its pods\' endpoints disappear)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l remove-zone -d 'Delete every node of a zone' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l not-ready -d 'Turn a node\'s Ready condition False (its endpoints stay as they are)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l add-node -d 'Add a node' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l set-cpu -d 'Set a node\'s allocatable CPU' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l mode -d 'Switch the Service\'s mode: Auto, PreferClose, PreferSameZone, PreferSameNode or none' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l traffic -d 'Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand simulate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l listen -d 'Address to serve /metrics, /healthz and /readyz on' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l cluster-label -d 'Add `cluster="NAME"` to every series (when one Prometheus scrapes several clusters; with one Prometheus per cluster, prefer its `external_labels`)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s f -l from-file -d 'Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml, *.yml and *.json in it, each as its own cluster' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l k8s-version -d 'Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the server version recorded in the dump, else 1.36' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s n -l namespace -d 'Namespace of the Service(s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s l -l selector -d 'Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s o -l output -d 'Output format [default: table; dump: yaml]' -r -f -a "table\t'Human tables and prose'
wide\t'Tables with more columns'
json\t'The report model as JSON (versioned envelope)'
yaml\t'The report model as YAML (versioned envelope)'
html\t'One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate)'
dot\t'The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate)'
mermaid\t'The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate)'
markdown\t'`check`: a pull-request comment (summary, table of findings, details per Service)'
junit\t'`check`: JUnit XML, one test case per Service'
sarif\t'`check`: SARIF 2.1.0, one rule per reason code'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l color -d 'When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour table output'
never\t'Never colour'"
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l kubeconfig -d 'Path to the kubeconfig file' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l context -d 'The kubeconfig context to use (`check`: repeatable, one cluster each)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l request-timeout -d 'Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s]' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s s -l server -d 'The address and port of the Kubernetes API server (overrides the kubeconfig\'s)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r -F
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l tls-server-name -d 'Server name to validate the server\'s certificate against' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l as -d 'User to impersonate for the requests' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l as-group -d 'Group to impersonate (repeatable; needs --as)' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s v -l v -d 'Log level: 6 or more prints each API request (method, URL, status, time) on stderr' -r
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s A -l all-namespaces -d 'All namespaces'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l no-headers -d 'Omit table headers'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -l insecure-skip-tls-verify -d 'Do not check the server\'s certificate: insecure'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand version" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "zones" -d 'Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "explain" -d 'Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy\'s view'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "check" -d 'One row per Service with its verdict; exit code 1 on findings at or above --fail-on'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "dump" -d 'Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as one YAML List (or JSON with -o json, read back much faster) that --from-file reads back; attach it to bug reports'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "simulate" -d 'What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode)'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "watch" -d 'Follow Services live and print a line each time a verdict, its reasons or the hints change (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "serve" -d 'Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each change affects and serve /metrics, /healthz and /readyz (README "Monitoring"). SIGTERM or Ctrl-C stops it'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "completion" -d 'Print shell completion code (bash, zsh, fish, powershell, elvish)'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "version" -d 'Print the plugin version (and the server version when a cluster is reachable)'
complete -c kubectl-topo -n "__fish_kubectl_topo_using_subcommand help; and not __fish_seen_subcommand_from zones explain check dump simulate watch serve completion version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
