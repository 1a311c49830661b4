#!/usr/bin/env bash
# Starts the real nimscope window under Xvfb, takes a screenshot once it has drawn the map,
# and checks the picture is not blank. Installs the Debian packages it needs (as root), and
# rsvg-convert (librsvg2-bin) to look at exported SVG figures.
# Usage: scripts/screenshot.sh [OUT.png [nimscope options, e.g. --ruleset 'octal(0.07)']]
# SCREEN=1920x1080 sets the Xvfb screen (default 1280x800); WINIT_X11_SCALE_FACTOR=2 passes
# through to the window (a HiDPI screen).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/screenshot.png}
shift || true
args=""
if [ $# -gt 0 ]; then args=$(printf " %q" "$@"); fi
pkgs="xvfb xauth mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri libegl1 libegl-mesa0 libgl1 libxkbcommon-x11-0 libxcursor1 libxi6 libxrandr2 libx11-xcb1 imagemagick x11-utils xdotool librsvg2-bin"
. scripts/need_packages.sh
# shellcheck disable=SC2086
need_packages screenshot $pkgs
cargo build --quiet
export XDG_RUNTIME_DIR=$(mktemp -d); unset WAYLAND_DISPLAY
# a state folder of its own: the screenshot neither restores nor overwrites the user's last session
export XDG_STATE_HOME=$(mktemp -d)
mkdir -p "$(dirname "$out")"
xvfb-run -a -s "-screen 0 ${SCREEN:-1280x800}x24 -nolisten tcp" bash -c '
  ./target/debug/nimscope '"$args"' & app=$!
  for i in $(seq 1 60); do
    sleep 1
    if xwininfo -root -tree 2>/dev/null | grep -q "\"nimscope\""; then break; fi
  done
  sleep 4
  import -window root "'"$out"'"
  kill $app 2>/dev/null || true
  wait $app 2>/dev/null || true
'
# A blank or single-colour screen has (almost) no spread of grey levels.
spread=$(convert "$out" -colorspace Gray -format "%[fx:standard_deviation]" info:)
colors=$(convert "$out" -format "%k" info:)
echo "screenshot: $out, $colors colours, grey spread $spread"
awk -v s="$spread" -v c="$colors" 'BEGIN { exit !(s > 0.05 && c > 16) }' || { echo "screenshot: the window looks blank" >&2; exit 1; }
