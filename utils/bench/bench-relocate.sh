#!/usr/bin/env bash
# Selection from a database moved to another checkout against the same
# selection where the database was built (docs/Benchmarks.md, "A moved
# database").
#
#   utils/bench/bench-relocate.sh TIA_BUILD [RUNS]
#
# examples/calc in WORK/a/calc, built for coverage in its build/ with the
# CMake package of TIA_BUILD, indexed and collected. A git clone of it in
# WORK/b/clone, only configured, into out/ (its compile_commands.json), with
# a copy of the database. Then, RUNS
# times each, in place and in the clone: `tia index -p DIR` (nothing to
# parse in either), and after one committed change (Vector::length, the
# same in both) `tia select --base HEAD~1 -p DIR`. Prints the CPU time
# (user + system) and wall time of each run, the medians and the ratio of
# the median CPU times, and checks that both places select the same tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: bench-relocate.sh TIA_BUILD [RUNS]}" && pwd)
runs=${2:-5}
tia=$build/tools/tia/tia
work=$(mktemp -d "${TMPDIR:-/tmp}/tia-bench-relocate.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@tia.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@tia.invalid
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

configure() { # SOURCE BUILD_DIR
  cmake -G Ninja -S "$1" -B "$2" -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCALC_COVERAGE=ON -Dtia_DIR="$build/cmake/tia" >/dev/null
}

here=$work/a/calc there=$work/b/clone
mkdir -p "$work/a" "$work/b"
cp -r "$root/examples/calc" "$here"
printf 'build/\nout/\n' > "$here/.gitignore"
git -C "$here" init -q -b main
git -C "$here" add -A
git -C "$here" commit -qm calc
configure "$here" "$here/build"
ninja -C "$here/build" -j2 >/dev/null
(cd "$here" && "$tia" --db "$work/a/tia.db" index -q -p build &&
  "$tia" --db "$work/a/tia.db" collect -q -p build)
git clone -q "$here" "$there"
configure "$there" "$there/out"
cp "$work/a/tia.db" "$work/b/tia.db"
# median NUMBER... -> the median
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# measure LABEL DIR DB COMMAND...: RUNS runs of tia COMMAND in DIR
measure() {
  local label=$1 dir=$2 db=$3 cpu=() wall=() t
  shift 3
  for _ in $(seq "$runs"); do
    t=$( { TIMEFORMAT='%U %S %R'; time (cd "$dir" && "$tia" --db "$db" "$@" >/dev/null 2>&1); } 2>&1 )
    read -r user sys real <<<"$t"
    cpu+=("$(echo "$user + $sys" | bc)")
    wall+=("$real")
  done
  echo "$label: cpu ${cpu[*]} (median $(median "${cpu[@]}") s); wall ${wall[*]} (median $(median "${wall[@]}") s)"
  last_cpu=$(median "${cpu[@]}")
}
ratio() { echo "scale=2; $1 / $2" | bc; }

compare() { # TIA_ARGS...: in place against moved
  measure "tia $*, in place (build/)" "$here" "$work/a/tia.db" "$@" -p build
  local in_place=$last_cpu
  measure "tia $*, moved (clone, out/)" "$there" "$work/b/tia.db" "$@" -p out
  echo "ratio moved / in place (CPU): $(ratio "$last_cpu" "$in_place")"
}

compare index -q
for repo in "$here" "$there"; do
  sed -i 's|double Vector::length() const { return std::hypot(X, Y); }|double Vector::length() const { return std::sqrt(X * X + Y * Y); }|' \
    "$repo/src/geometry.cpp"
  git -C "$repo" commit -qam "length without hypot"
done
compare select --base HEAD~1 -q

a=$(cd "$here" && "$tia" --db "$work/a/tia.db" select --base HEAD~1 -p build 2>&1)
b=$(cd "$there" && "$tia" --db "$work/b/tia.db" select --base HEAD~1 -p out 2>&1)
if [ "$a" = "$b" ]; then
  echo "same selection in both places:"
  echo "$b" | sed 's/^/  /'
else
  echo "the selections differ:"
  diff <(echo "$a") <(echo "$b") || true
  exit 1
fi
