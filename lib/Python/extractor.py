# tia's Python extractor: runs inside the interpreter embedded in tia (it is
# compiled into the binary at build time), one call per file version.
#
# index_file() turns the source of one module into code elements (module,
# class, function, method, variable) with line ranges and hashes of their
# AST without positions, the tests pytest would collect from it, and the
# imports it makes. pytest_settings() reads pytest's test-discovery options
# from the project's configuration files. Both return JSON text and never
# raise: a problem with the user's file is reported in the result, anything
# else as {"error": ...} for tia to turn into an error with file and line.

import ast
import builtins
import configparser
import fnmatch
import json
import traceback

import tia_names
from tia_names import blake2b  # not hashlib's: names.py says why

try:
    import tomllib
except ImportError:  # only 3.11 and newer have it
    tomllib = None

DEFAULT_PYTEST = {
    "python_files": ["test_*.py", "*_test.py"],
    "python_classes": ["Test"],
    "python_functions": ["test"],
    "testpaths": [],
}

BUILTIN_NAMES = frozenset(dir(builtins))


def _hash(text):
    return blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _dump(node):
    # Positions are attributes, which ast.dump leaves out by default: only
    # the structure counts, so comments and layout do not.
    return ast.dump(node, annotate_fields=False)


def _is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree):
    """Every statement of the tree, at any depth, without walking into
    expressions: imports and definitions are statements, and expressions
    are most of a tree's nodes."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if block:
                stack.extend(block)
        if isinstance(node, ast.stmt):
            yield node


def _strip_docstrings(tree):
    """Drops the docstring of the module and of every class and function."""
    for node in [tree] + list(_statements(tree)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)):
            if node.body and _is_docstring(node.body[0]):
                node.body = node.body[1:] or [
                    ast.copy_location(ast.Pass(), node.body[0])]


def _first_line(node):
    lines = [node.lineno]
    for d in getattr(node, "decorator_list", []):
        lines.append(d.lineno)
    return min(lines)


FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _variable_names(stmt):
    """The names a module- or class-level assignment binds, or None when it
    is not a plain assignment to names."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    else:
        return None
    names = []
    for t in targets:
        elts = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
        for e in elts:
            if isinstance(e, ast.Starred):
                e = e.value
            if not isinstance(e, ast.Name):
                return None
            names.append(e.id)
    return names


# Statements whose branches often hold definitions that exist only on some
# platforms or versions (`if HAS_X: def x(self): ...`, `try: from c import
# f` / `except ImportError: def f(): ...`).
_CONDITIONAL = (ast.If, ast.Try) + \
    ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


def _branches(stmt):
    """The statement lists of an if or try statement, in source order."""
    lists = [stmt.body]
    lists += [h.body for h in getattr(stmt, "handlers", [])]
    lists += [stmt.orelse, getattr(stmt, "finalbody", [])]
    return lists


def _conditional_defs(stmt):
    """The functions an if or try statement defines in its branches, also in
    nested if and try statements (not in loops, with blocks or functions)."""
    out = []
    for stmts in _branches(stmt):
        for s in stmts:
            if isinstance(s, FUNCS):
                out.append(s)
            elif isinstance(s, _CONDITIONAL):
                out.extend(_conditional_defs(s))
    return out


def _separable_defs(body):
    """The functions in if and try statements of a module or class body that
    become elements of their own: those whose name no other definition of
    the body has (a name defined in two branches stays in its statement,
    where any change of either is a change of the body)."""
    direct = [s.name for s in body if isinstance(s, FUNCS)]
    conditional = [d for s in body if isinstance(s, _CONDITIONAL)
                   for d in _conditional_defs(s)]
    names = direct + [d.name for d in conditional]
    return [d for d in conditional if names.count(d.name) == 1]


def _dump_without_defs(stmt, separable):
    """What running an if or try statement does, without the bodies of the
    functions in \p separable (elements of their own): their names and
    decorators, which run when the statement does, stay."""
    ids = {id(d) for d in separable}

    def items(stmts):
        out = []
        for s in stmts:
            if id(s) in ids:
                out.append(["def", s.name, [_dump(d) for d in s.decorator_list]])
            elif isinstance(s, _CONDITIONAL) and _conditional_defs(s):
                out.append(_dump_without_defs(s, separable))
            else:
                out.append(_dump(s))
        return out

    if isinstance(stmt, ast.If):
        return ["if", _dump(stmt.test), items(stmt.body), items(stmt.orelse)]
    return [type(stmt).__name__, items(stmt.body),
            [[_dump(h.type) if h.type else None, h.name, items(h.body)]
             for h in stmt.handlers],
            items(stmt.orelse), items(stmt.finalbody)]


