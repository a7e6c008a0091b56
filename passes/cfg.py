"""Control-flow graph of an IR function: successor and predecessor lists over block
labels, and the same graph as a networkx DiGraph on request (tests compare the graph
algorithms here with networkx's; a compile never loads it).

A block ends in an unconditional BRA (one successor), a guarded BRA (its target
and the next block, or the BRA after it), another terminator of the ISA table
(EXIT, RET, TRAP: the virtual exit), or nothing (it falls through to the next
block).  Every path ends at the one virtual exit node `EXIT`, which makes
post-dominance well defined.
"""
from __future__ import annotations

from minicuda.ir import Block, Function
from minicuda.isa import OPS

EXIT = "EXIT"


class CFG:
    """The graph as successor and predecessor lists (both in layout order); `graph`,
    the networkx DiGraph of the same nodes and edges, is built on first use."""

    def __init__(self, succ: dict[str, list[str]], entry: str, order: list[str]):
        self.succ = succ
        self.entry = entry
        self.order = order            # block labels in layout order
        self.pred: dict[str, list[str]] = {EXIT: []}
        for label in order:
            self.pred.setdefault(label, [])
        for label in order:
            for s in succ[label]:
                self.pred.setdefault(s, []).append(label)
        self._graph = None

    @property
    def graph(self) -> nx.DiGraph:
        if self._graph is None:
            import networkx as nx   # an optional extra: only tests ask for it

            g = nx.DiGraph()
            g.add_node(EXIT)
            for label in self.order:
                g.add_node(label)
                for s in self.succ[label]:
                    g.add_edge(label, s)
            self._graph = g
        return self._graph

    def succs(self, label: str) -> list[str]:
        return list(self.succ.get(label, ()))

    def preds(self, label: str) -> list[str]:
        return list(self.pred[label])

    def nodes(self) -> list[str]:
        """Every node: EXIT, the blocks, then any label only named as a successor."""
        return list(self.pred)

    def reachable(self) -> set[str]:
        seen = {self.entry}
        stack = [self.entry]
        while stack:
            for s in self.succ.get(stack.pop(), ()):
                if s not in seen:
                    seen.add(s)
                    stack.append(s)
        return seen


def postorder(start: str, edges) -> list[str]:
    """The nodes reachable from start along `edges` (node -> list), each after every node
    a depth-first walk reaches from it first (walked on an explicit stack)."""
    order: list[str] = []
    seen = {start}
    stack = [(start, iter(edges(start)))]
    while stack:
        node, rest = stack[-1]
        for nxt in rest:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(edges(nxt))))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def immediate_dominators(start: str, succs, preds) -> dict[str, str]:
    """Each node reachable from start along `succs` -> its immediate dominator (start ->
    start), by Cooper, Harvey and Kennedy's iteration over the reverse postorder; `preds`
    gives the edges into a node.  Forward edges give dominators (passes/gvn.py), the
    reversed ones from EXIT post-dominators (passes/postdom.py)."""
    order = postorder(start, succs)
    rank = {node: i for i, node in enumerate(order)}
    idom = {start: start}

    def meet(a: str, b: str) -> str:
        while a != b:
            while rank[a] < rank[b]:
                a = idom[a]
            while rank[b] < rank[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in reversed(order[:-1]):
            new = None
            for p in preds(node):
                if p in idom:
                    new = p if new is None else meet(p, new)
            if idom.get(node) != new:
                idom[node] = new
                changed = True
    return idom


def strongly_connected(cfg: CFG) -> dict[str, set[str]]:
    """Each node's strongly connected component (Kosaraju: finishing order on the graph,
    then walks on the reversed one)."""
    finished: list[str] = []
    seen: set[str] = set()
    for node in cfg.nodes():
        if node not in seen:
            walk = postorder(node, lambda n: [s for s in cfg.succ.get(n, ()) if s not in seen])
            seen.update(walk)
            finished += walk
    component_of: dict[str, set[str]] = {}
    for node in reversed(finished):
        if node not in component_of:
            component = set(postorder(node, lambda n: [p for p in cfg.pred.get(n, ()) if p not in component_of]))
            for member in component:
                component_of[member] = component
    return component_of


def successors(fn: Function, index: int) -> list[str]:
    """Successor labels of fn.blocks[index], in the order: taken target first."""
    blocks = fn.blocks
    out: list[str] = []
    for ins in blocks[index].instrs:
        op = ins.op
        if op == "BRA":
            target = ins.srcs[0].name
            if target not in out:
                out.append(target)
            if ins.guard is None:
                return out
        elif op in _TERMINATORS:
            if EXIT not in out:
                out.append(EXIT)
            if ins.guard is None:
                return out
    fallthrough = blocks[index + 1].label if index + 1 < len(blocks) else EXIT
    if fallthrough not in out:
        out.append(fallthrough)
    return out


_TERMINATORS = frozenset(op for op, row in OPS.items() if row.terminator)


def build_cfg(fn: Function, analyses=None) -> CFG:
    succ = {b.label: successors(fn, i) for i, b in enumerate(fn.blocks)}
    return CFG(succ, fn.blocks[0].label, [b.label for b in fn.blocks])


def conditional_branch(block: Block):
    """The block's guarded BRA (its conditional branch), or None."""
    for ins in block.instrs:
        if ins.op == "BRA" and ins.guard is not None:
            return ins
    return None
