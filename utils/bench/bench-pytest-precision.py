#!/usr/bin/env python3
"""Selected/total on a real pytest suite with many parametrized tests, per
selection mode, for one-function changes; optionally against another tia
build (the "before" of a change to tia), in the same run.

  utils/bench/bench-pytest-precision.py TIA SOURCE [--before OLD_TIA]
        [--tests DIR...] [--changes N] [--python PY]

SOURCE is a Python package with its tests inside it (test folders outside
--tests are left out, so that every test tia knows is one pytest collects), for example Debian's
networkx (`apt-get download python3-networkx`, `dpkg-deb -x`, then
usr/lib/python3/dist-packages/networkx). The package is committed to a git
repository in a temporary folder; each tia indexes it and collects its
tests under --tests (default: the whole package) with `collect --pytest`.
Then N (default 10) one-function changes, spread evenly over the package's
functions outside its tests, each adding one statement to a function's
body, are made in the work tree one at a time, and `tia select --base HEAD`
runs in the coverage, static and combined modes. Prints, per change and
mode, "selected/total" of each tia, and pytest's own count of the tests.
"""

import argparse
import ast
import os
import re
import shutil
import subprocess
import tempfile
import time

MODES = ["coverage", "static", "combined"]


def run(cmd, cwd, check=True):
    return subprocess.run(cmd, cwd=cwd, check=check, text=True,
                          capture_output=True)


def functions(root, package):
    """(path, line of the first body statement, name) of the functions
    outside the tests with two statements or more, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, package)):
        dirnames.sort()
        if "tests" in os.path.relpath(dirpath, root).split(os.sep):
            continue
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            try:
                tree = ast.parse(open(path).read())
            except SyntaxError:
                continue
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and len(node.body) >= 2:
                    body = node.body
                    first = body[1] if (isinstance(body[0], ast.Expr) and
                                        isinstance(body[0].value,
                                                   ast.Constant)) else body[0]
                    out.append((os.path.relpath(path, root), first.lineno,
                                first.col_offset, node.name))
    return out


def drop_other_tests(repo, tests):
    """Removes the test folders outside \p tests, so that every test tia
    knows is one pytest collects there."""
    keep = [os.path.normpath(t) for t in tests]
    for dirpath, dirnames, _ in os.walk(repo):
        rel = os.path.relpath(dirpath, repo)
        if os.path.basename(rel) == "tests" and not any(
                rel == k or rel.startswith(k + os.sep) for k in keep):
            shutil.rmtree(dirpath)
            dirnames[:] = []


def spread(items, n):
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def selected(tia, db, repo, mode):
    r = run([tia, "--db", db, "select", "--base", "HEAD", "--mode", mode,
             "--format", "ids"], repo, check=False)
    m = re.search(r"selected (all )?(\d+)(?: of (\d+))? tests", r.stderr)
    if not m:
        return "?"
    if m.group(1):
        return f"{m.group(2)}/{m.group(2)}"
    return f"{m.group(2)}/{m.group(3)}"


def prepare(tia, repo, db, python, tests):
    start = time.time()
    run([tia, "-q", "--db", db, "index"], repo)
    run([tia, "-q", "--db", db, "collect", "--pytest", "--python", python,
         "--"] + tests, repo, check=False)
    return time.time() - start


def main():
    p = argparse.ArgumentParser()
    p.add_argument("tia")
    p.add_argument("source")
    p.add_argument("--before")
    p.add_argument("--tests", nargs="*")
    p.add_argument("--changes", type=int, default=10)
    p.add_argument("--python", default="/usr/bin/python3")
    a = p.parse_args()
    package = os.path.basename(os.path.normpath(a.source))
    tmp = tempfile.mkdtemp(prefix="tia-bench-precision.")
    repo = os.path.join(tmp, "repo")
    try:
        shutil.copytree(a.source, os.path.join(repo, package),
                        ignore=shutil.ignore_patterns("__pycache__"))
        tests = a.tests or [package]
        drop_other_tests(repo, tests)
        git = ["git", "-c", "user.name=bench", "-c", "user.email=b@invalid"]
        run(git + ["init", "-q"], repo)
        with open(os.path.join(repo, ".gitignore"), "w") as f:
            f.write("__pycache__/\n.tia/\n")
        run(git + ["add", "-A"], repo)
        run(git + ["commit", "-qm", "source"], repo)
        tias = [("after", os.path.abspath(a.tia))] + (
        [("before", os.path.abspath(a.before))] if a.before else [])
        dbs = {}
        for label, tia in tias:
            dbs[label] = os.path.join(tmp, label + ".db")
            secs = prepare(tia, repo, dbs[label], a.python, tests)
            print(f"<!-- {label}: index + collect {secs:.0f} s wall -->")
        pytest = run([a.python, "-m", "pytest", "-q", "--collect-only",
                      "-p", "no:cacheprovider"] + tests, repo, check=False)
        count = re.search(r"(\d+) tests? collected", pytest.stdout)
        print(f"pytest collects {count.group(1) if count else '?'} tests "
              f"under {' '.join(tests)}.\n")
        head = "| change |" + "".join(
            f" {m} ({label}) |" for m in MODES for label, _ in tias)
        print(head)
        print("|---|" + "---|" * (len(MODES) * len(tias)))
        for path, line, col, name in spread(functions(repo, package),
                                            a.changes):
            file = os.path.join(repo, path)
            text = open(file).read()
            lines = text.split("\n")
            lines.insert(line - 1, " " * col + "_tia_bench_change = 0")
            open(file, "w").write("\n".join(lines))
            cells = [selected(tia, dbs[label], repo, m)
                     for m in MODES for label, tia in tias]
            open(file, "w").write(text)
            print(f"| `{path}`: {name} | " + " | ".join(cells) + " |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
