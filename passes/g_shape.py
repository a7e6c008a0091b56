"""g-shape: the control shape of nvcc -G's code, at -O0 (docs/fidelity.md, "minicuda's -G shape").

ptxas at -O0 keeps every PTX basic block and its `bra`, and ncu's branch counter
counts each BRA a warp executes (a not-taken `@P BRA` too), each CALL and each RET;
this pass gives the -O0 IR the same blocks, so the `branch` metric reads as ncu's:

- One way out, as clang -O0 writes it: a kernel with more than one EXIT keeps one,
  in a block of its own, and every other path jumps to it; a device function's RET
  is alone in the last block (ptxas splits it off), reached by a BRA from the return
  block that every `return` jumps to when there are more than one.
- Every block that does not end in EXIT or RET ends in a BRA, also when its target
  is the next block: a block that falls through gets `BRA next`, also after its
  conditional branch (nvcc's `@!P BRA else` / `BRA then`).  `if` and loops keep the lowering's blocks (a `for`
  tests at the top and steps in a latch block), which are clang's.
- A function with a stack frame (a device function that calls another, or local
  variables in memory) begins with ptxas's stack check: one BRA (`stack_check`).
- A signed 32-bit division or remainder is ptxas's expansion: the unsigned quotient
  or remainder of the magnitudes, a hammock negating it (`@P BRA join` over one
  INEG; the arm ends without a BRA, as ptxas's own hammocks do), then the all-ones
  result of a zero divisor selected (SEL).  Its values are IDIV.S32's / IREM.S32's.

Reconverge runs after this pass and puts the BSSY/BSYNC (SSY/SYNC) pairs around the
branches that may diverge.  Host functions are left alone (their code is not the GPU's).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from minicuda.ir import Block, Function, Imm, Instr, Label, Reg
from minicuda.semantics import int_type

_VIRTUAL = re.compile(r"%(rq|rd|r|p)(\d+)$")


@dataclass(frozen=True)
class GShape:
    """-O0's blocks as nvcc -G's: one exit, a BRA at the end of every block, ptxas's division."""
    name: str = "g-shape"

    def run(self, fn: Function, analyses) -> bool:
        if fn.kind not in ("kernel", "device") or not fn.blocks:
            return False
        names = _Names(fn)
        one_way_out(fn, names)
        stack_check(fn, names)
        branch_at_every_block_end(fn)
        for ins in [i for i in fn.instructions() if _signed_division(i)]:
            expand_division(fn, ins, names)
        return True


def one_way_out(fn: Function, names: "_Names") -> None:
    """A kernel's EXITs as one exit block; a device function's RET alone in the last block."""
    op = "EXIT" if fn.kind == "kernel" else "RET"
    leaving = [b for b in fn.blocks if (t := b.terminator) is not None and t.op == op and t.guard is None]
    if not leaving or (op == "EXIT" and len(leaving) == 1):
        return
    loc = leaving[-1].terminator.loc
    last = Block(names.label(), [Instr(op, loc=loc)])
    if len(leaving) > 1 and op == "RET":   # clang's return block, then ptxas's RET block
        target = Block(names.label(), [Instr("BRA", srcs=(Label(last.label),), loc=loc)])
        fn.blocks += [target, last]
    else:
        target = last
        fn.blocks.append(last)
    for b in leaving:
        b.instrs[-1] = Instr("BRA", srcs=(Label(target.label),), loc=b.instrs[-1].loc)


def stack_check(fn: Function, names: "_Names") -> None:
    """A function with a stack frame checks its stack on entry, as ptxas -O0's prologue does
    (`IADD3 R1, R1, -frame` / `S2R R0, SR_LMEMHIOFF` / `ISETP.GE.U32` / `@P0 BRA` past a
    `BPT.TRAP`): one branch a call or launch, always taken.  A frame is there for a device
    function that calls another (it saves its return address) and for any kernel or device
    function with local variables in memory (fir_unrolled's `const int taps[7]`: a 0x20-byte
    frame and the check, heldout/sass/sm_90_G.sass; a kernel that only calls has none).  The
    VM checks the stack at the CALL itself (vm/callstack.py), so the check is the BRA alone,
    in the entry block of its own."""
    calls = fn.kind == "device" and any(i.op == "CALL" and "RT" not in i.mods for i in fn.instructions())
    if not calls and not fn.local_bytes:
        return
    entry, label = fn.blocks[0], names.label()
    back = Label(entry.label)
    for b in fn.blocks:   # a loop back to the function's first instruction comes back past the check
        b.instrs = [replace(i, srcs=tuple(Label(label) if o == back else o for o in i.srcs))
                    if back in i.srcs else i for i in b.instrs]
    body = Block(label, entry.instrs)
    entry.instrs = [Instr("BRA", srcs=(Label(body.label),), loc=fn.loc)]
    fn.blocks.insert(1, body)


