"""Register allocation and the resource usage it implies.

Virtual registers get physical ones by greedy colouring of the interference graph
built from liveness (passes/liveness.py), where a register no write can have reached
yet is not live (it holds no value to keep): `%rN` takes one 32-bit register, `%rdN` an aligned pair, `%rqN` an aligned quad (so
"Used N registers" counts as ptxas counts), `%pN` one of P0..P6.  A function's
parameters are live from its entry.  `resource_usage` reports what ptxas reports:
registers, shared memory, stack frame, spills and the constant bank.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from minicuda.arch import ptxas_registers, reserved_cmem, sm_of
from minicuda.ir import Function, Instr, Mem, Reg
from minicuda.passes.bitgraph import BitGraph
from minicuda.passes.liveness import Liveness, return_names, steps_back, undefined_out

DENSE_EDGES = 400_000   # past this many, the interference graph is built as bit rows
PREDICATES = 7


def interference(fn: Function, live: Liveness) -> dict[Reg, set[Reg]]:
    return {Reg(a): {Reg(b) for b in others} for a, others in interference_by_name(fn, live).items()}


def interference_by_name(fn: Function, live: Liveness, limit: int | None = None) -> dict[str, set[str]] | None:
    """Each register's neighbours, by name: a register written while another (of its
    kind: predicate or not) is live interferes with it; the parameters with each other
    and with what is live at the entry.  Built a live set at a time (set unions, not
    pairs, over names, which hash faster than registers).  None once the live sets
    at the writes add up to more than `limit`: a graph for bit rows."""
    graph: dict[str, set[str]] = {}
    params = [p.reg.name for p in fn.params]
    for p in params:
        graph.setdefault(p, set())
        _connect(graph, p, {q for q in params if _is_pred(q) == _is_pred(p)})
    edges = 0
    for written, live_now in _writes_while_live(fn, live):
        edges += len(live_now)
        if limit is not None and edges > limit:
            return None
        _connect(graph, written, live_now)
    return graph


def _writes_while_live(fn: Function, live: Liveness):
    """(register, the registers of its kind live there) for every write of a virtual
    register, and for every parameter at the entry.  The set is the scan's own: read
    it before the next step."""
    params = [p.reg.name for p in fn.params]
    rets = return_names(fn)
    for b in fn.blocks:
        now = {False: set(), True: set()}   # live registers by kind (predicate or not)
        undefined = live.undefined_in[b.label]
        for r in live.live_out[b.label] - undefined_out(b.instrs, undefined):
            now[_is_pred(r)].add(r)
        for ins, ends, reads in steps_back(b.instrs, undefined, rets):
            for d in ins.dsts:
                if d.is_virtual:
                    yield d.name, now[_is_pred(d.name)]
            for r in ends:
                now[_is_pred(r)].discard(r)
            for r in reads:
                now[_is_pred(r)].add(r)
        if b.label == fn.blocks[0].label:
            for p in params:
                yield p, now[_is_pred(p)]


def _is_pred(name: str) -> bool:
    return name.startswith(("%p", "P"))


def _connect(graph: dict[str, set[str]], d: str, others: set[str]) -> None:
    """d interferes with every register in others (all of its kind)."""
    graph.setdefault(d, set())
    graph[d] |= others
    graph[d].discard(d)
    for o in others:
        if o != d:
            neighbours = graph.get(o)
            if neighbours is None:
                neighbours = graph[o] = set()
            neighbours.add(d)


@dataclass
class Allocation:
    mapping: dict[Reg, Reg]
    registers: int
    predicates: int


def allocate(fn: Function, live: Liveness) -> Allocation:
    """Greedy colouring, the registers with the most neighbours first (ties: by kind
    and name); each takes the lowest register (an aligned pair for %rd, quad for %rq) its coloured
    neighbours leave free."""
    graph = interference_by_name(fn, live, DENSE_EDGES)
    slots = _colour(graph) if graph is not None else _colour_dense(fn, live)
    regs = [s + Reg(r).span for r, s in slots.items() if not _is_pred(r)]
    preds = [s + 1 for r, s in slots.items() if _is_pred(r)]
    mapping = {Reg(r): Reg(f"P{s}") if _is_pred(r) else Reg(f"R{s}") for r, s in slots.items()}
    return Allocation(mapping, max(regs, default=0), max(preds, default=0))


def _colour(graph: dict[str, set[str]]) -> dict[str, int]:
    order = sorted(graph, key=lambda r: (-len(graph[r]), _is_pred(r), r))
    slots: dict[str, int] = {}
    high: dict[str, range] = {}   # a pair's or quad's further registers
    for r in order:
        neighbours = graph[r]
        taken = set(map(slots.get, neighbours)).union(*(high.get(n, ()) for n in neighbours))
        taken.discard(None)
        span = Reg(r).span
        slot = _lowest_free(taken, span)
        slots[r] = slot
        if span > 1:
            high[r] = range(slot + 1, slot + span)
    return slots


def _colour_dense(fn: Function, live: Liveness) -> dict[str, int]:
    """`_colour` on the interference graph as bit rows (passes/bitgraph.py): the same
    graph, order and choices, in numpy steps instead of a Python step per edge."""
    names, rows, nodes = _directed_rows(fn, live)
    graph = BitGraph.from_directed(rows)
    order = sorted(nodes, key=lambda i: (-graph.degree(i), _is_pred(names[i]), names[i]))
    slot_of = np.full(len(names), -1, dtype=np.int64)
    high_of = np.full((3, len(names)), -1, dtype=np.int64)   # a pair's or quad's further registers
    for i in order:
        neighbours = graph.neighbours(i)
        taken = np.concatenate((slot_of[neighbours], high_of[:, neighbours].ravel()))
        taken = taken[taken >= 0]
        marked = np.zeros(4 * len(taken) + 8, dtype=bool)
        marked[taken[taken < len(marked)]] = True
        span = Reg(names[i]).span
        if span > 1:
            free = ~marked[0::span]
            for k in range(1, span):
                free &= ~marked[k::span]
            slot = span * int(np.argmax(free))
            high_of[:span - 1, i] = np.arange(slot + 1, slot + span)
        else:
            slot = int(np.argmin(marked))
        slot_of[i] = slot
    return {names[i]: int(slot_of[i]) for i in order}


def _directed_rows(fn: Function, live: Liveness) -> tuple[list[str], list[int], list[int]]:
    """(register names, row i: the registers of its kind live where i is written (bit j
    for names[j]), the nodes of the graph): what `interference_by_name` builds, as bits."""
    index: dict[str, int] = {}
    names: list[str] = []
    rows: list[int] = []

    def bit(name: str) -> int:
        if name not in index:
            index[name] = len(names)
            names.append(name)
            rows.append(0)
        return 1 << index[name]

    params = [p.reg.name for p in fn.params]
    rets = return_names(fn)
    nodes = 0
    for p in params:
        mine = bit(p)
        for q in params:
            if _is_pred(q) == _is_pred(p):
                rows[index[p]] |= bit(q) & ~mine
        nodes |= mine
    for b in fn.blocks:
        now = {False: 0, True: 0}
        undefined = live.undefined_in[b.label]
        for r in live.live_out[b.label] - undefined_out(b.instrs, undefined):
            now[_is_pred(r)] |= bit(r)
        for ins, ends, reads in steps_back(b.instrs, undefined, rets):
            for d in ins.dsts:
                if d.is_virtual:
                    mine = bit(d.name)
                    edges = now[d.is_pred] & ~mine
                    rows[index[d.name]] |= edges
                    nodes |= mine | edges
            for r in ends:
                now[_is_pred(r)] &= ~bit(r)
            for r in reads:
                now[_is_pred(r)] |= bit(r)
        if b.label == fn.blocks[0].label:
            for p in params:
                edges = now[_is_pred(p)] & ~bit(p)
                rows[index[p]] |= edges
                nodes |= edges
    return names, rows, [i for i in range(len(names)) if nodes >> i & 1]


def _lowest_free(taken: set[int], span: int) -> int:
    """The lowest register not taken, or the lowest multiple of `span` (2: a pair, 4: a
    quad) free with the registers after it."""
    if span == 1:
        return min(set(range(len(taken) + 1)) - taken)
    return min(set(range(0, span * len(taken) + span, span)) - {t - k for t in taken for k in range(span)})


def _sub(o, by_name: dict[str, Reg]):
    if isinstance(o, Reg):
        return by_name.get(o.name, o)
    if isinstance(o, Mem) and isinstance(o.base, Reg):
        return replace(o, base=by_name.get(o.base.name, o.base))
    return o


def _allocated(ins: Instr, by_name: dict[str, Reg]) -> Instr:
    """ins on its physical registers; a 64-bit MOV or SEL spells its width (a physical
    register does not say it)."""
    mods = ins.mods
    if ins.op in ("MOV", "SEL") and ins.dsts and ins.dsts[0].is_wide and "64" not in mods:
        mods = mods + ("64",)
    return Instr(ins.op, mods, tuple(_sub(d, by_name) for d in ins.dsts), tuple(_sub(s, by_name) for s in ins.srcs),
                 _sub(ins.guard, by_name) if ins.guard is not None else None, ins.guard_neg, ins.loc)


@dataclass(frozen=True)
class RegisterAllocation:
    name: str = "regalloc"

    def run(self, fn: Function, analyses) -> bool:
        alloc = allocate(fn, analyses.get("liveness"))
        m = alloc.mapping
        by_name = {r.name: p for r, p in m.items()}
        fn.ret_wide = bool(fn.rets) and fn.rets[0].is_wide  # R0 alone does not say it holds a pair
        for b in fn.blocks:
            b.instrs = [_allocated(i, by_name) for i in b.instrs]
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
    return ResourceUsage(fn.name, fn.kind, arch, ptxas_registers(fn.registers), fn.shared_bytes, fn.local_bytes, 0, 0,
                         cmem, fn.dynamic_shared)
