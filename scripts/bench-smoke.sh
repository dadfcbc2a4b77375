#!/usr/bin/env bash
# Every `cargo xtask` command of BENCHMARKS.md, run once at the small size (scripts/test-all.sh's
# last step), so that a benchmark that no longer runs (a flag refused, a child that exits, a
# cluster that does not load) fails CI the day it breaks, not the day someone measures with it.
# The figures mean nothing: xtask and kubectl-topo are dev builds here (xtask builds the product in
# its own profile), every size is `small`, and runs, updates and multiples are the fewest that run
# each code path. The commands are read from BENCHMARKS.md's ```sh blocks and rewritten:
#   --size S → small (added where missing), --runs N → 1, --updates N → 2, --outage S → 2, --max K → 1,
#   files → a temporary directory, --kubeconfig KC → the one `live-up` printed (it runs in the
#   background from its line until the last command that uses it has run), --pid PID --port N → a
#   `kubectl-topo serve` started on that cluster for the command (`serve-cpu`) and stopped after it.
# Usage: scripts/bench-smoke.sh [--list]   (--list: print the rewritten commands only)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"

work="$(mktemp -d)"
live_pid=""
live_flag=""
cleanup() {
  [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null
  [ -n "$live_flag" ] && rm -f "$live_flag"
  if [ -n "$live_pid" ]; then
    sleep 2
    kill "$live_pid" 2>/dev/null || true
    wait "$live_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The documented commands, in order, once each, comments cut.
mapfile -t documented < <(awk '/^```/{inb=!inb; next} inb && /^cargo xtask /' BENCHMARKS.md |
  sed -e 's/[[:space:]]*#.*$//' | awk '!seen[$0]++')
[ "${#documented[@]}" -gt 0 ] || { echo "bench-smoke: no cargo xtask command in BENCHMARKS.md"; exit 1; }

# rewrite ARGS...: the small-size arguments of one command (printed one per line).
rewrite() {
  local sub="$1"; shift
  local out=("$sub") has_size="" has_runs="" has_max="" has_updates="" has_outage=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --size) out+=(--size small); has_size=1; shift ;;
      --runs) out+=(--runs 1); has_runs=1; shift ;;
      --updates) out+=(--updates 2); has_updates=1; shift ;;
      --max) out+=(--max 1); has_max=1; shift ;;
      --outage) out+=(--outage 2); has_outage=1; shift ;;
      --out) out+=(--out "$work/$(basename "$2")"); shift ;;
      --kubeconfig) out+=(--kubeconfig "@KUBECONFIG@"); shift ;;
      --pid) out+=(--pid "@PID@"); shift ;;
      --port) out+=(--port "@PORT@"); shift ;;
      --*) out+=("$1") ;;
      *) if [ "$sub" = parse-only ]; then out+=("$work/$(basename "$1")"); else out+=("$1"); fi ;;
    esac
    shift
  done
  case "$sub" in
    bench|bench-serve|live-up|gen) [ -n "$has_size" ] || out+=(--size small) ;;
  esac
  case "$sub" in
    bench|scale|clusters) [ -n "$has_runs" ] || out+=(--runs 1) ;;
  esac
  [ "$sub" = scale ] && { [ -n "$has_max" ] || out+=(--max 1); out+=(--oracle-max 1); }
  [ "$sub" = bench-serve ] && { [ -n "$has_updates" ] || out+=(--updates 2); [ -n "$has_outage" ] || out+=(--outage 2); }
  printf '%s\n' "${out[@]}"
}

commands=() sources=()
for line in "${documented[@]}"; do
  # Words and quotes only (the shell splits them as a reader would type them): no expansion.
  case "$line" in *'$'*|*'`'*|*';'*|*'|'*|*'&'*|*'>'*|*'<'*)
    echo "bench-smoke: not a plain command: $line"; exit 1 ;;
  esac
  eval "set -- ${line#cargo xtask }"
  small="$(rewrite "$@" | paste -sd' ')"
  # Two documented sizes of one command are one command here.
  printf '%s\n' "${commands[@]}" | grep -qxF -- "$small" && continue
  commands+=("$small")
  sources+=("$line")
