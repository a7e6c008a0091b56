"""Divergence (uniformity) analysis: which registers may differ between the threads
of a warp, and which conditional branches may therefore diverge.

A value is uniform when it depends only on blockIdx, blockDim, gridDim, warpSize,
kernel parameters, constants, symbols and other uniform values.  Seeds of
variation: threadIdx, lane id and the other special registers; loads through a
varying address or from a symbol the module does not know as a global (a frame
variable); the results the ISA table marks `varying="always"` (thread-private loads,
atomics, warp intrinsics, BAR.RED, CALL); a device function's incoming values
(parameters and registers read but never written).  Variation flows through
sources, memory bases and guards.

The IR is not in SSA form, so the result is flow-insensitive (one bit per register
name) and adds sync dependence: every register written in the region of a
divergent branch -- the blocks reachable from it before its immediate
post-dominator, or every reachable block when it has none -- is varying, since
which write a thread saw depends on its path (this covers values merged after an
if-else and values carried out of a loop with a divergent exit).  The two rules
run to a fixed point.  Host functions run as one thread: all uniform there.

Invariant: the result is sound: a register never marked varying holds the same
value in all threads of a warp that execute its uses together.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from minicuda.ir import Function, Instr, Mem, Reg, Special, Sym
from minicuda.isa import ALWAYS
from minicuda.passes.cfg import EXIT, CFG, build_cfg, conditional_branch
from minicuda.passes.postdom import ipdom_of

UNIFORM_SPECIALS = ("SR_CTAID.", "SR_NTID.", "SR_NCTAID.", "SR_WARPSIZE")
CONSTANT_REGS = {"RZ", "PT"}
_PHYSICAL = re.compile(r"^R(\d+)$")


@dataclass
class Divergence:
    varying: set[str] = field(default_factory=set)
    divergent_branches: set[str] = field(default_factory=set)
    guards: dict[str, str] = field(default_factory=dict)   # block label -> guard of its conditional BRA

    def is_varying(self, reg: Reg | str) -> bool:
        return str(reg) in self.varying

    def branch_is_uniform(self, block_label: str) -> bool:
        guard = self.guards.get(block_label)
        return guard is None or guard not in self.varying


def analyze_divergence(fn: Function, analyses=None) -> Divergence:
    if analyses is not None:
        cfg, post = analyses.get("cfg"), analyses.get("ipdom")
        module = getattr(analyses, "module", None)
    else:
        cfg, module = build_cfg(fn), None
        post = ipdom_of(cfg)
    result = Divergence(guards=_branch_guards(fn))
    if fn.kind == "host":
        return result
    memo = analyses.memo("divergence") if hasattr(analyses, "memo") else {}
    operands = [(b.label, [_operands(ins, memo) for ins in b.instrs]) for b in fn.blocks]
    varying = result.varying = _incoming(fn, operands)
    readers, seeds = _dataflow(operands, module)
    _spread(varying, [n for names in seeds for n in names] + list(varying), readers)
    writes = {label: {n for _, _, w in block for n in w} for label, block in operands}
    explored: dict[str | None, set[str]] = {}   # join -> the blocks the regions ending there covered
    while True:
        new = _divergent(cfg, result) - result.divergent_branches
        if not new:
            return result
        result.divergent_branches |= new
        for label in sorted(new):
            join = post.get(label)
            fresh = set()
            for block in _grow_region(cfg, label, join, explored.setdefault(join, set())):
                fresh |= writes.get(block, set()) - varying
            varying |= fresh
            _spread(varying, fresh, readers)


def _operands(ins: Instr, memo: dict) -> tuple[Instr, set[str], set[str]]:
    """(ins, the names it reads, the names it writes), from `memo` when ins was seen
    before with the same operands (the sets are shared: nothing here changes them)."""
    hit = memo.get(id(ins))
    if hit is None or hit[0] is not ins or hit[3] is not ins.srcs or hit[4] is not ins.dsts or hit[5] is not ins.guard:
        hit = memo[id(ins)] = (ins, *_reads_writes(ins), ins.srcs, ins.dsts, ins.guard)
    return hit[:3]


def _grow_region(cfg: CFG, label: str, join: str | None, covered: set[str]) -> list[str]:
    """The blocks of `label`'s region (reachable from its successors without passing
    `join` or the exit) not yet in `covered`, which gains them.
    `covered` holds whole regions ending at `join`: what a covered block reaches
    before `join` is covered already, so each block is visited once per join."""
    found = []
    work = list(cfg.succs(label))
    while work:
        b = work.pop()
        if b in covered or b == join or b == EXIT:
            continue
        covered.add(b)
        found.append(b)
        work.extend(cfg.succs(b))
    return found


def _branch_guards(fn: Function) -> dict[str, str]:
    guards = {}
    for b in fn.blocks:
        br = conditional_branch(b)
        if br is not None:
            guards[b.label] = br.guard.name
    return guards


def _divergent(cfg: CFG, result: Divergence) -> set[str]:
    return {label for label, guard in result.guards.items()
            if guard in result.varying and len(cfg.succs(label)) > 1}


def _incoming(fn: Function, operands) -> set[str]:
    """A device function's parameters and live-in registers come from divergent callers."""
    if fn.kind != "device":
        return set()
    read = {name for _, block in operands for _, r, _ in block for name in r}
    written = {name for _, block in operands for _, _, w in block for name in w}
    return {p.reg.name for p in fn.params} | (read - written)


