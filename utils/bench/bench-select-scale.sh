#!/usr/bin/env bash
# Benchmark: `tia select` latency for a one-function change against a large
# coverage store, with two baselines measured in the same run.
#
#   utils/bench/bench-select-scale.sh WORK_DIR [TESTS [FILES [FUNCTIONS_PER_FILE [RUNS]]]]
#
# Generates a C++ project of FILES translation units with FUNCTIONS_PER_FILE
# functions each (default 200 x 500 = 100,000 functions) as a git
# repository, indexes it, imports per-test coverage for TESTS tests (default
# 40,000) over its functions with tia-bench-scale --into (the same generator
# as the scale benchmark), changes one function in the work tree and times
# `tia select --base HEAD`, median of RUNS (default 5). Baselines:
#   - `clang-19 -fsyntax-only` of the changed file (what parsing it costs);
#   - the same `tia select` against a copy of the store without coverage.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: bench-select-scale.sh WORK_DIR [TESTS [FILES [FUNCTIONS [RUNS]]]]}
tests=${2:-40000}
files=${3:-200}
per_file=${4:-500}
runs=${5:-5}
build=${BUILD:-$root/build}
tia=${TIA:-$build/tools/tia/tia}
scale=${TIA_BENCH_SCALE:-$build/bench/tia-bench-scale}
clang=${CLANG:-clang-19}
[ -x "$scale" ] || { echo "bench-select-scale: $scale is missing: build with Google Benchmark installed (utils/setup/install-deps.sh), target tia-bench-scale" >&2; exit 1; }

now() { date +%s.%N; }
rm -rf "$work"
mkdir -p "$work/proj/src" "$work/proj/build"
cd "$work/proj"
python3 - "$files" "$per_file" "$work/proj" "$clang" <<'PY'
import json, os, sys
files, per_file, proj, clang = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
db = []
for m in range(files):
    path = "src/m%d.cpp" % m
    with open(os.path.join(proj, path), "w") as f:
        f.write("namespace m%d {\n" % m)
        for k in range(per_file):
            prev = "f%d(x / 2)" % (k - 1) if k else "x"
            f.write("int f%d(int x) {\n  if (x < 2)\n    return x;\n"
                    "  return %s + %d;\n}\n" % (k, prev, k))
        f.write("} // namespace m%d\n" % m)
    db.append({"directory": os.path.join(proj, "build"),
               "file": os.path.join(proj, path),
               "arguments": ["clang++", "-std=c++17", "-c", "../" + path,
                             "-o", "m%d.o" % m]})
json.dump(db, open(os.path.join(proj, "build", "compile_commands.json"), "w"))
PY
printf '/build/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name=bench -c user.email=bench@tia.invalid commit -qm "generated project"

t0=$(now)
"$tia" index -q -p build
t1=$(now)
cp .tia/tia.db "$work/index-only.db"
"$scale" --into .tia/tia.db "$tests" --commit "$(git rev-parse HEAD)" > "$work/import.txt"

# One function changed in the work tree.
changed=src/m$((files / 2)).cpp
fn=$((per_file / 2))
python3 - "$changed" "$fn" <<'PY'
import sys
path, k = sys.argv[1], int(sys.argv[2])
text = open(path).read()
old = "  return f%d(x / 2) + %d;\n" % (k - 1, k)
assert old in text, old
open(path, "w").write(text.replace(old, "  return f%d(x / 2) - %d;\n" % (k - 1, k), 1))
PY

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
time_cmd() {  # appends "WALL CPU" of "$@" (seconds; CPU = user + system)
  # tia select exits 3 when it selects every test; only the time counts.
  local out=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time.tmp" "$@" > /dev/null || true
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/time.tmp" >> "$out"
}
: > "$work/large.t"; : > "$work/empty.t"; : > "$work/clang.t"
for _ in $(seq "$runs"); do
  time_cmd "$work/large.t" "$tia" --db .tia/tia.db select --base HEAD -q
  time_cmd "$work/empty.t" "$tia" --db "$work/index-only.db" select --base HEAD -q
  time_cmd "$work/clang.t" sh -c "cd build && $clang -std=c++17 -fsyntax-only ../$changed"
done
selected=$({ "$tia" --db .tia/tia.db select --base HEAD -q --format ids || true; } | wc -l)
wall() { cut -d' ' -f1 < "$1" | median; }
cpu() { cut -d' ' -f2 < "$1" | median; }
large=$(wall "$work/large.t"); empty=$(wall "$work/empty.t"); cl=$(wall "$work/clang.t")
large_cpu=$(cpu "$work/large.t"); empty_cpu=$(cpu "$work/empty.t"); cl_cpu=$(cpu "$work/clang.t")
python3 - "$tests" "$files" "$per_file" "$runs" "$t0" "$t1" "$large" "$empty" "$cl" "$selected" "$work/import.txt" .tia/tia.db "$large_cpu" "$empty_cpu" "$cl_cpu" <<'PY'
import os, sys
tests, files, per_file, runs = map(int, sys.argv[1:5])
t0, t1, large, empty, clang = map(float, sys.argv[5:10])
selected = int(sys.argv[10])
large_cpu, empty_cpu, clang_cpu = map(float, sys.argv[13:16])
imp = dict(l.split(": ", 1) for l in open(sys.argv[11]).read().splitlines() if ": " in l)
print(f"project: {files} files x {per_file} functions, {tests} tests "
      f"({imp.get('links', '?')} coverage links)")
print(f"tia index: {t1 - t0:.1f} s; coverage import: {imp.get('store import', '?')}; "
      f"database: {os.path.getsize(sys.argv[12]) / 2**20:.0f} MiB")
print(f"one-function change, median of {runs} (wall; CPU): tia select "
      f"{large:.3f} s; {large_cpu:.2f} s, selected {selected} tests")
print(f"  vs the same select without coverage: {empty:.3f} s; {empty_cpu:.2f} s, "
      f"ratio {large / empty:.2f}x; CPU {large_cpu / empty_cpu:.2f}x")
print(f"  vs clang -fsyntax-only of the file:   {clang:.3f} s; {clang_cpu:.2f} s, "
      f"ratio {large / clang:.2f}x; CPU {large_cpu / clang_cpu:.2f}x")
PY
