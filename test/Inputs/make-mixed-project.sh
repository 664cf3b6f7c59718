#!/usr/bin/env bash
# The math project of make-project.sh with tests of every runner: its real
# per-test coverage is also recorded under GoogleTest and pytest ids, as a
# project that runs the same checks three ways would have it.
#
#   make-mixed-project.sh DIR
#
# Tests: ctest:test_add, ctest:test_mul, ctest:test_square,
# gtest:math_test:Math.Add, gtest:math_test:Math.Square,
# pytest:tests/test_math.py::test_add.
set -euo pipefail
dir=$1
cp -r "$(dirname "$0")/math/." "$dir"
"$(dirname "$0")/make-project.sh" "$dir"
cd "$dir/repo"
tia coverage import -q --format llvm-cov-json --test gtest:math_test:Math.Add "$dir/build/test_add.json"
tia coverage import -q --format llvm-cov-json --test gtest:math_test:Math.Square "$dir/build/test_square.json"
tia coverage import -q --format llvm-cov-json --test "pytest:tests/test_math.py::test_add" "$dir/build/test_add.json"
