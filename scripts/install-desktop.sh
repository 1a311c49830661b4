#!/usr/bin/env bash
# Installs nimscope for the desktop of the current user: the binary (if built), the icon, the
# menu entry and the file type of sessions. The entry starts the window from a menu with no file,
# and a file manager's `.ron` session opens with `nimscope FILE.ron` (`Exec=… %f`).
# Usage: scripts/install-desktop.sh [--prefix DIR] [--bin PATH]
#        scripts/install-desktop.sh --uninstall [--prefix DIR]
# Where: the binary in ~/.local/bin, the rest under $XDG_DATA_HOME (else ~/.local/share), as the
# XDG base directories say; with --prefix DIR, DIR/bin and DIR/share. --bin names the binary to
# install (default: target/release/nimscope, else the nimscope on PATH; build first with
# cargo build --release). Nothing here needs root; see docs/window.md.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=""
source_bin=""
uninstall=false
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --bin) source_bin="$2"; shift 2 ;;
    --uninstall) uninstall=true; shift ;;
    *) echo "install-desktop: unknown argument '$1' (--prefix DIR, --bin PATH, --uninstall)" >&2; exit 2 ;;
  esac
done
if [ -n "$prefix" ]; then
  bindir="$prefix/bin"
  data="$prefix/share"
else
  bindir="$HOME/.local/bin"
  data="${XDG_DATA_HOME:-$HOME/.local/share}"
fi
bin="$bindir/nimscope"
icon="$data/icons/hicolor/256x256/apps/nimscope.png"
entry="$data/applications/nimscope.desktop"
mime="$data/mime/packages/nimscope-session.xml"
refresh() {
  if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$data/applications" || true; fi
  if command -v update-mime-database >/dev/null; then update-mime-database "$data/mime" >/dev/null || true; fi
  if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t "$data/icons/hicolor" 2>/dev/null || true; fi
}
if $uninstall; then
  rm -f "$icon" "$entry" "$mime"
  if [ -L "$bin" ] || [ -f "$bin" ]; then rm -f "$bin"; fi
  refresh
  echo "install-desktop: removed nimscope's desktop files from $data and $bindir"
  exit 0
fi
if [ -z "$source_bin" ]; then
  if [ -x target/release/nimscope ]; then source_bin="$PWD/target/release/nimscope";
  elif command -v nimscope >/dev/null; then source_bin="$(command -v nimscope)";
  else echo "install-desktop: build nimscope first (cargo build --release)" >&2; exit 1; fi
fi
# the menu entry runs the installed binary by its full path (the desktop's PATH may lack
# ~/.local/bin); a path with a space or a quote would need the entry's quoting, so refuse it
case "$bin" in
  *[[:space:]\"\'\\\`\$]*) echo "install-desktop: the binary's path '$bin' holds a space or a quote; choose another --prefix" >&2; exit 1 ;;
esac
if [ ! -x "$source_bin" ]; then echo "install-desktop: $source_bin is not an executable" >&2; exit 1; fi
mkdir -p "$bindir" "$(dirname "$icon")" "$(dirname "$entry")" "$(dirname "$mime")"
if [ "$(realpath "$source_bin")" != "$(realpath -m "$bin")" ]; then install -m 755 "$source_bin" "$bin"; fi
install -m 644 assets/nimscope.png "$icon"
# the entry names the installed binary by its full path (see above)
sed "s|^Exec=nimscope |Exec=$bin |" assets/nimscope.desktop > "$entry"
chmod 644 "$entry"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$entry"; fi
install -m 644 assets/nimscope-session.xml "$mime"
refresh
echo "install-desktop: installed $bin, its icon, menu entry ($entry) and the session file type"
