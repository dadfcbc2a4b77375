#!/usr/bin/env bash
# Builds the release archives of every platform in krew/topo.yaml and a krew manifest with their
# sha256.
#
#   scripts/dist.sh [--platforms LIST] [--profile PROFILE] [--out DIR] [--base-url URL]
#       Builds and packs kubectl-topo_<version>_<os>_<arch>.tar.gz into DIR (default: target/dist)
#       for each platform of LIST (default: all; e.g. linux/amd64,linux/arm64), then writes
#       DIR/topo.yaml: krew/topo.yaml with the uri and sha256 of every archive in DIR filled in. The
#       uri is file://<archive> for a local test, or URL/<archive name> with --base-url.
#   scripts/dist.sh --binary PATH [--out DIR] [--base-url URL]
#       Packs PATH as this machine's platform instead of building.
#   scripts/dist.sh --manifest-only --out DIR --base-url URL
#       Fills uri and sha256 of every platform whose archive is in DIR into DIR/topo.yaml.
#
# Platforms and how they are built (the toolchains come from scripts/dist-tools.sh, cached):
#   linux/amd64, linux/arm64   x86_64/aarch64-unknown-linux-musl: static, with cargo-zigbuild (zig
#                              from PyPI as the linker)
#   windows/amd64              x86_64-pc-windows-gnu, with Debian's mingw-w64
#   darwin/amd64, darwin/arm64 x86_64/aarch64-apple-darwin: on a Mac with its own toolchain. Not on
#                              Linux: the TLS stack (rustls-platform-verifier → security-framework)
#                              links Apple's Security and CoreFoundation frameworks, which only the
#                              macOS SDK has and no package registry ships (see README, "Packaging").
# Binaries are stripped (the release profile says so). --profile dist-check (what the tests use)
# builds the same targets at the cost of a debug build.
#
# Each archive holds the binary, LICENSE, README.md, one man page per subcommand (man/*.1) and
# completions/ (kubectl_complete-topo and the bash/zsh/fish/PowerShell/elvish scripts). Try it:
#   kubectl krew install --manifest=DIR/topo.yaml --archive=DIR/kubectl-topo_v…_linux_amd64.tar.gz
set -euo pipefail
shopt -s inherit_errexit
root="$(cd "$(dirname "$0")/.." && pwd)"

binary="" out="" base_url="" manifest_only=false profile=release
platforms="linux/amd64,linux/arm64,windows/amd64,darwin/amd64,darwin/arm64"
while (($#)); do
  case "$1" in
    --binary) binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --out) mkdir -p "$2"; out="$(cd "$2" && pwd)"; shift 2 ;;
    --base-url) base_url="${2%/}"; shift 2 ;;
    --manifest-only) manifest_only=true; shift ;;
    --platforms) platforms="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    *)
      echo "usage: dist.sh [--platforms LIST] [--profile P] [--binary PATH] [--out DIR] [--base-url URL] [--manifest-only]" >&2
      exit 2
      ;;
  esac
done
target_dir="${CARGO_TARGET_DIR:-$root/target}"
out="${out:-$target_dir/dist}"
mkdir -p "$out"

# One version everywhere: Cargo.toml's, with a leading v, is the manifest's spec.version.
version="v$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n1)"
manifest_version="$(sed -n 's/^  version: \(.*\)$/\1/p' "$root/krew/topo.yaml")"
if [[ "$version" != "$manifest_version" ]]; then
  echo "dist.sh: krew/topo.yaml says $manifest_version but Cargo.toml says $version: update the manifest" >&2
  exit 1
fi

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

host_platform() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;; Darwin) os=darwin ;; MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) echo "dist.sh: unsupported OS $(uname -s)" >&2; exit 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;;
    *) echo "dist.sh: unsupported architecture $(uname -m)" >&2; exit 1 ;;
  esac
  echo "$os/$arch"
}

