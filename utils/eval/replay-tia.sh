#!/usr/bin/env bash
# tia eval replay on tia's own history: tia selecting tia's own GoogleTest
# unit tests, in the static, coverage and combined modes against the same
# coverage ground truth. The lit suite (one ctest test, minutes long) and
# the fuzz regression runs are left out (--only 'gtest:*'); so are changes
# to what only they read (select.ignore in the clone's .tia.yaml). Writes
# OUT_DIR/replay.json and the tables of docs/Benchmarks.md to
# OUT_DIR/replay.md (utils/eval/replay-table.py).
#
#   utils/eval/replay-tia.sh TIA RANGE OUT_DIR     (e.g. 8ab7818..bab3774)
#
# Runs in a scratch clone under TMPDIR; the clone's build directory path
# differs from any earlier build, so ccache misses (clang's profile flags
# make it hash the directory) and the first build is cold: expect about 30
# minutes for the base on two cores, then a few minutes per commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tia=$(realpath "$1")
range=$2
out=$3
mkdir -p "$out"
targets="CollectTests ConfigTests CoverageTests CppTests EvalTests GitTests \
PredictTests PythonTests ReportTests ResultsTests SelectTests StoreTests \
SupportTests"
config='select:\n  ignore: ["test/**", "fuzz/**", "examples/**", "bench/**", "utils/**"]\n'
build="printf '$config' > .tia.yaml && cmake -G Ninja -S . -B build \
-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0 \
-DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache \
-DTIA_COVERAGE=ON -DTIA_BUILD_BENCHMARKS=OFF >/dev/null && \
ninja -C build -j2 $targets"
cd "$root"
"$tia" eval replay --commits "$range" --first-parent \
  --modes static,coverage,combined --only 'gtest:*' --jobs 2 --format json \
  --build "$build" > "$out/replay.json"
python3 "$root/utils/eval/replay-table.py" "$out/replay.json" > "$out/replay.md"
cat "$out/replay.md"
