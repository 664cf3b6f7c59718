#!/usr/bin/env bash
# Python tests into C, measured on a public project: Google's brotli (a C
# library with ctest tests that run its `brotli` program, and a CPython
# extension, _brotli, with Python tests). docs/Benchmarks.md, "Across
# languages", has what it printed.
#
#   utils/bench/bench-native-brotli.sh BROTLI_GIT_DIR WORK_DIR [BASE_REV]
#
# Makes WORK_DIR/repo, a repository of two commits: the base, brotli's
# newest tree with its c/ folder as it was at BASE_REV (default 4792c8e),
# and the head, the newest tree: the changed C functions are those of a few
# months of real history. Files the copy lacks (large test data) are left
# out. Then builds it for clang's coverage (CMake for the library, the
# program and the ctest tests; setup.py for the extension), times a plain
# pytest run against 'tia collect --pytest', and runs 'tia eval mutants'
# over the head's changed C functions, in MODE (default combined).
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
base_rev=${3:-4792c8e}
tia=${TIA:-tia}
python=${PYTHON:-/usr/bin/python3}
clang=${CLANG:-clang-19}

rm -rf "$work" && mkdir -p "$work/repo"
# The newest tree, without the blobs the copy lacks.
export GIT_DIR="$src"
git ls-tree -r HEAD | while read -r mode type sha path; do
  git cat-file -e "$sha" 2>/dev/null || continue
  mkdir -p "$work/repo/$(dirname "$path")"
  git cat-file blob "$sha" > "$work/repo/$path"
  if [ "$mode" = 100755 ]; then chmod +x "$work/repo/$path"; fi
done
cd "$work/repo"
mv c "$work/c-newest"
git archive "$base_rev" c | tar -x
unset GIT_DIR
printf '/build/\n/python/*.so\n__pycache__/\n.pytest_cache/\n.tia/\n' >> .gitignore
commit() {
  git add -A
  git -c user.name=bench -c user.email=bench@tia.invalid commit -qm "$1"
  git rev-parse HEAD
}
git init -q -b main
base=$(commit "brotli, with c/ as of $base_rev")
rm -rf c && mv "$work/c-newest" c
head=$(commit "c/ as of the newest brotli")
git log --oneline | cat
git diff --stat "$base" "$head" | tail -1

flags="-fprofile-instr-generate -fcoverage-mapping"
# The extension, as setup.py builds it (whose setuptools is newer than
# Debian's): _brotli.c and the library's sources in one shared object,
# beside brotli.py, which the tests import before they set sys.path.
ext_dir=python
ext_name=$("$python" -c 'import sysconfig; print("_brotli" + sysconfig.get_config_var("EXT_SUFFIX"))')
py_include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
build="cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=$clang \
  -DCMAKE_C_FLAGS='$flags' -DCMAKE_EXE_LINKER_FLAGS='$flags' -DCMAKE_SHARED_LINKER_FLAGS='$flags' \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null && ninja -C build >/dev/null && \
  mkdir -p $ext_dir && $clang -shared -fPIC -O0 $flags -Ic/include -I$py_include \
  python/_brotli.c c/common/*.c c/dec/*.c c/enc/*.c -lm -o $ext_dir/$ext_name"
echo "== build: $build"
eval "$build"
ls python/_brotli*.so

echo "== plain pytest against tia collect --pytest (CPU, user+sys)"
/usr/bin/time -f "plain pytest: %e s wall, %U+%S s CPU" \
  "$python" -m pytest -q -p no:cacheprovider python/tests 2>&1 | tail -2
"$tia" -q index -p build
/usr/bin/time -f "tia collect --pytest: %e s wall, %U+%S s CPU" \
  "$tia" collect --pytest -p build --python "$python" -- python/tests 2>&1 | tail -2
"$tia" dump boundaries | grep -c '^pytest:' | sed 's/^/tests with boundaries: /'
"$tia" dump boundaries | grep -E '^  (loads|runs)' | sort | uniq -c

mode=${MODE:-combined}
echo "== eval mutants (mode $mode)"
# A mutant can make brotli loop; ctest's and collect's time limit (1500 s)
# is too long for a benchmark: a program of the build running over 30 s is
# killed, so that its test fails as a timeout would make it.
(while :; do
  for pid in $(pgrep -x brotli); do
    t=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
    if [ -n "$t" ] && [ "$t" -gt 30 ]; then kill -9 "$pid" 2>/dev/null || true; fi
  done
  sleep 5
done) &
watchdog=$!
trap 'kill $watchdog 2>/dev/null || true' EXIT
"$tia" eval mutants --commits "$base..$head" --build "$build" -p build \
  --pytest --python "$python" --count "${COUNT:-10}" --modes "$mode"
