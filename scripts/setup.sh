#!/usr/bin/env bash
# Prepares a fresh Debian machine for nimscope beyond the Rust toolchain: the shared libraries
# the window loads at run time (X11/Wayland input, Vulkan or GL through Mesa), and GNU time, with
# which the heap fuzz test reads each run's peak memory. Installs only
# what is missing, and only when it can (as root with apt-get); otherwise it says what to install.
set -euo pipefail
command -v cargo >/dev/null || { echo "setup: cargo is missing; install Rust from https://rustup.rs" >&2; exit 1; }
pkgs="libxkbcommon-x11-0 libxcursor1 libxi6 libxrandr2 libx11-xcb1 libvulkan1 mesa-vulkan-drivers libgl1 libegl1 time"
missing=$(for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done | tr '\n' ' ')
if [ -n "${missing// /}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing $missing" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "setup: the window needs these Debian packages: $missing (sudo apt-get install $missing)" >&2
  fi
fi
