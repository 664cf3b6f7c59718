# The C and C++ code each test runs, compiled into tia and loaded by
# tia_pytest_plugin.py when $TIA_PYTEST_NATIVE names tia's plan: a JSON file
# {"dir": FOLDER, "objects": {PATH: {"kind": ..., "runtime": ...}}} listing
# the shared libraries and programs of the build (real paths).
#
# Programs a test starts write their profiles where LLVM_PROFILE_FILE and
# GCOV_PREFIX point, which enter() sets to a folder of the test's own; the
# preloaded file read tracer puts them back into a child started with an
# environment of its own.
#
# An extension module (or a library it loads) runs inside pytest's process,
# with a profile runtime of its own in each clang-instrumented shared
# object. Its functions are hidden, so tia found them in the object's
# symbol table ("runtime": offsets from the load address of
# __llvm_profile_set_filename, _write_file and _reset_counters); at each
# test boundary this module writes each loaded object's counters since the
# last boundary into the folder of the test that ran them, then zeroes
# them. What runs outside every test (collection, imports) goes to the
# process's "outside" folder, which counts for every test of the process.
#
# libgcov in a shared object writes once, at exit, and has no reset linked
# in. What it does link, hidden too, is __gcov_dump_one: at each boundary
# this module calls it with GCOV_PREFIX at the test's folder, zeroes the
# object's counter arrays (their addresses from the symbol table) and
# clears the "dumped" flag of __gcov_root that would stop the next write.
# A gcov object without a symbol table writes at exit only: its data
# counts for every test of the process.

import ctypes
import hashlib
import json
import os

_dir = None
_objects = {}
_key = None
_sequence = 0
_unreached = set()  # loaded objects whose runtime was not called


def install(plan_file):
    global _dir, _objects
    with open(plan_file, encoding="utf-8") as f:
        plan = json.load(f)
    _dir = plan["dir"]
    _objects = plan["objects"]
    _point(None)


def folder(key):
    """The folder of \\p key's profiles (None: outside every test)."""
    if key is None:
        return "outside-%d" % os.getpid()
    return hashlib.sha1(key.encode("utf-8", "surrogateescape")).hexdigest()


def _point(key):
    path = os.path.join(_dir, folder(key))
    os.makedirs(path, exist_ok=True)
    os.environ["LLVM_PROFILE_FILE"] = os.path.join(path, "%p-%m.profraw")
    os.environ["GCOV_PREFIX"] = path
    os.environ["GCOV_PREFIX_STRIP"] = "0"


def loaded():
    """The build's objects mapped into this process, with the address each
    is loaded at (where its file offset 0 lies)."""
    out = {}
    try:
        with open("/proc/self/maps", encoding="utf-8",
                  errors="surrogateescape") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) < 6:
                    continue
                path = parts[5].strip()
                if path.endswith(" (deleted)"):
                    # Replaced on disk while loaded (rebuilt): what tia
                    # read of the file is not what runs.
                    path = path[:-len(" (deleted)")]
                    if path in _objects:
                        _unreached.add(path)
                if path not in _objects:
                    continue
                start = int(parts[0].split("-")[0], 16)
                if int(parts[2], 16) == 0 and path not in out:
                    out[path] = start
    except OSError:
        pass
    return out


class _ClangRuntime:
    """clang's profile runtime in one loaded object, its functions at
    \\p base plus the offsets tia found in its symbol table."""

    def __init__(self, base, offsets):
        self.set_name = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(
            base + offsets["set_filename"])
        self.write = ctypes.CFUNCTYPE(ctypes.c_int)(
            base + offsets["write_file"])
        self.reset = ctypes.CFUNCTYPE(None)(base + offsets["reset_counters"])
        self.name = None  # the buffer the runtime was last given

    def point(self, path):
        # The runtime copies the name; the buffer is kept all the same,
        # until the next one.
        self.name = ctypes.create_string_buffer(path.encode())
        self.set_name(self.name)

    def flush(self, where, after, sequence):
        """Writes the counters into folder \\p where, zeroes them, and
        leaves the runtime pointed at folder \\p after."""
        self.point(os.path.join(
            where, "inproc-%d-%d.profraw" % (os.getpid(), sequence)))
        self.write()
        self.reset()
        self.point(os.path.join(after, "after-%d-%%p.profraw" % sequence))
        return True

    def save(self):
        self.write()


