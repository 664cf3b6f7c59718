#!/usr/bin/env bash
# Benchmark: the coverage store of this build against an older build's, in
# one run, one after the other on this machine.
#
#   OLD_BUILD=DIR utils/bench/bench-store-compact.sh WORK_DIR [TESTS]
#
# OLD_BUILD is the build directory of the commit to compare with (for
# example a worktree of it built with utils/setup/build.sh); its
# tools/tia/tia and bench/tia-bench-scale are used. For each build:
#   scale   tia-bench-scale: TESTS tests (default 40,000) x 100,000
#           functions imported into a new store: import CPU, size, bytes
#           per link, lookup CPU;
#   select  bench-select-scale.sh: a one-function change selected against
#           that store and against the index-only store (CPU ratio);
#   merge   bench-merge.sh, scale part: the same links imported whole and as
#           4 shards, and the merge of the shards (CPU, peak memory).
# PARTS=scale,select,merge (default) picks the parts.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: OLD_BUILD=DIR bench-store-compact.sh WORK_DIR [TESTS]}
tests=${2:-40000}
old=${OLD_BUILD:?set OLD_BUILD to the build directory to compare with}
new=${BUILD:-$root/build}
parts=${PARTS:-scale,select,merge}
rm -rf "$work"
mkdir -p "$work"

for side in old new; do
  build=$old; [ "$side" = new ] && build=$new
  tia=$build/tools/tia/tia
  scale=$build/bench/tia-bench-scale
  for exe in "$tia" "$scale"; do
    [ -x "$exe" ] || { echo "bench-store-compact: $exe is missing: build it (target tia-bench-scale needs Google Benchmark)" >&2; exit 1; }
  done
  if [[ $parts == *scale* ]]; then
    echo "== $side: scale ($tests tests)"
    "$scale" "$work/$side-scale" "$tests" 100000 --no-baseline \
      --benchmark_min_time=0.5 2>&1 | grep -E "^(links|store|store/)" || true
    rm -rf "$work/$side-scale"
  fi
  if [[ $parts == *select* ]]; then
    echo "== $side: select"
    TIA=$tia TIA_BENCH_SCALE=$scale BUILD=$build \
      "$root/utils/bench/bench-select-scale.sh" "$work/$side-select" "$tests"
    rm -rf "$work/$side-select"
  fi
  if [[ $parts == *merge* ]]; then
    echo "== $side: merge of 4 shards"
    PARTS=scale TIA=$tia TIA_BENCH_SCALE=$scale BUILD=$build \
      "$root/utils/bench/bench-merge.sh" "$work/$side-merge" "$tests" 100000 4
    rm -rf "$work/$side-merge"
  fi
done
