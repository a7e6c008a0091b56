"""The call stack: user functions calling user functions without Python recursion.

Machine.call_function runs a function and every call it makes on a CallStack.  A
CALL of a user function suspends the function making it (the engine returns
"call", the CALL and its threads in `Frame.call`); the callee gets a frame of its
own and runs; when it is done its result is written to the CALL's destination and
the caller goes on after the CALL.  A frame's state is a one-warp BlockState.  The
suspended frames nearest the top keep their states as they are (a call and its
return copy nothing); beyond UNPACKED_BYTES of them the deepest are packed (zlib: a
state is mostly zeros), so a recursion 100,000 deep holds a few hundred bytes a
level.  States are reused (StatePool), with the JIT's context kept on them, and a
host frame starts as a copy of its function's starting image (made once per chain).
The host thread is lane 0 alone: its arguments and return values move as ints.

Depth is bounded as the hardware bounds it: each frame costs `frame_bytes` of the
thread's stack, the host thread's 8 MiB (an overflow is SIGSEGV) or a device
thread's cudaLimitStackSize counted from the kernel's own frame (an overflow faults
the launch, as CUDA's does).  docs/semantics.md states the model.

Invariant: a frame's state is the truth whenever the frame is not running; a Warp
made on it (`Frame.warp`) is pushed back to it before the frame is suspended.  The
frames below `CallStack.packed_below` are packed, those from it up are not.
"""
from __future__ import annotations

import zlib

import numpy as np

from minicuda.ir import Imm, Reg
from minicuda.isa import UNCHECKED
from minicuda.semantics import operand_value
from minicuda.vm import cycles
from minicuda.vm.errors import VMError
from minicuda.vm.interp import Warp
from minicuda.vm.memory import OutOfMemory, byte_size
from minicuda.vm.state import ID_NAMES, WARP, BlockState, Layout, frame_stride, start_warp

HOST_STACK_BYTES = 8 << 20   # the host thread's stack: Linux's default (ulimit -s 8192)
UNPACKED_BYTES = 16 << 20    # suspended frames' states kept unpacked, nearest the top, up to this much
M32 = 0xFFFFFFFF
LANE0 = np.arange(WARP) == 0   # the host thread's lanes (read-only: frames share it)
LANE0.setflags(write=False)
LANE0_BYTES = LANE0.tobytes()


