#!/usr/bin/env bash
# Runs a command within a memory and a time bound, so that a test states
# the bound it holds tia to:
#
#   bounded.sh MEGABYTES SECONDS COMMAND [ARG...]
#
# MEGABYTES caps the virtual memory (ulimit -v; it counts tia's mapped
# libraries, some 300 MB, as well as what it allocates); SECONDS the wall
# time (timeout: exit 124 when it runs out). Under a sanitizer build
# (TIA_TEST_SANITIZED=1) AddressSanitizer reserves terabytes of address
# space, so only the time bound holds there, three times as long.
set -euo pipefail
megabytes=$1
seconds=$2
shift 2
if [ "${TIA_TEST_SANITIZED:-0}" = 1 ]; then
  seconds=$((seconds * 3))
else
  ulimit -v $((megabytes * 1024))
fi
exec timeout "$seconds" "$@"
