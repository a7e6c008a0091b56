"""Control-flow graph of an IR function, as a networkx DiGraph over block labels.

A block ends in an unconditional BRA (one successor), a guarded BRA (its target
and the next block, or the BRA after it), another terminator of the ISA table
(EXIT, RET, TRAP: the virtual exit), or nothing (it falls through to the next
block).  Every path ends at the one virtual exit node `EXIT`, which makes
post-dominance well defined.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from minicuda.ir import Block, Function

EXIT = "EXIT"


@dataclass
class CFG:
    graph: nx.DiGraph
    entry: str
    order: list[str]          # block labels in layout order

    def succs(self, label: str) -> list[str]:
        return list(self.graph.successors(label))

    def preds(self, label: str) -> list[str]:
        return list(self.graph.predecessors(label))

    def reachable(self) -> set[str]:
        return nx.descendants(self.graph, self.entry) | {self.entry}


def successors(fn: Function, index: int) -> list[str]:
    """Successor labels of fn.blocks[index], in the order: taken target first."""
    block = fn.blocks[index]
    fallthrough = fn.blocks[index + 1].label if index + 1 < len(fn.blocks) else EXIT
    out: list[str] = []
    for ins in block.instrs:
        if ins.op == "BRA":
            out.append(ins.target)
            if ins.guard is None:
                return _unique(out)
        elif ins.info.terminator and ins.guard is None:
            return _unique(out + [EXIT])
        elif ins.info.terminator:
            out.append(EXIT)
    out.append(fallthrough)
    return _unique(out)


def _unique(labels: list[str]) -> list[str]:
    seen: list[str] = []
    for label in labels:
        if label not in seen:
            seen.append(label)
    return seen


def build_cfg(fn: Function, analyses=None) -> CFG:
    g = nx.DiGraph()
    g.add_node(EXIT)
    for i, b in enumerate(fn.blocks):
        g.add_node(b.label)
        for s in successors(fn, i):
            g.add_edge(b.label, s)
    return CFG(g, fn.blocks[0].label, [b.label for b in fn.blocks])


def conditional_branch(block: Block):
    """The block's guarded BRA (its conditional branch), or None."""
    for ins in block.instrs:
        if ins.op == "BRA" and ins.guard is not None:
            return ins
    return None
