# tia's name analysis (NameRTS): runs inside the interpreter embedded in tia,
# next to the extractor, which calls analyze() on the tree of every file it
# indexes.
#
# It turns a module into the code elements of name-based dependency
# propagation (Wang, Pradel, Liu: "Names Are All You Need", 2026):
#
#   module    the import-time statements that are not definitions,
#             assignments or imports (calls, if/for/try blocks...)
#   class     a class header (decorators, bases, keywords) and the body
#             statements that are not methods or class variables
#   function  a top-level function or a method; what is nested in it
#             (functions, classes, lambdas, comprehensions) belongs to it
#   variable  a module-level or class-level assignment (a shared variable),
#             one per statement and bound name; flagged "pure" when its
#             statement only binds (no call, await, yield, walrus or
#             comprehension runs), so that a change to it reaches only what
#             uses its name
#
# Code that runs when a module is imported belongs to the module element
# too, wherever it is written: the names of the decorators of its functions
# and classes (a decorator is called when the def runs), at any depth of
# class bodies. A class with keywords (a metaclass, arguments to
# __init_subclass__) is flagged "keywords", one with a base that is not a
# dotted name "unnamed-bases".
#
# Each element gets the names it uses, read from the bytecode: the
# operands of the instructions in dis.hasname (co_names) on its lines, so
# that locals, which live in co_varnames, drop out by themselves. A name is
# "n" (non-attr: no dot), "s" (sure-attr: an attribute of self or cls) or
# "a" (amb-attr: an attribute of anything else). Its checksum hashes the
# instructions with positions normalised away: line numbers, offsets
# (jumps become relative instruction counts), NOPs and object addresses do
# not count, so layout and comments never change it.

import ast
import dis

# hashlib's blake2b is this builtin type; importing hashlib would also load
# OpenSSL (_hashlib and libcrypto), which the embedded interpreter never
# uses, at every tia command that starts it.
try:
    from _blake2 import blake2b
except ImportError:
    from hashlib import blake2b

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)

_SKIP = frozenset(("NOP", "CACHE", "EXTENDED_ARG", "RESUME"))
_ATTR_OPS = frozenset(("LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR",
                       "LOAD_METHOD"))
# Name operands that are not names of code elements: module paths, and
# the bookkeeping every class body does.
_NOT_USES = frozenset(("IMPORT_NAME",))
_NOISE = frozenset(("__module__", "__qualname__", "__classcell__"))
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
_NAME_OPS = frozenset(dis.hasname)
_CONST_OPS = frozenset(dis.hasconst)
_SELF = frozenset(("self", "cls"))
_SELF_LOADS = frozenset(("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE",
                         "LOAD_CLASSDEREF"))
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With,
             ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar")
                               else ()) + ((ast.Match,) if hasattr(
                                   ast, "Match") else ())
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _hash(parts):
    h = blake2b(digest_size=8)
    for p in parts:
        h.update(p.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


# Expressions that run code beyond loading names and building values.
_EFFECTS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr,
            ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _pure(expr):
    """True when evaluating \p expr (None: nothing) runs no code of its own:
    no call, await, yield, walrus or comprehension. A lambda's body does not
    run; its defaults do."""
    if expr is None:
        return True
    if isinstance(expr, _EFFECTS):
        return False
    if isinstance(expr, ast.Lambda):
        return all(_pure(d) for d in expr.args.defaults + [
            d for d in expr.args.kw_defaults if d is not None])
    return all(_pure(c) for c in ast.iter_child_nodes(expr))


def _binds_only(stmt):
    """True when the assignment \p stmt only binds or updates names."""
    targets = getattr(stmt, "targets", None) or [stmt.target]
    return _pure(stmt.value) and all(_pure(t) for t in targets) and \
        _pure(getattr(stmt, "annotation", None))


def _loaded_names(expr, local):
    """The (kind, name) pairs \p expr loads, as the bytecode would name them:
    "n" for a bare name, "a" for an attribute; names of \p local (a class
    body's own) and what hangs off them are left out."""
    out = []
    for e in ast.walk(expr):
        if isinstance(e, ast.Attribute):
            root = e.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if not (isinstance(root, ast.Name) and root.id in local):
                out.append(("a", e.attr))
        elif isinstance(e, ast.Name) and e.id not in local:
            out.append(("n", e.id))
    return out


def _class_locals(stmts):
    """The names a class body binds at its top level (a property's name,
    which its setter's decorator names)."""
    out = set()
    for s in stmts:
        if isinstance(s, FUNCS + (ast.ClassDef,)):
            out.add(s.name)
        else:
            a = _assigned(s)
            if a is not None:
                out.update(a[0])
    return out


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in
                                getattr(node, "decorator_list", [])])


