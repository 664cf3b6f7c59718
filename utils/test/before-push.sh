#!/usr/bin/env bash
# Before pushing: builds tia and runs the lit tests your change can affect,
# as tia selects them from the database of tia's own tests collected on main
# (utils/test/collect-self.sh), then every unit test (they take seconds).
# The change is your branch since it left BASE, work tree included. When tia
# cannot reason about a change (a CMake file, a script no test was seen
# reading) it selects every lit test and says why. CI still runs everything.
#
#   utils/test/before-push.sh [BASE]       (default: origin/main, else main)
#
# TIA_DB names another database; BUILD_DIR (default build/) is the build
# whose tia the tests run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${BUILD_DIR:-$root/build}
db=${TIA_DB:-$root/.tia/tia.db}
base=${1:-}
if [ -z "$base" ]; then
  base=main
  git rev-parse -q --verify origin/main >/dev/null && base=origin/main
fi
if [ ! -f "$db" ]; then
  echo "before-push: no database of tia's tests at $db: run utils/test/collect-self.sh on main first (or set TIA_DB)" >&2
  exit 2
fi

"$root/utils/setup/build.sh" "$build" >/dev/null
tia=$build/tools/tia/tia
lit=(/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py)

# The selection, with its one-line summary (and any fallback's reason) on
# stderr; the arguments lit takes on stdout. The exclusion form skips the
# known tests tia did not select, so that a lit test new on the branch,
# which the database does not know, runs.
merge_base=$(git merge-base "$base" HEAD)
selection=$("$tia" select --db "$db" --base "$merge_base" --format lit --exclusion)
filter=()
if [ -n "$selection" ]; then
  mapfile -t filter <<<"$selection"
fi
status=0
"${lit[@]}" -s --no-progress-bar "${filter[@]}" "$build/test" || status=$?
ctest --test-dir "$build" -LE lit -j2 --output-on-failure || status=$?
exit "$status"
