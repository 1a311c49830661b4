#!/usr/bin/env bash
# Installs nimscope for the desktop of the current user: the binary (if built), the icon, the
# menu entry and the file type of sessions (`.ron` files open with `nimscope --session FILE`).
# Usage: scripts/install-desktop.sh [--prefix DIR]   (default DIR: ~/.local)
#        scripts/install-desktop.sh --uninstall [--prefix DIR]
# Build first: cargo build --release (the script takes target/release/nimscope, else the
# nimscope on PATH). Nothing here needs root; see docs/window.md.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$HOME/.local"
uninstall=false
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --uninstall) uninstall=true; shift ;;
    *) echo "install-desktop: unknown argument '$1' (--prefix DIR, --uninstall)" >&2; exit 2 ;;
  esac
done
bin="$prefix/bin/nimscope"
icon="$prefix/share/icons/hicolor/256x256/apps/nimscope.png"
entry="$prefix/share/applications/nimscope.desktop"
mime="$prefix/share/mime/packages/nimscope-session.xml"
refresh() {
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
  command -v update-mime-database >/dev/null && update-mime-database "$prefix/share/mime" >/dev/null || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" || true
}
if $uninstall; then
  rm -f "$icon" "$entry" "$mime"
  [ -L "$bin" ] || [ -f "$bin" ] && rm -f "$bin"
  refresh
  echo "install-desktop: removed nimscope's desktop files from $prefix"
  exit 0
fi
source_bin=""
if [ -x target/release/nimscope ]; then source_bin="$PWD/target/release/nimscope";
elif command -v nimscope >/dev/null; then source_bin="$(command -v nimscope)";
else echo "install-desktop: build nimscope first (cargo build --release)" >&2; exit 1; fi
mkdir -p "$(dirname "$bin")" "$(dirname "$icon")" "$(dirname "$entry")" "$(dirname "$mime")"
if [ "$source_bin" != "$bin" ]; then install -m 755 "$source_bin" "$bin"; fi
install -m 644 assets/nimscope.png "$icon"
# the menu entry runs the installed binary by its full path (the desktop's PATH may lack ~/.local/bin)
sed "s|^Exec=nimscope |Exec=$bin |" assets/nimscope.desktop > "$entry"
chmod 644 "$entry"
install -m 644 assets/nimscope-session.xml "$mime"
refresh
echo "install-desktop: installed $bin, its icon, menu entry ($entry) and the session file type"
