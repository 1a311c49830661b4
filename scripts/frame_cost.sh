#!/usr/bin/env bash
# The CPU a frame of the real window costs under Xvfb, the renderer's threads apart: opens the
# window, lets it settle, moves the pointer 20 times (each move draws frames), and divides the
# CPU the process and its `llvmpipe` threads (lavapipe, the software renderer) spent by the
# frames the trace counted.
#
# Usage: scripts/frame_cost.sh [WxH] -- NIMSCOPE_ARGS...
# Example: scripts/frame_cost.sh 1280x800 -- --ruleset wythoff --view 0..4096,0..4096
# Uses target/release/nimscope (NIMSCOPE=path to use another build); needs the packages of
# scripts/screenshot.sh and xdotool.
set -euo pipefail
cd "$(dirname "$0")/.."
size=1280x800
if [ $# -gt 0 ] && [ "$1" != -- ]; then size=$1; shift; fi
[ "${1:-}" = -- ] && shift
export NIMSCOPE_TRACE=$(mktemp) XDG_RUNTIME_DIR=$(mktemp -d) XDG_STATE_HOME=$(mktemp -d)
unset WAYLAND_DISPLAY
# not ARGS: xvfb-run uses that name itself
export FRAME_COST_ARGS=$(printf " %q" "$@") FRAME_COST_BIN=${NIMSCOPE:-target/release/nimscope} FRAME_COST_SIZE=$size
xvfb-run -a -s "-screen 0 ${size}x24 -nolisten tcp" bash -c '
  eval "exec $FRAME_COST_BIN --fresh --window-size $FRAME_COST_SIZE $FRAME_COST_ARGS" 2>/dev/null & app=$!
  sleep 4
  ticks() { cat /proc/$app/task/*/stat 2>/dev/null | awk "{s += \$14 + \$15} END {print s + 0}"; }
  render_ticks() {
    for t in /proc/$app/task/*; do
      if grep -q llvmpipe "$t/comm" 2>/dev/null; then cat "$t/stat"; fi
    done | awk "{s += \$14 + \$15} END {print s + 0}"
  }
  frames() { grep -c frame_ms "$NIMSCOPE_TRACE" || true; }
  a=$(ticks); r=$(render_ticks); f=$(frames)
  for i in $(seq 1 20); do xdotool mousemove $((300 + i * 13)) $((300 + i * 7)); sleep 0.4; done
  b=$(ticks); r2=$(render_ticks); f2=$(frames)
  hz=$(getconf CLK_TCK)
  n=$((f2 - f))
  if [ "$n" -gt 0 ]; then
    echo "$n frames: $(( (b - a) * 1000 / hz / n )) ms of CPU a frame, $(( (r2 - r) * 1000 / hz / n )) ms of it in the renderer'"'"'s threads"
  else
    echo "no frames drawn"
  fi
  kill $app
'
rm -f "$NIMSCOPE_TRACE"
