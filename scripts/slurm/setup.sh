#!/usr/bin/env bash
# Installs what a one-node Slurm cluster on this machine needs (Debian's slurm-wlm and munge),
# GNU parallel (the way to run a plan's units without a cluster) and jq (which test.sh reads
# answers with),
# for scripts/slurm/test.sh. Installs only what is missing, and only when it can (as root with
# apt-get); otherwise it says what to install. The cluster itself is started by test.sh.
set -euo pipefail
pkgs="slurm-wlm munge parallel time jq"
missing=$(for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done | tr '\n' ' ')
if [ -z "${missing// /}" ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "slurm setup: installing $missing" >&2
  apt-get update -qq >/dev/null
  # The packages' own services are not started here (no init system in a container); test.sh
  # starts munged, slurmctld and slurmd itself.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
else
  echo "slurm setup: a one-node cluster needs these Debian packages: $missing (sudo apt-get install $missing)" >&2
  exit 1
fi
