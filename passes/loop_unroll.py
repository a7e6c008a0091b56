"""loop-unroll: unroll loops at -O3 as nvcc does (LLVM's loop unroller, then ptxas's).

What the GPU's SASS shows (docs/fidelity.md, tests/data/groundtruth/fidelity/sass/):

- A loop whose trip count is a constant is fully unrolled when the copies are few and
  small: at most FULL_MAX_TRIPS iterations and FULL_BUDGET instructions in all (`for (i =
  0; i < 4; i++)`, 32 iterations with a `break`, `while (v != 1 && steps < 40)`, a
  do-while bounded by `steps < 100`): no back edge is left, and the loop's other exits (a
  `break`, a `return`, `x != 1`) stay one branch per copy.  The trip count comes from a
  counter stepped by a constant add, multiply, shift or division (`for (o = 16; o > 0;
  o >>= 1)` and `m /= 2` from 16 run 5 times: ScalarEvolution evaluates the exit test of a
  counter that is not an add recurrence iteration by iteration, up to 100).  The limits are what nvcc 13 (NVVM, then
  ptxas) gave the probe loops of tests/data/groundtruth/fidelity/unroll2 (summary.tsv):
  bounded do-whiles of an 18-instruction body fully unrolled up to 129 trips, not 200; of
  a 26-instruction body up to 64, not 100; a 15-instruction counted body up to 129, not
  256.  (Not modelled: where NVVM partially unrolls a large body first, ptxas keeps the
  loop: const_big_32 and _64 stay loops on the GPU; search_256 is unrolled on the GPU.)
  `#pragma unroll` asks for it up to PRAGMA_FULL_MAX trips whatever the size.
- An innermost counted loop of unknown trip count (`for (i = 0; i < n; i++)`, `n`
  loop-invariant, a constant step, `i += 3` or `x -= 3` too, the test at the top its only
  exit, no call in it; barriers and shuffles do not keep nvcc from it) is unrolled by 4
  with a remainder loop after it (LLVM's runtime unrolling with an epilogue), and, where
  the body is small (PTXAS_AGAIN_MAX) and holds no barrier, ptxas unrolls the by-4 loop
  again by 4: a 16-iteration loop, an 8-iteration and a 4-iteration tail, each behind its
  own test.  In order, with n the trip count and m = n - n % 4:
      if (!(i < bound)) goto done;            // the original test, once
      if ((n - 1) <u 3) goto remainder;       // too few for the unrolled loop
      if (!(m > 0)) goto by4;                 // ptxas's guard (always true here)
      if (!(m > 12)) goto tail8;
      by16: 16 bodies; m -= 16; if (m > 12) goto by16;
      tail8: if (!(m > 4)) goto join;  8 bodies; m -= 8;
      join: if (m == 0) goto remainder;
      by4: 4 bodies; m -= 4; if (m != 0) goto by4;
      remainder: if (n % 4 == 0) goto done;
      rem: 1 body; r -= 1; if (r != 0) goto rem;
  (loop_varying and loop_unknown_uniform: the branches per launch are the GPU's.)
  `#pragma unroll N` unrolls by N the same way without ptxas's second unrolling (LLVM
  marks the loop it unrolled for a pragma `nounroll` for ptxas); `#pragma unroll 1`
  leaves the loop alone.  A constant-trip loop under `#pragma unroll N` is unrolled
  by N the same way.  When no value the loop carries starts as a constant (`while (x > 0)
  x -= 3;` with x loaded; LLVM's isEpilogProfitable), the remainder loop comes first:
      if (n % 4 == 0) goto main;  rem: 1 body; r -= 1; if (r != 0) goto rem;
      main: if ((n - 1) <u 3) goto done;  by4: 4 bodies; m -= 4; if (m != 0) goto by4;
  and ptxas leaves the by-4 loop alone (unroll2's while_sub3).

The IR is not SSA, so a copy of the loop's body is its blocks under new labels: every
copy steps the counter itself, and the tests around the copies read only the new
counters (trip count, m, remainder).  Every loop gets one record in the predication
report's loop section (`BranchDecision.loop`, `unrolled`); what was not unrolled says
why.  Nothing here runs at -O0 (nvcc -G unrolls nothing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from minicuda.ir import BranchDecision, Function, Imm, Instr, Label, Reg
from minicuda.passes.cfg import EXIT, conditional_branch
from minicuda.passes.loops import INVERSE, MAX_TRIPS, STEP_OPS, last_def, simulated_trips, instructions, natural_loops, \
    step_kind, stepped

FULL_BUDGET = 2400         # trips x body instructions up to which a constant loop is fully unrolled
FULL_MAX_TRIPS = 256       # ... and trips up to which (without #pragma unroll); see the docstring
PRAGMA_FULL_MAX = 1024     # #pragma unroll: trips up to which it is honoured
RUNTIME_FACTOR = 4         # LLVM's unroll count for an unknown trip count
PTXAS_AGAIN_MAX = 16       # body instructions up to which ptxas unrolls LLVM's by-4 loop by 4 again
_BLOCKERS = {"sync", "warp", "call", "marker"}      # what rotation leaves in place
_RUNTIME_BLOCKERS = {"call", "marker"}              # what keeps a loop from being unrolled by a factor


@dataclass
class Loop:
    body: set[str]
    header: str
    latch: str
    preheader: str
    key: tuple            # the back edge's source location: the loop's name in the function
    bottom: bool = False  # the back edge is the latch's conditional branch (a do-while)


@dataclass
class Count:
    """The counted test of a loop: `counter CMP bound` (the comparison that keeps it going)."""
    block: str            # the block ending in the test's branch
    branch: Instr
    counter: Reg
    bound: object         # Reg or Imm
    cmp: str
    unsigned: bool
    step: int
    step_first: bool      # the step runs before the test in an iteration
    step_op: str = "add"  # how the counter steps: add, sub, mul, shl, shr, div (loops.STEP_OPS)


def pragma_of(fn: Function, loop: Loop, cfg=None) -> str | None:
    """The loop's `#pragma unroll`: keyed by its back edge, or for a do-while by its
    condition's start (the first of its exit tests when the condition is `a && b`)."""
    if loop.key in fn.loop_pragmas or not loop.bottom or cfg is None:
        return fn.loop_pragmas.get(loop.key)
    for label in loop.body:
        branch = conditional_branch(fn.block(label))
        if branch is not None and branch.loc and any(s not in loop.body for s in cfg.succs(label)):
            text = fn.loop_pragmas.get((branch.loc.file, branch.loc.line, branch.loc.col))
            if text is not None:
                return text
    return None


