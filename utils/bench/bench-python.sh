#!/usr/bin/env bash
# Benchmark: tia's Python extractor against plain `ast.parse` of the same
# files by the same embedded Python, in one run.
#
#   utils/bench/bench-python.sh [DIR] [ROUNDS]
#
# DIR defaults to the standard library of the embedded Python
# (/usr/lib/python3.11, several hundred thousand lines). Needs a build with
# bench/ (utils/setup/build.sh builds it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-/usr/lib/python3.11}
rounds=${2:-3}
bench=${TIA_PYTHON_BENCH:-$root/build/bench/tia-python-bench}
"$bench" "$dir" "$rounds"