rust_target() {
  case "$1" in
    linux/amd64) echo x86_64-unknown-linux-musl ;;
    linux/arm64) echo aarch64-unknown-linux-musl ;;
    windows/amd64) echo x86_64-pc-windows-gnu ;;
    darwin/amd64) echo x86_64-apple-darwin ;;
    darwin/arm64) echo aarch64-apple-darwin ;;
    *) echo "dist.sh: unknown platform $1 (known: linux/amd64 linux/arm64 windows/amd64 darwin/amd64 darwin/arm64)" >&2; exit 2 ;;
  esac
}

# Builds the binary of platform $1 and prints its path.
build() {
  local platform="$1" target cargo_build
  target="$(rust_target "$platform")"
  case "$platform" in
    linux/*) cargo_build=(cargo zigbuild) ;;
    windows/*) cargo_build=(cargo build) ;;
    darwin/*) cargo_build=(cargo build) ;;
  esac
  (cd "$root" && "${cargo_build[@]}" --locked --profile "$profile" --target "$target" --bin kubectl-topo >&2)
  local dir="$profile"
  [[ "$profile" == dev ]] && dir=debug
  local exe="$target_dir/$target/$dir/kubectl-topo"
  [[ "$platform" == windows/* ]] && exe="$exe.exe"
  echo "$exe"
}

# The man pages, written by a binary that runs here ($KUBECTL_TOPO, else the debug build).
man_pages() {
  local dir="$1" topo="${KUBECTL_TOPO:-}" page
  if [[ -z "$topo" ]]; then
    (cd "$root" && cargo build --quiet --locked --bin kubectl-topo >&2)
    topo="$target_dir/debug/kubectl-topo"
  fi
  mkdir -p "$dir"
  for page in $("$topo" __man --list); do
    "$topo" __man "$page" >"$dir/$page"
  done
}

# Packs binary $2 as platform $1 into $out and prints the archive's path.
pack() {
  local platform="$1" binary="$2" exe=kubectl-topo stage name
  [[ "$platform" == windows/* ]] && exe=kubectl-topo.exe
  stage="$(mktemp -d)"
  cp "$binary" "$stage/$exe"
  cp "$root/LICENSE" "$root/README.md" "$stage/"
  mkdir "$stage/completions"
  cp "$root"/completions/* "$stage/completions/"
  chmod 755 "$stage/$exe" "$stage/completions/kubectl_complete-topo"
  cp -r "$man" "$stage/man"
  name="kubectl-topo_${version}_${platform%/*}_${platform#*/}.tar.gz"
  # Reproducible where GNU tar is available (same inputs → same sha256).
  local tar_flags=()
  if tar --version 2>/dev/null | grep -q GNU; then
    tar_flags=(--sort=name --owner=0 --group=0 --numeric-owner --mtime=@0)
  fi
  (cd "$stage" && tar "${tar_flags[@]}" -cf - -- *) | gzip -n >"$out/$name"
  rm -rf "$stage"
  echo "$out/$name"
}

skipped=()
if ! $manifest_only; then
  man="$(mktemp -d)"
  trap 'rm -rf "$man"' EXIT
  man_pages "$man"
  if [[ -n "$binary" ]]; then
    platforms="$(host_platform)"
  elif [[ "$platforms" == *linux/* ]]; then
    PATH="$(bash "$root/scripts/dist-tools.sh"):$PATH"
    export PATH
  fi
  IFS=, read -r -a wanted <<<"$platforms"
  for platform in "${wanted[@]}"; do
    rust_target "$platform" >/dev/null
    if [[ -z "$binary" && "$platform" == darwin/* && "$(uname -s)" != Darwin ]]; then
      skipped+=("$platform")
      continue
    fi
    exe="${binary:-$(build "$platform")}"
    archive="$(pack "$platform" "$exe")"
    echo "$platform: $archive sha256 $(sha256 "$archive")" >&2
  done
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
if ((${#skipped[@]})); then
  echo "dist.sh: not built here: ${skipped[*]}: the TLS stack links the macOS SDK's Security and" \
    "CoreFoundation frameworks; on a Mac run: scripts/dist.sh --platforms darwin/amd64,darwin/arm64" \
    "(their uri and sha256 stay placeholders until then)" >&2
fi
