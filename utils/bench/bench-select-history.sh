#!/usr/bin/env bash
# Replays the history of a C++ project with GoogleTest tests and a CMake
# build through two tia binaries and reports, per commit, how many of the
# known tests each selects and which rules fired.
#
#   utils/bench/bench-select-history.sh REPO BASE COUNT NEW_TIA OLD_TIA OUT_DIR [END]
#
# REPO     a git repository (it is cloned, never touched)
# BASE     the commit coverage is collected at
# COUNT    how many commits after BASE that change C++ files to replay
# NEW_TIA  the tia to measure (this tree's build/tools/tia/tia)
# OLD_TIA  the tia to compare with (for example one built from the walking
#          skeleton, whose C++ changes outside functions select all tests)
# OUT_DIR  where the clone, the builds, the coverage and the results go
# END      the last commit that may be replayed (default: REPO's HEAD)
#
# Coverage: BASE is built with clang-19 -fprofile-instr-generate
# -fcoverage-mapping; every GoogleTest case of every test executable
# (executables under the build directory whose --gtest_list_tests works) runs
# alone, and its llvm-profdata merge + llvm-cov export is imported with
# 'tia coverage import --format llvm-cov-json' into each tia's database,
# both indexed at BASE. Then, for each of the COUNT commits C (in
# topological order, each against its first parent), the work tree is
# checked out at C and both tias run 'select --base C^ --head C --format
# json'. OUT_DIR/results.tsv gets one line per commit; the summary is
# printed at the end (utils/bench/bench-select-summary.py).
#
# Extra CMake arguments for the coverage build: BENCH_CMAKE_ARGS.
set -euo pipefail

die() {
  echo "bench-select-history: $*" >&2
  exit 1
}

[ $# -eq 6 ] || [ $# -eq 7 ] ||
  die "usage: bench-select-history.sh REPO BASE COUNT NEW_TIA OLD_TIA OUT_DIR [END]"
repo=$1 base=$2 count=$3
new_tia=$(realpath "$4")
old_tia=$(realpath "$5")
mkdir -p "$6"
out=$(realpath "$6")
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$new_tia" ] || die "$4 is not an executable"
[ -x "$old_tia" ] || die "$5 is not an executable"

tool() {
  if command -v "$1-19" >/dev/null; then command -v "$1-19"
  else echo "/usr/lib/llvm-19/bin/$1"; fi
}
profdata=$(tool llvm-profdata)
cov=$(tool llvm-cov)
clangxx=$(tool clang++)
clangc=$(tool clang)

src=$out/src
build=$out/build
if [ ! -d "$src/.git" ]; then
  git clone -q --no-local "$repo" "$src"
fi
end=$(git -C "$src" rev-parse "${7:-origin/HEAD}")
git -C "$src" checkout -q --detach "$base"
git -C "$src" clean -qfdx -e /build

# --- Coverage at BASE ---
if [ ! -f "$out/coverage.done" ]; then
  # shellcheck disable=SC2086
  cmake -G Ninja -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER="$clangc" -DCMAKE_CXX_COMPILER="$clangxx" \
    -DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
    -DCMAKE_CXX_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${BENCH_CMAKE_ARGS:-} >"$out/cmake.log"
  ninja -C "$build" -j2 >"$out/build.log"
  rm -rf "$out/coverage" && mkdir -p "$out/coverage"
  find "$build" -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print | sort |
    while read -r binary; do
      listing=$(cd "$(dirname "$binary")" &&
        LLVM_PROFILE_FILE=/dev/null "$binary" --gtest_list_tests 2>/dev/null) || continue
      suite=""
      while IFS= read -r line; do
        case "$line" in
        "  "*) ;;
        *) suite=${line%% *}; continue ;;
        esac
        name=${line#  }
        name=${name%% *}
        id="gtest:$(basename "$binary"):$suite$name"
        file="$out/coverage/$(basename "$binary")__$suite$name.json"
        file=${file//\//%2F}
        file="$out/coverage/${file##*/}"
        (cd "$(dirname "$binary")" &&
          LLVM_PROFILE_FILE="$out/one.profraw" "$binary" --gtest_filter="$suite$name" >/dev/null 2>&1) || true
        [ -s "$out/one.profraw" ] || continue
        "$profdata" merge -sparse "$out/one.profraw" -o "$out/one.profdata"
        "$cov" export -format=text -skip-expansions -instr-profile="$out/one.profdata" "$binary" >"$file"
        printf '%s\t%s\n' "$id" "$file" >>"$out/coverage/index.tsv"
        rm -f "$out/one.profraw"
      done <<<"$listing"
    done
  touch "$out/coverage.done"
fi

# --- Index at BASE and import the coverage, once per tia ---
for which in new old; do
  tia=$new_tia
  [ "$which" = old ] && tia=$old_tia
  db=$out/$which.db
  [ -f "$out/$which.done" ] && continue
  rm -f "$db"
  (cd "$src" && "$tia" --db "$db" index -q -p "$build")
  while IFS=$'\t' read -r id file; do
    (cd "$src" && "$tia" --db "$db" coverage import -q --format llvm-cov-json --test "$id" "$file")
  done <"$out/coverage/index.tsv"
  touch "$out/$which.done"
done

# --- Replay ---
is_cpp='\.(c|cc|cpp|cxx|c\+\+|C|h|hh|hpp|hxx|h\+\+|H|inl|ipp|tpp|tcc)$'
results=$out/results.tsv
printf 'commit\tchanged_files\tengine\tselected\ttotal\tselects_all\tseconds\tjson\n' >"$results"
done_count=0
for c in $(git -C "$src" rev-list --reverse --topo-order "$base".."$end"); do
  [ "$done_count" -ge "$count" ] && break
  parent=$(git -C "$src" rev-parse "$c^1")
  git -C "$src" diff --name-only "$parent" "$c" | grep -qE "$is_cpp" || continue
  done_count=$((done_count + 1))
  git -C "$src" checkout -q --detach "$c"
  files=$(git -C "$src" diff --name-only "$parent" "$c" | wc -l)
  # The two tias run side by side (each parses on one core).
  for which in new old; do
    (
    tia=$new_tia
    [ "$which" = old ] && tia=$old_tia
    json=$out/select-$which-$(git -C "$src" rev-parse --short=12 "$c").json
    start=$(date +%s.%N)
    (cd "$src" && "$tia" --db "$out/$which.db" select -q --base "$parent" --head "$c" --format json >"$json") ||
      die "$which tia failed on $c; see $json"
    end=$(date +%s.%N)
    python3 - "$json" "$c" "$files" "$which" "$start" "$end" >"$out/row-$which" <<'EOF'
import json, sys
path, commit, files, engine, start, end = sys.argv[1:]
s = json.load(open(path))
print("\t".join([commit[:12], files, engine, str(s["selected_tests"]), str(s["total_tests"]),
                 str(s["selects_all"]).lower(), "%.2f" % (float(end) - float(start)), path]))
EOF
    ) &
  done
  wait
  cat "$out/row-new" "$out/row-old" >>"$results"
  echo "[$done_count/$count] $(git -C "$src" log -1 --format='%h %s' "$c" | cut -c1-70)" >&2
done
git -C "$src" checkout -q --detach "$base"
python3 "$here/bench-select-summary.py" "$results"