class _Keys:
    """Unique keys within one file: a name defined twice (conditional
    definitions, redefinitions) gets '#2', '#3', ... in source order."""

    def __init__(self):
        self.seen = {}

    def unique(self, name):
        n = self.seen.get(name, 0) + 1
        self.seen[name] = n
        return name if n == 1 else "%s#%d" % (name, n)


# Decorators that only wrap the function they decorate, creating nothing
# at class creation that other code could see besides the name.
# abc.abstractmethod is not one: a new abstract method makes every subclass
# without it impossible to instantiate. functools.wraps is not either: its
# argument is evaluated then.
_INERT_DECORATORS = frozenset({
    "staticmethod", "classmethod", "property", "cached_property",
    "functools.cached_property"})

# Standard-library modules whose import does more than bind names.
_ACTIVE_MODULES = frozenset({"this", "antigravity", "readline", "site",
                             "rlcompleter", "__main__", "builtins",
                             "__future__"})


def _decorator_name(expr):
    """'functools.cached_property' for @functools.cached_property; empty
    for a call (@wraps(f)) or anything but a dotted name."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return ""
    parts.append(expr.id)
    return ".".join(reversed(parts))


def _inert_decorators(decorators, defined_before):
    """True when every decorator of a method only wraps it: one of
    _INERT_DECORATORS, or NAME.setter/getter/deleter of a property NAME
    the class defined above."""
    for d in decorators:
        name = _decorator_name(d)
        head, _, attr = name.rpartition(".")
        if name in _INERT_DECORATORS:
            continue
        if attr in ("setter", "getter", "deleter") and head in defined_before:
            continue
        return False
    return True


def _top_level_names(stmts):
    """The names a module's top-level definitions and assignments bind."""
    out = set()
    for s in stmts:
        if isinstance(s, FUNCS + (ast.ClassDef,)):
            out.add(s.name)
        else:
            out.update(_variable_names(s) or [])
    return out


def _bound_more_than_once(imports):
    """The names more than one import binds."""
    seen, twice = set(), set()
    for stmt in imports:
        for a in stmt.names:
            if isinstance(stmt, ast.Import):
                name = a.asname or a.name.split(".")[0]
            else:
                name = a.asname or a.name
            (twice if name in seen else seen).add(name)
    return twice


def _binds_standard_names(stmt, defined):
    """True for an import of standard-library modules that binds no name
    the module defines or a builtin has: it binds names, and runs none of
    the project's code."""
    if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return False
    if isinstance(stmt, ast.ImportFrom):
        if stmt.level or not stmt.module:
            return False
        modules = [stmt.module]
        bound = [a.asname or a.name for a in stmt.names]
    else:
        modules = [a.name for a in stmt.names]
        bound = [a.asname or a.name.split(".")[0] for a in stmt.names]
    standard = getattr(__import__("sys"), "stdlib_module_names", frozenset())
    return all(m.split(".")[0] in standard and m.split(".")[0]
               not in _ACTIVE_MODULES for m in modules) and \
        all(b != "*" and b not in defined and b not in BUILTIN_NAMES
            for b in bound)


def _bound_by_imports(imports):
    """Names the imports bind, and whether there is a star import."""
    names, star = set(), False
    for stmt in imports:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                names.add(a.asname or a.name.split(".")[0])
        elif isinstance(stmt, ast.ImportFrom):
            for a in stmt.names:
                if a.name == "*":
                    star = True
                else:
                    names.add(a.asname or a.name)
    return names, star


