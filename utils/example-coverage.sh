#!/usr/bin/env bash
# Runs every GoogleTest case of a coverage build alone and exports what it
# covered as llvm-cov JSON, one file per case:
#   OUT_DIR/<binary>__<Suite.Name>.json    ('/' in a name is written as %2F)
#
# usage: utils/example-coverage.sh BUILD_DIR OUT_DIR
#
# BUILD_DIR is a build of examples/calc (or any GoogleTest project) configured
# with -DCMAKE_CXX_COMPILER=clang++-19 -DCALC_COVERAGE=ON, that is with
# -fprofile-instr-generate -fcoverage-mapping. Test binaries are the
# executables named *_test or *_tests under BUILD_DIR/tests, or under BUILD_DIR
# when it has no tests folder. Previous exports of the same binaries in OUT_DIR
# are replaced.
set -euo pipefail

die() {
  echo "example-coverage: $*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: example-coverage.sh BUILD_DIR OUT_DIR"
[ -d "$1" ] || die "build directory $1 does not exist; configure and build examples/calc first"
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)

# Prints the path of LLVM 19's tool $1, from PATH or from LLVM's own bin folder.
find_tool() {
  if command -v "$1-19" >/dev/null; then
    command -v "$1-19"
  elif [ -x "/usr/lib/llvm-19/bin/$1" ]; then
    echo "/usr/lib/llvm-19/bin/$1"
  else
    die "cannot find $1-19 or /usr/lib/llvm-19/bin/$1; install llvm-19 (utils/install-deps.sh)"
  fi
}
profdata=$(find_tool llvm-profdata)
cov=$(find_tool llvm-cov)

search="$build"
[ -d "$build/tests" ] && search="$build/tests"
mapfile -t binaries < <(find "$search" -path '*/CMakeFiles' -prune -o -type f -perm -u+x \
  \( -name '*_test' -o -name '*_tests' \) -print | sort)
[ ${#binaries[@]} -gt 0 ] || die "no test binaries (*_test, *_tests) under $search; build the tests first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exported=0
for binary in "${binaries[@]}"; do
  name=$(basename "$binary")
  dir=$(dirname "$binary")

  # Listing runs the instrumented binary too, which shows whether it has any.
  list_profile="$tmp/$name.list.profraw"
  listing=$(cd "$dir" && LLVM_PROFILE_FILE="$list_profile" "$binary" --gtest_list_tests) ||
    die "$binary --gtest_list_tests failed; run it by hand to see why"
  [ -s "$list_profile" ] ||
    die "$binary has no coverage; configure with -DCMAKE_CXX_COMPILER=clang++-19 -DCALC_COVERAGE=ON and rebuild"

  # The listing is "Suite." lines followed by "  Name" lines; typed and
  # parameterized ones end in "  # TypeParam = ..." or "  # GetParam() = ...".
  cases=()
  suite=""
  while IFS= read -r line; do
    line=${line%%#*}
    line=${line%"${line##*[![:space:]]}"}
    [ -n "$line" ] || continue
    if [[ $line != [[:space:]]* ]]; then
      # Anything else unindented (such as gtest_main's banner) is not a suite.
      suite=""
      [[ $line == *. ]] && suite=${line%.}
      continue
    fi
    test=${line#"${line%%[![:space:]]*}"}
    [ -n "$suite" ] || continue
    # A filter alone does not run disabled tests.
    [[ $suite == DISABLED_* || $suite == */DISABLED_* || $test == DISABLED_* ]] && continue
    cases+=("$suite.$test")
  done <<<"$listing"
  [ ${#cases[@]} -gt 0 ] || die "$binary lists no test cases"

  rm -f "$out/${name}__"*.json
  for case in "${cases[@]}"; do
    profile="$tmp/$name.$exported.profraw"
    if ! output=$(cd "$dir" && LLVM_PROFILE_FILE="$profile" "$binary" --gtest_filter="$case" 2>&1); then
      printf '%s\n' "$output" >&2
      die "$name: $case failed; fix the test before collecting coverage"
    fi
    grep -Eq '^\[  (PASSED  |SKIPPED )\] 1 test' <<<"$output" ||
      die "$name: --gtest_filter=$case did not run exactly one test"
    [ -s "$profile" ] || die "$name: $case wrote no coverage profile to $profile"

    "$profdata" merge -sparse -o "$tmp/$name.profdata" "$profile" ||
      die "$name: $case: llvm-profdata could not merge $profile"
    json="$out/${name}__${case//\//%2F}.json"
    "$cov" export -format=text -instr-profile="$tmp/$name.profdata" "$binary" >"$json" ||
      die "$name: $case: llvm-cov could not export the coverage of $binary"
    echo "gtest:$name:$case -> $json"
    exported=$((exported + 1))
  done
done

echo "exported $exported per-test coverage files to $out"
