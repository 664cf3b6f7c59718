#!/usr/bin/env bash
# tia's main job on the bundled examples, from a fresh machine:
# install the dependencies, build and install tia, build examples/calc for
# coverage with tia's CMake helper, index it, collect per-test coverage,
# make a change in a scratch copy, and select the tests; then the same for
# the Python package examples/textkit with pytest, and for examples/geomkit,
# whose Python tests call its C++ through a pybind11 module and a program.
#
#   utils/setup/quickstart.sh [WORK_DIR]     (default: a new temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tia-quickstart.XXXXXX")}

echo "== build tia, install it into $work/tia"
"$root/utils/setup/build.sh" "$root/build"
cmake --install "$root/build" --prefix "$work/tia" >/dev/null
tia=$work/tia/bin/tia

echo "== a scratch copy of examples/calc in $work/calc, as a git repository"
rm -rf "$work/calc"
mkdir -p "$work"
cp -r "$root/examples/calc" "$work/calc"
cd "$work/calc"
printf '/build/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name=quickstart -c user.email=quickstart@tia.invalid commit -qm "calc"

echo "== build calc for coverage (clang, tia_add_coverage from the installed tia)"
cmake --preset coverage-clang -DCMAKE_PREFIX_PATH="$work/tia" >/dev/null
ninja -C build -j2

echo "== index"
"$tia" index -p build

echo "== run every test with its own coverage"
"$tia" collect -p build
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

echo "== a scratch copy of examples/geomkit (C++ library, pybind11 module, program; GoogleTest and pytest) in $work/geomkit"
rm -rf "$work/geomkit"
cp -r "$root/examples/geomkit" "$work/geomkit"
cd "$work/geomkit"
printf '/build/\n__pycache__/\n.pytest_cache/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name=quickstart -c user.email=quickstart@tia.invalid commit -qm "geomkit"
# The module is built for the Python that runs the tests.
python=$(command -v /usr/bin/python3 || command -v python3)

echo "== build geomkit for coverage, index, collect the C++ and the Python tests"
cmake --preset coverage-clang -DCMAKE_PREFIX_PATH="$work/tia" \
  -DPython3_EXECUTABLE="$python" >/dev/null
ninja -C build -j2
"$tia" index -p build
"$tia" collect -p build
"$tia" collect --pytest -p build --python "$python"
"$tia" dump tests | sed 's/^/  /'

echo "== change geom::perimeter() (C++) and select: its GoogleTest case, and the Python test that calls it through _geom"
sed -i 's|double perimeter(double W, double H) { return 2 \* (W + H); }|double perimeter(double W, double H) { return (W + H) * 2; }|' src/geom.cpp
git diff --stat
"$tia" select --base HEAD --explain
