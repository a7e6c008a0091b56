"""The link: the compiled translation units of one program joined into one module,
as ld joins host objects and nvlink relocatable device code.

Each unit is compiled alone (minicuda/compiler.py `compile_unit`) into an
`ObjectUnit`: its final module, in which every function the unit defines or
references is named by its link name (`f(int,float*)` in a C++ or CUDA unit, `f` in
a C unit; an IR name has no spaces), and its symbol table, read from the checked
AST (`unit_symbols`).  A symbol's binding is what the linker needs:

- global: a definition other units may reference; two of one name are ld's
  `multiple definition of 'f(int)'`;
- weak: an inline function, a template instance, a function a bundled header
  defines, a C++17 inline variable: one copy is kept, as COMDAT sections are;
- local: `static`, a C++ `const` variable, and, without -rdc=true (nvcc's whole
  program mode), every `__device__` function and device variable: private to the
  unit (nvcc turns an `extern __device__` variable into the unit's own, with a
  warning; a `__device__` function called and not defined is ptxas's
  `Unresolved extern function`, reported when the unit is compiled);
- undefined: referenced and defined elsewhere; none defines it: `undefined reference
  to 'f(int)'`, at the first use.

A C symbol (`f`) and a C++ one (`f(int)`) of one name link alike (minicuda mangles
no name).  `link` resolves the references, keeps one copy of each weak symbol, and
gives every function and global of the program its final name: a function the name
a program of one unit gives it (`f`, or `f(int)` when several functions share the
name), a private one that would clash with a name already taken gets `.2`, `.3`
(string literals are numbered again).  Each module's instructions are rewritten
through the unit's renaming, and the modules merged in command-line order.

An object file (`minicudac -c a.cu -o a.o`) is the unit's symbol table, one JSON
object per `//.symbol` line under the OBJECT_MAGIC line, followed by the module's
text (minicuda/ir.py), which the IR parser reads past those comment lines.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from minicuda.diagnostics import Diagnostic, SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar.languages import C
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar.sema.link import function_uses
from minicuda.ir import Function, Global, IRParseError, Instr, Mem, Module, Sym, format_module, parse_module

OBJECT_MAGIC = "// minicuda object file: one translation unit (minicudac -c), its symbols, then its module"
SYMBOL_PREFIX = "//.symbol "
RDC_HINT = "a __device__ function defined in another translation unit is linked only with -rdc=true " \
           "(relocatable device code), as nvcc does"
WEAK_SPECIFIERS = {"inline", "constexpr", "__forceinline__"}


@dataclass
class LinkSymbol:
    name: str                   # the IR name in the unit's module
    display: str                # as the linker names it: f(int), f (C), a variable's name
    short: str                  # its name in a program of one unit: f, or a template instance's
    kind: str                   # function or variable
    binding: str                # global, weak, local or undefined
    side: str = "host"          # device: a device-only symbol (crosses units with -rdc=true only)
    loc: SourceLocation | None = None   # the definition, or an undefined symbol's first use
    user: str | None = None     # an undefined symbol's first user (a function's name)


@dataclass
class ObjectUnit:
    filename: str
    module: Module
    symbols: dict[str, LinkSymbol] = field(default_factory=dict)
    rdc: bool = False


class LinkError(Exception):
    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(str(d.message) for d in diagnostics))
        self.diagnostics = diagnostics


class ObjectFormatError(Exception):
    pass


# ---- link names ------------------------------------------------------------------------
def link_namer(language: str):
    """FunctionDef -> its link name in a unit of `language` (what lowering names it)."""
    def name(fn: A.FunctionDef) -> str:
        base = getattr(fn, "instance_name", fn.name).replace(" ", "")
        if language == C or fn.ty is None:
            return base
        return f"{base}({','.join(str(p).replace(' ', '') for p in fn.ty.params)})"
    return name


def _display(fn: A.FunctionDef, language: str) -> str:
    base = getattr(fn, "instance_name", fn.name)
    if language == C or fn.ty is None or fn.name == "main":   # C++ mangles no main
        return base
    return f"{base}({', '.join(str(p) for p in fn.ty.params)})"


def _short(fn: A.FunctionDef) -> str:
    return getattr(fn, "instance_name", fn.name).replace(" ", "")


def is_device_code(fn: A.FunctionDef | None) -> bool:
    """Code that runs on the device only: a kernel's or a `__device__` function's."""
    return fn is not None and ("global" in fn.exec_space or fn.exec_space == {"device"})


# ---- a unit's symbols ------------------------------------------------------------------
def unit_symbols(tu: A.TranslationUnit, language: str, rdc: bool, warn=None) -> dict[str, LinkSymbol]:
    """The symbol table of a checked unit, by IR name; `warn(message, loc)` hears nvcc's
    warning for an `extern __device__` variable that whole-program mode makes the unit's own."""
    name = link_namer(language)
    symbols: dict[str, LinkSymbol] = {}
    for fn in tu.functions:
        symbols.setdefault(name(fn), LinkSymbol(name(fn), _display(fn, language), _short(fn), "function",
                                                _function_binding(fn, rdc), _side(fn), fn.loc))
    defined_vars = {v.name for v in tu.global_vars if v.ty is not None and _defines(v)}
    for v in tu.global_vars:
        if v.ty is not None and v.name in defined_vars and _defines(v):
            symbols.setdefault(v.name, LinkSymbol(v.name, v.name, v.name, "variable",
                                                  _variable_binding(v, language, rdc), _var_side(v), v.loc))
    for owner, use, fn in function_uses(tu):
        if fn.is_builtin or fn.is_template or name(fn) in symbols:
            continue
        symbols[name(fn)] = LinkSymbol(name(fn), _display(fn, language), _short(fn), "function", "undefined",
                                       "device" if is_device_code(owner) else "host", use.loc, _user(owner))
    for owner, use, v in _extern_variable_uses(tu, defined_vars):
        if v.name in symbols:
            continue
        if _var_side(v) == "device" and not rdc:
            if warn is not None:
                warn(f"extern declaration of the entity {v.name} is treated as a static definition", v.loc)
            symbols[v.name] = LinkSymbol(v.name, v.name, v.name, "variable", "local", "device", v.loc)
            continue
        symbols[v.name] = LinkSymbol(v.name, v.name, v.name, "variable", "undefined", _var_side(v), use.loc,
                                     _user(owner))
    return symbols


