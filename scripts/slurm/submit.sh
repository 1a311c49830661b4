#!/usr/bin/env bash
# Submits the next round of a nimscope plan to Slurm: the units the root needs now (recorded as
# round R, DIR/rounds/round-R.json, with each unit's question), as job arrays of at most
# MaxArraySize - 1 tasks that read their unit from a list file, then the combine step after all
# of them (--dependency=afterany: it runs whatever ended the tasks), which settles the root or
# submits the next round (docs/cluster.md). Prints the job ids.
#
#   scripts/slurm/submit.sh DIR [--memory-budget 4G] [--parallel N] [--ahead W] [--bluff all|one]
#                               [--max-resubmit N] [-- more sbatch options]
#
# --memory-budget is each unit's nimscope --memory-budget (its table takes half); a task asks
# Slurm for that and 256 MB more. --parallel caps the tasks running at once (%N of each array).
# --ahead and --bluff are what a round asks (nimscope cram --ahead, --bluff: by default one value
# a round, and a bluff flag in one round; --ahead 1 or more takes fewer rounds and more processor
# time, --bluff one the least processor time and the most rounds). --max-resubmit (default 3) is how often a unit that
# ended without an answer (time limit, node failure, a crash past its requeues) is submitted
# again before the hunt stops with DIR/failed. NIMSCOPE names the binary (default: nimscope on
# the PATH). The first submission writes these settings to DIR/hunt.env; the combine step, and a
# hunt resumed by hand (submit.sh DIR again, after DIR/failed), read them from there, and
# options given again replace them.
#
# DIR, the binary and these scripts must be on a filesystem every node sees, and the nodes
# must be allowed to submit jobs (the combine step runs sbatch). A hunt whose jobs are still in
# the queue is not submitted twice (DIR/hunt.lock names them): cancel them first
# (scancel JOB...) or wait.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: submit.sh DIR [--memory-budget 4G] [--parallel N] [--ahead W] [--bluff all|one] [--max-resubmit N] [-- sbatch options]"
plan=${1:?$usage}
shift
[ -f "$plan/plan.json" ] || { echo "submit.sh: $plan holds no plan.json (nimscope cram BOARD --plan $plan)" >&2; exit 2; }
plan=$(cd "$plan" && pwd)
env_file="$plan/hunt.env"
# Settings: defaults, the hunt's own (hunt.env), those set in the environment, the options.
settings="NIMSCOPE MEMORY_BUDGET ARRAY_CAP AHEAD BLUFF MAX_RESUBMIT MAX_ROUNDS CHECKPOINT_EVERY MAX_REQUEUE"
declare -A given
for v in $settings; do [ -z "${!v+x}" ] || given[$v]=${!v}; done
NIMSCOPE=nimscope MEMORY_BUDGET=2G ARRAY_CAP="" AHEAD=0 BLUFF=all MAX_RESUBMIT=3 MAX_ROUNDS=100 CHECKPOINT_EVERY=300 MAX_REQUEUE=3
SBATCH_EXTRA=()
if [ -f "$env_file" ]; then
  # shellcheck source=/dev/null
  source "$env_file"
fi
for v in "${!given[@]}"; do printf -v "$v" '%s' "${given[$v]}"; done
round="" chain=""
while [ $# -gt 0 ]; do
  case "$1" in
    --memory-budget) MEMORY_BUDGET=$2; shift 2 ;;
    --parallel) ARRAY_CAP="%$2"; shift 2 ;;
    --ahead) AHEAD=$2; shift 2 ;;
    --bluff) BLUFF=$2; shift 2 ;;
    --max-resubmit) MAX_RESUBMIT=$2; shift 2 ;;
    --round) round=$2; shift 2 ;;   # from the combine step
    --chain) chain=$2; shift 2 ;;   # from the combine step
    --) shift; SBATCH_EXTRA=("$@"); break ;;
    *) echo "submit.sh: unknown option $1 ($usage)" >&2; exit 2 ;;
  esac
