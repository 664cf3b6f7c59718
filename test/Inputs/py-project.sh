#!/usr/bin/env bash
# Makes DIR (a split-file scenario: a Python project with pytest tests) a
# git repository with one commit, indexes it, and collects per-test coverage
# with 'tia collect --pytest' using $TIA_TEST_PYTHON.
#
#   py-project.sh DIR
set -euo pipefail
dir=$1
"$(dirname "$0")/py-index.sh" "$dir" -q
cd "$dir" && tia collect -q --pytest --python "${TIA_TEST_PYTHON:-python3}"
