#!/usr/bin/env python3
"""Static, coverage and combined selection of tia on a scripted history of a
Debian-packaged pure-Python project (pyflakes, whose tests Debian ships).

  utils/bench/bench-python-history.py TIA OUT_DIR [--count N] [--seed S]
                                [--source DIR] [--python PY]

No Python project with a git history can be reached from this machine (only
Debian's and npm's registries answer, and Debian's packages carry no
history), so the history is made: the packaged source (DIR, default
/usr/lib/python3/dist-packages/pyflakes) is committed as it is, then N
commits (default 30) of edits chosen with a fixed seed are made on top:

  body      a function or method of the library gets a statement (its
            bytecode changes, the names it uses do not)
  constant  a string constant of a library function changes (a message)
  method    a class of the library gains a method, which one of its
            existing methods now calls
  test      a test method changes
  newtest   a test class gains a test method
  comment   a comment or docstring changes (selects nothing)

The base commit is indexed and its tests collected once with 'tia collect
--pytest' (per-test coverage and runtime evidence, each test file in a
process of its own). Then, for each commit C, 'tia select --base C^ --head
C --format json' runs in each mode, timed. OUT_DIR/results.json holds every
figure; the summary is printed as Markdown (docs/Benchmarks.md).
"""

import argparse
import ast
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

KINDS = ["body"] * 14 + ["constant"] * 4 + ["method"] * 4 + ["test"] * 3 + \
    ["newtest"] * 3 + ["comment"] * 2


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, text=True,
                          capture_output=True, **kw)


def functions(path, tests):
    """(qualified name, node, class node) of the functions of a file."""
    tree = ast.parse(open(path).read())
    out = []
    for top in tree.body:
        if isinstance(top, ast.ClassDef):
            for m in top.body:
                if isinstance(m, ast.FunctionDef):
                    if tests == m.name.startswith("test"):
                        out.append((top.name + "." + m.name, m, top))
        elif isinstance(top, ast.FunctionDef) and not tests:
            out.append((top.name, top, None))
    return out


def constants(path, fn):
    """The one-line, single-quoted string constants of FN that are not its
    docstring, with their source text."""
    text = open(path).read()
    doc = fn.body[0].value if isinstance(fn.body[0], ast.Expr) else None
    out = []
    for c in ast.walk(fn):
        if not isinstance(c, ast.Constant) or not isinstance(c.value, str) \
                or c is doc or c.lineno != c.end_lineno or len(c.value) < 4:
            continue
        seg = ast.get_source_segment(text, c)
        if seg and seg[0] in "'\"" and not seg.startswith(seg[0] * 3) \
                and seg.count(seg[0]) == 2:
            out.append((c, seg))
    return out


def indent_of(line):
    return line[:len(line) - len(line.lstrip())]


def edit(repo, pkg, kind, rng, n):
    """Makes one edit of KIND; returns a one-line description."""
    lib = sorted(os.path.join(pkg, f) for f in os.listdir(os.path.join(repo, pkg))
                 if f.endswith(".py"))
    testdir = os.path.join(pkg, "test")
    tests = sorted(os.path.join(testdir, f)
                   for f in os.listdir(os.path.join(repo, testdir))
                   if f.startswith("test_") and f.endswith(".py"))
    cands = []
    for rel in (tests if kind in ("test", "newtest") else lib):
        path = os.path.join(repo, rel)
        for f in functions(path, kind in ("test", "newtest")):
            if kind == "constant" and not constants(path, f[1]):
                continue
            if kind in ("method", "newtest") and f[2] is None:
                continue
            cands.append((rel, f))
    while True:
        rel, (name, fn, cls) = rng.choice(cands)
        path = os.path.join(repo, rel)
        lines = open(path).read().split("\n")
        first = fn.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and len(fn.body) > 1:
            first = fn.body[1]
        ind = indent_of(lines[first.lineno - 1])
        if kind in ("body", "test"):
            lines.insert(first.lineno - 1, ind + "_edit_%d = %d" % (n, n))
            what = "statement added to"
        elif kind == "constant":
            c, seg = constants(path, fn)[0]
            line = lines[c.lineno - 1]
            q = seg[-1]
            lines[c.lineno - 1] = line.replace(seg, seg[:-1] + " " + q, 1)
            what = "string constant changed in"
        elif kind == "comment":
            lines.insert(first.lineno - 1, ind + "# edit %d: a note" % n)
            what = "comment added to"
        elif kind == "method":
            helper = "_helper_%d" % n
            mind = indent_of(lines[fn.lineno - 1])
            at = cls.end_lineno + 1
            lines[at - 1:at - 1] = ["", mind + "def %s(self):" % helper,
                                    mind + "    return None"]
            lines.insert(first.lineno - 1,
                         ind + "self.%s()" % helper)
            what = "new method %s.%s, called from" % (cls.name, helper)
        elif kind == "newtest":
            mind = indent_of(lines[fn.lineno - 1])
            at = cls.end_lineno + 1
            lines[at - 1:at - 1] = [
                "", mind + "def test_edit_%d(self):" % n,
                mind + "    self.assertTrue(%d)" % (n + 1)]
            what = "new test %s.test_edit_%d, next to" % (cls.name, n)
        open(path, "w").write("\n".join(lines))
        return "%s: %s %s" % (rel, what, name)


