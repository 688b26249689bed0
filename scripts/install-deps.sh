#!/usr/bin/env bash
# Installs every build, test and report dependency of tmu from Debian 12's packages.
# Idempotent: re-running it only refreshes the package lists and confirms what is there.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  verilator yosys
  libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libmpfr-dev libmpfrc++-dev libgmp-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  python3 python3-matplotlib lcov
)

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: must run as root (apt-get install needs it)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${packages[@]}"