def _dotted(expr):
    """'app.route' for @app.route(...), 'register' for @register."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        parts.append(expr.id)
    return ".".join(reversed(parts))


#===------------------------------------------------------------------------===#
# Code objects
#===------------------------------------------------------------------------===#

class _Code:
    """The instructions of one code object, NOPs and caches left out, with
    normalised tokens, and the checksum of the whole code object."""

    _memo = {}

    @classmethod
    def of(cls, code):
        c = cls._memo.get(id(code))
        if c is None or c.code is not code:
            c = cls._memo[id(code)] = _Code(code)
        return c

    def __init__(self, code):
        self.code = code
        all_instrs = list(dis.get_instructions(code))
        self.instrs = [i for i in all_instrs if i.opname not in _SKIP]
        # Offsets to indexes of kept instructions (a jump may target a NOP).
        index, k = {}, 0
        for i in all_instrs:
            while k < len(self.instrs) and self.instrs[k].offset < i.offset:
                k += 1
            index[i.offset] = k
        self.index = index
        self.tokens = [self.token(n, i) for n, i in enumerate(self.instrs)]
        self._checksum = None

    def target(self, n, offset):
        return self.index.get(offset, len(self.instrs)) - n

    def token(self, n, i):
        op = i.opcode
        if op in _JUMPS:
            arg = "@%d" % self.target(n, i.argval)
        elif op in _CONST_OPS:
            arg = _const(i.argval)
        elif op in _NAME_OPS:
            arg = i.argrepr
        elif i.arg is None:
            arg = ""
        else:
            arg = i.argrepr or str(i.arg)
        return i.opname + " " + arg

    def checksum(self):
        if self._checksum is None:
            c = self.code
            parts = [c.co_name, str(c.co_argcount), str(c.co_posonlyargcount),
                     str(c.co_kwonlyargcount), str(c.co_flags),
                     " ".join(c.co_varnames), " ".join(c.co_freevars),
                     " ".join(c.co_cellvars)]
            # A function's docstring is its first constant, never loaded.
            if c.co_consts and isinstance(c.co_consts[0], str):
                parts.append("doc " + c.co_consts[0])
            parts.extend(self.tokens)
            parse = getattr(dis, "_parse_exception_table", None)
            if parse is not None:
                for e in parse(c):
                    parts.append("except %d %d %d %d %s" % (
                        self.index.get(e.start, 0), self.index.get(e.end, 0),
                        self.index.get(e.target, 0), e.depth, e.lasti))
            self._checksum = _hash(parts)
        return self._checksum


def _const(v):
    if hasattr(v, "co_code"):
        return "code " + _Code.of(v).checksum()
    if isinstance(v, frozenset):
        return "frozenset(%s)" % ", ".join(sorted(_const(x) for x in v))
    if isinstance(v, tuple):
        return "(%s)" % ", ".join(_const(x) for x in v)
    return repr(v)


def _uses(code, in_method, out):
    """Adds the names \p code uses, with those of every code object nested
    in it, to the dict \p out as (type, name) keys, in order of first
    use."""
    c = _Code.of(code)
    prev = None
    for i in c.instrs:
        if i.opcode in _NAME_OPS and i.opname not in _NOT_USES \
                and i.argval not in _NOISE:
            out.setdefault((_kind(i, prev, in_method), i.argval))
        elif i.opcode in _CONST_OPS and hasattr(i.argval, "co_code"):
            _uses(i.argval, in_method, out)
        elif i.opcode in _CONST_OPS and isinstance(i.argval, tuple):
            for v in i.argval:
                if hasattr(v, "co_code"):
                    _uses(v, in_method, out)
        prev = i


def _kind(i, prev, in_method):
    if i.opname not in _ATTR_OPS:
        return "n"
    if in_method and prev is not None and prev.opname in _SELF_LOADS \
            and prev.argval in _SELF:
        return "s"
    return "a"


#===------------------------------------------------------------------------===#
# Elements
#===------------------------------------------------------------------------===#

class _Node:
    def __init__(self, kind, name, cls, qual, key, begin, end):
        self.kind = kind
        self.name = name
        self.cls = cls
        self.qual = qual
        self.key = key
        self.begin = begin
        self.end = end
        self.tokens = []
        # The tokens without a function's body: its decorators, defaults and
        # binding (what registers it, for a registry decorator).
        self.header = []
        self.uses = {}  # (kind, name) -> None, in order of first use
        self.decorators = []
        self.flags = set()
        self.aliases = []
        self.bases = []
        self.in_method = False

    def add(self, code, n, in_method=False):
        """Instruction \p n of \p code (a _Code) belongs to this element."""
        i = code.instrs[n]
        tok = code.tokens[n]
        if i.opcode in _CONST_OPS and hasattr(i.argval, "co_code"):
            if i.argval.co_name != self.name or self.kind not in (
                    "function", "class"):
                _uses(i.argval, in_method, self.uses)
            elif self.kind == "class":
                tok = "LOAD_CONST classbody"  # its members are elements
            else:
                self.header.append("LOAD_CONST body")
                self.tokens.append(tok)
                return
            # A function's own body: its uses are added by the caller (as a
            # method's, with self); its checksum is in the token.
        elif i.opcode in _NAME_OPS and i.opname not in _NOT_USES \
                and i.argval not in _NOISE:
            prev = code.instrs[n - 1] if n else None
            self.uses.setdefault((_kind(i, prev, in_method), i.argval))
        self.tokens.append(tok)
        self.header.append(tok)

    def json(self):
        uses = ["%s:%s" % u for u in self.uses
                if not (u[0] == "n" and u[1] in self.own_names())]
        return {"kind": self.kind, "name": self.name, "class": self.cls,
                "qual": self.qual, "key": self.key, "begin": self.begin,
                "end": self.end, "checksum": _hash([self.kind] + self.tokens),
                "header": _hash([self.kind] + self.header),
                "uses": " ".join(uses), "decorators": self.decorators,
                "flags": sorted(self.flags), "aliases": self.aliases,
                "bases": self.bases}

    def own_names(self):
        # A variable's or definition's own binding is not a use of it.
        return (self.name,) if self.kind != "module" else ()


def _epilogue(code):
    """Indexes of the implicit 'return None' at the end of module and class
    bodies: their line is the last statement's, which would otherwise
    change when a definition is appended after it."""
    out = set()
    for n, i in enumerate(code.instrs):
        if i.opname == "RETURN_VALUE":
            out.add(n)
            if n and code.instrs[n - 1].opname == "LOAD_CONST" \
                    and code.instrs[n - 1].argval is None:
                out.add(n - 1)
    return out


def _is_main_guard(stmt):
    t = stmt.test if isinstance(stmt, ast.If) else None
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name)
            and t.left.id == "__name__" and len(t.comparators) == 1
            and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == "__main__")


def _assigned(stmt):
    """(names a statement binds, names it updates) for assignments, else
    None: `X = ...` binds X, `X[k] = ...` and `X.a += ...` update X."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    else:
        return None
    binds, updates = [], []
    for t in targets:
        elts = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
        for e in elts:
            if isinstance(e, ast.Starred):
                e = e.value
            if isinstance(e, ast.Name):
                binds.append(e.id)
                continue
            root = e
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if not isinstance(root, ast.Name):
                return None
            updates.append(root.id)
    return binds, updates


