#!/usr/bin/env bash
# tia on tia: builds tia for coverage (the `coverage` CMake preset, into
# build-coverage/) and has tia collect tia's own tests there, every unit test
# case and every lit test on its own, into the database that before-push.sh
# selects from (.tia/tia.db at the root, or $TIA_DB). Run it on main, or take
# the database a CI job made on main. Later runs can pass --incremental: only
# the tests the change since the last collect can affect run again.
#
#   utils/test/collect-self.sh [COLLECT_ARGS...]    (e.g. --incremental)
#
# The collecting tia is the ordinary build's (build/tools/tia/tia, or $TIA);
# the tia under test is build-coverage's, instrumented, whose every start in a
# lit test writes its profile to that test alone (docs/Collection.md, "lit
# suites").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [ -n "${TIA:-}" ]; then
  tia=$TIA
  if [ ! -x "$tia" ]; then
    echo "collect-self.sh: TIA names no program: $tia" >&2
    exit 2
  fi
else
  tia=$root/build/tools/tia/tia
  "$root/utils/setup/build.sh" "$root/build" >/dev/null
fi
if [ ! -f build-coverage/build.ninja ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake --preset coverage "${launcher[@]}" >/dev/null
fi
ninja -C build-coverage -j"${TIA_BUILD_JOBS:-2}"
"$tia" index -p build-coverage
"$tia" collect -p build-coverage "$@"