def _function_binding(fn: A.FunctionDef, rdc: bool) -> str:
    specs = set(fn.specs.storage) | set(fn.specs.cuda)
    in_class = fn.owner is not None and fn.declarator.qualifier is None   # implicitly inline
    if ("static" in specs and fn.owner is None) or (fn.exec_space == {"device"} and not rdc):
        return "local"
    if specs & WEAK_SPECIFIERS or in_class or getattr(fn, "instance_name", None) or is_system_location(fn.loc):
        return "weak"
    return "global"


def _side(fn: A.FunctionDef) -> str:
    return "device" if fn.exec_space == {"device"} else "host"


def _var_side(v: A.VarDecl) -> str:
    return "device" if v.space in ("global", "constant", "shared", "managed") else "host"


def _defines(v: A.VarDecl) -> bool:
    return "extern" not in v.specs.storage or v.init is not None


def _variable_binding(v: A.VarDecl, language: str, rdc: bool) -> str:
    storage = set(v.specs.storage)
    const = "const" in v.specs.qualifiers or "constexpr" in storage
    if "static" in storage or (const and language != C and "extern" not in storage) or v.space == "shared" \
            or (_var_side(v) == "device" and not rdc):
        return "local"
    return "weak" if "inline" in storage else "global"


def _user(owner: A.FunctionDef | None) -> str | None:
    return None if owner is None else getattr(owner, "instance_name", owner.name)


def _extern_variable_uses(tu: A.TranslationUnit, defined: set[str]):
    """(owner, Name, VarDecl) for each use of a file-scope variable the unit declares
    `extern` and does not define (a bundled header's variables are the runtime's)."""
    roots = [(None, v.init) for v in tu.global_vars if v.init is not None] + [(f, f.body) for f in tu.functions]
    for owner, root in roots:
        for node in A.walk(root):
            v = getattr(node, "decl", None)
            if isinstance(node, A.Name) and isinstance(v, A.VarDecl) and v.is_global_scope \
                    and "extern" in v.specs.storage and v.name not in defined and not is_system_location(v.loc):
                yield owner, node, v


