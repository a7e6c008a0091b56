"""The builtin table (minicuda/builtins.py) against what it describes: every function the
bundled headers declare has a row, and every row names something that exists (an
opcode of the ISA, a lowering handler, a runtime method) with the header's width
and execution space."""
import pathlib
import re

import numpy as np
import pytest

from minicuda import builtins, semantics
from minicuda.builtins import BUILTINS, INTRINSIC, MISSING, RUNTIME, UNSUPPORTED
from minicuda.compiler import compile_program
from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.parser import parse
from minicuda.grammar.preprocess import SYSTEM_INCLUDE_DIR, preprocess
from minicuda.grammar.sema import Overloads, Sema
from minicuda.ir import OPS, Imm, Instr, Reg
from minicuda.passes.lower import FunctionLowering
from minicuda.vm.runtime import Runtime

INCLUDE = pathlib.Path(SYSTEM_INCLUDE_DIR)
HEADERS = sorted(str(p.relative_to(INCLUDE)) for p in INCLUDE.rglob("*") if p.is_file())


def every_header_checked() -> tuple[A.TranslationUnit, Sema]:
    """One translation unit that includes every bundled header, parsed and checked."""
    diags = DiagnosticEngine()
    source = "".join(f"#include <{h}>\n" for h in HEADERS)
    tu = parse(preprocess(source, "all_headers.cu", diags, [], [], []), diags)
    sema = Sema(diags)
    sema.check(tu)
    diags.check()
    return tu, sema


def declared_functions(tu: A.TranslationUnit) -> dict[str, set[str]]:
    """name -> execution spaces, for every function declaration in the translation unit."""
    out: dict[str, set[str]] = {}
    for decl in tu.decls:
        if isinstance(decl, A.FunctionDef):   # defined in the header (<chrono>'s operators): no row
            found = [] if decl.body is not None or "inline" in decl.specs.storage else [(decl.name, decl.specs)]
        elif isinstance(decl, A.Declaration) and "inline" in decl.specs.storage:
            found = []   # defined by a bundled header (<math.h>'s frexp & co.: bits/math_library.h): no row
        elif isinstance(decl, A.Declaration) and "typedef" not in decl.specs.storage:
            found = [(v.name, decl.specs) for v in decl.decls
                     if v.declarator.params_suffix is not None and v.init is None]
        else:
            found = []
        for name, specs in found:
            spaces = {s.strip("_") for s in specs.cuda if s in ("__host__", "__device__")} or {"host"}
            out.setdefault(name, set()).update(spaces)
    return out


@pytest.fixture(scope="module")
def headers():
    tu, sema = every_header_checked()
    return declared_functions(tu), sema


def test_the_walk_finds_the_declarations_a_regex_sees(headers):
    """Guards the walk itself: each `name(` that opens a declaration line of a header is found
    (a function the header defines, its body before the next `;`, is no builtin)."""
    declared, _ = headers
    pattern = re.compile(r"^(?:extern\s+)?(?:__host__\s+|__device__\s+)+[\w\s\*]*?\b(\w+)\s*\(", re.M)
    family = re.compile(r"(?<!define )__MC_MATH\d\((\w+)\)")       # math.h's double + float pairs
    texts = [(INCLUDE / h).read_text() for h in HEADERS]
    seen = {m.group(1) for text in texts for m in pattern.finditer(text)
            if "{" not in text[m.end():text.find(";", m.end())]}
    seen |= {name + suffix for text in texts for name in family.findall(text) for suffix in ("", "f")}
    assert len(seen) > 180
    assert seen <= set(declared)


def test_every_declared_function_has_one_row(headers):
    declared, _ = headers
    missing = sorted(set(declared) - set(BUILTINS))
    assert not missing, f"declared in grammar/include with no row in minicuda/builtins.py: {missing}"


def test_every_row_is_declared_by_a_header(headers):
    declared, _ = headers
    assert not sorted(set(BUILTINS) - set(declared))


