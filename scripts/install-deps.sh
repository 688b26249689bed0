#!/usr/bin/env bash
# Installs every build, test and report dependency of tmu from Debian 12's packages.
# Idempotent: re-running it only refreshes the package lists and confirms what is there.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config ccache
  verilator yosys
  libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libmpfr-dev libmpfrc++-dev libgmp-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev nettle-dev
  python3 python3-matplotlib python3-jsonschema lcov
  python3-pybind11 python3-numpy python3-pytest python3-hypothesis
  clang libclang-rt-14-dev llvm
)

if [ "$(id -u)" -ne 0 ]; then
  # Without root nothing can be installed; carry on only if everything is already there.
  missing=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ "${#missing[@]}" -ne 0 ]; then
    echo "install-deps.sh: not root and these packages are missing: ${missing[*]}" >&2
    exit 1
  fi
  echo "install-deps.sh: not root; all packages already installed"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${packages[@]}"
