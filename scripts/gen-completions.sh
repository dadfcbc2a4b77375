#!/usr/bin/env bash
# Regenerates the shell completion scripts under completions/ from the parser (clap_complete).
# A test (tests/plugin.rs) regenerates them into a temporary directory and fails when they differ.
#
#   scripts/gen-completions.sh            # writes completions/
#   scripts/gen-completions.sh OUT_DIR    # writes OUT_DIR/ (the test does this)
#
# Uses the binary in $KUBECTL_TOPO when set, else builds and runs it with cargo.
# completions/kubectl_complete-topo (kubectl's plugin-completion shim) is not generated: it only
# hands the words to `kubectl-topo __complete`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/completions}"
mkdir -p "$out"

if [[ -n "${KUBECTL_TOPO:-}" ]]; then
  topo=("$KUBECTL_TOPO")
else
  topo=(cargo run --quiet --manifest-path "$root/Cargo.toml" --bin kubectl-topo --)
fi

# shell → file name, as each shell looks for it (bash-completion, zsh fpath, fish, PowerShell, elvish)
while read -r shell file; do
  "${topo[@]}" completion "$shell" >"$out/$file"
done <<'LIST'
bash kubectl-topo.bash
zsh _kubectl-topo
fish kubectl-topo.fish
powershell _kubectl-topo.ps1
elvish kubectl-topo.elv
LIST
