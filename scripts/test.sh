#!/usr/bin/env bash
# The test command of the README: every test, in the dev profile (optimised, see Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test
