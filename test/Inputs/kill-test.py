#!/usr/bin/env python3
"""Kills tia commands with SIGKILL at random points and checks the database
after each kill: it opens, passes PRAGMA integrity_check, and holds either
all or none of the interrupted command's writes.

  kill-test.py REPO BUILD LCOV ITERATIONS [--seed N]

REPO is an indexed project (make-project.sh) whose build directory BUILD
holds compile_commands.json; LCOV is an lcov tracefile of one test. Each
iteration runs one of:
  - `tia coverage import` of a tracefile with 20 tests named it<K>_t<J>:
    afterwards there are 0 or 20 such tests, each with all its links;
  - `tia index` after appending a function to src/math.cpp: afterwards the
    latest index revision and the stored versions of src/math.cpp agree
    (the new version is stored if and only if a revision was added).
Prints a summary line; exits non-zero on the first inconsistency.
"""
import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

TESTS_PER_IMPORT = 20


def db_path(repo):
    return os.path.join(repo, ".tia", "tia.db")


def check_integrity(repo):
    con = sqlite3.connect(db_path(repo))
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        fk = con.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        con.close()
    if ok != "ok":
        return "integrity_check: " + ok
    if fk:
        return "foreign_key_check: %d violations" % len(fk)
    return None


def query(repo, sql, *args):
    con = sqlite3.connect(db_path(repo))
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def run_and_kill(cmd, cwd, delay):
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    time.sleep(delay)
    killed = p.poll() is None
    if killed:
        p.send_signal(signal.SIGKILL)
    _, err = p.communicate()
    if not killed and p.returncode != 0:
        raise SystemExit("%s failed on its own: %s" % (" ".join(cmd), err.decode()))
    return killed


def timed(cmd, cwd):
    start = time.monotonic()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("build")
    ap.add_argument("lcov")
    ap.add_argument("iterations", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    a.repo, a.build, a.lcov = map(os.path.abspath, (a.repo, a.build, a.lcov))
    rng = random.Random(a.seed)
    body = "".join(l for l in open(a.lcov).readlines()
                   if not l.startswith("TN:"))
    work = os.path.join(a.repo, "..", "kill")
    os.makedirs(work, exist_ok=True)
    source = os.path.join(a.repo, "src", "math.cpp")

    def import_cmd(k):
        path = os.path.join(work, "it%d.info" % k)
        with open(path, "w") as f:
            for j in range(TESTS_PER_IMPORT):
                f.write("TN:it%d_t%d\n%s" % (k, j, body))
        return ["tia", "coverage", "import", "-q", "--format", "lcov", path]

    def index_cmd(k):
        with open(source, "a") as f:
            f.write("int killed_%d() { return %d; }\n" % (k, k))
        return ["tia", "index", "-q", "-p", a.build]

    # How long each command takes when nobody kills it.
    durations = {"import": timed(import_cmd(-1), a.repo),
                 "index": timed(index_cmd(-1), a.repo)}
    links = query(a.repo, "SELECT c.covered FROM test_coverage c JOIN tests t "
                  "ON t.id = c.test_id WHERE t.name = 'it-1_t0'")[0][0]

    kills = {"import": 0, "index": 0}
    for k in range(a.iterations):
        kind = "import" if k % 4 else "index"
        revisions = query(a.repo, "SELECT count(*) FROM revisions")[0][0]
        versions = query(a.repo, "SELECT count(*) FROM file_versions "
                         "WHERE path = 'src/math.cpp'")[0][0]
        cmd = import_cmd(k) if kind == "import" else index_cmd(k)
        if run_and_kill(cmd, a.repo, rng.uniform(0, durations[kind] * 1.2)):
            kills[kind] += 1
        problem = check_integrity(a.repo)
        if not problem and kind == "import":
            rows = query(a.repo, "SELECT t.name, (SELECT covered FROM "
                         "test_coverage c WHERE c.test_id = t.id) FROM tests t WHERE t.name "
                         "LIKE ?", "it%d\\_%%" % k)
            rows = [r for r in rows if r[0].startswith("it%d_" % k)]
            if len(rows) not in (0, TESTS_PER_IMPORT) or \
                    any(n != links for _, n in rows):
                problem = "import %d left %d of %d tests: %s" % (
                    k, len(rows), TESTS_PER_IMPORT, rows[:3])
        elif not problem:
            added_rev = query(a.repo, "SELECT count(*) FROM revisions")[0][0] - revisions
            added_ver = query(a.repo, "SELECT count(*) FROM file_versions WHERE "
                              "path = 'src/math.cpp'")[0][0] - versions
            if (added_rev, added_ver) not in ((0, 0), (1, 1)):
                problem = "index %d added %d revisions and %d versions" % (
                    k, added_rev, added_ver)
        if problem:
            print("iteration %d (%s): %s" % (k, kind, problem))
            return 1
    # tia itself still opens the database and can write to it.
    subprocess.run(["tia", "index", "-q", "-p", a.build], cwd=a.repo, check=True)
    print("%d iterations, %d imports and %d indexes killed: database consistent "
          "after every kill" % (a.iterations, kills["import"], kills["index"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
