#!/usr/bin/env bash
# The sweep of RECORDS.md: every code of the published list of unsolved octal games, each run
# to N (default 2^20) as far as a budget of processor time allows (default 600 s, the ten
# minutes a code of issue 42), with its statistics, and a certificate checked by
# scripts/verify_period.py for any code that becomes periodic.
#
# The list is the table of Czajka's open-source octal-games solver: `UnsolvedGames.md` of
# https://github.com/tczajka/octal-games (read at its commit 57e893a): 83 games, of which
# Grundy's game, 0.6, 0.04 and 0.06 (the four with published statistics) are run on their own
# (RECORDS.md); the 79 others are below, 13 of them with a digit before the point (4.004 …
# 4.406: split without taking).
#
# Usage: scripts/sweep_unsolved.sh [N] [CPU_SECONDS] [CODE ...]
#   NIMSCOPE: the binary (default target/release/nimscope:
#   `cargo build --release --no-default-features --bin nimscope`).
#   SWEEP_DIR: where each code's checkpoint, statistics and processor time are kept (default
#   ${XDG_STATE_HOME:-~/.local/state}/nimscope/sweep-unsolved).
#
# Resumable: each code runs with one thread and `--checkpoint SWEEP_DIR/CODE.ckpt`, and
# SWEEP_DIR/CODE.cpu adds up the processor seconds (user + system) of all its sittings. A
# sitting gets what is left of CPU_SECONDS as its soft limit (`ulimit -S -t`): at the limit the
# run saves its checkpoint and stops (SIGXCPU; the hard limit, 120 s later, ends a run that
# did not). So the sweep can be stopped at any time (kill it, end the session) and run again
# with the same arguments: it goes on where each code stopped, and a code whose budget is
# spent is only reported. A larger CPU_SECONDS or N later extends every code.
#
# Prints one line a code (tab-separated): code, status (done, or stopped with the heaps
# reached), processor seconds over all sittings, peak KiB of the last sitting, largest value
# and first heap, rare mask, rare heaps, last rare heap, period (or -), values SHA-256;
# SWEEP_DIR/CODE.json holds the statistics, SWEEP_DIR/CODE.cert.json a certificate and
# SWEEP_DIR/CODE.verify what verify_period.py said of it.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-2^20}
cpu=${2:-600}
shift 2 || shift $# || true
codes=("$@")
if [ ${#codes[@]} -eq 0 ]; then
    codes=(
        0.14 0.36 0.64 0.74 0.76 0.004 0.005 0.006 0.014 0.015 0.016 0.024 0.026 0.034 0.054
        0.064 0.104 0.106 0.114 0.125 0.126 0.135 0.136 0.142 0.143 0.146 0.161 0.162 0.163
        0.164 0.166 0.167 0.172 0.174 0.204 0.205 0.206 0.207 0.224 0.244 0.245 0.264 0.314
        0.324 0.334 0.336 0.342 0.344 0.346 0.362 0.364 0.366 0.371 0.374 0.404 0.414 0.416
        0.444 0.454 0.564 0.604 0.606 0.744 0.764 0.774 0.776 4.004 4.007 4.026 4.044 4.045
        4.064 4.324 4.327 4.344 4.364 4.367 4.404 4.406
    )
fi
bin=${NIMSCOPE:-target/release/nimscope}
if [ ! -x "$bin" ]; then
    echo "error: $bin is missing: cargo build --release --no-default-features --bin nimscope" >&2
    exit 2
fi
out=${SWEEP_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/nimscope/sweep-unsolved}
mkdir -p "$out"

# How many values a checkpoint (a values file, docs/values-file.md) holds: the count at offset 24.
reached() {
    od -An -t u8 -j 24 -N 8 "$1" 2>/dev/null | tr -d ' ' || true
}
# Whether CODE.json is the statistics of a finished run to N.
finished() {
    python3 - "$1" "$n" <<'EOF'
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(1)
sys.exit(0 if s.get("n") == eval(sys.argv[2].replace("^", "**")) else 1)
EOF
}

for code in "${codes[@]}"; do
    r="octal($code)"
    spent=$(cat "$out/$code.cpu" 2>/dev/null || echo 0)
    left=$(echo "$cpu - $spent" | bc | cut -d. -f1)
    kib=-
    if finished "$out/$code.json"; then
        status=done
    elif [ "${left:-0}" = "" ] || [ "${left:0:1}" = - ] || [ "${left:-0}" -lt 1 ]; then
        status="stopped at $(reached "$out/$code.ckpt")"
    else
        status=done
        if ! (ulimit -S -t "$left"; ulimit -H -t $((left + 120))
            exec /usr/bin/time -f '%U %S %M' -o "$out/$code.time" \
                "$bin" --threads 1 seq "$r" --to "$n" --stats --json --checkpoint "$out/$code.ckpt" \
                --checkpoint-every 10 >"$out/$code.json" 2>"$out/$code.err"); then
            status="stopped at $(reached "$out/$code.ckpt")"
        fi
        read -r user sys kib < <(grep -E '^[0-9.]+ [0-9.]+ [0-9]+$' "$out/$code.time" | tail -n 1 || echo "0 0 0")
        spent=$(echo "$spent + $user + $sys" | bc)
        echo "$spent" >"$out/$code.cpu"
    fi
    line=$'-\t-\t-\t-\t-\t-'
    if [ "$status" = done ]; then
        line=$(python3 - "$out/$code.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
period = "-" if s["period"] is None else f'{s["period"]} from {s["preperiod"]}'
print("\t".join(map(str, [f'{s["largest"]} at {s["largest_first"]}', s["rare_mask"],
                          s["rare_count"], s["last_rare_heap"], period, s["sha256"]])))
EOF
)
        if [[ "$line" != *$'\t-\t'* ]]; then
            # a period: its certificate, checked from the rule alone (once)
            if [ ! -s "$out/$code.verify" ]; then
                "$bin" --threads 1 seq "$r" --to "$n" --certificate "$out/$code.cert.json" >/dev/null
                python3 scripts/verify_period.py "$out/$code.cert.json" >"$out/$code.verify" || true
            fi
            line="$line"$'\t'"$(tail -n 1 "$out/$code.verify")"
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$code" "$status" "$spent" "$kib" "$line"
done
