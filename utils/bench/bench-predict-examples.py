#!/usr/bin/env python3
"""Failure prediction on a history of the bundled examples, with real test runs.

For examples/textkit (pytest) and examples/calc (GoogleTest through ctest),
makes a scratch git repository and grows a history of COMMITS commits, each
tested for real, its JUnit results imported with `tia results import`:
  - 10% documentation-only commits (README.md), 5% comment-only commits;
  - 25% commits that mutate one line of a source file (swap an operator,
    change a constant, negate a condition); a mutation that does not build is
    replaced by a harmless one, and one that breaks tests is fixed (reverted)
    by the next commit, as on a real branch;
  - the others add a function no test calls.
Then `tia train` learns from the older commits and validates on the newest
(as utils/bench/bench-predict.sh), and `tia rank` ranks a one-file change. Prints a
Markdown table for docs/Benchmarks.md, and the history's shape on stderr.

  utils/bench/bench-predict-examples.py [--build DIR] [--commits N] [--seed S]
                                  [--examples textkit,calc]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUTHORS = ["ada", "brian", "grace", "ken"]
START = 1767225600  # 2026-01-01
STEP = 6 * 3600  # a commit every six hours

# (pattern, replacement) pairs: small semantic mutations.
MUTATIONS = [
    (r" \+ ", " - "), (r" - ", " + "), (r" \* ", " / "), (r" < ", " <= "),
    (r" > ", " >= "), (r" == ", " != "), (r"\b0\.0\b", "1.0"),
    (r"\b2\b", "3"), (r"\b1\b", "2"), (r"\bTrue\b", "False"),
    (r"\bFalse\b", "True"), (r"\bnot ", ""), (r"!\s*(\w)", r"\1"),
]


def run(cmd, cwd, env=None, check=True):
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if check and r.returncode != 0:
        sys.exit("bench-predict-examples: %s failed in %s:\n%s" %
                 (" ".join(cmd), cwd, r.stdout[-2000:]))
    return r


class Example:
    def __init__(self, name, tia, work):
        self.name, self.tia = name, tia
        self.repo = os.path.join(work, name)
        shutil.copytree(os.path.join(ROOT, "examples", name), self.repo)
        with open(os.path.join(self.repo, ".gitignore"), "w") as f:
            f.write("/build/\n/.tia/\n__pycache__/\n.pytest_cache/\n/junit.xml\n")
        with open(os.path.join(self.repo, "README.md"), "w") as f:
            f.write("# %s\n" % name)
        self.python = name == "textkit"
        self.sources = sorted(
            os.path.relpath(os.path.join(d, f), self.repo)
            for d, _, fs in os.walk(os.path.join(self.repo, "src"))
            for f in fs if f.endswith((".py", ".cpp")) and f != "__init__.py")
        run(["git", "init", "-q", "-b", "main"], self.repo)
        self.commit("initial", 0)
        if self.python:
            run([tia, "index", "-q"], self.repo)
        else:
            run(["cmake", "-G", "Ninja", "-S", ".", "-B", "build",
                 "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_COMPILER=clang++-19",
                 "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], self.repo)
            run([tia, "index", "-q", "-p", "build"], self.repo)

    def commit(self, message, i):
        env = dict(os.environ)
        date = "@%d +0000" % (START + i * STEP)
        author = AUTHORS[i % len(AUTHORS)]
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
                   GIT_AUTHOR_NAME=author, GIT_COMMITTER_NAME=author,
                   GIT_AUTHOR_EMAIL=author + "@example.invalid",
                   GIT_COMMITTER_EMAIL=author + "@example.invalid")
        run(["git", "add", "-A"], self.repo)
        run(["git", "commit", "-q", "--allow-empty", "-m", message], self.repo,
            env=env)

    def builds(self):
        if self.python:
            return True
        return run(["ninja", "-C", "build"], self.repo, check=False).returncode == 0

    def test(self):
        """Runs the tests, imports the results; returns the failures."""
        junit = os.path.join(self.repo, "junit.xml")
        if self.python:
            env = dict(os.environ, PYTHONPATH=os.path.join(self.repo, "src"))
            run(["pytest", "-q", "-p", "no:cacheprovider",
                 "--junitxml", junit], self.repo, env=env, check=False)
        else:
            run(["ctest", "--test-dir", "build", "--output-junit", junit],
                self.repo, check=False)
        run([self.tia, "results", "import", "-q", "--format", "junit", junit],
            self.repo)
        with open(junit) as f:
            text = f.read()
        return len(re.findall(r"<failure|<error", text))

    def read(self, path):
        with open(os.path.join(self.repo, path)) as f:
            return f.read().split("\n")

    def write(self, path, lines):
        with open(os.path.join(self.repo, path), "w") as f:
            f.write("\n".join(lines))


def comment(ex, path):
    return "# note" if path.endswith(".py") else "// note"


def harmless(ex, rng, i):
    path = rng.choice(ex.sources)
    lines = ex.read(path)
    if path.endswith(".py"):
        lines += ["", "def _unused_%d():" % i, "    return %d" % i, ""]
    else:
        lines += ["int unused_%d() { return %d; }" % (i, i), ""]
    ex.write(path, lines)
    return "add unused_%d to %s" % (i, path)


def mutate(ex, rng):
    """Applies one mutation; returns (path, old lines) or None."""
    candidates = []
    for path in ex.sources:
        for n, line in enumerate(ex.read(path)):
            s = line.strip()
            if not s or s.startswith(("#", "//", '"""', "def ", "class ")):
                continue
            for pattern, repl in MUTATIONS:
                if re.search(pattern, line):
                    candidates.append((path, n, pattern, repl))
    if not candidates:
        return None
    path, n, pattern, repl = rng.choice(candidates)
    lines = ex.read(path)
    old = list(lines)
    lines[n] = re.sub(pattern, repl, lines[n], count=1)
    ex.write(path, lines)
    return path, old


