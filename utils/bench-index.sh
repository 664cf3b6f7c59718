#!/usr/bin/env bash
# Benchmark: `tia index` against `clang-19 -fsyntax-only` on the same
# translation units, both with the same parallelism, in one run.
#
#   utils/bench-index.sh BUILD_DIR [JOBS]
#
# BUILD_DIR holds compile_commands.json (for tia's own sources: build/).
# Prints wall times and the ratio tia/clang; a fresh database each time, and
# a second, incremental `tia index` (nothing changed) for the skip path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
jobs=${2:-2}
tia=${TIA:-$root/build/tools/tia/tia}
clang=${CLANG:-clang-19}
resource=$("$clang" -print-resource-dir)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One shell command per TU: the compile command with -fsyntax-only in place
# of the output, run from its directory.
python3 - "$build/compile_commands.json" "$clang" "$resource" > "$tmp/cmds" <<'PY'
import json, shlex, sys
db, clang, resource = sys.argv[1:4]
for e in json.load(open(db)):
    args = e.get("arguments") or shlex.split(e["command"])
    out, skip = [clang, "-resource-dir=" + resource], False
    for a in args[1:]:
        if skip: skip = False; continue
        if a == "-o": skip = True; continue
        if a in ("-c",): continue
        out.append(a)
    out.append("-fsyntax-only")
    print("cd %s && %s" % (shlex.quote(e["directory"]), " ".join(shlex.quote(a) for a in out)))
PY
n=$(wc -l < "$tmp/cmds")

now() { date +%s.%N; }
t0=$(now)
tr '\n' '\0' < "$tmp/cmds" | xargs -0 -P "$jobs" -I{} sh -c '{}' >/dev/null 2>&1
t1=$(now)
(cd "$root" && "$tia" --db "$tmp/bench.db" index -q -p "$build" --jobs "$jobs")
t2=$(now)
(cd "$root" && "$tia" --db "$tmp/bench.db" index -q -p "$build" --jobs "$jobs")
t3=$(now)

python3 - "$n" "$jobs" "$t0" "$t1" "$t2" "$t3" "$tmp/bench.db" <<'PY'
import os, sys
n, jobs = int(sys.argv[1]), int(sys.argv[2])
t0, t1, t2, t3 = map(float, sys.argv[3:7])
clang, tia, again = t1 - t0, t2 - t1, t3 - t2
print(f"translation units: {n}, jobs: {jobs}")
print(f"clang -fsyntax-only: {clang:.2f}s")
print(f"tia index (fresh):   {tia:.2f}s  ratio {tia / clang:.2f}x")
print(f"tia index (again):   {again:.2f}s  ratio {again / clang:.3f}x")
print(f"database: {os.path.getsize(sys.argv[7]) / 1024:.0f} KiB")
PY
