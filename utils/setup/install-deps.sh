#!/usr/bin/env bash
# Installs everything tia needs to build and test, from Debian's packages.
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
  cmake ninja-build pkg-config git g++ lld
  llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libclang-rt-19-dev
  libgit2-dev libfmt-dev libsqlite3-dev libxgboost-dev libroaring-dev
  libbenchmark-dev
  libgtest-dev googletest
  catch2 doctest-dev libboost-test-dev
  python3-dev python3-pytest python3-pytest-cov python3-coverage pybind11-dev
  python3-yaml python3-psutil python3-jsonschema
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed ${#missing[@]} packages"
