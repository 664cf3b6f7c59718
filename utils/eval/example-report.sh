#!/usr/bin/env bash
# Regenerates docs/examples/report.md, the pull request comment tia writes
# for a change to examples/calc, from real per-test coverage and real test
# results, and docs/examples/findings.sarif, the same change's findings.
#
#   utils/eval/example-report.sh [WORK_DIR]     (default: a new temporary folder)
#
# It builds and installs tia, builds examples/calc for per-test coverage
# (clang, tia's CMake helper) in a scratch git repository whose commits have
# fixed authors and dates, so that the report comes out the same on every
# machine; indexes and collects on main (coverage and outcomes of every
# test); then, on a branch, changes Vector::length(), Vector::dot() (which
# no test covers) and adds a test, and writes `tia select --format markdown`
# for that branch.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tia-report.XXXXXX")}
out=$root/docs/examples/report.md

"$root/utils/setup/build.sh" "$root/build" >/dev/null
cmake --install "$root/build" --prefix "$work/tia" >/dev/null
tia=$work/tia/bin/tia

export GIT_AUTHOR_NAME=example GIT_AUTHOR_EMAIL=example@tia.invalid
export GIT_COMMITTER_NAME=example GIT_COMMITTER_EMAIL=example@tia.invalid
export GIT_AUTHOR_DATE=2026-01-05T09:00:00Z GIT_COMMITTER_DATE=2026-01-05T09:00:00Z
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

rm -rf "$work/calc"
mkdir -p "$work"
cp -r "$root/examples/calc" "$work/calc"
cd "$work/calc"
printf '/build/\n' > .gitignore
git init -q -b main
git add -A
git commit -qm "calc"

echo "== build examples/calc for coverage"
cmake --preset coverage-clang -DCMAKE_PREFIX_PATH="$work/tia" >/dev/null
ninja -C build -j2 >/dev/null

echo "== main: index, collect per-test coverage and outcomes"
"$tia" index -q -p build
"$tia" collect -q -p build

echo "== a branch: change length() and dot(), add a test"
export GIT_AUTHOR_DATE=2026-01-06T10:00:00Z GIT_COMMITTER_DATE=2026-01-06T10:00:00Z
git checkout -q -b faster-length
sed -i 's|double Vector::length() const { return std::hypot(X, Y); }|double Vector::length() const { return std::sqrt(X * X + Y * Y); }|' src/geometry.cpp
sed -i 's|  return X \* Other.X + Y \* Other.Y;|  return Other.X * X + Other.Y * Y;|' src/geometry.cpp
cat >> tests/geometry_test.cpp <<'TEST'

namespace {
TEST(VectorTest, LengthOfUnitVectors) {
  EXPECT_DOUBLE_EQ(calc::Vector(1, 0).length(), 1.0);
  EXPECT_DOUBLE_EQ(calc::Vector(0, 1).length(), 1.0);
}
} // namespace
TEST
git commit -qam "Vector::length() without std::hypot"

mkdir -p "$(dirname "$out")"
{
  echo "<!-- Written by utils/eval/example-report.sh: tia select --base main --head faster-length --format markdown, for a change to examples/calc. Rerun the script to regenerate it. -->"
  echo
  "$tia" select -q --base main --head faster-length --format markdown
} > "$out"
echo "== wrote $out"
# The same change's findings as code scanning gets them, with the scratch
# folder's path replaced by the one a GitHub runner checks out to.
sarif=$root/docs/examples/findings.sarif
"$tia" select -q --base main --head faster-length --format sarif |
  sed "s|file://$work/calc/|file:///home/runner/work/calc/calc/|" > "$sarif"
echo "== wrote $sarif"
"$tia" select --base main --head faster-length --explain
