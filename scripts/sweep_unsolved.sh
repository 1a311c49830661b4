#!/usr/bin/env bash
# The sweep of RECORDS.md: every code of the published list of unsolved octal games, each run
# to N (default 2^20) as far as a limit of processor time allows, with its statistics, and a
# certificate checked by scripts/verify_period.py for any code that becomes periodic.
#
# The list is the table of Czajka's open-source octal-games solver: `UnsolvedGames.md` of
# https://github.com/tczajka/octal-games (read at its commit 57e893a): 83 games, of which
# Grundy's game, 0.6, 0.04 and 0.06 (the four with published statistics) are run on their own
# (RECORDS.md); the 79 others are below, 13 of them with a digit before the point (4.004 …
# 4.406: split without taking).
#
# Usage: scripts/sweep_unsolved.sh OUT_DIR [N] [CPU_SECONDS] [CODE ...]
#   NIMSCOPE: the binary (default target/release/nimscope:
#   `cargo build --release --no-default-features --bin nimscope`).
# Each code runs with one thread under `ulimit -t CPU_SECONDS` (default 30) and GNU time, with
# `--checkpoint OUT_DIR/CODE.ckpt`: run the sweep again with a larger limit and each code goes
# on from where it stopped. Prints one line a code (tab-separated): code, status (done, or
# stopped with the heaps reached), processor seconds, peak KiB, largest value and first heap,
# rare mask, rare heaps, last rare heap, period (or -), values SHA-256; OUT_DIR/CODE.json holds
# the statistics, OUT_DIR/CODE.cert.json a certificate.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/sweep_unsolved.sh OUT_DIR [N] [CPU_SECONDS] [CODE ...]}
n=${2:-2^20}
cpu=${3:-30}
shift 3 || shift $# || true
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
mkdir -p "$out"
for code in "${codes[@]}"; do
    r="octal($code)"
    status=done
    if ! (ulimit -t "$cpu"; /usr/bin/time -f '%U %S %M' -o "$out/$code.time" \
        "$bin" --threads 1 seq "$r" --to "$n" --stats --json --checkpoint "$out/$code.ckpt" \
        >"$out/$code.json" 2>"$out/$code.err"); then
        # stopped by the limit: how far the checkpoint reached (the count at offset 24)
        reached=$(od -An -t u8 -j 24 -N 8 "$out/$code.ckpt" 2>/dev/null | tr -d ' ' || echo 0)
        status="stopped at ${reached:-0}"
    fi
    read -r user sys kib < <(tail -n 1 "$out/$code.time" | grep -E '^[0-9.]+ [0-9.]+ [0-9]+$' || echo "0 0 0")
    secs=$(echo "$user + $sys" | bc)
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
            # a period: its certificate, checked from the rule alone
            "$bin" --threads 1 seq "$r" --to "$n" --certificate "$out/$code.cert.json" >/dev/null
            python3 scripts/verify_period.py "$out/$code.cert.json" >"$out/$code.verify" || true
            line="$line"$'\t'"$(tail -n 1 "$out/$code.verify")"
        fi
    else
        line=$'-\t-\t-\t-\t-\t-'
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$code" "$status" "$secs" "$kib" "$line"
done
