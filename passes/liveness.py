"""Liveness: the virtual registers a block's entry and exit may still need.

A register is live at a point when some path from there reads it before writing
it.  The IR is not in SSA form and a guarded write may not happen, so only an
unguarded write ends a register's life.  RET reads the function's return
registers, which are also live at the virtual exit.  Only virtual registers
(`%rN %rdN %pN`) are tracked: after register allocation a 64-bit value spans a
pair of physical registers, and the passes that ask (dead code, register
allocation) leave physical registers alone.  The pass manager computes this as
the "liveness" analysis; dead-code elimination and register allocation read it.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.ir import Function, Instr, Reg
from minicuda.passes.cfg import CFG, EXIT


@dataclass(frozen=True)
class Liveness:
    live_in: dict[str, frozenset[Reg]]    # block label -> live on entry
    live_out: dict[str, frozenset[Reg]]   # block label -> live on exit (the union of its successors' entries)


def reads(ins: Instr, fn: Function) -> set[Reg]:
    """The virtual registers ins reads: its sources, address bases and guard; RET, the returns."""
    regs = ins.uses() + (list(fn.rets) if ins.op == "RET" else [])
    return {r for r in regs if r.is_virtual}


def kills(ins: Instr) -> set[Reg]:
    """The virtual registers ins surely writes (none when it is guarded)."""
    return {d for d in ins.dsts if d.is_virtual} if ins.guard is None else set()


def analyze_liveness(fn: Function, analyses) -> Liveness:
    return liveness(fn, analyses.get("cfg"))


def liveness(fn: Function, cfg: CFG) -> Liveness:
    """Live registers at every block's entry and exit (a backward fixed point, on a
    worklist: a block is visited again only when a successor's entry has grown)."""
    gen: dict[str, set[Reg]] = {}
    kill: dict[str, set[Reg]] = {}
    for block in fn.blocks:
        g, k = gen.setdefault(block.label, set()), kill.setdefault(block.label, set())
        for ins in block.instrs:
            for r in reads(ins, fn):
                if r not in k:
                    g.add(r)
            if ins.guard is None:
                k.update(d for d in ins.dsts if d.is_virtual)
    live_in: dict[str, frozenset[Reg]] = {EXIT: frozenset(r for r in fn.rets if r.is_virtual)}
    live_out: dict[str, frozenset[Reg]] = {b.label: frozenset() for b in fn.blocks}
    work = [b.label for b in fn.blocks]                  # popped last first: the blocks in reverse
    queued = set(work)
    while work:
        label = work.pop()
        queued.discard(label)
        succs = cfg.succ[label]
        out = live_in.get(succs[0], frozenset()) if len(succs) == 1 else \
            frozenset().union(*(live_in.get(s, frozenset()) for s in succs))
        live_out[label] = out
        new_in = frozenset(gen[label] | (out - kill[label]))
        if new_in != live_in.get(label):
            live_in[label] = new_in
            for p in cfg.pred[label]:
                if p not in queued:
                    queued.add(p)
                    work.append(p)
    del live_in[EXIT]
    return Liveness({b.label: live_in.get(b.label, frozenset()) for b in fn.blocks}, live_out)
