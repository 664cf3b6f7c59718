#!/usr/bin/env bash
# A public lit suite, measured: llvm-tutor (LLVM pass plugins, shared
# libraries loaded into Debian's uninstrumented `opt`, and one small tool,
# tested by 48 lit tests). docs/Benchmarks.md, "A public lit suite:
# llvm-tutor", has what it printed.
#
#   utils/bench/bench-lit-llvm-tutor.sh TIA OUT_DIR [LLVM_TUTOR_GIT]
#
# LLVM_TUTOR_GIT: a clone or bare copy of github.com/banach-space/llvm-tutor
# (default: that URL). Needs Debian's llvm-19-dev, clang-19, llvm-19-tools
# (lit, FileCheck, not) and ninja. Only 0048a5f ("Update to LLVM 19") up to
# 7d610e6 ("Upgrade to LLVM 20", excluded) builds with LLVM 19; 0048a5f's
# parent does not (StringRef::equals is gone), so the replay starts at
# 0048a5f's first child.
#
# Steps, all in OUT_DIR:
#   1. clone, build 0048a5f for clang's source-based coverage (plugins, the
#      tool, and the shared-library link) and write the lit suite as the one
#      ctest test llvm-tutor lacks (build.sh); time a plain lit run, `tia
#      index` and `tia collect`; dump each lit test's coverage;
#   2. a one-function change to lib/RIV.cpp (RIV::buildRIV), committed on a
#      branch: `tia select`, its `--format lit` filter run by a real lit;
#   3. `tia eval replay` over the LLVM-19 first-parent history (JSON);
#   4. `tia eval mutants --count COUNT` (default 20) at 0048a5f (JSON);
#   then the tables of docs/Benchmarks.md (tables.md).
# JOBS (default 2) is collect's --jobs. CPU times: /usr/bin/time's user+sys.
set -euo pipefail
tia=$(realpath "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
src=${3:-https://github.com/banach-space/llvm-tutor}
count=${COUNT:-20}
jobs=${JOBS:-2}
base=0048a5f    # "Update to LLVM 19"
last=1eca69f    # the last first-parent commit before "Upgrade to LLVM 20"
lit_py=/usr/lib/llvm-19/build/utils/lit/lit.py
timed() { # timed NAME CMD...: CMD's wall and CPU into $out/NAME.time
  local name=$1; shift
  /usr/bin/time -f "$name: %e s wall, %U+%S s CPU (user+sys), exit %x" -o "$out/$name.time" "$@"
}

# Debian's llvm-19-dev names zstd::libzstd_shared in LLVMSupport's link
# interface, which only libzstd-dev's CMake files define; the library is there.
cat > "$out/llvm19-shim.cmake" <<'EOF'
if(NOT TARGET zstd::libzstd_shared)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES
    IMPORTED_LOCATION /usr/lib/x86_64-linux-gnu/libzstd.so.1)
endif()
EOF
# The build command (run at the root of a checkout, also by tia eval): a
# coverage build into ./build, and build/CTestTestfile.cmake naming the lit
# suite as one ctest test, which tia expands into one test per lit file.
# llvm-tutor calls no enable_testing(), so CMake never rewrites that file.
cat > "$out/build.sh" <<EOF
#!/bin/sh
set -e
B="\$(pwd)/build"
if [ ! -f "\$B/build.ninja" ]; then
  cmake -G Ninja -S . -B "\$B" -DLT_LLVM_INSTALL_DIR=/usr/lib/llvm-19 \\
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PROJECT_INCLUDE_BEFORE=$out/llvm19-shim.cmake \\
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \\
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \\
    "-DCMAKE_CXX_FLAGS=-fprofile-instr-generate -fcoverage-mapping" \\
    -DCMAKE_SHARED_LINKER_FLAGS=-fprofile-instr-generate \\
    -DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate >/dev/null
fi
ninja -C "\$B" -j2 > "\$B/ninja.out" 2>&1 || { tail -20 "\$B/ninja.out"; exit 1; }
printf 'add_test(lit "/usr/bin/python3" "$lit_py" "-sv" "%s/test")\n' "\$B" > "\$B/CTestTestfile.cmake"
EOF
chmod +x "$out/build.sh"

# A mutant can make a pass loop; collect's time limit (1500 s) is too long
# for a benchmark: an opt, lli or static of this run's scratch folders
# running over 30 s is killed (its lit test fails, as a timeout would).
export TMPDIR="$out/tmp"
mkdir -p "$TMPDIR"
(while :; do
  for pid in $(pgrep -f -- "$out/" || true); do
    case "$(ps -o comm= -p "$pid" 2>/dev/null)" in opt|lli|static) ;; *) continue ;; esac
    t=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
    if [ -n "$t" ] && [ "$t" -gt 30 ]; then
      echo "watchdog: killed $pid" >> "$out/watchdog.log"; kill -9 "$pid" 2>/dev/null || true
    fi
  done
  sleep 5
done) &
watchdog=$!
trap 'kill $watchdog 2>/dev/null || true' EXIT

