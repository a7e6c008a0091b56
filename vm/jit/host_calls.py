"""The host thread's runtime calls under the JIT, each call site decoded once.

Native host code hands a CALL.RT (cudaMalloc, malloc, free, printf, ...) back to
Python.  A `HostCallSite` runs it as Machine.runtime_call runs it for the host
thread's one lane: the same pending and sticky CUDA errors (through Runtime.call
whenever one is set), the side and source line the runtime's accesses are made
with, a bad pointer as SIGSEGV and an unsupported function as a runtime error, the
result written at the returned width.  What it saves is the work that is the same
at every call: its operands are read straight from the state's register rows or are
constants, decoded when the site is first met, and the runtime method is looked up
once; nothing is built per call but the arguments.

A site whose operands or result this does not cover (a predicate, a special
register, a float immediate, the frame, a result of a width other than 32 or 64
bits) has no HostCallSite: the interpreter runs it, as before.

`HostView` holds memoryviews of a one-warp state's lane 0 rows (registers, the
first stack entry, flags, words), for scalar reads and writes that cost no numpy
scalar each.
"""
from __future__ import annotations

from minicuda import builtins
from minicuda.ir import Imm, Reg, Sym
from minicuda.vm.code import PRED_BASE
from minicuda.vm.errors import VMError
from minicuda.vm.memory import HOST, MemoryFault, pointer_note
from minicuda.vm.runtime import SYNCHRONIZING
from minicuda.vm.state import WARP, BlockState

M64 = 0xFFFFFFFFFFFFFFFF
NO_ROW = -1   # an operand that is a constant


class HostView:
    """Flat memoryviews of warp 0 of a state: `regs[row * WARP]` is lane 0 of a register
    row, `stack[0:3]` the first stack entry (pc, mask bits, rpc), `flags[WARP]` lane 0's
    exited flag, `words[i]` the warp's word i."""

    def __init__(self, state: BlockState):
        self.state = state
        self.regs = memoryview(state.regs[0].reshape(-1))
        self.stack = memoryview(state.stack[0].reshape(-1))
        self.flags = memoryview(state.flags[0].reshape(-1))
        self.words = memoryview(state.words[0])


def decode_operand(o, code, symbols: dict) -> tuple[int, int] | None:
    """(row, 0) for a register pair read as 64 bits, (NO_ROW, value) for a constant, as
    Interpreter.read_lane0 reads them; None for what it reads otherwise."""
    if isinstance(o, Reg):
        s = code.slot(o)
        if s == -1:
            return NO_ROW, 0
        return (s, 0) if s < PRED_BASE else None
    if isinstance(o, Sym) and o.name != "frame" and o.name in symbols:
        return NO_ROW, (symbols[o.name] + o.offset) & M64
    if isinstance(o, Imm) and isinstance(o.value, int):
        return NO_ROW, o.value & M64
    return None


class HostCallSite:
    """One CALL.RT of host code, decoded (`make` gives None where it cannot be)."""

    def __init__(self, machine, ins, operands: list[tuple[int, int]], result: tuple[int, int] | None):
        self.name = name = ins.srcs[0].name
        self.ins = ins
        self.runtime, self.memory = machine.runtime, machine.memory
        # each operand as (index of its low word in HostView.regs, of its high word, constant)
        self.reads = [(row * WARP, (row + 1) * WARP, value) if row >= 0 else (-1, -1, value)
                      for row, value in operands]
        self.result = result   # (row, width) or None
        self.line = ins.loc.line if ins.loc else None
        self.synchronizing = name in SYNCHRONIZING
        self.cuda = name in builtins.CUDA_RUNTIME
        self.method = None   # looked up at the first call, where a lookup's error is reported

    @classmethod
    def make(cls, machine, ins, code, symbols: dict) -> "HostCallSite | None":
        operands = [decode_operand(o, code, symbols) for o in ins.srcs[1:]]
        if None in operands:
            return None
        result = None
        if ins.dsts:
            row = builtins.lookup(ins.srcs[0].name)
            width = row.returns if row is not None else 0
            s = code.slot(ins.dsts[0])
            if width not in (32, 64) or s >= PRED_BASE:
                return None
            result = (s, width) if s != -1 else None
        return cls(machine, ins, operands, result)

    def run(self, regs: memoryview) -> None:
        """Run the call with the operands in `regs` (HostView.regs), writing its result there."""
        args = []   # (a loop: a comprehension costs a call of its own, per runtime call)
        for low, high, value in self.reads:
            args.append(value if low < 0 else regs[low] | regs[high] << 32)
        runtime, memory = self.runtime, self.memory
        memory.side, memory.line = HOST, self.line
        try:
            if (self.synchronizing and runtime.pending_error) or (runtime.sticky_error and self.cuda):
                value = runtime.call(self.name, args, False)
            else:
                method = self.method
                if method is None:
                    method = self.method = runtime.method(self.name, False)
                value = method(*args)
        except MemoryFault as f:
            raise VMError("sigsegv", f"segmentation fault in {self.name}(): {f}", self.ins.loc,
                          pointer_note(f)) from None
        except RuntimeError as e:
            raise VMError("runtime", str(e), self.ins.loc) from None
        finally:
            memory.side = memory.line = None
        if self.result is not None:
            row, width = self.result
            value &= M64
            regs[row * WARP] = value & 0xFFFFFFFF
            if width == 64:
                regs[(row + 1) * WARP] = value >> 32
