#!/usr/bin/env bash
# Installs what nimscope needs on a fresh Debian machine beyond the Rust toolchain.
# The engine and its tests need nothing else yet; the window's packages come with the window.
set -euo pipefail
command -v cargo >/dev/null || { echo "setup: cargo is missing; install Rust from rustup.rs" >&2; exit 1; }
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt || true
