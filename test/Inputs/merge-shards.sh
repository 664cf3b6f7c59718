#!/usr/bin/env bash
# Runs the work of one unsharded 'tia index' + 'tia collect' as N shards, as
# a CI fan-out would, in the current directory: index shard K into
# DIR/index-K.db, a merge of them into DIR/index.db, collect shard K on a
# copy of it (DIR/collect-K.db), and a merge of those into DIR/merged.db.
# Each merge gets its inputs last share first, with share 1 given twice.
#
#   merge-shards.sh DIR N 'INDEX ARGS' 'COLLECT ARGS'
set -euo pipefail
set -f # the arguments hold test patterns, not file names
dir=$1 n=$2 index_args=$3 collect_args=$4

backwards() { # PREFIX: DIR/PREFIX-N.db ... DIR/PREFIX-1.db DIR/PREFIX-1.db
  for ((k = n; k >= 1; k--)); do printf '%s ' "$dir/$1-$k.db"; done
  printf '%s\n' "$dir/$1-1.db"
}

for ((k = 1; k <= n; k++)); do
  # shellcheck disable=SC2086 # the arguments are words
  tia --db "$dir/index-$k.db" index -q --shard "$k/$n" $index_args
done
# shellcheck disable=SC2046
tia -q merge "$dir/index.db" $(backwards index)
for ((k = 1; k <= n; k++)); do
  cp "$dir/index.db" "$dir/collect-$k.db"
  # shellcheck disable=SC2086
  tia --db "$dir/collect-$k.db" collect -q --shard "$k/$n" $collect_args
done
# shellcheck disable=SC2046
tia -q merge "$dir/merged.db" $(backwards collect)
