#!/usr/bin/env bash
# Turns a split-file scenario into an indexed project with real coverage.
#
#   make-project.sh [--no-cache] DIR
#
# DIR/src/ holds the project's sources, DIR/tests/NAME.cpp one test program
# each (a main that returns non-zero on failure). Makes DIR/repo (a git
# repository with src/ and tests/, one commit), DIR/build/compile_commands.json,
# runs 'tia index', builds every test with clang's source-based coverage,
# runs it, and imports its coverage as test ctest:NAME.
#
# Building, running and exporting the test programs is most of the time of
# the tests that use this script, and most of them start from the same
# inputs (Inputs/math, shapes, order). So the programs, their profiles and
# their exported coverage are kept in $TIA_TEST_CACHE, keyed by the hash of
# this script, the compiler and the files of src/ and tests/; a test with
# the same inputs copies them and rewrites the repository path in the JSON,
# which then equals a fresh export. tia itself (index, import) always runs.
# The copied programs still name the first test's sources in their coverage
# mapping: a test that exports coverage from them with llvm-cov passes
# --no-cache.
set -euo pipefail
use_cache=1
if [ "${1:-}" = --no-cache ]; then use_cache=0; shift; fi
dir=$1
repo=$dir/repo
build=$dir/build
clang=${TIA_TEST_CLANG:?}
tools=${TIA_TEST_LLVM_TOOLS:?}
cache_root=${TIA_TEST_CACHE:-}
[ -n "$cache_root" ] || use_cache=0

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

srcs=$(cd "$repo" && find src -name '*.cpp' | sort)
tests=$(cd "$repo" && find tests -name '*.cpp' 2>/dev/null | sort)

# Each test program linked with the sources, run once, its coverage exported
# into $build/NAME.json; the program, profile and JSON are left in $build.
build_programs() {
  for t in $tests; do
    local name out
    name=${t##*/} name=${name%.cpp}
    out=$build/$name
    (cd "$repo" && "$clang" -x c++ -std=c++17 -Isrc -fprofile-instr-generate -fcoverage-mapping \
        $srcs "$t" -o "$out" -lstdc++)
    (cd "$repo" && LLVM_PROFILE_FILE="$out.profraw" "$out")
    "$tools/llvm-profdata" merge -sparse "$out.profraw" -o "$out.profdata"
    "$tools/llvm-cov" export -format=text -instr-profile="$out.profdata" "$out" > "$out.json"
  done
}

inputs_key() {
  {
    sha256sum "$0"
    # The compiler's version, asked once per lit run (lit.cfg.py).
    echo "${TIA_TEST_CLANG_VERSION:-$("$clang" --version)}"
    echo "$tools"
    local inputs=(src)
    [ -d "$repo/tests" ] && inputs+=(tests)
    [ -f "$repo/CMakeLists.txt" ] && inputs+=(CMakeLists.txt)
    (cd "$repo" && find "${inputs[@]}" -type f | LC_ALL=C sort | xargs -r sha256sum)
  } | sha256sum | cut -c1-32
}

# Fills the cache entry from this build; a concurrent test that filled it
# first wins (the rename fails, this copy goes).
store_in_cache() {
  local entry=$1 tmp
  mkdir -p "$cache_root"
  tmp=$(mktemp -d "$cache_root/.new.XXXXXX")
  (cd "$repo" && pwd -P) > "$tmp/repo-path"
  for t in $tests; do
    name=${t##*/} name=${name%.cpp}
    cp "$build/$name" "$build/$name".{profraw,profdata,json} "$tmp/"
  done
  mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
}

# Copies the entry's programs and profiles, and its JSON with the entry's
# repository path replaced by this one's (one Python for every file).
copy_from_cache() {
  local entry=$1 name jsons=()
  for t in $tests; do
    name=${t##*/} name=${name%.cpp}
    cp "$entry/$name" "$entry/$name.profraw" "$entry/$name.profdata" "$build/"
    jsons+=("$entry/$name.json" "$build/$name.json")
  done
  "${TIA_TEST_PYTHON:-python3}" -c '
import sys
old, new, files = sys.argv[1], sys.argv[2], sys.argv[3:]
for src, dst in zip(files[::2], files[1::2]):
    with open(src) as f: text = f.read()
    with open(dst, "w") as f: f.write(text.replace(old, new))
' "$(cat "$entry/repo-path")" "$(cd "$repo" && pwd -P)" "${jsons[@]}"
}

if [ "$use_cache" = 1 ] && [ -n "$tests" ]; then
  entry=$cache_root/$(inputs_key)
  if [ -f "$entry/repo-path" ]; then
    copy_from_cache "$entry"
  else
    build_programs
    store_in_cache "$entry"
  fi
else
  build_programs
fi

for t in $tests; do
  name=${t##*/} name=${name%.cpp}
  (cd "$repo" && tia coverage import -q --format llvm-cov-json --test "ctest:$name" "$build/$name.json")
done
