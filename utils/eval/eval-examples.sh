#!/usr/bin/env bash
# tia eval replay and tia eval mutants on the bundled examples, with the
# scripted histories of the lit tests (test/Inputs/eval-history.sh): a
# comment-only commit, a changed function (textkit) or header (calc), and a
# change that breaks a test. Prints the Markdown reports docs/Benchmarks.md
# shows.
#
#   utils/eval/eval-examples.sh [TIA] [WORK_DIR]   (default: build/tools/tia/tia,
#                                              a new temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tia=$(realpath "${1:-$root/build/tools/tia/tia}")
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/tia-eval-examples.XXXXXX")}
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=eval GIT_AUTHOR_EMAIL=eval@tia.invalid
export GIT_COMMITTER_NAME=eval GIT_COMMITTER_EMAIL=eval@tia.invalid
mkdir -p "$work"
build='cmake -S . -B build -G Ninja -DCALC_COVERAGE=ON -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null && ninja -C build >/dev/null'

bash "$root/test/Inputs/eval-history.sh" calc "$root/examples" "$work/calc"
bash "$root/test/Inputs/eval-history.sh" textkit "$root/examples" "$work/textkit"

echo "### examples/calc (C++, GoogleTest through ctest)"
echo
(cd "$work/calc" && "$tia" eval replay --commits HEAD~3..HEAD --build "$build" \
  --test-cmd 'ctest --test-dir build -j2')
echo
echo "### examples/textkit (Python, pytest)"
echo
(cd "$work/textkit" && "$tia" eval replay --commits HEAD~3..HEAD --pytest \
  --test-cmd 'python3 -m pytest -q -p no:cacheprovider')
echo
echo "### mutants, examples/calc at the base commit"
echo
(cd "$work/calc" && git checkout -q HEAD~3 && "$tia" eval mutants --count 10 --build "$build")
echo
echo "### mutants, examples/textkit at the base commit"
echo
(cd "$work/textkit" && git checkout -q HEAD~3 && "$tia" eval mutants --count 10 --pytest)