class _Analysis:
    def __init__(self, path, module, keys, options):
        self.path = path
        self.module = module
        self.keys = keys            # id(ast node) -> tia element key
        self.module_key = keys.get("module", "")
        self.test_file = options.get("test_file", False)
        self.conftest = path.rpartition("/")[2] == "conftest.py"
        self.nodes = []
        self.bindings = []
        self.module_node = None

    def node(self, *args):
        n = _Node(*args)
        self.nodes.append(n)
        return n

    # --- statements to elements, painted onto lines ---

    def paint(self, stmts, rest, cls, prefix, owners, key, replace):
        """Assigns the lines of \p stmts to the elements they define;
        statements of no other element go to \p rest. Returns the
        (statement, node) pairs of definitions, whose code comes later."""
        defs = []
        variables = {}
        local = _class_locals(stmts) if cls else set()
        for s in stmts:
            lines = range(_first_line(s), s.end_lineno + 1)
            if isinstance(s, FUNCS):
                n = self.function(s, cls, prefix, key)
                self.decorated(s, local)
                defs.append((s, n))
                owner = [n]
            elif isinstance(s, ast.ClassDef):
                n = self.node("class", s.name, "", prefix + s.name,
                              self.keys.get(id(s), key), _first_line(s),
                              s.end_lineno)
                n.decorators = [_dotted(d) for d in s.decorator_list]
                n.bases = [b for b in (_dotted(e).rpartition(".")[2]
                                       for e in s.bases) if b]
                if s.keywords:
                    n.flags.add("keywords")
                if not all(isinstance(b, (ast.Name, ast.Attribute))
                           for b in s.bases):
                    n.flags.add("unnamed-bases")  # Generic[T], make_base()
                self.decorated(s, local)
                defs.append((s, n))
                owner = [n]
            elif isinstance(s, (ast.Import, ast.ImportFrom)):
                owner = []
            elif _is_main_guard(s):
                continue
            elif isinstance(s, _COMPOUND):
                for line in lines:
                    self.own(owners, line, [rest], replace)
                for field in _BLOCKS:
                    for child in getattr(s, field, None) or []:
                        body = child.body if isinstance(
                            child, (ast.ExceptHandler,)) or (
                                hasattr(ast, "match_case")
                                and isinstance(child, ast.match_case)) \
                            else None
                        defs += self.paint(body if body is not None
                                           else [child], rest, cls, prefix,
                                           owners, key, True)
                continue
            else:
                a = _assigned(s)
                names = []
                if a is not None:
                    binds, updates = a
                    names = binds + [u for u in updates if u in variables]
                if names:
                    k = self.keys.get(id(s), key)
                    owner = []
                    for name in dict.fromkeys(names):
                        n = self.node("variable", name, cls or "",
                                      prefix + name, k, lines[0], lines[-1])
                        if _binds_only(s):
                            n.flags.add("pure")
                        variables[name] = n
                        if name == "pytestmark" and (self.test_file
                                                     or self.conftest):
                            n.flags.add("root")
                            self.usefixtures(s.value, n)
                        owner.append(n)
                else:
                    owner = [rest]
            for line in lines:
                self.own(owners, line, owner, replace)
        return defs

    def decorated(self, s, local):
        """A decorator is called when the def or class statement \p s runs,
        at import: what it names is used by the module's code."""
        for d in s.decorator_list:
            for use in _loaded_names(d, local):
                self.module_node.uses.setdefault(use)

    @staticmethod
    def own(owners, line, owner, replace):
        if replace:
            owners[line] = list(owner)
        else:
            owners.setdefault(line, []).extend(owner)

    def function(self, s, cls, prefix, key):
        n = self.node("function", s.name, cls or "", prefix + s.name,
                      self.keys.get(id(s), key), _first_line(s), s.end_lineno)
        n.decorators = [_dotted(d) for d in s.decorator_list]
        n.in_method = bool(cls) and "staticmethod" not in n.decorators
        fixture = None
        for d in s.decorator_list:
            name = _dotted(d)
            if name == "fixture" or name.endswith(".fixture"):
                fixture = d
            self.usefixtures(d, n)
        if fixture is not None:
            n.flags.add("fixture")
            for kw in getattr(fixture, "keywords", []):
                v = kw.value
                if kw.arg == "autouse" and isinstance(v, ast.Constant) \
                        and v.value is True:
                    n.flags.add("root")
                elif kw.arg == "name" and isinstance(v, ast.Constant) \
                        and isinstance(v.value, str):
                    n.aliases.append(v.value)
        if self.conftest and not cls and s.name.startswith("pytest_"):
            n.flags.add("root")  # a hook pytest calls for every test
        # pytest passes fixtures as parameters: their names are used.
        if fixture is not None or self.test_file or self.conftest:
            a = s.args
            params = a.posonlyargs + a.args + a.kwonlyargs
            if n.in_method and params:
                params = params[1:]
            for p in params:
                n.uses.setdefault(("n", p.arg))
        return n

    def usefixtures(self, expr, node):
        for call in ast.walk(expr):
            if isinstance(call, ast.Call) and \
                    _dotted(call.func).endswith("usefixtures"):
                for a in call.args:
                    if isinstance(a, ast.Constant) and isinstance(a.value,
                                                                  str):
                        node.uses.setdefault(("n", a.value))

    # --- bytecode ---

    def body(self, code, stmts, rest, cls, prefix, key, in_method):
        """Distributes the instructions of a module or class body \p code
        over the elements of \p stmts, then does the same for the classes
        and functions they define."""
        owners = {}
        defs = self.paint(stmts, rest, cls, prefix, owners, key, False)
        c = _Code.of(code)
        skip = _epilogue(c)
        for k, i in enumerate(c.instrs):
            if k in skip:
                continue
            line = i.positions.lineno if i.positions else None
            for n in owners.get(line, ()) if line else ():
                n.add(c, k, in_method)
        for s, n in defs:
            sub = self.code_of(c, s, n)
            if isinstance(s, FUNCS):
                if sub is not None:
                    _uses(sub, n.in_method, n.uses)
            elif sub is not None:
                self.body(sub, s.body, n, s.name, prefix + s.name + ".",
                          self.keys.get(id(s), key), False)

    @staticmethod
    def code_of(c, stmt, node):
        """The code object a def or class statement makes: the constant
        named after it on its lines."""
        first, last = _first_line(stmt), stmt.end_lineno
        for i in c.instrs:
            v = i.argval
            line = i.positions.lineno if i.positions else None
            if hasattr(v, "co_code") and v.co_name == stmt.name and line \
                    and first <= line <= last:
                return v
        return None

    def collect_bindings(self, tree):
        package = self.module if self.path.endswith("__init__.py") \
            else self.module.rpartition(".")[0]
        for s in ast.walk(tree):
            if isinstance(s, ast.Import):
                for a in s.names:
                    if a.asname:
                        self.bindings.append([a.asname, a.name, ""])
                    else:
                        top = a.name.split(".")[0]
                        self.bindings.append([top, top, ""])
            elif isinstance(s, ast.ImportFrom):
                base = s.module or ""
                if s.level:
                    parts = package.split(".") if package else []
                    if s.level - 1 > len(parts):
                        continue
                    parts = parts[:len(parts) - (s.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                if not base:
                    continue
                for a in s.names:
                    if a.name == "*":
                        self.bindings.append(["*", base, "*"])
                    else:
                        self.bindings.append([a.asname or a.name, base,
                                              a.name])


def analyze(tree, path, module, keys, options):
    """The elements and import bindings of one module, as JSON-ready
    objects: ({"nodes": [...], "bindings": [[local, module, name]...]},
    problem). \p keys maps id() of the tree's statements to the keys of the
    tia elements holding them ("module": the module element's). A module
    that parses but does not compile (a `return` outside a function...)
    gives a problem and no nodes."""
    try:
        code = compile(tree, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        return None, "does not compile: %s (line %s)" % (
            getattr(e, "msg", str(e)), getattr(e, "lineno", 0) or 0)
    a = _Analysis(path, module, keys, options)
    last = max([getattr(s, "end_lineno", 1) or 1 for s in tree.body] + [1])
    rest = a.node("module", "<module>", "", "<module>",
                  a.module_key, 1, last)
    a.module_node = rest
    a.body(code, tree.body, rest, "", "", a.module_key, False)
    a.collect_bindings(tree)
    _Code._memo.clear()
    nodes = [n.json() for n in a.nodes]
    seen = {}
    for n in nodes:
        base = n["kind"] + ":" + n["qual"]
        seen[base] = seen.get(base, 0) + 1
        n["id"] = base if seen[base] == 1 else "%s#%d" % (base, seen[base])
    bindings = sorted(set(tuple(b) for b in a.bindings))
    return {"nodes": nodes, "bindings": [list(b) for b in bindings]}, ""
