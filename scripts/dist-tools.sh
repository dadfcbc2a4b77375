#!/usr/bin/env bash
# Installs, when missing, what scripts/dist.sh needs to build every release archive and what
# tests/dist.rs needs to run them, and prints the directory holding `zig` and `cargo-zigbuild`
# (dist.sh puts it first on PATH). Idempotent and quiet when everything is there. Nothing goes into
# the repository: the cache is ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-dist.
#
# - rustup targets x86_64/aarch64-unknown-linux-musl, x86_64-pc-windows-gnu, x86_64/aarch64-apple-darwin
# - zig from PyPI (`ziglang`, in a venv) and cargo-zigbuild from crates.io: the musl (and darwin)
#   linker, so no C cross toolchain is needed for Linux
# - Debian: mingw-w64 (the Windows linker and C compiler), qemu-user-static (runs the arm64 binary),
#   file, groff and man-db (the man page test), and wine (runs the Windows binary; optional: the
#   tests check its PE header without it)
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-dist"
zig_version=0.17.1
zigbuild_version=0.24.1
log() { printf 'dist-tools: %s\n' "$*" >&2; }

targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl x86_64-pc-windows-gnu
  x86_64-apple-darwin aarch64-apple-darwin)
installed="$(rustup target list --installed)"
for target in "${targets[@]}"; do
  if ! grep -qx "$target" <<<"$installed"; then
    log "rustup target add $target"
    rustup target add "$target" >&2
  fi
done

apt_missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null || apt_missing+=(mingw-w64)
command -v qemu-aarch64-static >/dev/null || apt_missing+=(qemu-user-static)
command -v file >/dev/null || apt_missing+=(file)
command -v groff >/dev/null || apt_missing+=(groff-base)
command -v man >/dev/null || apt_missing+=(man-db)
# wine is optional (a large package set, not on every architecture): without it the tests check the
# PE header instead. Tried once per cache.
mkdir -p "$cache/bin"
try_wine=false
command -v wine >/dev/null || [[ -e "$cache/no-wine" ]] || try_wine=true
if ((${#apt_missing[@]})) || $try_wine; then
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  if ((${#apt_missing[@]})); then
    log "installing Debian's ${apt_missing[*]}"
    $sudo apt-get install -y -qq "${apt_missing[@]}" >&2
  fi
  if $try_wine; then
    log "installing Debian's wine64 (optional)"
    $sudo apt-get install -y -qq wine wine64 >&2 || { log "wine not installed"; touch "$cache/no-wine"; }
  fi
fi

if [[ "$("$cache/bin/zig" version 2>/dev/null)" != "$zig_version" ]]; then
  log "zig $zig_version (PyPI ziglang) into $cache/venv"
  rm -rf "$cache/venv"
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q "ziglang==$zig_version" >&2
  package="$("$cache/venv/bin/python" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')"
  ln -sf "$package/zig" "$cache/bin/zig"
fi
if [[ "$("$cache/cargo/bin/cargo-zigbuild" --version 2>/dev/null)" != *" $zigbuild_version" ]]; then
  log "cargo install cargo-zigbuild $zigbuild_version into $cache/cargo"
  cargo install -q --locked --version "$zigbuild_version" --root "$cache/cargo" cargo-zigbuild >&2
fi
ln -sf "$cache/cargo/bin/cargo-zigbuild" "$cache/bin/cargo-zigbuild"
echo "$cache/bin"
