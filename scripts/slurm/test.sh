#!/usr/bin/env bash
# Runs a plan through a real one-node Slurm cluster on this machine and checks the combined
# answer against the single search. Not part of `cargo test` (CI has no Slurm): run it by hand,
# as root (it installs packages and starts daemons):
#
#   scripts/slurm/test.sh [BOARD] [plan options...]      default: 5x9 (Cram, by value, depth 1)
#
# It installs slurm-wlm and munge (scripts/slurm/setup.sh), starts munged, slurmctld and slurmd
# on localhost with a key, a configuration and state of their own under $SLURM_TEST_DIR (nothing
# in /etc is changed), plans BOARD, submits the plan with submit.sh, kills two running units on
# the way (one requeued by the scheduler, one killed with SIGKILL, which the task script
# requeues itself), waits for the plan's rounds to settle the root (each round's combine step
# submits the next), compares the result with `nimscope cram BOARD --json`, and stops the
# daemons it started (also on failure).
# REQUEUE_AFTER and KILL_AFTER (seconds; by default drawn at random, 10 to 69 and 30 to 149)
# set when the two kills happen; Slurm holds a requeued task for about two minutes (BeginTime)
# before it runs again. Afterwards the two killed units are asked again, from scratch and
# alone, what the cluster answered about them, and must answer the same.
# NIMSCOPE_BIN names the binary to run (for instance a release build, `cargo build --release --no-default-features --bin nimscope`);
# without it the dev build is built and used.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
board=${1:-5x9}
shift || true
plan_opts=("$@")
state=${SLURM_TEST_DIR:-/tmp/nimscope-slurm-test}
[ "$(id -u)" = 0 ] || { echo "test.sh: run as root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
"$root/scripts/slurm/setup.sh"
if [ -z "${NIMSCOPE_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet --bin nimscope)
fi
requeue_after=${REQUEUE_AFTER:-$((10 + RANDOM % 60))}
kill_after=${KILL_AFTER:-$((30 + RANDOM % 120))}
host=$(hostname -s)
say() { echo "[$(date -u +%H:%M:%S)] $*"; }

cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$state/slurmctld.pid" ]; then
    scancel --quiet --user=root 2>/dev/null
  fi
  for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
    if [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null && say "stopped $(basename "$pidfile" .pid) (pid $pid)"
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$pidfile"
    fi
  done
}
trap cleanup EXIT

rm -rf "$state"
mkdir -p "$state/munge" "$state/ctld" "$state/d"
# The tasks run a copy, so that a build during the test does not change the binary under them.
cp "${NIMSCOPE_BIN:-$root/target/debug/nimscope}" "$state/nimscope"
export NIMSCOPE="$state/nimscope"
chmod 755 "$state"
# munge: a key of its own, a socket of its own, run as the munge user.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$state/munge"
chmod 755 "$state/munge"
chmod 400 "$state/munge/munge.key"
runuser -u munge -- /usr/sbin/munged --key-file="$state/munge/munge.key" \
  --socket="$state/munge/munge.socket" --pid-file="$state/munge/munged.pid" \
  --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed"
say "munged started (pid $(cat "$state/munge/munged.pid"))"

export SLURM_CONF="$state/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=nimscopetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
SlurmUser=root
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=8000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o "%P %D %T %c %m" | grep -q idle || { echo "test.sh: the node did not come up:" >&2; tail -5 "$state/slurmctld.log" "$state/slurmd.log" >&2; exit 1; }
say "slurmctld (pid $(cat "$state/slurmctld.pid")) and slurmd (pid $(cat "$state/slurmd.pid")) up: $(sinfo -h -o '%P %D node %T, %c CPUs, %m MB')"

plan="$state/plan"
"$NIMSCOPE" cram "$board" "${plan_opts[@]}" --plan "$plan"
units=$(grep -o '"units":[0-9]*' "$plan/plan.json" | head -1 | cut -d: -f2)
# Checkpoints every 10 s, so that the units killed below resume from one.
submitted=$(CHECKPOINT_EVERY=10 "$root/scripts/slurm/submit.sh" "$plan" --memory-budget 1G)
say "$submitted"
started=$(date +%s)

# Running unit tasks of any round: "array-job task job" lines (other than task $1).
running_tasks() { squeue -h -n nimscope-unit -t R -o "%F %K %A" 2>/dev/null | awk -v not="${1:-none}" '$2 != not' || true; }
# Kill one running unit after $requeue_after s through the scheduler (requeue: it resumes from its
# checkpoint), and another after $kill_after s with SIGKILL (a crash: the task fails and requeues itself).
say "kills planned at ${requeue_after} s (requeue) and ${kill_after} s (SIGKILL)"
requeued=""; crashed=""
while [ ! -f "$plan/result.json" ] && [ ! -f "$plan/failed" ]; do
  now=$(( $(date +%s) - started ))
  if [ -z "$requeued" ] && [ "$now" -ge "$requeue_after" ]; then
    read -r job k _ <<< "$(running_tasks | head -1)" || true
    if [ -n "${k:-}" ]; then
      scontrol requeue "${job}_$k" && requeued=$k && say "requeued running unit $k (the scheduler kills it; it runs again from its checkpoint)"
    fi
  fi
  if [ -z "$crashed" ] && [ "$now" -ge "$kill_after" ]; then
    read -r _ k id <<< "$(running_tasks "$requeued" | head -1)" || true
    if [ -n "${id:-}" ]; then
      # listpids takes the task's own job id, not ARRAY_TASK.
      pids=$(scontrol listpids "$id" 2>/dev/null | awk 'NR > 1 { print $1 }' || true)
      for p in $pids; do
        if [ "$(cat /proc/"$p"/comm 2>/dev/null)" = nimscope ]; then
          kill -KILL "$p" && crashed=$k && say "killed unit $k's nimscope (pid $p) with SIGKILL"
        fi
      done
    fi
  fi
  if [ "$now" -ge "${SLURM_TEST_TIMEOUT:-5400}" ]; then echo "test.sh: timed out" >&2; exit 1; fi
  if [ -z "$(squeue -h 2>/dev/null)" ] && [ ! -f "$plan/result.json" ]; then
    sleep 2
    [ -f "$plan/result.json" ] || [ -f "$plan/failed" ] || { echo "test.sh: no job left and no result" >&2; tail -n 5 "$plan"/logs/*.out >&2; exit 1; }
  fi
  sleep 5
done
wall=$(( $(date +%s) - started ))
[ -f "$plan/result.json" ] || { say "FAIL: $(cat "$plan/failed")"; tail -n 3 "$plan"/logs/*.out >&2; exit 1; }
rounds=$(ls "$plan"/logs/combine-round-*.out | wc -l)
say "settled after ${wall} s in $rounds rounds"
grep -h "^round" "$plan"/logs/combine-round-*.out || true
answered=$(ls "$plan/answers" | wc -l)
exact=$(grep -L '"excluded"' "$plan"/answers/*.json | wc -l)
say "units: $units planned, $answered answered ($exact by their value, $(( answered - exact )) by values they are not), $(( units - answered )) never needed"
grep -h "^unit [0-9]*: .* s user" "$plan"/logs/unit-*.out | awk '{ u += $3 + $6; w += $9; n++ } END { printf "units: %d runs, %.1f s of processor time (user + system) in all, %.1f s of task wall clock in all\n", n, u, w }'
grep -h "requeued\|resuming\|interrupted\|CANCELLED" "$plan"/logs/unit-*.out || true
echo "combined: $(cat "$plan/result.json")"
cleanup
trap - EXIT
# The killed units again, from scratch and alone: each asked the question whose answer the
# cluster gave (its value, or whether it is one of the values it excluded), in a copy of the
# plan with no answers, checkpoints or proven values; the answers must agree.
fresh="$state/fresh"
for k in $requeued $crashed; do
  a="$plan/answers/unit-$k.json"
  [ -f "$a" ] || { say "unit $k was never needed after its kill"; continue; }
  rm -rf "$fresh" && mkdir -p "$fresh" && cp "$plan/plan.json" "$fresh/"
  asked=$(jq -r 'if .value != null then (.value | tostring) else ((.excluded // []) | map(tostring) | join(",")) end' "$a")
  "$NIMSCOPE" --threads 1 cram --unit "$fresh" "$k" --no-proven ${asked:+--ask "$asked"} > /dev/null
  b="$fresh/answers/unit-$k.json"
  cluster=$(jq -c '{value, excluded, outcome}' "$a")
  again=$(jq -c '{value, excluded, outcome}' "$b")
  # Asked about the values it excluded, a unit may find its value instead: one not among them.
  if [ "$cluster" = "$again" ] || jq -e --slurpfile c "$a" '.value as $v | $v != null and $c[0].value == null and (($c[0].excluded // []) | index($v) == null)' "$b" > /dev/null; then
    say "unit $k (killed on the cluster) answered again from scratch: $again; on the cluster: $cluster"
  else
    say "FAIL: unit $k: the cluster answered $cluster, from scratch $again"
    exit 1
  fi
done
say "the single search (two threads):"
single=$(/usr/bin/env time -f "single search: %U s user, %e s wall, %M KB peak" "$NIMSCOPE" cram "$board" "${plan_opts[@]}" --json)
echo "single:   $single"
if [ "$single" = "$(cat "$plan/result.json")" ]; then
  say "PASS: the combined answer is the single search's"
else
  say "FAIL: they differ"
  exit 1
fi
