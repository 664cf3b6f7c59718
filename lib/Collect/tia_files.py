# The files each test reads, compiled into tia. An audit hook
# (sys.addaudithook) sees every `open` (builtins.open, io.open, os.open,
# pathlib, importlib.resources, io.open_code) and every directory listing
# (os.listdir, os.scandir: os.walk, glob and pathlib's iterdir go through
# them) in this process, and files them under the key set by enter(): a
# test's node id, a broader fixture's name, or None for what runs outside
# every test (collection, imports). `tia collect` keeps the paths inside
# the repository that git tracks.
#
# A file the key wrote before reading it does not count: the test made what
# it reads. What the tools around the tests open and list is left out:
# modules that imports load (the coverage and the import graph see them),
# the folders import finders, pytest's collection and entry-point discovery
# list, coverage.py's own files.
#
# The processes the tests start are traced by tia's preloaded tracer
# (runtime/FileReadTracer.c) when it is loaded: enter() points it at a file
# per key under $TIA_PYTEST_READS_DIR, which record() adds. Without it, a
# process the tests start that tia cannot follow (not Python) makes the
# record of the running test incomplete (untraced()).

import os
import sys

_key = None
_reads = {}       # key -> set of absolute paths read
_listed = {}      # key -> set of absolute directories listed
_written = {}     # key -> set of absolute paths written first
_incomplete = set()
_busy = False
_installed = False
_native_dir = None  # the preloaded tracer's files, when it is loaded


def install():
    global _installed, _native_dir
    if not _installed:
        _installed = True
        # The programs the tests start are traced; this process (pytest,
        # or a Python process tia follows) is the audit hook's.
        os.environ["TIA_READS_SKIP_SELF"] = str(os.getpid())
        folder = os.environ.get("TIA_PYTEST_READS_DIR")
        if folder and _tracer_loaded():
            _native_dir = folder
        sys.addaudithook(_hook)


def _tracer_loaded():
    try:
        with open("/proc/self/maps") as f:
            return "libtia-reads.so" in f.read()
    except OSError:
        return False


def _native_file(key):
    import hashlib
    name = "outside" if key is None else \
        hashlib.sha1(key.encode("utf-8", "surrogateescape")).hexdigest()
    return os.path.join(_native_dir, name)


def enter(key):
    """What runs from now on reads for \\p key (None: outside any test)."""
    global _key
    _key = key
    if _native_dir is not None:
        os.environ["TIA_READS_FILE"] = _native_file(key)


def untraced(key=None):
    """\\p key (default: the current one) started what tia cannot trace."""
    if _native_dir is not None:
        return  # the preloaded tracer follows it
    k = _key if key is None else key
    _incomplete.add(k)


# Modules that list and open for whoever calls them: the caller decides.
_HELPERS = ("glob.py", "fnmatch.py", "os.py", "pathlib.py", "shutil.py",
            "posixpath.py", "genericpath.py", "_abc.py", "abc.py")
# The tools around the tests: what they read is not the tests' reading.
_TOOLS = ("<frozen importlib", os.sep + "_pytest" + os.sep,
          os.sep + "pluggy" + os.sep, os.sep + "coverage" + os.sep,
          os.sep + "pytest_cov" + os.sep,
          os.sep + "importlib" + os.sep + "metadata" + os.sep,
          os.sep + "tia_")


def _by_tools():
    """True when import machinery, pytest, coverage.py or tia itself opened
    or listed (the first frame that is no generic helper decides)."""
    f = sys._getframe(2)  # the frame that opened or listed
    depth = 0
    while f is not None and depth < 12:
        name = f.f_code.co_filename
        if name.startswith("<frozen importlib") or \
                any(t in name for t in _TOOLS):
            return True
        if not name.endswith(_HELPERS) or name.startswith("<"):
            return False
        f = f.f_back
        depth += 1
    return False


def _makes(path, mode, flags):
    """True when an open with \\p mode (open()'s) or \\p flags (os.open's)
    makes the file's content anew: it truncates the file or creates it.
    Appending to a file that exists keeps what it holds."""
    if isinstance(mode, str) and mode:
        if mode[0] in "wx":
            return True
        return mode[0] == "a" and not os.path.exists(path)
    if not isinstance(flags, int):
        return False
    if flags & os.O_TRUNC:
        return True
    return bool(flags & os.O_CREAT) and not os.path.exists(path)


def _write_only(mode, flags):
    """True when the open cannot read the file."""
    if isinstance(mode, str) and mode:
        return "+" not in mode and mode[0] != "r"
    return isinstance(flags, int) and \
        (flags & os.O_ACCMODE) == os.O_WRONLY


def _hook(event, args):
    # Called for every audited event: leave at once for the others, and
    # never raise, which would stop what the code is doing.
    global _busy
    if _busy or not (event == "open" or event == "os.listdir"
                     or event == "os.scandir"):
        return
    _busy = True
    try:
        path = args[0] if args else None
        if path is None:
            path = "."
        if isinstance(path, int):
            return  # A descriptor: what it names was opened already.
        path = os.path.abspath(os.fsdecode(path))
        if event != "open":
            if not _by_tools():
                _listed.setdefault(_key, set()).add(path)
            return
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else 0
        if _makes(path, mode, flags):
            if path not in _reads.get(_key, ()):
                _written.setdefault(_key, set()).add(path)
            return
        if _write_only(mode, flags):
            return
        if path in _written.get(_key, ()):
            return
        if _by_tools():
            return
        _reads.setdefault(_key, set()).add(path)
    except Exception:
        pass
    finally:
        _busy = False


def record(key):
    """What \\p key read: {"read": [...], "listed": [...], "incomplete": b}."""
    read = set(_reads.get(key, ()))
    listed = set(_listed.get(key, ()))
    executed = set()
    if _native_dir is not None:
        _add_native(key, read, listed, executed)
    return {"read": sorted(read), "listed": sorted(listed),
            "executed": sorted(executed),
            "incomplete": key in _incomplete}


def _unescape(path):
    return path.replace("%0A", "\n").replace("%0D", "\r") \
        .replace("%25", "%")


def _add_native(key, read, listed, executed):
    """Adds what the tracer saw the processes started under \\p key read
    (lines "r PATH", "w PATH", "l PATH" in order; a file written first is
    theirs) and the programs they ran ("x PATH")."""
    try:
        with open(_native_file(key), encoding="utf-8",
                  errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return
    written = set()
    for line in text.split("\n")[:-1]:  # the last is cut short, or empty
        if len(line) < 3 or line[1] != " ":
            continue
        path = _unescape(line[2:])
        if line[0] == "w" and path not in read:
            written.add(path)
        elif line[0] == "r" and path not in written:
            read.add(path)
        elif line[0] == "l":
            listed.add(path)
        elif line[0] == "x":
            executed.add(path)


def forget(key, native=False):
    """Forgets what \\p key read; with \\p native, also the tracer's file
    (only the process that reports the key may: a forked child forgets
    its parent's keys, whose files the parent still reads)."""
    for d in (_reads, _listed, _written):
        d.pop(key, None)
    _incomplete.discard(key)
    if native and _native_dir is not None and key is not None:
        try:
            os.remove(_native_file(key))
        except OSError:
            pass
