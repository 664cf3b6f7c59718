#!/usr/bin/env python3
"""Runs tia writers at the same time against one database and checks that
every one of them succeeded and every row arrived.

  concurrent-writers.py REPO COVERAGE_JSON WRITERS IMPORTS [--index BUILD]

Each of WRITERS processes imports COVERAGE_JSON IMPORTS times, each time as
a test of its own (ctest:wW_I), one `tia coverage import` per import. With
--index, a `tia index -p BUILD` runs in a loop beside them, and a reader
(`tia dump tests`) too. Prints one line per failure and a summary; exits
non-zero when a process failed or a row is missing.
"""
import argparse
import subprocess
import sys
import threading


def run(cmd, cwd, failures, lock):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        with lock:
            failures.append("%s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                                 p.stderr.strip()))
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("coverage")
    ap.add_argument("writers", type=int)
    ap.add_argument("imports", type=int)
    ap.add_argument("--index")
    a = ap.parse_args()

    failures, lock = [], threading.Lock()
    done = threading.Event()

    def writer(w):
        for i in range(a.imports):
            run(["tia", "coverage", "import", "-q", "--format", "llvm-cov-json",
                 "--test", "ctest:w%d_%d" % (w, i), a.coverage], a.repo,
                failures, lock)

    def background(cmd):
        while not done.is_set():
            run(cmd, a.repo, failures, lock)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(a.writers)]
    others = []
    if a.index:
        others = [threading.Thread(target=background,
                                   args=(["tia", "index", "-q", "-p", a.index],)),
                  threading.Thread(target=background,
                                   args=(["tia", "dump", "tests"],))]
    for t in threads + others:
        t.start()
    for t in threads:
        t.join()
    done.set()
    for t in others:
        t.join()

    dump = run(["tia", "dump", "tests"], a.repo, failures, lock).stdout
    seen = {}
    for line in dump.splitlines():
        name, _, rest = line.partition(" ")
        seen[name] = rest
    missing = ["ctest:w%d_%d" % (w, i) for w in range(a.writers)
               for i in range(a.imports)
               if not seen.get("ctest:w%d_%d" % (w, i), "").startswith("elements=")
               or seen["ctest:w%d_%d" % (w, i)].startswith("elements=0 ")]
    for f in failures:
        print("failed: " + f)
    for m in missing:
        print("missing: " + m)
    print("%d writers x %d imports: %d failures, %d missing rows" %
          (a.writers, a.imports, len(failures), len(missing)))
    return 1 if failures or missing else 0


if __name__ == "__main__":
    sys.exit(main())