done
NIMSCOPE=$(command -v "$NIMSCOPE") || { echo "submit.sh: no nimscope binary (set NIMSCOPE)" >&2; exit 2; }
# Slurm's --mem in megabytes: the budget plus 256 MB for the process beside its table.
mb=$(numfmt --from=iec "${MEMORY_BUDGET%B}" | awk '{ printf "%d", $1 / 1048576 + 256 }')
mkdir -p "$plan/logs" "$plan/rounds" "$plan/checkpoints"
log() { echo "[$(date -u '+%F %T')] $*" >> "$plan/logs/hunt.log"; }
fail() { # reason lines...; stops the hunt with DIR/failed
  { printf '%s\n' "$@"; echo "resume: NIMSCOPE=$NIMSCOPE $here/submit.sh $plan"; } > "$plan/failed.tmp.$$"
  mv "$plan/failed.tmp.$$" "$plan/failed"
  rm -f "$plan/hunt.lock"
  log "failed: $1"
  echo "submit.sh: $1" >&2
  exit 1
}

# Job ids of the hunt that are still queued or running, from DIR/hunt.lock.
live_jobs() {
  [ -f "$plan/hunt.lock" ] || return 0
  local ids
  ids=$(sed -n 's/^jobs=//p' "$plan/hunt.lock" | tr ' ' ',')
  [ -n "$ids" ] || return 0
  squeue -h -j "$ids" -o %i 2>/dev/null | head -5 | tr '\n' ' '
}

