#!/usr/bin/env bash
# Runs tia's benchmarks and writes their figures as one Markdown file.
#
#   utils/bench/bench.sh [OUT_DIR]          (default: a new temporary folder)
#   PARTS=index,select,scale,python utils/bench/bench.sh ...   (default: all four)
#
# Parts, each with its baseline measured in the same run:
#   index   utils/bench/bench-index.sh BUILD 1 and with all cores: `tia index` vs
#           `clang-19 -fsyntax-only` over tia's own translation units (those
#           matching INDEX_FILTER, by default lib/Support, lib/Git,
#           lib/Store and lib/Cpp/Extractor.cpp; '.' for all), the
#           unchanged re-index and a one-file change;
#   select  utils/bench/bench-select-scale.sh: `tia select` for a one-function
#           change against a store of SELECT_TESTS (40,000) tests over a
#           generated 100,000-function project, vs the same select without
#           coverage and vs parsing the changed file;
#   scale   tia-bench-scale: SCALE_TESTS (40,000) tests x 100,000 functions
#           into tia's store (size, import, selection query), and
#           SCALE_BASELINE_TESTS (4,000) into both tia's store and the plain
#           (test_id, key_id) table of schema 7;
#   python  utils/bench/bench-python.sh: the Python extractor vs `ast.parse`.
# Needs a Release build in BUILD (default build/) with Google Benchmark
# (bench/) for select and scale. Prints the load average before each part:
# the machine may be shared, and wall times move with it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/tia-bench.XXXXXX")}
parts=${PARTS:-index,select,scale,python}
build=${BUILD:-$root/build}
export BUILD=$build TIA=${TIA:-$build/tools/tia/tia}
cores=$(nproc)
mkdir -p "$out"
report=$out/benchmarks.md
log() { echo "bench: $*" >&2; }
load() { uptime | sed 's/.*load average: //'; }

{
  echo "# tia benchmarks, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Commit $(git -C "$root" rev-parse --short HEAD), $cores cores."
} > "$report"

section() {  # TITLE COMMAND...: runs COMMAND, keeps its output in the report
  local title=$1; shift
  log "$title (load $(load))"
  {
    echo
    echo "## $title"
    echo
    echo "Load average before: $(load)."
    echo
    echo '```'
    echo "\$ $*"
  } >> "$report"
  "$@" 2>&1 | tee -a "$report"
  echo '```' >> "$report"
}

has() { [[ ",$parts," == *",$1,"* ]]; }

if has index; then
  export FILTER=${INDEX_FILTER:-/lib/(Support|Git|Store)/|/lib/Cpp/Extractor\.cpp}
  section "Indexing, one job (FILTER='$FILTER')" \
    "$root/utils/bench/bench-index.sh" "$build" 1
  section "Indexing, $cores jobs (FILTER='$FILTER')" \
    "$root/utils/bench/bench-index.sh" "$build" "$cores"
fi
if has select; then
  section "Selection for a one-function change against a large store" \
    "$root/utils/bench/bench-select-scale.sh" "$out/select" "${SELECT_TESTS:-40000}"
fi
if has scale; then
  scale=$build/bench/tia-bench-scale
  section "Scale, baseline size: tia's store and the (test_id, key_id) table" \
    "$scale" "$out/scale-small" "${SCALE_BASELINE_TESTS:-4000}" 100000 \
    --benchmark_min_time=0.5
  section "Scale, full size: tia's store" \
    "$scale" "$out/scale-full" "${SCALE_TESTS:-40000}" 100000 --no-baseline \
    --benchmark_min_time=0.5
fi
if has python; then
  section "Python extractor against ast.parse" \
    "$root/utils/bench/bench-python.sh" /usr/lib/python3.11 3
fi
log "wrote $report"