done
if [ "$mode" = --list ]; then
  printf '%s\n' "${commands[@]}"
  exit 0
fi

started=$(date +%s)
cargo build --locked -p xtask
cargo build --locked --bin kubectl-topo
xtask="${CARGO_TARGET_DIR:-target}/debug/xtask"
topo="${CARGO_TARGET_DIR:-target}/debug/kubectl-topo"
# The last command that uses the kept-up cluster: it is stopped after that one.
last_kc=-1
for i in "${!commands[@]}"; do
  case " ${commands[$i]} " in *" @KUBECONFIG@ "*) last_kc=$i ;; esac
done

# fail WHAT LOG: say which documented command stopped, and how it ended.
fail() {
  echo "bench-smoke: FAILED: \`$1\` (BENCHMARKS.md: \`$2\`); its output ends:"
  tail -n 30 "$3"
  exit 1
}

# serve_for LOG: a `kubectl-topo serve` on the kept-up cluster, ready; sets serve_pid and port.
serve_pid="" port=""
serve_for() {
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$topo" serve --kubeconfig "$kubeconfig" --listen "127.0.0.1:$port" >"$1" 2>&1 &
  serve_pid=$!
  local waited=0
  until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do
    kill -0 "$serve_pid" 2>/dev/null && [ "$waited" -lt 120 ] ||
      fail "kubectl-topo serve --kubeconfig $kubeconfig (not ready after ${waited} s)" "$line" "$1"
    sleep 1
    waited=$((waited + 1))
  done
}

kubeconfig=""
for i in "${!commands[@]}"; do
  read -r -a args <<<"${commands[$i]}"
  line="${sources[$i]}"
  log="$work/$i.log"
  if [ "${args[0]}" = live-up ]; then
    "$xtask" "${args[@]}" >"$log" 2>&1 &
    live_pid=$!
    until grep -q '^delete .* to stop it' "$log"; do
      kill -0 "$live_pid" 2>/dev/null || fail "${args[*]}" "$line" "$log"
      sleep 1
    done
    kubeconfig="$(sed -n 's/^kubeconfig: //p' "$log")"
    live_flag="$(sed -n 's/^delete \(.*\) to stop it$/\1/p' "$log")"
    echo "bench-smoke: ok (kept up): ${args[*]}"
    continue
  fi
  uses_kc=""
  for a in "${!args[@]}"; do
    if [ "${args[$a]}" = "@KUBECONFIG@" ]; then
      [ -n "$kubeconfig" ] || { echo "bench-smoke: \`$line\` needs a live-up before it"; exit 1; }
      args[a]="$kubeconfig"
      uses_kc=1
    fi
  done
  case " ${args[*]} " in *" @PID@ "*)
    serve_for "$work/serve-$i.log"
    for a in "${!args[@]}"; do
      case "${args[$a]}" in @PID@) args[a]="$serve_pid" ;; @PORT@) args[a]="$port" ;; esac
    done ;;
  esac
  t0=$(date +%s)
  "$xtask" "${args[@]}" >"$log" 2>&1 || fail "${args[*]}" "$line" "$log"
  echo "bench-smoke: ok in $(($(date +%s) - t0)) s: ${args[*]}"
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" && wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
  fi
  if [ -n "$uses_kc" ] && [ -n "$live_pid" ] && [ "$i" = "$last_kc" ]; then
    rm -f "$live_flag"
    wait "$live_pid" || fail "live-up (stopped after its user)" "cargo xtask live-up" "$work/live-up.log"
    live_pid="" live_flag=""
  fi
done
echo "bench-smoke: ${#commands[@]} BENCHMARKS.md commands ran at the small size in $(($(date +%s) - started)) s"