class _Extractor:
    def __init__(self, path, module, options):
        self.path = path
        self.module = module
        self.options = options
        self.keys = _Keys()
        self.elements = []
        self.tests = []
        self.imports = []
        # id() of a definition or assignment statement -> its element key,
        # for the name analysis ("module": the module element's).
        self.stmt_keys = {}

    def element(self, kind, qualname, node_or_range, digest, body=0,
                names=None):
        if isinstance(node_or_range, tuple):
            begin, end = node_or_range
        else:
            begin, end = _first_line(node_or_range), node_or_range.end_lineno
        key_name = self.keys.unique(qualname)
        key = "py:%s:%s" % (self.module, key_name)
        if kind == "module":
            self.stmt_keys["module"] = key
        elif not isinstance(node_or_range, tuple):
            self.stmt_keys[id(node_or_range)] = key
        display = self.module + "." + qualname if qualname != "<module>" \
            else self.module
        qualified = [self.module + "." + n for n in (names or [qualname])] \
            if qualname != "<module>" else [self.module]
        self.elements.append({
            "key": key,
            "kind": kind,
            "display": display,
            "begin": begin,
            "end": end,
            "body": body,
            "hash": digest,
            "names": qualified,
        })

    def function(self, node, prefix, kind):
        qualname = prefix + node.name
        self.element(kind, qualname, node, _hash(_dump(node)),
                     body=node.body[0].lineno)

    def klass(self, node, prefix):
        qualname = prefix + node.name
        # The class element is what runs when the class is created: its
        # header, its decorators and the statements of its body that are
        # not methods or nested classes (those are elements of their own;
        # only their decorators and names stay here).
        parts = ["class", node.name,
                 [_dump(d) for d in node.decorator_list],
                 [_dump(b) for b in node.bases],
                 [_dump(k) for k in node.keywords]]
        separable = _separable_defs(node.body)
        defined_before = set()
        for stmt in node.body:
            if isinstance(stmt, FUNCS):
                # Decorators run when the class is created; a plain method
                # that appears or goes changes nothing else by itself, nor
                # does one whose decorators only wrap it (@staticmethod,
                # @property and its setter...): it goes by its name.
                if stmt.decorator_list and not _inert_decorators(
                        stmt.decorator_list, defined_before):
                    parts.append(["def", stmt.name,
                                  [_dump(d) for d in stmt.decorator_list]])
                defined_before.add(stmt.name)
            elif isinstance(stmt, ast.ClassDef):
                parts.append(["class", stmt.name])
            elif isinstance(stmt, _CONDITIONAL) and separable:
                parts.append(_dump_without_defs(stmt, separable))
            else:
                parts.append(_dump(stmt))
        self.element("class", qualname, node, _hash(repr(parts)))
        for stmt in node.body:
            if isinstance(stmt, FUNCS):
                self.function(stmt, qualname + ".", "method")
            elif isinstance(stmt, ast.ClassDef):
                self.klass(stmt, qualname + ".")
        for stmt in separable:
            self.function(stmt, qualname + ".", "method")

    def module_elements(self, tree, last_line, imports):
        imported, star = _bound_by_imports(imports)
        # A name another import binds too, or any name after a star
        # import, may be shadowed by a new import: that one is no
        # standard-library import that only binds names.
        defined_names = _top_level_names(tree.body)
        bound_twice = _bound_more_than_once(imports)
        parts = []
        defined = []
        separable = _separable_defs(tree.body)
        for stmt in tree.body:
            if isinstance(stmt, FUNCS):
                # Decorators run at import. A plain new function runs
                # nothing until changed code calls it (a deleted one is
                # handled by the selection: importers may name it).
                if stmt.decorator_list:
                    parts.append(["def", stmt.name,
                                  [_dump(d) for d in stmt.decorator_list]])
                defined.append(stmt.name)
                self.function(stmt, "", "function")
            elif isinstance(stmt, ast.ClassDef):
                parts.append(["class", stmt.name])
                defined.append(stmt.name)
                self.klass(stmt, "")
            elif isinstance(stmt, _CONDITIONAL) and separable:
                parts.append(_dump_without_defs(stmt, separable))
            elif not star and _binds_standard_names(
                    stmt, defined_names | bound_twice):
                # Binds names of the standard library and runs nothing of
                # the project: it goes by the code that uses the names.
                continue
            else:
                names = _variable_names(stmt)
                if names:
                    parts.append(["variable"] + names)
                    defined.extend(names)
                    self.element("variable", names[0], stmt,
                                 _hash(_dump(stmt)), names=names)
                else:
                    parts.append(_dump(stmt))
        for stmt in separable:
            defined.append(stmt.name)
            self.function(stmt, "", "function")
        # A definition that shadows an imported or builtin name changes
        # what the module's other code calls: that is a change of the module
        # (every importer), not only of the new definition.
        shadowing = sorted(n for n in set(defined)
                           if n in imported or n in BUILTIN_NAMES or star)
        parts.append(["shadows", shadowing])
        self.element("module", "<module>", (1, max(last_line, 1)),
                     _hash(repr(parts)))

    def collect_imports(self, imports):
        package = self.module if self.path.endswith("__init__.py") \
            else self.module.rpartition(".")[0]
        for node in imports:
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.imports.append({"module": a.name, "name": "",
                                         "line": node.lineno})
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".") if package else []
                    if node.level - 1 > len(parts):
                        continue  # above the top-level package: unresolvable
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                if not base:
                    continue
                for a in node.names:
                    self.imports.append({"module": base, "name": a.name,
                                         "line": node.lineno})


