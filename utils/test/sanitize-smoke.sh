#!/usr/bin/env bash
# Keeps the sanitizer and fuzz configurations building: configures each (the
# sanitize preset in build-sanitize/, TIA_FUZZ with clang-19 in build-fuzz/),
# builds tia-link-check there, which links libpython, libgit2 and SQLite the
# way tia does, and runs it under the sanitizers' runtimes. Fails when either
# configuration no longer configures, links or runs. A few minutes; the
# whole suite under the sanitizers is docs/Reliability.md's longer run.
#
#   utils/test/sanitize-smoke.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

check() { # NAME BUILD_DIR CONFIGURE_ARGS...
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure, link and run tia-link-check in $dir"
  cmake "$@" >"$dir/smoke-configure.log" 2>&1 ||
    { cat "$dir/smoke-configure.log"; exit 1; }
  cmake --build "$dir" --target tia-link-check -j2 >"$dir/smoke-build.log" 2>&1 ||
    { tail -40 "$dir/smoke-build.log"; exit 1; }
  "$dir/tia-link-check"
}

mkdir -p build-sanitize build-fuzz
check sanitize build-sanitize --preset sanitize
check fuzz build-fuzz -S . -B build-fuzz -G Ninja -DTIA_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTIA_BUILD_BENCHMARKS=OFF \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
echo "sanitize-smoke: the sanitizer and fuzz configurations link and run"