def unroll_request(text: str | None) -> int | None:
    """#pragma unroll -> 0 (full), unroll N -> N, none -> None."""
    if text is None:
        return None
    m = re.fullmatch(r"unroll\s*\(?\s*(\d*)\s*\)?", text.strip())
    if m is None:
        return None
    return int(m.group(1)) if m.group(1) else 0


@dataclass(frozen=True)
class LoopUnroll:
    name: str = "loop-unroll"

    def run(self, fn: Function, analyses) -> bool:
        if fn.kind == "host":   # nvcc's unrolling is device code's (host code is the host compiler's)
            return False
        done: set[tuple] = {(d.file, d.line, d.column) for d in fn.branch_decisions if d.loop}
        changed, records = False, []
        while True:
            cfg = analyses.get("cfg")
            loop = next((l for l in _loops(fn, cfg) if _exit_key(fn, cfg, l) not in done and l.key not in done),
                        None)   # (a rotated loop's back edge is its old exit test: done)
            if loop is None:
                fn.branch_decisions = fn.branch_decisions + sorted(records, key=lambda d: (d.file, d.line, d.column))
                return changed
            key = _exit_key(fn, cfg, loop)
            done.add(key)
            record, did = self.unroll(fn, cfg, analyses, loop)
            records.append(record)
            if did:
                analyses.invalidate()
                changed = True

    def unroll(self, fn: Function, cfg, analyses, loop: Loop):
        uniform, where = _exit_uniform(fn, cfg, analyses, loop), _exit_key(fn, cfg, loop)
        size = sum(len(fn.block(b).instrs) for b in loop.body)
        request = unroll_request(pragma_of(fn, loop, cfg))
        count = counted_test(fn, cfg, loop)
        trips = _trips(fn, cfg, loop, count) if count else None
        runs = trips + 1 if trips is not None and loop.bottom else trips   # (a do-while's body runs once more)
        note = lambda text, how="": _record(fn, where or loop.key, uniform, size, runs, text, how)
        if request == 1:
            return note("not unrolled: #pragma unroll 1"), rotate(fn, cfg, loop, _header_trips(loop, count, trips))
        blocker = _blocker(fn, loop)
        if trips is not None and (request == 0 and trips <= PRAGMA_FULL_MAX or request is None
                                  and runs <= FULL_MAX_TRIPS and runs * size <= FULL_BUDGET):
            full_unroll(fn, cfg, loop, count, trips)
            return note("fully unrolled", how="full"), True
        if trips is not None and request is None:
            return (note(f"not unrolled: {runs} x {instructions(size)} is over the full-unroll budget"),
                    rotate(fn, cfg, loop, _header_trips(loop, count, trips)))
        hoisted = count is not None and count.block == loop.header and not loop.bottom and _hoist_invariants(fn, loop)
        if hoisted:   # what is left in the loop is what ptxas weighs
            size = sum(len(fn.block(b).instrs) for b in loop.body)
        why = blocker or _runtime_shape(fn, cfg, loop, count)
        if why:
            return note(f"not unrolled: {why}"), rotate(fn, analyses.get("cfg") if hoisted else cfg, loop, _header_trips(loop, count, trips)) \
                or hoisted
        factor = request if request and request > 1 else RUNTIME_FACTOR
        prolog = not _starts_constant(fn, cfg, loop)
        again = not request and not prolog and size <= PTXAS_AGAIN_MAX and not _has_kind(fn, loop, {"sync"})
        runtime_unroll(fn, cfg, loop, count, factor, ptxas_again=again, prolog=prolog)
        return note(f"unrolled by {factor} with a remainder loop", how=str(factor)), True


