#!/usr/bin/env bash
# Cram on one thread against igsolve, measured in turns: for each board, ROUNDS times, ours
# (`examples/bench_cram`, THREADS=1, a fresh 256 MiB table) then igsolve (default options, one
# thread). Each run is timed by the processor time of its whole process (user + system, from
# bash's `time`), which a busy machine stretches far less than the wall clock (the other core
# may be busy: that is fair, both run under the same load). Prints min–max of each and the
# ratio of the minimums (ours / igsolve; at most 1.0: as quick or quicker), and the same ratio
# of user time alone: igsolve's default table takes gigabytes that the kernel zeroes (system
# time), which on a machine short of free memory can outweigh its search.
#
# Usage: scripts/bench_vs_igsolve.sh [ROUNDS] [BOARD ...]
#        (default: 3 rounds of 4x9 5x6 5x7 3x13 3x15)
# Needs a release build of the example (`cargo build --release --example bench_cram`) and
# `igsolve` on the PATH (`cargo install igsolve`). BENCH_CRAM overrides the example's path; it may
# name a release `nimscope` binary instead (`cargo build --release --no-default-features --bin
# nimscope`, a third of the example's build time), timed as `nimscope --threads 1 cram BOARD
# --json` (its table starts at 2 MiB and doubles, as the example's does).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-3}
shift || true
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
    boards=(4x9 5x6 5x7 3x13 3x15)
fi
ours_bin=${BENCH_CRAM:-target/release/examples/bench_cram}
if [ ! -x "$ours_bin" ]; then
    echo "error: $ours_bin is missing: cargo build --release --example bench_cram" >&2
    exit 2
fi
if ! command -v igsolve > /dev/null; then
    echo "error: igsolve is not on the PATH: cargo install igsolve" >&2
    exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Runs a command with its output in $out; prints its processor time in seconds: user + system,
# then user alone.
cpu_seconds() {
    local TIMEFORMAT='%3U %3S' t
    t=$({ time "$@" > "$out" 2> /dev/null; } 2>&1)
    awk '{ printf "%.3f %.3f\n", $1 + $2, $1 }' <<< "$t"
}

range() {
    printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' '
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), nimscope $(git rev-parse --short HEAD), $(igsolve --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-6s %-18s %-18s %-18s %s\n' board value "ours (1 thread) s" "igsolve s" "ratio of minimums" "(user time alone)"
for board in "${boards[@]}"; do
    rows=${board%x*}
    cols=${board#*x}
    ours=()
    theirs=()
    ours_user=()
    theirs_user=()
    for _ in $(seq "$rounds"); do
        if [ "$(basename "$ours_bin")" = nimscope ] || [ "${BENCH_CLI:-0}" = 1 ]; then
            read -r total user <<< "$(cpu_seconds "$ours_bin" --threads 1 cram "$board" --json)"
            value=$(sed -n 's/.*"grundy":\([0-9]*\).*/\1/p' "$out")
        else
            read -r total user <<< "$(cpu_seconds env THREADS=1 "$ours_bin" "$board")"
            value=$(awk '{ for (i = 1; i < NF; i++) if ($i == "value") { print $(i + 1); exit } }' "$out")
        fi
        ours+=("$total")
        ours_user+=("$user")
        read -r total user <<< "$(cpu_seconds igsolve cram -r "$rows" -c "$cols")"
        theirs+=("$total")
        theirs_user+=("$user")
        igs_value=$(sed -n 's/^Nimber of initial position: //p' "$out")
        if [ "$igs_value" != "$value" ]; then
            echo "error: $board: ours $value, igsolve $igs_value" >&2
            exit 1
        fi
    done
    read -r o_min o_max <<< "$(range "${ours[@]}")"
    read -r t_min t_max <<< "$(range "${theirs[@]}")"
    ratio=$(awk -v a="$o_min" -v b="$t_min" 'BEGIN { printf "%.2f", a / b }')
    read -r ou_min _ <<< "$(range "${ours_user[@]}")"
    read -r tu_min _ <<< "$(range "${theirs_user[@]}")"
    user_ratio=$(awk -v a="$ou_min" -v b="$tu_min" 'BEGIN { printf "%.2f", a / b }')
    printf '%-6s %-6s %-18s %-18s %-18s %s\n' "$board" "$value" "$o_min–$o_max" "$t_min–$t_max" "$ratio" "$user_ratio"
done
