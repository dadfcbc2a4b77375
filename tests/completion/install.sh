#!/usr/bin/env bash
# Installs the shells tests/shell_completion.rs types into, when missing: Debian's bash-completion,
# zsh and fish (python3, which drives the pseudo-terminal with its standard library, is assumed, as
# for the other consumer tests). Idempotent and quiet when everything is there.
set -euo pipefail
missing=()
[[ -f /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
command -v zsh >/dev/null || missing+=(zsh)
command -v fish >/dev/null || missing+=(fish)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  printf 'completion shells: installing Debian'"'"'s %s\n' "${missing[*]}" >&2
  if [[ "$(id -u)" != 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
