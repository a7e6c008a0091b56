"""A whole program on the VM: host `main` as one scalar thread, kernels as warps.

The host thread runs on the same interpreter as the kernels (one live lane, the
stack model: it cannot diverge).  CALL runs a user function on a fresh register
file for the calling lanes; CALL.RT enters the runtime (vm/runtime.py); LAUNCH
runs a kernel's grid to completion, collecting its metrics.  A fault in a kernel
stops the program as CUDA's sticky errors do, with CUDA's message.

A Machine loads an ir.Module (from the compiler or a .sass file) and needs nothing
else: the arch, the struct layouts the runtime writes, the functions' return widths
and the reconvergence markers are all in it.  The module is run under the scheduling
model its markers are placed for (`.sched`); a compiled program (minicuda.compile)
gives its module for the model asked for, compiling it again when it must.

A stop asked from outside (`stop`, set by the watcher of vm/watch.py) raises
`Stopped` through every level, each noting where it was; a launch stopped by the
watchdog fails instead with CUDA's cudaErrorLaunchTimeout, which sticks: every
CUDA call after it returns it, and the program runs on.
"""
from __future__ import annotations

import os
import struct
import sys
import time

import numpy as np

from minicuda import builtins
from minicuda.arch import default_sched
from minicuda.ir import Module, StructLayout
from minicuda.vm.engine import default_max_steps, make_engine
from minicuda.vm.errors import VMError
from minicuda.vm.interp import Interpreter, Warp
from minicuda.vm.state import ID_NAMES, WARP, BlockState, Layout, start_warp
from minicuda.vm.memory import Memory, MemoryFault
from minicuda.vm.runtime import DeviceAssert, ProgramExit, Runtime
from minicuda.vm.stop import WATCHDOG, HostFrame, StopFlag, Stopped, watchdog_lines, warp_position


