#!/usr/bin/env bash
# The test command of the README: every test, in the dev profile (optimised, see Cargo.toml):
# cargo's, then the Python package's (crates/py/tests: against the command line cargo test
# built, the example notebook run headless) in the environment scripts/setup.sh made.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test
NIMSCOPE="$PWD/target/debug/nimscope" .venv/bin/python -m pytest -q -p no:cacheprovider crates/py/tests
