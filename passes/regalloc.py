"""Register allocation and the resource usage it implies.

Virtual registers get physical ones by greedy colouring of the interference graph
built from liveness (passes/liveness.py): `%rN` takes one 32-bit register, `%rdN` an aligned pair (so
"Used N registers" counts as ptxas counts), `%pN` one of P0..P6.  A function's
parameters are live from its entry.  `resource_usage` reports what ptxas reports:
registers, shared memory, stack frame, spills and the constant bank.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.arch import reserved_cmem, sm_of
from minicuda.ir import Function, Mem, Reg
from minicuda.passes.liveness import Liveness, kills, reads

MAX_REGISTERS = 255
PREDICATES = 7


def interference(fn: Function, live: Liveness) -> dict[Reg, set[Reg]]:
    graph: dict[Reg, set[Reg]] = {}

    def add(a: Reg, b: Reg):
        if a != b and a.is_pred == b.is_pred:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)

    params = [p.reg for p in fn.params]
    for p in params:
        graph.setdefault(p, set())
        for q in params:
            add(p, q)
    for b in fn.blocks:
        now = set(live.live_out[b.label])
        for ins in reversed(b.instrs):
            for d in ins.dsts:
                if not d.is_virtual:
                    continue
                graph.setdefault(d, set())
                for l in now:
                    add(d, l)
            now -= kills(ins)
            now |= reads(ins, fn)
        if b.label == fn.blocks[0].label:
            for p in params:
                for l in now:
                    add(p, l)
    return graph


@dataclass
class Allocation:
    mapping: dict[Reg, Reg]
    registers: int
    predicates: int


def allocate(fn: Function, live: Liveness) -> Allocation:
    graph = interference(fn, live)
    order = sorted(graph, key=lambda r: (-len(graph[r]), r.is_pred, r.name))
    mapping: dict[Reg, Reg] = {}
    slots: dict[Reg, int] = {}
    for r in order:
        taken = set()
        for n in graph[r]:
            if n in slots:
                taken.add(slots[n])
                if n.is_wide:
                    taken.add(slots[n] + 1)
        width, step = (2, 2) if r.is_wide else (1, 1)
        slot = 0
        while any(slot + k in taken for k in range(width)):
            slot += step
        slots[r] = slot
    regs = [s + (2 if r.is_wide else 1) for r, s in slots.items() if not r.is_pred]
    preds = [s + 1 for r, s in slots.items() if r.is_pred]
    for r, s in slots.items():
        mapping[r] = Reg(f"P{s}") if r.is_pred else Reg(f"R{s}")
    return Allocation(mapping, max(regs, default=0), max(preds, default=0))


def _sub(o, mapping):
    if isinstance(o, Reg):
        return mapping.get(o, o)
    if isinstance(o, Mem) and isinstance(o.base, Reg):
        return Mem(mapping.get(o.base, o.base), o.offset)
    return o


@dataclass(frozen=True)
class RegisterAllocation:
    name: str = "regalloc"

    def run(self, fn: Function, analyses) -> bool:
        alloc = allocate(fn, analyses.get("liveness"))
        m = alloc.mapping
        fn.ret_wide = bool(fn.rets) and fn.rets[0].is_wide  # R0 alone does not say it holds a pair
        for b in fn.blocks:  # a physical register does not say its width: spell 64-bit moves
            b.instrs = [replace(i, mods=i.mods + ("64",)) if i.op in ("MOV", "SEL") and i.dsts and i.dsts[0].is_wide
                        and "64" not in i.mods else i for i in b.instrs]
        for b in fn.blocks:
            b.instrs = [replace(i, dsts=tuple(_sub(d, m) for d in i.dsts), srcs=tuple(_sub(s, m) for s in i.srcs),
                                guard=_sub(i.guard, m) if i.guard is not None else None) for i in b.instrs]
            b.instrs = [i for i in b.instrs if not (i.op == "MOV" and i.dsts == i.srcs)]  # coalesced copies
        for p in fn.params:
            p.reg = m.get(p.reg, p.reg)
        fn.rets = [m.get(r, r) for r in fn.rets]
        fn.registers = alloc.registers
        fn.predicates = alloc.predicates
        return True


@dataclass
class ResourceUsage:
    function: str
    kind: str
    arch: str
    registers: int
    shared_bytes: int
    stack_frame: int
    spill_stores: int
    spill_loads: int
    cmem_bytes: int
    dynamic_shared: bool

    def ptxas_lines(self) -> list[str]:
        what = "entry function" if self.kind == "kernel" else "function"
        lines = [f"ptxas info    : Compiling {what} '{self.function}' for '{self.arch}'",
                 f"ptxas info    : Function properties for {self.function}",
                 f"    {self.stack_frame} bytes stack frame, {self.spill_stores} bytes spill stores, {self.spill_loads} bytes spill loads",
                 f"ptxas info    : Used {self.registers} registers"
                 + (f", {self.shared_bytes} bytes smem" if self.shared_bytes else "")
                 + f", {self.cmem_bytes} bytes cmem[0]"]
        return lines


def resource_usage(fn: Function, arch: str) -> ResourceUsage:
    params = sum(((p.size + 7) // 8) * 8 if p.size == 8 else 4 for p in fn.params)
    cmem = reserved_cmem(sm_of(arch)) + params if fn.kind == "kernel" else 0
    regs = fn.registers
    if regs:
        regs = max(regs + 2, 8)  # R1 is the stack pointer and R255 stays RZ; ptxas allocates at least 8
    return ResourceUsage(fn.name, fn.kind, arch, min(regs, MAX_REGISTERS), fn.shared_bytes, fn.local_bytes, 0, 0,
                         cmem, fn.dynamic_shared)
