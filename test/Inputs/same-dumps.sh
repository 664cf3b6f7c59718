#!/usr/bin/env bash
# Prints, for each 'tia dump' of A and B, "same WHAT" or the difference;
# test durations (which differ from run to run) are left out.
#
#   same-dumps.sh A.db B.db
set -uo pipefail
for what in elements references definitions tests coverage results files; do
  extra=()
  [ "$what" = elements ] && extra=(--hashes)
  if diff <(tia --db "$1" dump "$what" "${extra[@]}" 2>&1 | sed 's/ [0-9.]*s\( \|$\)/\1/') \
          <(tia --db "$2" dump "$what" "${extra[@]}" 2>&1 | sed 's/ [0-9.]*s\( \|$\)/\1/'); then
    echo "same $what"
  else
    echo "differ: $what"
  fi
done
