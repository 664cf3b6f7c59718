#!/usr/bin/env python3
"""The tables of docs/Benchmarks.md from a `tia eval replay --format json`
report with several modes (--modes): per commit, the tests each mode
selected and missed against the shared ground truth; each mode's totals;
the missed tests with their reasons; the time of each step.

  utils/replay-table.py REPLAY.json
"""
import json
import sys


def pct(v):
    return "-" if v is None else f"{v * 100:.1f}%"


def main():
    report = json.load(open(sys.argv[1]))
    modes = report.get("modes") or [
        {"mode": report.get("mode", "combined"),
         "commits": report["commits"], "total": report["total"]}]
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
    print(f"Whole replay: {report['seconds'] / 60:.0f} minutes.")


if __name__ == "__main__":
    main()
