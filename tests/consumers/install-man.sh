#!/usr/bin/env bash
# The readers of the man pages, from Debian when missing: groff (groff-base: `groff -man -Tutf8`,
# the formatter man runs) and man-db (`man -l`). tests/man_pages.rs runs it first. Nothing goes
# into the repository. Quiet when both are there.
set -euo pipefail
missing=()
command -v groff >/dev/null || missing+=(groff-base)
command -v man >/dev/null || missing+=(man-db)
if ((${#missing[@]})); then
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  echo "installing Debian's ${missing[*]}" >&2
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