if [ -z "$chain" ]; then
  # Submitted by hand: a new hunt, or one resumed.
  if [ -f "$plan/result.json" ]; then
    echo "submit.sh: the hunt of $plan is settled: $(cat "$plan/result.json")"; exit 0
  fi
  mkdir "$plan/.submitting" 2>/dev/null \
    || { echo "submit.sh: another submission of $plan is under way (or was killed: remove $plan/.submitting)" >&2; exit 3; }
  trap 'rmdir "$plan/.submitting" 2>/dev/null || true' EXIT
  running=$(live_jobs)
  if [ -n "$running" ]; then
    echo "submit.sh: a hunt of $plan is already in the queue (jobs $running; $(grep '^round=' "$plan/hunt.lock")): not submitted twice; cancel it first (scancel $(sed -n 's/^jobs=//p' "$plan/hunt.lock")) or wait (nimscope cram --status $plan)" >&2
    exit 3
  fi
  if [ -f "$plan/failed" ]; then
    n=$(ls "$plan" | grep -c '^failed\.[0-9]*$' || true)
    mv "$plan/failed" "$plan/failed.$n"
    log "resumed by hand after: $(head -1 "$plan/failed.$n")"
  fi
  chain="$(date +%s)-$$"
  round=$(ls "$plan/rounds" | sed -n 's/^round-\([0-9]*\)\.json$/\1/p' | sort -n | tail -1)
  round=$(( ${round:--1} + 1 ))
  { printf 'NIMSCOPE=%q\nMEMORY_BUDGET=%q\nARRAY_CAP=%q\nAHEAD=%q\nBLUFF=%q\nMAX_RESUBMIT=%q\nMAX_ROUNDS=%q\nCHECKPOINT_EVERY=%q\nMAX_REQUEUE=%q\n' \
      "$NIMSCOPE" "$MEMORY_BUDGET" "$ARRAY_CAP" "$AHEAD" "$BLUFF" "$MAX_RESUBMIT" "$MAX_ROUNDS" "$CHECKPOINT_EVERY" "$MAX_REQUEUE"
    printf 'SBATCH_EXTRA=('; [ ${#SBATCH_EXTRA[@]} = 0 ] || printf '%q ' "${SBATCH_EXTRA[@]}"; printf ')\n'; } > "$env_file.tmp.$$"
  mv "$env_file.tmp.$$" "$env_file"
elif [ "$(sed -n 's/^chain=//p' "$plan/hunt.lock" 2>/dev/null)" != "$chain" ]; then
  echo "submit.sh: $plan/hunt.lock names another submission than $chain: this chain stops" >&2
  exit 0
fi
[ "$round" -lt "$MAX_ROUNDS" ] || fail "round $round: the hunt did not settle in $MAX_ROUNDS rounds (raise MAX_ROUNDS in $env_file)"

# The round's units and questions (DIR/rounds/round-R.json), one unit a line.
units_file="$plan/rounds/round-$round.units"
"$NIMSCOPE" cram --needed "$plan" --round "$round" --ahead "$AHEAD" --bluff "$BLUFF" 2> "$plan/logs/submit-round-$round.err" \
  | tr ',' '\n' | sed '/^$/d' > "$units_file" \
  || fail "round $round: nimscope cram --needed failed: $(tail -1 "$plan/logs/submit-round-$round.err")"
n=$(wc -l < "$units_file")
if [ "$n" = 0 ]; then
  # Settled already: nothing to run, the combine step alone writes the result.
  "$NIMSCOPE" cram --combine "$plan" --json > "$plan/result.json.tmp.$$" && mv "$plan/result.json.tmp.$$" "$plan/result.json"
  rm -f "$plan/hunt.lock"
  log "round $round: nothing needed; settled"
  echo "round $round: the root is settled: $(cat "$plan/result.json")"
  exit 0
fi
# Arrays below the cluster's MaxArraySize (CHUNK overrides, for tests).
max=$(scontrol show config 2>/dev/null | awk -F= '/^MaxArraySize/ { gsub(/ /, "", $2); print $2 }')
chunk=${CHUNK:-$(( ${max:-1001} - 1 ))}
[ "$chunk" -ge 1 ] || chunk=1
mkdir -p "$plan/logs/round-$round"
split -d -a 4 -l "$chunk" "$units_file" "$plan/rounds/round-$round.chunk-"
jobs=()
for list in "$plan/rounds/round-$round.chunk-"*; do
  count=$(wc -l < "$list")
  if ! job=$(sbatch --parsable --job-name=nimscope-unit --array="0-$((count - 1))$ARRAY_CAP" --mem="${mb}M" \
      --output="$plan/logs/round-$round/slurm-%A_%a.out" --open-mode=append \
      --export="ALL,PLAN_DIR=$plan,NIMSCOPE=$NIMSCOPE,UNIT_LIST=$list,ROUND=$round,MEMORY_BUDGET=$MEMORY_BUDGET,CHECKPOINT_EVERY=$CHECKPOINT_EVERY,MAX_REQUEUE=$MAX_REQUEUE" \
      "${SBATCH_EXTRA[@]}" "$here/unit.sbatch" 2> "$plan/logs/submit-round-$round.err"); then
    [ ${#jobs[@]} = 0 ] || scancel "${jobs[@]}" 2>/dev/null || true
    fail "round $round: sbatch refused the units of $list: $(tail -1 "$plan/logs/submit-round-$round.err")"
  fi
  jobs+=("${job%%;*}")
done
deps=$(IFS=:; echo "${jobs[*]}")
if ! combine=$(sbatch --parsable --job-name=nimscope-combine --dependency="afterany:$deps" \
    --output="$plan/logs/combine-round-$round.job-%j.out" \
    --export="ALL,PLAN_DIR=$plan,ROUND=$round,CHAIN=$chain,SLURM_SCRIPTS=$here" \
    "${SBATCH_EXTRA[@]}" "$here/combine.sbatch" 2> "$plan/logs/submit-round-$round.err"); then
  scancel "${jobs[@]}" 2>/dev/null || true
  fail "round $round: sbatch refused the combine step: $(tail -1 "$plan/logs/submit-round-$round.err")"
fi
combine=${combine%%;*}
printf 'chain=%s\nround=%s\njobs=%s %s\nsubmitted=%s\n' "$chain" "$round" "${jobs[*]}" "$combine" "$(date -u '+%F %T')" \
  > "$plan/hunt.lock.tmp.$$"
mv "$plan/hunt.lock.tmp.$$" "$plan/hunt.lock"
echo "units ${jobs[*]}; combine $combine" > "$plan/rounds/round-$round.jobs"
log "round $round: $n units in ${#jobs[@]} arrays (jobs ${jobs[*]}, --mem=${mb}M each, --ahead $AHEAD --bluff $BLUFF); combine: job $combine"
echo "round $round: $n units: jobs ${jobs[*]} (arrays of at most $chunk, --mem=${mb}M each); combine: job $combine"