# ---- finding loops and their counts --------------------------------------------------------
def _loops(fn: Function, cfg) -> list[Loop]:
    """The natural loops with one latch and one preheader, innermost first: the latch ends in
    `BRA header`, or (a do-while, tested at its bottom) in a conditional branch whose other
    way leaves the loop."""
    found = []
    for body in natural_loops(cfg):
        headers = [b for b in body if any(p not in body for p in cfg.preds(b)) or b == cfg.entry]
        if len(headers) != 1:
            continue
        header = headers[0]
        latches = [p for p in cfg.preds(header) if p in body]
        outside = [p for p in cfg.preds(header) if p not in body]
        if len(latches) != 1 or len(outside) != 1 or cfg.succs(outside[0]) != [header]:
            continue
        last = fn.block(latches[0]).instrs[-1] if fn.block(latches[0]).instrs else None
        if last is not None and last.op == "BRA" and last.guard is None and last.target == header:
            loc, bottom = last.loc, False
        else:
            branch = conditional_branch(fn.block(latches[0]))
            succs = cfg.succs(latches[0])
            if branch is None or len(succs) != 2 or header not in succs or all(s in body for s in succs):
                continue
            loc, bottom = branch.loc, True
        found.append(Loop(body, header, latches[0], outside[0], (loc.file, loc.line, loc.col) if loc else None,
                          bottom))
    return found


def _exit_key(fn: Function, cfg, loop: Loop) -> tuple:
    """The loop's name in the report: its first exit branch's location (or its back edge's)."""
    for label in cfg.order:
        if label in loop.body and any(s not in loop.body for s in cfg.succs(label)):
            branch = conditional_branch(fn.block(label))
            if branch is not None and branch.loc:
                return (branch.loc.file, branch.loc.line, branch.loc.col)
    return loop.key


def _exit_uniform(fn: Function, cfg, analyses, loop: Loop) -> bool:
    heads = [b for b in cfg.order if b in loop.body and conditional_branch(fn.block(b)) is not None
             and any(s not in loop.body for s in cfg.succs(b))]
    if not heads:
        return True
    divergence = analyses.get("divergence")
    return all(divergence.branch_is_uniform(h) for h in heads)


def _blocker(fn: Function, loop: Loop) -> str | None:
    """Why the loop is not unrolled by a factor for what it holds: a call (or a marker).
    Barriers and warp shuffles are no reason: nvcc unrolls a loop of unknown trip count
    holding `__syncthreads()` or `__shfl_down_sync` by 4 with a remainder loop
    (tests/data/groundtruth/fidelity/unroll2: for_unknown_syncthreads, for_unknown_shfl)."""
    for label in loop.body:
        for ins in fn.block(label).instrs:
            if ins.info.kind in _RUNTIME_BLOCKERS:
                return f"{ins.opcode} in its body (a call)"
    return None


def _starts_constant(fn: Function, cfg, loop: Loop) -> bool:
    """Some value the loop carries starts as a constant: LLVM's isEpilogProfitable (a header
    phi whose value from the preheader is a constant), which puts the remainder loop after
    the unrolled one; otherwise (`while (x > 0) x -= 3;`, x loaded) it goes first."""
    carried = {r for b in loop.body for i in fn.block(b).instrs for r in i.dsts} & \
              {r for b in loop.body for i in fn.block(b).instrs for r in i.uses()}
    for reg in carried:
        label, start = loop.preheader, None
        while start is None:
            start = last_def(fn.block(label).instrs, reg)
            preds = cfg.preds(label)
            if start is not None or len(preds) != 1:
                break
            label = preds[0]
        if start is not None and start.op == "MOV" and isinstance(start.srcs[0], Imm) and start.guard is None:
            return True
    return False


def _has_kind(fn: Function, loop: Loop, kinds: set[str]) -> bool:
    return any(ins.info.kind in kinds for label in loop.body for ins in fn.block(label).instrs)


