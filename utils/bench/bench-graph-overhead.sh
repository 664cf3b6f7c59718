#!/usr/bin/env bash
# Measures what the reference graph's extra edges (graph version 2: virtual
# overrides, destructors, new/delete, lambdas, system template
# instantiations) cost at index time: indexes the same translation units
# of a C++ project with two tia binaries into fresh databases and prints,
# per binary, the wall time of 'tia index' and the number of references
# stored, with the ratios new/old.
#
#   utils/bench/bench-graph-overhead.sh REPO BUILD_DIR NEW_TIA OLD_TIA OUT_DIR PATH...
#
# REPO      the project's work tree (read, never written: the databases go
#           to OUT_DIR via --db)
# BUILD_DIR the directory with its compile_commands.json
# PATH...   the translation units to index (repository-relative)
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: bench-graph-overhead.sh REPO BUILD_DIR NEW_TIA OLD_TIA OUT_DIR PATH..." >&2; exit 1; }
repo=$(realpath "$1") build=$(realpath "$2")
new_tia=$(realpath "$3") old_tia=$(realpath "$4")
mkdir -p "$5"
out=$(realpath "$5")
shift 5
declare -A secs refs
for which in old new; do
  tia=$old_tia
  [ $which = new ] && tia=$new_tia
  db=$out/$which.db
  rm -f "$db" "$db-wal" "$db-shm"
  start=$(date +%s.%N)
  (cd "$repo" && "$tia" index --db "$db" -q -j 1 -p "$build" "$@")
  end=$(date +%s.%N)
  secs[$which]=$(echo "$end - $start" | bc)
  refs[$which]=$(cd "$repo" && "$tia" dump references --db "$db" | grep -c ' -> cpp:' || true)
done
printf "binary\tindex_seconds\treferences\n"
printf "old\t%.2f\t%d\n" "${secs[old]}" "${refs[old]}"
printf "new\t%.2f\t%d\n" "${secs[new]}" "${refs[new]}"
printf "ratio\t%.2f\t%.2f\n" "$(echo "${secs[new]} / ${secs[old]}" | bc -l)" \
  "$(echo "${refs[new]} / ${refs[old]}" | bc -l)"
