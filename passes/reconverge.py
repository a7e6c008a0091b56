"""Reconvergence markers at every branch that may still diverge.

Stack architectures (sm_2x..sm_6x): `SSY .Lj` before the branch names the
reconvergence point, the branch's immediate post-dominator, where a `SYNC` opens
the join block.  Volta and newer: `BSSY Bn, .Lj` before the branch records the
threads that must meet at `BSYNC Bn`, the first instruction of the join block.
On stack architectures a branch that heads a loop gets its SSY in the loop's
preheader, so it is set once per loop and not once per iteration.  On Volta and
newer a divergent loop exit gets no convergence barrier at -O3 (threads at the same
pc run together again anyway).  At -O0 (`g_shape`), as nvcc -G, a branch inside a
loop whose paths meet again inside it (an if in the loop's body) gets its BSSY/BSYNC;
where they meet at a for loop's increment block that a `continue` jumps to, the BSYNC
has a block of its own before it; an if whose paths meet only after the loop joins in
the iteration, its leaving paths BREAKing the barrier (`_join_in_iteration`); and a loop
whose exit may diverge is wrapped in a barrier of its own (`loop_barriers`).  A thread
that waits there for threads that spin (an intra-warp lock) goes on: the VM releases a
BSYNC whose warp is proven to cycle (vm/interp.py, `proven`).  A branch whose paths only meet at the exit
needs no marker: threads wait for exit there.  The markers follow the scheduling
model the program is compiled for (`Options.stack_arch`: the arch's, or the one
`--sched` forces), and the VM reads the joins back from them (minicuda/ir.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import Block, Function, Instr, Label, Reg
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch, strongly_connected
from minicuda.passes.loops import natural_loops
from minicuda.passes.postdom import ipdom_of


@dataclass(frozen=True)
class Reconverge:
    stack_arch: bool = False
    g_shape: bool = False     # -O0: nvcc -G's markers also for a branch that joins inside its loop
    name: str = "reconverge"

    def run(self, fn: Function, analyses) -> bool:
        branches = [(b, branch) for b in fn.blocks if (branch := conditional_branch(b)) is not None]
        if not branches:
            return False
        cfg, ipdom, divergence = analyses.get("cfg"), analyses.get("ipdom"), analyses.get("divergence")
        cycles = _cycles(cfg)
        loops = _loops(cfg) if self.g_shape and not self.stack_arch else {}
        plans = []
        leaving: dict[int, list[str]] = {}   # a plan -> the blocks where threads leave its barrier
        for b, branch in branches:
            if divergence.branch_is_uniform(b.label):
                continue
            join = ipdom.get(b.label)
            if loops and _in_loop(cfg, cycles, b.label) and (join not in cycles[b.label] or _only_exit(fn.block(join))):
                found = _join_in_iteration(cfg, loops, b.label)
                if found is not None:
                    leaving[len(plans)] = found[1]
                    plans.append((b.label, branch, found[0], b.label))
                continue
            if join is None or join == EXIT or (self.g_shape and _only_exit(fn.block(join))):
                continue
            if not self.stack_arch and _in_loop(cfg, cycles, b.label) and not (self.g_shape and join in cycles[b.label]):
                continue
            where = b.label if self.g_shape and join in cycles[b.label] else self.marker_block(cfg, cycles, b.label)
            plans.append((b.label, branch, join, where))
        split: dict[str, str] = {}   # a latch -> the join block made before it
        retargeted: dict[int, Instr] = {}   # a planned branch -> the one retargeted in its place
        for n, (label, branch, join, where) in enumerate(plans):
            barrier = Reg(f"B{n % 16}")
            for out in leaving.get(n, []):
                fn.block(out).instrs.insert(0, Instr("BREAK", srcs=(barrier,), loc=branch.loc))
            if join in split:
                join = split[join]
            elif self.g_shape and join in fn.continue_targets and _latch(fn, cycles, join):
                join = split[join] = _join_block_before(fn, cfg, label, join, retargeted)
            while id(branch) in retargeted:
                branch = retargeted[id(branch)]
            if self.stack_arch:
                open_, close = Instr("SSY", srcs=(Label(join),), loc=branch.loc), Instr("SYNC", loc=branch.loc)
            else:
                open_ = Instr("BSSY", srcs=(barrier, Label(join)), loc=branch.loc)
                close = Instr("BSYNC", srcs=(barrier,), loc=branch.loc)
            block = fn.block(where)
            at = block.instrs.index(branch) if where == label else _before_jump(block)
            block.instrs.insert(at, open_)
            fn.block(join).instrs.insert(0, close)
        looped = self.g_shape and not self.stack_arch and loop_barriers(fn, divergence, len(plans))
        return bool(plans) or looped

    @staticmethod
    def marker_block(cfg, cycles, label: str) -> str:
        """Where the opening marker goes: the preheader for a loop's branch, else the branch's block."""
        if _loop_header(cfg, cycles, label):
            pre = _preheader(cfg, cycles, label)
            if pre is not None:
                return pre
        return label


def _loops(cfg) -> dict[str, set[str]]:
    """Each natural loop's blocks by its header (the loops of all its back edges together)."""
    loops: dict[str, set[str]] = {}
    for body in natural_loops(cfg):
        headers = [h for h in body if any(p not in body for p in cfg.preds(h))]
        if len(headers) == 1:
            loops.setdefault(headers[0], set()).update(body)
    return loops


