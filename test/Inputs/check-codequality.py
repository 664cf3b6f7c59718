#!/usr/bin/env python3
"""Checks a GitLab Code Quality report against the fields GitLab documents
(docs.gitlab.com, "Code Quality", the report format): a JSON array of
objects, each with a string description, check_name and fingerprint (unique
in the report), a severity of info, minor, major, critical or blocker, and
a location with a relative path and lines.begin, a line number from 1.
Prints "ok N" or each problem.

    check-codequality.py REPORT
"""
import json
import sys

SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def problems(report):
    if not isinstance(report, list):
        yield "the report is not an array"
        return
    seen = set()
    for i, issue in enumerate(report):
        where = f"[{i}]"
        for key in ("description", "check_name", "fingerprint"):
            if not isinstance(issue.get(key), str) or not issue[key]:
                yield f"{where}.{key} is not a non-empty string"
        if issue.get("fingerprint") in seen:
            yield f"{where}.fingerprint repeats"
        seen.add(issue.get("fingerprint"))
        if issue.get("severity") not in SEVERITIES:
            yield f"{where}.severity is {issue.get('severity')!r}"
        location = issue.get("location", {})
        path = location.get("path")
        if not isinstance(path, str) or not path or path.startswith("/"):
            yield f"{where}.location.path is not a relative path"
        begin = location.get("lines", {}).get("begin")
        if not isinstance(begin, int) or begin < 1:
            yield f"{where}.location.lines.begin is not a line number"


def main():
    report = json.load(open(sys.argv[1]))
    found = list(problems(report))
    for p in found:
        print("problem: " + p)
    if found:
        sys.exit(1)
    print(f"ok {len(report)}")


if __name__ == "__main__":
    main()
