#!/usr/bin/env bash
# Tests the desktop entry as a desktop uses it: installs nimscope (scripts/install-desktop.sh)
# into a temporary home with XDG_DATA_HOME set, validates the installed entry with no hint, then
# under Xvfb launches the installed entry as a menu does (`gio launch`, no file) and as a file
# manager does (`gio launch ENTRY FILE.ron`, and `gio open FILE.ron` through the session file
# type), and checks each time that the window opens: with a file, on that session (its title).
# Installs the Debian packages it needs (as root). Screenshots go to OUT_DIR.
# Usage: scripts/test-desktop.sh [OUT_DIR]   (default target/desktop-test; NIMSCOPE=path of the
# binary to install, default target/debug/nimscope, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/desktop-test}
pkgs="xvfb xauth mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri libegl1 libegl-mesa0 libgl1 libxkbcommon-x11-0 libxcursor1 libxi6 libxrandr2 libx11-xcb1 imagemagick x11-utils desktop-file-utils shared-mime-info libglib2.0-bin"
. scripts/need_packages.sh
# shellcheck disable=SC2086
need_packages test-desktop $pkgs
bin=${NIMSCOPE:-target/debug/nimscope}
if [ -z "${NIMSCOPE:-}" ]; then cargo build --quiet --bin nimscope; fi
mkdir -p "$out"
out=$(realpath "$out")
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# a desktop session's environment, every folder of it temporary: nothing of the user's is read
# or written, and the XDG_DATA_HOME install is what the launcher finds
export HOME="$home/home" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state"
export XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache"
export XDG_DATA_DIRS=/usr/local/share:/usr/share
export XDG_RUNTIME_DIR="$home/run"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset WAYLAND_DISPLAY
scripts/install-desktop.sh --bin "$bin" >/dev/null
entry="$XDG_DATA_HOME/applications/nimscope.desktop"
fail() { echo "test-desktop: FAIL: $*" >&2; exit 1; }
[ -f "$entry" ] || fail "install-desktop.sh wrote no entry under XDG_DATA_HOME ($entry)"
[ -x "$HOME/.local/bin/nimscope" ] || fail "install-desktop.sh installed no binary in ~/.local/bin"
hints=$(desktop-file-validate "$entry" 2>&1) || fail "desktop-file-validate: $hints"
[ -z "$hints" ] || fail "desktop-file-validate has something to say: $hints"
session="$home/a session.ron"
cp sessions/zeruclid-figure2.ron "$session"
type=$(gio info -a standard::content-type "$session" | sed -n 's/^ *standard::content-type: //p')
[ "$type" = application/x-nimscope-session ] || fail "a .ron file is '$type', not application/x-nimscope-session"
handler=$(gio mime application/x-nimscope-session 2>&1 || true)
case "$handler" in *nimscope.desktop*) ;; *) fail "no handler of sessions: $handler" ;; esac
export OUT=$out ENTRY=$entry SESSION=$session
xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" bash -c '
  set -euo pipefail
  # waits for a window of class nimscope titled $1; prints its id
  wait_window() {
    for i in $(seq 1 120); do
      id=$(xwininfo -root -tree 2>/dev/null | grep -F "\"$1\": (\"" | grep -F "\"nimscope\")" | awk "{print \$1}" | sed -n 1p)
      if [ -n "$id" ]; then echo "$id"; return 0; fi
      sleep 0.5
    done
    return 1
  }
  # ends the window the launcher started, by the process id it names
  close() {
    pid=$(xprop -id "$1" _NET_WM_PID | sed -n "s/.* = //p")
    [ -n "$pid" ] || { echo "no _NET_WM_PID on window $1" >&2; return 1; }
    kill "$pid"
    for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
    echo "nimscope ($pid) did not stop" >&2; return 1
  }
  check() { # name, expected title
    id=$(wait_window "$2") || { echo "FAIL: $1: no window titled \"$2\" within a minute" >&2; xwininfo -root -tree >&2; exit 1; }
    sleep 3
    import -window root "$OUT/$1.png"
    title=$(xwininfo -id "$id" | sed -n "s/^xwininfo: Window id: [^ ]* \"\(.*\)\"$/\1/p")
    echo "test-desktop: $1: window \"$title\", screenshot $OUT/$1.png"
    close "$id"
  }
  gio launch "$ENTRY"
  check menu "untitled - nimscope"
  gio launch "$ENTRY" "$SESSION"
  check file "a session - nimscope"
  gio open "$SESSION"
  check open "a session - nimscope"
'
echo "test-desktop: PASS (installed under XDG_DATA_HOME, validated, launched from the menu and with a session)"
