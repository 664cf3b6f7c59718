#!/usr/bin/env python3
"""The tables of docs/Benchmarks.md from `tia eval replay --format json`
reports with several modes (--modes): per commit, the tests each mode
selected and missed against the shared ground truth; each mode's totals;
the missed tests with their reasons; the time of each step. Several reports
(of consecutive ranges, oldest first) make one table, the totals over all
their commits.

  utils/eval/replay-table.py REPLAY.json [REPLAY.json ...]
"""
import json
import sys


def pct(v):
    return "-" if v is None else f"{v * 100:.1f}%"


def modes_of(report):
    return report.get("modes") or [
        {"mode": report.get("mode", "combined"),
         "commits": report["commits"], "total": report["total"]}]


def total(commits):
    """The "total" object of the JSON report, over these commits."""
    t = {"commits": len(commits)}
    for key in ("tests", "selected", "affected", "affected_selected"):
        t[key] = sum(c[key] for c in commits)
    t["missed"] = sum(len(c["missed"]) for c in commits)
    t["safe_commits"] = sum(1 for c in commits if c["safe"])
    t["test_reduction"] = (1 - t["selected"] / t["tests"]) if t["tests"] else 0
    t["precision"] = (t["affected_selected"] / t["selected"]
                      if t["selected"] else None)
    t["safe_reduction"] = (t["safe_commits"] / len(commits)) if commits else None
    all_s = sum(c["seconds"]["all_tests"] for c in commits)
    spent = sum(c["seconds"]["selected_tests"] + c["seconds"]["overhead"]
                for c in commits)
    lean = sum(c["seconds"]["selected_tests"] + c["seconds"]["index"]
               + c["seconds"]["select"] for c in commits)
    t["time_reduction"] = (1 - spent / all_s) if all_s > 0 else None
    t["time_reduction_without_collection"] = (1 - lean / all_s
                                              if all_s > 0 else None)
    return t


def main():
    reports = [json.load(open(f)) for f in sys.argv[1:]]
    modes = modes_of(reports[0])
    if len(reports) > 1:
        for r in reports[1:]:
            for m, more in zip(modes, modes_of(r)):
                assert m["mode"] == more["mode"], "the same --modes in each"
                m["commits"] = m["commits"] + more["commits"]
        for m in modes:
            m["total"] = total(m["commits"])
    names = [m["mode"] for m in modes]
    first = modes[0]["commits"]

    print("| commit | summary | tests (files) | changed elements | affected | "
          + " | ".join(f"selected: {n}" for n in names) + " | "
          + " | ".join(f"missed: {n}" for n in names) + " |")
    print("|---|---|--:|--:|--:|" + "--:|" * (2 * len(names)))
    for i, c in enumerate(first):
        sel = []
        for m in modes:
            mc = m["commits"][i]
            sel.append(f"{mc['selected']} ({mc['selected_files']})"
                       + (" all" if mc["selected_all"] else ""))
        missed = []
        for m in modes:
            n = len(m["commits"][i]["missed"])
            missed.append(f"**{n}**" if n else "0")
        print(f"| `{c['commit'][:10]}` | {c['summary'][:60]} | "
              f"{c['tests']} ({c['test_files']}) | {c['changed_elements']} | "
              f"{c['affected']} | " + " | ".join(sel) + " | "
              + " | ".join(missed) + " |")
    print()
    print("| mode | selected | affected and selected | missed | TestR | "
          "precision | SafeR | TimeR | TimeR without collection |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for m in modes:
        t = m["total"]
        print(f"| {m['mode']} | {t['selected']} | {t['affected_selected']} | "
              f"{t['missed']} | {pct(t['test_reduction'])} | "
              f"{pct(t['precision'])} | {pct(t['safe_reduction'])} "
              f"({t['safe_commits']}/{t['commits']}) | "
              f"{pct(t['time_reduction'])} | "
              f"{pct(t['time_reduction_without_collection'])} |")
    print()
    with_fallbacks = [c for c in first if c["fallbacks"]]
    if with_fallbacks:
        print("Fallbacks (the same in every mode):")
        print()
        for c in with_fallbacks:
            print(f"- `{c['commit'][:10]}`: " + ", ".join(c["fallbacks"]))
        print()
    any_missed = False
    for m in modes:
        for c in m["commits"]:
            for t in c["missed"]:
                if not any_missed:
                    print("Missed tests:")
                    print()
                    any_missed = True
                print(f"- {m['mode']}, `{c['commit'][:10]}` `{t['test']}`: "
                      f"{t['reason']}")
    if not any_missed:
        print("No mode missed an affected test.")
    print()
    print("| commit | build (s) | index (s) | "
          + " | ".join(f"select: {n} (s)" for n in names)
          + " | collect (s) | all tests (s) | "
          + " | ".join(f"selected tests: {n} (s)" for n in names) + " |")
    print("|---|--:|--:|" + "--:|" * (2 * len(names) + 2))
    for i, c in enumerate(first):
        s = c["seconds"]
        print(f"| `{c['commit'][:10]}` | {s['build']:.0f} | {s['index']:.0f} | "
              + " | ".join(f"{m['commits'][i]['seconds']['select']:.1f}"
                           for m in modes)
              + f" | {s['collect']:.0f} | {s['all_tests']:.1f} | "
              + " | ".join(
                  f"{m['commits'][i]['seconds']['selected_tests']:.1f}"
                  for m in modes) + " |")
    print()
    print("Whole replay: " + ", ".join(f"{r['seconds'] / 60:.0f} minutes"
                                       for r in reports) + ".")


if __name__ == "__main__":
    main()
