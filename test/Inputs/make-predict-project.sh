#!/usr/bin/env bash
# A generated history with test runs (utils/bench/gen-history.py --scenario
# directory: net's first test fails whenever net/src/ changes), indexed at
# its head, for select's predicted order:
#
#   make-predict-project.sh GEN_HISTORY_COMMAND OUT
#
# The repository is OUT/repo, its database OUT/repo/.tia/tia.db (runs and
# results loaded, C++ indexed, no coverage).
set -euo pipefail
gen=$1
out=$2
$gen --out "$out" --scenario directory --commits 40 --tests-per-module 2 \
  --files-per-module 2 --flaky-tests 0 --load "$out/repo/.tia/tia.db" > "$out.gen"
cd "$out/repo"
sources=$(git ls-files '*.cpp')
python3 "$(dirname "$0")/compdb.py" "$out/build" "$out/repo" -- $sources
tia index -q -p "$out/build"
