#!/usr/bin/env bash
# Makes a small mixed project in DIR, a git repository: a C++ library
# (geom.cpp), a pybind11 module over it (_geom), a CPython C module
# (_cgeom), a program (geomcli), pytest tests that use all three and a C++
# test program for ctest (geom_check), built
# into DIR/build with MODE: "clang" (source-based coverage), "plain" (no
# coverage) or "gcov" (gcc --coverage), and its compilation database.
# Usage: make-native-project.sh DIR MODE
set -euo pipefail
dir=$1
mode=$2
src=$(cd "$(dirname "$0")/native" && pwd)
clang=${TIA_TEST_CLANG:-clang-19}
# The clang++ of the same clang: clang-19 -> clang++-19, .../bin/clang-19
# -> .../bin/clang++ (LLVM's own folder has no clang++-19).
clangxx=$(command -v "${clang%clang*}clang++${clang##*clang}" ||
  command -v "$(dirname "$(command -v "$clang")")/clang++")
rm -rf "$dir"
mkdir -p "$dir/build"
cp -r "$src"/. "$dir"
cd "$dir"
py=$("${TIA_TEST_PYTHON:-python3}" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
ext=$("${TIA_TEST_PYTHON:-python3}" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
case $mode in
clang) cc=$clang; cxx=$clangxx; cov="-fprofile-instr-generate -fcoverage-mapping" ;;
plain) cc=$clang; cxx=$clangxx; cov="" ;;
gcov) cc=gcc; cxx=g++; cov="--coverage" ;;
esac
flags="-O0 -g -fPIC $cov"
compile() { # LANG-COMPILER SOURCE OBJECT EXTRA...
  local c=$1 s=$2 o=$3; shift 3
  "$c" $flags "$@" -c "$dir/$s" -o "$dir/build/$o"
  printf '{"directory": "%s/build", "file": "%s/%s", "arguments": ["%s", %s"-c", "%s/%s", "-o", "%s"]},\n' \
    "$dir" "$dir" "$s" "$c" "$(for a in $flags "$@"; do printf '"%s", ' "$a"; done)" "$dir" "$s" "$o" >> build/commands.part
}
: > build/commands.part
compile "$cxx" geom.cpp geom.o -std=c++17
compile "$cxx" pymod.cpp pymod.o -std=c++17 -I"$py" -fvisibility=hidden
compile "$cc" cmod.c cmod.o -I"$py"
compile "$cxx" cli.cpp cli.o -std=c++17
compile "$cxx" check.cpp check.o -std=c++17
"$cxx" $cov -shared build/pymod.o build/geom.o -o "build/_geom$ext"
"$cc" $cov -shared build/cmod.o -o "build/_cgeom$ext"
"$cxx" $cov build/cli.o build/geom.o -o build/geomcli
"$cxx" $cov build/check.o build/geom.o -o build/geom_check
# ctest's input, as CMake would write it for add_test(geom_check ...).
{
  printf 'add_test(geom_check "%s/build/geom_check")\n' "$dir"
  # A script that runs the program with an environment of its own.
  printf 'add_test(cli_check "/bin/sh" "-c" "env -i %s/build/geomcli 2 3 | grep -qx 6")\n' "$dir"
} > build/CTestTestfile.cmake
{ echo "["; sed '$ s/},$/}/' build/commands.part; echo "]"; } > build/compile_commands.json
rm build/commands.part
printf 'build/\n.tia/\n__pycache__/\n' > .gitignore
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm init
