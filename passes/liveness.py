"""Liveness: the virtual registers a block's entry and exit may still need.

A register is live at a point when some path from there reads it before writing
it.  The IR is not in SSA form and a guarded write may not happen, so only an
unguarded write ends a register's life.  RET reads the function's return
registers, which are also live at the virtual exit.  Only virtual registers
(`%rN %rdN %pN`) are tracked, by name: after register allocation a 64-bit value spans a
pair of physical registers, and the passes that ask (dead code, register
allocation) leave physical registers alone.  The pass manager computes this as
the "liveness" analysis; dead-code elimination and register allocation read it.

A register no write can have reached holds nothing yet: it is live there (a path reads
it before writing it) but holds no value, so it need not keep a register of its own.
`undefined_in` says, per block, which registers no write may have reached on entry
(on every path from the function's entry).  Only the registers live at the entry can
be live before any write reaches them, so these sets are kept to those: small even
when the function is large.  Register allocation walks a block back with
`steps_back`, which drops a register where it is undefined.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.ir import Function, Instr, Mem, Reg
from minicuda.passes.cfg import CFG, EXIT


@dataclass(frozen=True)
class Liveness:
    live_in: dict[str, frozenset[str]]    # block label -> the names of the registers live on entry
    live_out: dict[str, frozenset[str]]   # block label -> live on exit (the union of its successors' entries)
    # block label -> the registers live at the function's entry that no write (guarded
    # or not) may have reached on entry to the block: live there, but holding no value
    undefined_in: dict[str, frozenset[str]]


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


def steps_back(instrs: list[Instr], undefined: frozenset[str], rets: list[str]):
    """Walks `instrs` (a block, `undefined`: its `undefined_in`) from the last to the first:
    (ins, ends, reads) for each, where `ends` are the names whose life ends going back
    past ins (an unguarded write, or the first write of an undefined register: before
    it the register holds no value yet) and `reads` the names ins reads that some write
    may have reached (an undefined one holds nothing to keep).  What is live after the
    block's last instruction is `live_out - undefined_out(instrs, undefined)`."""
    first = _first_writes(instrs, undefined)
    for k in range(len(instrs) - 1, -1, -1):
        ins = instrs[k]
        ends = kill_names(ins)
        if first:
            ends = ends + [d.name for d in ins.dsts if first.get(d.name) == k]
            reads = [r for r in read_names(ins, rets) if first.get(r, -1) < k]
        else:
            reads = read_names(ins, rets)
        yield ins, ends, reads


def _first_writes(instrs: list[Instr], undefined: frozenset[str]) -> dict[str, int]:
    """The undefined registers and where each is first written in instrs (len(instrs)
    when it is not: undefined throughout)."""
    if not undefined:
        return {}
    first = dict.fromkeys(undefined, len(instrs))
    for k, ins in enumerate(instrs):
        for d in ins.dsts:
            if first.get(d.name) == len(instrs):
                first[d.name] = k
    return first


def undefined_out(instrs: list[Instr], undefined: frozenset[str]) -> frozenset[str]:
    """The registers of `undefined` that no write in instrs reaches (undefined after them)."""
    if not undefined:
        return undefined
    written = {d.name for ins in instrs for d in ins.dsts if d.name in undefined}
    return undefined - written if written else undefined


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
    live_in = {b.label: live_in.get(b.label, empty) for b in fn.blocks}
    return Liveness(live_in, live_out, undefined_on_entry(fn, cfg, live_in))


def undefined_on_entry(fn: Function, cfg: CFG, live_in: dict[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Each block's `undefined_in`: a forward fixed point over the registers live at the
    entry but not parameters, the intersection over predecessors (undefined on every
    path), on a worklist that revisits a block's successors when its exit set shrinks."""
    entry = fn.blocks[0].label
    top = live_in[entry] - {p.reg.name for p in fn.params}
    if not top:
        return {b.label: top for b in fn.blocks}
    blocks = {b.label: b for b in fn.blocks}
    written = {b.label: frozenset(d.name for ins in b.instrs for d in ins.dsts if d.name in top) for b in fn.blocks}
    undefined_in = {b.label: top for b in fn.blocks}
    out = {b.label: top - written[b.label] if written[b.label] else top for b in fn.blocks}
    work = [b.label for b in reversed(fn.blocks)]       # popped last first: the blocks in order
    queued = set(work)
    while work:
        label = work.pop()
        queued.discard(label)
        new_in = top
        for p in cfg.pred[label]:
            if p in blocks and out[p] is not new_in:
                new_in = new_in & out[p]
        if new_in == undefined_in[label]:
            new_in = undefined_in[label]            # the same set, shared: not a copy per block
        undefined_in[label] = new_in
        new_out = new_in - written[label] if written[label] else new_in
        if new_out != out[label]:
            out[label] = new_out
            for s in cfg.succ[label]:
                if s in blocks and s not in queued:
                    queued.add(s)
                    work.append(s)
    return undefined_in
