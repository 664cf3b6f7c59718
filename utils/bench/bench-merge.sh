#!/usr/bin/env bash
# Benchmark: sharded work and its merge, what a CI fan-out waits for.
#
#   utils/bench/bench-merge.sh WORK_DIR [TESTS [FUNCTIONS [SHARDS...]]]
#
# Two parts, shards run one after another on this machine:
#   index  tia's own translation units of INDEX_PATHS (default lib/Store
#          lib/Support lib/Git) indexed whole, then as N shards balanced by
#          the whole run's parse times (--balance-from, as a CI run uses the
#          previous database) merged into one database; baseline: the
#          unsharded index;
#   scale  the scale benchmark's coverage (tia-bench-scale: TESTS tests,
#          default 40,000, over FUNCTIONS functions, default 100,000)
#          imported whole, then as N shards (as `tia collect --shard`
#          records them) merged into one database; baseline: the unsharded
#          import.
# For each N (default 1 2 4 8) it prints the CPU time (user + system) of the
# slowest shard, the mean, balance = slowest / mean, the merge's CPU time
# and peak memory, and slowest + merge: what a CI would wait for, against
# the unsharded run. PARTS=index or PARTS=scale runs one part.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: bench-merge.sh WORK_DIR [TESTS [FUNCTIONS [SHARDS...]]]}
tests=${2:-40000}
functions=${3:-100000}
shift $(($# < 3 ? $# : 3))
shards=("$@")
[ ${#shards[@]} -gt 0 ] || shards=(1 2 4 8)
parts=${PARTS:-index,scale}
build=${BUILD:-$root/build}
tia=${TIA:-$build/tools/tia/tia}
scale=${TIA_BENCH_SCALE:-$build/bench/tia-bench-scale}
read -r -a paths <<< "${INDEX_PATHS:-lib/Store lib/Support lib/Git}"
rm -rf "$work"
mkdir -p "$work"

cpu() { # LOG COMMAND...: runs COMMAND, appends "user+system maxrss_kb" to LOG
  local log=$1; shift
  /usr/bin/time -a -o "$log" -f "%U %S %M" "$@" > /dev/null
}

# Prints the figures of one N from the CPU log of its shards and its merge.
report() { # N SHARD_LOG MERGE_LOG BASELINE_CPU
  python3 - "$@" <<'PY'
import sys
n, shard_log, merge_log, base = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
cpus = [float(u) + float(s) for u, s, _ in (l.split() for l in open(shard_log))]
mu, ms, mm = open(merge_log).read().split()
merge, peak = float(mu) + float(ms), int(mm) / 1024
slowest, mean = max(cpus), sum(cpus) / len(cpus)
wait = slowest + merge
print(f"N={n}: slowest shard {slowest:.2f} s, mean {mean:.2f} s, balance "
      f"{slowest / mean:.2f}; merge {merge:.2f} s, peak {peak:.0f} MiB; "
      f"slowest + merge {wait:.2f} s = {wait / base:.2f}x the unsharded "
      f"{base:.2f} s")
PY
}

total() { awk '{ s += $1 + $2 } END { printf "%.2f", s }' "$1"; }

if [[ ",$parts," == *",index,"* ]]; then
  echo "index: ${paths[*]} of tia's compilation database ($build)"
  cd "$root"
  cpu "$work/index-whole.log" "$tia" --db "$work/index-whole.db" index -q -p "$build" "${paths[@]}"
  base=$(total "$work/index-whole.log")
  for n in "${shards[@]}"; do
    for ((k = 1; k <= n; k++)); do
      cpu "$work/index-$n.log" "$tia" --db "$work/index-$n-$k.db" index -q -p "$build" \
        --shard "$k/$n" --balance-from "$work/index-whole.db" "${paths[@]}"
    done
    cpu "$work/index-$n-merge.log" "$tia" -q merge "$work/index-$n.db" "$work"/index-"$n"-*.db
    report "$n" "$work/index-$n.log" "$work/index-$n-merge.log" "$base"
  done
fi

if [[ ",$parts," == *",scale,"* ]]; then
  echo "scale: $tests tests x $functions functions (tia-bench-scale)"
  "$scale" "$work/scale-whole" "$tests" "$functions" --no-baseline --import-only > "$work/scale-whole.txt"
  base=$(sed -n 's/^store import cpu: \(.*\) s$/\1/p' "$work/scale-whole.txt")
  echo "unsharded import: $base s of CPU, $(sed -n 's/^store size: //p' "$work/scale-whole.txt")"
  for n in "${shards[@]}"; do
    : > "$work/scale-$n.log"
    for ((k = 1; k <= n; k++)); do
      "$scale" "$work/scale-$n-$k" "$tests" "$functions" --no-baseline --import-only --shard "$k/$n" > "$work/scale-$n-$k.txt"
      # The import's own CPU (generation left out), as the log's user time.
      printf '%s 0 0\n' "$(sed -n 's/^store import cpu: \(.*\) s$/\1/p' "$work/scale-$n-$k.txt")" >> "$work/scale-$n.log"
    done
    cpu "$work/scale-$n-merge.log" "$tia" -q merge "$work/scale-$n.db" "$work"/scale-"$n"-*/store.db
    report "$n" "$work/scale-$n.log" "$work/scale-$n-merge.log" "$base"
  done
fi
