#!/usr/bin/env bash
# Builds the release archive for this machine's platform and a krew manifest that points at it.
#
#   scripts/dist.sh [--binary PATH] [--out DIR] [--base-url URL]
#       Packs kubectl-topo_<version>_<os>_<arch>.tar.gz into DIR (default: target/dist) from PATH
#       (default: `cargo build --release --locked`), prints its sha256, and writes DIR/topo.yaml:
#       krew/topo.yaml with this platform's uri and sha256 filled in. The uri is file://<archive>
#       for a local test, or URL/<archive name> with --base-url.
#   scripts/dist.sh --manifest-only --out DIR --base-url URL
#       Release: fills uri and sha256 of every platform whose archive is in DIR (built on each
#       platform, or with --binary) into DIR/topo.yaml, the file for the krew index.
#
# The archive holds the binary, LICENSE, README.md, the man page (kubectl-topo.1) and completions/
# (kubectl_complete-topo and the bash/zsh/fish/PowerShell/elvish scripts). Try it:
#   kubectl krew install --manifest=DIR/topo.yaml --archive=DIR/kubectl-topo_v…_<os>_<arch>.tar.gz
# The test suite (tests/plugin.rs) runs this with --binary on the debug build, so CI needs no
# release build.
set -euo pipefail
shopt -s inherit_errexit
root="$(cd "$(dirname "$0")/.." && pwd)"

binary="" out="" base_url="" manifest_only=false
while (($#)); do
  case "$1" in
    --binary) binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --out) mkdir -p "$2"; out="$(cd "$2" && pwd)"; shift 2 ;;
    --base-url) base_url="${2%/}"; shift 2 ;;
    --manifest-only) manifest_only=true; shift ;;
    *) echo "usage: dist.sh [--binary PATH] [--out DIR] [--base-url URL] [--manifest-only]" >&2; exit 2 ;;
  esac
done
out="${out:-${CARGO_TARGET_DIR:-$root/target}/dist}"
mkdir -p "$out"

# One version everywhere: Cargo.toml's, with a leading v, is the manifest's spec.version.
version="v$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n1)"
manifest_version="$(sed -n 's/^  version: \(.*\)$/\1/p' "$root/krew/topo.yaml")"
if [[ "$version" != "$manifest_version" ]]; then
  echo "dist.sh: krew/topo.yaml says $manifest_version but Cargo.toml says $version: update the manifest" >&2
  exit 1
fi

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

pack() { # the archive for this machine
  local os arch exe name
  case "$(uname -s)" in
    Linux) os=linux ;; Darwin) os=darwin ;; MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) echo "dist.sh: unsupported OS $(uname -s)" >&2; exit 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;;
    *) echo "dist.sh: unsupported architecture $(uname -m)" >&2; exit 1 ;;
  esac
  exe=kubectl-topo
  [[ $os == windows ]] && exe=kubectl-topo.exe
  if [[ -z "$binary" ]]; then
    (cd "$root" && cargo build --release --locked --bin kubectl-topo >&2)
    binary="${CARGO_TARGET_DIR:-$root/target}/release/$exe"
  fi
  stage="$(mktemp -d)" # global, for the trap
  trap 'rm -rf "$stage"' EXIT
  cp "$binary" "$stage/$exe"
  cp "$root/LICENSE" "$root/README.md" "$stage/"
  mkdir "$stage/completions"
  cp "$root"/completions/* "$stage/completions/"
  chmod 755 "$stage/$exe" "$stage/completions/kubectl_complete-topo"
  "$stage/$exe" __man >"$stage/kubectl-topo.1"
  name="kubectl-topo_${version}_${os}_${arch}.tar.gz"
  # Reproducible where GNU tar is available (same inputs → same sha256).
  local tar_flags=()
  if tar --version 2>/dev/null | grep -q GNU; then
    tar_flags=(--sort=name --owner=0 --group=0 --numeric-owner --mtime=@0)
  fi
  (cd "$stage" && tar "${tar_flags[@]}" -cf - -- *) | gzip -n >"$out/$name"
  echo "$out/$name"
}

if ! $manifest_only; then
  archive="$(pack)"
  echo "archive: $archive" >&2
  echo "sha256:  $(sha256 "$archive")" >&2
elif [[ -z "$base_url" ]]; then
  echo "dist.sh: --manifest-only needs --base-url" >&2
  exit 2
fi

# Fill uri and sha256 of each platform whose archive is in $out (the uri line names the archive;
# sha256 is the next key of the same platform).
awk -v out="$out" -v base="$base_url" '
  function sha(file,   cmd, line) {
    cmd = "(sha256sum \"" file "\" 2>/dev/null || shasum -a 256 \"" file "\") | cut -d\" \" -f1"
    cmd | getline line; close(cmd); return line
  }
  /^    uri: / {
    name = $2; sub(/.*\//, "", name)
    file = out "/" name
    if ((getline probe < file) >= 0) {
      close(file)
      pending = sha(file)
      print "    uri: " (base == "" ? "file://" file : base "/" name)
      next
    }
  }
  /^    sha256: / && pending != "" { print "    sha256: \"" pending "\""; pending = ""; next }
  { print }
' "$root/krew/topo.yaml" >"$out/topo.yaml"
echo "manifest: $out/topo.yaml" >&2
if ! $manifest_only; then
  echo "try: kubectl krew install --manifest=$out/topo.yaml --archive=$archive" >&2
fi
