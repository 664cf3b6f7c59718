#!/usr/bin/env bash
# Makes DIR a git repository holding a copy of an example with a scripted
# history of known ground truth, for the tia eval tests:
#
#   eval-history.sh textkit EXAMPLES DIR    base; a comment-only commit;
#       word_count() changed (test_word_count affected); slugify() broken
#       (both tests of test_slug.py affected, and failing)
#   eval-history.sh calc EXAMPLES DIR       base; a comment-only commit;
#       the inline operator!= of a header changed (VectorTest.Equality
#       affected); Vector::length() broken (VectorTest.Length affected, and
#       failing)
set -euo pipefail
kind=$1 examples=$2 dir=$3
rm -rf "$dir"
cp -r "$examples/$kind" "$dir"
cd "$dir"
rm -rf build .tia
printf '/build/\n__pycache__/\n.pytest_cache/\n' > .gitignore
git init -q -b main
git add -A
git commit -qm base
if [ "$kind" = textkit ]; then
  sed -i 's/^def word_count/# Counts words.\ndef word_count/' src/textkit/words.py
  git commit -qam "comment only"
  sed -i 's/return len(text.split())/return len(text.split(None))/' src/textkit/words.py
  git commit -qam "word_count: split on None"
  sed -i 's/return separator.join(w for w in words if w)/return separator.join(w.upper() for w in words if w)/' src/textkit/slug.py
  git commit -qam "break slugify"
else
  sed -i 's|^double variance|// The population variance.\ndouble variance|' src/stats.cpp
  git commit -qam "comment only"
  sed -i 's|{ return !(\*this == Other); }|{ return !(Other == *this); }|' include/calc/geometry.h
  git commit -qam "operator!= in the header"
  sed -i 's|return std::hypot(X, Y);|return std::hypot(X, Y) + 1;|' src/geometry.cpp
  git commit -qam "break length"
fi