def test_each_row_is_one_of_the_four_kinds():
    for row in BUILTINS.values():
        assert row.kind in (INTRINSIC, RUNTIME, UNSUPPORTED, MISSING), row
        assert (row.kind == UNSUPPORTED) == bool(row.reason), row


def test_intrinsic_opcodes_are_in_the_isa_and_shapes_have_handlers():
    for row in BUILTINS.values():
        if row.kind == INTRINSIC:
            assert row.op in OPS, f"{row.name}: opcode {row.op} is not in minicuda.ir.OPS"
            assert row.shape in builtins.SHAPES, row
            assert callable(getattr(FunctionLowering, "builtin_" + row.shape, None)), row.shape


def test_runtime_rows_name_methods_the_runtime_has():
    for row in BUILTINS.values():
        if row.kind == RUNTIME:
            assert row.where, row
            for impl in (row.host, row.device):
                if impl is not None:
                    assert callable(getattr(Runtime, "rt_" + impl, None)), f"{row.name}: no Runtime.rt_{impl}"


def test_runtime_rows_agree_with_the_headers_on_space_and_width(headers):
    declared, sema = headers
    for row in BUILTINS.values():
        if row.kind != RUNTIME:
            continue
        assert row.where == declared[row.name], f"{row.name}: callable from {set(row.where)}, declared {declared[row.name]}"
        overloads = sema.globals.names[row.name]
        assert isinstance(overloads, Overloads)
        for fn in overloads.functions:
            ret = T.unqual(fn.ty.ret)
            width = 0 if T.is_void(ret) else 64 if isinstance(ret, T.Pointer) or ret.size == 8 else 32
            assert row.returns == width, f"{row.name} returns {ret}: width {width}, row says {row.returns}"


def test_every_mufu_row_is_an_operation_the_vm_evaluates():
    """MUFU.ERF once lowered fine and then failed in the VM: each MUFU row must evaluate."""
    for row in BUILTINS.values():
        if row.kind == INTRINSIC and row.op == "MUFU":
            wide = "F64" in row.mods
            arity = 2 if row.mods[0] in semantics.MUFU_BINARY else 1
            ins = Instr("MUFU", row.mods, (Reg("%rd0" if wide else "%r0"),), (Imm(0.5),) * arity)
            srcs = [semantics.operand_value(s, w) for s, w in zip(ins.srcs, semantics.source_widths(ins))]
            assert np.asarray(semantics.evaluate(ins, srcs)).size == 1, row.name


def call_of(fn: A.FunctionDef) -> str:
    """A call of fn with a value of each parameter's type (pointers: a cast of `buffer`)."""
    args = []
    for p in fn.ty.params:
        p = T.unqual(p)
        args.append(f"({p.spelled()})buffer" if isinstance(p, T.Pointer) else f"({p.spelled()})1")
    return f"{fn.name}({', '.join(args)})"


@pytest.mark.parametrize("space", ["__global__", "__host__"])
def test_every_intrinsic_lowers_and_verifies(headers, space):
    """Each intrinsic callable from `space`, with each of its overloads, compiles through the
    whole pipeline (the verifier runs after every pass)."""
    _, sema = headers
    side = "device" if space == "__global__" else "host"
    calls = []
    for row in BUILTINS.values():
        if row.kind == INTRINSIC and not builtins.is_legacy_warp(row):   # sm_70 has none (tests/vm/test_intrinsics.py)
            for fn in sema.globals.names[row.name].functions:
                if side in fn.exec_space:
                    calls.append(f"  {call_of(fn)};\n")
    assert len(calls) > (100 if side == "device" else 60)
    ret = "void" if side == "device" else "int"
    source = (f"#include <math.h>\n{space} {ret} every(int *buffer) {{\n" + "".join(calls)
              + ("" if side == "device" else "  return 0;\n") + "}\nint main() { return 0; }\n")
    program = compile_program(source, 70, 3)
    assert "every" in program.module.functions or any(f.startswith("every") for f in program.module.functions)
