#!/usr/bin/env bash
# Runs a plan through a real one-node Slurm cluster on this machine, tries on it what clusters do
# to jobs, and checks that the hunt ends with the single search's answer or with DIR/failed
# naming what stopped it, never with an empty queue and neither. Not part of `cargo test`: it
# runs as root (it installs packages and starts daemons), from .ci/run (QUICK=1) or by hand:
#
#   scripts/slurm/test.sh [BOARD] [plan options...]      default: 5x9 (Cram, by value, depth 1)
#   QUICK=1 scripts/slurm/test.sh                         every disruption, fewer re-checks
#
# It installs slurm-wlm and munge (scripts/slurm/setup.sh), starts munged, slurmctld and slurmd
# on localhost with a key, a configuration and state of their own under $SLURM_TEST_DIR (nothing
# in /etc is changed), plans BOARD, submits the plan with submit.sh and, while round 0 runs
# (DISRUPT=1, the default):
# - submits it again, which must be refused (the hunt's jobs are in the queue);
# - freezes one running unit and sets its time limit to one minute (it must end TIMEOUT),
#   requeues another through the scheduler, kills a third's nimscope with SIGKILL (its task
#   requeues itself), cancels a fourth with scancel, and gives a unit not yet started a
#   checkpoint that is not one (nimscope refuses it: exit 2, not retried);
# - asks `nimscope cram --status` and checks that it shows units at work.
# Each of these must have happened (checked in the scheduler's state and the logs), and round 0
# must end with DIR/failed naming the cancelled unit and the refused checkpoint, each with its
# reason, and the command that resumes the hunt. The test then removes the bad checkpoint, runs
# that command, and waits for DIR/result.json: the timed-out, requeued and killed units resume
# from their checkpoints, the round count goes on from round 1, and the combined answer must be
# `nimscope cram BOARD --json`. The killed units are then asked again from scratch, alone, what
# the cluster answered (`--unit --ask`, in a copy of the plan); an answer is edited by hand
# (`--combine` and `--verify` must refuse it, naming the file) and put back, and `nimscope cram
# --verify` re-asks a sample of units. DISRUPT=0 runs the hunt undisturbed (to count its rounds).
# QUICK=1 (what CI runs) keeps every disruption, the hand-edited answer and the depth-2 plan,
# re-asks from scratch only the cancelled and the timed-out units and a sample of 2 (not 4),
# and gives up after SLURM_TEST_TIMEOUT (default 1200 s; 5400 without QUICK). A cluster that
# does not start (not root, no packages, daemons that do not come up) is a failure, not a skip.
# With DEPTH2=1 (default 1) it then plans Cram 3×23 at depth 2 (1,561 units, more than the
# default MaxArraySize of 1001), submits it (two arrays), checks the tasks are queued and
# running and --status, cancels the unit arrays and waits for the combine step's DIR/failed,
# which must name every unit cancelled (the first 20 and a count of the rest).
# The daemons it started are stopped at the end, also on failure.
# NIMSCOPE_BIN names the binary to run (for instance a release build, `cargo build --release
# --no-default-features --bin nimscope`); without it the dev build is built and used.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
quick=${QUICK:-0}
timeout=${SLURM_TEST_TIMEOUT:-$([ "$quick" = 1 ] && echo 1200 || echo 5400)}
board=${1:-5x9}
shift || true
plan_opts=("$@")
state=${SLURM_TEST_DIR:-/tmp/nimscope-slurm-test}
[ "$(id -u)" = 0 ] || { echo "test.sh: run as root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
"$root/scripts/slurm/setup.sh"
if [ -z "${NIMSCOPE_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet --bin nimscope)
fi
host=$(hostname -s)
say() { echo "[$(date -u +%H:%M:%S)] $*"; }
die() { say "FAIL: $*"; exit 1; }
# A command that fails unexpected (set -e) says where, rather than ending the test silently
# (the trap runs under set +e too, where a failure is expected: then it says nothing).
trap 'st=$?; [[ $- != *e* ]] || say "FAIL: line $LINENO: a command exited $st"' ERR

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

start_cluster() {
  rm -rf "$state"
  mkdir -p "$state/munge" "$state/ctld" "$state/d"
  # The tasks run a copy, so that a build during the test does not change the binary under them.
  cp "${NIMSCOPE_BIN:-$root/target/debug/nimscope}" "$state/nimscope"
  chmod 755 "$state"
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
KillWait=60
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
  say "slurmctld (pid $(cat "$state/slurmctld.pid")) and slurmd (pid $(cat "$state/slurmd.pid")) up: $(sinfo -h -o '%P %D node %T, %c CPUs, %m MB'), MaxArraySize $(scontrol show config | awk -F= '/^MaxArraySize/ { gsub(/ /, "", $2); print $2 }')"
}

start_cluster
export NIMSCOPE="$state/nimscope"
plan="$state/plan"
"$NIMSCOPE" cram "$board" "${plan_opts[@]}" --plan "$plan" | head -2
units=$(jq .units "$plan/plan.json")

# The unit a running task answers: from its marker (running/unit-K.json names its job).
# (Markers come and go while the test looks: a marker gone is no unit, not an error.)
unit_of_task() { { grep -l "\"job\":\"$1\"" "$plan"/running/unit-*.json 2>/dev/null || true; } | head -1 | sed 's/.*unit-\([0-9]*\)\.json/\1/'; }
# Running tasks (array job id and task) whose unit has a marker, one "task unit" a line.
tasks_at_work() {
  for t in $(squeue -h -n nimscope-unit -t R -o "%A %F_%K" 2>/dev/null | awk '{ print $2 }'); do
    k=$(unit_of_task "$t")
    [ -n "$k" ] && echo "$t $k"
  done
}
# The pid of the nimscope of a unit (from its marker).
pid_of_unit() { jq -r .pid "$plan/running/unit-$1.json" 2>/dev/null || true; }
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

disrupt=${DISRUPT:-1}
bad=""
if [ "$disrupt" = 1 ]; then
  # A checkpoint that is not one, for the last unit (not started before the others).
  bad=$((units - 1))
  mkdir -p "$plan/checkpoints"
  echo "not a checkpoint" > "$plan/checkpoints/unit-$bad.ckpt"
  say "unit $bad gets a checkpoint that is not one"
fi
# Checkpoints every 10 s, so that the units killed below resume from one.
submitted=$(CHECKPOINT_EVERY=10 "$root/scripts/slurm/submit.sh" "$plan" --memory-budget 1G)
say "$submitted"
started=$(date +%s)

frozen="" requeued="" crashed="" cancelled="" double="" status_seen=""
targeted() { for x in $frozen $requeued $crashed $cancelled $bad; do [ "$x" = "$1" ] && return 0; done; return 1; }
while [ ! -f "$plan/result.json" ] && [ ! -f "$plan/failed" ]; do
  now=$(( $(date +%s) - started ))
  [ "$now" -lt "$timeout" ] || die "timed out after $timeout s"
  if [ "$disrupt" = 1 ] && [ -f "$plan/hunt.lock" ] && grep -q '^round=0$' "$plan/hunt.lock"; then
    if [ -z "$double" ]; then
      set +e
      again=$(NIMSCOPE="$NIMSCOPE" "$root/scripts/slurm/submit.sh" "$plan" 2>&1); code=$?
      set -e
      [ "$code" = 3 ] && grep -q "already in the queue" <<< "$again" || die "a second submission was not refused (exit $code): $again"
      double=1
      say "a second submission is refused: $again"
    fi
    while read -r task k; do
      [ -n "${k:-}" ] || continue
      targeted "$k" && continue
      pid=$(pid_of_unit "$k")
      [ -n "$pid" ] && [ "$pid" != null ] || continue
      if [ -z "$frozen" ]; then
        # Frozen, it cannot finish before its time limit; Slurm wakes it to end it.
        kill -STOP "$pid" && scontrol update JobId="$task" TimeLimit=1 \
          && frozen=$k frozen_task=$task && say "froze unit $k ($task) and set its time limit to 1 minute"
      elif [ -z "$requeued" ] && [ "$now" -ge 8 ]; then
        scontrol requeue "$task" && requeued=$k requeued_task=$task \
          && say "requeued running unit $k ($task): the scheduler stops it, it runs again from its checkpoint"
      elif [ -z "$crashed" ] && [ "$now" -ge 16 ]; then
        kill -KILL "$pid" && crashed=$k crashed_task=$task && say "killed unit $k's nimscope (pid $pid) with SIGKILL"
      elif [ -z "$cancelled" ] && [ "$now" -ge 24 ]; then
        scancel "$task" && cancelled=$k cancelled_task=$task && say "cancelled unit $k ($task) with scancel"
      fi
      break
    done <<< "$(tasks_at_work)"
    if [ -z "$status_seen" ] && [ -n "$(tasks_at_work)" ]; then
      st=$("$NIMSCOPE" cram --status "$plan")
      grep -q ' running (' <<< "$st" || die "--status shows no unit at work: $st"
      status_seen=1
      say "nimscope cram --status during round 0:"; echo "$st"
    fi
  fi
  # Wake a frozen unit once the scheduler has ended its task (it saves and stops).
  if [ -n "$frozen" ] && [ "$(job_state "$frozen_task")" != RUNNING ]; then
    kill -CONT "$(pid_of_unit "$frozen")" 2>/dev/null || true
  fi
  if [ -z "$(squeue -h 2>/dev/null)" ]; then
    sleep 3
    [ -f "$plan/result.json" ] || [ -f "$plan/failed" ] || die "the queue is empty and there is neither result.json nor failed"
  fi
  sleep 2
done
wall=$(( $(date +%s) - started ))

if [ "$disrupt" = 1 ]; then
  [ -f "$plan/failed" ] || die "round 0 ended without the failed note it must leave (result: $(cat "$plan/result.json" 2>/dev/null))"
  say "round 0 stopped after ${wall} s with $plan/failed:"; cat "$plan/failed"
  for k in "$frozen" "$requeued" "$crashed" "$cancelled"; do [ -n "$k" ] || die "not every disruption happened (frozen '$frozen', requeued '$requeued', crashed '$crashed', cancelled '$cancelled')"; done
  grep -q "unit $cancelled .*cancelled (scancel)" "$plan/failed" || die "failed does not name the cancelled unit $cancelled"
  grep -q "unit $bad .*refused.*checkpoint" "$plan/failed" || die "failed does not name unit $bad's refused checkpoint"
  grep -q "^resume: " "$plan/failed" || die "failed gives no command to resume"
  [ -z "$(squeue -h)" ] || die "jobs are left in the queue"
  # What the scheduler and the logs say happened.
  [ "$(job_state "$frozen_task")" = TIMEOUT ] || die "unit $frozen ended $(job_state "$frozen_task"), not TIMEOUT"
  [ "$(job_state "$cancelled_task")" = CANCELLED ] || die "unit $cancelled ended $(job_state "$cancelled_task"), not CANCELLED"
  grep -q "failed (exit 137); requeued" "$plan"/logs/round-0/unit-"$crashed".attempt-0.log || die "unit $crashed was not requeued after SIGKILL"
  ls "$plan"/logs/round-0/unit-"$requeued".attempt-1.log > /dev/null || die "unit $requeued has no second attempt after its requeue"
  grep -q "^2$" "$plan"/logs/round-0/unit-"$bad".attempt-0.exit || die "unit $bad did not exit 2"
  [ "$(ls "$plan"/logs/round-0/unit-"$bad".attempt-*.exit | wc -l)" = 1 ] || die "unit $bad's refusal was retried"
  grep -q "unit $frozen round 0: TIMEOUT" "$plan/logs/resubmitted" || die "unit $frozen's timeout is not resubmitted"
  say "each disruption happened: unit $frozen TIMEOUT (resubmitted), unit $requeued requeued (attempt 1), unit $crashed SIGKILL (requeued by its task), unit $cancelled CANCELLED (in failed), unit $bad refused its checkpoint once, exit 2 (in failed)"
  # As the note says: mend what it names, then resume.
  rm -f "$plan/checkpoints/unit-$bad.ckpt"
  resume=$(sed -n 's/^resume: //p' "$plan/failed")
  say "resuming: $resume"
  eval "$resume"
  while [ ! -f "$plan/result.json" ] && [ ! -f "$plan/failed" ]; do
    [ "$(( $(date +%s) - started ))" -lt "$timeout" ] || die "timed out after $timeout s"
    if [ -z "$(squeue -h 2>/dev/null)" ]; then
      sleep 3
      [ -f "$plan/result.json" ] || [ -f "$plan/failed" ] || die "the queue is empty and there is neither result.json nor failed"
    fi
    sleep 2
  done
  [ -f "$plan/result.json" ] || die "the resumed hunt failed: $(cat "$plan/failed")"
  [ -f "$plan/failed.0" ] || die "the first failed note was not kept"
  [ -f "$plan/rounds/round-1.json" ] || die "the resumed hunt did not go on from round 1"
fi
wall=$(( $(date +%s) - started ))
rounds=$(ls "$plan"/rounds/round-*.json | wc -l)
say "settled after ${wall} s in $rounds rounds"
cat "$plan/logs/hunt.log"
echo "nimscope cram --status at the end:"
"$NIMSCOPE" cram --status "$plan"
grep -h "^unit [0-9]*: exit\|requeued\|resuming\|interrupted\|CANCELLED\|TIME LIMIT" "$plan"/logs/round-*/unit-*.log "$plan"/logs/round-*/slurm-*.out 2>/dev/null | sort | uniq -c | sort -rn | head -20 || true
# Processor time of every attempt: the children's line of `times` in each attempt's log.
awk '/^[0-9]+m[0-9.]+s [0-9]+m[0-9.]+s$/ { n++; if (n % 2 == 0) { split($1, u, "m"); split($2, s, "m"); t += u[1] * 60 + u[2] + s[1] * 60 + s[2]; runs++ } } FNR == 1 { n = 0 }
  END { printf "units: %d attempts, %.1f s of processor time (user + system) in all\n", runs, t }' "$plan"/logs/round-*/unit-*.log
echo "combined: $(cat "$plan/result.json")"
cleanup
trap - EXIT

# The killed units again, from scratch and alone: each asked the question whose answer the
# cluster gave (its value, or whether it is one of the values it excluded), in a copy of the
# plan with no answers, checkpoints or proven values; the answers must agree.
fresh="$state/fresh"
again_units="$frozen $requeued $crashed $cancelled"
[ "$quick" = 1 ] && again_units="$frozen $cancelled"
for k in $again_units; do
  a="$plan/answers/unit-$k.json"
  [ -f "$a" ] || { say "unit $k was never needed after its disruption"; continue; }
  rm -rf "$fresh" && mkdir -p "$fresh" && cp "$plan/plan.json" "$plan/plan.key" "$fresh/"
  asked=$(jq -r 'if .value != null then (.value | tostring) else ((.excluded // []) | map(tostring) | join(",")) end' "$a")
  "$NIMSCOPE" --threads 1 cram --unit "$fresh" "$k" --no-proven ${asked:+--ask "$asked"} > /dev/null
  b="$fresh/answers/unit-$k.json"
  cluster=$(jq -c '{value, excluded, outcome}' "$a")
  again=$(jq -c '{value, excluded, outcome}' "$b")
  if jq -e --slurpfile c "$a" '($c[0].value != null and .value == $c[0].value) or ($c[0].value == null and ((.value == null) or (($c[0].excluded // []) | index(.value) == null)))' "$b" > /dev/null; then
    say "unit $k (disrupted on the cluster) answered again from scratch: $again; on the cluster: $cluster"
  else
    die "unit $k: the cluster answered $cluster, from scratch $again"
  fi
done
# An answer edited by hand (its value or its excluded values changed, kept consistent with its
# outcome): --combine and --verify (its tags; --sample 0 asks no unit again) refuse it, naming
# the file; put back, it is accepted again.
forged=$(ls "$plan"/answers/unit-*.json | head -1)
cp "$forged" "$state/answer.good"
jq -c 'if .value != null then .value += 1 | .outcome = "N" else .excluded = ((.excluded + [127]) | unique) end' \
  "$state/answer.good" > "$forged"
cmp -s "$forged" "$state/answer.good" && die "the answer was not edited"
set +e
err=$("$NIMSCOPE" cram --combine "$plan" 2>&1 >/dev/null); code=$?
out=$("$NIMSCOPE" cram --verify "$plan" --sample 0 2>/dev/null); vcode=$?
set -e
[ "$code" = 2 ] && grep -q "$(basename "$forged").*does not match its contents" <<< "$err" \
  || die "--combine took the hand-edited $forged (exit $code): $err"
[ "$vcode" = 2 ] && grep -q "^refused: .*$(basename "$forged")" <<< "$out" \
  || die "--verify took the hand-edited $forged (exit $vcode): $out"
say "a hand-edited answer is refused: --combine: $err; --verify (exit 2): $(grep '^refused: ' <<< "$out")"
cp "$state/answer.good" "$forged"
[ "$("$NIMSCOPE" cram --combine "$plan" --json)" = "$(cat "$plan/result.json")" ] || die "the answer put back is not accepted"
sample=$([ "$quick" = 1 ] && echo 2 || echo 4)
say "nimscope cram --verify --sample $sample:"
"$NIMSCOPE" --threads 2 cram --verify "$plan" --sample "$sample" --seed 1 || die "verify found a disagreement"
say "the single search (two threads):"
single=$(/usr/bin/env time -f "single search: %U s user, %e s wall, %M KB peak" "$NIMSCOPE" cram "$board" "${plan_opts[@]}" --json)
echo "single:   $single"
[ "$single" = "$(cat "$plan/result.json")" ] || die "the combined answer differs"
say "PASS: the combined answer is the single search's"

if [ "${DEPTH2:-1}" = 1 ]; then
  # A plan of more units than MaxArraySize allows in one array.
  start_cluster
  big="$state/plan-3x23"
  "$NIMSCOPE" cram 3x23 --depth 2 --plan "$big" | head -2
  out=$("$root/scripts/slurm/submit.sh" "$big" --memory-budget 256M) || die "3x23 at depth 2 was not submitted"
  say "$out"
  arrays=$(sed -n 's/^units //; s/; combine.*//p' "$big/rounds/round-0.jobs" | wc -w)
  [ "$arrays" -ge 2 ] || die "1,561 units went into $arrays array"
  sleep 20
  queued=$(squeue -h -r -n nimscope-unit | wc -l)
  at_work=$(squeue -h -r -n nimscope-unit -t R | wc -l)
  say "3x23 depth 2: $(jq .units "$big/plan.json") units in $arrays arrays; $queued tasks in the queue, $at_work running"
  [ "$queued" -ge 1500 ] && [ "$at_work" -ge 1 ] || die "the tasks are not queued and running"
  "$NIMSCOPE" cram --status "$big" | head -6
  # Cancel the units (not the combine step): it must say so in DIR/failed.
  scancel $(sed -n 's/^units //; s/; combine.*//p' "$big/rounds/round-0.jobs")
  for _ in $(seq 300); do [ -f "$big/failed" ] && break; sleep 2; done
  [ -f "$big/failed" ] || die "the cancelled 3x23 hunt left no failed note"
  # Every unit is named cancelled, the tasks that never started too (Slurm keeps them as one
  # record, "ArrayTaskId=2-999"): the first 20 and a count of the rest; none is resubmitted.
  n=$(jq .units "$big/plan.json")
  [ "$(grep -c ' was cancelled (scancel)' "$big/failed")" = 20 ] && grep -q "… and $((n - 20)) more units" "$big/failed" \
    || die "the failed note of the cancelled 3x23 round does not name all $n units cancelled: $(cat "$big/failed")"
  [ ! -s "$big/logs/resubmitted" ] || die "cancelled 3x23 units were resubmitted: $(head -3 "$big/logs/resubmitted")"
  say "3x23: the cancelled round left $big/failed: $(head -2 "$big/failed" | cut -c1-200) ... ($(wc -l < "$big/failed") lines)"
  say "PASS: a depth-2 plan of 3x23 submits, runs and stops with a note when cancelled"
  cleanup
fi
