#!/usr/bin/env bash
# Submits a nimscope plan to Slurm: one array task per unit, then the combine step after them
# (--dependency=afterok). Prints the two job ids.
#
#   scripts/slurm/submit.sh PLAN_DIR [--memory-budget 4G] [--parallel N] [-- more sbatch options]
#
# --memory-budget is each unit's nimscope --memory-budget (its table takes half); the task
# asks Slurm for that much and 256 MB more. --parallel caps the tasks running at once (%N).
# NIMSCOPE names the binary (default: nimscope on the PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plan=${1:?usage: submit.sh PLAN_DIR [--memory-budget 4G] [--parallel N] [-- sbatch options]}
shift
budget=2G
cap=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --memory-budget) budget=$2; shift 2 ;;
    --parallel) cap="%$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "submit.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
plan=$(cd "$plan" && pwd)
units=$(grep -o '"units":[0-9]*' "$plan/plan.json" | head -1 | cut -d: -f2)
[ -n "$units" ] && [ "$units" -gt 0 ] || { echo "submit.sh: $plan/plan.json has no units" >&2; exit 2; }
nimscope=$(command -v "${NIMSCOPE:-nimscope}")
# Slurm's --mem in megabytes: the budget plus 256 MB for the process beside its table.
mb=$(numfmt --from=iec "${budget%B}" | awk '{ printf "%d", $1 / 1048576 + 256 }')
mkdir -p "$plan/logs"
export PLAN_DIR="$plan" NIMSCOPE="$nimscope" MEMORY_BUDGET="$budget"
array=$(sbatch --parsable --export=ALL --array="0-$((units - 1))$cap" --mem="${mb}M" \
  --output="$plan/logs/unit-%a.out" "${extra[@]}" "$here/unit.sbatch")
array=${array%%;*}
combine=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$plan/logs/combine.out" "${extra[@]}" "$here/combine.sbatch")
combine=${combine%%;*}
echo "units: job $array (array 0-$((units - 1))$cap, --mem=${mb}M each); combine: job $combine"
