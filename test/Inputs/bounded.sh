#!/usr/bin/env bash
# Runs a command within a memory and a time bound, so that a test states
# the bound it holds tia to:
#
#   bounded.sh [--exit N] MEGABYTES SECONDS COMMAND [ARG...]
#
# --exit N: the command is expected to exit with N (3 from 'tia select
# --exit-code' when it selects every test); that status becomes 0 and any
# other one an error.
#
# MEGABYTES caps the virtual memory (ulimit -v; it counts tia's mapped
# libraries, some 300 MB, as well as what it allocates); SECONDS the wall
# time (timeout: exit 124 when it runs out). Under a sanitizer build
# (TIA_TEST_SANITIZED=1) AddressSanitizer reserves terabytes of address
# space, so only the time bound holds there, three times as long.
set -euo pipefail
expect=0
if [ "$1" = --exit ]; then
  expect=$2
  shift 2
fi
megabytes=$1
seconds=$2
shift 2
if [ "${TIA_TEST_SANITIZED:-0}" = 1 ]; then
  seconds=$((seconds * 3))
else
  ulimit -v $((megabytes * 1024))
fi
if [ "$expect" = 0 ]; then
  exec timeout "$seconds" "$@"
fi
status=0
timeout "$seconds" "$@" || status=$?
if [ "$status" != "$expect" ]; then
  echo "bounded.sh: exit status $status, expected $expect" >&2
  [ "$status" = 0 ] && status=1
  exit "$status"
fi
