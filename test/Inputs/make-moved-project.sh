#!/usr/bin/env bash
# Builds a C++ project in one checkout and clones it to another, for the
# tests of a database that moves between checkouts.
#
#   make-moved-project.sh SRC DIR [FLAG...]
#
# DIR/a/repo: a git repository of SRC's src/ and tests/ (as make-project.sh
# takes them), configured as CMake does it in DIR/a/repo/build: every
# compile command runs in the build directory with absolute paths (and the
# FLAGs). It is indexed into DIR/a/tia.db, and each tests/NAME.cpp, built
# with clang's coverage and run, gives the coverage of test ctest:NAME.
# DIR/b/clone: a git clone of it configured in DIR/b/clone/out (another
# name), and DIR/b/tia.db, a copy of the database.
set -euo pipefail
src=$1 dir=$2
shift 2
clang=${TIA_TEST_CLANG:?}
tools=${TIA_TEST_LLVM_TOOLS:?}

configure() { # REPO BUILD FLAG...: writes BUILD/compile_commands.json
  local repo=$1 build=$2
  shift 2
  local extra=""
  for flag in "$@"; do extra+="\"$flag\", "; done
  mkdir -p "$build"
  {
    echo "["
    local sep=""
    for f in $(cd "$repo" && find src tests -name '*.cpp' | sort); do
      printf '%s{"directory": "%s", "file": "%s", "arguments": ["clang++", "-std=c++17", "-I%s/src", %s"-o", "CMakeFiles/%s.o", "-c", "%s"]}\n' \
        "$sep" "$build" "$repo/$f" "$repo" "$extra" "$(basename "$f" .cpp)" "$repo/$f"
      sep=","
    done
    echo "]"
  } > "$build/compile_commands.json"
}

repo=$dir/a/repo
build=$repo/build
mkdir -p "$repo"
cp -r "$src/src" "$src/tests" "$repo/"
printf 'build/\nout/\n' > "$repo/.gitignore"
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -qm "initial"
configure "$repo" "$build" "$@"
(cd "$repo" && tia --db "$dir/a/tia.db" index -q -p build)

srcs=$(cd "$repo" && find src -name '*.cpp' | sort)
for t in $(cd "$repo" && find tests -name '*.cpp' | sort); do
  name=$(basename "$t" .cpp)
  out=$build/$name
  (cd "$repo" && "$clang" -x c++ -std=c++17 -Isrc "$@" -fprofile-instr-generate \
      -fcoverage-mapping $srcs "$t" -o "$out" -lstdc++)
  (cd "$repo" && LLVM_PROFILE_FILE="$out.profraw" "$out")
  "$tools/llvm-profdata" merge -sparse "$out.profraw" -o "$out.profdata"
  "$tools/llvm-cov" export -format=text -instr-profile="$out.profdata" "$out" > "$out.json"
  (cd "$repo" && tia --db "$dir/a/tia.db" coverage import -q --format llvm-cov-json \
      --test "ctest:$name" "$out.json")
done

mkdir -p "$dir/b"
git clone -q "$repo" "$dir/b/clone"
configure "$dir/b/clone" "$dir/b/clone/out" "$@"
cp "$dir/a/tia.db" "$dir/b/tia.db"
