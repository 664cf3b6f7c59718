#!/usr/bin/env bash
# Indexes the .cpp files at the top of DIR (a split-file scenario):
# writes DIR/build/compile_commands.json (-std=c++17 -I DIR) and runs
# 'tia index -p build' in DIR with the extra arguments given.
#
#   index.sh DIR [ARG...]
set -euo pipefail
dir=$1
shift
mkdir -p "$dir/build"
{
  echo "["
  sep=""
  for f in $(cd "$dir" && ls *.cpp | sort); do
    printf '%s{"directory": "%s", "file": "%s", "arguments": ["clang++", "-std=c++17", "-I%s", "-c", "%s", "-o", "%s.o"]}\n' \
      "$sep" "$dir" "$dir/$f" "$dir" "$f" "build/$f"
    sep=","
  done
  echo "]"
} > "$dir/build/compile_commands.json"
cd "$dir" && tia index -p build "$@"
