#!/usr/bin/env bash
# Benchmark: what a tia process costs before it does any work, for two tia
# binaries measured in the same run (e.g. LLVM linked statically and
# shared), and the share of each shared library tia loads.
#
#   utils/bench/bench-startup.sh TIA_BASELINE TIA [RUNS]
#
# Prints, per binary, the CPU time (user + system) per run of
# `tia --version`, of `tia dump tests` on a small database (examples/
# textkit indexed) and of `tia select` of no change there (which opens the
# repository with libgit2), over RUNS runs (default 200), and the ratio to the
# baseline; then the CPU per run of an empty program linked with each of
# the libraries tia needs, so the rest is visible.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
baseline=$(realpath "${1:?usage: bench-startup.sh TIA_BASELINE TIA [RUNS]}")
tia=$(realpath "${2:?usage: bench-startup.sh TIA_BASELINE TIA [RUNS]}")
runs=${3:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CPU milliseconds (user + system of the children this shell waited for)
# of running "$@" RUNS times.
cpu_of_runs() {
  local me=$BASHPID before after
  before=$(awk '{print $16 + $17}' /proc/$me/stat)
  for ((i = 0; i < runs; i++)); do "$@" > /dev/null 2>&1; done
  after=$(awk '{print $16 + $17}' /proc/$me/stat)
  echo $(((after - before) * 1000 / $(getconf CLK_TCK)))
}

cp -r "$root/examples/textkit" "$work/repo"
(cd "$work/repo" && git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm base &&
  "$tia" --db "$work/tia.db" index -q)

printf '%-34s %12s %12s %8s\n' "command ($runs runs)" "baseline ms" "tia ms" "ratio"
for cmd in "--version" "--db $work/tia.db dump tests" \
  "--db $work/tia.db select -q --base HEAD"; do
  # shellcheck disable=SC2086 # the command's words
  b=$(cd "$work/repo" && cpu_of_runs "$baseline" $cmd)
  # shellcheck disable=SC2086
  t=$(cd "$work/repo" && cpu_of_runs "$tia" $cmd)
  awk -v c="tia ${cmd#--db * }" -v b="$b" -v t="$t" -v n="$runs" \
    'BEGIN { printf "%-34s %12.1f %12.1f %8.2f\n", c, b / n, t / n, t / b }'
done

echo
echo "an empty program linked with one library (ms per run):"
printf 'int main(void) { return 0; }\n' > "$work/empty.c"
# The libraries either binary loads, each once; none (the first row) is
# the program alone.
libs=$(ldd "$baseline" "$tia" |
  awk '/libLLVM|libxgboost|libpython|libgit2/ && !seen[$3]++ {print $3}')
for lib in "" $libs; do
  cc "$work/empty.c" -o "$work/empty" -Wl,--no-as-needed $lib
  awk -v l="${lib:-(none)}" -v c="$(cpu_of_runs "$work/empty")" -v n="$runs" \
    'BEGIN { printf "  %-40s %8.1f\n", l, c / n }'
done