echo "== 1. build $base, index, collect"
rm -rf "$out/llvm-tutor"
git clone -q "$src" "$out/llvm-tutor"
cd "$out/llvm-tutor"
git checkout -q "$base"
echo "build/" >> .git/info/exclude   # the build is no change of the work tree
timed build "$out/build.sh"
timed lit-plain /usr/bin/python3 "$lit_py" -s build/test > "$out/lit-plain.txt" 2>&1 || true
rm -f build/test/default.profraw     # the plain run's profile
timed index "$tia" index -p build
timed collect "$tia" collect -p build --jobs "$jobs" > "$out/collect.txt" 2>&1 || true
"$tia" dump tests > "$out/tests.txt"
"$tia" dump coverage > "$out/coverage.txt"
cat "$out"/{build,lit-plain,index,collect}.time
tail -3 "$out/collect.txt"
echo "tests with coverage: $(grep -vc ' elements=0 ' "$out/tests.txt") of $(wc -l < "$out/tests.txt")"

echo "== 2. a one-function change: RIV::buildRIV leaves constant globals out"
git checkout -q -b riv-change
sed -i 's/if (Global.getValueType()->isIntegerTy())/if (Global.getValueType()->isIntegerTy() \&\& !Global.isConstant())/' lib/RIV.cpp
git -c user.name=bench -c user.email=bench@tia.invalid commit -qam "RIV: leave constant globals out"
git show --stat --format=%s HEAD | cat
timed select "$tia" select --base HEAD~1 --head HEAD > "$out/select.txt"
"$tia" select --base HEAD~1 --head HEAD --explain > "$out/select-explain.txt" 2>&1
"$tia" select --base HEAD~1 --head HEAD --format lit > "$out/filter.txt"
cat "$out/select.txt"
"$out/build.sh"
mapfile -t filter < "$out/filter.txt"
timed lit-selected /usr/bin/python3 "$lit_py" -v build/test "${filter[@]}" > "$out/lit-selected.txt" 2>&1 || true
grep -E '^(PASS|FAIL)|Excluded|Passed|Failed' "$out/lit-selected.txt" || true
rm -f build/test/default.profraw
git checkout -q "$base"

# The 8 tests of test/llvm/ run only Debian's opt, no program or plugin of
# the build: collect counts them as tests without coverage and fails
# (docs/Benchmarks.md, "A public lit suite: llvm-tutor"), which stops tia
# eval. The replay and the mutants collect the 40 others.
only='lit:LLVM-TUTOR::[!l]*'

echo "== 3. tia eval replay $base..$last --first-parent"
timed replay "$tia" eval replay --commits "$base..$last" --first-parent \
  --build "$out/build.sh" --jobs "$jobs" --only "$only" --format json > "$out/replay.json" 2> "$out/replay.err" || true
tail -2 "$out/replay.err"

echo "== 4. tia eval mutants --count $count at $base"
timed mutants "$tia" eval mutants --count "$count" --build "$out/build.sh" \
  --jobs "$jobs" --only "$only" --format json > "$out/mutants.json" 2> "$out/mutants.err" || true
tail -2 "$out/mutants.err"

echo "== tables"
python3 - "$out" > "$out/tables.md" <<'EOF'
import json, os, sys
out = sys.argv[1]
def pct(v): return "-" if v is None else f"{v * 100:.1f}%"
r = json.load(open(os.path.join(out, "replay.json")))
print("| commit | summary | changed | tests | selected | share | affected | missed | safe |")
print("|---|---|---|--:|--:|--:|--:|--:|:-:|")
for c in r["commits"]:
    print(f"| `{c['commit'][:7]}` | {c['summary'][:50]} | {c['changed_elements']} elements, "
          f"{len(c['fallbacks'])} fallbacks | {c['tests']} | {c['selected']} | "
          f"{pct(c['selected'] / c['tests'] if c['tests'] else None)} | {c['affected']} | "
          f"{len(c['missed'])} | {'yes' if c['safe'] else 'no'} |")
t = r["total"]
print(f"| **total** | {t['commits']} commits | | {t['tests']} | {t['selected']} | "
      f"{pct(t['selected'] / t['tests'] if t['tests'] else None)} | {t['affected']} | "
      f"{t['missed']} | {t['safe_commits']}/{t['commits']} |")
for c in r["commits"]:
    for m in c["missed"]:
        print(f"\nmissed at {c['commit'][:7]}: {m['test']}: {m['reason']}")
print()
m = json.load(open(os.path.join(out, "mutants.json")))
print("| mutant | operator | function | killed by | selected | captured |")
print("|---|---|---|--:|--:|:-:|")
for x in m["mutants"]:
    if not x["built"]:
        print(f"| {x['file']}:{x['line']} | {x['operator']} | `{x['function']}` | not built | - | - |")
        continue
    cap = "yes" if x["captured"] else ("-" if not x["killed"] else "**no**")
    print(f"| {x['file']}:{x['line']} | {x['operator']} | `{x['function']}` | "
          f"{len(x['failing'])} | {x['selected']} | {cap} |")
t = m["total"]
print(f"\n{t['mutants']} mutants, {t['built']} built, {t['killed']} killed, "
      f"{t['captured']} killed and captured.")
EOF
cat "$out/tables.md"
cat "$out"/*.time
