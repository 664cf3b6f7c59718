#!/usr/bin/env python3
"""Compares C++ static, combined and coverage selection on scripted changes.

    utils/bench/bench-cpp-modes.py TIA OUT_DIR

Copies examples/calc into OUT_DIR, indexes it, builds each GoogleTest
program with clang's source-based coverage, runs every test case alone and
imports its coverage (gtest:BINARY:Suite.Name). Then, for every function of
src/ (one scripted change each: `(void)0;` inserted after its first `{`, a
semantic change that runs nothing new), runs `tia select --mode M --base
HEAD --format json` for each mode against the work tree. Ground truth: the
tests whose coverage contains the changed function (what the coverage mode
selects). Prints per mode the tests selected and missed over all changes,
and writes OUT_DIR/results.tsv.
"""
import json, os, re, shutil, subprocess, sys

tia, out = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
here = os.path.dirname(os.path.realpath(__file__))
root = os.path.dirname(os.path.dirname(here))
clang = shutil.which("clang++-19") or "/usr/lib/llvm-19/bin/clang++"
tools = "/usr/lib/llvm-19/bin"


def run(*cmd, cwd=None, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, text=True,
                          capture_output=True, **kw).stdout


shutil.rmtree(out, ignore_errors=True)
repo, build = os.path.join(out, "calc"), os.path.join(out, "build")
shutil.copytree(os.path.join(root, "examples", "calc"), repo)
srcs = sorted("src/" + f for f in os.listdir(os.path.join(repo, "src")))
tests = sorted("tests/" + f for f in os.listdir(os.path.join(repo, "tests"))
               if f.endswith(".cpp"))
run("python3", os.path.join(root, "test", "Inputs", "compdb.py"), build, repo,
    "-Iinclude", "--", *srcs, *tests)
run("git", "init", "-q", "-b", "main", cwd=repo)
run("git", "add", "-A", cwd=repo)
run("git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm",
    "init", cwd=repo)
run(tia, "index", "-q", "-p", build, cwd=repo)
for t in tests:
    name = os.path.basename(t)[:-4]
    binary = os.path.join(build, name)
    run(clang, "-std=c++17", "-Iinclude", "-fprofile-instr-generate",
        "-fcoverage-mapping", *srcs, t, "-o", binary, "-lgtest",
        "-lgtest_main", "-pthread", cwd=repo)
    suite = None
    for line in run(binary, "--gtest_list_tests").splitlines():
        if not line.startswith(" "):
            suite = line.strip().rstrip(".")
            continue
        case = f"{suite}.{line.strip()}"
        prof = os.path.join(build, f"{name}.{case}")
        subprocess.run([binary, f"--gtest_filter={case}"], check=True,
                       capture_output=True,
                       env=dict(os.environ, LLVM_PROFILE_FILE=prof + ".profraw"))
        run(f"{tools}/llvm-profdata", "merge", "-sparse", prof + ".profraw",
            "-o", prof + ".profdata")
        with open(prof + ".json", "w") as f:
            f.write(run(f"{tools}/llvm-cov", "export", "-format=text",
                        f"-instr-profile={prof}.profdata", binary))
        run(tia, "coverage", "import", "-q", "--format", "llvm-cov-json",
            "--test", f"gtest:{name}:{case}", prof + ".json", cwd=repo)

functions = []
for s in srcs:
    for line in run(tia, "dump", "elements", "--file", s, cwd=repo).splitlines():
        m = re.match(r"\s+(\d+)-(\d+) (function|method|constructor|operator|"
                     r"destructor|conversion) (.*) \[(cpp:[^\]]*)\]$", line)
        if m:
            functions.append((s, int(m[1]), int(m[2]), m[4], m[5]))

modes = ["coverage", "combined", "static"]
totals = {m: [0, 0, 0] for m in modes}  # selected, missed, truth
rows = []
for path, begin, end, display, key in functions:
    file = os.path.join(repo, path)
    with open(file) as f:
        original = f.read()
    lines = original.split("\n")
    for i in range(begin - 1, end):
        if "{" in lines[i]:
            lines[i] = lines[i].replace("{", "{ (void)0;", 1)
            break
    else:
        continue
    with open(file, "w") as f:
        f.write("\n".join(lines))
    picked = {}
    for m in modes:
        res = subprocess.run([tia, "select", "--mode", m, "--base", "HEAD",
                              "--format", "json"], cwd=repo, text=True,
                             capture_output=True)
        picked[m] = {t["id"] for t in json.loads(res.stdout)["tests"]}
    truth = picked["coverage"]
    row = [display, str(len(truth))]
    for m in modes:
        missed = len(truth - picked[m])
        totals[m][0] += len(picked[m])
        totals[m][1] += missed
        totals[m][2] += len(truth)
        row += [str(len(picked[m])), str(missed)]
    rows.append(row)
    with open(file, "w") as f:
        f.write(original)

with open(os.path.join(out, "results.tsv"), "w") as f:
    f.write("function\ttruth\t" + "\t".join(f"{m}_selected\t{m}_missed"
                                            for m in modes) + "\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
print(f"{len(rows)} scripted changes, one per function of src/")
print("mode\tselected\tmissed\tground truth")
for m in modes:
    s, miss, t = totals[m]
    print(f"{m}\t{s}\t{miss}\t{t}")
