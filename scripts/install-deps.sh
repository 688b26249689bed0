#!/usr/bin/env bash
# Installs every build, test and report dependency of tmu from Debian 12's packages, and only when one
# is missing: every package is first asked of dpkg-query, and when all are installed the script says
# so in one line and never calls apt-get. When something is missing (as root), it waits for another
# package manager holding the dpkg/apt locks (at most TMU_APT_LOCK_TIMEOUT seconds, default 300),
# then runs apt-get update and install. Exit status: 0 installed, 1 missing packages without root,
# 2 the locks stayed held, else apt-get's.
#
# For the tests only (tests/scripts/test_install_deps.py): TMU_DPKG_LOCK_PATHS, a colon-separated
# list, replaces the lock files waited for; the tests also put stand-ins for dpkg-query, apt-get and
# id first on PATH.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config ccache
  verilator yosys
  libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libmpfr-dev libmpfrc++-dev libgmp-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev nettle-dev
  python3 python3-matplotlib python3-jsonschema lcov
  python3-pybind11 python3-numpy python3-pytest python3-hypothesis
  python3-torch python3-pip python3-setuptools python3-wheel python3-venv mypy
  clang libclang-rt-14-dev llvm
)

# Sets missing to the packages dpkg does not have installed.
find_missing() {
  local p status
  missing=()
  for p in "${packages[@]}"; do
    # "install ok installed" (or "hold ok installed"); several lines for a package of several
    # architectures. Anything else (not known, config-files, half-installed, reinstreq) is missing.
    status="$(dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null || true)"
    [[ "$status" == *"ok installed"* ]] || missing+=("$p")
  done
}

find_missing
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages are installed; nothing to install"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: not root and these packages are missing: ${missing[*]}" >&2
  exit 1
fi
echo "install-deps.sh: missing ${#missing[@]} of ${#packages[@]} packages: ${missing[*]}"

# The locks apt-get and dpkg take (fcntl locks, which flock -n does not see): a lock is held when
# /proc/locks lists the file's device and inode (POSIX and flock locks alike), with its holder's pid.
lock_paths="${TMU_DPKG_LOCK_PATHS:-/var/lib/dpkg/lock-frontend:/var/lib/dpkg/lock:/var/lib/apt/lists/lock:/var/cache/apt/archives/lock}"
timeout="${TMU_APT_LOCK_TIMEOUT:-300}"
if ! [[ "$timeout" =~ ^[0-9]+$ ]]; then
  echo "install-deps.sh: TMU_APT_LOCK_TIMEOUT must be a whole number of seconds, got '$timeout'" >&2
  exit 2
fi

# Prints "PATH PID" for the first lock of lock_paths another process holds; nothing when none is.
held_lock() {
  local path key pid dev
  local -a paths
  IFS=: read -r -a paths <<<"$lock_paths"
  for path in "${paths[@]}"; do
    [ -e "$path" ] || continue
    key="$(stat -L -c '%Hd %Ld %i' "$path" 2>/dev/null)" || continue
    # shellcheck disable=SC2086
    key="$(printf '%02x:%02x:%s' $key)"
    while read -r _ _ _ _ pid dev _; do
      if [ "$dev" = "$key" ] && [ "$pid" != "$$" ]; then
        echo "$path $pid"
        return 0
      fi
    done < <(sed 's/ -> / /' /proc/locks)
  done
  return 0
}

holder_name() {
  local comm
  comm="$(cat "/proc/$1/comm" 2>/dev/null)" || comm="?"
  echo "pid $1 ($comm)"
}

start=$SECONDS
waited=""
while held="$(held_lock)" && [ -n "$held" ]; do
  path="${held% *}"
  pid="${held##* }"
  if [ "$waited" != "$path" ]; then
    echo "install-deps.sh: waiting up to $((timeout - (SECONDS - start))) s more (TMU_APT_LOCK_TIMEOUT=$timeout) for $path, held by $(holder_name "$pid")"
    waited="$path"
  fi
  if [ $((SECONDS - start)) -ge "$timeout" ]; then
    echo "install-deps.sh: $path is still held by $(holder_name "$pid") after $timeout s: another package manager is running. Let it finish (or raise TMU_APT_LOCK_TIMEOUT) and run this again; nothing was installed." >&2
    exit 2
  fi
  sleep 1
done
if [ -n "$waited" ]; then
  # The other package manager may have installed them.
  find_missing
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps.sh: the dpkg/apt locks are free after $((SECONDS - start)) s and all ${#packages[@]} packages are installed now; nothing to install"
    exit 0
  fi
  echo "install-deps.sh: the dpkg/apt locks are free after $((SECONDS - start)) s; installing ${missing[*]}"
fi

export DEBIAN_FRONTEND=noninteractive
# A package manager starting between the check and the install: apt-get waits for it out of the rest
# of the same budget.
left=$((timeout - (SECONDS - start)))
[ "$left" -gt 0 ] || left=1
apt-get -o DPkg::Lock::Timeout="$left" update
apt-get -o DPkg::Lock::Timeout="$left" install -y --no-install-recommends "${packages[@]}"