def grow(ex, commits, rng):
    failing_commits = failing_results = 0
    pending_fix = None
    for i in range(1, commits + 1):
        r = rng.random()
        mutation = None
        if pending_fix:
            path, old = pending_fix
            ex.write(path, old)
            message = "fix %s" % path
            pending_fix = None
        elif r < 0.10:
            with open(os.path.join(ex.repo, "README.md"), "a") as f:
                f.write("More words, commit %d.\n" % i)
            message = "docs"
        elif r < 0.15:
            path = rng.choice(ex.sources)
            lines = ex.read(path)
            lines.insert(0, comment(ex, path) + " %d" % i)
            ex.write(path, lines)
            message = "comment in %s" % path
        elif r < 0.40:
            mutation = mutate(ex, rng)
            message = "change %s" % (mutation[0] if mutation else "nothing")
            if mutation and not ex.builds():
                ex.write(mutation[0], mutation[1])
                mutation = None
                message = harmless(ex, rng, i)
        else:
            message = harmless(ex, rng, i)
        ex.commit(message, i)
        if not ex.builds():
            sys.exit("bench-predict-examples: %s does not build at commit %d" %
                     (ex.name, i))
        failures = ex.test()
        if failures:
            failing_commits += 1
            failing_results += failures
            if mutation:
                pending_fix = mutation
    return failing_commits, failing_results


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--commits", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--examples", default="textkit,calc")
    ap.add_argument("--work", help="keep the repositories here")
    a = ap.parse_args()
    tia = os.path.join(os.path.abspath(a.build), "tools", "tia", "tia")
    if not os.access(tia, os.X_OK):
        sys.exit("bench-predict-examples: build tia first (ninja -C %s)" % a.build)
    work = a.work or tempfile.mkdtemp(prefix="tia-predict-examples.")
    os.makedirs(work, exist_ok=True)
    # An installed copy, so that rebuilding tia meanwhile does not matter.
    run(["cmake", "--install", a.build, "--prefix", os.path.join(work, "tia")],
        ROOT)
    tia = os.path.join(work, "tia", "bin", "tia")
    print("| example | tests | commits | failing commits | failing results | order | APFD | recall@10% | recall@50% | train (s) | predict per commit (ms) | tia rank (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        for name in a.examples.split(","):
            rng = random.Random(a.seed)
            ex = Example(name, tia, work)
            t = time.time()
            fc, fr = grow(ex, a.commits, rng)
            grown = time.time() - t
            tests = len(run([tia, "dump", "tests"], ex.repo).stdout.splitlines())
            t0 = time.time()
            r = run([tia, "train", "--format", "json", "-q"], ex.repo, check=False)
            t1 = time.time()
            if r.returncode != 0:
                print("| %s | %d | %d | %d | %d | (no model: %s) | | | | | | |" % (
                    name, tests, a.commits, fc, fr, r.stdout.strip().splitlines()[-1]))
                continue
            train = json.loads(r.stdout)
            harmless(ex, rng, a.commits + 1)
            t2 = time.time()
            run([tia, "rank", "-q"], ex.repo)
            t3 = time.time()
            for order in ["predicted", "heuristic", "random"]:
                q = train[order]
                print("| %s | %d | %d | %d | %d | %s | %.3f | %.3f | %.3f | %.1f | %.2f | %.2f |" % (
                    name, tests, a.commits, fc, fr, order, q["apfd"],
                    q["recall_at_10"], q["recall_at_50"], t1 - t0,
                    train["inference_seconds_per_commit"] * 1000, t3 - t2))
            print("%s: %d commits grown and tested in %.0f s; model: %s, %d samples, "
                  "validation F1 %.3f on %d commits with failures" % (
                      name, a.commits, grown, train["params"], train["samples"],
                      train["validation_f1"], train["validation_commits"]),
                  file=sys.stderr)
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
