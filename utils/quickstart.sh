#!/usr/bin/env bash
# tia's main job on the bundled examples, from a fresh machine:
# install, build tia, build examples/calc with coverage, index it, collect
# per-test coverage, make a change in a scratch copy, and select the tests;
# then the same for the Python package examples/textkit with pytest.
#
#   utils/quickstart.sh [WORK_DIR]     (default: a new temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tia-quickstart.XXXXXX")}

echo "== build tia"
"$root/utils/build.sh" "$root/build"
tia=$root/build/tools/tia/tia

echo "== a scratch copy of examples/calc in $work/calc, as a git repository"
rm -rf "$work/calc" "$work/coverage"
mkdir -p "$work"
cp -r "$root/examples/calc" "$work/calc"
cd "$work/calc"
printf '/build/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name=quickstart -c user.email=quickstart@tia.invalid commit -qm "calc"

echo "== build calc with clang's source-based coverage"
cmake -G Ninja -S . -B build -DCMAKE_CXX_COMPILER=clang++-19 -DCALC_COVERAGE=ON >/dev/null
ninja -C build -j2 >/dev/null

echo "== index"
"$tia" index -p build

echo "== per-test coverage"
"$root/utils/example-coverage.sh" build "$work/coverage" >/dev/null
for f in "$work"/coverage/*.json; do
  name=$(basename "$f" .json)          # <binary>__<Suite.Name>
  "$tia" coverage import -q --format llvm-cov-json --test "gtest:${name%%__*}:${name#*__}" "$f"
done
"$tia" dump tests | sed 's/^/  /'

echo "== change Vector::length() and select"
sed -i 's|double Vector::length() const { return std::hypot(X, Y); }|double Vector::length() const { return std::sqrt(X * X + Y * Y); }|' src/geometry.cpp
git diff --stat
"$tia" select --base HEAD --explain

echo "== a scratch copy of examples/textkit (Python, pytest) in $work/textkit"
rm -rf "$work/textkit"
cp -r "$root/examples/textkit" "$work/textkit"
cd "$work/textkit"
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name=quickstart -c user.email=quickstart@tia.invalid commit -qm "textkit"

echo "== index and collect per-test coverage with pytest"
"$tia" index
"$tia" collect --pytest
"$tia" dump tests | sed 's/^/  /'

echo "== change slugify() and select"
sed -i 's|    return separator.join(w for w in words if w)|    return separator.join(filter(None, words))|' src/textkit/slug.py
git diff --stat
"$tia" select --base HEAD --explain
