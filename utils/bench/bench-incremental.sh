#!/usr/bin/env bash
# Replays consecutive first-parent commits of a project's history into two
# tia databases side by side, one updated with a full `tia collect` at every
# commit and one with `tia collect --incremental`, and prints a markdown
# table: per commit, the tests each collect ran and its CPU seconds, the
# tests the incremental one carried over, and how many tests each database
# selects for the next commit (`select --base C --head NEXT --mode
# coverage`), with any test the full database selects there and the
# incremental one does not (there must be none).
#
#   utils/bench/bench-incremental.sh [--pytest] TIA MIRROR_OR_URL RANGE [OUT_DIR]
#
# --pytest: a pytest project (index in the clone's root, collect --pytest);
# without it a C++ project whose build (the BUILD command below) makes a
# build directory with compile_commands.json and a ctest suite.
# TIA: the tia binary to measure. MIRROR_OR_URL: anything `git clone`
# accepts; it is cloned into a temporary folder. RANGE: FIRST..LAST; the
# commits replayed are FIRST and then every commit of
# `git rev-list --first-parent FIRST..LAST`, oldest first (FIRST must be on
# LAST's first-parent line). Both databases are collected in full at FIRST.
# OUT_DIR (optional): keeps the two databases, the table (table.md) and
# every command's output (logs/); without it they are removed.
#
# At every commit: check out, build (C++), index both databases, collect
# both (full, then incremental), then select for the next commit from each.
# A commit whose build fails (after the first) gets a row saying so and is
# not collected; the next commit is collected against the last one that was.
# CPU is user+sys of the collect and all its children (bash's `times`
# before and after the command), not wall time.
#
# Environment:
#   BUILD      (C++, required) a shell command that configures and builds the
#              checked-out commit into $BUILD_DIR; it runs in the clone with
#              SRC (the clone) and BUILD_DIR exported, for example
#              BUILD='cmake -S "$SRC" -B "$BUILD_DIR" -G Ninja && ninja -C "$BUILD_DIR" -j2'
#   BUILD_DIR  (C++) the build directory (default: OUT_DIR/build, else one in
#              the temporary folder)
#   PYTHON     (--pytest) the interpreter that runs pytest (default: python3
#              on PATH)
#   COLLECT_ARGS extra arguments for every collect (for example --timeout=600)
#   PYTEST_ADDOPTS is passed through to every pytest tia runs, for example
#   PYTEST_ADDOPTS=--ignore=tests/test_needs_missing_module.py.
set -euo pipefail
usage='usage: bench-incremental.sh [--pytest] TIA MIRROR_OR_URL RANGE [OUT_DIR]'
pytest=0
if [ "${1:-}" = --pytest ]; then
  pytest=1
  shift
fi
tia=${1:?$usage}
source=${2:?$usage}
range=${3:?$usage}
out=${4:-}
python=${PYTHON:-$(command -v python3 || true)}
read -r -a collect_args <<<"${COLLECT_ARGS:-}"

case $tia in /*) ;; *) tia=$(cd "$(dirname "$tia")" && pwd)/$(basename "$tia") ;; esac
[ -x "$tia" ] || { echo "bench-incremental.sh: $tia is not executable" >&2; exit 2; }
case $range in *..*) ;; *) echo "$usage (RANGE is FIRST..LAST)" >&2; exit 2 ;; esac
if [ "$pytest" = 0 ] && [ -z "${BUILD:-}" ]; then
  echo "bench-incremental.sh: set BUILD to the command that builds a commit into \$BUILD_DIR" >&2
  exit 2
fi
if [ "$pytest" = 1 ] && [ -z "$python" ]; then
  echo "bench-incremental.sh: no python3 on PATH; set PYTHON" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tia-bench-incremental.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$out" ]; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
else
  out=$work
fi
logs=$out/logs
mkdir -p "$logs"
full_db=$out/full.db
incr_db=$out/incremental.db
rm -f "$full_db" "$incr_db"
export SRC=$work/repo
export BUILD_DIR=${BUILD_DIR:-$out/build}

git clone -q "$source" "$SRC"
first=$(git -C "$SRC" rev-parse --verify "${range%%..*}^{commit}")
last=$(git -C "$SRC" rev-parse --verify "${range##*..}^{commit}")
git -C "$SRC" rev-list --first-parent "$last" | grep -x "$first" >/dev/null || {
  echo "bench-incremental.sh: ${range%%..*} is not on the first-parent line of ${range##*..}" >&2
  exit 2
}
mapfile -t commits < <(echo "$first"; git -C "$SRC" rev-list --first-parent --reverse "$first..$last")
n=${#commits[@]}
echo "bench-incremental.sh: $n commits, ${first:0:12} to ${last:0:12}" >&2

# cpu_of LOG COMMAND...: runs COMMAND with its output in LOG and sets $cpu to
# the user+sys CPU seconds it and its children used and $rc to its status.
# `times` runs in this shell (not in a $(...) subshell, whose children are
# not COMMAND's); its second line is the children's user and system time.
children_cpu() {
  times >"$work/times"
  sed -n 2p "$work/times" | awk '{
    s = 0
    for (i = 1; i <= 2; i++) { split($i, a, /m/); sub(/s$/, "", a[2]); s += a[1] * 60 + a[2] }
    printf "%.3f", s }' >"$work/cpu"
}
cpu_of() {
  local log=$1 before after
  shift
  children_cpu
  before=$(cat "$work/cpu")
  rc=0
  "$@" >"$log" 2>&1 || rc=$?
  children_cpu
  after=$(cat "$work/cpu")
  cpu=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.1f", a - b }')
}

# What a collect's summary says: $ran (tests run), $carried (carried over or,
# when the snapshot is at this commit, left as they are), $why.
read_summary() {
  local log=$1 line
  line=$(grep -E '^collected ' "$log" | tail -n 1 || true)
  ran=$(sed -nE 's/^collected ([0-9]+) .*/\1/p' <<<"$line")
  [ -n "$ran" ] || ran=0
  carried=$(sed -nE 's/.*; ([0-9]+) carried over.*/\1/p' <<<"$line")
  [ -n "$carried" ] || carried=$(sed -nE 's/.*; ([0-9]+) not run, their coverage kept.*/\1 kept/p' <<<"$line")
  [ -n "$carried" ] || carried=0
  why=$(grep -E '^incremental: ' "$log" | tail -n 1 | sed -E 's/^incremental: //' || true)
}

