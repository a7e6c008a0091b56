"""The ISA table is complete: every row names an interpreter semantics and a JIT lowering
that exist (and a pure row an evaluator and a vector lowering of its family), and the
compiler emits no opcode without a row, whether the opcode is written in a pass's
source or comes out of compiling a program."""
import ast
import dataclasses
import pathlib

import pytest

import minicuda
from minicuda import builtins, semantics
from minicuda.isa import ALWAYS, HAND_OFF, OPERANDS, OPS, OpInfo
from minicuda.vm.interp import Interpreter
from minicuda.vm.jit import ops
from minicuda.vm.jit.function import FunctionCodegen

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.cu"))
KINDS = {"alu", "cmp", "conv", "mem", "atomic", "warp", "sync", "control", "call", "marker"}

# programs using what no sample uses: __trap, the block reductions, assert
FEATURES = r"""
#include <cstdio>
#include <assert.h>
__global__ void features(int *out, int n) {
    int t = threadIdx.x;
    if (t == n) __trap();
    assert(t < 1024);
    int c = __syncthreads_count(t & 1);
    int a = __syncthreads_and(t < n);
    int o = __syncthreads_or(t == n - 1);
    out[t] = c + a + o;
}
int main() { return 0; }
"""


def missing(row: OpInfo) -> list[str]:
    """What the row names that does not exist."""
    out = []
    if not hasattr(Interpreter, "op_" + row.interp):
        out.append(f"interpreter semantics Interpreter.op_{row.interp}")
    if row.jit != HAND_OFF and not hasattr(FunctionCodegen, "lower_" + row.jit):
        out.append(f"JIT lowering FunctionCodegen.lower_{row.jit}")
    if row.eval and row.eval not in semantics.EVALUATORS:
        out.append(f"evaluator semantics.EVALUATORS[{row.eval!r}]")
    if row.eval and row.eval not in ops.LOWERINGS:
        out.append(f"vector lowering ops.LOWERINGS[{row.eval!r}]")
    return out


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_row_names_semantics_and_a_lowering_that_exist(name):
    row = OPS[name]
    assert row.name == name
    assert missing(row) == []
    assert row.kind in KINDS and row.varying in (ALWAYS, OPERANDS)
    if row.eval:   # a pure op runs as its family says, on both engines
        assert (row.interp, row.jit, row.kind) in {("pure", "pure", "alu"), ("pure", "pure", "cmp"),
                                                    ("pure", "pure", "conv")}
    else:
        assert row.interp != "pure" and row.jit != "pure"


@pytest.mark.parametrize("names", [{"interp": "fused_multiply_shift"}, {"jit": "fused_multiply_shift"},
                                   {"eval": "fused"}])
def test_a_row_naming_what_does_not_exist_is_caught(names):
    row = dataclasses.replace(OPS["IMULHI"], name="IMULSHF", **names)
    assert len(missing(row)) == 1 + ("eval" in names)


def test_every_family_has_an_evaluator_and_a_lowering_and_nothing_else():
    families = {row.eval for row in OPS.values() if row.eval}
    assert set(semantics.EVALUATORS) == families == set(ops.LOWERINGS)


def test_the_hand_offs_are_the_rare_ones():
    assert {name for name, row in OPS.items() if row.jit == HAND_OFF} == {"BAR.RED", "MATCH", "LAUNCH", "GRIDSYNC"}


# ---- the compiler emits only opcodes with a row ---------------------------------------------
def emitted(program) -> set[str]:
    return {ins.op for fn in program.module.functions.values() for ins in fn.instructions()}


@pytest.mark.parametrize("arch", ["sm_60", "sm_70"])
@pytest.mark.parametrize("opt", [0, 3])
def test_compiled_programs_use_only_opcodes_with_a_row(arch, opt):
    ops_seen = set()
    for source in SAMPLES + [FEATURES]:
        ops_seen |= emitted(minicuda.compile(source if isinstance(source, str) else str(source), arch=arch, opt=opt))
    assert ops_seen - set(OPS) == set()
    assert {"TRAP", "BAR.RED", "BAR", "EXIT"} <= ops_seen
    assert ({"SSY", "SYNC"} if arch == "sm_60" else {"BSSY", "BSYNC"}) <= ops_seen


def literal_opcodes(path: pathlib.Path) -> set[str]:
    """Opcodes written as string literals in the first argument of `emit(...)` and
    `Instr(...)` calls (conditional expressions included: `"DSETP" if d else "FSETP"`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if callee not in ("emit", "Instr"):
            continue
        found |= _choices(node.args[0])
    return found


def _choices(expr) -> set[str]:
    """The string values an expression made of literals and `a if c else b` can take."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return _choices(expr.body) | _choices(expr.orelse)
    return set()


def test_the_passes_and_the_frontend_write_only_opcodes_with_a_row():
    sources = sorted((ROOT / "passes").rglob("*.py")) + sorted((ROOT / "grammar").rglob("*.py"))
    written = {op: path.name for path in sources for op in literal_opcodes(path)}
    assert {"BRA", "MOV", "ISETP"} <= set(written)
    assert {op: where for op, where in written.items() if op not in OPS} == {}


def test_the_builtin_table_writes_only_opcodes_with_a_row():
    """Intrinsics (__trap, __syncthreads_count, ...) are emitted from their builtin rows."""
    intrinsics = {row.name: row.op for row in builtins.BUILTINS.values() if row.kind == builtins.INTRINSIC}
    assert intrinsics["__trap"] == "TRAP" and intrinsics["__syncthreads_count"] == "BAR.RED"
    assert {name: op for name, op in intrinsics.items() if op not in OPS} == {}


def test_the_scan_sees_an_opcode_without_a_row(tmp_path):
    fake = tmp_path / "fake_pass.py"
    fake.write_text('self.emit("IMULSHF" if wide else "IMUL", (), (r,), (a, b))\nInstr("FOO", srcs=())\n')
    assert literal_opcodes(fake) - set(OPS) == {"IMULSHF", "FOO"}
