#!/usr/bin/env bash
# Replays a range of a pytest project's real history with `tia eval replay`
# and prints its markdown report (the per-commit tables and the per-mode
# summary).
#
#   utils/bench/bench-python-replay.sh TIA MIRROR_OR_URL RANGE [OUT_DIR]
#
# TIA: the tia binary to measure. MIRROR_OR_URL: anything `git clone`
# accepts (a local mirror or a URL); it is cloned into a temporary folder
# and the replay runs from that clone's root (eval replay makes its own
# scratch clones from it). RANGE: A..B, replayed with --first-parent.
# OUT_DIR (optional): keeps replay.md (the report), replay.err (tia's
# progress and errors) and replay.time (/usr/bin/time -v, when present:
# wall, user and system CPU); without it they are removed with the clone.
#
# Environment:
#   PYTHON  the interpreter that runs pytest (default: python3 on PATH)
#   MODES   the selection modes (default: static,coverage,combined)
#   PYTEST_ADDOPTS is passed through to every pytest tia runs, for example
#   PYTEST_ADDOPTS=--ignore=tests/test_needs_missing_module.py to leave out
#   test files that cannot run on this machine.
set -euo pipefail
usage='usage: bench-python-replay.sh TIA MIRROR_OR_URL RANGE [OUT_DIR]'
tia=${1:?$usage}
source=${2:?$usage}
range=${3:?$usage}
out=${4:-}
python=${PYTHON:-$(command -v python3)}
modes=${MODES:-static,coverage,combined}

case $tia in /*) ;; *) tia=$(cd "$(dirname "$tia")" && pwd)/$(basename "$tia") ;; esac
[ -x "$tia" ] || { echo "bench-python-replay.sh: $tia is not executable" >&2; exit 2; }
case $range in *..*) ;; *) echo "$usage (RANGE is A..B)" >&2; exit 2 ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/tia-bench-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$out" ]; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
else
  out=$work
fi

git clone -q "$source" "$work/repo"
git -C "$work/repo" checkout -q --detach "${range##*..}"

timer=()
if [ -x /usr/bin/time ]; then
  timer=(/usr/bin/time -v -o "$out/replay.time")
fi

status=0
(cd "$work/repo" &&
  "${timer[@]}" "$tia" eval replay --commits "$range" --first-parent \
    --pytest --python "$python" --modes "$modes" \
    >"$out/replay.md" 2>"$out/replay.err") || status=$?

cat "$out/replay.md"
if [ -f "$out/replay.time" ]; then
  awk -F': ' '/Elapsed \(wall/ {w=$2} /User time/ {u=$2} /System time/ {s=$2}
    END {printf "\nwall %s, CPU user %ss + sys %ss\n", w, u, s}' "$out/replay.time" >&2
fi
if [ "$status" -ne 0 ]; then
  echo "bench-python-replay.sh: tia eval replay exited with $status; last lines of its stderr:" >&2
  tail -n 20 "$out/replay.err" >&2
fi
exit "$status"
