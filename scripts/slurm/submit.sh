#!/usr/bin/env bash
# Submits a round of a nimscope plan to Slurm: one array task per unit, then the combine step
# after them (--dependency=afterok), which settles the root or submits the next round of the
# units it still needs (a value plan asks its units in rounds; docs/cluster.md). Prints the
# two job ids.
#
#   scripts/slurm/submit.sh PLAN_DIR [--memory-budget 4G] [--parallel N] [-- more sbatch options]
#
# --memory-budget is each unit's nimscope --memory-budget (its table takes half); the task
# asks Slurm for that much and 256 MB more. --parallel caps the tasks running at once (%N).
# NIMSCOPE names the binary (default: nimscope on the PATH). The combine step calls this
# script again with --round R --units LIST; the settings of the first round travel in the
# jobs' environment (MEMORY_BUDGET, ARRAY_CAP, SBATCH_EXTRA). MAX_ROUNDS (default 100) stops
# a plan that would not settle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plan=${1:?usage: submit.sh PLAN_DIR [--memory-budget 4G] [--parallel N] [-- sbatch options]}
shift
budget=${MEMORY_BUDGET:-2G}
cap=${ARRAY_CAP:-}
round=0
list=""
extra=()
if [ -n "${SBATCH_EXTRA:-}" ]; then mapfile -t extra <<< "$SBATCH_EXTRA"; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --memory-budget) budget=$2; shift 2 ;;
    --parallel) cap="%$2"; shift 2 ;;
    --round) round=$2; shift 2 ;;
    --units) list=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "submit.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
plan=$(cd "$plan" && pwd)
nimscope=$(command -v "${NIMSCOPE:-nimscope}")
if [ -z "$list" ]; then
  list=$("$nimscope" cram --needed "$plan")
fi
[ -n "$list" ] || { echo "submit.sh: the plan in $plan needs no unit (run: nimscope cram --combine $plan)" >&2; exit 2; }
# Slurm's --mem in megabytes: the budget plus 256 MB for the process beside its table.
mb=$(numfmt --from=iec "${budget%B}" | awk '{ printf "%d", $1 / 1048576 + 256 }')
mkdir -p "$plan/logs"
SBATCH_EXTRA=$(printf '%s\n' "${extra[@]}")
export PLAN_DIR="$plan" NIMSCOPE="$nimscope" MEMORY_BUDGET="$budget" ARRAY_CAP="$cap" \
  SBATCH_EXTRA ROUND="$round" SLURM_SCRIPTS="$here"
array=$(sbatch --parsable --export=ALL --array="$list$cap" --mem="${mb}M" \
  --output="$plan/logs/unit-%a.out" "${extra[@]}" "$here/unit.sbatch")
array=${array%%;*}
combine=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$plan/logs/combine-round-$round.out" "${extra[@]}" "$here/combine.sbatch")
combine=${combine%%;*}
echo "round $round: units: job $array (array $list$cap, --mem=${mb}M each); combine: job $combine"