def _dataflow(operands, module) -> tuple[dict[str, list[set[str]]], list[set[str]]]:
    """(register -> the write sets of the instructions reading it, the write sets of the
    instructions varying whatever they read); `operands`: each block's (instruction,
    the names it reads, the names it writes)."""
    readers: dict[str, list[set[str]]] = {}
    seeds = []
    for _, block in operands:
        for ins, reads, writes in block:
            if not writes:
                continue
            if _produces_varying(ins, module):
                seeds.append(writes)
            for name in reads:
                readers.setdefault(name, []).append(writes)
    return readers, seeds


def _spread(varying: set[str], new, readers: dict[str, list[set[str]]]) -> None:
    """Add `new` to `varying`, and everything written from a varying value (a worklist
    over the readers, so each register is followed once)."""
    work = list(new)
    varying |= set(new)
    while work:
        for writes in readers.get(work.pop(), ()):
            fresh = writes - varying
            if fresh:
                varying |= fresh
                work.extend(fresh)


def _produces_varying(ins: Instr, module) -> bool:
    """ins varies whatever it reads: a thread-private result, a varying special
    register, a per-thread frame slot."""
    if ins.info.varying == ALWAYS:
        return True
    if any(isinstance(s, Special) and not s.name.startswith(UNIFORM_SPECIALS) for s in ins.srcs):
        return True
    return any(_private_symbol(s, module) for s in ins.srcs)


def _private_symbol(operand, module) -> bool:
    """A symbol that is no global nor function of the module names a per-thread frame slot."""
    sym = operand.base if isinstance(operand, Mem) else operand
    if not isinstance(sym, Sym) or module is None:
        return False
    return sym.name not in module.globals and sym.name not in module.functions


def _wide(ins: Instr) -> bool:
    return ins.op.startswith("D") and ins.op != "DSETP" or any("64" in m for m in ins.mods)


def _add_names(names: set[str], reg: Reg, wide: bool) -> None:
    """Add the register and, for a 64-bit value in an allocated pair, its high half."""
    names.add(reg.name)
    if wide:
        m = _PHYSICAL.match(reg.name)
        if m:
            names.add(f"R{int(m.group(1)) + 1}")


def _reads_writes(ins: Instr) -> tuple[set[str], set[str]]:
    """(the names ins reads, the names it writes), the constants left out."""
    regs = [s for s in ins.srcs if isinstance(s, Reg)]
    bases = [s.base for s in ins.srcs if isinstance(s, Mem) and isinstance(s.base, Reg)]
    physical = any(r.name[:1] == "R" for r in (*regs, *bases, *ins.dsts))
    wide = physical and _wide(ins)
    reads: set[str] = set()
    for r in regs:
        _add_names(reads, r, wide)
    for r in bases:
        _add_names(reads, r, physical)           # addresses are 64-bit
    if ins.guard is not None:
        reads.add(ins.guard.name)
    writes: set[str] = set()
    for d in ins.dsts:
        _add_names(writes, d, wide)
    return reads - CONSTANT_REGS, writes - CONSTANT_REGS
