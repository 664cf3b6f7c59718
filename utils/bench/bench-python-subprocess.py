#!/usr/bin/env python3
"""Static, coverage and combined selection on a real package whose tests run
its code in child processes: Debian's psutil, replayed with `tia eval replay`
over scripted changes, with the ground truth of a collection at each commit.

  utils/bench/bench-python-subprocess.py TIA WORK_DIR [--changes N]
        [--deb FILE] [--python PY]

psutil's tests start Python children (psutil.tests.spawn_testproc,
subprocess, multiprocessing) that import psutil, so what the children run is
seen only through tia's child-process coverage and evidence. The package
(with its compiled extension) is taken from python3-psutil's .deb (--deb,
else `apt-get download python3-psutil`), committed with the test files that
run on Linux in reasonable time, and N (default 10) commits are made on top,
each adding one statement to the body of one function of psutil's Python
modules, spread evenly over them. Then

  tia eval replay --commits BASE..HEAD --pytest --modes static,coverage,combined

runs in the repository (in a scratch clone); its Markdown report is printed
and kept in WORK_DIR/replay.md.
"""

import argparse
import ast
import glob
import os
import shutil
import subprocess

TEST_FILES = ["test_process.py", "test_posix.py", "test_misc.py",
              "test_system.py", "test_testutils.py"]
MODULES = ["__init__.py", "_common.py", "_pslinux.py", "_psposix.py"]


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, text=True,
                          capture_output=True, **kw)


def unpack(deb, work):
    if not deb:
        run(["apt-get", "download", "python3-psutil"], cwd=work)
        deb = sorted(glob.glob(os.path.join(work, "python3-psutil_*.deb")))[-1]
    out = os.path.join(work, "deb")
    run(["dpkg-deb", "-x", deb, out], cwd=work)
    return os.path.join(out, "usr", "lib", "python3", "dist-packages", "psutil")


def make_repo(package, repo):
    shutil.copytree(package, os.path.join(repo, "psutil"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    tests = os.path.join(repo, "psutil", "tests")
    for name in os.listdir(tests):
        if name.startswith("test_") and name not in TEST_FILES:
            os.remove(os.path.join(tests, name))
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("__pycache__/\n.pytest_cache/\n.coverage*\n")
    run(["git", "init", "-q", "-b", "main"], cwd=repo)
    run(["git", "add", "-A"], cwd=repo)
    commit(repo, "psutil as Debian ships it")


def commit(repo, message):
    """Commits every tracked file's change (and what `git add` staged)."""
    run(["git", "-c", "user.name=bench", "-c", "user.email=bench@tia.invalid",
         "commit", "-qam", message], cwd=repo)


def functions(repo):
    """(module, line of the first body statement, name) of every function
    and method with two statements or more in psutil's modules."""
    out = []
    for module in MODULES:
        path = os.path.join(repo, "psutil", module)
        tree = ast.parse(open(path).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and len(node.body) >= 2:
                body = node.body
                first = body[1] if (isinstance(body[0], ast.Expr) and
                                    isinstance(body[0].value, ast.Constant)) \
                    else body[0]
                out.append((module, first.lineno, node.name))
    return sorted(out)


def add_statement(repo, module, line, n):
    path = os.path.join(repo, "psutil", module)
    lines = open(path).read().split("\n")
    target = lines[line - 1]
    indent = target[:len(target) - len(target.lstrip())]
    lines.insert(line - 1, "%s_tia_bench_%d = %d" % (indent, n, n))
    open(path, "w").write("\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tia")
    p.add_argument("work")
    p.add_argument("--changes", type=int, default=10)
    p.add_argument("--deb")
    p.add_argument("--python", default="/usr/bin/python3")
    a = p.parse_args()
    tia = os.path.abspath(a.tia)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    repo = os.path.join(a.work, "repo")
    os.makedirs(repo)
    make_repo(unpack(a.deb and os.path.abspath(a.deb), a.work), repo)

    funcs = functions(repo)
    step = max(1, len(funcs) // a.changes)
    chosen = funcs[step // 2::step][:a.changes]
    # Later lines first within a module: an inserted line moves only the
    # lines below it.
    chosen.sort(key=lambda f: (f[0], -f[1]))
    for n, (module, line, name) in enumerate(chosen):
        add_statement(repo, module, line, n)
        commit(repo, "%s: %s gains a statement" % (module, name))

    replay = [tia, "eval", "replay", "--commits", "HEAD~%d..HEAD" % len(chosen),
              "--pytest", "--python", a.python,
              "--modes", "static,coverage,combined"]
    out = run(replay + ["--format", "markdown"], cwd=repo,
              env=dict(os.environ, TMPDIR=a.work))
    with open(os.path.join(a.work, "replay.md"), "w") as f:
        f.write(out.stdout)
    print(out.stdout)
    print(out.stderr.strip().splitlines()[-1])

if __name__ == "__main__":
    main()
