#!/usr/bin/env bash
# Measures what recording the files each test reads costs `tia collect
# --pytest`: collects the same project with and without --no-file-trace,
# REPEAT times each, alternating, and prints the CPU time (user + system of
# tia and everything it runs) and wall time of each, their medians and the
# ratio traced / untraced.
#
#   utils/bench/bench-file-trace.sh TIA PYTHON REPEAT [PROJECT]
#
# PROJECT   a git work tree with pytest tests (read: it is copied); without
#           one, a generated suite that reads many files: 200 tests in 20
#           files, each test reading 25 data files with open(), pathlib and
#           os.open and listing its folder (5,000 reads per collect).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench-file-trace.sh TIA PYTHON REPEAT [PROJECT]" >&2; exit 1; }
tia=$(realpath "$1") python=$2 repeat=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -ge 4 ]; then
  cp -r "$(realpath "$4")" "$work/p"
  # A folder of a larger repository (examples/textkit) becomes one.
  rm -rf "$work/p/.git" "$work/p/.tia"
  git -C "$work/p" init -q -b main
  git -C "$work/p" add -A
  git -C "$work/p" -c user.name=b -c user.email=b@b commit -qm initial
else
  mkdir -p "$work/p/tests"
  "$python" - "$work/p" <<'PY'
import os, sys
root = sys.argv[1]
for f in range(20):
    d = os.path.join(root, "data", "set%02d" % f)
    os.makedirs(d)
    for i in range(25):
        with open(os.path.join(d, "case%02d.txt" % i), "w") as out:
            out.write("value %d\n" % (f * 100 + i) * 20)
    with open(os.path.join(root, "tests", "test_set%02d.py" % f), "w") as out:
        out.write("import os, pathlib\n"
                  "D = pathlib.Path(__file__).parent.parent / 'data' / 'set%02d'\n" % f)
        for t in range(10):
            out.write("\n\ndef test_%d():\n"
                      "    n = 0\n"
                      "    for i in range(25):\n"
                      "        p = D / ('case%%02d.txt' %% i)\n"
                      "        if i %% 3 == 0:\n"
                      "            n += len(open(p).read())\n"
                      "        elif i %% 3 == 1:\n"
                      "            n += len(p.read_text())\n"
                      "        else:\n"
                      "            fd = os.open(p, os.O_RDONLY); n += len(os.read(fd, 1 << 16)); os.close(fd)\n"
                      "    assert n > 0 and len(os.listdir(D)) == 25\n" % t)
PY
  touch "$work/p/tests/__init__.py"
  git -C "$work/p" init -q -b main
  git -C "$work/p" add -A
  git -C "$work/p" -c user.name=b -c user.email=b@b commit -qm initial
fi
cd "$work/p"
"$tia" index -q >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: > "$work/traced" ; : > "$work/untraced"
printf "run\tmode\tcpu_seconds\twall_seconds\n"
for i in $(seq "$repeat"); do
  for mode in untraced traced; do
    flag=""
    [ $mode = untraced ] && flag=--no-file-trace
    /usr/bin/time -f "%U %S %e" -o "$work/t" \
      "$tia" collect -q --pytest --python "$python" $flag >/dev/null 2>&1
    read -r user sys wall < "$work/t"
    cpu=$(echo "$user + $sys" | bc)
    echo "$cpu $wall" >> "$work/$mode"
    printf "%d\t%s\t%.2f\t%.2f\n" "$i" "$mode" "$cpu" "$wall"
  done
done
reads=$("$tia" dump files | grep -c '^  read ' || true)
for mode in untraced traced; do
  printf "median\t%s\t%.2f\t%.2f\n" "$mode" \
    "$(cut -d' ' -f1 "$work/$mode" | median)" "$(cut -d' ' -f2 "$work/$mode" | median)"
done
printf "ratio\ttraced/untraced\t%.2f\t%.2f\n" \
  "$(echo "$(cut -d' ' -f1 "$work/traced" | median) / $(cut -d' ' -f1 "$work/untraced" | median)" | bc -l)" \
  "$(echo "$(cut -d' ' -f2 "$work/traced" | median) / $(cut -d' ' -f2 "$work/untraced" | median)" | bc -l)"
printf "reads recorded\t%d\n" "$reads"
