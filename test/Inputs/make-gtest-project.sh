#!/usr/bin/env bash
# Turns a split-file scenario with GoogleTest tests into an indexed project
# with real per-test coverage.
#
#   make-gtest-project.sh DIR
#
# DIR/src/ holds the project's sources, DIR/tests/NAME.cpp one GoogleTest
# program each (linked with gtest_main). Makes DIR/repo (a git repository
# with src/ and tests/, one commit), DIR/build/compile_commands.json, runs
# 'tia index', builds every test program into DIR/build/NAME with clang's
# source-based coverage, and imports the coverage of each test case alone
# (utils/example-coverage.sh) as gtest:NAME:Suite.Name.
set -euo pipefail
dir=$1
repo=$dir/repo
build=$dir/build
clang=${TIA_TEST_CLANG:?}
utils=${TIA_TEST_UTILS:?}

mkdir -p "$repo" "$build"
cp -r "$dir/src" "$repo/src"
cp -r "$dir/tests" "$repo/tests"
[ -f "$dir/.tia.yaml" ] && cp "$dir/.tia.yaml" "$repo/"

python3 "$(dirname "$0")/compdb.py" "$build" "$repo" -Isrc -- \
  $(cd "$repo" && find src tests -name '*.cpp' | sort)

git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -qm "initial"
(cd "$repo" && tia index -q -p "$build")

srcs=$(cd "$repo" && find src -name '*.cpp' | sort)
for t in $(cd "$repo" && find tests -name '*.cpp' | sort); do
  name=$(basename "$t" .cpp)
  (cd "$repo" && "$clang" -x c++ -std=c++17 -Isrc -fprofile-instr-generate -fcoverage-mapping \
      $srcs "$t" -o "$build/$name" -lstdc++ -lm -lgtest -lgtest_main -pthread)
done
"$utils/example-coverage.sh" "$build" "$dir/coverage" >/dev/null
for f in "$dir"/coverage/*.json; do
  name=$(basename "$f" .json)
  (cd "$repo" && tia coverage import -q --format llvm-cov-json --test "gtest:${name%%__*}:${name#*__}" "$f")
done