# ---- object files ------------------------------------------------------------------------
def format_object(unit: ObjectUnit) -> str:
    head = [OBJECT_MAGIC, SYMBOL_PREFIX + json.dumps({"unit": unit.filename, "rdc": unit.rdc})]
    for s in unit.symbols.values():
        record = asdict(s)
        record["loc"] = None if s.loc is None else [s.loc.file, s.loc.line, s.loc.col, s.loc.length]
        head.append(SYMBOL_PREFIX + json.dumps(record))
    return "\n".join(head) + "\n" + format_module(unit.module)


def parse_object(text: str) -> ObjectUnit:
    """The unit an object file holds; ObjectFormatError when it is none."""
    lines = text.split("\n")
    if lines[0] != OBJECT_MAGIC or not lines[1].startswith(SYMBOL_PREFIX):
        raise ObjectFormatError("file format not recognized")
    try:
        info = json.loads(lines[1][len(SYMBOL_PREFIX):])
        symbols = {}
        for line in lines[2:]:
            if not line.startswith(SYMBOL_PREFIX):
                break
            record = json.loads(line[len(SYMBOL_PREFIX):])
            record["loc"] = None if record["loc"] is None else SourceLocation(*record["loc"])
            symbols[record["name"]] = LinkSymbol(**record)
        external = frozenset(s.name for s in symbols.values() if s.binding == "undefined")
        module = parse_module(text, check=True, external=external)
        return ObjectUnit(info["unit"], module, symbols, bool(info["rdc"]))
    except (ValueError, KeyError, TypeError, IRParseError) as e:
        raise ObjectFormatError(f"malformed object file ({e})") from None


# ---- the link ----------------------------------------------------------------------------
@dataclass
class _Definition:
    unit: int
    symbol: LinkSymbol


def link(units: list[ObjectUnit]) -> Module:
    """One module of the units' modules; LinkError with every unresolved or doubly
    defined symbol."""
    errors: list[Diagnostic] = []
    definitions = _definitions(units, errors)
    resolved = _resolve(units, definitions, errors)
    if errors:
        raise LinkError(errors)
    final = _final_names(units, definitions)
    module = Module(arch=units[0].module.arch, sched=units[0].module.sched)
    for i, unit in enumerate(units):
        renaming = {**final[i], **{name: final[d.unit][d.symbol.name] for name, d in resolved[i].items()}}
        for name, fn in unit.module.functions.items():
            if name in final[i]:
                fn = _renamed_function(fn, renaming)
                module.functions[fn.name] = fn
        for name, g in unit.module.globals.items():
            if name in final[i]:
                module.globals[final[i][name]] = Global(final[i][name], g.space, g.size, g.align, g.init)
        module.structs.update(unit.module.structs)
    return module


def _definitions(units: list[ObjectUnit], errors: list[Diagnostic]) -> dict[str, _Definition]:
    """The program's exported definitions by display name (a weak one gives way to a
    global one and to the first weak one)."""
    out: dict[str, _Definition] = {}
    for i, unit in enumerate(units):
        for s in unit.symbols.values():
            if s.binding not in ("global", "weak"):
                continue
            prev = out.get(s.display)
            if prev is None or (prev.symbol.binding == "weak" and s.binding == "global"):
                out[s.display] = _Definition(i, s)
            elif s.binding == "global" and prev.symbol.binding == "global":
                errors.append(Diagnostic("error", f"multiple definition of '{s.display}'", s.loc))
                errors.append(Diagnostic("note", "first defined here" if prev.symbol.loc else
                                         f"first defined in {units[prev.unit].filename}",
                                         prev.symbol.loc))
    return out