def branch_at_every_block_end(fn: Function) -> None:
    """`BRA next` wherever control falls into the next block (after a conditional branch
    too: `@!P BRA else` / `BRA then` in one block, as ptxas lists it)."""
    for k, b in enumerate(fn.blocks[:-1]):
        t = b.terminator
        if t is None or t.guard is not None:
            loc = b.instrs[-1].loc if b.instrs else None
            b.instrs.append(Instr("BRA", srcs=(Label(fn.blocks[k + 1].label),), loc=loc))


def _signed_division(ins: Instr) -> bool:
    return ins.op in ("IDIV", "IREM") and ins.guard is None and int_type(ins) == (32, True)


def expand_division(fn: Function, ins: Instr, names: "_Names") -> None:
    """IDIV.S32 / IREM.S32 d, a, b as ptxas -O0 writes it: split its block in three."""
    block = next(b for b in fn.blocks if any(i is ins for i in b.instrs))
    at = next(k for k, i in enumerate(block.instrs) if i is ins)
    (d,), (a, b) = ins.dsts, ins.srcs
    loc = ins.loc
    nonzero, sign, ua, ub, q = names.reg("p"), names.reg("p"), names.reg("r"), names.reg("r"), names.reg("r")
    head = [Instr("ISETP", ("NE", "S32"), (nonzero,), (b, Imm(0)), loc=loc),
            Instr("IABS", ("S32",), (ua,), (a,), loc=loc),
            Instr("IABS", ("S32",), (ub,), (b,), loc=loc),
            Instr(ins.op, ("U32",), (q,), (ua, ub), loc=loc)]
    if ins.op == "IDIV":   # the quotient is negative when the signs differ
        s = names.reg("r")
        head.append(Instr("LOP", ("XOR", "S32"), (s,), (a, b), loc=loc))
    else:                  # the remainder has the dividend's sign
        s = a
    arm, join = Block(names.label()), Block(names.label())
    head += [Instr("ISETP", ("GE", "S32"), (sign,), (s, Imm(0)), loc=loc),
             Instr("BRA", srcs=(Label(join.label),), guard=sign, loc=loc)]
    arm.instrs = [Instr("INEG", ("S32",), (q,), (q,), loc=loc)]
    join.instrs = [Instr("SEL", (), (d,), (q, Imm(0xFFFFFFFF), nonzero), loc=loc)] + block.instrs[at + 1:]
    block.instrs[at:] = head
    k = fn.blocks.index(block)
    fn.blocks[k + 1:k + 1] = [arm, join]


class _Names:
    """Fresh virtual registers and labels for one function."""

    def __init__(self, fn: Function):
        self.next = {"r": 0, "rd": 0, "rq": 0, "p": 0}
        for ins in fn.instructions():
            for r in list(ins.dsts) + ins.uses():
                m = _VIRTUAL.match(r.name)
                if m:
                    self.see(m)
        for r in [p.reg for p in fn.params] + list(fn.rets):
            if m := _VIRTUAL.match(r.name):
                self.see(m)
        self.labels = {b.label for b in fn.blocks}
        self.count = 0

    def see(self, m: re.Match) -> None:
        self.next[m.group(1)] = max(self.next[m.group(1)], int(m.group(2)) + 1)

    def reg(self, kind: str) -> Reg:
        n = self.next[kind]
        self.next[kind] += 1
        return Reg(f"%{kind}{n}")

    def label(self) -> str:
        while f".LG{self.count}" in self.labels:
            self.count += 1
        self.labels.add(f".LG{self.count}")
        return f".LG{self.count}"
