#!/usr/bin/env bash
# Fuzz the dump parser, the JSON reader across window sizes, the YAML rewrite against serde-saphyr,
# the engine and the command line
# with cargo-fuzz (libFuzzer + ASan). Not part of CI: the
# committed corpus and regressions are replayed by `cargo test` (tests/fuzz_corpus.rs).
#
#   scripts/fuzz.sh [SECONDS]        # every target concurrently, SECONDS each (default 900)
#   FUZZ_UPDATE_CORPUS=1 scripts/fuzz.sh 900   # then merge (minimise) the run into fuzz/corpus
#
# cargo-fuzz needs nightly flags: uses the nightly toolchain when installed, else stable with
# RUSTC_BOOTSTRAP=1 (stable's rust-std ships the ASan runtime). Build output and the working
# corpus live under ${XDG_CACHE_HOME:-~/.cache}/kubectl-topo-fuzz, never in the repo. Runs at
# nice 15 so other builds are not starved.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-900}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-topo-fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    export RUSTC_BOOTSTRAP=1
fi
nice -n 15 cargo "${toolchain[@]}" fuzz build -O --target-dir "$cache/target"
bin="$cache/target/$(rustc -vV | sed -n 's/^host: //p')/release"
for target in dump json yaml engine argv; do
    mkdir -p "$cache/work/$target" "$cache/artifacts/$target"
    cp fuzz/corpus/"$target"/* "$cache/work/$target/"
done
# dump, json, yaml: inputs up to 16 KiB (a small cluster); engine: the generator reads at most a few KiB;
# argv: two bytes a word, at most 12 words.
declare -A max_len=([dump]=16384 [json]=16384 [yaml]=16384 [engine]=4096 [argv]=32)
pids=()
for target in dump json yaml engine argv; do
    nice -n 15 "$bin/$target" "$cache/work/$target" -max_total_time="$seconds" \
        -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$cache/artifacts/$target/" -print_final_stats=1 \
        >"$cache/$target.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
for target in dump json yaml engine argv; do
    echo "== $target: $(grep -E '^stat::number_of_executed_units' "$cache/$target.log") \
$(grep -E '^stat::peak_rss_mb' "$cache/$target.log"), crashes: $(ls "$cache/artifacts/$target" | wc -l)"
done
if [ "${FUZZ_UPDATE_CORPUS:-0}" = 1 ]; then
    for target in dump json yaml engine argv; do
        rm -rf "$cache/merged/$target" && mkdir -p "$cache/merged/$target"
        nice -n 15 "$bin/$target" -merge=1 -max_len="${max_len[$target]}" \
            "$cache/merged/$target" fuzz/corpus/"$target" "$cache/work/$target" >/dev/null 2>&1
        rm -f fuzz/corpus/"$target"/* && cp "$cache/merged/$target"/* fuzz/corpus/"$target"/
        echo "fuzz/corpus/$target: $(ls fuzz/corpus/"$target" | wc -l) files"
    done
fi
if [ "$status" -ne 0 ]; then
    echo "a target stopped with a crash: see $cache/*.log and $cache/artifacts/; fix it, then add"
    echo "the input to fuzz/regressions/<target>/ so cargo test replays it"
fi
exit "$status"