class _GcovRuntime:
    """libgcov in one loaded object: __gcov_dump_one, __gcov_root and the
    counter arrays, at \\p base plus the offsets tia found."""

    def __init__(self, base, gcov):
        self.dump = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(
            base + gcov["dump_one"])
        self.root = base + gcov["root"]
        self.counters = [(base + at, size) for at, size in gcov["counters"]]

    def _flags(self):
        # struct gcov_root { struct gcov_info *list; unsigned dumped : 1;
        # unsigned run_counted : 1; ... }, the same since gcc 5.
        return ctypes.c_uint32.from_address(
            self.root + ctypes.sizeof(ctypes.c_void_p))

    def _dump(self, where):
        """Writes the data where GCOV_PREFIX \\p where puts it (None: where
        it points now); True when the flag shows the write happened."""
        before = os.environ.get("GCOV_PREFIX")
        if where is not None:
            os.environ["GCOV_PREFIX"] = where
        try:
            self.dump(self.root)
        finally:
            if before is not None:
                os.environ["GCOV_PREFIX"] = before
        return bool(self._flags().value & 1)

    def flush(self, where, after, sequence):
        if not self._dump(where):
            # Not the layout tia knows: later writes could be lost.
            return False
        for at, size in self.counters:
            ctypes.memset(at, 0, size)
        self._flags().value &= ~1
        return True

    def save(self):
        self._dump(None)


_runtimes = {}  # (path, base) -> _ClangRuntime or _GcovRuntime


def _unchanged(path):
    """True when \\p path is still the file tia read the runtime's offsets
    from: calling at offsets of another build would crash pytest."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    seen = _objects[path]
    return st.st_size == seen.get("size") and \
        st.st_mtime_ns == seen.get("mtime_ns")


def _make_runtime(base, seen):
    if seen.get("runtime"):
        return _ClangRuntime(base, seen["runtime"])
    if seen.get("gcov"):
        return _GcovRuntime(base, seen["gcov"])
    return None


def _loaded_runtimes():
    out = []
    for path, base in loaded().items():
        seen = _objects[path]
        if path in _unreached or not (seen.get("runtime") or
                                      seen.get("gcov")):
            continue
        runtime = _runtimes.get((path, base))
        if runtime is None:
            if not _unchanged(path):
                _unreached.add(path)
                continue
            runtime = _runtimes[(path, base)] = _make_runtime(base, seen)
        out.append((path, runtime))
    return out


def _flush(key, then):
    """Writes what each loaded object's runtime counted since the last
    boundary into \\p key's folder and zeroes its counters, then points it
    at \\p then's folder: what a process forked from this one writes when
    it ends (its own pid in the name) is that key's."""
    global _sequence
    where = os.path.join(_dir, folder(key))
    after = os.path.join(_dir, folder(then))
    for path, runtime in _loaded_runtimes():
        _sequence += 1
        if not runtime.flush(where, after, _sequence):
            _unreached.add(path)


def enter(key):
    """What runs from now on is \\p key's (None: outside every test)."""
    global _key
    if _dir is None:
        return
    _point(key)
    _flush(_key, key)
    _key = key


def finish():
    """The end of the process's tests: what ran since is outside them."""
    enter(None)
    _flush(None, None)


def save_forked():
    """In a process forked from pytest's that ends through os._exit (a
    multiprocessing child), which skips the runtimes' own write at exit:
    writes what they counted where the parent last pointed them, the
    running test's folder (the name holds this process's pid)."""
    if _dir is None:
        return
    for path, runtime in _loaded_runtimes():
        runtime.save()


def record(key):
    """What tia needs to read test \\p key's native coverage."""
    return {"folder": folder(key), "outside": folder(None),
            "loaded": sorted(loaded()), "unreached": sorted(_unreached)}
