# Coverage and runtime evidence of the Python processes a test starts,
# compiled into tia. `tia collect --pytest` puts a sitecustomize.py on
# PYTHONPATH that calls start() in every Python process started with
# $TIA_PYTEST_TRACE set (the pytest plugin sets it once it runs, through
# parent(), so pytest's own process is left to pytest-cov). Each child:
#
#   - reads which test is running in the pytest process (the plugin writes
#     it to PREFIX.state before each test; PREFIX is $TIA_PYTEST_TRACE);
#   - measures itself with coverage.py's own mechanism
#     (coverage.process_startup, $COVERAGE_PROCESS_START names tia's
#     configuration: parallel data files next to the job's), or keeps the
#     one pytest-cov started, in the dynamic context "NODEID|run", so that
#     its lines go to the test that started it;
#   - records runtime evidence (tia_evidence.py) under the test's file and
#     writes it to PREFIX.evidence.PID when it ends;
#   - with $TIA_PYTEST_FILES, records the files it reads (tia_files.py) and
#     writes them to PREFIX.files.PID when it ends.
#
# multiprocessing children (fork, forkserver, spawn; concurrent.futures'
# process pools) start over in the child: the measurement the parent was
# making is dropped there, a fresh one starts for the running test, and
# the data is saved when the process ends, even through os._exit or the
# SIGTERM a pool's terminate() sends.
#
# A child tia cannot follow (not a Python interpreter, python -I/-E/-S, an
# environment without tia's variables, no coverage.py) is recorded as an
# "untraced" access of the running test: static selection never prunes it.

import atexit
import json
import os
import re
import shutil
import sys

_prefix = ""          # where this job's files go
_evidence = None      # tia_evidence, when recording evidence
_files = None         # tia_files, when recording the files read
_test = ""            # the running test's node id
_scope = None         # its test file
_pid = None           # the process the measurement below belongs to
_cov = None
_saved = None         # pid that saved already
_saving = False
_terminate_after = False  # SIGTERM came while saving
_watching = False


#===------------------------------------------------------------------------===#
# The pytest process
#===------------------------------------------------------------------------===#

def parent(prefix, evidence):
    """In pytest's process: Python processes started from now on are traced
    (their files start with \\p prefix)."""
    global _prefix, _evidence, _pid
    _prefix, _evidence, _pid = prefix, evidence, os.getpid()
    os.environ["TIA_PYTEST_TRACE"] = prefix
    os.environ["COVERAGE_PROCESS_START"] = os.path.join(
        os.path.dirname(prefix), "coveragerc")
    enter(None, None)
    _watch()


def enter(test, scope):
    """The test \\p test of file \\p scope runs from now (None: none)."""
    global _test, _scope
    _test, _scope = test or "", scope
    tmp = _prefix + ".state.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"test": _test, "scope": scope}, f)
    os.replace(tmp, _prefix + ".state")


#===------------------------------------------------------------------------===#
# A child
#===------------------------------------------------------------------------===#

def start():
    """In a child started with $TIA_PYTEST_TRACE (from sitecustomize)."""
    global _prefix
    _prefix = os.environ["TIA_PYTEST_TRACE"]
    _begin(forked=False)
    _watch()
    if "--multiprocessing-fork" in sys.argv:
        _save_on_sigterm()  # A spawned child runs no after-fork hooks.


def _state():
    try:
        with open(_prefix + ".state", encoding="utf-8") as f:
            s = json.load(f)
        return s.get("test") or "", s.get("scope")
    except (OSError, ValueError):
        return "", None


def _begin(forked):
    """Starts measuring this process for the test running now; \\p forked:
    it inherited the measurement of the process it was forked from."""
    global _test, _scope, _pid, _saved, _saving, _terminate_after
    _test, _scope = _state()
    _pid, _saved, _saving, _terminate_after = os.getpid(), None, False, False
    if not _start_coverage(forked) and _test:
        _untraced("coverage.py does not run in " + sys.executable)
    _start_evidence(forked)
    _start_files(forked)
    atexit.register(_save)


def _start_coverage(forked):
    """False when this process cannot be measured."""
    global _cov
    _cov = None
    try:
        import coverage
    except ImportError:
        return False
    cov = coverage.Coverage.current()
    if forked and cov is not None:
        # The parent's measurement: the parent saves it, not its copy.
        cov._auto_save = False
        cov.stop()
        cov = None
    if not _test:
        return True  # Nothing to attribute what runs here to.
    if cov is None:
        rc = os.environ.get("COVERAGE_PROCESS_START")
        if not rc:
            return False
        if forked:
            cov = coverage.Coverage(config_file=rc, data_suffix=True)
            cov._warn_no_data = False
            cov.start()
        else:
            cov = coverage.process_startup()
    if cov is None:
        return False
    cov.switch_context(_test + "|run")
    _cov = cov
    return True