select_ids() { # DB BASE HEAD LOG: the selected ids, one a line, sorted
  (cd "$SRC" && "$tia" --db "$1" select --base "$2" --head "$3" --mode coverage \
    --format ids 2>"$4") | sed '/^$/d' | sort -u
}

# reasons_of DB BASE HEAD IDS_FILE: each test of IDS_FILE as "`id` (why DB
# selects it: the kinds of its reasons)", one a line: a test selected as
# previously failing comes from a failure the other database never saw run.
reasons_of() {
  (cd "$SRC" && "$tia" --db "$1" select --base "$2" --head "$3" --mode coverage \
    --format json 2>/dev/null) | python3 -c '
import json, sys
ids = [l.strip() for l in open(sys.argv[1]) if l.strip()]
plan = json.load(sys.stdin)
kinds = {t["id"]: sorted({r["kind"] for r in t.get("reasons", [])})
         for t in plan.get("tests", [])}
for i in ids:
    print("`%s` (%s)" % (i, ", ".join(kinds.get(i, ["?"]))))' "$4"
}

table=$out/table.md
{
  echo "| # | commit | subject | full: ran | full: CPU s | incr.: ran | incr.: CPU s | incr.: carried | next: full selects | next: incr. selects | missed by incr. | incremental said |"
  echo "|--:|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|"
} >"$table"

