"""What the rewriting passes share: which registers a fact may be about, whether a
block falls through, and replacing instructions one by one.

The IR is not in SSA form: a register may be written many times, and a guarded
write may or may not happen.  So every fact a cleanup pass keeps ("%r3 is a copy of
%r1", "%r4 holds %r1 + %r2") lives inside one block and dies at the first write,
guarded or not, to any register it mentions.  Facts are kept only about virtual
registers (`%rN %rdN %pN`) and the constants RZ and PT: after register allocation a
64-bit value spans a pair of physical registers, so a write to `R4` may clobber
`R5`, and the passes leave physical registers alone.  Values are computed by
`minicuda.semantics`; an instruction with side effects is never removed or moved.
Every pass keeps `verify` happy and returns whether it changed the function.
"""
from __future__ import annotations

import re
from typing import Callable

from minicuda.ir import Block, Function, Instr, Reg

CONSTANT_REGS = ("RZ", "PT")


def width_class(reg: Reg) -> str | None:
    """'p', 'rq', 'rd' or 'r' for a virtual register, None for anything else."""
    name = reg.name                      # %pN, %rdN or %rN when virtual
    if name[:1] != "%":
        return None
    return "p" if name[1:2] == "p" else (name[1:3] if name[1:3] in ("rd", "rq") else "r")


def unconditional_end(block: Block) -> bool:
    """The block never falls through to the next one."""
    last = block.instrs[-1] if block.instrs else None
    return last is not None and last.info.terminator and last.guard is None


def replace_each(fn: Function, rewrite: Callable[[Instr], Instr | None]) -> bool:
    """Replace every instruction `rewrite` gives a replacement for (None: keep it);
    True when one was replaced."""
    changed = False
    for block in fn.blocks:
        for i, ins in enumerate(block.instrs):
            replacement = rewrite(ins)
            if replacement is not None:
                block.instrs[i] = replacement
                changed = True
    return changed


_VIRTUAL = re.compile(r"^%(rq|rd|r|p)(\d+)$")


class FreshRegisters:
    """New virtual registers for a pass to write: numbered after every one the function names."""

    def __init__(self, fn: Function):
        names = {p.reg.name for p in fn.params} | {r.name for r in fn.rets}
        for ins in fn.instructions():
            names |= {d.name for d in ins.dsts} | {r.name for r in ins.uses()}
        self.next: dict[str, int] = {}
        for m in filter(None, map(_VIRTUAL.match, names)):
            self.next[m.group(1)] = max(self.next.get(m.group(1), 0), int(m.group(2)) + 1)

    def new(self, kind: str) -> Reg:
        """A register of class `kind`: 'r', 'rd', 'rq' or 'p'."""
        n = self.next.get(kind, 0)
        self.next[kind] = n + 1
        return Reg(f"%{kind}{n}")