class Machine:
    def __init__(self, module, sched: str | None = None, max_steps: int | None = None, trace=None,
                 stdout=None, stderr=None, seed: int | None = None, engine: str = "jit", jobs: int | None = None):
        self.module = module = module_of(module, sched)
        self.arch = module.sm
        self.memory = Memory()
        max_steps = max_steps or default_max_steps(engine, trace)
        self.symbols: dict[str, int] = {}
        self.strings: dict[bytes, int] = {}
        self.stdout_handle, self.stderr_handle = 1, 2
        for name, g in module.globals.items():
            if g.space != "shared":
                space = {"global": "global", "constant": "constant"}.get(g.space, "static")
                init = g.init
                if name in ("stdout", "stderr", "stdin"):
                    init = struct.pack("<Q", {"stdin": 0, "stdout": 1, "stderr": 2}[name])
                self.symbols[name] = self.memory.alloc(g.size, space, name, align=max(g.align, 8), init=init)
        self.sched = sched or module.sched or default_sched(self.arch)
        self.interp = Interpreter(module, self.memory, self.symbols, self.sched, max_steps, trace, seed)
        self.interp.machine = self
        self.host = Interpreter(module, self.memory, self.symbols, "stack", max_steps, None)
        self.host.machine = self
        self.stop = StopFlag()   # polled by both engines; shared by the host's and the kernels' interpreters
        self.interp.stop = self.host.stop = self.stop
        self.watcher = None      # vm/watch.py's Watcher, when one times the run (--timeout, --watchdog, progress)
        self.runtime = Runtime(self, stdout, stderr)
        self.launches = []
        # a trace shows every instruction, which only the interpreter does
        self.engine = make_engine("interp" if trace is not None else engine, self, jobs)

    def string(self, data: bytes) -> int:
        if data not in self.strings:
            self.strings[data] = self.memory.alloc(len(data) + 1, "static", "string", align=8, init=data + b"\0")
        return self.strings[data]

    def struct_layout(self, tag: str) -> StructLayout:
        if tag not in self.module.structs:
            raise VMError("link", f"the module holds no layout of struct {tag} (a .struct line) for the runtime to "
                                  f"write")
        return self.module.structs[tag]

    # ---- the host ----------------------------------------------------------------------------
    def run(self, argv: list[str]) -> int:
        fn = self.module.functions.get("main")
        if fn is None or fn.kind != "host":
            raise VMError("link", "undefined reference to 'main': the program has no host main function")
        self.runtime.program_name = os.path.basename(argv[0]) if argv else "a.out"
        args = []
        if fn.params:
            ptrs = [self.string(a.encode()) for a in argv] + [0]
            array = self.memory.alloc(8 * len(ptrs), "static", "argv", align=8, init=b"".join(struct.pack("<Q", p) for p in ptrs))
            args = [len(argv), array][: len(fn.params)]
        try:
            value = self.call_function(self.host, "main", args, live=_lane0(), ids=_host_ids())
            code = value & 0xFFFFFFFF if fn.rets else 0
            code = code - (1 << 32) if code >> 31 else code
        except ProgramExit as e:
            code = e.code
        self.runtime.flush_device()
        return code & 0xFF

    def call_function(self, interp: Interpreter, name: str, args: list[int], live: np.ndarray, ids: dict,
                      lane_args: list | None = None, caller: Warp | None = None) -> int:
        code = interp.code(name)
        fn = code.fn
        frame = self.memory.alloc(WARP * max(fn.local_bytes, 1), "stack", f"frame of {name}", align=16) if fn.local_bytes else 0
        state = function_state(code, live, ids, frame, max(fn.local_bytes, 1))
        symbols, scope = (caller.symbols, caller.scope) if caller is not None else (self.symbols, None)
        w = Warp(code, state, 0, symbols, scope, ids["warp"])
        for i, p in enumerate(fn.params):
            value = lane_args[i] if lane_args is not None else np.full(WARP, args[i] if i < len(args) else 0, dtype=np.uint64)
            interp.write(w, p.reg, value, np.ones(WARP, bool), 64 if p.size == 8 else 32)
        try:
            ended = self.engine.run_function(interp, w, _Sink())
        except Stopped as stop:
            note_stop(stop, w, interp.sched, live)
            raise
        if ended == "bar":
            raise VMError("unsupported", f"__syncthreads() inside the called function '{name}' is not supported", fn.loc)
        if frame:
            self.memory.free(frame, "stack")
        if fn.rets:
            wide = fn.rets[0].is_wide or fn.ret_wide
            self.last_returns = interp.read(w, fn.rets[0], 64 if wide else 32)
            return int(self.last_returns[int(np.nonzero(live)[0][0])]) if live.any() else 0
        self.last_returns = None
        return 0

    # ---- CALL, CALL.RT and LAUNCH -------------------------------------------------------------
    def call(self, interp: Interpreter, w: Warp, ins, on: np.ndarray) -> None:
        name = ins.srcs[0].name
        if ins.op == "LAUNCH":
            self.launch(interp, w, ins, on)
            return
        if "RT" in ins.mods:
            args = [interp.read(w, s, 64) for s in ins.srcs[1:]]
            device = w.code.fn.kind != "host"
            result = np.zeros(WARP, np.uint64)
            for lane in np.nonzero(on)[0]:
                try:
                    result[lane] = self.runtime.call(name, [int(a[lane]) for a in args], device) & 0xFFFFFFFFFFFFFFFF
                except MemoryFault as f:
                    raise VMError("memory", f"segmentation fault in {name}(): {f}", ins.loc) from None
                except DeviceAssert as e:
                    raise VMError("assert", interp.launch_fault(w, lane, "cudaErrorAssert: device-side assert "
                                                                          f"triggered") + f": {e}", ins.loc) from None
                except RuntimeError as e:
                    raise VMError("runtime", str(e), ins.loc) from None
            if ins.dsts and on.any():   # a lane ran it, so the builtin table has its row
                interp.write(w, ins.dsts[0], result, on, builtins.lookup(name).returns)
            return
        callee = interp.code(name).fn
        lane_args = []
        for p, s in zip(callee.params, ins.srcs[1:]):
            lane_args.append(interp.read(w, s, 64 if p.size == 8 else 32))
        self.call_function(interp, name, [], live=on, ids=w.ids, lane_args=lane_args, caller=w)
        if ins.dsts and self.last_returns is not None:
            interp.write(w, ins.dsts[0], self.last_returns, on, 64 if self.last_returns.dtype == np.uint64 else 32)

    def launch(self, interp: Interpreter, w: Warp, ins, on: np.ndarray) -> None:
        name = ins.srcs[0].name
        dims = [int(interp.read(w, s, 32)[0]) for s in ins.srcs[1:7]]
        smem = int(interp.read(w, ins.srcs[7], 64)[0])
        kernel = self.module.functions[name]
        args = [int(interp.read(w, s, 64 if p.size == 8 else 32)[0]) for p, s in zip(kernel.params, ins.srcs[9:])]
        grid, block = tuple(dims[:3]), tuple(dims[3:])
        if min(grid + block) < 1 or block[0] * block[1] * block[2] > 1024:
            self.runtime.last_error = 9
            return
        if self.runtime.sticky_error:   # the context is lost: nothing runs
            return
        started = time.perf_counter()
        if self.watcher is not None:   # the watchdog times the kernel's run, not its compile
            self.engine.prepare(name)
            self.watcher.launch_started(name, grid[0] * grid[1] * grid[2], self.engine)
        try:
            metrics = self.engine.launch(name, grid, block, args, self.module.arch, smem)
        except Stopped as stop:
            if stop.reason != WATCHDOG:
                raise
            self.launch_timed_out(stop)
            return
        finally:
            if self.watcher is not None:
                self.watcher.launch_finished()
        metrics.wall_s = time.perf_counter() - started
        self.launches.append(metrics)

    def launch_timed_out(self, stop: Stopped) -> None:
        """The watchdog stopped the launch: CUDA's cudaErrorLaunchTimeout, reported as other
        launch errors are, with where each warp was; it sticks, and the program runs on."""
        self.stop.clear_watchdog()
        self.runtime.sticky_error = self.runtime.last_error = 702
        sys.stdout.flush()
        self.runtime.out.flush()
        text = "\n".join(watchdog_lines(stop, self.watcher.watchdog if self.watcher else None)) + "\n"
        self.runtime.err.write(text.encode())
        self.runtime.err.flush()