def test_files(selection):
    files = set()
    for t in selection["tests"]:
        tid = t["id"]
        if tid.startswith("pytest:"):
            files.add(tid[len("pytest:"):].split("::")[0])
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tia")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--source",
                    default="/usr/lib/python3/dist-packages/pyflakes")
    ap.add_argument("--python", default="/usr/bin/python3")
    a = ap.parse_args()
    tia = os.path.abspath(a.tia)
    out = os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    repo = os.path.join(out, "repo")
    pkg = os.path.basename(a.source.rstrip("/"))
    shutil.copytree(a.source, os.path.join(repo, pkg),
                    ignore=shutil.ignore_patterns("__pycache__", "scripts"))
    db = os.path.join(out, "tia.db")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    run(["git", "init", "-q", "-b", "main"], repo)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("__pycache__/\n.pytest_cache/\n.coverage*\n")
    run(["git", "add", "-A"], repo)
    run(git + ["commit", "-qm", "packaged source"], repo)

    rng = random.Random(a.seed)
    kinds = KINDS[:]
    while len(kinds) < a.count:
        kinds += KINDS
    kinds = kinds[:a.count]
    rng.shuffle(kinds)
    edits = []
    for n, kind in enumerate(kinds, 1):
        what = edit(repo, pkg, kind, rng, n)
        run(["git", "add", "-A"], repo)
        run(git + ["commit", "-qm", what], repo)
        edits.append((kind, what))
    commits = run(["git", "rev-list", "--reverse", "HEAD"], repo).stdout.split()
    base, replay = commits[0], commits[1:]

    run(["git", "checkout", "-q", base], repo)
    t = time.monotonic()
    run([tia, "--db", db, "-q", "index"], repo)
    index_s = time.monotonic() - t
    t = time.monotonic()
    run([tia, "--db", db, "-q", "collect", "--pytest", "--python", a.python],
        repo)
    collect_s = time.monotonic() - t

    rows = []
    for c, (kind, what) in zip(replay, edits):
        run(["git", "checkout", "-q", c], repo)
        total = len([p for p in run(["git", "ls-files"], repo).stdout.split()
                     if os.path.basename(p).startswith("test_")
                     and p.endswith(".py")])
        row = {"commit": c, "kind": kind, "edit": what,
               "test_files": total, "modes": {}}
        for mode in ("static", "coverage", "combined"):
            t = time.monotonic()
            r = run([tia, "--db", db, "select", "--mode", mode, "--base",
                     c + "^", "--head", c, "--format", "json"], repo)
            secs = time.monotonic() - t
            sel = json.loads(r.stdout)
            files = sorted(test_files(sel))
            if sel["selects_all"]:
                files = ["*"]
            row["modes"][mode] = {
                "seconds": secs, "files": files,
                "selected_files": total if sel["selects_all"] else len(files),
                "tests": len(sel["tests"]), "total_tests": sel["total_tests"],
                "selects_all": sel["selects_all"],
                "changed": [e["display"] for e in sel["changed_elements"]],
            }
            if mode == "coverage":
                row["coverage_reasons"] = {
                    t["id"]: [sel["changed_elements"][r["element"]]["display"]
                              for r in t["reasons"] if "element" in r]
                    for t in sel["tests"]}
        rows.append(row)
    json.dump({"base": base, "index_seconds": index_s,
               "collect_seconds": collect_s, "rows": rows},
              open(os.path.join(out, "results.json"), "w"), indent=1)
    summary(rows, index_s, collect_s)


def summary(rows, index_s, collect_s):
    print("| # | edit | test files | static | coverage | combined |")
    print("|---|---|---|---|---|---|")
    for i, r in enumerate(rows, 1):
        m = r["modes"]
        print("| %d | %s | %d | %d | %d | %d |" % (
            i, r["edit"], r["test_files"], m["static"]["selected_files"],
            m["coverage"]["selected_files"], m["combined"]["selected_files"]))
    print()
    for mode in ("static", "coverage", "combined"):
        red = [1 - r["modes"][mode]["selected_files"] / r["test_files"]
               for r in rows]
        secs = [r["modes"][mode]["seconds"] for r in rows]
        print("%s: test files skipped %.1f%% on average; selection %.2f s "
              "median, %.2f s max" % (mode, 100 * statistics.mean(red),
                                      statistics.median(secs), max(secs)))
    print("index of the base %.1f s, collect %.1f s" % (index_s, collect_s))
    print()
    print("Commits where static selected fewer test files than coverage:")
    for i, r in enumerate(rows, 1):
        s, c = r["modes"]["static"], r["modes"]["coverage"]
        if s["selected_files"] < c["selected_files"]:
            lost = sorted(set(c["files"]) - set(s["files"]))
            why = sorted({e for t, es in r["coverage_reasons"].items()
                          if t[len("pytest:"):].split("::")[0] in lost
                          for e in es})
            print("- #%d %s: coverage only: %s (through %s)" % (
                i, r["edit"], ", ".join(lost), ", ".join(why)))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        d = json.load(open(sys.argv[2]))
        summary(d["rows"], d["index_seconds"], d["collect_seconds"])
    else:
        main()
