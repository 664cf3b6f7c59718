#!/usr/bin/env bash
# Measures what recording the files each test reads costs `tia collect` on
# C++ tests (the preloaded tracer, runtime/FileReadTracer.c): collects the
# same build with and without --no-file-trace, REPEAT times each,
# alternating, and prints the CPU time (user + system of tia and every
# process it waits for) and wall time of each, their medians and the ratio
# traced / untraced. Two projects, both built with clang and tia's listener
# (tia_add_coverage):
#   calc       examples/calc: GoogleTest cases that read no data files
#   generated  one GoogleTest binary of 200 cases, each reading 25 data
#              files with std::ifstream and listing their folder with
#              std::filesystem (5,000 reads per collect)
#
#   utils/bench/bench-file-trace-cpp.sh TIA_BUILD REPEAT
#
# TIA_BUILD: a build of tia (its tia and its CMake package, BUILD/cmake/tia).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: bench-file-trace-cpp.sh TIA_BUILD REPEAT}" && pwd)
repeat=${2:?usage: bench-file-trace-cpp.sh TIA_BUILD REPEAT}
tia=$build/tools/tia/tia
clangxx=$(command -v clang++-19 || command -v clang++)
work=$(mktemp -d "${TMPDIR:-/tmp}/tia-bench-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT

commit_all() {
  git -C "$1" init -q -b main
  git -C "$1" add -A
  git -C "$1" -c user.name=b -c user.email=b@b commit -qm initial
}

configure_and_index() { # DIR [CMAKE_ARGS...]
  local dir=$1
  shift
  cmake -G Ninja -S "$dir" -B "$dir/build" -DCMAKE_CXX_COMPILER="$clangxx" \
    -Dtia_DIR="$build/cmake/tia" "$@" >/dev/null
  cmake --build "$dir/build" -j 2 >/dev/null
  (cd "$dir" && "$tia" index -q -p build >/dev/null)
}

make_generated() {
  local dir=$1
  mkdir -p "$dir/tests"
  for s in $(seq 0 7); do
    local set
    set=$(printf 'set%02d' "$s")
    mkdir -p "$dir/data/$set"
    for i in $(seq 0 24); do
      printf "value $s $i %s\n" $(seq 20) > "$dir/data/$set/$(printf 'case%02d.txt' "$i")"
    done
  done
  {
    echo '#include "gtest/gtest.h"'
    echo '#include <filesystem>'
    echo '#include <fstream>'
    echo '#include <string>'
    echo 'static size_t readSet(int Set) {'
    echo '  std::string Dir = std::string(DATA) + "/set" + (Set < 10 ? "0" : "") + std::to_string(Set);'
    echo '  size_t N = 0;'
    echo '  for (int I = 0; I < 25; ++I) {'
    echo '    std::ifstream In(Dir + "/case" + (I < 10 ? "0" : "") + std::to_string(I) + ".txt");'
    echo '    N += std::string(std::istreambuf_iterator<char>(In), {}).size();'
    echo '  }'
    echo '  for (auto &E : std::filesystem::directory_iterator(Dir))'
    echo '    N += !E.path().empty();'
    echo '  return N;'
    echo '}'
    for t in $(seq 0 199); do
      echo "TEST(Reads, Case$t) { EXPECT_GT(readSet($t % 8), 0u); }"
    done
  } > "$dir/tests/reads_test.cpp"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(generated LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
find_package(tia CONFIG REQUIRED)
find_package(GTest REQUIRED)
enable_testing()
add_executable(reads_test tests/reads_test.cpp)
target_link_libraries(reads_test PRIVATE GTest::gtest_main)
target_compile_definitions(reads_test PRIVATE DATA="\${CMAKE_CURRENT_SOURCE_DIR}/data")
tia_add_coverage(reads_test)
add_test(NAME reads_test COMMAND reads_test)
CMAKE
  printf 'build/\n' > "$dir/.gitignore"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

measure() { # NAME DIR
  local name=$1 dir=$2
  : > "$work/$name.traced"
  : > "$work/$name.untraced"
  for i in $(seq "$repeat"); do
    for mode in untraced traced; do
      local flag=""
      [ $mode = untraced ] && flag=--no-file-trace
      rm -f "$dir/.tia/tia.db.collect"
      (cd "$dir" && /usr/bin/time -f "%U %S %e" -o "$work/t" \
        "$tia" collect -q -p build $flag >/dev/null 2>&1)
      read -r user sys wall < "$work/t"
      echo "$(echo "$user + $sys" | bc) $wall" >> "$work/$name.$mode"
      printf "%s\t%d\t%s\t%s\n" "$name" "$i" "$mode" "$(tail -1 "$work/$name.$mode")"
    done
  done
  local reads
  reads=$(cd "$dir" && "$tia" dump files | grep -c '^  read ' || true)
  local cu ct wu wt
  cu=$(cut -d' ' -f1 "$work/$name.untraced" | median)
  ct=$(cut -d' ' -f1 "$work/$name.traced" | median)
  wu=$(cut -d' ' -f2 "$work/$name.untraced" | median)
  wt=$(cut -d' ' -f2 "$work/$name.traced" | median)
  printf "%s\tmedian cpu untraced %.2f s, traced %.2f s, ratio %.2f; wall ratio %.2f; %d reads recorded\n" \
    "$name" "$cu" "$ct" "$(echo "$ct / $cu" | bc -l)" "$(echo "$wt / $wu" | bc -l)" "$reads"
}

printf "project\trun\tmode\tcpu_seconds wall_seconds\n"
cp -r "$root/examples/calc" "$work/calc"
printf 'build/\n' > "$work/calc/.gitignore"
commit_all "$work/calc"
configure_and_index "$work/calc" -DCALC_COVERAGE=ON
measure calc "$work/calc"

make_generated "$work/generated"
commit_all "$work/generated"
configure_and_index "$work/generated"
measure generated "$work/generated"
