#!/usr/bin/env bash
# Benchmarks observed runs on a generated history (utils/bench/gen-history.py
# --visible-share 0.8): indexes the history at its 30th-last commit and
# imports each test's coverage there, then at each of the last 30 commits
# (indexing it and importing the coverage again after each, as the main
# branch's collection would) runs 'tia run --observe --base HEAD~1' with a stand-in GoogleTest
# binary that reports the outcomes the history recorded for that commit
# (both attempts of a retried test), and, on a throwaway copy of the
# database, the same 'tia run' without --observe. Prints the CPU time of
# both per run and the 'tia observed' report.
#
#   utils/bench/bench-observe.sh [BUILD_DIR] [RUNS]     (defaults: build, 30)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${2:-30}
tia="$build/tools/tia/tia"
[ -x "$tia" ] || { echo "bench-observe: build tia first (ninja -C $build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One module, so that one binary (mod0_tests) runs every test. Each test
# calls the functions of 80% of the files it depends on; the other 20% are
# hidden from tia, as a data file read at run time would be.
python3 "$root/utils/bench/gen-history.py" --out "$work" --commits 60 --modules 1 \
  --files-per-module 12 --tests-per-module 48 --visible-share 0.8 --seed 1 >&2
repo=$work/repo
mkdir -p "$work/bin" "$work/build"

# The stand-in test binary: the history's outcomes at HEAD as GoogleTest XML.
cat > "$work/bin/mod0_tests" <<EOF
#!/usr/bin/env python3
import subprocess, sys
head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
out = next(a.split("=", 1)[1][4:] for a in sys.argv[1:] if a.startswith("--gtest_output=xml:"))
cases, failed, current = [], False, None
for line in open("$work/results.tsv"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "run":
        current = f[1]
    elif f[0] == "result" and current == head:
        suite, name = f[1].split(":")[2].split(".")
        bad = f[2] == "failed"
        failed |= bad
        cases.append('<testcase name="%s" classname="%s" time="%s">%s</testcase>'
                     % (name, suite, f[3], '<failure message="broken"/>' if bad else ""))
with open(out, "w") as x:
    x.write('<?xml version="1.0"?><testsuites><testsuite name="all">%s</testsuite></testsuites>\n'
            % "".join(cases))
sys.exit(1 if failed else 0)
EOF
chmod +x "$work/bin/mod0_tests"

cd "$repo"
python3 - "$repo" "$work/build" <<'EOF'
import json, subprocess, sys
repo, build = sys.argv[1:]
files = subprocess.run(["git", "ls-files", "*.cpp"], cwd=repo, capture_output=True,
                       text=True).stdout.split()
json.dump([{"directory": repo, "file": repo + "/" + f,
            "arguments": ["clang++", "-std=c++17", "-c", f]} for f in files],
          open(build + "/compile_commands.json", "w"))
EOF
commits=$(git rev-list --reverse HEAD | tail -n "$runs")
first=$(echo "$commits" | head -1)
git checkout -q "$first~1"
"$tia" index -q -p "$work/build"
# Per-test coverage as the tests would record it (TN: the test): each
# test's body and the functions it calls; the hidden dependencies leave
# none. The main branch's collection records it at every commit.
python3 - "$work/coverage.info" <<'PY'
import re, subprocess, sys
records = []
for f in subprocess.run(["git", "ls-files", "*/tests/*_test.cpp"], capture_output=True,
                        text=True).stdout.split():
    text = open(f).read()
    test = "gtest:mod0_tests:%s.Works" % re.search(r"TEST\((\w+), Works\)", text).group(1)
    records.append("TN:%s\nSF:%s\nDA:%d,1\nend_of_record\n" % (test, f, text.count("\n")))
    for call in re.findall(r"^int (\w+)\(\);", text, re.M):
        module, j = re.match(r"(\w+)_(\d+)_base", call).groups()
        name = "_Z%d%sv" % (len(call), call)
        records.append("TN:%s\nSF:%s/src/%s%s.cpp\nFN:2,%s\nFNDA:1,%s\nDA:2,1\nend_of_record\n"
                       % (test, module, module, j, name, name))
open(sys.argv[1], "w").write("".join(records))
PY
"$tia" coverage import -q --format lcov "$work/coverage.info"
cpu() { # prints user+sys seconds of the command
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" > /dev/null 2>> "$work/log" || true
  tail -1 "$work/time" | awk '{ print $1 + $2 }'
}
observe=0 plain=0 n=0
for c in $commits; do
  git checkout -q "$c"
  cp .tia/tia.db "$work/plain.db"
  p=$(cpu "$tia" --db "$work/plain.db" run -q --base HEAD~1 -- "$work/bin/mod0_tests")
  o=$(cpu "$tia" run -q --observe --base HEAD~1 -- "$work/bin/mod0_tests")
  plain=$(echo "$plain + $p" | bc)
  observe=$(echo "$observe + $o" | bc)
  n=$((n + 1))
  # The main branch's collection after the run (not timed).
  "$tia" index -q -p "$work/build"
  "$tia" coverage import -q --format lcov "$work/coverage.info"
  echo "[$n/$runs] $(git log -1 --format=%s): tia run $p s, tia run --observe $o s" >&2
done
echo "CPU time per run (user+sys), mean of $n: tia run $(echo "scale=3; $plain / $n" | bc) s," \
     "tia run --observe $(echo "scale=3; $observe / $n" | bc) s"
"$tia" observed
