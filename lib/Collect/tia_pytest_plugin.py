# tia's pytest plugin, compiled into tia and loaded by `tia collect --pytest`
# with `-p tia_pytest_plugin`. It writes one JSON object per line to the file
# $TIA_PYTEST_RESULTS: {"collected": N} once collection is done, then, per
# test, {"start": NODEID} when it starts and its result when it ends: node
# id, outcome, duration, message, location, and the fixtures it uses (their
# file and a line of their body), since a module- or session-scoped
# fixture's coverage shows only in the first test that needed it.
#
# With $TIA_PYTEST_PROBES it also records runtime evidence for static
# selection (tia_evidence.py) and writes it to $TIA_PYTEST_EVIDENCE. With
# $TIA_PYTEST_ONLY (a path relative to $TIA_PYTEST_ROOT) it collects that
# test file only: `tia collect` runs each test file in a process of its
# own. With $TIA_PYTEST_LIST it also lists the collected items, and those
# deselected ({"deselected": NODEID}). With
# $TIA_PYTEST_CHILD (a path prefix) the Python processes the tests start
# are traced too (tia_child.py). With $TIA_PYTEST_FILES each result also
# holds the files the test read and the directories it listed (tia_files.py):
# its own, those of the broader-scoped fixtures it uses (set up once, in the
# first test that needs them) and those read outside every test
# (collection, imports), which every test of the process shares. The
# variables meant for this process are taken out of the environment the
# tests' child processes inherit. With $TIA_PYTEST_NATIVE the C and C++
# code each test runs in the build's extension modules and programs goes to
# a profile folder of its own (tia_native.py), which its result names.

import json
import os

import pytest

_out = None
_reports = {}
_root = os.environ.get("TIA_PYTEST_ROOT", "")
_only = os.environ.pop("TIA_PYTEST_ONLY", "")
_results = os.environ.pop("TIA_PYTEST_RESULTS", "")
_evidence_file = os.environ.pop("TIA_PYTEST_EVIDENCE", "")
_list = os.environ.pop("TIA_PYTEST_LIST", "")
_child = None
_evidence = None
_files = None
_native = None
if os.environ.get("TIA_PYTEST_NATIVE"):
    import tia_native as _native
    _native.install(os.environ.pop("TIA_PYTEST_NATIVE"))
if os.environ.get("TIA_PYTEST_FILES"):
    import tia_files as _files
    _files.install()
if os.environ.get("TIA_PYTEST_PROBES"):
    import tia_evidence as _evidence
    _evidence.install(os.environ["TIA_PYTEST_PROBES"])
if os.environ.get("TIA_PYTEST_CHILD"):
    import tia_child as _child
    _child.parent(os.environ.pop("TIA_PYTEST_CHILD"), _evidence)


def _relative(path):
    if not _root:
        return str(path)
    rel = os.path.relpath(os.path.realpath(str(path)),
                          os.path.realpath(_root))
    return rel.replace(os.sep, "/")


def _item_path(item):
    return getattr(item, "path", None) or item.fspath


def _write(obj):
    if _out is not None:
        _out.write(json.dumps(obj) + "\n")
        _out.flush()


def pytest_configure(config):
    global _out
    if _results and _out is None:
        _out = open(_results, "w", encoding="utf-8")


def pytest_unconfigure(config):
    global _out
    if _native is not None:
        _native.finish()
    if _evidence is not None and _evidence_file:
        _evidence.write(_evidence_file)
    if _out is not None:
        _out.close()
        _out = None


def pytest_ignore_collect(collection_path, config):
    # Only the test file this process runs, and the directories above it.
    if not _only:
        return None
    rel = _relative(collection_path)
    if rel == _only or rel == "." or _only.startswith(rel + "/"):
        return None
    return True


def pytest_collection_modifyitems(session, config, items):
    if _only:
        items[:] = [i for i in items if _relative(_item_path(i)) == _only]


def pytest_deselected(items):
    # Deselected tests exist: `tia collect` must not take them for gone.
    if _list:
        for item in items:
            _write({"deselected": item.nodeid,
                    "path": _relative(_item_path(item))})


def pytest_collection_finish(session):
    _write({"collected": len(session.items)})
    if _list:
        for item in session.items:
            _write({"item": item.nodeid,
                    "path": _relative(_item_path(item))})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    scope = _relative(_item_path(item))
    if _evidence is not None:
        _evidence.enter(scope)
    if _child is not None:
        _child.enter(item.nodeid, scope)
    if _files is not None:
        _files.enter(item.nodeid)
    if _native is not None:
        _native.enter(item.nodeid)
    yield
    if _native is not None:
        _native.enter(None)
    if _files is not None:
        _files.enter(None)
    if _evidence is not None:
        _evidence.enter(None)
    if _child is not None:
        _child.enter(None, None)


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
_broad_fixtures = {}  # node id -> keys of the broader fixtures it uses


def _fixture_key(fixturedef):
    return "fixture:%d" % id(fixturedef)


def _broader_fixtures(item):
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [_fixture_key(d) for defs in info.name2fixturedefs.values()
            for d in defs if getattr(d, "scope", "function") != "function"]


def pytest_runtest_setup(item):
    _fixtures[item.nodeid] = _fixture_locations(item)
    if _files is not None:
        _broad_fixtures[item.nodeid] = _broader_fixtures(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    # A fixture set up once for many tests reads for each of them.
    if _files is None or fixturedef.scope == "function":
        yield
        return
    before = _files._key
    _files.enter(_fixture_key(fixturedef))
    yield
    _files.enter(before)


def _files_of(nodeid):
    """What test \\p nodeid read, with its broader fixtures and what ran
    outside every test."""
    out = {"read": set(), "listed": set(), "executed": set(),
           "incomplete": False}
    for key in [nodeid, None] + _broad_fixtures.pop(nodeid, []):
        r = _files.record(key)
        out["read"].update(r["read"])
        out["listed"].update(r["listed"])
        out["executed"].update(r["executed"])
        out["incomplete"] = out["incomplete"] or r["incomplete"]
    _files.forget(nodeid, native=True)
    return {"read": sorted(out["read"]), "listed": sorted(out["listed"]),
            "executed": sorted(out["executed"]),
            "incomplete": out["incomplete"]}


def pytest_runtest_logfinish(nodeid, location):
    reports = _reports.pop(nodeid, [])
    outcome, message = _outcome(reports)
    duration = sum(getattr(r, "duration", 0.0) for r in reports)
    result = {"id": nodeid, "outcome": outcome, "duration": duration,
              "message": message, "file": location[0],
              "line": (location[1] or 0) + 1 if location[1] is not None
              else 0,
              "fixtures": _fixtures.pop(nodeid, [])}
    if _files is not None:
        result["files"] = _files_of(nodeid)
    if _native is not None:
        result["native"] = _native.record(nodeid)
    _write(result)
