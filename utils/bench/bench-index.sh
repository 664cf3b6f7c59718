#!/usr/bin/env bash
# Benchmark: `tia index` against `clang-19 -fsyntax-only` on the same
# translation units, both with the same parallelism, in one run.
#
#   utils/bench/bench-index.sh BUILD_DIR [JOBS]
#   FILTER=REGEX utils/bench/bench-index.sh ...   only the translation units whose
#                                          path matches REGEX (Python re)
#
# BUILD_DIR holds compile_commands.json (for tia's own sources: build/).
# Prints wall times and the ratio tia/clang; a fresh database each time, and
# a second, incremental `tia index` (nothing changed) for the skip path; then
# one source file changed (a function appended to ONE_FILE, default the
# first translation unit of lib/Support; restored afterwards) and re-indexed,
# against `clang-19 -fsyntax-only` of that translation unit alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
jobs=${2:-2}
tia=${TIA:-$root/build/tools/tia/tia}
clang=${CLANG:-clang-19}
resource=$("$clang" -print-resource-dir)
tmp=$(mktemp -d)
one=${ONE_FILE:-}
restore() {
  if [ -n "$one" ] && [ -f "$tmp/one.orig" ]; then cp "$tmp/one.orig" "$one"; fi
  rm -rf "$tmp"
}
trap restore EXIT

# One shell command per TU: the compile command with -fsyntax-only in place
# of the output, run from its directory; and the compilation database of
# the same TUs for tia.
mkdir -p "$tmp/cdb"
python3 - "$build/compile_commands.json" "$clang" "$resource" "${FILTER:-}" "$tmp/cdb/compile_commands.json" > "$tmp/cmds" <<'PY'
import json, re, shlex, sys
db, clang, resource, pattern, out_db = sys.argv[1:6]
entries = [e for e in json.load(open(db))
           if not pattern or re.search(pattern, e["file"])]
json.dump(entries, open(out_db, "w"))
for e in entries:
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

# measure NAME CMD...: runs CMD, appends "NAME WALL CPU" to $tmp/times (CPU:
# user + system of CMD and everything it waited for, which moves less than
# the wall time when other processes share the machine).
measure() {
  local name=$1; shift
  python3 - "$name" "$@" >> "$tmp/times" <<'PY'
import resource, subprocess, sys, time
t = time.time()
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(sys.argv[1], time.time() - t, r.ru_utime + r.ru_stime)
PY
}
: > "$tmp/times"
measure clang sh -c "tr '\\n' '\\0' < '$tmp/cmds' | xargs -0 -P '$jobs' -I{} sh -c '{}'"
measure fresh sh -c "cd '$root' && '$tia' --db '$tmp/bench.db' index -q -p '$tmp/cdb' --jobs '$jobs'"
measure again sh -c "cd '$root' && '$tia' --db '$tmp/bench.db' index -q -p '$tmp/cdb' --jobs '$jobs'"

# One file changed: the TU's own clang command, then tia on the whole set.
[ -n "$one" ] || one=$(grep -o "[^ ']*/lib/Support/[^ ']*\.cpp" "$tmp/cmds" | head -1)
one=$(cd "$(dirname "$one")" && pwd)/$(basename "$one")
cp "$one" "$tmp/one.orig"
printf '\nnamespace {\n[[maybe_unused]] int tiaBenchOneFileChange() { return 1; }\n} // namespace\n' >> "$one"
onecmd=$(grep -F -- "$one" "$tmp/cmds" | head -1)
measure oneclang sh -c "$onecmd"
measure onetia sh -c "cd '$root' && '$tia' --db '$tmp/bench.db' index -q -p '$tmp/cdb' --jobs '$jobs'"
cp "$tmp/one.orig" "$one"

python3 - "$n" "$jobs" "$tmp/times" "$tmp/bench.db" "${one#$root/}" <<'PY'
import os, sys
n, jobs = int(sys.argv[1]), int(sys.argv[2])
t = {}
for line in open(sys.argv[3]):
    name, wall, cpu = line.split()
    t[name] = (float(wall), float(cpu))
def show(label, name, base):
    w, c = t[name]
    bw, bc = t[base]
    r = "" if name == base else f"  ratio {w / bw:.3f}x wall, {c / bc:.3f}x cpu"
    print(f"{label}: {w:.2f}s wall, {c:.2f}s cpu{r}")
print(f"translation units: {n}, jobs: {jobs}")
show("clang -fsyntax-only", "clang", "clang")
show("tia index (fresh)", "fresh", "clang")
show("tia index (again)", "again", "clang")
print(f"one file changed: {sys.argv[5]}")
show("  clang -fsyntax-only of it", "oneclang", "oneclang")
show("  tia index", "onetia", "oneclang")
print(f"database: {os.path.getsize(sys.argv[4]) / 1024:.0f} KiB")
PY
