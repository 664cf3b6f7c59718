#!/usr/bin/env bash
# Benchmark: `tia index` against `clang-19 -fsyntax-only` on the same
# translation units, both with the same parallelism, in one run.
#
#   utils/bench-index.sh BUILD_DIR [JOBS]
#
# BUILD_DIR holds compile_commands.json (for tia's own sources: build/).
# Prints wall times and the ratio tia/clang; a fresh database each time, and
# a second, incremental `tia index` (nothing changed) for the skip path; then
# one source file changed (a function appended to ONE_FILE, default the
# first translation unit of lib/Support; restored afterwards) and re-indexed,
# against `clang-19 -fsyntax-only` of that translation unit alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
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

# One file changed: the TU's own clang command, then tia on the whole set.
[ -n "$one" ] || one=$(grep -o "[^ ']*/lib/Support/[^ ']*\.cpp" "$tmp/cmds" | head -1)
one=$(cd "$(dirname "$one")" && pwd)/$(basename "$one")
cp "$one" "$tmp/one.orig"
printf '\nnamespace {\n[[maybe_unused]] int tiaBenchOneFileChange() { return 1; }\n} // namespace\n' >> "$one"
onecmd=$(grep -F -- "$one" "$tmp/cmds" | head -1)
t4=$(now)
sh -c "$onecmd" >/dev/null 2>&1
t5=$(now)
(cd "$root" && "$tia" --db "$tmp/bench.db" index -q -p "$build" --jobs "$jobs")
t6=$(now)
cp "$tmp/one.orig" "$one"

python3 - "$n" "$jobs" "$t0" "$t1" "$t2" "$t3" "$tmp/bench.db" "$t4" "$t5" "$t6" "${one#$root/}" <<'PY'
import os, sys
n, jobs = int(sys.argv[1]), int(sys.argv[2])
t0, t1, t2, t3 = map(float, sys.argv[3:7])
t4, t5, t6 = map(float, sys.argv[8:11])
clang, tia, again = t1 - t0, t2 - t1, t3 - t2
oneclang, onetia = t5 - t4, t6 - t5
print(f"translation units: {n}, jobs: {jobs}")
print(f"clang -fsyntax-only: {clang:.2f}s")
print(f"tia index (fresh):   {tia:.2f}s  ratio {tia / clang:.2f}x")
print(f"tia index (again):   {again:.2f}s  ratio {again / clang:.3f}x")
print(f"one file changed ({sys.argv[11]}): clang -fsyntax-only {oneclang:.2f}s, "
      f"tia index {onetia:.2f}s  ratio {onetia / oneclang:.2f}x")
print(f"database: {os.path.getsize(sys.argv[7]) / 1024:.0f} KiB")
PY
