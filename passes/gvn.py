"""gvn (global value numbering, the dominator-scoped kind): an unguarded pure
instruction that repeats one in a dominating position is removed, its readers read
the earlier result.

cse reuses a value within a block; gvn across blocks, as LLVM's GVN and EarlyCSE do
before ptxas sees the code: `s[t] = ...; for (...) { if (c) s[t] += ...; }` forms
the address of s[t] once, before the loop, and the arm only uses it, so the arm that
if-conversion counts holds what SASS's holds.

Only registers with one definition take part (their value cannot change between the
two instructions), read through copies (`MOV %r2, %r3` of such registers: %r2 is
%r3).  The earlier instruction must dominate the later one, the definitions of its
sources must dominate it, and the later result's readers must all be dominated by
the later instruction: each of them then reads, on every path, the value the earlier
instruction computed from the same sources.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from minicuda.ir import Function, Instr, Mem, Reg
from minicuda.passes.cfg import immediate_dominators
from minicuda.passes.cse import expression, operand_key
from minicuda.passes.rewrite import CONSTANT_REGS, width_class

# a function of more blocks is left alone, as LLVM's GVN bounds its own searches: on a chain
# of thousands of compares (a 10,000-case switch) the dominator iteration walks the chain
# once per block
MAX_BLOCKS = 2000

Position = tuple[str, int]   # (block label, index in the block); index -1: the function's entry (parameters)


class Dominance:
    """Which reachable block dominates which: the immediate dominators (passes/cfg.py's
    immediate_dominators), and the dominator tree numbered on a walk, so that a dominates b
    when b's interval lies within a's.  Linear in the blocks: a set of dominators per block was quadratic (a
    10,000-case switch needed gigabytes)."""

    def __init__(self, fn: Function, cfg):
        entry = fn.blocks[0].label
        idom = immediate_dominators(entry, lambda n: cfg.succ.get(n, ()), lambda n: cfg.pred.get(n, ()))
        children: dict[str, list[str]] = {}
        for node, parent in idom.items():
            if node != entry:
                children.setdefault(parent, []).append(node)
        self.enter: dict[str, int] = {entry: 0}
        self.leave: dict[str, int] = {}
        clock = 1
        stack = [(entry, iter(children.get(entry, ())))]
        while stack:
            node, rest = stack[-1]
            child = next(rest, None)
            if child is None:
                stack.pop()
                self.leave[node] = clock
            else:
                self.enter[child] = clock
                stack.append((child, iter(children.get(child, ()))))
            clock += 1

    def __contains__(self, label: str) -> bool:
        return label in self.enter

    def dominates(self, a: str, b: str) -> bool:
        return self.enter[a] <= self.enter[b] and self.leave[b] <= self.leave[a]


@dataclass(frozen=True)
class GVN:
    name: str = "gvn"

    def run(self, fn: Function, analyses) -> bool:
        if len(fn.blocks) > MAX_BLOCKS:   # (the dominator iteration's walks grow with the tree's depth)
            return False
        cfg = analyses.get("cfg")
        dom = Dominance(fn, cfg)
        numbering = _Numbering(fn, dom)
        renamed: dict[Reg, Reg] = {}
        available: dict[tuple, tuple[Reg, Position]] = {}
        for block in fn.blocks:
            if block.label not in dom:
                continue
            kept = []
            for i, ins in enumerate(block.instrs):
                here = (block.label, i)
                key = numbering.key(ins, renamed)
                earlier = available.get(key) if key is not None else None
                if earlier is not None and numbering.dominates(earlier[1], here) \
                        and numbering.readers_dominated(ins.dsts[0], here):
                    renamed[ins.dsts[0]] = earlier[0]
                    continue
                if key is not None and key not in available and numbering.sources_dominate(ins, here):
                    available[key] = (ins.dsts[0], here)
                kept.append(ins)
            block.instrs = kept
        if renamed:
            _rename_readers(fn, renamed)
        return bool(renamed)


class _Numbering:
    def __init__(self, fn: Function, dom: Dominance):
        self.fn, self.dom = fn, dom
        self.count: Counter = Counter(p.reg for p in fn.params)
        self.site: dict[Reg, Position] = {p.reg: (fn.blocks[0].label, -1) for p in fn.params}
        self.definition: dict[Reg, Instr] = {}
        self.readers: dict[Reg, list[Position]] = {}
        for block in fn.blocks:
            for i, ins in enumerate(block.instrs):
                for d in ins.dsts:
                    self.count[d] += 1
                    self.site[d], self.definition[d] = (block.label, i), ins
                for r in ins.uses():
                    self.readers.setdefault(r, []).append((block.label, i))
        self.rets = set(fn.rets)

    def single(self, r: Reg) -> bool:
        return r.is_virtual and self.count[r] == 1

    def canonical(self, r: Reg) -> Reg:
        """r, or the register r copies (through copies of single-definition registers)."""
        seen = set()
        while self.single(r) and r not in seen:
            seen.add(r)
            ins = self.definition.get(r)
            if ins is None or ins.op != "MOV" or ins.guard is not None or ins.mods or not isinstance(ins.srcs[0], Reg) \
                    or not self.single(ins.srcs[0]) or width_class(ins.srcs[0]) != width_class(r):
                break
            r = ins.srcs[0]
        return r

    def key(self, ins: Instr, renamed: dict[Reg, Reg]) -> tuple | None:
        if ins.guard is not None or len(ins.dsts) != 1 or not self.single(ins.dsts[0]) or ins.dsts[0] in self.rets:
            return None
        if ins.op == "MOV":   # copies are not computations, and a symbol's address is a constant SASS
            return None       # forms again where it is used (ULEA, an immediate), not one held live in a pair
        return expression(ins, lambda s: self.source_key(s, renamed))

    def source_key(self, s, renamed: dict[Reg, Reg]) -> tuple | None:
        if not isinstance(s, Reg) or s.name in CONSTANT_REGS:
            return operand_key(s)
        while s in renamed:   # an earlier instruction of this run found it repeats one
            s = renamed[s]
        return ("reg", self.canonical(s).name) if self.single(s) else None

    def dominates(self, a: Position, b: Position) -> bool:
        if a[0] == b[0]:
            return a[1] < b[1]
        return b[0] in self.dom and a[0] in self.dom and self.dom.dominates(a[0], b[0])

    def sources_dominate(self, ins: Instr, here: Position) -> bool:
        regs = [s for s in ins.srcs if isinstance(s, Reg) and s.name not in CONSTANT_REGS]
        for r in regs + [self.canonical(r) for r in regs]:
            if r not in self.site or not self.dominates(self.site[r], here):
                return False
        return True

    def readers_dominated(self, r: Reg, here: Position) -> bool:
        return all(self.dominates(here, at) for at in self.readers.get(r, []))


def _rename_readers(fn: Function, renamed: dict[Reg, Reg]) -> None:
    def final(r):
        while r in renamed:
            r = renamed[r]
        return r

    def sub(o):
        if isinstance(o, Reg):
            return final(o)
        if isinstance(o, Mem) and isinstance(o.base, Reg):
            return replace(o, base=final(o.base))
        return o
    for block in fn.blocks:
        block.instrs = [replace(ins, srcs=tuple(sub(s) for s in ins.srcs),
                                guard=final(ins.guard) if ins.guard is not None else None)
                        if any(r in renamed for r in ins.uses()) else ins for ins in block.instrs]
