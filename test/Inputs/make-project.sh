#!/usr/bin/env bash
# Turns a split-file scenario into an indexed project with real coverage.
#
#   make-project.sh DIR
#
# DIR/src/ holds the project's sources, DIR/tests/NAME.cpp one test program
# each (a main that returns non-zero on failure). Makes DIR/repo (a git
# repository with src/ and tests/, one commit), DIR/build/compile_commands.json,
# runs 'tia index', builds every test with clang's source-based coverage,
# runs it, and imports its coverage as test ctest:NAME.
set -euo pipefail
dir=$1
repo=$dir/repo
build=$dir/build
clang=${TIA_TEST_CLANG:?}
tools=${TIA_TEST_LLVM_TOOLS:?}

mkdir -p "$repo" "$build"
cp -r "$dir/src" "$repo/src"
[ -d "$dir/tests" ] && cp -r "$dir/tests" "$repo/tests"
[ -f "$dir/CMakeLists.txt" ] && cp "$dir/CMakeLists.txt" "$repo/"

# compile_commands.json for every .cpp of the repository.
{
  echo "["
  sep=""
  for f in $(cd "$repo" && find src tests -name '*.cpp' 2>/dev/null | sort); do
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["clang++", "-std=c++17", "-Isrc", "-c", "%s"]}\n' \
      "$sep" "$repo" "$repo/$f" "$f"
    sep=","
  done
  echo "]"
} > "$build/compile_commands.json"

git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -qm "initial"

(cd "$repo" && tia index -q -p "$build")

# Real coverage: each test program linked with the sources, run once.
srcs=$(cd "$repo" && find src -name '*.cpp' | sort)
for t in $(cd "$repo" && find tests -name '*.cpp' 2>/dev/null | sort); do
  name=$(basename "$t" .cpp)
  out=$build/$name
  (cd "$repo" && "$clang" -x c++ -std=c++17 -Isrc -fprofile-instr-generate -fcoverage-mapping \
      $srcs "$t" -o "$out" -lstdc++)
  (cd "$repo" && LLVM_PROFILE_FILE="$out.profraw" "$out")
  "$tools/llvm-profdata" merge -sparse "$out.profraw" -o "$out.profdata"
  "$tools/llvm-cov" export -format=text -instr-profile="$out.profdata" "$out" > "$out.json"
  (cd "$repo" && tia coverage import -q --format llvm-cov-json --test "ctest:$name" "$out.json")
done
