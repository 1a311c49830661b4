#!/usr/bin/env bash
# The command line against Beling's ogsolve on octal games, whole process, in turns: for each
# code, ROUNDS times, `nimscope value 'octal(CODE)' N`, `nimscope seq 'octal(CODE)' --to N+1`
# (both compute G(0..=N)) and `ogsolve -m rc2 -n N CODE`, each timed by the processor time of
# its whole process (user + system, from bash's `time`: start-up, parsing, output and all),
# which a busy machine stretches far less than the wall clock. Prints min–max of each and the
# ratios of the minimums (nimscope / ogsolve; at most 1.0: as quick or quicker). The values
# G(N) are compared (ogsolve's "nimber of N" against ours).
#
# Usage: scripts/bench_vs_ogsolve.sh [ROUNDS] [N] [CODE ...]
#        (default: 5 rounds, N = 100000, codes 0.6 0.064 0.16)
# NIMSCOPE is the binary measured (default target/release/nimscope: `cargo build --release`;
# the dev profile's target/debug/nimscope is opt-level 2). Needs `ogsolve` on the PATH
# (`cargo install ogsolve`). For long runs (2^24): BENCH_VALUE=0 skips `value` (the same work as
# `seq`), and SEQ_FLAGS=--stats has `seq` print its statistics instead of every value (ogsolve
# prints none either); G(N) is then compared once, from an untimed `value`.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-5}
n=${2:-100000}
shift 2 || shift $# || true
codes=("$@")
if [ ${#codes[@]} -eq 0 ]; then
    codes=(0.6 0.064 0.16)
fi
ours=${NIMSCOPE:-target/release/nimscope}
if [ ! -x "$ours" ]; then
    echo "error: $ours is missing: cargo build --release (or NIMSCOPE=target/debug/nimscope)" >&2
    exit 2
fi
if ! command -v ogsolve > /dev/null; then
    echo "error: ogsolve is not on the PATH: cargo install ogsolve" >&2
    exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Runs a command with its output in $out; prints its processor time in seconds (user + system).
cpu_seconds() {
    local TIMEFORMAT='%3U %3S' t
    t=$({ time "$@" > "$out" 2> /dev/null; } 2>&1)
    awk '{ printf "%.3f\n", $1 + $2 }' <<< "$t"
}

range() {
    printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' '
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), nimscope $(git rev-parse --short HEAD) ($ours), ogsolve $(ogsolve --version 2>/dev/null | head -1), N = $n, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-8s %-16s %-16s %-16s %-12s %s\n' code "G(N)" "value s" "seq s" "ogsolve s" "value/ogsolve" "seq/ogsolve"
for code in "${codes[@]}"; do
    value=() seq=() og=()
    for _ in $(seq 1 "$rounds"); do
        if [ "${BENCH_VALUE:-1}" != 0 ]; then
            value+=("$(cpu_seconds "$ours" value "octal($code)" "$n" --json)")
            ours_g=$(sed -E 's/.*"grundy":([0-9]+).*/\1/' "$out")
        else
            value+=(0)
        fi
        # shellcheck disable=SC2086
        seq+=("$(cpu_seconds "$ours" seq "octal($code)" --to "$((n + 1))" ${SEQ_FLAGS:-})")
        og+=("$(cpu_seconds ogsolve -m rc2 -n "$n" "$code")")
        og_g=$(sed -nE 's/.*nimber of [0-9]+: ([0-9]+).*/\1/p' "$out")
    done
    if [ "${BENCH_VALUE:-1}" = 0 ]; then
        # once, untimed
        ours_g=$("$ours" value "octal($code)" "$n" --json | sed -E 's/.*"grundy":([0-9]+).*/\1/')
    fi
    check=$([ "$ours_g" = "$og_g" ] && echo "$ours_g" || echo "$ours_g≠$og_g")
    read -r vmin vmax <<< "$(range "${value[@]}")"
    read -r smin smax <<< "$(range "${seq[@]}")"
    read -r omin omax <<< "$(range "${og[@]}")"
    printf '%-6s %-8s %-16s %-16s %-16s %-12s %s\n' "$code" "$check" "$vmin–$vmax" "$smin–$smax" "$omin–$omax" \
        "$(ratio "$vmin" "$omin")" "$(ratio "$smin" "$omin")"
done
