# Runtime evidence for tia's static selection of Python tests, compiled into
# tia and imported by its pytest plugin when $TIA_PYTEST_PROBES names a plan
# (JSON: root, probes {file: [[qualified name, first line, key]...]},
# files (the project's other modules), names, isolated). It records, per test file (scope: the file's path) and
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
# (names and imports-by-name only where the project's modules and test
# modules call these functions: their calls are redirected when they are
# compiled, so that the builtins themselves stay untouched; collection,
# which looks up every name of a test module, does not count).
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
        _redirect(tree)
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
# Dynamic accesses: calls redirected in the code, builtins left alone
#===------------------------------------------------------------------------===#

# Replacing builtins.getattr (or inspect.getmembers) would change what user
# code sees: pickle, copy and multiprocessing serialise builtins by name and
# refuse a stand-in, inspect tells it apart. So the project's own modules
# and test modules are compiled with their calls of these functions
# redirected to the recorders below, which tia adds to builtins under names
# no code uses; every object user code can reach stays the real one.
_CALLS = {"getattr": "__tia_getattr__", "hasattr": "__tia_hasattr__",
          "setattr": "__tia_setattr__", "delattr": "__tia_delattr__"}
_MODULE_CALLS = {("inspect", "getmembers"): "__tia_getmembers__",
                 ("inspect", "getattr_static"): "__tia_getattr_static__",
                 ("importlib", "import_module"): "__tia_import_module__"}


def __tia_getattr__(obj, name, *default):
    if name.__class__ is str and name in _names:
        _note("name", name)
    return getattr(obj, name, *default)


def __tia_hasattr__(obj, name):
    if name.__class__ is str and name in _names:
        _note("name", name)
    return hasattr(obj, name)


def __tia_setattr__(obj, name, value):
    if name.__class__ is str and name in _names:
        _note("name", name)
    return setattr(obj, name, value)


def __tia_delattr__(obj, name):
    if name.__class__ is str and name in _names:
        _note("name", name)
    return delattr(obj, name)


def __tia_getmembers__(obj, *args, **kwargs):
    result = inspect.getmembers(obj, *args, **kwargs)
    for name, _ in result:
        if name in _names:
            _note("name", name)
    return result


# It takes what the real function takes, keywords included (pytest calls
# getattr_static(cls, name, default=None)).
def __tia_getattr_static__(obj, attr, *args, **kwargs):
    if attr.__class__ is str and attr in _names:
        _note("name", attr)
    return inspect.getattr_static(obj, attr, *args, **kwargs)


def __tia_import_module__(name, package=None):
    module = importlib.import_module(name, package)
    try:
        _note("import", importlib.util.resolve_name(name, package))
    except (ImportError, ValueError):
        pass
    return module


def _bindings(tree):
    """{name: True when every binding of it in \\p tree is a plain
    `import name`}; None for a star import, which may bind anything."""
    out = {}

    def other(name):
        out[name] = False

    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            other(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                            ast.ClassDef)):
            other(n.name)
        elif isinstance(n, ast.arg):
            other(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            other(n.name)
        elif isinstance(n, ast.Import):
            for a in n.names:
                local = a.asname or a.name.partition(".")[0]
                plain = a.asname in (None, a.name)
                out[local] = out.get(local, True) and plain
        elif isinstance(n, ast.ImportFrom):
            for a in n.names:
                if a.name == "*":
                    return None
                other(a.asname or a.name)
        elif type(n).__name__ in ("MatchAs", "MatchStar") and n.name:
            other(n.name)
        elif type(n).__name__ == "MatchMapping" and n.rest:
            other(n.rest)
    return out


class _Redirect(ast.NodeTransformer):
    def __init__(self, bound):
        self.bound = bound

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        target = None
        if isinstance(f, ast.Name) and f.id in _CALLS \
                and f.id not in self.bound:
            target = _CALLS[f.id]
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and self.bound.get(f.value.id) is True:
            target = _MODULE_CALLS.get((f.value.id, f.attr))
        if target is not None:
            node.func = ast.copy_location(ast.Name(target, ast.Load()), f)
        return node


def _redirect(tree):
    """Redirects, in the module \\p tree, the calls of getattr, hasattr,
    setattr, delattr, inspect.getmembers, inspect.getattr_static and
    importlib.import_module to their recorders; a module that binds one of
    these names itself (or star-imports) keeps its own."""
    bound = _bindings(tree)
    if bound is not None:
        _Redirect(bound).visit(tree)


def _hook_pytest_rewrite():
    """Test modules and conftest.py are compiled by pytest's assertion
    rewriting: redirect their calls too, and cache what is compiled so
    under a name of its own, so that a plain pytest run never loads it."""
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    real = getattr(rewrite, "rewrite_asserts", None)
    tail = getattr(rewrite, "PYC_TAIL", None)
    if real is None or not isinstance(tail, str) or not tail.endswith(".pyc"):
        return

    def rewrite_asserts(mod, *args, **kwargs):
        real(mod, *args, **kwargs)
        _redirect(mod)

    rewrite.rewrite_asserts = rewrite_asserts
    rewrite.PYC_TAIL = tail[:-len(".pyc")] + "-tia.pyc"


def _install_recorders():
    for name in list(_CALLS.values()) + list(_MODULE_CALLS.values()):
        setattr(builtins, name, globals()[name])
    builtins.__tia_probe__ = _probe
    _hook_pytest_rewrite()


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
    for rel in plan.get("files", []):
        files.setdefault(os.path.realpath(os.path.join(_root, rel)), {})
    sys.meta_path.insert(0, _Finder(files))
    _install_recorders()


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
        if name == "__main__" and not where:
            # A script's __file__ is gone once it has run.
            where = getattr(getattr(module, "__loader__", None), "path", None)
        if not where or not os.path.realpath(where).startswith(root):
            continue
        if name == "__main__":
            for alias in _main_names(module, where):
                _records.add((scope, "import", alias))
            continue
        _records.add((scope, "import", name))


def _main_names(module, where):
    """The names a script a child process ran (`python path/to/s.py`,
    `python -m pkg.s`) has as a module: its spec's, else every dotted tail
    of its path (the package root above it is not known)."""
    spec = getattr(module, "__spec__", None)
    if spec is not None and spec.name and spec.name != "__main__":
        return [spec.name]
    parts = relative(where)[:-len(".py")].split("/") \
        if where.endswith(".py") else []
    if parts and parts[-1] == "__init__":
        parts.pop()
    return [".".join(parts[i:]) for i in range(len(parts))]


def write(path):
    _loaded_modules()
    out = {"instrumented": sorted(_instrumented),
           "accesses": sorted([list(r) for r in _records])}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f)
