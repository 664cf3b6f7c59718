# tia's pytest fork server, compiled into tia and started by
# `tia collect --pytest` as `PYTHON -m tia_pytest_server` in the repository
# root: it imports pytest, its built-in plugins, pytest-cov and coverage.py
# once, then runs each job tia sends (what `PYTHON -m pytest ARGS` with an
# environment of its own would run) in a child forked from itself. A
# collect of N test files pays for those imports once instead of N times:
# they are most of a small test file's cost.
#
# The child is what a fresh `python -m pytest` would be: its own process,
# standard input from /dev/null, standard output and error to the job's
# files, the job's environment and argv, pytest run as __main__, and an
# exit through the interpreter's own shutdown (atexit, coverage's saving).
# Only modules that read nothing of the job are imported before the fork:
# tia's plugin and everything of the project are imported by the child.
#
# Protocol, over the socket tia gives as fd 3, one JSON object per line:
# requests {"args": [ARG...], "env": ["NAME=VALUE"...], "out": PATH,
# "err": PATH}; replies {"ready": true} once the imports are done, then
# {"exit": CODE} per job (minus the signal's number when a signal ended
# it). End of input ends the server. tia runs the job itself when the
# server cannot start (an import failed): it then reports the failure as
# it would for any pytest process.

import gc
import importlib
import json
import os
import runpy
import sys

_SOCKET = 3


def _import_tools():
    import pytest  # noqa: F401
    from _pytest.config import default_plugins
    for name in default_plugins:
        importlib.import_module("_pytest." + name)
    import coverage  # noqa: F401
    import pytest_cov.plugin  # noqa: F401


def _reply(obj):
    os.write(_SOCKET, (json.dumps(obj) + "\n").encode())


def _serve():
    """Forks a child per request; returns the request in the child, None in
    the server at the end of its input."""
    requests = os.fdopen(_SOCKET, "rb")
    for line in requests:
        job = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()  # the job must not hold tia's socket
            return job
        _, status = os.waitpid(pid, 0)
        _reply({"exit": os.waitstatus_to_exitcode(status)})
    return None


def _redirect(fd, path, flags):
    new = os.open(path, flags, 0o644)
    os.dup2(new, fd)
    os.close(new)


def _become(job):
    """Turns this child into `python -m pytest ARGS` of the job."""
    _redirect(0, "/dev/null", os.O_RDONLY)
    _redirect(1, job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    _redirect(2, job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.environ.clear()
    for entry in job["env"]:
        name, _, value = entry.partition("=")
        os.environ.setdefault(name, value)  # the first of a name counts
    importlib.invalidate_caches()
    sys.argv = ["-m"] + job["args"]  # run_module sets argv[0]
    runpy.run_module("pytest", run_name="__main__", alter_sys=True)


def main():
    _import_tools()
    # The children share the server's memory until they write to it: keep
    # the collector from touching (and so copying) every imported object.
    gc.freeze()
    _reply({"ready": True})
    job = _serve()
    if job is not None:
        _become(job)


if __name__ == "__main__":
    main()
