#!/usr/bin/env bash
# Installs the dependencies, builds tia and runs every test: the GoogleTest
# unit tests and the lit suite, one ctest test per lit folder (lit-select,
# lit-eval, ...), in one ctest run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}

"$root/utils/setup/build.sh" "$build"
ctest --test-dir "$build" --output-on-failure -j2