def _start_files(forked):
    global _files
    if not os.environ.get("TIA_PYTEST_FILES"):
        return
    import tia_files
    if forked:
        # What the parent read is the parent's to report.
        for key in list(tia_files._reads) + list(tia_files._listed):
            tia_files.forget(key)
    tia_files.install()
    tia_files.enter(_test or None)
    _files = tia_files


def _start_evidence(forked):
    global _evidence
    plan = os.environ.get("TIA_PYTEST_PROBES")
    if not plan:
        return
    import tia_evidence
    if not forked:
        tia_evidence.install(plan)
    tia_evidence.enter(_scope)
    _evidence = tia_evidence


def _save():
    """Saves this process's coverage, evidence and reads, once."""
    global _saved, _saving
    pid = os.getpid()
    if _saved == pid or _pid != pid or _saving:
        return
    _saving = True
    try:
        # First: coverage.py lists the measured folders as it saves.
        if _files is not None and _test:
            _write_files("%s.files.%d" % (_prefix, pid))
        if _cov is not None:
            try:
                _cov.stop()
                _cov.save()
            except Exception:
                pass
        if _evidence is not None:
            try:
                _evidence.write("%s.evidence.%d" % (_prefix, pid))
            except OSError:
                pass
        # A child forked from pytest's process: the extension modules'
        # counters (tia_native.py, imported there before the fork).
        native = sys.modules.get("tia_native")
        if native is not None:
            native.save_forked()
    finally:
        _saved, _saving = pid, False
    if _terminate_after:
        _die()


def _write_files(path):
    record = dict(_files.record(_test), test=_test)
    try:
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(path + ".tmp", path)
    except OSError:
        pass


#===------------------------------------------------------------------------===#
# multiprocessing
#===------------------------------------------------------------------------===#

class _Forker:
    """What multiprocessing's after-fork registry holds on to."""


_forker = _Forker()


def _mp_child(_):
    """In every multiprocessing child, before it runs its target: a forked
    one (fork, forkserver) starts its own measurement; each saves it when
    it ends, which it does through os._exit or a pool's SIGTERM."""
    import multiprocessing.util
    if os.getpid() != _pid:
        _begin(forked=True)
    multiprocessing.util.Finalize(None, _save, exitpriority=-100)
    _save_on_sigterm()


def _save_on_sigterm():
    import signal
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum, frame):
    global _terminate_after
    if _saving:
        # It came while saving (a pool worker may be ending as it is
        # terminated): finish saving first.
        _terminate_after = True
        return
    _save()
    _die()


def _die():
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


#===------------------------------------------------------------------------===#
# Children tia cannot follow
#===------------------------------------------------------------------------===#

_PYTHON = re.compile(r"python[0-9.]*(-dbg)?$")


def _watch():
    global _watching
    if _watching:
        return
    _watching = True
    import multiprocessing.util
    multiprocessing.util.register_after_fork(_forker, _mp_child)
    sys.addaudithook(_audit)


def _untraced(what):
    # Outside a test (collection, a session's end) no test's run is at
    # stake: a fixture's processes start within the test that needs it.
    files = sys.modules.get("tia_files")
    if files is not None:
        files.untraced()
    if _evidence is not None and _test:
        _evidence._note("untraced", _test + "\t" + what)


def _audit(event, args):
    # Called for every audited event: leave at once for the others, and
    # never raise, which would stop what the code is doing.
    if not (event.startswith("subprocess.") or event.startswith("os.")):
        return
    try:
        what = None
        if event == "subprocess.Popen":
            what = _unfollowed(args[0], args[1], args[3])
        elif event == "os.posix_spawn":
            what = _unfollowed(args[0], args[1], args[2])
        elif event == "os.spawn":
            what = _unfollowed(args[1], args[2], args[3])
        elif event == "os.exec":
            what = _unfollowed(args[0], args[1], args[2])
            if what is None and _pid == os.getpid() and _cov is not None:
                _save()  # The new program measures itself.
        elif event == "os.system":
            what = "os.system runs a shell"
        if what:
            _untraced(what)
    except Exception:
        pass


def _text(v):
    return os.fsdecode(os.fspath(v))