#===------------------------------------------------------------------------===#
# pytest's test discovery
#===------------------------------------------------------------------------===#

def _name_matches(name, patterns):
    # pytest: a pattern with a glob character is a glob, otherwise a prefix.
    for p in patterns:
        if any(c in p for c in "*?["):
            if fnmatch.fnmatch(name, p):
                return True
        elif name.startswith(p):
            return True
    return False


def is_test_file(path, settings):
    name = path.rpartition("/")[2]
    if name == "conftest.py" or not name.endswith(".py"):
        return False
    testpaths = settings.get("testpaths") or []
    if testpaths and not any(
            path == t.rstrip("/") or path.startswith(t.rstrip("/") + "/")
            or fnmatch.fnmatch(path, t) for t in testpaths):
        return False
    for p in settings["python_files"]:
        if "/" in p:
            if fnmatch.fnmatch(path, p) or fnmatch.fnmatch(path, "*/" + p):
                return True
        elif fnmatch.fnmatch(name, p):
            return True
    return False


def _test_flag_false(body):
    for stmt in body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == "__test__"
                and isinstance(stmt.value, ast.Constant)
                and not stmt.value.value):
            return True
    return False


def _base_name(expr):
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return ""


class _Tests:
    def __init__(self, tree, path, settings, out):
        self.path = path
        self.settings = settings
        self.out = out
        self.classes = {s.name: s for s in tree.body
                        if isinstance(s, ast.ClassDef)}
        self.unittest_memo = {}

    def is_unittest(self, cls, seen=()):
        if cls.name in self.unittest_memo:
            return self.unittest_memo[cls.name]
        result = False
        for b in cls.bases:
            name = _base_name(b)
            if name.endswith("TestCase"):
                result = True
            elif name in self.classes and name not in seen \
                    and name != cls.name:
                result = self.is_unittest(self.classes[name],
                                          seen + (cls.name,))
            if result:
                break
        self.unittest_memo[cls.name] = result
        return result

    def methods(self, cls, seen=()):
        """The methods of cls, inherited ones from classes of the same file
        included, the nearest definition of each name winning."""
        found = {}
        for b in reversed(cls.bases):
            name = _base_name(b)
            if name in self.classes and name not in seen and name != cls.name:
                found.update(self.methods(self.classes[name],
                                          seen + (cls.name,)))
        for stmt in cls.body:
            if isinstance(stmt, FUNCS):
                found[stmt.name] = stmt
        return found

    def add(self, node_id, node):
        self.out.append({"name": node_id, "begin": _first_line(node),
                         "end": node.end_lineno})

    def klass(self, cls, prefix, nested=False):
        if _test_flag_false(cls.body):
            return
        unittest = self.is_unittest(cls)
        if not unittest:
            if not _name_matches(cls.name, self.settings["python_classes"]):
                return
            # pytest does not collect a class with its own __init__.
            if any(isinstance(s, FUNCS) and s.name == "__init__"
                   for s in cls.body):
                return
        node_id = prefix + "::" + cls.name
        for name, fn in self.methods(cls).items():
            if unittest:
                if name.startswith("test"):
                    self.add(node_id + "::" + name, fn)
            elif _name_matches(name, self.settings["python_functions"]):
                self.add(node_id + "::" + name, fn)
        if not unittest:
            for stmt in cls.body:
                if isinstance(stmt, ast.ClassDef):
                    self.klass(stmt, node_id, nested=True)

    def module(self, tree):
        if _test_flag_false(tree.body):
            return
        for stmt in tree.body:
            if isinstance(stmt, FUNCS):
                if _name_matches(stmt.name, self.settings["python_functions"]):
                    self.add(self.path + "::" + stmt.name, stmt)
            elif isinstance(stmt, ast.ClassDef):
                self.klass(stmt, self.path)


#===------------------------------------------------------------------------===#
# Entry points
#===------------------------------------------------------------------------===#

def _incomplete(problem):
    return json.dumps({"complete": False, "problem": problem, "elements": [],
                       "tests": [], "imports": []})


