#!/usr/bin/env bash
# Measures the real window's map under Xvfb through its trace (NIMSCOPE_TRACE): how long a view
# takes to fill (the trace's map-complete) and the app's own work per frame while it fills and
# while the map is dragged and zoomed with xdotool. Takes screenshots along the way.
#
# Usage: scripts/map_trace.sh OUT_DIR [--busy] [--drive] [--size WxH] -- NIMSCOPE_ARGS...
#   --busy   keep one core busy meanwhile (`nice yes`), as a user's other work would
#   --drive  after the fill, drag the map about and zoom with the wheel (then screenshot)
# Example:
#   scripts/map_trace.sh target/trace-wythoff --busy --drive -- --ruleset wythoff --view 0..4096,0..4096
# Needs the packages of scripts/screenshot.sh and xdotool; uses target/release/nimscope
# (NIMSCOPE=path to use another build).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
shift
busy=0 drive=0 size=1280x800
while [ $# -gt 0 ]; do
  case $1 in
    --busy) busy=1 ;;
    --drive) drive=1 ;;
    --size) size=$2; shift ;;
    --) shift; break ;;
    *) echo "map_trace: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
bin=${NIMSCOPE:-target/release/nimscope}
mkdir -p "$out"
rm -f "$out/trace.jsonl"
args=$(printf " %q" "$@")
export XDG_RUNTIME_DIR=$(mktemp -d); unset WAYLAND_DISPLAY
export XDG_STATE_HOME=$(mktemp -d)
export NIMSCOPE_TRACE=$(realpath "$out")/trace.jsonl
export BUSY=$busy DRIVE=$drive OUT=$out BIN=$bin SIZE=$size
xvfb-run -a -s "-screen 0 ${size}x24 -nolisten tcp" bash -c '
  if [ "$BUSY" = 1 ]; then nice -n 0 yes >/dev/null & hog=$!; fi
  '"$bin"' --fresh --window-size $SIZE '"$args"' & app=$!
  # wait for the first map-complete (at most two minutes)
  for i in $(seq 1 1200); do
    sleep 0.1
    if grep -q map-complete "$NIMSCOPE_TRACE" 2>/dev/null; then break; fi
  done
  # the CPU each thread of the window had spent when the view was complete (by name:
  # the ui thread, the solver lanes and rayon workers, the llvmpipe threads of the renderer)
  for t in /proc/$app/task/*; do
    echo "$(cat "$t/comm" 2>/dev/null) $(awk "{print \$14 + \$15}" "$t/stat" 2>/dev/null)"
  done > "$OUT/threads.txt"
  sleep 0.5
  import -window root "$OUT/filled.png"
  if [ "$DRIVE" = 1 ]; then
    echo "{\"event\":\"drive-start\"}" >> "$NIMSCOPE_TRACE"
    xdotool mousemove 640 420
    for round in 1 2 3; do
      xdotool mousedown 1
      for s in $(seq 1 25); do xdotool mousemove_relative -- 6 4; sleep 0.02; done
      for s in $(seq 1 25); do xdotool mousemove_relative -- -8 -3; sleep 0.02; done
      xdotool mouseup 1
      for s in $(seq 1 6); do xdotool click 5; sleep 0.05; done
      for s in $(seq 1 6); do xdotool click 4; sleep 0.05; done
    done
    echo "{\"event\":\"drive-end\"}" >> "$NIMSCOPE_TRACE"
    sleep 1
    import -window root "$OUT/driven.png"
  fi
  kill $app 2>/dev/null || true
  wait $app 2>/dev/null || true
  if [ -n "${hog:-}" ]; then kill $hog; fi
'
python3 - "$out/trace.jsonl" "$out/threads.txt" <<'EOF'
import json, os, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
frames = [r for r in rows if "frame_ms" in r]
complete = next((r["t"] for r in rows if r.get("event") == "map-complete"), None)
first = frames[0]["t"] if frames else None
def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else float("nan")
def stats(name, fs):
    wall = [f["frame_ms"] for f in fs]
    cpu = [f["frame_cpu_ms"] for f in fs if "frame_cpu_ms" in f]
    # the renderer's CPU of a frame is in the next frame's record (it draws after the frame)
    after = {id(a): b for a, b in zip(frames, frames[1:])}
    drawn = [after[id(f)]["renderer_cpu_ms"] for f in fs if "renderer_cpu_ms" in after.get(id(f), {})]
    renderer = f", renderer {sum(drawn):.0f} ms of CPU ({p95(drawn):.1f} ms p95 a frame)" if drawn else ""
    print(f"{name}: {len(fs)} frames, frame_ms p95 {p95(wall):.2f} (max {max(wall, default=0):.2f}), "
          f"frame_cpu_ms p95 {p95(cpu):.2f} (max {max(cpu, default=0):.2f}){renderer}")
print(f"frames: {len(frames)}; first frame at {first:.2f} s" if first is not None else "no frame")
if complete is not None:
    print(f"map-complete at {complete:.2f} s ({complete - first:.2f} s after the first frame); "
          f"cells in view {next(f['cells_in_view'] for f in frames if f['t'] >= complete)}")
else:
    print("no map-complete")
# the first frame sets the window up (fonts, the session): counted apart
if frames:
    print(f"first frame: frame_ms {frames[0]['frame_ms']:.2f}")
stats("the first frame", frames[:1])
stats("while filling (after the first frame)", [f for f in frames[1:] if complete is None or f["t"] <= complete])
for f in frames:
    if complete is None or f["t"] <= complete:
        print(f'  frame at {f["t"]:.3f} s: renderer {f.get("renderer_cpu_ms", float("nan")):.1f} ms before it; '
              f'causes {[c.rsplit("/", 1)[-1] for c in f.get("causes", [])][:4]}, events {f.get("events", [])[:6]}')
drive, on = [], False
for r in rows:
    if r.get("event") == "drive-start": on = True
    elif r.get("event") == "drive-end": on = False
    elif on and "frame_ms" in r: drive.append(r)
if drive:
    stats("while dragging and zooming", drive)
# the processor time of the window's threads until the view was complete, grouped by name
if os.path.exists(sys.argv[2]):
    hz = os.sysconf("SC_CLK_TCK")
    groups = {}
    for line in open(sys.argv[2]):
        name, _, ticks = line.rstrip("\n").rpartition(" ")
        if ticks.isdigit():
            key = re.sub(r"[-:]?\d+$", "-N", name) if name != "nimscope" else name
            groups[key] = groups.get(key, 0) + int(ticks)
    total = sum(groups.values())
    parts = ", ".join(f"{k} {v / hz:.2f}" for k, v in sorted(groups.items(), key=lambda kv: -kv[1]) if v)
    print(f"processor time until complete: {total / hz:.2f} s ({parts})")
EOF
