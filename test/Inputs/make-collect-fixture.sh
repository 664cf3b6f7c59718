#!/usr/bin/env bash
# Builds the fixture of the collect lit tests, once per tia build:
# Inputs/collect copied to OUT/repo as a git repository, built with clang
# (OUT/repo/build-clang, every binary) and with g++ (OUT/repo/build-gcc, the
# listener binary and a plain test program), both through tia_add_coverage.
# Indexing it into OUT/index.db, which each test copies, is a separate build
# step that reruns whenever tia changes (a schema upgrade drops an index).
#
# With --clang-only, the gcc build is left out; with --gcc-targets=A,B (the
# frameworks fixture) it builds only those targets.
#
#   make-collect-fixture.sh SRC OUT TIA_PACKAGE_DIR CLANGXX GENERATOR
#                           [--clang-only | --gcc-targets=A,B,...]
set -euo pipefail
src=$1 out=$2 package=$3 clangxx=$4 generator=$5 only=${6:-}
repo=$out/repo

rm -rf "$out"
mkdir -p "$repo"
cp -r "$src/." "$repo/"
printf 'build-*/\n' > "$repo/.gitignore"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=fixture GIT_AUTHOR_EMAIL=fixture@tia.invalid
export GIT_COMMITTER_NAME=fixture GIT_COMMITTER_EMAIL=fixture@tia.invalid
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
git -C "$repo" init -q -b main
git -C "$repo" add -A
git -C "$repo" commit -qm fixture

build() { # DIR COMPILER TARGETS ARGS... (TARGETS: "" for all, or A,B)
  local dir=$1 cxx=$2 targets=$3
  shift 3
  cmake -G "$generator" -S "$repo" -B "$repo/$dir" -DCMAKE_CXX_COMPILER="$cxx" \
    -Dtia_DIR="$package" "$@" >"$out/$dir.log" 2>&1 ||
    { cat "$out/$dir.log"; exit 1; }
  cmake --build "$repo/$dir" -j 2 ${targets:+--target ${targets//,/ }} \
    >>"$out/$dir.log" 2>&1 || { cat "$out/$dir.log"; exit 1; }
}
build build-clang "$clangxx" ""
case "$only" in
--clang-only) ;;
--gcc-targets=*) build build-gcc g++ "${only#--gcc-targets=}" ;;
*) build build-gcc g++ "" -DSHAPES_ALL=OFF ;;
esac

touch "$out/stamp"
