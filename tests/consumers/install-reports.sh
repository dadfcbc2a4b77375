#!/usr/bin/env bash
# The real consumers of `check -o sarif|junit|markdown`, installed once from package registries
# into ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-consumers (never into the repository):
#   - the official SARIF 2.1.0 JSON schema (sarif-2.1.0-rtm.5.json, the OASIS 2.1.0 schema), as
#     shipped by Microsoft's npm package @microsoft/jest-sarif;
#   - junitparser (PyPI), a JUnit XML reader used by CI tools;
#   - markdown-it-py (PyPI), a CommonMark + GFM-tables renderer.
# Prints the cache directory on stdout (tests/report_formats.rs reads it); progress goes to stderr.
set -euo pipefail

dir="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-consumers"
schema="$dir/sarif-schema-2.1.0.json"
python="$dir/venv/bin/python"
JEST_SARIF="@microsoft/jest-sarif@1.0.0-beta.0"
PY_PACKAGES=(junitparser==5.0.3 markdown-it-py==4.3.0)

mkdir -p "$dir"
if [ ! -s "$schema" ]; then
  echo "installing the SARIF 2.1.0 schema from npm ($JEST_SARIF)" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$JEST_SARIF" >/dev/null && tar xzf ./*.tgz)
  cp "$work/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schema.tmp"
  mv "$schema.tmp" "$schema"
fi
if ! "$python" -c 'import junitparser, markdown_it' 2>/dev/null; then
  echo "installing ${PY_PACKAGES[*]} from PyPI into $dir/venv" >&2
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}" >&2
fi
echo "$dir"
