#!/usr/bin/env bash
# The test command of the README: every test, in the dev profile (optimised, see Cargo.toml):
# cargo's, then the Python package's (crates/py/tests: against the command line cargo test
# built, the example notebook run headless) in the environment scripts/setup.sh made.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# misère quotients are kept in a cache folder: the tests keep theirs apart from the user's, and
# every run starts from none
NIMSCOPE_CACHE_DIR="$(mktemp -d)"
export NIMSCOPE_CACHE_DIR
trap 'rm -rf "$NIMSCOPE_CACHE_DIR"' EXIT
cargo test
NIMSCOPE="$PWD/target/debug/nimscope" .venv/bin/python -m pytest -q -p no:cacheprovider crates/py/tests
