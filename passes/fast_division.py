"""Mark the 64-bit divisions of device code as nvcc -O3 compiles them (`.FAST32`).

nvcc -O3 divides two 64-bit integers through a 32-bit path when both operands'
upper halves are zero, and through its 64-bit routine otherwise; -G always takes
the 64-bit routine.  The results differ only for a zero divisor (measured on an
H100, docs/semantics.md): the 32-bit path gives 0x00000000FFFFFFFF, the 64-bit
one all ones.  The modifier tells the VM (and constant folding) which code ran;
run at -O1 and above, on kernels and device functions, never on host code.
"""
from __future__ import annotations

from minicuda.ir import Instr, Module
from minicuda.semantics import FAST32, int_type


def mark_fast_divisions(module: Module) -> None:
    for fn in module.functions.values():
        if fn.kind == "host":
            continue
        for block in fn.blocks:
            block.instrs = [_marked(ins) for ins in block.instrs]


def _marked(ins: Instr) -> Instr:
    if ins.op not in ("IDIV", "IREM") or FAST32 in ins.mods or int_type(ins)[0] != 64:
        return ins
    return Instr(ins.op, ins.mods + (FAST32,), ins.dsts, ins.srcs, ins.guard, ins.guard_neg, ins.loc)