def module_of(program, sched: str | None = None) -> Module:
    """The module to run under `sched`: a Module as it is (its markers must be placed for
    that model); a compiled program's module for that model."""
    if not isinstance(program, Module):
        return program.module_for(sched)
    if sched in ("stack", "its") and program.sched and sched != program.sched:
        raise ValueError(f"the module's reconvergence markers are placed for the {program.sched} model "
                         f"(.sched {program.sched}): compile it for {sched} to run it under {sched}")
    return program


def note_stop(stop: Stopped, w: Warp, sched: str, live: np.ndarray) -> None:
    """A function was stopped from outside: a host function is a frame of the host's
    backtrace; a device function's warp is where its kernel's warp was."""
    fn = w.code.fn
    if fn.kind == "host":
        pc = w.stack[-1][0] if w.stack else w.code.end
        stop.host.append(HostFrame(fn.name, w.code.instrs[pc].loc if pc < w.code.end else None))
        return
    lane = int(np.nonzero(live)[0][0]) if live.any() else 0
    block = tuple(int(w.ids["SR_CTAID"][a][lane]) for a in "XYZ")
    position = warp_position(w, block, "stack" if sched != "its" else "its")
    if position is not None:
        stop.note_warps([position])


def function_state(code, live: np.ndarray, ids: dict, frame: int, frame_size: int) -> BlockState:
    """The state of one call: a single warp of the callee, `live` threads, the caller's ids."""
    state = BlockState(Layout(code.rows, code.npreds, 1))
    start_warp(state, 0, live, frame, frame_size, code.end)
    for i, name in enumerate(ID_NAMES):
        for j, axis in enumerate("XYZ"):
            state.ids[0, i, j] = ids[name][axis]
    return state


class _Sink:
    """Metrics of host code and calls are not reported."""

    def __getattr__(self, name):
        return 0

    def __setattr__(self, name, value):
        pass


def _lane0() -> np.ndarray:
    live = np.zeros(WARP, bool)
    live[0] = True
    return live


def _host_ids() -> dict:
    zero = np.zeros(WARP, np.uint32)
    return {"SR_TID": {a: zero for a in "XYZ"}, "SR_CTAID": {a: zero for a in "XYZ"},
            "SR_NTID": {a: zero for a in "XYZ"}, "SR_NCTAID": {a: zero for a in "XYZ"}, "warp": "host"}
