#!/usr/bin/env python3
"""Generates a git history with test runs, for tia train / tia rank.

The repository has modules, each with sources (MOD/src/*.cpp) and GoogleTest
files (MOD/tests/*_test.cpp, one test each), documentation (README.md,
docs/*.md) and commits spread over --days days by a few authors. Every commit
is tested once (a CI run an hour later) and every failing test is retried
once. What fails is decided by a hidden ground truth:

  realistic  each test depends on a few files of its own module and now and
             then on a file of another module; a commit changing such a file
             breaks the test with --break-probability. Flaky tests fail at
             random (--flaky-probability) and pass on retry.
  directory  one test, net's, fails whenever a commit changes net/src/;
             nothing else fails but the flaky tests.

Documentation-only and comment-only commits never break a test. The result is
a git repository in OUT/repo and the runs in OUT/results.tsv, the input of
tia-load-results (tools/tia-load-results), which this script runs when given
--load DB. Deterministic for a given --seed.

  utils/bench/gen-history.py --out /tmp/h --commits 400 --load /tmp/h/repo/.tia/tia.db
"""

import argparse
import os
import random
import re
import subprocess
import sys

AUTHORS = ["ada", "brian", "grace", "ken", "linus", "margaret"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (made if missing)")
    ap.add_argument("--scenario", choices=["realistic", "directory"], default="realistic")
    ap.add_argument("--commits", type=int, default=300)
    ap.add_argument("--days", type=int, default=60)
    ap.add_argument("--modules", type=int, default=8)
    ap.add_argument("--files-per-module", type=int, default=6)
    ap.add_argument("--tests-per-module", type=int, default=12)
    ap.add_argument("--break-probability", type=float, default=0.25)
    ap.add_argument("--flaky-tests", type=int, default=3)
    ap.add_argument("--flaky-probability", type=float, default=0.05)
    ap.add_argument("--docs-share", type=float, default=0.10)
    ap.add_argument("--comment-share", type=float, default=0.05)
    ap.add_argument("--visible-share", type=float, default=None,
                    help="each test calls the function of each source file it depends on "
                         "with this probability (the other dependencies stay hidden, as a data "
                         "file would), and a code change edits that function; default: no test "
                         "calls anything and changes only add functions")
    ap.add_argument("--no-failures", action="store_true",
                    help="every test passes (one class of labels)")
    ap.add_argument("--start", type=int, default=1767225600,
                    help="time of the first commit (default 2026-01-01)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--load", metavar="DB", help="load the runs into this database")
    ap.add_argument("--loader", default="tia-load-results",
                    help="the tia-load-results program (default: from PATH)")
    a = ap.parse_args()
    rng = random.Random(a.seed)

    if a.scenario == "directory":
        modules = ["core", "db", "net", "ui"]
    else:
        modules = ["mod%d" % i for i in range(a.modules)]
    files = {}  # path -> content
    sources = {m: ["%s/src/%s%d.cpp" % (m, m, j) for j in range(a.files_per_module)]
               for m in modules}
    for m in modules:
        for j, p in enumerate(sources[m]):
            files[p] = "// %s\nint %s_%d_base() { return %d; }\n" % (p, m, j, j)
    tests = []  # (id, file, module)
    for m in modules:
        for k in range(a.tests_per_module):
            suite = "%s%d" % (m.capitalize(), k)
            path = "%s/tests/%s_%d_test.cpp" % (m, m, k)
            files[path] = "#include <gtest/gtest.h>\nTEST(%s, Works) { EXPECT_EQ(1, 1); }\n" % suite
            tests.append(("gtest:%s_tests:%s.Works" % (m, suite), path, m))
    base_of = {p: "%s_%d_base" % (m, j) for m in modules for j, p in enumerate(sources[m])}
    files["README.md"] = "# generated project\n"
    docs = ["docs/guide.md", "docs/design.md"]
    for d in docs:
        files[d] = "# %s\n" % d

    # Ground truth: which source files each test depends on.
    depends = {}
    for tid, _, m in tests:
        if a.scenario == "directory":
            depends[tid] = set(sources["net"]) if tid.startswith("gtest:net_tests:Net0.") else set()
            continue
        own = set(p for p in sources[m] if rng.random() < 0.3)
        if rng.random() < 0.3:
            other = rng.choice(modules)
            own.add(rng.choice(sources[other]))
        depends[tid] = own
    if a.visible_share is not None:
        for tid, path, _ in tests:
            calls = sorted(base_of[p] for p in depends[tid] if rng.random() < a.visible_share)
            suite = tid.split(":")[2].split(".")[0]
            files[path] = "#include <gtest/gtest.h>\n%sTEST(%s, Works) { EXPECT_GE(0%s, 0); }\n" % (
                "".join("int %s();\n" % c for c in calls), suite,
                "".join(" + %s()" % c for c in calls))
    candidates = [t for t, _, _ in tests if not depends[t]] or [t for t, _, _ in tests]
    flaky = set(rng.sample(candidates, min(a.flaky_tests, len(candidates))))
    durations = {t: round(rng.uniform(0.05, 3.0), 3) for t, _, _ in tests}
    weights = [1.0 / (i + 1) for i in range(len(modules))]

    os.makedirs(a.out, exist_ok=True)
    repo = os.path.join(a.out, "repo")
    if os.path.exists(repo):
        sys.exit("gen-history: %s exists: pass a new --out" % repo)
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True, env=env)

    stream = []
    rows = ["# generated by utils/bench/gen-history.py --seed %d --scenario %s" % (a.seed, a.scenario)]
    for tid, path, _ in tests:
        rows.append("test\t%s\t%s\t2" % (tid, path))
    runs = []  # (mark, time, [(test, outcome, seconds, attempt)])
    span = a.days * 86400
    counter = 0
    for n in range(a.commits):
        t = a.start + int(span * n / max(1, a.commits)) + rng.randint(0, 600)
        author = rng.choice(AUTHORS)
        changed = []
        roll = rng.random()
        if n == 0:
            kind, changed = "initial", sorted(files)
        elif roll < a.docs_share:
            kind = "docs"
            d = rng.choice(["README.md"] + docs)
            files[d] += "More words %d.\n" % n
            changed = [d]
        elif roll < a.docs_share + a.comment_share:
            kind = "comment"
            m = rng.choices(modules, weights)[0]
            p = rng.choice(sources[m])
            files[p] += "// note %d\n" % n
            changed = [p]
        else:
            kind = "code"
            m = rng.choices(modules, weights)[0]
            picked = rng.sample(sources[m], rng.randint(1, min(3, len(sources[m]))))
            if rng.random() < 0.15:
                picked.append(rng.choice(sources[rng.choice(modules)]))
            for p in picked:
                counter += 1
                if a.visible_share is None:
                    files[p] += "int %s_f%d() { return %d; }\n" % (p.split("/")[-1][:-4], counter, counter)
                else:
                    files[p] = re.sub(r"_base\(\) \{ return \d+; \}",
                                      "_base() { return %d; }" % counter, files[p], count=1)
                changed.append(p)
        msg = "%s change %d\n" % (kind, n)
        stream.append("commit refs/heads/main\nmark :%d\n" % (n + 1))
        stream.append("author %s <%s@example.invalid> %d +0000\n" % (author, author, t))
        stream.append("committer %s <%s@example.invalid> %d +0000\n" % (author, author, t))
        stream.append("data %d\n%s" % (len(msg.encode()), msg))
        if n:
            stream.append("from :%d\n" % n)
        for p in sorted(set(changed)):
            data = files[p].encode()
            stream.append("M 100644 inline %s\ndata %d\n" % (p, len(data)))
            stream.append(files[p] + "\n")

        results = []
        changed_set = set(changed) if kind == "code" else set()
        for tid, _, _ in tests:
            secs = round(durations[tid] * rng.uniform(0.8, 1.2), 3)
            broken = (not a.no_failures and n > 0 and bool(depends[tid] & changed_set)
                      and (a.scenario == "directory" or rng.random() < a.break_probability))
            if broken:
                results += [(tid, "failed", secs, 0), (tid, "failed", secs, 1)]
            elif (not a.no_failures and tid in flaky and n > 0
                  and rng.random() < a.flaky_probability):
                results += [(tid, "failed", secs, 0), (tid, "passed", secs, 1)]
            else:
                results.append((tid, "passed", secs, 0))
        runs.append((n + 1, t + 3600, results))

    p = subprocess.run(["git", "fast-import", "--quiet", "--export-marks=" +
                        os.path.join(a.out, "marks")], cwd=repo, env=env,
                       input="".join(stream).encode(), check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, env=env, check=True)
    marks = {}
    with open(os.path.join(a.out, "marks")) as f:
        for line in f:
            mark, sha = line.split()
            marks[int(mark[1:])] = sha
    failing = total = 0
    for mark, started, results in runs:
        rows.append("run\t%s\t%d\tgenerated" % (marks[mark], started))
        for tid, outcome, secs, attempt in results:
            rows.append("result\t%s\t%s\t%.3f\t%d" % (tid, outcome, secs, attempt))
        finals = {}
        for tid, outcome, _, _ in results:
            finals[tid] = outcome
        total += len(finals)
        failing += sum(1 for o in finals.values() if o == "failed")
    tsv = os.path.join(a.out, "results.tsv")
    with open(tsv, "w") as f:
        f.write("\n".join(rows) + "\n")
    print("gen-history: %d commits, %d tests, %d runs, %d of %d results failing (%.2f%%), "
          "%d flaky tests" % (a.commits, len(tests), len(runs), failing, total,
                               100.0 * failing / max(1, total), len(flaky)))
    if a.load:
        # Like 'tia index', keep a database inside the work tree out of git.
        db_dir = os.path.dirname(os.path.abspath(a.load))
        os.makedirs(db_dir, exist_ok=True)
        if os.path.basename(db_dir) == ".tia":
            with open(os.path.join(db_dir, ".gitignore"), "w") as f:
                f.write("*\n")
        subprocess.run([a.loader, a.load, tsv], check=True)


if __name__ == "__main__":
    main()
