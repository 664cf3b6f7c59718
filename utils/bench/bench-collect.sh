#!/usr/bin/env bash
# Measures what `tia collect` costs against running the same tests without
# it, on examples/calc and on tia's own unit tests. Every figure is a wall
# time in seconds, the median of RUNS runs, with ratios against baselines
# measured in the same run:
#   plain   : the tests of a build without coverage (ctest -j JOBS)
#   coverage: the tests of the coverage build with one profile per binary
#             (ctest -j JOBS, LLVM_PROFILE_FILE=%m), merged with llvm-profdata
#             (gcc: the .gcda files ctest's run leaves)
#   listener: tia collect --jobs JOBS (tia's listener: a process per binary)
#   process : tia collect --jobs JOBS --process-per-test
# and the database bytes collect adds per test.
#
#   utils/bench/bench-collect.sh TIA_BUILD [COV_BUILD] [RUNS] [JOBS]
#
# TIA_BUILD: a build of tia (its tia, its CMake package, and, for the second
# part, its unit tests as the plain baseline). COV_BUILD (optional): tia
# configured with -DCMAKE_CXX_COMPILER=clang++-19 -DTIA_COVERAGE=ON and its
# unit tests built (ninja -C COV_BUILD SupportTests GitTests StoreTests
# CppTests CoverageTests CollectTests SelectTests); without it only calc is
# measured.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: bench-collect.sh TIA_BUILD [COV_BUILD] [RUNS] [JOBS]}" && pwd)
cov=${2:-}
runs=${3:-3}
jobs=${4:-2}
tia=$build/tools/tia/tia
profdata=$(command -v llvm-profdata-19 || echo /usr/lib/llvm-19/bin/llvm-profdata)
work=$(mktemp -d "${TMPDIR:-/tmp}/tia-bench-collect.XXXXXX")
trap 'rm -rf "$work"' EXIT

# median SECONDS... -> the median
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# seconds CMD... -> wall seconds of one run (output discarded)
seconds() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

# time_median NAME CMD...: runs CMD RUNS times (after PREPARE, if set)
time_median() {
  local name=$1 t=()
  shift
  for _ in $(seq "$runs"); do
    [ -n "${prepare:-}" ] && eval "$prepare"
    t+=("$(seconds "$@")")
  done
  eval "$name=$(median "${t[@]}")"
}

# coverage_run BUILD CTEST_ARGS...: ctest with a profile per binary, merged.
coverage_run() {
  local b=$1
  shift
  rm -rf "$work/profiles"
  (cd "$b" && LLVM_PROFILE_FILE="$work/profiles/%m.profraw" ctest -j "$jobs" "$@") || true
  # gcc: the .gcda files the run wrote are the result.
  if compgen -G "$work/profiles/*.profraw" >/dev/null; then
    "$profdata" merge -sparse "$work"/profiles/*.profraw -o "$work/merged.profdata"
  fi
}

# measure LABEL SRC PLAIN_BUILD COV_BUILD DB ONLY CTEST_ARGS...
measure() {
  local label=$1 src=$2 plain=$3 covb=$4 db=$5 only=$6
  shift 6
  local n before after
  time_median plain_s bash -c "cd '$plain' && ctest -j $jobs $*"
  time_median coverage_s coverage_run "$covb" "$@"
  prepare="cp '$db' '$work/run.db'"
  time_median listener_s bash -c "cd '$src' && '$tia' -q --db '$work/run.db' collect -p '$covb' --jobs $jobs --only '$only'"
  before=$(stat -c %s "$db")
  after=$(stat -c %s "$work/run.db")
  n=$("$tia" --db "$work/run.db" dump results | wc -l)
  time_median process_s bash -c "cd '$src' && '$tia' -q --db '$work/run.db' collect -p '$covb' --jobs $jobs --process-per-test --only '$only'"
  prepare=""
  printf '| %s | %s | %s s | %s s | %s s (%s, %s) | %s s (%s, %s) | %s |\n' \
    "$label" "$n" "$plain_s" "$coverage_s" \
    "$listener_s" "$(ratio "$listener_s" "$plain_s")" "$(ratio "$listener_s" "$coverage_s")" \
    "$process_s" "$(ratio "$process_s" "$plain_s")" "$(ratio "$process_s" "$coverage_s")" \
    "$(( (after - before) / n ))"
}

echo "| suite | tests | plain | coverage | collect, listener (vs plain, vs coverage) | collect, process per test (vs plain, vs coverage) | bytes per test |"
echo "|---|---|---|---|---|---|---|"

# 1. examples/calc, built with clang 19 without and with coverage.
calc=$work/calc
cp -r "$root/examples/calc" "$calc"
printf '/build*/\n' > "$calc/.gitignore"
git -C "$calc" init -q -b main
git -C "$calc" add -A
git -C "$calc" -c user.name=bench -c user.email=bench@tia.invalid commit -qm calc
cmake -G Ninja -S "$calc" -B "$calc/build-plain" -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
cmake -G Ninja -S "$calc" -B "$calc/build-cov" -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCALC_COVERAGE=ON -Dtia_DIR="$build/cmake/tia" >/dev/null
ninja -C "$calc/build-plain" -j "$jobs" >/dev/null
ninja -C "$calc/build-cov" -j "$jobs" >/dev/null
(cd "$calc" && "$tia" -q --db "$work/calc.db" index -p build-cov)
measure "examples/calc (clang)" "$calc" "$calc/build-plain" "$calc/build-cov" "$work/calc.db" '*'

# 1b. examples/calc built with gcc (gcov), same measures.
cmake -G Ninja -S "$calc" -B "$calc/build-gcc-plain" -DCMAKE_CXX_COMPILER=g++ >/dev/null
cmake -G Ninja -S "$calc" -B "$calc/build-gcc-cov" -DCMAKE_CXX_COMPILER=g++ \
  -DCALC_COVERAGE=ON -Dtia_DIR="$build/cmake/tia" >/dev/null
ninja -C "$calc/build-gcc-plain" -j "$jobs" >/dev/null
ninja -C "$calc/build-gcc-cov" -j "$jobs" >/dev/null
(cd "$calc" && "$tia" -q --db "$work/calc-gcc.db" index -p build-gcc-cov)
measure "examples/calc (gcc)" "$calc" "$calc/build-gcc-plain" "$calc/build-gcc-cov" "$work/calc-gcc.db" '*'

# 2. tia's unit tests: plain from TIA_BUILD, coverage from COV_BUILD.
if [ -n "$cov" ]; then
  cov=$(cd "$cov" && pwd)
  (cd "$root" && "$tia" -q --db "$work/self.db" index -p "$cov" --jobs "$jobs" lib)
  measure "tia unit tests" "$root" "$build" "$cov" "$work/self.db" 'gtest:*' -E lit
fi
