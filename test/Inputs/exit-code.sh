#!/usr/bin/env bash
# Runs a command and succeeds only when it exits with the given code; its
# output passes through.
#
#   exit-code.sh CODE COMMAND [ARG...]
want=$1
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
  echo "exit-code.sh: $1 exited with $got, not $want" >&2
  exit 1
fi