def _dominates_latch(cfg, loop: Loop, block: str) -> bool:
    """Every iteration runs `block`: the latch is not reached from the header around it."""
    if block == loop.header:
        return True
    seen, todo = {loop.header}, [loop.header]
    while todo:
        for s in cfg.succs(todo.pop()):
            if s == block:
                continue
            if s == loop.latch:
                return False
            if s in loop.body and s not in seen:
                seen.add(s)
                todo.append(s)
    return True


def _reaches_in_iteration(cfg, loop: Loop, start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        label = todo.pop()
        if label == goal:
            return True
        for s in cfg.succs(label):
            if s in loop.body and s != loop.header and s not in seen:
                seen.add(s)
                todo.append(s)
    return False


def counted_test(fn: Function, cfg, loop: Loop) -> Count | None:
    """The exit test `counter CMP bound` of a counter stepped by a constant once per iteration."""
    for label in [b for b in cfg.order if b in loop.body]:
        branch = conditional_branch(fn.block(label))
        if branch is None or not any(s not in loop.body for s in cfg.succs(label)):
            continue
        if not _dominates_latch(cfg, loop, label):
            continue
        instrs = fn.block(label).instrs
        test = last_def(instrs[:instrs.index(branch)], branch.guard)
        if test is None or test.op != "ISETP" or len(test.srcs) != 2 or not isinstance(test.srcs[0], Reg):
            continue
        cmp = next((m for m in test.mods if m in INVERSE), None)
        counter, step = test.srcs[0], _step(fn, cfg, loop, test.srcs[0])
        stepped_value = step is None and _stepped_copy(fn, loop, counter)
        if stepped_value:             # the test reads the new value `t = i + 1` that `i = t` copies
            counter, step = stepped_value, _step(fn, cfg, loop, stepped_value)
        if cmp is None or step is None:
            continue
        in_loop = branch.target in loop.body
        if branch.guard_neg == in_loop:      # the loop goes on while the comparison is false
            cmp = INVERSE[cmp]
        step_block, op, value = step
        first = bool(stepped_value) or step_block != label and _reaches_in_iteration(cfg, loop, step_block, label)
        return Count(label, branch, counter, test.srcs[1], cmp, any(m.startswith("U") for m in test.mods),
                     value, first, op)
    return None


def _stepped_copy(fn: Function, loop: Loop, value: Reg) -> Reg | None:
    """The counter i when `value` is its next value: `value = i OP c` and `i = value` the only
    writes of both in the loop (the form copy propagation leaves a do-while's `i++` test in)."""
    defs = [i for b in loop.body for i in fn.block(b).instrs if value in i.dsts]
    if len(defs) != 1 or defs[0].op not in STEP_OPS or not isinstance(defs[0].srcs[0], Reg):
        return None
    counter = defs[0].srcs[0]
    copies = [i for b in loop.body for i in fn.block(b).instrs if counter in i.dsts]
    ok = len(copies) == 1 and copies[0].op == "MOV" and copies[0].srcs == (value,) and copies[0].guard is None
    return counter if ok else None


def _step(fn: Function, cfg, loop: Loop, counter: Reg):
    """(block, op, constant) of the counter's one step `counter = counter OP c` (or through a
    MOV): an add or subtract (SCEV's add recurrence), a multiply, a shift or a division (whose
    trip count ScalarEvolution evaluates exhaustively, constant-folding the step:
    `for (o = 16; o > 0; o >>= 1)` and `for (m = 16; m > 0; m /= 2)` run 5 times)."""
    defs = [(b, i) for b in loop.body for i in fn.block(b).instrs if counter in i.dsts]
    if len(defs) == 1 and defs[0][1].op == "MOV" and isinstance(defs[0][1].srcs[0], Reg) and defs[0][1].guard is None:
        block, mov = defs[0]
        inner = [(b, i) for b in loop.body for i in fn.block(b).instrs if mov.srcs[0] in i.dsts]
        if len(inner) != 1 or inner[0][0] != block:
            return None
        defs = [(block, inner[0][1])]
    if len(defs) != 1:
        return None
    block, ins = defs[0]
    ok = ins.op in STEP_OPS and ins.guard is None and len(ins.srcs) == 2 and ins.srcs[0] == counter \
        and isinstance(ins.srcs[1], Imm) and _dominates_latch(cfg, loop, block) \
        and (ins.op != "IDIV" or ins.srcs[1].value != 0)
    if not ok:
        return None
    op = step_kind(ins)                  # SHR.U32 a logical shift, IDIV.U32 an unsigned division
    if op == "sub":
        return block, "add", -ins.srcs[1].value
    return block, op, ins.srcs[1].value


def _trips(fn: Function, cfg, loop: Loop, count: Count) -> int | None:
    """How many times the counted test lets the loop go on (a constant start and bound), else None."""
    if not isinstance(count.bound, Imm):
        return None
    label, start = loop.preheader, None
    while start is None:
        start = last_def(fn.block(label).instrs, count.counter)
        preds = cfg.preds(label)
        if start is None and len(preds) != 1:
            return None
        label = preds[0] if preds else label
    if start.op != "MOV" or not isinstance(start.srcs[0], Imm) or start.guard is not None:
        return None
    first = start.srcs[0].value
    if count.step_first:
        first = stepped(first, count.step_op, count.step, count.unsigned)
    trips = simulated_trips(first, count.step, count.cmp, count.bound.value, count.unsigned, count.step_op)
    return trips if trips is not None and trips <= MAX_TRIPS else None


def _record(fn, where, uniform, size, trips, text, how) -> BranchDecision:
    file, line, col = where or ("<unknown>", 0, 0)
    count = "trip count unknown" if trips is None else f"trip count {trips}"
    return BranchDecision(file, line, fn.name, uniform, size, 0, False, f"{text} ({count})", col,
                          loop=True, trip_count=trips, unrolled=how)


def _runtime_shape(fn: Function, cfg, loop: Loop, count: Count | None) -> str | None:
    """Why the loop cannot be unrolled by a factor (None: it can)."""
    if count is None:
        return "no counter stepped by a constant is tested on every iteration"
    if loop.bottom:
        return "its test is at its bottom (a do-while: not unrolled by a factor yet)"
    exits = [b for b in loop.body if any(s not in loop.body for s in cfg.succs(b))]
    if exits != [loop.header] or count.block != loop.header:
        return "its exit is not only the test at its top"
    if any(other < loop.body for other in (l.body for l in _loops(fn, cfg))):
        return "it holds another loop"
    if count.step_op != "add":
        return f"its counter steps by a {count.step_op} (the trip count is not an add recurrence's)"
    allowed = ("LT", "LE") if count.step > 0 else ("GT", "GE")
    if count.step == 0 or count.cmp not in allowed + (("NE",) if abs(count.step) == 1 else ()):
        return f"its counter steps by {count.step} (tested with {count.cmp})"
    head = fn.block(loop.header).instrs
    if len(head) != 2 or head[0].dsts != (count.branch.guard,) or head[1] is not count.branch:
        return "its test computes more than one comparison"
    if isinstance(count.bound, Reg) and any(count.bound in i.dsts for b in loop.body for i in fn.block(b).instrs):
        return "its bound changes in the loop"
    readers = [i for b in fn.blocks for i in b.instrs if count.branch.guard in i.uses() and i is not count.branch]
    if readers:
        return "its test's predicate is read elsewhere"
    return None


def _hoist_invariants(fn: Function, loop: Loop) -> bool:
    """Move the header's pure instructions of loop-invariant sources (the bound's
    computation, `t % 32`) to the preheader: the header runs at least once, so they run anyway.
    A load of a loop-invariant address moves too when nothing in the loop writes memory or
    waits at a barrier (LLVM's LICM: `k < rowptr[row + 1]` of a CSR row reads its bound once,
    which makes the trip count computable)."""
    header, pre = fn.block(loop.header), fn.block(loop.preheader)
    defined = lambda reg: sum(reg in i.dsts for b in loop.body for i in fn.block(b).instrs)
    loads_stay = any(i.info.store or i.info.kind in ("sync", "call", "atomic")
                     for b in loop.body for i in fn.block(b).instrs)
    moved, any_moved = True, False
    while moved:
        moved = False
        for ins in header.instrs:
            if ins.op == "ISETP" or ins.is_branch:
                break
            computes = ins.info.interp == "pure" and not ins.info.side_effects or ins.info.interp == "load" \
                and ins.op != "LDC" and not loads_stay
            pure = computes and ins.guard is None and len(ins.dsts) == 1
            read_before = any(ins.dsts[0] in j.uses() for j in header.instrs[:header.instrs.index(ins)])
            if pure and not read_before and defined(ins.dsts[0]) == 1 and not any(
                    isinstance(s, Reg) and defined(s) for s in ins.srcs):
                header.instrs.remove(ins)
                at = len(pre.instrs) - (1 if pre.instrs and pre.instrs[-1].op == "BRA" else 0)
                pre.instrs.insert(at, ins)
                moved = any_moved = True
                break
    return any_moved


# ---- rewriting ----------------------------------------------------------------------------
class _Names:
    """Fresh labels and virtual registers for the function."""

    def __init__(self, fn: Function):
        text = " ".join([b.label for b in fn.blocks] + [str(r) for i in fn.instructions() for r in (*i.dsts, *i.srcs)])
        self.next = {k: 1 + max((int(n) for n in re.findall(rf"%{k}(\d+)\b", text)), default=-1) for k in ("r", "p")}
        self.label_n = 1 + max((int(n) for n in re.findall(r"\.LU(\d+)\b", text)), default=-1)

    def reg(self, kind: str) -> Reg:
        self.next[kind] += 1
        return Reg(f"%{kind}{self.next[kind] - 1}")

    def label(self) -> str:
        self.label_n += 1
        return f".LU{self.label_n - 1}"


def _explicit(fn: Function, cfg, labels) -> None:
    """Give every block of `labels` a closing jump where it falls through, so copies can move."""
    order = [b.label for b in fn.blocks]
    for label in labels:
        block = fn.block(label)
        last = block.instrs[-1] if block.instrs else None
        if last is None or not last.info.terminator or last.guard is not None:
            nxt = order[order.index(label) + 1]
            block.instrs.append(Instr("BRA", srcs=(Label(nxt),), loc=last.loc if last else None))


def _retarget(ins: Instr, mapping: dict[str, str]) -> Instr:
    if ins.is_branch and ins.target in mapping:
        return replace(ins, srcs=(Label(mapping[ins.target]),))
    return ins


def _copy(fn: Function, labels: list[str], names: _Names, extra: dict[str, str]) -> tuple[list, dict]:
    """Copies of the blocks `labels` under new labels; jumps between them follow, `extra` maps others."""
    mapping = {label: names.label() for label in labels}
    mapping.update(extra)
    blocks = [type(fn.block(l))(mapping[l], [_retarget(replace(i), mapping) for i in fn.block(l).instrs])
              for l in labels]   # (new objects: analyses keep facts by instruction)
    return blocks, mapping


def full_unroll(fn: Function, cfg, loop: Loop, count: Count, trips: int) -> None:
    """trips + 1 copies: the counted test goes on in the first `trips`, leaves in the last."""
    names = _Names(fn)
    labels = [b for b in cfg.order if b in loop.body]
    _explicit(fn, cfg, [loop.preheader, *labels])
    out = next(s for s in cfg.succs(count.block) if s not in loop.body)
    on = next(s for s in cfg.succs(count.block) if s in loop.body)
    copies = [([fn.block(l) for l in labels], {l: l for l in labels})]
    copies += [_copy(fn, labels, names, {}) for _ in range(trips)]     # (before the first copy changes)
    entries = [mapping[loop.header] for _, mapping in copies]
    for k, (blocks, mapping) in enumerate(copies):
        test = next(b for b in blocks if b.label == mapping[count.block])
        i = test.instrs.index(next(x for x in test.instrs if x.is_branch and x.guard is not None))
        target = mapping.get(on, on) if k < trips else out
        test.instrs[i:] = [Instr("BRA", srcs=(Label(target),), loc=count.branch.loc)]
    for k, (blocks, mapping) in enumerate(copies[:-1]):       # each back edge goes on to the next copy
        for block in blocks:
            block.instrs = [_retarget(i, {mapping[loop.header]: entries[k + 1]}) for i in block.instrs]
    _place(fn, labels, [b for blocks, _ in copies for b in blocks], names)


def _place(fn: Function, old: list[str], new_blocks: list, names: _Names) -> None:
    """Put `new_blocks` where the first of the blocks `old` was, and drop the others; a
    conditional branch ends its block (what follows it starts a block of its own)."""
    at = [b.label for b in fn.blocks].index(old[0])
    gone = set(old)
    rest = [b for b in fn.blocks if b.label not in gone]
    before = [b for b in fn.blocks[:at] if b.label not in gone]
    placed = []
    for block in new_blocks:
        cut = next((i for i, ins in enumerate(block.instrs) if ins.is_branch and ins.guard is not None), None)
        while cut is not None and cut + 1 < len(block.instrs):
            placed.append(type(block)(block.label, block.instrs[:cut + 1]))
            block = type(block)(names.label(), block.instrs[cut + 1:])
            cut = next((i for i, ins in enumerate(block.instrs) if ins.is_branch and ins.guard is not None), None)
        placed.append(block)
    fn.blocks = before + placed + rest[len(before):]
    fn.block_index = {}


def _iset(names, cmp: str, a, b, loc, signed: bool = False) -> tuple[Reg, Instr]:
    p = names.reg("p")
    return p, Instr("ISETP", (cmp, "S32" if signed else "U32"), (p,), (a, b), loc=loc)


def _bra(target: str, loc, guard: Reg | None = None, neg: bool = False) -> Instr:
    return Instr("BRA", srcs=(Label(target),), guard=guard, guard_neg=neg, loc=loc)


def runtime_unroll(fn: Function, cfg, loop: Loop, count: Count, factor: int, ptxas_again: bool,
                   prolog: bool = False) -> None:
    """The loop as LLVM's runtime unroller lays it out (and ptxas's by-4 unrolling of the
    unrolled loop when `ptxas_again`; the remainder loop first when `prolog`): see the
    module's docstring."""
    names = _Names(fn)
    loc = count.branch.loc
    iteration = [b for b in cfg.order if b in loop.body and b != loop.header]
    _explicit(fn, cfg, [loop.preheader, loop.header, *iteration])
    out = next(s for s in cfg.succs(loop.header) if s not in loop.body)
    first = next(s for s in cfg.succs(loop.header) if s in loop.body)
    n, rem, m, t = names.reg("r"), names.reg("r"), names.reg("r"), names.reg("r")
    c, b = count.counter, count.bound
    setup = _trip_count(n, count, loc)
    pow2 = factor & (factor - 1) == 0
    setup.append(Instr("LOP", ("AND", "U32"), (rem,), (n, Imm(factor - 1)), loc=loc) if pow2
                 else Instr("IREM", ("U32",), (rem,), (n, Imm(factor)), loc=loc))
    setup.append(Instr("ISUB", ("U32",), (t,), (n, Imm(1)), loc=loc))
    L = {k: names.label() for k in ("few", "main", "by16", "tail8", "join", "byf", "remainder", "rem")}
    head = fn.block(loop.header)
    head.instrs = [_retarget(i, {first: L["few"]}) for i in head.instrs]
    p, test = _iset(names, "GE", t, Imm(factor - 1), loc)
    sections: list[tuple[str, list, list]] = []     # (label, instrs, copies of the body after them)
    step = lambda reg, k: Instr("ISUB", ("U32",), (reg,), (reg, Imm(k)), loc=loc)
    main = [Instr("ISUB", ("U32",), (m,), (n, rem), loc=loc)]
    if prolog:       # the remainder loop first, then the unrolled loop (LLVM's prologue remainder)
        p0, t0 = _iset(names, "NE", rem, Imm(0), loc)
        sections.append((L["few"], setup + main + [t0, _bra(L["main"], loc, p0, True)], []))
        p1, t1 = _iset(names, "NE", rem, Imm(0), loc)
        sections.append((L["rem"], [], [1, [step(rem, 1), t1, _bra(L["rem"], loc, p1), _bra(L["main"], loc)]]))
        sections.append((L["main"], [test, _bra(out, loc, p, True)], []))
        p2, t2 = _iset(names, "NE", m, Imm(0), loc)
        sections.append((L["byf"], [], [factor, [step(m, factor), t2, _bra(L["byf"], loc, p2), _bra(out, loc)]]))
        _emit_sections(fn, loop, iteration, first, head, sections, names, loc)
        return
    sections.append((L["few"], setup + [test, _bra(L["remainder"], loc, p, True)], []))
    if ptxas_again:
        big, mid = 4 * factor, 2 * factor
        p1, t1 = _iset(names, "GT", m, Imm(0), loc, signed=True)
        p2, t2 = _iset(names, "GT", m, Imm(big - factor), loc, signed=True)
        sections.append((L["main"], main + [t1, _bra(L["byf"], loc, p1, True), t2, _bra(L["tail8"], loc, p2, True)], []))
        p3, t3 = _iset(names, "GT", m, Imm(big - factor), loc, signed=True)
        sections.append((L["by16"], [], [big, [step(m, big), t3, _bra(L["by16"], loc, p3), _bra(L["tail8"], loc)]]))
        p4, t4 = _iset(names, "GT", m, Imm(factor), loc, signed=True)
        sections.append((L["tail8"], [t4, _bra(L["join"], loc, p4, True)], [mid, [step(m, mid), _bra(L["join"], loc)]]))
        p5, t5 = _iset(names, "NE", m, Imm(0), loc)
        sections.append((L["join"], [t5, _bra(L["remainder"], loc, p5, True)], []))
    else:
        sections.append((L["main"], main, []))
    p6, t6 = _iset(names, "NE", m, Imm(0), loc)
    sections.append((L["byf"], [], [factor, [step(m, factor), t6, _bra(L["byf"], loc, p6), _bra(L["remainder"], loc)]]))
    p7, t7 = _iset(names, "NE", rem, Imm(0), loc)
    sections.append((L["remainder"], [t7, _bra(out, loc, p7, True)], []))
    p8, t8 = _iset(names, "NE", rem, Imm(0), loc)
    sections.append((L["rem"], [], [1, [step(rem, 1), t8, _bra(L["rem"], loc, p8), _bra(out, loc)]]))
    _emit_sections(fn, loop, iteration, first, head, sections, names, loc)


def _emit_sections(fn: Function, loop: Loop, iteration: list, first: str, head, sections, names, loc) -> None:
    """Lay the sections out in order: each its instructions, then its copies of the body."""
    new = [head]
    for label, instrs, repeat in sections:
        if not repeat:
            new.append(type(head)(label, instrs + ([_bra(_next_section(sections, label), loc)]
                                                   if not instrs or not (instrs[-1].is_branch and instrs[-1].guard is None)
                                                   else [])))
            continue
        copies, tail = repeat
        end = names.label()
        entry = end
        copied = []
        for _ in range(copies):
            copy, mapping = _copy(fn, iteration, names, {loop.header: entry})
            entry = mapping[first]
            copied = copy + copied
        new.append(type(head)(label, (instrs or []) + [_bra(entry, loc)]))
        new += copied
        new.append(type(head)(end, tail))
    _place(fn, [loop.header, *iteration], new, names)


def _trip_count(n: Reg, count: Count, loc) -> list[Instr]:
    """n = the loop's trip count, as SCEV's backedge-taken count + 1 gives it once the test
    at the top has passed: the distance to the bound over the step, rounded up for `<`
    and `>`, plus one for `<=` and `>=` (`while (x > 0) x -= 3;` runs (x - 1) / 3 + 1 times)."""
    c, b, k = count.counter, count.bound, abs(count.step)
    setup = [Instr("ISUB", ("U32",), (n,), (b, c) if count.step > 0 else (c, b), loc=loc)]
    inclusive = count.cmp in ("LE", "GE")
    if k != 1:                 # ((d - 1) / k + 1 for `<`: no overflow of d + k - 1)
        if not inclusive:
            setup.append(Instr("ISUB", ("U32",), (n,), (n, Imm(1)), loc=loc))
        setup.append(Instr("IDIV", ("U32",), (n,), (n, Imm(k)), loc=loc))
    if inclusive or k != 1:
        setup.append(Instr("IADD", ("U32",), (n,), (n, Imm(1)), loc=loc))
    return setup


def _next_section(sections, label: str) -> str:
    labels = [s[0] for s in sections]
    return labels[labels.index(label) + 1]


def _header_trips(loop: Loop, count, trips: int | None) -> int | None:
    """The trip count when the header's own test is the counted one, else None: the guard
    rotation leaves out must be that test (`while (x != 1 && s < 500)` tests x first, and
    x may be 1 on entry however many trips s allows)."""
    return trips if count is not None and count.block == loop.header else None


def rotate(fn: Function, cfg, loop: Loop, trips: int | None) -> bool:
    """LLVM's loop rotation, which every loop that stays a loop gets: the test at the top
    becomes a guard before the loop (left out where the trip count is known not to be 0)
    and a test at the bottom, the back edge, so an iteration runs one branch, not two."""
    header = fn.block(loop.header)
    branch = conditional_branch(header)
    succs = cfg.succs(loop.header)
    if branch is None or len(succs) != 2 or loop.latch == loop.header or loop.bottom:
        return False
    first = next((s for s in succs if s in loop.body), None)
    out = next((s for s in succs if s not in loop.body), None)
    if first is None or out is None or out == EXIT or any(
            ins.info.kind in _BLOCKERS or ins.info.side_effects for ins in header.instrs if ins is not branch):
        return False
    names = _Names(fn)
    _explicit(fn, cfg, [loop.preheader, loop.header])
    test = [i for i in header.instrs if not i.is_branch]
    loc = branch.loc
    cont = _retarget(branch, {}) if branch.target == first else replace(branch, srcs=(Label(first),),
                                                                          guard_neg=not branch.guard_neg)
    pre, latch = fn.block(loop.preheader), fn.block(loop.latch)
    leave = replace(cont, srcs=(Label(out),), guard_neg=not cont.guard_neg)
    ends = fn.block(out).instrs
    if len(ends) == 1 and ends[0].op == "EXIT" and ends[0].guard is None:   # ptxas: a branch to EXIT is @P EXIT
        leave = replace(ends[0], guard=cont.guard, guard_neg=not cont.guard_neg, loc=loc)
    guard = [] if trips else [*test, leave, _bra(first, loc)]
    pre.instrs[-1:] = guard or [_bra(first, loc)]
    latch.instrs[-1:] = [*test, cont, _bra(out, loc)]
    _place(fn, [loop.header], [], names)
    for label in (loop.preheader, loop.latch):
        block = fn.block(label)
        cut = next((i for i, ins in enumerate(block.instrs) if ins.info.terminator and ins.guard is not None), None)
        if cut is not None and cut + 1 < len(block.instrs):
            rest = type(block)(names.label(), block.instrs[cut + 1:])
            block.instrs = block.instrs[:cut + 1]
            at = [b.label for b in fn.blocks].index(label)
            fn.blocks.insert(at + 1, rest)
            fn.block_index = {}
    return True
