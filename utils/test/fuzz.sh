#!/usr/bin/env bash
# Builds tia's fuzz targets with clang-19 and libFuzzer (ASan + UBSan) in
# build-fuzz/ and runs each for SECONDS (default 60), starting from the
# committed corpus under test/fuzz/NAME. Prints the executions and the
# corpus growth per target; a crash stops with the reproducer's path.
#
#   utils/test/fuzz.sh [SECONDS] [NAME...]        (default: every target)
#   TIA_FUZZ_UPDATE_CORPUS=1 utils/test/fuzz.sh   also merge new inputs back into
#                                            test/fuzz/NAME (minimised)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
seconds=${1:-60}
shift || true

"$root/utils/setup/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DTIA_FUZZ=ON >/dev/null
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(cd "$root/test/fuzz" && ls)
fi
ninja -C "$build" -j"${TIA_BUILD_JOBS:-2}" "${names[@]/%/-fuzzer}"

for name in "${names[@]}"; do
  work=$build/corpus/$name
  artifacts=$build/artifacts/$name
  mkdir -p "$work" "$artifacts"
  cp -n "$root/test/fuzz/$name"/* "$work"/ 2>/dev/null || true
  before=$(ls "$work" | wc -l)
  log=$build/$name.log
  if ! "$build/fuzz/$name-fuzzer" "$work" -max_total_time="$seconds" \
      -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1; then
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5 >&2
    echo "fuzz: $name crashed; see $log and $artifacts" >&2
    exit 1
  fi
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
  after=$(ls "$work" | wc -l)
  echo "fuzz: $name: $runs executions in ${seconds}s, no crash; corpus $before -> $after inputs"
  if [ "${TIA_FUZZ_UPDATE_CORPUS:-0}" = 1 ]; then
    "$build/fuzz/$name-fuzzer" -merge=1 "$root/test/fuzz/$name" "$work" >/dev/null 2>&1
    echo "fuzz: $name: committed corpus now $(ls "$root/test/fuzz/$name" | wc -l) inputs"
  fi
done
