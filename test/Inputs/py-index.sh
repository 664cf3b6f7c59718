#!/usr/bin/env bash
# Makes DIR (a split-file scenario of Python files) a git repository with
# one commit and runs 'tia index' in it with the extra arguments given.
#
#   py-index.sh DIR [ARG...]
set -euo pipefail
dir=$1
shift
git -C "$dir" init -q -b main
git -C "$dir" add -A
git -C "$dir" commit -qm "initial"
cd "$dir" && tia index "$@"