def _index(source, path, module, options):
    if len(source) > options["max_size"]:
        return _incomplete(
            "%d bytes, more than python.max-file-size (%d): not parsed"
            % (len(source), options["max_size"]))
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        if e.msg.startswith("(unicode error)") or "decode" in e.msg:
            return _incomplete(
                "line %s: not valid UTF-8, nor in the encoding it declares "
                "(%s)" % (e.lineno or 0,
                          e.msg.replace("(unicode error) ", "")))
        return _incomplete("line %s: %s (the embedded Python is %s: newer "
                           "syntax does not parse)"
                           % (e.lineno or 0, e.msg, _version()))
    except (UnicodeDecodeError, LookupError) as e:
        return _incomplete("not valid UTF-8, nor in the encoding it "
                           "declares (%s)" % e)
    except (ValueError, RecursionError, MemoryError) as e:
        return _incomplete("cannot be parsed: %s%s"
                           % (type(e).__name__, ": %s" % e if str(e) else ""))
    try:
        return _extract(tree, source, path, module, options)
    except RecursionError:
        return _incomplete("nested too deeply for the extractor")


def _extract(tree, source, path, module, options):
    lines = source.count(b"\n") + (0 if source.endswith(b"\n") else 1)
    x = _Extractor(path, module, options)
    imports = [s for s in _statements(tree)
               if isinstance(s, (ast.Import, ast.ImportFrom))]
    x.collect_imports(imports)
    settings = options.get("pytest") or DEFAULT_PYTEST
    test_file = options.get("test_file", is_test_file(path, settings))
    if test_file:
        _Tests(tree, path, settings, x.tests).module(tree)
    if not options["docstrings"]:
        _strip_docstrings(tree)
    x.module_elements(tree, lines, imports)
    graph, problem = tia_names.analyze(tree, path, module, x.stmt_keys,
                                       {"test_file": test_file})
    if problem:
        return _incomplete(problem)
    return json.dumps({"complete": True, "problem": "",
                       "elements": x.elements, "tests": x.tests,
                       "imports": x.imports, "nodes": graph["nodes"],
                       "bindings": graph["bindings"]})


def _version():
    import sys
    return "%d.%d" % sys.version_info[:2]


def _error():
    # The innermost frame of the traceback says where the extractor failed.
    tb = traceback.extract_tb(__import__("sys").exc_info()[2])
    where = "%s:%d" % (tb[-1].filename, tb[-1].lineno) if tb else "?"
    e = __import__("sys").exc_info()[1]
    return json.dumps({"error": "%s: %s: %s" % (where, type(e).__name__, e)})


def index_file(source, path, module, options_json):
    """JSON: {complete, problem, elements, tests, imports} or {error}."""
    try:
        return _index(source, path, module, json.loads(options_json))
    except BaseException:  # SystemExit and KeyboardInterrupt included
        return _error()


def exit_for_tests(code):
    """Raises SystemExit, so that tia's unit tests can check that an exit
    from Python code ends neither the interpreter nor tia."""
    raise SystemExit(int(code))


def parse_only(source, path):
    """Plain ast.parse, for the benchmark's baseline."""
    try:
        ast.parse(source, filename=path)
        return ""
    except BaseException as e:
        return type(e).__name__


def _split(value):
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value).split()


def _read_ini(name, text, section):
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text, source=name)
    if not parser.has_section(section):
        return None
    return dict(parser.items(section))


def pytest_settings(files_json):
    """The test-discovery options of the first pytest configuration among
    {name: text} (pytest.ini, pyproject.toml, tox.ini, setup.cfg: pytest's
    order). JSON: {file, python_files, ...} or {error}."""
    try:
        files = json.loads(files_json)
        found, name = None, ""
        for name in ("pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"):
            text = files.get(name)
            if text is None:
                continue
            try:
                if name == "pyproject.toml":
                    if tomllib is None:
                        continue
                    data = tomllib.loads(text)
                    found = data.get("tool", {}).get("pytest", {}).get(
                        "ini_options")
                elif name == "pytest.ini":
                    found = _read_ini(name, text, "pytest") or {}
                elif name == "tox.ini":
                    found = _read_ini(name, text, "pytest")
                else:
                    found = _read_ini(name, text, "tool:pytest")
            except Exception as e:
                line = getattr(e, "lineno", None)
                return json.dumps({"error": "%s%s: %s" % (
                    name, ":%d" % line if line else "", e)})
            if found is not None:
                break
        out = dict(DEFAULT_PYTEST)
        out["file"] = name if found is not None else ""
        for key in DEFAULT_PYTEST:
            if found and key in found:
                out[key] = _split(found[key])
        return json.dumps(out)
    except BaseException:
        return _error()
