#!/usr/bin/env bash
# Makes DIR/repo, a git repository holding the lit suite "my.suite" (a
# passing, a failing and an unsupported test, and one in folder "v1.2"),
# and DIR/build, whose one ctest test runs the suite with the lit command
# given; then collects it, so that tia knows the suite's tests.
#
#   setup.sh DIR LIT...
set -euo pipefail
dir=$1
shift
rm -rf "$dir" && mkdir -p "$dir/build" "$dir/repo"
cp -r "$(dirname "$0")/suite" "$dir/repo/suite"
git -C "$dir/repo" init -q -b main
git -C "$dir/repo" add -A && git -C "$dir/repo" commit -qm one
echo '[]' > "$dir/build/compile_commands.json"
printf 'add_test(suite %s --param build=%s %s)\n' "$*" "$dir/build" \
  "$dir/repo/suite" > "$dir/build/CTestTestfile.cmake"
cd "$dir/repo"
tia -q index -p "$dir/build"
tia -q collect -p "$dir/build"
