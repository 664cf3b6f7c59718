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
# "err": PATH}; replies {"ready": true} once the imports are done, then per
# job {"pid": PID} when it is forked and {"exit": CODE} when it ended (minus
# the signal's number when a signal ended it). End of input ends the
# server. tia runs a job itself when the server cannot start (an import
# failed) or died while running it. The server ignores SIGINT: Ctrl-C
# interrupts the job, which pytest reports, not the server.
#
# What still tells a child from a fresh process: its parent is the server,
# it shares the server's hash seed when PYTHONHASHSEED is not set (a fresh
# process draws its own), objects imported before the fork are frozen out
# of the garbage collector's view (gc.freeze), and the Python startup files
# (.pth files, sitecustomize) ran with the server's environment, which
# differs from the job's only in tia's own variables.

import ctypes
import gc
import importlib
import json
import os
import runpy
import signal
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
        _reply({"pid": pid})
        _, status = os.waitpid(pid, 0)
        _reply({"exit": _exit_code(status)})
    return None


def _exit_code(status):
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


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
    _restart_tracer()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    importlib.invalidate_caches()
    sys.orig_argv = [sys.executable, "-m", "pytest"] + job["args"]
    sys.argv = ["-m"] + job["args"]  # run_module sets argv[0]
    runpy.run_module("pytest", run_name="__main__", alter_sys=True)


def _restart_tracer():
    """The file read tracer tia preloads took its start state (where the
    reads go of a program a test starts after clearing its environment)
    from the server's environment: it takes the job's now."""
    if not os.environ.get("TIA_READS_FILE"):
        return
    try:
        ctypes.CDLL(None).tia_reads_restart()
    except AttributeError:
        pass  # not loaded: nothing to restart


def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
