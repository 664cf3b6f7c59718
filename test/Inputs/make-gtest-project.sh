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
# source-based coverage, runs each test case alone and imports what it
# covered (llvm-cov export) as gtest:NAME:Suite.Name.
set -euo pipefail
dir=$1
repo=$dir/repo
build=$dir/build
clang=${TIA_TEST_CLANG:?}
tools=${TIA_TEST_LLVM_TOOLS:?}

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
mkdir -p "$dir/coverage"
for t in $(cd "$repo" && find tests -name '*.cpp' | sort); do
  name=$(basename "$t" .cpp)
  binary=$build/$name
  # "Suite." lines, then "  Name" lines (plain tests only here).
  suite=""
  "$binary" --gtest_list_tests | while IFS= read -r line; do
    case $line in
      "  "*) test=${line#  } ;;
      *.) suite=${line%.}; continue ;;
      *) continue ;;
    esac
    profile=$dir/coverage/$name.$suite.$test
    LLVM_PROFILE_FILE="$profile.profraw" "$binary" --gtest_filter="$suite.$test" >/dev/null
    "$tools/llvm-profdata" merge -sparse "$profile.profraw" -o "$profile.profdata"
    "$tools/llvm-cov" export -format=text -instr-profile="$profile.profdata" "$binary" > "$profile.json"
    (cd "$repo" && tia coverage import -q --format llvm-cov-json --test "gtest:$name:$suite.$test" "$profile.json")
  done
done
