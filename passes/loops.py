"""Loops as the predication report lists them: a conditional branch that leaves a
natural loop (its head in the loop, a successor outside) is the loop's exit, never an
if-conversion arm, and the report lists it in a section of its own with the
loop's trip count where it is known.

A trip count is known for the simple shape a `for` over constants lowers to: the exit
test at the loop's header, the loop's only exit, comparing a counter with a constant,
the counter set to a constant just before the loop and stepped by a constant once in
it (`for (int i = 0; i < 10; i++)`, `for (o = 16; o > 0; o >>= 1)`); anything else is
unknown.  loop-unroll (-O3) records the loops it sees itself; these records are for the
loops it leaves (at -O0 every loop is "not unrolled").
"""
from __future__ import annotations

from dataclasses import replace

from minicuda.ir import BranchDecision, Function, Imm, Instr
from minicuda.passes.cfg import EXIT

MAX_TRIPS = 1 << 16   # a constant loop counted further than this is reported as unknown
BRUTE_FORCE_TRIPS = 100   # ScalarEvolution's -scalar-evolution-max-iterations: how far it evaluates
                          # an exit test whose counter is not an add recurrence (a shift, a multiply)
INVERSE = {"LT": "GE", "LE": "GT", "GT": "LE", "GE": "LT", "EQ": "NE", "NE": "EQ"}


def reaches(cfg, start: str, goal: str) -> bool:
    """A path leads from `start` to `goal` (from a branch's successor back to its head: a loop)."""
    seen, todo = {start}, [start]
    while todo:
        label = todo.pop()
        if label == goal:
            return True
        fresh = [s for s in cfg.succs(label) if s not in seen and s != EXIT]
        seen.update(fresh)
        todo += fresh
    return False


def natural_loops(cfg) -> list[set[str]]:
    """Each loop's blocks: for an edge back to a block on the walk's path (its header),
    the header and the blocks that reach the edge's source without passing it; smallest first."""
    found, on_path, done = [], {cfg.entry}, {cfg.entry}
    stack = [(cfg.entry, iter(cfg.succs(cfg.entry)))]
    while stack:
        node, rest = stack[-1]
        for nxt in rest:
            if nxt in on_path:
                found.append(_body(cfg, nxt, node))
            elif nxt not in done and nxt != EXIT:
                done.add(nxt)
                on_path.add(nxt)
                stack.append((nxt, iter(cfg.succs(nxt))))
                break
        else:
            stack.pop()
            on_path.discard(node)
    return sorted(found, key=len)


def exited_loop(loops: list[set[str]], cfg, head: str) -> set[str] | None:
    """The innermost loop that the conditional branch ending `head` leaves (None if none)."""
    return next((body for body in loops if head in body and any(s not in body for s in cfg.succs(head))), None)


def _body(cfg, header: str, source: str) -> set[str]:
    body, todo = {header, source}, [source] if source != header else []   # (a one-block loop: itself)
    while todo:
        fresh = [p for p in cfg.preds(todo.pop()) if p not in body]
        body.update(fresh)
        todo += fresh
    return body


def trip_count(fn: Function, cfg, body: set[str], head: str, branch: Instr) -> int | None:
    """How many times the loop's body runs, for the simple counted shape; else None."""
    outside = [p for p in cfg.preds(head) if p not in body]
    exits = [b for b in body for s in cfg.succs(b) if s not in body]
    if len(outside) != 1 or exits != [head] or branch.guard is None:
        return None
    test = last_def(fn.block(head).instrs[:fn.block(head).instrs.index(branch)], branch.guard)
    if test is None or test.op != "ISETP" or len(test.srcs) != 2 or not isinstance(test.srcs[1], Imm):
        return None
    counter, bound = test.srcs[0], test.srcs[1].value
    step = _step(fn, body, counter)
    start = last_def(fn.block(outside[0]).instrs, counter)
    if step is None or start is None or start.op != "MOV" or not isinstance(start.srcs[0], Imm) \
            or start.guard is not None:
        return None
    cmp = next((m for m in test.mods if m in INVERSE), None)
    if cmp is None:
        return None
    exit_taken = branch.target not in body
    if exit_taken != branch.guard_neg:   # the loop goes on while the comparison is false
        cmp = INVERSE[cmp]
    unsigned = any(m.startswith("U") for m in test.mods)
    op = step_kind(step)
    amount = -step.srcs[1].value if op == "sub" else step.srcs[1].value
    return simulated_trips(start.srcs[0].value, amount, cmp, bound, unsigned, "add" if op == "sub" else op)


