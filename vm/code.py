"""A function flattened for execution, as both engines run it: its instructions in
order, each label's pc, the register rows of its register file, and each branch's
reconvergence pc read from the SSY/BSSY markers as printed (minicuda/ir.py states the
rule).  The JIT keeps its native code for the function on it."""
from __future__ import annotations

from minicuda.ir import Function, Reg, reconvergence_joins

# a predicate's slot: PRED_BASE + its row; register rows stay below it, however many
PRED_BASE = 1 << 30

class Code:
    """A function flattened for execution: instructions, label pcs, register slots, rpcs."""

    def __init__(self, fn: Function):
        self.fn = fn
        self.instrs = []
        self.block_of = []
        self.label_pc: dict[str, int] = {}
        for b in fn.blocks:
            self.label_pc[b.label] = len(self.instrs)
            for ins in b.instrs:
                self.instrs.append(ins)
                self.block_of.append(b.label)
        self.end = len(self.instrs)
        # each block's reconvergence pc for the branch ending it, from the SSY/BSSY markers
        # (the rule is in minicuda/ir.py); the function's end when no marker names a join
        joins = reconvergence_joins(fn)
        self.labels = frozenset(self.label_pc.values())   # where a warp's state is looked at (vm/cycles.py)
        self.rpc = {label: self.end if j is None else self.label_pc[j] for label, j in joins.items()}
        # register rows: R<n> at row n (the highest may start a 128-bit access's quad), then the
        # virtual registers (a %rd pair, a %rq quad aligned);
        # predicate P<n> / %p<n> at PRED_BASE + n (row n of the predicate file)
        regs = [r for ins in self.instrs for r in list(ins.dsts) + ins.uses()] + [p.reg for p in fn.params]
        phys = [int(r.name[1:]) for r in regs if not r.is_pred and r.name.startswith("R") and r.name != "RZ"]
        phys += [int(r.name[1:]) + 2 for ins in self.instrs if ins.mods[:1] == ("128",)   # a quad's top pair
                 for r in list(ins.dsts) + ins.uses() if r.name.startswith("R") and r.name != "RZ"]
        self.virtual_base = (max(phys, default=-1) + 2 + 1) // 2 * 2
        self.slots: dict[str, int] = {}
        self.nslots = 0
        self.npreds = 1
        for r in regs:
            self.slot(r)
        self.rows = self.virtual_base + self.nslots + 2
        self.native: dict = {}   # the JIT's compiled code for this function, per variant
        self.refused: str | None = None   # why the JIT left it to the interpreter (too large), if it did
        self.block_shared: set[str] | None = None   # a kernel's shared variables (ir.block_shared), once asked
        # whether it calls rand() (the JIT's native rand then shares glibc's state with the runtime)
        self.calls_rand = any(i.op == "CALL" and "RT" in i.mods and getattr(i.srcs[0], "name", "") == "rand"
                              for i in self.instrs)

    def slot(self, r: Reg) -> int:
        name = r.name
        if name in self.slots:
            return self.slots[name]
        if r.is_pred:
            n = int(name[2:]) if name.startswith("%p") else (7 if name == "PT" else int(name[1:]))
            s = PRED_BASE + n
            self.npreds = max(self.npreds, n + 1)
        elif name.startswith("R") and name != "RZ":
            s = int(name[1:])
        elif name == "RZ":
            s = -1
        else:
            span = r.span   # a pair or quad starts at a multiple of its size
            s = self.nslots + -self.nslots % span + self.virtual_base
            self.nslots = s - self.virtual_base + span
        self.slots[name] = s
        return s
