"""Liveness: the virtual registers a block's entry and exit may still need.

A register is live at a point when some path from there reads it before writing
it.  The IR is not in SSA form and a guarded write may not happen, so only an
unguarded write ends a register's life.  RET reads the function's return
registers, which are also live at the virtual exit.  Only virtual registers
(`%rN %rdN %pN`) are tracked, by name: after register allocation a 64-bit value spans a
pair of physical registers, and the passes that ask (dead code, register
allocation) leave physical registers alone.  The pass manager computes this as
the "liveness" analysis; dead-code elimination and register allocation read it.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.ir import Function, Instr, Mem, Reg
from minicuda.passes.cfg import CFG, EXIT


@dataclass(frozen=True)
class Liveness:
    live_in: dict[str, frozenset[str]]    # block label -> the names of the registers live on entry
    live_out: dict[str, frozenset[str]]   # block label -> live on exit (the union of its successors' entries)


def read_names(ins: Instr, rets: list[str]) -> list[str]:
    """The names of the virtual registers ins reads: its sources, address bases and
    guard; RET, `rets` (the names of the function's virtual return registers)."""
    names = []
    for s in ins.srcs:
        if isinstance(s, Reg):
            if s.name[:1] == "%":
                names.append(s.name)
        elif isinstance(s, Mem) and isinstance(s.base, Reg) and s.base.name[:1] == "%":
            names.append(s.base.name)
    if ins.guard is not None and ins.guard.name[:1] == "%":
        names.append(ins.guard.name)
    if ins.op == "RET":
        names += rets
    return names


def kill_names(ins: Instr) -> list[str]:
    """The names of the virtual registers ins surely writes (none when it is guarded)."""
    if ins.guard is not None:
        return []
    return [d.name for d in ins.dsts if d.name[:1] == "%"]


def return_names(fn: Function) -> list[str]:
    """The names of the function's virtual return registers: what RET and the exit read."""
    return [r.name for r in fn.rets if r.is_virtual]


def live_before(instrs: list[Instr], live: set[str], rets: list[str]) -> set[str]:
    """`live` (the names live after `instrs`) carried back to before them, in place."""
    for ins in reversed(instrs):
        if ins.guard is None:
            for d in ins.dsts:
                live.discard(d.name)
        live.update(read_names(ins, rets))
    return live


def analyze_liveness(fn: Function, analyses) -> Liveness:
    return liveness(fn, analyses.get("cfg"))


def liveness(fn: Function, cfg: CFG) -> Liveness:
    """Live registers at every block's entry and exit (a backward fixed point, on a
    worklist: a block is visited again only when a successor's entry has grown)."""
    rets = return_names(fn)
    gen: dict[str, frozenset[str]] = {}
    kill: dict[str, set[str]] = {}
    for block in fn.blocks:
        gen[block.label] = frozenset(live_before(block.instrs, set(), rets))
        kill[block.label] = {n for ins in block.instrs for n in kill_names(ins)}
    live_in: dict[str, frozenset[str]] = {EXIT: frozenset(rets)}
    live_out: dict[str, frozenset[str]] = {b.label: frozenset() for b in fn.blocks}
    empty = frozenset()
    work = [b.label for b in fn.blocks]                  # popped last first: the blocks in reverse
    queued = set(work)
    while work:
        label = work.pop()
        queued.discard(label)
        succs = cfg.succ[label]
        out = live_in.get(succs[0], empty) if len(succs) == 1 else \
            empty.union(*(live_in.get(s, empty) for s in succs))
        live_out[label] = out
        new_in = gen[label] | (out - kill[label])
        if new_in != live_in.get(label):
            live_in[label] = new_in
            for p in cfg.pred[label]:
                if p not in queued:
                    queued.add(p)
                    work.append(p)
    del live_in[EXIT]
    return Liveness({b.label: live_in.get(b.label, empty) for b in fn.blocks}, live_out)