def _env(env, name):
    v = env.get(name)
    if v is None and env is not os.environ:
        # An environment given to subprocess may have bytes keys;
        # os.environ rejects them.
        v = env.get(os.fsencode(name))
    return _text(v) if v is not None else None


def _unfollowed(executable, argv, env):
    """Why the child that runs \\p executable with \\p argv and \\p env
    (None: this process's) is not traced; None when it is (or cannot
    start)."""
    if isinstance(argv, (str, bytes)) or hasattr(argv, "__fspath__"):
        argv = [argv]
    argv = [_text(a) for a in (argv or [])]
    program = _text(executable) if executable is not None else \
        (argv[0] if argv else "")
    name = os.path.basename(program) or program
    if _env(env if env is not None else os.environ,
            "TIA_PYTEST_TRACE") is None:
        return name + " runs with an environment without tia's variables"
    path = program
    if os.sep not in program:
        search = _env(env, "PATH") if env is not None else None
        path = shutil.which(program, path=search)
        if path is None:
            return None  # It will not start.
    real = os.path.realpath(path)
    if real == os.path.realpath(sys.executable) \
            or _PYTHON.match(os.path.basename(path)) \
            or _PYTHON.match(os.path.basename(real)):
        flag = _ignoring_flag(argv[1:])
        if flag:
            return "%s -%s skips tia's startup hook" % (name, flag)
        if not _finds_hook(env) and not _give_hook(env):
            return name + " runs with a PYTHONPATH without tia's startup hook"
        _note_inline_names(argv[1:])
        return None
    if _python_script(real):
        return None
    return name + " is not a Python interpreter"


def _finds_hook(env):
    """True when a Python child with \\p env (None: this process's) finds
    tia's sitecustomize.py, which sits beside this file: a test that sets
    PYTHONPATH to its own folders drops it."""
    here = os.path.dirname(os.path.abspath(__file__))
    value = _env(env, "PYTHONPATH") if env is not None \
        else os.environ.get("PYTHONPATH")
    return any(os.path.abspath(p or os.curdir) == here
               for p in (value or "").split(os.pathsep))


def _give_hook(env):
    """Appends tia's folder to the PYTHONPATH of \\p env, the environment
    a test hands to a child of its own (env=dict(os.environ, PYTHONPATH=
    ...)), which subprocess reads after this audit event: the child finds
    its own modules first, and tia's startup hook after them. False when
    \\p env cannot take it (this process's own, or not a dict)."""
    if env is None or env is os.environ or not isinstance(env, dict):
        return False
    here = os.path.dirname(os.path.abspath(__file__))
    for key in ("PYTHONPATH", b"PYTHONPATH"):
        if key in env:
            sep, folder = (os.pathsep, here) if isinstance(key, str) else \
                (os.fsencode(os.pathsep), os.fsencode(here))
            env[key] = env[key] + sep + folder if env[key] else folder
            return True
    if any(isinstance(k, bytes) for k in env):
        env[b"PYTHONPATH"] = os.fsencode(here)
    else:
        env["PYTHONPATH"] = here
    return True


def _ignoring_flag(args):
    """The first of Python's -I, -E, -S in \\p args before what it runs."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-", "--") or not a.startswith("-"):
            return None
        if a.startswith("--"):
            i += 1
            continue
        letters = a[1:]
        for j, ch in enumerate(letters):
            if ch in "IES":
                return ch
            if ch in "cm":
                return None
            if ch in "WX":  # takes the rest, or the next argument
                if j == len(letters) - 1:
                    i += 1
                break
        i += 1
    return None


def _note_inline_names(args):
    """The project names the code of `python -c CODE` uses are reached by
    the test: that code is in no file the static analysis reads."""
    if _evidence is None:
        return
    code, i = None, 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or a in ("-", "--", "-m"):
            return
        letters = a[1:] if not a.startswith("--") else ""
        at = letters.find("c")
        if at >= 0 and not any(ch in "WX" for ch in letters[:at]):
            code = letters[at + 1:] or \
                (args[i + 1] if i + 1 < len(args) else "")
            break
        i += 2 if letters[-1:] in ("W", "X") else 1
    if not code:
        return
    import ast
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return
    for n in ast.walk(tree):
        used = n.id if isinstance(n, ast.Name) else \
            n.attr if isinstance(n, ast.Attribute) else None
        if used in _evidence._names:
            _evidence._note("name", used)


def _python_script(path):
    try:
        with open(path, "rb") as f:
            first = f.readline(256)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first and \
        not re.search(rb"\s-[A-Za-z]*[IES]", first)
