#!/usr/bin/env bash
# The price of splitting a search into a plan's units, measured on this machine:
#
#   scripts/slurm/cost.sh BOARD [--push] [--outcome] [--depth D] [--ahead W] [--bluff all|one]
#
# prints one row of docs/cluster.md's cost table: the single search's processor time on one
# thread, the units' total processor time (each unit on one thread, one after another, in as
# many rounds as the plan asks, each unit with a checkpoint that a later round resumes) with and
# without the proven values they share, and the wall-clock time of the units on two workers
# (GNU parallel -j 2) with and without them, beside the single search's on two threads. Each
# combined answer is checked against the single search's. Times are GNU time's (user + system).
# Rounds run as on a cluster: each is recorded (`--needed --round R --ahead W`) and every unit
# of it is asked the round's question (`--unit --round R`), skipped or stopped once the others'
# answers make it unnecessary (RECHECK seconds between two looks, default 5); --ahead W (default
# 0) and --bluff (default all) are what a round asks (nimscope cram --ahead, --bluff).
# QUICK=1 (for boards whose searches take minutes) runs each plan once, on two workers, and
# takes the units' processor time from those runs (each unit still runs on one thread).
# ALONE=0 leaves out the runs without shared proven values (their columns print "-"): half the
# processor time, for boards whose units take many minutes. SINGLE2=0 leaves out the single
# search on two threads (its wall-clock column prints "-"); SINGLE1=FILE takes the single
# search on one thread from an earlier run (FILE holds GNU time's "user system wall" line,
# FILE.out its output: the work folder's single1 and single1.out), so that the rows of one
# board in several modes search it once.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
N=${NIMSCOPE:-$root/target/debug/nimscope}
board=${1:?usage: cost.sh BOARD [--push] [--outcome] [--depth D] [--ahead W] [--bluff all|one]}
shift
opts=()
depth=1
ahead=0
bluff=all
while [ $# -gt 0 ]; do
  case "$1" in
    --depth) depth=$2; shift 2 ;;
    --ahead) ahead=$2; shift 2 ;;
    --bluff) bluff=$2; shift 2 ;;
    *) opts+=("$1"); shift ;;
  esac
done
work=$(mktemp -d /tmp/nimscope-cost-XXXXXX)
trap 'rm -rf "$work"' EXIT
cpu() { awk '{ s += $1 + $2 } END { printf "%.1f", s }' "$1"; }
# One timed command: appends "user system wall" to $1, its output to $1.out.
timed() { local log=$1; shift; /usr/bin/env time -a -o "$log" -f "%U %S %e" "$@" > "$log.out"; }

if [ -n "${SINGLE1:-}" ]; then
  cp "$SINGLE1" "$work/single1" && cp "$SINGLE1.out" "$work/single1.out"
else
  timed "$work/single1" "$N" --threads 1 cram "$board" "${opts[@]}" --json
fi
want=$(cat "$work/single1.out")
if [ "${SINGLE2:-1}" = 0 ]; then
  echo "- - -" > "$work/single2"
else
  timed "$work/single2" "$N" --threads 2 cram "$board" "${opts[@]}" --json
  [ "$(cat "$work/single2.out")" = "$want" ] || { echo "cost.sh: the single search on one and two threads disagree" >&2; exit 1; }
fi

run_plan() { # name, workers, extra unit options
  local name=$1 jobs=$2; shift 2
  local dir="$work/$name"
  "$N" cram "$board" "${opts[@]}" --depth "$depth" --plan "$dir" > /dev/null
  local units
  units=$(grep -o '"units":[0-9]*' "$dir/plan.json" | cut -d: -f2)
  local start end rounds=0 needed
  start=$(date +%s.%N)
  # Rounds until the root is settled: each runs the units --needed lists, asked the round's
  # questions; a unit asked again resumes from its checkpoint.
  while needed=$("$N" cram --needed "$dir" --round "$rounds" --ahead "$ahead" --bluff "$bluff") && [ -n "$needed" ]; do
    [ "$rounds" -lt 100 ] || { echo "cost.sh: $name: not settled after 100 rounds" >&2; exit 1; }
    tr ',' '\n' <<< "$needed" | parallel --will-cite -j "$jobs" --halt now,fail=1 \
      /usr/bin/env time -a -o "$work/$name.units" -f "'%U %S %e'" "$N" --threads 1 cram --unit "$dir" {} \
      --round "$rounds" --recheck-every "${RECHECK:-5}" --checkpoint "$dir/unit-{}.ckpt" "$@" > /dev/null 2>> "$work/$name.err"
    rounds=$((rounds + 1))
  done
  end=$(date +%s.%N)
  local got
  got=$("$N" cram --combine "$dir" --json)
  [ "$got" = "$want" ] || { echo "cost.sh: $name combined $got, the single search $want" >&2; exit 1; }
  echo "$units $(ls "$dir/answers" | wc -l) $(cpu "$work/$name.units") $(echo "$end - $start" | bc) $rounds $(wc -l < "$work/$name.units")"
}
if [ "${QUICK:-0}" = 1 ]; then
  read -r units ran1 cpu_shared wall_shared rounds runs <<< "$(run_plan shared2 2)"
  cpu_alone=- wall_alone=-
  [ "${ALONE:-1}" = 0 ] || read -r _ _ cpu_alone wall_alone _ _ <<< "$(run_plan alone2 2 --no-proven)"
else
  read -r units ran1 cpu_shared _ rounds runs <<< "$(run_plan shared1 1)"
  read -r _ _ cpu_alone _ _ _ <<< "$(run_plan alone1 1 --no-proven)"
  read -r _ _ _ wall_shared _ _ <<< "$(run_plan shared2 2)"
  read -r _ _ _ wall_alone _ _ <<< "$(run_plan alone2 2 --no-proven)"
fi
single1=$(cpu "$work/single1")
single2_wall=$(awk '{ print $3 }' "$work/single2")
[ "$single2_wall" = - ] || single2_wall="$single2_wall s"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b > 0) printf "%.2f", a / b; else print "-" }'; }
secs() { if [ "$1" = - ]; then echo -; else printf '%.1f s' "$1"; fi; }
question=value; for o in "${opts[@]}"; do [ "$o" = --outcome ] && question=outcome; done
game=Cram; for o in "${opts[@]}"; do [ "$o" = --push ] && game="Push Cram"; done
echo "| $game $board | $question | $depth | $ahead, $bluff | $units ($ran1 asked; $runs runs in $rounds rounds) | $single1 s | $cpu_shared s (×$(ratio "$cpu_shared" "$single1")) | $(secs "$cpu_alone") (×$(ratio "$cpu_alone" "$single1")) | $single2_wall | $(secs "$wall_shared") | $(secs "$wall_alone") |"