def _resolve(units, definitions, errors) -> list[dict[str, _Definition]]:
    """Per unit: each undefined symbol's IR name -> the definition it resolves to.  Also
    each weak definition that gives way, so its uses reach the kept copy."""
    by_base: dict[str, list[_Definition]] = {}
    for d in definitions.values():
        by_base.setdefault(d.symbol.display.split("(")[0], []).append(d)
    out = []
    for i, unit in enumerate(units):
        resolved = {}
        for s in unit.symbols.values():
            if s.binding == "undefined":
                d = definitions.get(s.display) or _c_match(s, by_base)
                if d is None:
                    errors.extend(_undefined(s, unit))
                else:
                    resolved[s.name] = d
            elif s.binding in ("global", "weak"):
                kept = definitions[s.display]
                if kept.unit != i:
                    resolved[s.name] = kept
        out.append(resolved)
    return out


def _c_match(s: LinkSymbol, by_base) -> _Definition | None:
    """A C function and a C++ one of one name link alike: the one definition of that
    name, when the reference or the definition is C's (no parameter list)."""
    candidates = by_base.get(s.display.split("(")[0], [])
    if len(candidates) == 1 and s.kind == candidates[0].symbol.kind and \
            ("(" not in s.display or "(" not in candidates[0].symbol.display):
        return candidates[0]
    return None


def _undefined(s: LinkSymbol, unit: ObjectUnit) -> list[Diagnostic]:
    message = f"undefined reference to '{s.display}'"
    if s.loc is None:
        where = f"in function '{s.user}'" if s.user else "in a file-scope initialiser"
        return [Diagnostic("error", f"{unit.filename}: {where}: {message}")]
    out = [Diagnostic("error", message, s.loc)]
    if s.side == "device" and s.kind == "function":
        out.append(Diagnostic("note", RDC_HINT, s.loc))
    return out


def _final_names(units: list[ObjectUnit], definitions) -> list[dict[str, str]]:
    """Per unit: IR name -> final name, for each function and global the unit keeps."""
    kept = {(d.unit, d.symbol.name) for d in definitions.values()}
    shorts: dict[str, int] = {}
    for i, unit in enumerate(units):
        for name in unit.module.functions:
            s = unit.symbols.get(name)
            if s is not None and (s.binding == "local" or (i, name) in kept):
                shorts[s.short] = shorts.get(s.short, 0) + 1
    taken: set[str] = set()
    strings = 0
    out = []
    for i, unit in enumerate(units):
        names: dict[str, str] = {}
        for name in unit.module.functions:
            s = unit.symbols.get(name)
            if s is None or s.binding == "local" or (i, name) in kept:
                wanted = name if s is None else s.short if shorts[s.short] == 1 else name
                names[name] = _free(wanted, taken)
        for name, g in unit.module.globals.items():
            s = unit.symbols.get(name)
            if g.space == "string":
                names[name] = _free(f"str{strings}", taken)
                strings += 1
            elif name == "dynamic_smem":
                names[name] = name
                taken.add(name)
            elif s is None or s.binding == "local" or (i, name) in kept:
                owner, sep, rest = name.rpartition("::")   # a function's __shared__ variable
                names[name] = _free(names[owner] + sep + rest if sep and owner in names else name, taken)
        out.append(names)
    return out


def _free(wanted: str, taken: set[str]) -> str:
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted}.{n}"
    taken.add(name)
    return name


def _renamed_function(fn: Function, renaming: dict[str, str]) -> Function:
    fn.name = renaming.get(fn.name, fn.name)
    for block in fn.blocks:
        block.instrs = [_renamed(ins, renaming) for ins in block.instrs]
    for d in fn.branch_decisions:
        d.function = fn.name
    return fn


def _renamed(ins: Instr, renaming: dict[str, str]) -> Instr:
    srcs = tuple(_renamed_operand(o, renaming) for o in ins.srcs)
    if srcs == ins.srcs:
        return ins
    return Instr(ins.op, ins.mods, ins.dsts, srcs, ins.guard, ins.guard_neg, ins.loc)


def _renamed_operand(o, renaming: dict[str, str]):
    if isinstance(o, Sym) and o.name in renaming:
        return Sym(renaming[o.name], o.offset)
    if isinstance(o, Mem) and isinstance(o.base, Sym) and o.base.name in renaming:
        return Mem(Sym(renaming[o.base.name], o.base.offset), o.offset)
    return o

