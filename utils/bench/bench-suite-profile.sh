#!/usr/bin/env bash
# Benchmark: where the lit suite's CPU time goes, by tia command.
#
#   utils/bench/bench-suite-profile.sh [BUILD_DIR] [LIT_ARGS...]
#
# Runs the lit suite (or the folders in LIT_ARGS) at -j2 with every tia
# process the tests start run under /usr/bin/time, then prints the suite's
# CPU time (user + system, lit and every process it waited for) and, per
# tia command, how many ran and their CPU time, which includes what each
# waited for (collect's test processes, eval's builds). Tests that signal
# tia itself (eval/interrupted-term) fail under the wrapper: the signal
# reaches /usr/bin/time.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
shift || true
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=("$build/test")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/tools"
cat > "$work/tools/tia" <<WRAP
#!/bin/sh
exec /usr/bin/time -a -o "$work/times" -f "%U %S|%C" "$build/tools/tia/tia" "\$@"
WRAP
chmod +x "$work/tools/tia"
ln -s "$build/tools/tia/tia-load-results" "$work/tools/"

lit=$(sed -n 's/^TIA_LIT:[A-Z]*=//p' "$build/CMakeCache.txt")
python=${PYTHON:-python3}
start=$(awk '{print $16 + $17}' /proc/$$/stat)
"$python" "$lit" -q -j2 --param tia_tools_dir="$work/tools" "${folders[@]}" || true
end=$(awk '{print $16 + $17}' /proc/$$/stat)

"$python" - "$work/times" $(((end - start) / $(getconf CLK_TCK))) <<'PY'
import collections
import sys

# The global options that take a value; the command is the first word
# after them (two words for the families of subcommands).
VALUED = {"--db", "-C", "--config", "--resource-dir"}
FAMILIES = {"dump", "coverage", "eval", "store", "graph"}
totals = collections.defaultdict(lambda: [0, 0.0])
with open(sys.argv[1], errors="replace") as f:
    for line in f:
        if "|" not in line:
            continue
        times, command = line.rstrip("\n").split("|", 1)
        try:
            user, system = map(float, times.split())
        except ValueError:
            continue  # time's own note on a signal
        words = command.split()[1:]
        i = 0
        while i < len(words) and words[i].startswith("-"):
            i += 2 if words[i] in VALUED else 1
        name = " ".join(words[i:i + (2 if words[i:i + 1] and words[i] in FAMILIES else 1)])
        if name == "collect" and "--pytest" in words:
            name = "collect --pytest"
        totals[name or "(none)"][0] += 1
        totals[name or "(none)"][1] += user + system
suite = float(sys.argv[2])
tia = sum(cpu for _, cpu in totals.values())
print(f"suite CPU {suite:.0f} s; tia commands and what they waited for: {tia:.0f} s ({100 * tia / max(suite, 1):.0f}%)")
print(f"{'command':<22} {'runs':>6} {'CPU s':>8} {'ms/run':>8}")
for name, (runs, cpu) in sorted(totals.items(), key=lambda kv: -kv[1][1])[:15]:
    print(f"{name:<22} {runs:>6} {cpu:>8.1f} {1000 * cpu / runs:>8.0f}")
PY