def _join_in_iteration(cfg, loops: dict[str, set[str]], branch: str) -> tuple[str, list[str]] | None:
    """nvcc -G's join for a divergent branch in a loop whose paths meet only after the loop (one
    of them may `break` or `return`): where they meet again in the same iteration, the paths
    that leave the loop left out, and the blocks through which they leave, each of which gets a
    `BREAK` (token_scan_break: `if (v == 0) continue;` is `05e0 BSSY B1, 0x760` ... `0750
    BSYNC B1` before the increment, and the `break` after it `0680 @!P0 BREAK B1`).  None when
    a side of the branch always leaves the loop (`if (c) break;` itself: no barrier, as on the
    GPU) or when the paths meet only at the back edge."""
    inner = [body for header, body in loops.items() if branch in body]
    if not inner:
        return None
    body = min(inner, key=len)
    header = next(h for h, b in loops.items() if b is body)
    def succs(label: str) -> list[str]:
        return [s for s in cfg.succs(label) if s in body and s != header]
    ends = {label for label in body if header in cfg.succs(label)}   # the back edges' sources
    stays = set(ends)   # the blocks from which the iteration reaches a back edge
    changed = True
    while changed:
        changed = False
        for label in body:
            if label not in stays and any(s in stays for s in succs(label)):
                stays.add(label)
                changed = True
    if not all(s in stays for s in cfg.succs(branch)):
        return None
    # post-dominators on the iteration's blocks that stay, ending at a virtual end after each back edge
    end = "\0end"
    nodes = stays | {end}
    def post_succs(label: str) -> list[str]:
        return [end] if label == end else [s for s in succs(label) if s in stays] + ([end] if label in ends else [])
    post: dict[str, set[str]] = {n: set(nodes) for n in nodes}
    post[end] = {end}
    changed = True
    while changed:
        changed = False
        for n in stays:
            new = {n} | set.intersection(*[post[s] for s in post_succs(n)])
            if new != post[n]:
                post[n], changed = new, True
    candidates = post[branch] - {branch}
    join = next((c for c in candidates if post[c] == candidates), None)   # the immediate one
    if join is None or join == end:
        return None
    region, todo = {branch}, [branch]   # the blocks between the branch and its join
    while todo:
        for s in cfg.succs(todo.pop()):
            if s != join and s not in region and s in stays:
                region.add(s)
                todo.append(s)
    leaves = sorted({s for r in region for s in cfg.succs(r) if s not in stays and s != EXIT and len(cfg.preds(s)) == 1})
    if any(s not in stays and (s == EXIT or len(cfg.preds(s)) != 1) for r in region for s in cfg.succs(r)):
        return None   # a path leaves straight into a block others reach too: no block of its own for the BREAK
    return join, leaves


