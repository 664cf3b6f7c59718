#!/usr/bin/env bash
# Turns a split-file scenario into an indexed project without coverage:
# the tests are known only from their GoogleTest definitions, so static
# selection decides them.
#
#   make-static-project.sh DIR
#
# DIR/src/ holds the project's sources, DIR/tests/ its GoogleTest files.
# Makes DIR/repo (a git repository with src/ and tests/, one commit),
# DIR/build/compile_commands.json (every .cpp, -Isrc) and runs 'tia index'.
set -euo pipefail
dir=$1
repo=$dir/repo
build=$dir/build
mkdir -p "$repo" "$build"
cp -r "$dir/src" "$repo/src"
cp -r "$dir/tests" "$repo/tests"
[ -f "$dir/.tia.yaml" ] && cp "$dir/.tia.yaml" "$repo/"
python3 "$(dirname "$0")/compdb.py" "$build" "$repo" -Isrc -- \
  $(cd "$repo" && find src tests -name '*.cpp' | sort)
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -qm "initial"
(cd "$repo" && tia index -q -p "$build")
