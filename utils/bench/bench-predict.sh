#!/usr/bin/env bash
# Benchmarks history-based prediction on generated histories
# (utils/bench/gen-history.py): trains with 'tia train' and reports, on the newest
# quarter of the tested commits (the validation window, never trained on when
# measuring), APFD and recall at 10% and 50% of the tests for the model's
# order, the heuristic order and a random order, with the training and
# inference times. Prints a Markdown table for docs/Benchmarks.md.
#
#   utils/bench/bench-predict.sh [BUILD_DIR]     (default: build)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tia="$build/tools/tia/tia"
loader="$build/tools/tia/tia-load-results"
[ -x "$tia" ] && [ -x "$loader" ] || { echo "bench-predict: build tia first (ninja -C $build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| history | tests | commits | failing results | order | APFD | recall@10% | recall@50% | train (s) | predict per commit (ms) | tia rank (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
# name, then gen-history arguments
while IFS='|' read -r name args; do
  out="$work/$name"
  # shellcheck disable=SC2086
  gen=$(python3 "$root/utils/bench/gen-history.py" --out "$out" $args \
          --load "$out/repo/.tia/tia.db" --loader "$loader")
  tests=$(echo "$gen" | sed -E 's/.* ([0-9]+) tests,.*/\1/')
  commits=$(echo "$gen" | sed -E 's/^gen-history: ([0-9]+) commits.*/\1/')
  failing=$(echo "$gen" | sed -E 's/.*\(([0-9.]+%)\).*/\1/')
  t0=$EPOCHREALTIME
  (cd "$out/repo" && "$tia" train --format json -q > "$out/train.json")
  t1=$EPOCHREALTIME
  # End-to-end inference: one source file changed in the work tree.
  file=$(cd "$out/repo" && git ls-files '*/src/*.cpp' | head -1)
  echo "int bench_change() { return 1; }" >> "$out/repo/$file"
  t2=$EPOCHREALTIME
  (cd "$out/repo" && "$tia" rank -q > /dev/null)
  t3=$EPOCHREALTIME
  python3 - "$out/train.json" "$name" "$tests" "$commits" "$failing" "$t0" "$t1" "$t2" "$t3" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
name, tests, commits, failing = sys.argv[2:6]
t0, t1, t2, t3 = map(float, sys.argv[6:10])
train, rank = t1 - t0, t3 - t2
ms = r["inference_seconds_per_commit"] * 1000
for order in ["predicted", "heuristic", "random"]:
    q = r[order]
    print("| %s | %s | %s | %s | %s | %.3f | %.3f | %.3f | %.1f | %.2f | %.2f |" % (
        name, tests, commits, failing, order, q["apfd"], q["recall_at_10"],
        q["recall_at_50"], float(train), ms, float(rank)))
print("| %s | | | | model: %s, %d samples, %d features, validation F1 %.3f on %d commits with failures | | | | | | |" % (
    name, r["params"], r["samples"], r["features"], r["validation_f1"], r["validation_commits"]),
    file=sys.stderr)
EOF
done <<'CASES'
small|--commits 300 --days 60 --modules 8 --tests-per-module 12 --seed 1
medium|--commits 600 --days 120 --modules 16 --tests-per-module 16 --seed 2
sparse|--commits 600 --days 120 --modules 16 --tests-per-module 16 --break-probability 0.1 --seed 3
CASES
