#!/usr/bin/env bash
# The window's map fill against the command line on the same cells, in turns: the real window
# under Xvfb (scripts/map_trace.sh) fills a view, its trace's map-complete names the cells in
# view and when they were all final (after the first frame); then `nimscope grid` computes those
# cells (rows and columns of the map-complete event). The goal (issue 41): the window within
# 1.5 times the command line's time, for Wythoff 0..4096 and Euclid 0..9000.
#
# Usage: scripts/bench_map_fill.sh [RUNS] [--busy] [-- CASE...]
#   RUNS     runs of each case, window and command line alternating (default 3)
#   --busy   keep one core busy meanwhile (`nice yes`), as a user's other work would
#   CASE     'RULESET A..B,C..D' (default: 'wythoff 0..4096,0..4096' 'euclid 0..9000,0..9000')
# Uses target/release/nimscope (NIMSCOPE=path for another build); needs the packages of
# scripts/screenshot.sh. Prints each run (wall clock, and processor time: the window's process
# until the view was complete, every thread, from map_trace.sh's threads.txt; the command line's
# user + system), then min-max of each side and the ratios of the medians; exits 1 if a case's
# ratio of the wall clock's medians is above 1.5.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 busy=""
cases=()
while [ $# -gt 0 ]; do
  case $1 in
    --busy) busy=--busy ;;
    --) shift; cases=("$@"); break ;;
    [0-9]*) runs=$1 ;;
    *) echo "bench_map_fill: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#cases[@]} -gt 0 ] || cases=("wythoff 0..4096,0..4096" "euclid 0..9000,0..9000")
bin=${NIMSCOPE:-target/release/nimscope}
[ -x "$bin" ] || { echo "bench_map_fill: build $bin first (cargo build --release)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
summary=$out/summary
: > "$summary"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for case in "${cases[@]}"; do
  read -r ruleset view <<< "$case"
  for i in $(seq 1 "$runs"); do
    dir=$out/$ruleset-$i
    NIMSCOPE=$bin scripts/map_trace.sh "$dir" $busy -- --ruleset "$ruleset" --view "$view" > /dev/null
    # the window: map-complete after the first frame, and the cells in view
    read -r window rows cols < <(python3 - "$dir/trace.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
first = next(r["t"] for r in rows if "frame_ms" in r)
done = next(r for r in rows if r.get("event") == "map-complete")
print(f'{done["t"] - first:.3f} {done["rows"][0]}..{done["rows"][1]} {done["cols"][0]}..{done["cols"][1]}')
EOF
)
    if [ -n "$busy" ]; then nice -n 0 yes > /dev/null & hog=$!; fi
    window_cpu=$(awk '{ s += $NF } END { print s / 100 }' "$dir/threads.txt")
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$out/time" "$bin" grid "$ruleset" --rows "$rows" --cols "$cols" > /dev/null
    cli=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
    cli_cpu=$(awk '{ print $1 + $2 }' "$out/time")
    if [ -n "$busy" ]; then kill "$hog"; wait "$hog" 2>/dev/null || true; fi
    printf '%s %s: window %.3f s (cpu %.2f s), grid --rows %s --cols %s %.3f s (cpu %.2f s)\n' \
      "$ruleset" "$i" "$window" "$window_cpu" "$rows" "$cols" "$cli" "$cli_cpu"
    echo "$ruleset $window $cli $window_cpu $cli_cpu" >> "$summary"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$summary" <<'EOF'
import sys, statistics
cases = {}
for line in open(sys.argv[1]):
    name, *xs = line.split()
    cases.setdefault(name, []).append([float(x) for x in xs])
worst = 0.0
for name, runs in cases.items():
    w, c, wc, cc = ([r[i] for r in runs] for i in range(4))
    ratio = statistics.median(w) / statistics.median(c)
    worst = max(worst, ratio)
    print(f"{name}: window {min(w):.2f}-{max(w):.2f} s, command line {min(c):.2f}-{max(c):.2f} s, "
          f"ratio of medians {ratio:.2f} (goal 1.5); processor time {min(wc):.2f}-{max(wc):.2f} s "
          f"against {min(cc):.2f}-{max(cc):.2f} s, ratio of medians "
          f"{statistics.median(wc) / max(statistics.median(cc), 0.01):.2f}")
sys.exit(1 if worst > 1.5 else 0)
EOF
