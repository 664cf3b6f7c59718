#!/usr/bin/env bash
# tia on tia: what tia selects of its own tests for one-line changes to its
# libraries, from the database utils/test/collect-self.sh made (.tia/tia.db).
# Each change swaps one comparison operator on FILE:LINE (as `tia eval
# mutants` does: == and !=, < and >=, > and <=), in the work tree, is
# selected against HEAD, and is undone. Prints one Markdown row per change:
# the tests selected (lit and unit), the share of the lit suite, and the
# function that changed.
#
#   utils/bench/bench-self-select.sh TIA FILE:LINE...
#
# SELECT_ARGS adds options to tia select (e.g. -p DIR, for a database made
# in another checkout). With RUN=1 each change is also built (ninja -C build tia) and the whole
# lit suite run with it, so the row also says which lit tests failed and
# whether the selection held them all: a mutant test of the selection.
set -euo pipefail
# The checkout it runs in: a worktree at the commit the database was
# collected at, say.
root=$(git rev-parse --show-toplevel)
tia=$(realpath "$1")
shift
cd "$root"
# Each change is undone with git: changes of your own would be lost.
if ! git diff --quiet -- lib; then
  echo "bench-self-select.sh: lib/ has changes; commit or stash them first" >&2
  exit 2
fi
lit=(/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py)
out=$(mktemp -d)
trap 'git checkout -q -- lib; rm -rf "$out"' EXIT

lit_total=$("$tia" dump tests 2>/dev/null | grep -c '^lit:')
unit_total=$("$tia" dump tests 2>/dev/null | grep -c '^gtest:')
echo "| change | function | lit selected | share | unit selected | failed | held |"
echo "|---|---|--:|--:|--:|--:|:-:|"
for at in "$@"; do
  file=${at%%:*}
  line=${at##*:}
  before=$(sed -n "${line}p" "$file")
  perl -i -pe "if (\$. == $line) {
    s/ == / != /  or s/ != / == / or s/ >= / < / or s/ <= / > /
    or s/ < / >= / or s/ > / <= / }" "$file"
  if [ "$(sed -n "${line}p" "$file")" = "$before" ]; then
    echo "| \`$at\` | no operator to swap | | | | | |"
    continue
  fi
  "$tia" select --base HEAD ${SELECT_ARGS:-} --format json > "$out/sel.json" 2> "$out/sel.err"
  read -r function lits units < <(python3 - "$out/sel.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = [t["id"] for t in d.get("tests", [])]
changed = [c.get("display", "?") for c in d.get("changed_elements", [])][:1]
print((changed[0] if changed else "?").replace(" ", ""),
      sum(i.startswith("lit:") for i in ids), sum(i.startswith("gtest:") for i in ids))
PY
)
  failed="" held=""
  if [ "${RUN:-0}" = 1 ]; then
    "$tia" select --base HEAD ${SELECT_ARGS:-} --format ids 2>/dev/null | grep '^lit:' | sort > "$out/selected"
    ninja -C build tia >/dev/null
    "${lit[@]}" -s --no-progress-bar --xunit-xml-output "$out/all.xml" build/test >/dev/null 2>&1 || true
    python3 - "$out/all.xml" > "$out/failed" <<'PY'
import sys, xml.etree.ElementTree as ET
for c in ET.parse(sys.argv[1]).iter("testcase"):
    if c.find("failure") is not None:
        folder = c.get("classname").split(".", 1)[1]
        name = c.get("name") if folder == "tia" else folder + "/" + c.get("name")
        print("lit:tia::" + name)
PY
    sort -o "$out/failed" "$out/failed"
    failed=$(wc -l < "$out/failed")
    held=$( [ -z "$(comm -23 "$out/failed" "$out/selected")" ] && echo yes || echo NO)
  fi
  share=$(python3 -c "print(f'{100*$lits/$lit_total:.1f}%')")
  echo "| \`$at\` | \`$function\` | $lits | $share | $units of $unit_total | $failed | $held |"
  git checkout -q -- "$file"
done
