#!/usr/bin/env bash
# tia eval replay on tia's own history, in the static, coverage and combined
# modes against the same coverage ground truth.
#
#   utils/eval/replay-tia.sh TIA RANGE OUT_DIR [unit|all]    (e.g. 8ab7818..bab3774)
#
# unit (the default): tia's GoogleTest unit tests only; the lit suite and the
#   fuzz regression runs are left out (--only 'gtest:*'), and so are changes
#   to what only they read (select.ignore in the clone's .tia.yaml).
# all: every test, each lit test on its own (lit:tia::FOLDER/FILE.test):
#   tia, its unit tests and its fuzz replays are built with clang coverage,
#   as the `coverage` preset does, but through flags every commit's
#   CMakeLists takes, so that older commits instrument every library too.
#
# Writes OUT_DIR/replay.json and the tables of docs/Benchmarks.md to
# OUT_DIR/replay.md (utils/eval/replay-table.py).
#
# With SCRATCH=DIR the clone is kept in DIR (tia eval replay --scratch): a
# replay stopped part way goes on from DIR's journal when run again, and a
# longer range reuses the commits a shorter one measured. The journal takes
# the measures of one build of tia only, so the first run copies TIA to
# DIR.tia and every later run uses that copy (delete both to start afresh).
#
# Runs in a scratch clone under TMPDIR; the clone's build directory path
# differs from any earlier build, so ccache misses (clang's profile flags
# make it hash the directory) and the first build is cold: expect about 30
# minutes for the base on two cores, then a few minutes per commit (unit),
# or a few minutes plus a collect of the whole suite per commit (all).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tia=$(realpath "$1")
range=$2
out=$3
suite=${4:-unit}
mkdir -p "$out"
compilers="-DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
case "$suite" in
unit)
  targets="CollectTests ConfigTests CoverageTests CppTests EvalTests GitTests \
PredictTests PythonTests ReportTests ResultsTests SelectTests StoreTests \
SupportTests"
  config='select:\n  ignore: ["test/**", "fuzz/**", "examples/**", "bench/**", "utils/**"]\n'
  build="printf '$config' > .tia.yaml && cmake -G Ninja -S . -B build \
-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0 \
$compilers -DTIA_COVERAGE=ON -DTIA_BUILD_BENCHMARKS=OFF >/dev/null && \
ninja -C build -j2 $targets"
  only=(--only 'gtest:*')
  ;;
all)
  # C++ flags only: the file-read tracer (C) is preloaded into every process
  # of a test and must not write profiles of its own.
  flags='-fprofile-instr-generate -fcoverage-mapping'
  build="cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release $compilers \
-DTIA_COVERAGE=ON -DTIA_BUILD_BENCHMARKS=OFF \
'-DCMAKE_CXX_FLAGS=$flags' -DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate \
>/dev/null && ninja -C build -j2"
  only=()
  ;;
*)
  echo "replay-tia.sh: the suite is unit or all, not '$suite'" >&2
  exit 2
  ;;
esac
if [ -n "${SCRATCH:-}" ]; then
  kept="${SCRATCH%/}.tia"
  [ -e "$kept" ] || cp "$tia" "$kept"
  cmp -s "$tia" "$kept" ||
    echo "replay-tia.sh: resuming with $kept, the tia that started this replay" >&2
  tia=$kept
fi
cd "$root"
"$tia" eval replay --commits "$range" --first-parent \
  --modes static,coverage,combined "${only[@]}" --jobs 2 --format json \
  ${SCRATCH:+--scratch "$SCRATCH"} \
  --build "$build" > "$out/replay.json"
python3 "$root/utils/eval/replay-table.py" "$out/replay.json" > "$out/replay.md"
cat "$out/replay.md"
