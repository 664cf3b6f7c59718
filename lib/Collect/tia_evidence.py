# Runtime evidence for tia's static selection of Python tests, compiled into
# tia and imported by its pytest plugin when $TIA_PYTEST_PROBES names a plan
# (JSON: root, probes {file: [[qualified name, first line, key]...]},
# names, isolated). It records, per test file (scope: the file's path) and
# for what runs outside any test (scope "*"):
#
#   call    the first call of each probed function (critical functions,
#           double-underscore methods, registry-decorated functions): a
#           probe statement is inserted at the top of their bodies when
#           their module is imported (the source is compiled from its AST,
#           so line numbers, and with them coverage, stay as they are);
#   name    project names reached through getattr, hasattr, setattr,
#           delattr, inspect.getmembers and inspect.getattr_static;
#   import  the modules importlib.import_module loaded, and, when the
#           process ends, every project module it loaded by any means
#           (`__import__`, a package's lazy `__getattr__`, plugins)
#
# (names and imports only when the code calling them is not pytest's,
# coverage.py's or importlib's own: collection looks up every name of a
# test module).
#
# Without isolation (all test files in one process) everything goes to
# "*": what one file's test did may stand for another's.
#
# write(path) saves {"instrumented": [keys], "accesses": [[scope, kind,
# value]...]} as JSON.

import ast
import builtins
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import json
import os
import sys

_plan = {}
_root = ""
_names = frozenset()
_isolated = True
_keys = []             # probe index -> key
_instrumented = set()  # keys actually probed
_records = set()       # (scope, kind, value)
_scope = "*"
_seen = {"*": set()}   # scope -> probe indexes already recorded
_current = _seen["*"]


def enter(scope):
    """Tests of \\p scope (a test file) run from now; None: outside tests."""
    global _scope, _current
    _scope = scope if (scope and _isolated) else "*"
    _current = _seen.setdefault(_scope, set())


def _probe(index):
    if index not in _current:
        _current.add(index)
        _records.add((_scope, "call", _keys[index]))


def _note(kind, value):
    _records.add((_scope, kind, value))


#===------------------------------------------------------------------------===#
# Probes: AST rewriting at import
#===------------------------------------------------------------------------===#

_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _instrument(tree, wanted):
    """Inserts a probe at the top of every function of \\p wanted
    ({(qualified name, first line): index}) found in \\p tree; returns
    the indexes inserted."""
    done = []

    def visit(stmts, prefix):
        for s in stmts:
            if isinstance(s, _FUNCS):
                i = wanted.get((prefix + s.name, _first_line(s)))
                if i is not None:
                    body = s.body
                    at = 1 if (body and isinstance(body[0], ast.Expr)
                               and isinstance(body[0].value, ast.Constant)
                               and isinstance(body[0].value.value, str)) \
                        else 0
                    anchor = body[at] if at < len(body) else body[-1]
                    call = ast.Expr(ast.Call(
                        ast.Name("__tia_probe__", ast.Load()),
                        [ast.Constant(i)], []))
                    ast.copy_location(call, anchor)
                    ast.fix_missing_locations(call)
                    for n in ast.walk(call):
                        ast.copy_location(n, anchor)
                    body.insert(at, call)
                    done.append(i)
            elif isinstance(s, ast.ClassDef):
                visit(s.body, prefix + s.name + ".")
            else:
                for field in _BLOCKS:
                    for child in getattr(s, field, None) or []:
                        visit(getattr(child, "body", None)
                              if isinstance(child, ast.ExceptHandler)
                              or type(child).__name__ == "match_case"
                              else [child], prefix)

    visit(tree.body, "")
    return done


class _Loader(importlib.machinery.SourceFileLoader):
    """Compiles the module from its source with probes, never from or to a
    bytecode cache."""

    def __init__(self, fullname, path, wanted):
        super().__init__(fullname, path)
        self.wanted = wanted

    def get_code(self, fullname):
        source = self.get_data(self.path)
        try:
            tree = ast.parse(source, self.path)
        except SyntaxError:
            return super().get_code(fullname)
        for i in _instrument(tree, self.wanted):
            _instrumented.add(_keys[i])
        return compile(tree, self.path, "exec", dont_inherit=True)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, files):
        self.files = files  # absolute path -> wanted

    def find_spec(self, fullname, path, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin:
            return None
        wanted = self.files.get(os.path.realpath(spec.origin))
        if wanted is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname, spec.origin,
            loader=_Loader(fullname, spec.origin, wanted),
            submodule_search_locations=spec.submodule_search_locations)