def last_def(instrs: list[Instr], reg) -> Instr | None:
    return next((i for i in reversed(instrs) if reg in i.dsts), None)


def _step(fn: Function, body: set[str], counter) -> Instr | None:
    """The loop's one `counter = counter OP constant` (an add, subtract, multiply or shift;
    directly or through a MOV of its result)."""
    defs = _defs(fn, body, counter)
    if len(defs) == 1 and defs[0].op == "MOV" and defs[0].guard is None and not isinstance(defs[0].srcs[0], Imm):
        defs = _defs(fn, body, defs[0].srcs[0])
    if len(defs) != 1:
        return None
    ins = defs[0]
    ok = ins.op in STEP_OPS and ins.guard is None and len(ins.srcs) == 2 and ins.srcs[0] == counter \
        and isinstance(ins.srcs[1], Imm) and (ins.op != "IDIV" or ins.srcs[1].value != 0)
    return ins if ok else None


def _defs(fn: Function, body: set[str], reg) -> list[Instr]:
    return [i for b in body for i in fn.block(b).instrs if reg in i.dsts]


STEP_OPS = {"IADD": "add", "ISUB": "sub", "IMUL": "mul", "SHL": "shl", "SHR": "shr", "IDIV": "div"}
# (SHR.U32: "shru", IDIV.U32: "divu")


def step_kind(ins: Instr) -> str:
    """The STEP_OPS name of a counter's step, a logical shift or an unsigned division told apart."""
    op = STEP_OPS[ins.op]
    if op in ("shr", "div") and not any(m.startswith("S") for m in ins.mods):
        op += "u"
    return op


def stepped(value: int, op: str, amount: int, unsigned: bool = False) -> int:
    """One step of a counter as the 32-bit machine computes it (before normalising)."""
    value &= 0xFFFFFFFF
    if op == "add":
        return value + amount
    if op == "sub":
        return value - amount
    if op == "mul":
        return value * amount
    if op == "shl":
        return value << (amount & 31)
    if op == "shru":                     # SHR.U32
        return value >> (amount & 31)
    if op == "divu":                     # IDIV.U32 (the divisor a non-zero constant)
        return value // (amount & 0xFFFFFFFF)
    if op == "div":                      # IDIV.S32 rounds toward zero, as C's `/`
        a = value - (1 << 32) if value >= 1 << 31 else value
        b = amount - (1 << 32) if amount >= 1 << 31 else amount
        quotient = abs(a) // abs(b)
        return quotient if (a < 0) == (b < 0) else -quotient
    signed = value - (1 << 32) if value >= 1 << 31 else value
    return signed >> (amount & 31)       # SHR.S32 keeps the sign


def simulated_trips(value: int, step: int, cmp: str, bound: int, unsigned: bool, op: str = "add") -> int | None:
    """How many times `counter CMP bound` holds as the counter goes from `value` by `op step`,
    as LLVM's ScalarEvolution computes a constant trip count by evaluating the exit test
    iteration by iteration (computeExitCountExhaustively: also for shift and multiply steps,
    which are not add recurrences, up to BRUTE_FORCE_TRIPS); None if it holds longer."""
    def norm(x: int) -> int:
        x &= 0xFFFFFFFF
        return x if unsigned or x < 1 << 31 else x - (1 << 32)
    holds = {"LT": lambda a: a < bound, "LE": lambda a: a <= bound, "GT": lambda a: a > bound,
             "GE": lambda a: a >= bound, "EQ": lambda a: a == bound, "NE": lambda a: a != bound}[cmp]
    value, bound = norm(value), norm(bound)
    for trips in range((MAX_TRIPS if op in ("add", "sub") else BRUTE_FORCE_TRIPS) + 1):
        if not holds(value):
            return trips
        value = norm(stepped(value, op, step, unsigned))
    return None


def as_loop_exit(fn: Function, cfg, loops: list[set[str]], head: str, branch: Instr,
                 record: BranchDecision) -> BranchDecision:
    """The branch's record, made a loop's (its section of the report) when the branch leaves a loop."""
    body = exited_loop(loops, cfg, head)
    if body is None:
        return record
    trips = trip_count(fn, cfg, body, head, branch)
    count = "trip count unknown" if trips is None else f"trip count {trips}"
    return replace(record, loop=True, trip_count=trips, predicated=False,
                   reason=f"kept: a loop's exit ({count}, not unrolled)")


def instructions(count: int) -> str:
    """'1 instruction', '3 instructions'."""
    return f"{count} instruction{'' if count == 1 else 's'}"
