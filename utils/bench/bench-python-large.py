#!/usr/bin/env python3
"""Selection time of tia's static mode on a Python project of over 100k
lines: Debian's packaged pygments (about 115k lines), with generated pytest
files that each highlight a snippet with one lexer module's lexer.

  utils/bench/bench-python-large.py TIA OUT_DIR [--source DIR] [--tests N]
                              [--rounds R]

The project is committed, indexed once ('tia index', timed), then each of
three edits is made in the work tree and 'tia select --worktree' runs R
times (default 3) in static mode and, as the baseline of the same run, in
coverage mode (which finds the changed elements the same way but maps them
through the coverage map, empty here). Prints the best times and their
ratio as Markdown (docs/Benchmarks.md).
"""

import argparse
import ast
import json
import os
import shutil
import subprocess
import time


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, check=True, text=True,
                          capture_output=True)


def lines_of(root):
    n = 0
    for d, _, files in os.walk(root):
        if ".git" in d:
            continue
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(d, f), errors="replace") as h:
                    n += sum(1 for _ in h)
    return n


def lexer_classes(path):
    tree = ast.parse(open(path).read())
    return [c.name for c in tree.body if isinstance(c, ast.ClassDef)
            and c.name.endswith("Lexer") and not c.name.startswith("_")]


EDITS = [
    ("core: RegexLexer.get_tokens_unprocessed", "pygments/lexer.py",
     "    def get_tokens_unprocessed(self, text, stack=('root',)):\n",
     "    def get_tokens_unprocessed(self, text, stack=('root',)):\n"
     "        _edited = 1\n"),
    ("formatter: HtmlFormatter.wrap", "pygments/formatters/html.py",
     "    def wrap(self, source):\n",
     "    def wrap(self, source):\n        _edited = 1\n"),
    ("leaf: a lexer module's analyse_text", None, None, None),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tia")
    ap.add_argument("out")
    ap.add_argument("--source",
                    default="/usr/lib/python3/dist-packages/pygments")
    ap.add_argument("--tests", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tia = os.path.abspath(a.tia)
    out = os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    repo = os.path.join(out, "repo")
    shutil.copytree(a.source, os.path.join(repo, "pygments"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    lexdir = os.path.join(repo, "pygments", "lexers")
    modules = sorted(f[:-3] for f in os.listdir(lexdir)
                     if f.endswith(".py") and not f.startswith("_"))
    os.makedirs(os.path.join(repo, "tests"))
    made = 0
    leaf = None
    for m in modules:
        if made == a.tests:
            break
        classes = lexer_classes(os.path.join(lexdir, m + ".py"))
        if not classes:
            continue
        with open(os.path.join(repo, "tests", "test_%s.py" % m), "w") as f:
            f.write("from pygments import highlight\n"
                    "from pygments.formatters import HtmlFormatter\n"
                    "from pygments.lexers.%s import %s\n\n\n"
                    "def test_%s():\n"
                    "    assert highlight('x = 1', %s(), HtmlFormatter())\n"
                    % (m, classes[0], m, classes[0]))
        made += 1
        if leaf is None and "def analyse_text(text):\n" in open(
                os.path.join(lexdir, m + ".py")).read():
            leaf = "pygments/lexers/%s.py" % m
    EDITS[2] = (EDITS[2][0] + " (" + leaf + ")", leaf,
                "def analyse_text(text):\n",
                "def analyse_text(text):\n        _edited = 1\n")
    db = os.path.join(out, "tia.db")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    run(["git", "init", "-q", "-b", "main"], repo)
    run(["git", "add", "-A"], repo)
    run(git + ["commit", "-qm", "packaged source and generated tests"], repo)
    total = lines_of(repo)
    t = time.monotonic()
    run([tia, "--db", db, "-q", "index"], repo)
    index_s = time.monotonic() - t

    results = []
    for name, path, old, new in EDITS:
        p = os.path.join(repo, path)
        text = open(p).read()
        assert old in text, (path, old)
        # Only the first occurrence: one changed function.
        open(p, "w").write(text.replace(old, new, 1))
        best = {}
        sel = {}
        for _ in range(a.rounds):
            for mode in ("coverage", "static"):
                t = time.monotonic()
                r = run([tia, "--db", db, "select", "--mode", mode,
                         "--base", "HEAD", "--format", "json"], repo)
                s = time.monotonic() - t
                best[mode] = min(best.get(mode, s), s)
                sel[mode] = json.loads(r.stdout)
        run(["git", "checkout", "-q", "--", path], repo)
        st = sel["static"]
        results.append((name, best["static"], best["coverage"],
                        len(st["tests"]), st["total_tests"]))
    print("%d lines of Python in %d files (%d generated test files); "
          "tia index %.1f s" % (total, sum(
              1 for d, _, fs in os.walk(repo) if ".git" not in d
              for f in fs if f.endswith(".py")), made, index_s))
    print()
    print("| edit | static: best of %d | coverage mode (baseline) | ratio "
          "| tests selected (static) |" % a.rounds)
    print("|---|---|---|---|---|")
    for name, s, c, n, tot in results:
        print("| %s | %.2f s | %.2f s | %.1f | %d of %d |"
              % (name, s, c, s / c, n, tot))


if __name__ == "__main__":
    main()
