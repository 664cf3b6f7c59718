# tia's pytest plugin, compiled into tia and loaded by `tia collect --pytest`
# with `-p tia_pytest_plugin`. It writes one JSON object per line to the file
# $TIA_PYTEST_RESULTS: {"collected": N} once collection is done, then, per
# test, {"start": NODEID} when it starts and its result when it ends: node
# id, outcome, duration, message, location, and the fixtures it uses (their
# file and a line of their body), since a module- or session-scoped
# fixture's coverage shows only in the first test that needed it.

import json
import os

_out = None
_reports = {}


def _write(obj):
    if _out is not None:
        _out.write(json.dumps(obj) + "\n")
        _out.flush()


def pytest_configure(config):
    global _out
    path = os.environ.get("TIA_PYTEST_RESULTS")
    if path and _out is None:
        _out = open(path, "w", encoding="utf-8")


def pytest_unconfigure(config):
    global _out
    if _out is not None:
        _out.close()
        _out = None


def pytest_collection_finish(session):
    _write({"collected": len(session.items)})


def pytest_runtest_logstart(nodeid, location):
    _reports[nodeid] = []
    _write({"start": nodeid})


def pytest_runtest_logreport(report):
    _reports.setdefault(report.nodeid, []).append(report)


def _message(report):
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])  # a skip: (file, line, reason)
        return reason[len("Skipped: "):] if reason.startswith("Skipped: ") \
            else reason
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return crash.message.splitlines()[0] if crash.message else ""
    lines = str(longrepr).strip().splitlines()
    return lines[-1] if lines else ""


def _outcome(reports):
    outcome, message = "passed", ""
    for r in reports:
        if r.when == "setup" and r.failed:
            return "error", _message(r)
        if r.skipped:
            outcome, message = "skipped", _message(r)
            if hasattr(r, "wasxfail"):
                message = "xfail: " + str(r.wasxfail)
        elif r.failed:
            if r.when == "call":
                return "failed", _message(r)
            return "error", _message(r)  # teardown
    return outcome, message


def _fixture_locations(item):
    out = []
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return out
    for defs in info.name2fixturedefs.values():
        for fixturedef in defs:
            code = getattr(getattr(fixturedef, "func", None), "__code__", None)
            if code is None:
                continue
            lines = [l for _, _, l in code.co_lines() if l]
            if lines:
                out.append([code.co_filename, max(lines)])
    return out


_fixtures = {}


def pytest_runtest_setup(item):
    _fixtures[item.nodeid] = _fixture_locations(item)


def pytest_runtest_logfinish(nodeid, location):
    reports = _reports.pop(nodeid, [])
    outcome, message = _outcome(reports)
    duration = sum(getattr(r, "duration", 0.0) for r in reports)
    _write({"id": nodeid, "outcome": outcome, "duration": duration,
            "message": message, "file": location[0],
            "line": (location[1] or 0) + 1 if location[1] is not None else 0,
            "fixtures": _fixtures.pop(nodeid, [])})