tot_full_cpu=0 tot_incr_cpu=0 tot_full_ran=0 tot_incr_ran=0 tot_carried=0
rest_full_cpu=0 rest_incr_cpu=0 tot_index_cpu=0 missed_commits=0 smaller=0 selections=0
for ((i = 0; i < n; i++)); do
  c=${commits[$i]}
  short=${c:0:12}
  tag=$(printf '%02d-%s' "$i" "$short")
  git -C "$SRC" checkout -q --detach "$c"
  subject=$(git -C "$SRC" log -1 --format=%s "$c" | cut -c1-50 | sed 's/|/\\|/g')
  echo "bench-incremental.sh: [$((i + 1))/$n] $short $subject" >&2

  if [ "$pytest" = 0 ]; then
    if ! (cd "$SRC" && bash -c "$BUILD") >"$logs/$tag-build.log" 2>&1; then
      echo "bench-incremental.sh: the build failed at $short; last lines of $logs/$tag-build.log:" >&2
      tail -n 20 "$logs/$tag-build.log" >&2
      # A commit of a real history that does not build is left out: the
      # next one collects against the last commit collected.
      [ "$i" -gt 0 ] || exit 1
      echo "| $((i + 1)) | \`$short\` | $subject | - | - | - | - | - | - | - | - | the build failed: not collected |" >>"$table"
      continue
    fi
    where=(-p "$BUILD_DIR")
    collect_mode=()
  else
    where=()
    collect_mode=(--pytest --python "$python")
  fi

  for db in full incremental; do
    dbfile=$full_db
    [ "$db" = full ] || dbfile=$incr_db
    cpu_of "$logs/$tag-$db-index.log" bash -c 'cd "$SRC" && exec "$@"' index \
      "$tia" --db "$dbfile" index "${where[@]}"
    if [ "$rc" -ne 0 ]; then
      echo "bench-incremental.sh: index of $db failed at $short:" >&2
      tail -n 20 "$logs/$tag-$db-index.log" >&2
      exit 1
    fi
    tot_index_cpu=$(awk -v a="$tot_index_cpu" -v b="$cpu" 'BEGIN { print a + b }')
  done

  # Full.
  cpu_of "$logs/$tag-full-collect.log" bash -c 'cd "$SRC" && exec "$@"' collect \
    "$tia" --db "$full_db" collect "${where[@]}" "${collect_mode[@]}" "${collect_args[@]}"
  grep -qE '^collected ' "$logs/$tag-full-collect.log" || {
    echo "bench-incremental.sh: the full collect failed at $short (exit $rc):" >&2
    tail -n 20 "$logs/$tag-full-collect.log" >&2
    exit 1
  }
  read_summary "$logs/$tag-full-collect.log"
  full_ran=$ran full_cpu=$cpu

  # Incremental (in full at the first commit, as the full database).
  incremental=(--incremental)
  [ "$i" -gt 0 ] || incremental=()
  cpu_of "$logs/$tag-incremental-collect.log" bash -c 'cd "$SRC" && exec "$@"' collect \
    "$tia" --db "$incr_db" collect "${where[@]}" "${collect_mode[@]}" "${incremental[@]}" "${collect_args[@]}"
  grep -qE '^collected ' "$logs/$tag-incremental-collect.log" || {
    echo "bench-incremental.sh: the incremental collect failed at $short (exit $rc):" >&2
    tail -n 20 "$logs/$tag-incremental-collect.log" >&2
    exit 1
  }
  read_summary "$logs/$tag-incremental-collect.log"
  incr_ran=$ran incr_cpu=$cpu incr_carried=$carried
  [ "$i" -gt 0 ] || why="first commit: a full collect"
  why=$(sed 's/|/\\|/g' <<<"$why")

  tot_full_cpu=$(awk -v a="$tot_full_cpu" -v b="$full_cpu" 'BEGIN { print a + b }')
  tot_incr_cpu=$(awk -v a="$tot_incr_cpu" -v b="$incr_cpu" 'BEGIN { print a + b }')
  if [ "$i" -gt 0 ]; then
    rest_full_cpu=$(awk -v a="$rest_full_cpu" -v b="$full_cpu" 'BEGIN { print a + b }')
    rest_incr_cpu=$(awk -v a="$rest_incr_cpu" -v b="$incr_cpu" 'BEGIN { print a + b }')
  fi
  tot_full_ran=$((tot_full_ran + full_ran))
  tot_incr_ran=$((tot_incr_ran + incr_ran))
  tot_carried=$((tot_carried + ${incr_carried%% *}))

  # The next commit's selection from each database.
  next_full=- next_incr=- missed=-
  if [ $((i + 1)) -lt "$n" ]; then
    nx=${commits[$((i + 1))]}
    select_ids "$full_db" "$c" "$nx" "$logs/$tag-full-select.log" >"$logs/$tag-full-select.ids"
    select_ids "$incr_db" "$c" "$nx" "$logs/$tag-incremental-select.log" >"$logs/$tag-incremental-select.ids"
    selections=$((selections + 1))
    next_full=$(wc -l <"$logs/$tag-full-select.ids")
    next_incr=$(wc -l <"$logs/$tag-incremental-select.ids")
    comm -23 "$logs/$tag-full-select.ids" "$logs/$tag-incremental-select.ids" >"$logs/$tag-missed.ids"
    if [ -s "$logs/$tag-missed.ids" ]; then
      reasons_of "$full_db" "$c" "$nx" "$logs/$tag-missed.ids" >"$logs/$tag-missed.why"
      missed="**$(wc -l <"$logs/$tag-missed.ids")**: $(sed 's/|/\\|/g' "$logs/$tag-missed.why" | paste -sd' ')"
      missed_commits=$((missed_commits + 1))
    else
      missed=none
    fi
    [ "$next_incr" -ge "$next_full" ] || smaller=$((smaller + 1))
  fi

  echo "| $((i + 1)) | \`$short\` | $subject | $full_ran | $full_cpu | $incr_ran | $incr_cpu | $incr_carried | $next_full | $next_incr | $missed | $why |" >>"$table"
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
{
  echo "| | **total** | | $tot_full_ran | $tot_full_cpu | $tot_incr_ran | $tot_incr_cpu | $tot_carried | | | | |"
  echo
  echo "- collect CPU, incremental / full: $(ratio "$tot_incr_cpu" "$tot_full_cpu") over all $n commits" \
    "($tot_incr_cpu s / $tot_full_cpu s); $(ratio "$rest_incr_cpu" "$rest_full_cpu") without the first" \
    "commit, where both are full ($rest_incr_cpu s / $rest_full_cpu s)"
  echo "- tests run, incremental / full: $(ratio "$tot_incr_ran" "$tot_full_ran") ($tot_incr_ran / $tot_full_ran)"
  echo "- index CPU, both databases, all commits: $tot_index_cpu s"
  echo "- commits where the incremental database misses a test the full one selects for the next commit: $missed_commits of $selections"
  echo "- commits where it selects fewer tests than the full one for the next commit: $smaller of $selections"
} >>"$table"
cat "$table"
[ "$missed_commits" -eq 0 ]