def loop_barriers(fn: Function, divergence, first: int) -> bool:
    """nvcc -G's convergence barrier around a loop whose exit may diverge: `BSSY Bn` at the end
    of the loop's preheader (before its BRA), `BSYNC Bn` where the loop's paths meet again, the
    header's first post-dominator outside the loop.  Threads that leave the loop early wait there, so what
    follows the loop runs once per warp (csr_spmv_rows: `0540 BSSY B0, 0xab0`, the header's
    `06d0 @P0 BRA 0xaa0`, `0aa0 BSYNC B0`; gshape/sm_90_G.sass, p_loop_postif: the if after the
    loop one divergent branch per warp).  Where that meeting point is also reached by another
    exit (a `break`), the exit taken by a conditional branch passes through a block of its own,
    `BRA join` (token_scan_break's `0480 @P0 BRA 0x840` / `0840 BRA 0x850` / `0850 BSYNC B0`, the
    break's `06b0 BRA 0x850`); where the loop's one exit is the fall-through of its bottom test
    (a do-while), the BSYNC comes between the back edge and the BRA out (collatz_do_while's
    `09c0 @P0 BRA 0x3b0` / `09d0 BSYNC B0` / `09e0 BRA 0x9f0`), so that BRA runs once per warp.
    The VM lets
    a thread waiting there go on when the threads it waits for spin without end (vm/interp.py,
    `release_bsync`), so an intra-warp lock still completes, as it does on the GPU at -G
    (gshape/warpLock_runs.txt)."""
    cfg = build_cfg(fn)
    ipdom = ipdom_of(cfg)
    loops = _loops(cfg)
    placed = 0
    for header, body in sorted(loops.items(), key=lambda kv: len(kv[1])):
        exits = [(b, s) for b in body for s in cfg.succs(b) if s not in body]
        if not any(not divergence.branch_is_uniform(b) for b, _ in exits if conditional_branch(fn.block(b))):
            continue
        join = header
        while join in body:
            join = ipdom.get(join)
        if join is None or join == EXIT:
            continue
        outside = [p for p in cfg.preds(header) if p not in body]
        if len(outside) != 1 or cfg.succs(outside[0]) != [header]:
            continue
        barrier = Reg(f"B{(first + placed) % 16}")
        placed += 1
        pre = fn.block(outside[0])
        loc = pre.instrs[-1].loc if pre.instrs else None
        pre.instrs.insert(_before_jump(pre), Instr("BSSY", srcs=(barrier, Label(join)), loc=loc))
        close = Instr("BSYNC", srcs=(barrier,), loc=loc)
        edges = [(b, s) for b, s in exits if s == join]
        latch = fn.block(edges[0][0]) if len(edges) == 1 and len(cfg.preds(join)) == 1 else None
        if latch is not None and conditional_branch(latch) is not None and latch.instrs[-1].guard is None \
                and latch.instrs[-1].srcs == (Label(join),):
            out = Block(_fresh_label(fn), [close, latch.instrs.pop()])   # the fall-through of the bottom test
            fn.blocks.insert(fn.blocks.index(latch) + 1, out)
            continue
        if len(cfg.preds(join)) > 1:
            for b, _ in edges:
                if conditional_branch(fn.block(b)) is not None:
                    _split_edge(fn, b, join)
        fn.block(join).instrs.insert(0, close)
    return placed > 0