def frame_bytes(fn) -> int:
    """The stack one call of `fn` takes, modelled on what the compilers give: host code as
    x86-64 at -O0 (return address and saved frame pointer, 16 bytes, then the locals and
    a 4-byte slot per register, rounded to 16); device code as ptxas (the return address,
    8 bytes, then the locals and the registers it saves, a 4-byte word each, rounded to 8)."""
    registers = fn.registers or 1
    if fn.kind == "host":
        return 16 + -(-(fn.local_bytes + 4 * registers) // 16) * 16
    return 8 + -(-(fn.local_bytes + 4 * registers) // 8) * 8


def static_stack(module, kernel) -> int:
    """The stack a kernel's calls need along its deepest chain with no function twice: what
    ptxas determines statically, and the driver makes room for whatever the limit (the
    limit bounds only what recursion adds).  Walked on an explicit stack."""
    calls = {name: sorted({i.srcs[0].name for i in fn.instructions()
                           if i.op == "CALL" and "RT" not in i.mods and getattr(i.srcs[0], "name", None) in module.functions})
             for name, fn in module.functions.items()}
    need: dict[str, int] = {}
    path = [kernel.name]
    todo = [(kernel.name, iter(calls[kernel.name]))]
    while todo:
        name, callees = todo[-1]
        callee = next(callees, None)
        if callee is None:
            todo.pop()
            path.pop()
            deepest = max((need.get(c, 0) for c in calls[name] if c not in path and c != name), default=0)
            need[name] = (frame_bytes(module.functions[name]) if name != kernel.name else 0) + deepest
            continue
        if callee not in need and callee not in path:
            path.append(callee)
            todo.append((callee, iter(calls[callee])))
    return need[kernel.name]


class StatePool:
    """One-warp states no frame is using, per function, for the next call or resume."""

    def __init__(self):
        self.free: dict[int, list[BlockState]] = {}

    def take(self, code) -> BlockState:
        free = self.free.get(id(code))
        if free:
            return free.pop()
        return BlockState(Layout(code.rows, code.npreds, 1))

    def give(self, code, state: BlockState) -> None:
        self.free.setdefault(id(code), []).append(state)


class Frame:
    """A function on the call stack: its code, its state (packed while it waits for its
    callee), its frame allocation and the stack in use with it."""

    def __init__(self, code, state: BlockState, allocation: int, used: int, symbols: dict, scope, warp_id):
        self.code, self.state, self.allocation, self.used = code, state, allocation, used
        self.symbols, self.scope, self.warp_id = symbols, scope, warp_id
        self.call = None          # (CALL, threads) it waits on
        self.room = 0             # the stack its calls may take (the JIT's native calls check it)
        self.packed: bytes | None = None
        self.w: Warp | None = None

    def warp(self) -> Warp:
        """A Warp on the frame's state, for the interpreter (made once, until `release`)."""
        if self.w is None:
            self.w = Warp(self.code, self.state, 0, self.symbols, self.scope, self.warp_id)
            self.w.driven = True
        return self.w

    def release(self) -> None:
        """Make the state the truth again: push the Warp's scheduler state, forget the Warp."""
        if self.w is not None:
            self.w.push()
            self.w = None

    def suspend(self, states: StatePool) -> None:
        self.release()
        self.packed = zlib.compress(self.state.buf, 1)
        states.give(self.code, self.state)
        self.state = None

    def resume(self, states: StatePool) -> None:
        self.state = states.take(self.code)
        self.state.buf[:] = np.frombuffer(zlib.decompress(self.packed), dtype=np.uint8)
        self.packed = None

    def read(self, operand, width: int) -> np.ndarray | None:
        """An operand's lanes, read from the state: a register or an immediate (else None)."""
        if isinstance(operand, Imm):
            return np.broadcast_to(operand_value(operand, width, WARP), (WARP,))
        if isinstance(operand, Reg) and not operand.is_pred:
            s = self.code.slot(operand)
            if s == -1:
                return np.zeros(WARP, np.uint64 if width == 64 else np.uint32)
            regs = self.state.regs[0]
            if width == 64:
                return regs[s].astype(np.uint64) | (regs[s + 1].astype(np.uint64) << np.uint64(32))
            return regs[s].copy()
        return None

    def read_lane0(self, operand, width: int) -> int | None:
        """Lane 0 of `read`, as an int (None where `read` gives None or the operand is not an
        integer register or constant)."""
        if isinstance(operand, Reg) and not operand.is_pred:
            s = self.code.slot(operand)
            if s == -1:
                return 0
            regs = self.state.regs[0]
            return int(regs[s, 0]) | int(regs[s + 1, 0]) << 32 if width == 64 else int(regs[s, 0])
        if isinstance(operand, Imm) and isinstance(operand.value, int):
            return operand.value & (M32 if width == 32 else 0xFFFFFFFFFFFFFFFF)
        return None

    def write_lane0(self, r: Reg, value: int, width: int) -> None:
        """`write` of lane 0 alone (the host thread)."""
        s = self.code.slot(r)
        if s == -1:
            return
        regs = self.state.regs[0]
        regs[s, 0] = value & M32
        if width == 64:
            regs[s + 1, 0] = value >> 32 & M32

    def write(self, r: Reg, value: np.ndarray, on: np.ndarray, width: int) -> None:
        s = self.code.slot(r)
        if s == -1:
            return
        regs = self.state.regs[0]
        v = value.astype(np.uint64)
        regs[s] = np.where(on, (v & np.uint64(0xFFFFFFFF)).astype(np.uint32), regs[s])
        if width == 64:
            regs[s + 1] = np.where(on, (v >> np.uint64(32)).astype(np.uint32), regs[s + 1])


class CallStack:
    """The frames of one call chain and the stack they take."""

    def __init__(self, interp, states: StatePool, memory, stack_limit: int, kernel_warp: Warp | None):
        self.interp, self.states, self.memory = interp, states, memory
        self.kernel_warp = kernel_warp
        self.space = "stack" if kernel_warp is None else "device stack"   # where frames go: the side's memory
        self.frames: list[Frame] = []
        self.ids: np.ndarray | None = None
        self.packed_below = 0   # frames[:packed_below] are packed
        self.unpacked = 0       # bytes of the suspended frames' states not packed
        self.sizes: dict[int, int] = {}                    # frame_bytes per code (by id)
        self.templates: dict[tuple, BlockState] = {}       # a host frame's starting state per (code, live)
        if kernel_warp is None:
            self.limit, self.base = HOST_STACK_BYTES, 0
        else:
            self.base = kernel_warp.code.fn.local_bytes   # the kernel's own frame
            self.limit = max(stack_limit, self.base + static_stack(interp.module, kernel_warp.code.fn))

    def top(self) -> Frame:
        return self.frames[-1]

    def call_arguments(self, name: str) -> list:
        """The arguments of the CALL the top frame waits on, as its callee `name`'s parameters
        read them: lane vectors, or ints where the host thread calls host code."""
        frame = self.top()
        ins, on = frame.call
        callee = self.interp.code(name).fn
        host = callee.kind == "host" and frame.code.fn.kind == "host" and on.tobytes() == LANE0_BYTES
        values = []
        for p, s in zip(callee.params, ins.srcs[1:]):
            width = 64 if p.size == 8 else 32
            value = frame.read_lane0(s, width) if host else None
            if value is None:
                value = frame.read(s, width)
                if value is None:
                    value = self.interp.read(frame.warp(), s, width)
                if host:
                    value = int(value[0])
            values.append(value)
        return values

    def push(self, name: str, args: list, live: np.ndarray, ids: dict, symbols: dict, scope, ins, loc) -> None:
        """Start `name` for the `live` threads with `args` (lane vectors, or ints for lane 0
        alone), suspending the top frame."""
        code = self.interp.code(name)
        fn = code.fn
        size = self.sizes.get(id(code))
        if size is None:
            size = self.sizes[id(code)] = frame_bytes(fn)
        used = (self.frames[-1].used if self.frames else self.base) + size
        if used > self.limit:
            self.overflow(fn, ins, live, ids, loc, used)
        if self.frames:
            self.suspend_top()
        lanes = 1 if fn.kind == "host" else WARP   # the host thread is lane 0 alone
        allocation = self.frame_allocation(fn, lanes, loc) if fn.local_bytes else 0
        state = self.states.take(code)
        self.start_state(state, code, live, allocation, ids)
        frame = Frame(code, state, allocation, used, symbols, scope, ids["warp"])
        frame.room = self.limit - used
        for p, value in zip(fn.params, args):
            width = 64 if p.size == 8 else 32
            if isinstance(value, int):
                frame.write_lane0(p.reg, value, width)
            else:
                frame.write(p.reg, value, np.ones(WARP, bool), width)
        self.frames.append(frame)

    def start_state(self, state: BlockState, code, live: np.ndarray, allocation: int, ids: dict) -> None:
        """`state` at the start of `code`'s frame: for host code a copy of the function's
        starting image, moved to the frame's `allocation`."""
        fn = code.fn
        if self.kernel_warp is not None:
            state.buf[:] = 0
            start_warp(state, 0, live, allocation, frame_stride(fn.local_bytes), code.end, cycles.FIRST_CHECK)
            state.ids[0] = self.ids_image(ids)
            return
        key = (id(code), live.tobytes())
        template = self.templates.get(key)
        if template is None:
            template = self.templates[key] = BlockState(state.layout)
            start_warp(template, 0, live, 0, frame_stride(fn.local_bytes), code.end, cycles.FIRST_CHECK)
            template.ids[0] = self.ids_image(ids)
        state.buf[:] = template.buf
        if allocation:
            state.frame[0] += np.uint64(allocation)

    def suspend_top(self) -> None:
        """Suspend the top frame for a call; pack the deepest unpacked frames while the
        unpacked ones hold more than UNPACKED_BYTES."""
        top = self.frames[-1]
        top.release()
        self.unpacked += top.state.buf.nbytes
        while self.unpacked > UNPACKED_BYTES and self.packed_below < len(self.frames):
            frame = self.frames[self.packed_below]
            self.unpacked -= frame.state.buf.nbytes
            frame.suspend(self.states)
            self.packed_below += 1

    def frame_allocation(self, fn, lanes: int, loc) -> int:
        """The memory of a frame's local arrays and address-taken locals (per lane): a frame
        the simulated memory cannot hold is a stack overflow in host code (a native program
        dies with SIGSEGV) and an out-of-memory launch failure in device code."""
        try:
            size = fn.local_bytes if lanes == 1 else lanes * frame_stride(fn.local_bytes)
            return self.memory.alloc(size, self.space, f"frame of {fn.name}", align=16)
        except OutOfMemory:
            size, limit = byte_size(fn.local_bytes), byte_size(self.memory.limit)
            if self.kernel_warp is None:
                raise VMError("sigsegv", f"stack overflow in host code: the frame of '{fn.name}' ({size}) does not "
                                         f"fit in what is left of minicuda's {limit} of simulated memory", loc) from None
            raise VMError("memory", f"cudaErrorMemoryAllocation: out of memory: the local variables of '{fn.name}' "
                                    f"({size} per thread) do not fit in minicuda's {limit} of simulated memory",
                          loc) from None

    def ids_image(self, ids: dict) -> np.ndarray:
        """The threads' ids as a state holds them (a chain's threads keep theirs: made once)."""
        if self.ids is None:
            self.ids = np.array([[ids[name][axis] for axis in "XYZ"] for name in ID_NAMES], dtype=np.uint32)
        return self.ids

    def pop(self) -> np.ndarray | None:
        """Remove the finished top frame, resuming the one below with the return value
        written to its CALL's destination; the value's lanes when no frame is left."""
        frame = self.frames.pop()
        frame.release()
        fn = frame.code.fn
        if frame.allocation:
            self.memory.free(frame.allocation, self.space)
        wide = bool(fn.rets) and (fn.rets[0].is_wide or fn.ret_wide)
        below = self.frames[-1] if self.frames else None
        if below is not None and fn.kind == "host" and below.code.fn.kind == "host" \
                and below.call[1].tobytes() == LANE0_BYTES:   # the host thread: lane 0's int
            value = frame.read_lane0(fn.rets[0], 64 if wide else 32) if fn.rets else None
            if value is not None or not fn.rets:
                self.states.give(frame.code, frame.state)
                self.resume_top()
                ins = below.call[0]
                below.call = None
                if ins.dsts and value is not None:
                    below.write_lane0(ins.dsts[0], value, 64 if wide else 32)
                return None
        returns = frame.read(fn.rets[0], 64 if wide else 32) if fn.rets else None
        self.states.give(frame.code, frame.state)
        if below is None:
            return returns
        self.resume_top()
        ins, on = below.call
        below.call = None
        if ins.dsts and returns is not None:
            below.write(ins.dsts[0], returns, on, 64 if returns.dtype == np.uint64 else 32)
        return None

    def resume_top(self) -> None:
        """The new top frame, after a pop, made ready to run: unpacked if it was packed."""
        top = self.frames[-1]
        if top.packed is not None:
            top.resume(self.states)
            self.packed_below -= 1
        else:
            self.unpacked -= top.state.buf.nbytes

    def overflow(self, fn, ins, live: np.ndarray, ids: dict, loc, used: int):
        depth = len(self.frames) + 1
        need = frame_bytes(fn)
        if self.kernel_warp is None:
            raise VMError("sigsegv", f"host stack overflow in '{fn.name}': the call at depth {depth} needs "
                                     f"{need} bytes more of the 8 MiB stack", loc)
        lane = int(np.nonzero(live)[0][0])
        tid = tuple(int(ids["SR_TID"][a][lane]) for a in "XYZ")
        bid = tuple(int(ids["SR_CTAID"][a][lane]) for a in "XYZ")
        checked = ins is None or UNCHECKED not in ins.mods
        error = "cudaErrorLaunchFailure: unspecified launch failure" if checked else \
            "cudaErrorIllegalAddress: an illegal memory access was encountered"
        raise VMError("stack", f"{error} in kernel '{self.kernel_warp.code.fn.name}', block {bid}, thread {tid}: "
                               f"stack overflow: the call of '{fn.name}' at depth {depth} needs {need} bytes "
                               f"more, {used - need} of the thread's {self.limit} (cudaLimitStackSize) in use", loc)


def run_frame_on_warp(engine, interp, frame, metrics=None) -> str:
    """A frame run through a Warp by `engine.run_function`, counted in `metrics` (a
    kernel's calls; host code's are not reported); a CALL it makes is left in
    `frame.call` and the state made the truth again."""
    w = frame.warp()
    result = engine.run_function(interp, w, NO_METRICS if metrics is None else metrics)
    frame.call = w.pending_call
    w.pending_call = None
    frame.release()
    return result


class _NoMetrics:
    """Metrics of host code are not reported."""

    def __getattr__(self, name):
        return 0

    def __setattr__(self, name, value):
        pass

    def add_count(self, name, value) -> None:
        pass

    @property
    def memory_sites(self) -> dict:
        return {}


NO_METRICS = _NoMetrics()
