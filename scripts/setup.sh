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

# The Python package (crates/py, docs/python.md) in the environment the README names: .venv at
# the repository's root, with maturin, numpy, pytest, nbclient, a kernel and matplotlib from
# PyPI (crates/py/requirements-dev.txt), and nimscope built into it by `maturin develop` (the
# dev profile, optimised: Cargo.toml).
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "setup: python3 is missing (apt-get install python3 python3-venv)" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  if ! python3 -m venv .venv 2>/dev/null; then
    # Debian's python3 makes environments with the python3-venv package
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "setup: installing python3-venv" >&2
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
      rm -rf .venv
      python3 -m venv .venv
    else
      echo "setup: python3 cannot make a virtual environment: sudo apt-get install python3-venv" >&2
      exit 1
    fi
  fi
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r crates/py/requirements-dev.txt
VIRTUAL_ENV="$PWD/.venv" .venv/bin/maturin develop -q -m crates/py/Cargo.toml
