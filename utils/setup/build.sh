#!/usr/bin/env bash
# Installs the dependencies (Debian packages) and builds tia into BUILD_DIR
# (default: build/). Safe to run again: it only rebuilds what changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}

"$root/utils/setup/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
jobs=${TIA_BUILD_JOBS:-2}
# ninja's [N/M] lines show how far a first build (minutes) has come.
ninja -C "$build" -j"$jobs"
echo "build: tia is at $build/tools/tia/tia"