def _split_edge(fn: Function, source: str, target: str) -> None:
    """The source's branch to `target` goes through a new block, `BRA target`, laid out before it."""
    block, old = fn.block(source), Label(target)
    label = _fresh_label(fn)
    loc = block.instrs[-1].loc if block.instrs else None
    block.instrs = [replace(i, srcs=tuple(Label(label) if o == old else o for o in i.srcs))
                    if i.op == "BRA" and old in i.srcs else i for i in block.instrs]
    fn.blocks.insert(fn.blocks.index(fn.block(target)), Block(label, [Instr("BRA", srcs=(old,), loc=loc)]))


def _latch(fn: Function, cycles, label: str) -> bool:
    """The block ends its loop's iteration: its last instruction jumps back (an unguarded BRA
    to a block of its cycle laid out before it), as a `for`'s increment block does."""
    block = fn.block(label)
    last = block.instrs[-1] if block.instrs else None
    if last is None or last.op != "BRA" or last.guard is not None:
        return False
    target = last.srcs[0].name
    order = {b.label: k for k, b in enumerate(fn.blocks)}
    return target in cycles[label] and order.get(target, len(order)) <= order[label]


def _join_block_before(fn: Function, cfg, branch: str, latch: str, retargeted: dict) -> str:
    """nvcc -G's join of an if whose paths meet at the for loop's increment block that a
    `continue` jumps to (`if (c) continue;`): the BSYNC in a block of its own, ending in a BRA
    to the increment block (loop_continue's SASS: `08a0 BSYNC B0` ... `08d0 BRA 0x8e0`; an
    if-else whose join is a while loop's last block keeps its BSYNC there, while_data_dependent's
    `0cd0 BSYNC B1` ... `0d60 BRA 0x400`).  The branch's paths to
    the latch go there; a `continue` from outside the if still goes to the latch."""
    reached, todo = {branch}, [branch]
    while todo:
        for s in cfg.succs(todo.pop()):
            if s != latch and s not in reached and s in {b.label for b in fn.blocks}:
                reached.add(s)
                todo.append(s)
    label = _fresh_label(fn)
    loc = fn.block(latch).instrs[0].loc if fn.block(latch).instrs else None
    old = Label(latch)
    for b in fn.blocks:
        if b.label in reached:
            for k, i in enumerate(b.instrs):
                if i.op == "BRA" and old in i.srcs:
                    b.instrs[k] = replace(i, srcs=tuple(Label(label) if o == old else o for o in i.srcs))
                    retargeted[id(i)] = b.instrs[k]
    fn.blocks.insert(fn.blocks.index(fn.block(latch)), Block(label, [Instr("BRA", srcs=(old,), loc=loc)]))
    return label


def _fresh_label(fn: Function) -> str:
    labels = {b.label for b in fn.blocks}
    n = 0
    while f".LJ{n}" in labels:
        n += 1
    return f".LJ{n}"


def _only_exit(block) -> bool:
    """The block is a bare EXIT (-O0's one exit block, passes/g_shape.py): as good as the exit."""
    return [(i.op, i.guard) for i in block.instrs] == [("EXIT", None)]


def _before_jump(block) -> int:
    n = len(block.instrs)
    while n and block.instrs[n - 1].op == "BRA":
        n -= 1
    return n


def _cycles(cfg) -> dict[str, set[str]]:
    """Each block's strongly connected component: the blocks it reaches and is reached from."""
    return strongly_connected(cfg)


def _loop_header(cfg, cycles, label: str) -> bool:
    """A predecessor is reachable from the block: it closes a cycle through it."""
    return any(p in cycles[label] for p in cfg.preds(label))


def _in_loop(cfg, cycles, label: str) -> bool:
    """The block lies on a cycle: its branch may be a loop's exit or back edge."""
    return any(s in cycles[label] for s in cfg.succs(label))


def _preheader(cfg, cycles, label: str) -> str | None:
    outside = [p for p in cfg.preds(label) if p not in cycles[label]]
    return outside[0] if len(outside) == 1 and len(cfg.succs(outside[0])) == 1 else None
