"""Mark what nvcc -O3 code does differently from -G code where the VM must know it.

Run at -O1 and above, after the pipeline, on kernels and device functions (never host code):

- `.FAST32` on a 64-bit IDIV/IREM: nvcc -O3 divides two 64-bit integers through a
  32-bit path when both operands' upper halves are zero, and through its 64-bit
  routine otherwise; -G always takes the 64-bit routine.  The results differ only
  for a zero divisor (measured on an H100, docs/semantics.md): the 32-bit path gives
  0x00000000FFFFFFFF, the 64-bit one all ones.
- `.UNCHECKED` on a CALL of a user function: -G code checks the stack against
  cudaLimitStackSize as a function is entered and traps (cudaErrorLaunchFailure);
  -O3 code does not, and an overflowing call writes past the stack
  (cudaErrorIllegalAddress).
"""
from __future__ import annotations

from minicuda.ir import Instr, Module
from minicuda.isa import UNCHECKED
from minicuda.semantics import FAST32, int_type


def mark_release_code(module: Module) -> None:
    for fn in module.functions.values():
        if fn.kind == "host":
            continue
        for block in fn.blocks:
            block.instrs = [_marked(ins) for ins in block.instrs]


def _marked(ins: Instr) -> Instr:
    if ins.op in ("IDIV", "IREM") and FAST32 not in ins.mods and int_type(ins)[0] == 64:
        extra = FAST32
    elif ins.op == "CALL" and "RT" not in ins.mods and UNCHECKED not in ins.mods:
        extra = UNCHECKED
    else:
        return ins
    return Instr(ins.op, ins.mods + (extra,), ins.dsts, ins.srcs, ins.guard, ins.guard_neg, ins.loc)