#===------------------------------------------------------------------------===#
# Dynamic accesses
#===------------------------------------------------------------------------===#

# The test machinery looks up every name of every test module while it
# collects, and imports test modules with importlib: what it does is not
# what the code under test reaches.
_MACHINERY = frozenset(("_pytest", "pytest", "pluggy", "py", "coverage",
                        "pytest_cov", "tia_pytest_plugin", "tia_evidence",
                        "importlib", "inspect"))


def _by_code():
    """True when the caller of the wrapped function is not the machinery."""
    module = sys._getframe(2).f_globals.get("__name__") or ""
    return module.partition(".")[0] not in _MACHINERY


def _wrap_builtins():
    real_getattr, real_hasattr = builtins.getattr, builtins.hasattr
    real_setattr, real_delattr = builtins.setattr, builtins.delattr
    names = _names

    def getattr(obj, name, *default):
        if name.__class__ is str and name in names and _by_code():
            _note("name", name)
        return real_getattr(obj, name, *default)

    def hasattr(obj, name):
        if name.__class__ is str and name in names and _by_code():
            _note("name", name)
        return real_hasattr(obj, name)

    def setattr(obj, name, value):
        if name.__class__ is str and name in names and _by_code():
            _note("name", name)
        return real_setattr(obj, name, value)

    def delattr(obj, name):
        if name.__class__ is str and name in names and _by_code():
            _note("name", name)
        return real_delattr(obj, name)

    builtins.getattr, builtins.hasattr = getattr, hasattr
    builtins.setattr, builtins.delattr = setattr, delattr

    real_getmembers = inspect.getmembers

    def getmembers(obj, *args, **kwargs):
        result = real_getmembers(obj, *args, **kwargs)
        if _by_code():
            for name, _ in result:
                if name in names:
                    _note("name", name)
        return result

    real_getattr_static = inspect.getattr_static

    # The wrappers take what the real functions take, keywords included
    # (pytest calls getattr_static(cls, name, default=None)).
    def getattr_static(obj, attr, *args, **kwargs):
        if attr.__class__ is str and attr in names and _by_code():
            _note("name", attr)
        return real_getattr_static(obj, attr, *args, **kwargs)

    inspect.getmembers, inspect.getattr_static = getmembers, getattr_static

    real_import_module = importlib.import_module

    def import_module(name, package=None):
        module = real_import_module(name, package)
        if _by_code():
            try:
                _note("import", importlib.util.resolve_name(name, package))
            except (ImportError, ValueError):
                pass
        return module

    importlib.import_module = import_module


def install(plan_path):
    """Reads the plan and starts recording."""
    global _root, _names, _isolated, _keys
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    _root = plan["root"]
    _names = frozenset(plan.get("names", []))
    _isolated = bool(plan.get("isolated", True))
    files = {}
    for rel, probes in plan.get("probes", {}).items():
        wanted = {}
        for qual, line, key in probes:
            wanted[(qual, line)] = len(_keys)
            _keys.append(key)
        files[os.path.realpath(os.path.join(_root, rel))] = wanted
    builtins.__tia_probe__ = _probe
    sys.meta_path.insert(0, _Finder(files))
    _wrap_builtins()


def relative(path):
    """\\p path relative to the repository root, '/'-separated."""
    rel = os.path.relpath(os.path.realpath(str(path)), os.path.realpath(_root))
    return rel.replace(os.sep, "/")


def _loaded_modules():
    """Records, as imports, the project's modules the process loaded by any
    means (`__import__`, a package's lazy `__getattr__`, plugins): under
    the one test file the process ran when isolated, else under "*"."""
    files = [s for s in _seen if s != "*"]
    scope = files[0] if _isolated and len(files) == 1 else "*"
    root = os.path.realpath(_root) + os.sep
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if not where or not os.path.realpath(where).startswith(root):
            continue
        _records.add((scope, "import", name))


def write(path):
    _loaded_modules()
    out = {"instrumented": sorted(_instrumented),
           "accesses": sorted([list(r) for r in _records])}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f)
