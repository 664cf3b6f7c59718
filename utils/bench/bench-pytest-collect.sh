#!/usr/bin/env bash
# What `tia collect --pytest` costs, for two builds of tia in one run (the
# first the baseline): CPU time (user + system, tia and every process it
# waits for) and wall time, the median of RUNS runs each, taken in turns,
# with the ratio of the second to the first. Two projects: examples/textkit
# (3 test files, some starting processes of their own) and a generated one
# of FILES small test files (the per-process cost of pytest itself).
#
#   utils/bench/bench-pytest-collect.sh BASE_TIA NEW_TIA [RUNS] [FILES]
set -euo pipefail
base=$(realpath "$1") new=$(realpath "$2")
runs=${3:-5} files=${4:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_repo() { # DIR: a git repository with one commit, indexed into base.db
  git -C "$1" init -q -b main
  printf '__pycache__/\n.pytest_cache/\n' > "$1/.gitignore"
  git -C "$1" add -A
  git -C "$1" -c user.name=bench -c user.email=bench@example.com commit -qm base
  (cd "$1" && "$new" --db "$1/base.db" index -q)
}

cp -r "$root/examples/textkit" "$work/textkit"
rm -rf "$work/textkit/.tia"
make_repo "$work/textkit"

mkdir -p "$work/many/tests"
printf 'def double(x):\n    return 2 * x\n' > "$work/many/lib.py"
for i in $(seq "$files"); do
  printf 'from lib import double\n\n\ndef test_one():\n    assert double(%d) == %d\n\n\ndef test_two():\n    assert double(-%d) == -%d\n' \
    "$i" $((2 * i)) "$i" $((2 * i)) > "$work/many/tests/test_$i.py"
done
make_repo "$work/many"

# One collect: "CPU WALL" in seconds.
collect() { # TIA PROJECT
  cp "$2/base.db" "$2/run.db"
  (cd "$2" && /usr/bin/time -f "%U %S %e" -o "$work/time" \
    "$1" --db "$2/run.db" collect -q --pytest --python "$python" >/dev/null)
  awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$work/time"
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

printf '| project | base CPU s | new CPU s | CPU ratio | base wall s | new wall s | wall ratio |\n'
printf '|---|--:|--:|--:|--:|--:|--:|\n'
for project in textkit many; do
  : > "$work/base" && : > "$work/new"
  for _ in $(seq "$runs"); do
    collect "$base" "$work/$project" >> "$work/base"
    collect "$new" "$work/$project" >> "$work/new"
  done
  bc=$(cut -d' ' -f1 "$work/base" | median) nc=$(cut -d' ' -f1 "$work/new" | median)
  bw=$(cut -d' ' -f2 "$work/base" | median) nw=$(cut -d' ' -f2 "$work/new" | median)
  name=$project
  [ "$project" = many ] && name="$files test files"
  awk -v n="$name" -v bc="$bc" -v nc="$nc" -v bw="$bw" -v nw="$nw" 'BEGIN {
    printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", n, bc, nc, nc / bc, bw, nw, nw / bw }'
done
