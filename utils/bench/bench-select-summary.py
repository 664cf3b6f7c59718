#!/usr/bin/env python3
"""Summarises utils/bench/bench-select-history.sh's results.tsv as Markdown.

usage: utils/bench/bench-select-summary.py RESULTS_TSV

Per commit: the tests each tia selected out of those it knew, and the rules
and fallbacks that selected them ("new" only: the old tia's JSON has no
rules). Then: the mean fraction of tests selected by each, and how often
each rule fired (commits where it selected at least one test).
"""
import collections
import csv
import json
import sys


SOURCE_BLIND = {"non-source-file", "binary-file"}


def cpp_selected(path):
    """Tests selected for a reason other than a fallback about files that
    are not C++ (build files, docs, data): what the C++ rules decide."""
    s = json.load(open(path))
    blind = {i for i, f in enumerate(s["fallbacks"]) if f["kind"] in SOURCE_BLIND}
    n = 0
    for t in s["tests"]:
        if any(r["kind"] != "fallback" or r["fallback"] not in blind for r in t["reasons"]):
            n += 1
    return n


def rules_of(path):
    """Rule -> tests it selected; fallback kind/scope -> count."""
    s = json.load(open(path))
    rules = collections.Counter()
    for t in s["tests"]:
        for r in {r.get("rule", r["kind"]) for r in t["reasons"]}:
            rules[r] += 1
    fallbacks = collections.Counter(
        "%s/%s" % (f["kind"], f.get("scope", "all")) for f in s["fallbacks"])
    return rules, fallbacks


def main():
    rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
    by_commit = collections.OrderedDict()
    for r in rows:
        by_commit.setdefault(r["commit"], {})[r["engine"]] = r

    print("| commit | files | new: selected | old: selected | C++ only: new | C++ only: old | new: rules (tests) and fallbacks |")
    print("|---|---|---|---|---|---|---|")
    fractions = {"new": [], "old": []}
    cpp_fractions = {"new": [], "old": []}
    fired = collections.Counter()
    fallback_fired = collections.Counter()
    seconds = {"new": 0.0, "old": 0.0}
    for commit, engines in by_commit.items():
        cells = []
        cpp_cells = []
        for engine in ("new", "old"):
            r = engines.get(engine)
            if not r:
                cells.append("-")
                cpp_cells.append("-")
                continue
            sel, total = int(r["selected"]), int(r["total"])
            fractions[engine].append(sel / total if total else 0.0)
            cpp = cpp_selected(r["json"])
            cpp_fractions[engine].append(cpp / total if total else 0.0)
            cpp_cells.append("%d/%d" % (cpp, total))
            seconds[engine] += float(r["seconds"])
            cells.append("%d/%d%s" % (sel, total,
                                      " (all)" if r["selects_all"] == "true" else ""))
        detail = ""
        if "new" in engines:
            rules, fallbacks = rules_of(engines["new"]["json"])
            for rule in rules:
                if rule != "fallback":  # counted by kind and scope below
                    fired[rule] += 1
            for f in fallbacks:
                fallback_fired[f] += 1
            detail = ", ".join("%s %d" % kv for kv in sorted(rules.items()))
            if fallbacks:
                detail += "; " + ", ".join("%s x%d" % kv for kv in sorted(fallbacks.items()))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            commit[:10], engines[next(iter(engines))]["changed_files"],
            cells[0], cells[1], cpp_cells[0], cpp_cells[1], detail))

    def mean(xs):
        return sum(xs) / len(xs) if xs else 0.0

    n = len(by_commit)
    print()
    print("%d commits. Mean fraction of the known tests selected: new %.1f%%, old %.1f%% "
          "(ratio %.2f). Commits selecting every test: new %d, old %d. Selection time: "
          "new %.1f s, old %.1f s in total." % (
              n, 100 * mean(fractions["new"]), 100 * mean(fractions["old"]),
              mean(fractions["new"]) / mean(fractions["old"]) if mean(fractions["old"]) else 0.0,
              sum(1 for e in by_commit.values() if e.get("new", {}).get("selects_all") == "true"),
              sum(1 for e in by_commit.values() if e.get("old", {}).get("selects_all") == "true"),
              seconds["new"], seconds["old"]))
    print()
    print("Setting aside the fallbacks for files that are not C++ (build files, docs, "
          "test data, which this comparison does not change), the C++ rules select "
          "%.1f%% of the known tests on average, the file-level fallback %.1f%% (ratio %.2f)." % (
              100 * mean(cpp_fractions["new"]), 100 * mean(cpp_fractions["old"]),
              mean(cpp_fractions["new"]) / mean(cpp_fractions["old"])
              if mean(cpp_fractions["old"]) else 0.0))
    print()
    print("| rule or fallback | commits where it selected tests |")
    print("|---|---|")
    for rule, k in sorted(fired.items(), key=lambda kv: (-kv[1], kv[0])):
        print("| %s | %d |" % (rule, k))
    for f, k in sorted(fallback_fired.items(), key=lambda kv: (-kv[1], kv[0])):
        print("| fallback %s | %d |" % (f, k))


if __name__ == "__main__":
    main()
