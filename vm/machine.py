"""A whole program on the VM: host `main` as one scalar thread, kernels as warps.

The host thread runs on the same interpreter as the kernels (one live lane, the
stack model: it cannot diverge).  CALL runs a user function on a fresh register
file for the calling lanes, on an explicit call stack (vm/callstack.py: no Python
recursion, the stack bounded as the hardware bounds it); CALL.RT enters the runtime
(vm/runtime.py); LAUNCH
runs a kernel's grid to completion, collecting its metrics; a LAUNCH in device code
(dynamic parallelism) is recorded and run after its grid, as vm/nested.py says.  A fault in a kernel
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
import re
import sys
import threading
import time

import numpy as np

from minicuda import builtins
from minicuda.arch import default_sched
from minicuda.ir import GLOBAL_FINI, GLOBAL_INIT, Module, StructLayout, Sym, block_shared_bytes
from minicuda.timing import TIMES
from minicuda.vm.engine import default_max_steps, make_engine
from minicuda.vm.errors import VMError
from minicuda.vm.launch_checks import blocks_per_sm, launch_error
from minicuda.vm.interp import Interpreter, Warp
from minicuda.vm.state import WARP
from minicuda.vm.stdio import standard_streams
from minicuda.vm.memory import DEVICE, HOST, Memory, MemoryFault, OutOfMemory, byte_size, pointer_note
from minicuda.vm.nested import NestedLaunches, uses_device_sync
from minicuda.vm.occupancy import occupancy
from minicuda.vm.timing_model import gpu_for, model_launch, times_kernels
from minicuda.vm.runtime import STACK_LIMIT, DeviceAssert, ProgramExit, Runtime, device_for, error_code
from minicuda.vm.callstack import NO_METRICS, CallStack, StatePool
from minicuda.vm.stop import WATCHDOG, HostFrame, StopFlag, Stopped, watchdog_lines, warp_position
from minicuda.vm.tools import InitShadow, interpreted

SPACE_NAMES = {"global": "'__device__' variable", "constant": "'__constant__' variable", "static": "variable",
               "managed": "'__managed__' variable",
               "string": "string literal"}
MEMORY_SPACES = {"global": "global", "constant": "constant", "string": "string", "managed": "managed"}   # the rest: host "static"
# the faults that fail a launch (CUDA's sticky errors: the program runs on, every CUDA call failing)
DEVICE_FAULTS = ("memory", "trap", "assert", "stack")


def kernels_interpreted(tools, sched: str) -> bool:
    """Whether kernels (and the device functions they call) run on the interpreter
    whatever the engine, host code staying on it: the one place that decides.  They do
    under a tool whose checks only the interpreter makes (vm/tools.py's INTERPRETED_TOOLS:
    racecheck under the stack model).  The memory counters (vm/memcounters.py) and the
    timing model's load round trips (vm/load_rounds.py) the JIT counts too (vm/jit/memlog.py,
    vm/jit/rounds.py); a device function a kernel calls is counted on the interpreter."""
    return interpreted(tools, sched)


class Machine:
    def __init__(self, module, sched: str | None = None, max_steps: int | None = None, trace=None,
                 stdout=None, stderr=None, seed: int | None = None, engine: str = "jit", jobs: int | None = None,
                 memory_limit: int | None = None, tools=(), stdin=None, profile: bool = False,
                 timeline_warp: tuple[int, int] | None = None, memory_counters: bool = False,
                 time: str = "auto", timing_model: bool = False, gpu: str | None = None):
        self.module = module = module_of(module, sched)
        self.arch = module.sm
        self.memory = Memory(memory_limit)
        if "initcheck" in tools:
            self.memory.shadow = InitShadow()
        self.leaks: list | None = None   # --leak-check full: (bytes, report) of each leak found (vm/tools.py)
        self.leaked: set[int] = set()     # and their addresses, reported once
        profiled = profile or timeline_warp is not None
        max_steps = max_steps or default_max_steps(engine, trace)
        self.symbols: dict[str, int] = {}
        self.strings: dict[bytes, int] = {}
        self.stream_handles = standard_streams(self.memory)   # stdin, stdout, stderr: their FILEs
        for name, g in module.globals.items():
            if g.space != "shared":
                space = MEMORY_SPACES.get(g.space, "static")
                init = g.init
                if name in self.stream_handles:
                    init = struct.pack("<Q", self.stream_handles[name])
                self.symbols[name] = self.static_object(name, g, space, init)
        self.function_handles = self.make_function_handles()
        self.kernel_handles = {a: n for a, n in self.function_handles.items() if self.module.functions[n].kind == "kernel"}
        self.static_shared: dict[str, int] = {}   # kernel -> bytes of static shared memory per block
        self.sched = sched or module.sched or default_sched(self.arch)
        self.interp = Interpreter(module, self.memory, self.symbols, self.sched, max_steps, trace, seed)
        self.interp.machine = self
        self.interp.tools = frozenset(tools)
        self.interp.profiling = profiled   # vm/profile.py
        self.interp.timeline_warp = timeline_warp
        self.host = Interpreter(module, self.memory, self.symbols, "stack", max_steps, None)
        self.host.machine = self
        self.host.on_host = True
        self.stop = StopFlag()   # polled by both engines; shared by the host's and the kernels' interpreters
        self.interp.stop = self.host.stop = self.stop
        self.watcher = None      # vm/watch.py's Watcher, when one times the run (--timeout, --watchdog, progress)
        self.runtime = Runtime(self, stdout, stderr, stdin)
        self.launches = []
        self.nested = NestedLaunches(self)   # device-side launches (dynamic parallelism)
        self.faults: list[VMError] = []   # the faults that failed launches (CUDA's sticky errors)
        self.asserts: list[VMError] = []  # the failed device asserts of the launch running, a warp's each
        self.assert_lock = threading.Lock()   # JIT workers run blocks side by side
        self.states = StatePool()
        # a trace shows every instruction, which only the interpreter does (a profile's
        # per-instruction counters the JIT compiles: vm/profile.py)
        # (and CUDA 11's device-side cudaDeviceSynchronize nests launches, which only the interpreter does)
        interpreted = trace is not None or uses_device_sync(module)
        self.engine = make_engine("interp" if interpreted else engine, self, jobs)
        # the memory counters (vm/memcounters.py) both engines count; the timing model
        # (vm/timing_model.py) reads them and the load round trips (vm/load_rounds.py)
        # the timing model runs when asked for
        # (timing_model: its metrics; time "model"), and by default ("auto") for a program
        # that times its kernels with events (cudaEventElapsedTime); then the events and the
        # host's clocks read its time, unless time is "wall".  A program timed by a host clock
        # only (gettimeofday: the books' cpuSecond) is modelled with time "model": counting
        # every access costs its kernels 3 to 5 times their run time and the footprint's
        # memory, which the book's sizes (sumMatrix's 1 GiB matrices) cannot pay by default
        self.time = time
        self.timing_model = timing_model or time == "model" or (time == "auto" and times_kernels(module))
        self.modelled_time = self.timing_model and time != "wall"
        self.gpu = gpu_for(self.arch, gpu) if self.timing_model else None
        memory_counters = memory_counters or self.timing_model
        self.interp.memory_counters = memory_counters
        self.interp.count_rounds = self.timing_model
        self.kernel_engine = make_engine("interp", self) if kernels_interpreted(tools, self.sched) \
            else self.engine

    def static_object(self, name: str, g, space: str, init: bytes | None) -> int:
        """The address of a file-scope object; VMError (at load, as a link fails) when it is
        larger than the device's global memory or than minicuda's simulated memory."""
        device_bytes = device_for(self.arch)[7] << 30
        what = f"{SPACE_NAMES[space]} '{name}' needs {byte_size(g.size)}"
        if space in ("global", "constant", "managed") and g.size > device_bytes:
            raise VMError("link", f"{what}; the device has {byte_size(device_bytes)} of global memory")
        try:
            address = self.memory.alloc(g.size, space, name, align=max(g.align, 8), init=init)
        except OutOfMemory:
            raise VMError("link", f"{what}; minicuda simulates {byte_size(self.memory.limit)} of memory, host "
                                  f"and device together") from None
        a = self.memory.find(address)
        a.host_shadow = space in ("global", "constant")
        self.memory.refresh(a)
        return address

    def make_function_handles(self) -> dict[int, str]:
        """An address for each function the program names as a value: a kernel's (`(const
        void *)k`, for cudaFuncSetAttribute), as a host stub's address identifies a kernel,
        and a function pointer's target, which an indirect CALL finds here: handle -> name."""
        functions = self.module.functions
        named = {o.name for fn in functions.values() for b in fn.blocks for ins in b.instrs
                 for o in ins.srcs if isinstance(o, Sym) and o.name in functions
                 and not (ins.op in ("CALL", "LAUNCH") and o is ins.srcs[0])}
        for name in sorted(named):
            what = "kernel" if functions[name].kind == "kernel" else "function"
            self.symbols[name] = self.memory.alloc(1, "static", f"{what} '{name}'", align=16)
        return {self.symbols[name]: name for name in named}

    def call_pointer(self, address: int, args: list[int]) -> int:
        """The host function a pointer's handle names, called with `args` from the runtime
        (qsort's comparator); a pointer to no function is SIGSEGV.  The result as an int."""
        name = self.function_at(address, None)
        side, line = self.memory.side, self.memory.line
        try:
            return self.call_function(self.host, name, args, live=_lane0(), ids=_host_ids())
        finally:
            self.memory.side, self.memory.line = side, line

    def callee(self, ins, read, on: np.ndarray, device: bool) -> str:
        """The function a CALL calls: its named callee, or (`CALL [R4]`) the function whose
        handle the first active lane's pointer holds (`read(reg)`: its lanes); a pointer to
        no function is SIGSEGV, as a native call through it would be.  On the device (a
        __host__ __device__ function's call through a pointer) it faults the launch."""
        target = ins.srcs[0]
        if isinstance(target, Sym):
            return target.name
        if device:
            raise VMError("memory", "cudaErrorIllegalAddress: an illegal memory access was encountered: a call "
                                    "through a function pointer in device code (minicuda does not support function "
                                    "pointers in device code yet)", ins.loc)
        lanes = read(target.base)
        active = np.nonzero(on)[0]
        address = (int(lanes[int(active[0]) if len(active) else 0]) + target.offset) & 0xFFFFFFFFFFFFFFFF
        return self.function_at(address, ins.loc)

    def function_at(self, address: int, loc) -> str:
        """The function whose handle is `address`; SIGSEGV (at `loc`) for a pointer to none."""
        name = self.function_handles.get(address)
        if name is None:
            raise VMError("sigsegv", f"segmentation fault: a call through the function pointer {address:#x}, "
                                     f"which points to no function", loc)
        return name

    def kernel_static_shared(self, kernel: str) -> int:
        if kernel not in self.static_shared:
            self.static_shared[kernel] = block_shared_bytes(self.module, kernel)
        return self.static_shared[kernel]

    def string(self, data: bytes) -> int:
        """A read-only string the runtime returns (cudaGetErrorString's), made once."""
        if data not in self.strings:
            self.strings[data] = self.memory.alloc(len(data) + 1, "string", "string", align=8, init=data + b"\0")
        return self.strings[data]

    def writable_string(self, data: bytes, name: str) -> int:
        """A string the program may write (argv's), as a C program's are."""
        return self.memory.alloc(len(data) + 1, "static", name, align=8, init=data + b"\0")

    def struct_layout(self, tag: str) -> StructLayout:
        if tag not in self.module.structs:
            raise VMError("link", f"the module holds no layout of struct {tag} (a .struct line) for the runtime to "
                                  f"write")
        return self.module.structs[tag]

    # ---- the host ----------------------------------------------------------------------------
    def run(self, argv: list[str | bytes]) -> int:
        fn = self.module.functions.get("main")
        if fn is None or fn.kind != "host":
            raise VMError("link", "undefined reference to 'main': the program has no host main function")
        self.runtime.program_name = os.path.basename(os.fsdecode(argv[0])) if argv else "a.out"
        args = []
        if fn.params:
            ptrs = [self.writable_string(os.fsencode(a), f"argv[{i}]") for i, a in enumerate(argv)] + [0]
            array = self.memory.alloc(8 * len(ptrs), "static", "argv", align=8, init=b"".join(struct.pack("<Q", p) for p in ptrs))
            args = [len(argv), array][: len(fn.params)]
        ended = False   # by returning from main or exit(): the open files are flushed, as exit() does
        try:
            with TIMES.phase("host code (main and the static constructors and destructors)"):
                self.run_startup(GLOBAL_INIT)
                value = self.call_function(self.host, "main", args, live=_lane0(), ids=_host_ids())
                code = value & 0xFFFFFFFF if fn.rets else 0
                code, ended = code - (1 << 32) if code >> 31 else code, True
                self.run_startup(GLOBAL_FINI)
        except ProgramExit as e:
            code, ended = e.code, not e.shell_line
            if ended and not getattr(e, "in_fini", False):
                code = self.exit_with_fini(code)
            if e.shell_line:   # killed by a signal (abort()): what the shell prints
                sys.stdout.flush()
                self.runtime.out.flush()
                self.runtime.err.write(e.shell_line.encode() + b"\n")
                self.runtime.err.flush()
        finally:
            self.runtime.close_files(flush=ended)
        self.runtime.flush_device()
        return code & 0xFF

    def run_startup(self, prefix: str) -> None:
        """Every unit's GLOBAL_INIT (its globals' dynamic initialisers), in command-line
        order, or GLOBAL_FINI (its global objects' destructors), in reverse."""
        names = [n for n in self.module.functions if n.startswith(prefix)]
        for name in reversed(names) if prefix == GLOBAL_FINI else names:
            self.call_function(self.host, name, [], live=_lane0(), ids=_host_ids())

    def exit_with_fini(self, code: int) -> int:
        """exit() destroys the global objects too; an exit() in a destructor ends it there."""
        try:
            self.run_startup(GLOBAL_FINI)
        except ProgramExit as e:
            return e.code
        return code

    def call_function(self, interp: Interpreter, name: str, args: list[int], live: np.ndarray, ids: dict,
                      lane_args: list | None = None, caller: Warp | None = None, call=None,
                      metrics=NO_METRICS) -> int:
        """Run `name` for the `live` threads, and every call it makes, on a call stack
        (vm/callstack.py): no Python recursion, depth bounded by the stack the frames take,
        the host thread's or (`caller`: a kernel's warp, `call` its CALL) a device thread's.
        What the functions execute is counted in `metrics` (a kernel's launch: its calls'
        work is the launch's, as the GPU counts it)."""
        stack = CallStack(interp, self.states, self.memory, self.runtime.limits[STACK_LIMIT], caller)
        symbols, scope = (caller.symbols, caller.scope) if caller is not None else (self.symbols, None)
        first = lane_args if lane_args is not None else \
            [np.full(WARP, args[i] if i < len(args) else 0, dtype=np.uint64) for i in range(len(interp.code(name).fn.params))]
        stack.push(name, first, live, ids, symbols, scope, call, call.loc if call is not None else None)
        engine = self.kernel_engine if caller is not None else self.engine   # a kernel's calls run where it runs
        while True:
            top = stack.top()
            try:
                result = engine.run_frame(interp, top, metrics)
            except Stopped as stop:
                note_stop(stop, top.warp(), interp.sched, live)
                for below in reversed(stack.frames[:-1]):   # the callers, at their calls
                    if below.code.fn.kind == "host" and below.call is not None:
                        stop.host.append(HostFrame(below.code.fn.name, below.call[0].loc))
                raise
            if result == "call":
                ins, on = top.call
                name = self.callee(ins, lambda r: top.read(r, 64), on, device=caller is not None)
                stack.push(name, stack.call_arguments(name), on, ids, symbols, scope, ins, ins.loc)
                continue
            if result == "bar":
                below = stack.frames[-2] if len(stack.frames) > 1 else None
                raise barrier_in_call(top.code.fn, below.call[0] if below else call,
                                      (below.code if below else caller.code).fn.name if below or caller else "")
            returns = stack.pop()   # and into the caller's CALL
            if not stack.frames:
                self.last_returns = returns
                if returns is None or not live.any():
                    return 0
                return int(returns[int(np.nonzero(live)[0][0])])

    # ---- CALL, CALL.RT and LAUNCH -------------------------------------------------------------
    def call(self, interp: Interpreter, w: Warp, ins, on: np.ndarray, metrics=NO_METRICS) -> None:
        """CALL.RT and LAUNCH, and a kernel's CALL of a device function (which starts a call
        stack of its own); the functions on a call stack have their CALLs run by it."""
        name = self.callee(ins, lambda r: interp.read(w, r, 64), on, device=w.code.fn.kind != "host")
        if ins.op == "LAUNCH":
            if w.code.fn.kind == "host":
                self.launch(interp, w, ins, on)
            else:
                self.nested.launch(interp, w, ins, on)
            return
        if "RT" in ins.mods:
            result = self.runtime_call(interp, w, ins, on)
            if ins.dsts and w.code.fn.kind == "host":   # the host thread: lane 0 alone, as an int
                if on[0]:
                    interp.write_lane0(w, ins.dsts[0], int(result[0]), builtins.lookup(name).returns)
            elif ins.dsts and on.any():   # a lane ran it, so the builtin table has its row
                interp.write(w, ins.dsts[0], result, on, builtins.lookup(name).returns)
            return
        callee = interp.code(name).fn
        lane_args = []
        for p, s in zip(callee.params, ins.srcs[1:]):
            lane_args.append(interp.read(w, s, 64 if p.size == 8 else 32))
        self.call_function(interp, name, [], live=on, ids=w.ids, lane_args=lane_args, caller=w, call=ins,
                           metrics=metrics)
        if ins.dsts and self.last_returns is not None:
            interp.write(w, ins.dsts[0], self.last_returns, on, 64 if self.last_returns.dtype == np.uint64 else 32)

    def runtime_call(self, interp: Interpreter, w: Warp, ins, on: np.ndarray):
        """CALL.RT for the lanes `on`, in lane order (the host thread's lane 0 alone, its
        operands and result plain ints), their accesses made on the caller's side:
        a bad pointer is SIGSEGV in host code and an illegal address in a kernel; a failed
        device assert() reports every failing lane of the warp, then fails the launch."""
        name = ins.srcs[0].name
        device = w.code.fn.kind != "host"   # else the host thread: lane 0 alone, read as ints
        args = [interp.read(w, s, 64) if device else (interp.read_lane0(w, s),) for s in ins.srcs[1:]]
        result = np.zeros(WARP, np.uint64) if device else [0]
        failed = []
        lane = 0
        self.memory.side, self.memory.line = DEVICE if device else HOST, ins.loc.line if ins.loc else None
        try:
            for lane in np.nonzero(on)[0] if device else range(int(on[0])):
                try:
                    self.runtime.local.thread = (w, int(lane))
                    result[lane] = self.runtime.call(name, [int(a[lane]) for a in args], device) & 0xFFFFFFFFFFFFFFFF
                except DeviceAssert as e:
                    failed.append((int(lane), e))
        except MemoryFault as f:
            if device:
                raise VMError("memory", interp.fault_message(w, f, int(lane)) + f" (in {name}())", ins.loc,
                              pointer_note(f)) from None
            raise VMError("sigsegv", f"segmentation fault in {name}(): {f}", ins.loc, pointer_note(f)) from None
        except RuntimeError as e:
            raise VMError("runtime", str(e), ins.loc) from None
        finally:
            self.memory.side = self.memory.line = None
        if failed:
            lines = [e.report(w.ids, lane) for lane, e in failed]
            error = interp.launch_fault(w, failed[0][0], "cudaErrorAssert: device-side assert triggered")
            fault = VMError("assert", f"{error}: {lines[0]}", ins.loc, report=lines)
            if w.driven:   # in a called function: the launch ends here
                raise fault
            for lane, _ in failed:   # in the kernel: those threads stop, the others run on
                w.exited[lane] = True
            with self.assert_lock:
                self.asserts.append(fault)
        return result

    def launch(self, interp: Interpreter, w: Warp, ins, on: np.ndarray) -> None:
        name = ins.srcs[0].name
        dims = [int(interp.read(w, s, 32)[0]) for s in ins.srcs[1:7]]
        smem = int(interp.read(w, ins.srcs[7], 64)[0])
        kernel = self.module.functions[name]
        args = [int(interp.read(w, s, 64 if p.size == 8 else 32)[0]) for p, s in zip(kernel.params, ins.srcs[9:])]
        grid, block = tuple(dims[:3]), tuple(dims[3:])
        self.launch_kernel(name, grid, block, args, smem, int(interp.read(w, ins.srcs[8], 64)[0]))

    def launch_kernel(self, name: str, grid: tuple, block: tuple, args: list[int], smem: int, stream: int,
                      cooperative: bool = False) -> int:
        """Launch `name` (<<<>>> or, `cooperative`, cudaLaunchCooperativeKernel); the launch's
        error, 0 when it ran (a fault in it is the next synchronising call's)."""
        kernel = self.module.functions[name]
        refused = launch_error(kernel, self.arch, grid, block, smem, self.kernel_static_shared(name),
                               self.runtime.max_dynamic_shared.get(name))
        if not refused and not self.runtime.is_stream(stream):
            refused = 400   # a stream never created, or destroyed: cudaErrorInvalidResourceHandle
        if not refused and cooperative and grid[0] * grid[1] * grid[2] > self.resident_blocks(kernel, block, smem):
            refused = 720   # cudaErrorCooperativeLaunchTooLarge
        if refused:
            self.runtime.last_error = refused
            return refused
        if self.runtime.sticky_error or self.runtime.pending_error:   # the context is lost: nothing runs
            return self.runtime.sticky_error
        refused = self.launch_refusal(kernel, grid, block, smem)
        if refused:
            self.runtime.last_error = refused
            return refused
        self.runtime.trace_stream(stream, f"launch {name}<<<{grid}, {block}>>>")
        started = time.perf_counter()
        self.runtime.launched = True
        if self.watcher is not None:   # the watchdog times the kernel's run, not its compile
            self.kernel_engine.prepare(name)
            self.watcher.launch_started(name, grid[0] * grid[1] * grid[2], self.kernel_engine)
        self.asserts = []
        try:
            with TIMES.phase(f"kernel {name}"):
                if cooperative:   # blocks that wait for each other: the interpreter runs them side by side
                    metrics, children = self.nested.run(name, 0, lambda: self.interp.launch_cooperative(
                        name, grid, block, args, self.module.arch, smem))
                else:
                    metrics, children = self.nested.run(name, 0, lambda: self.kernel_engine.launch(
                        name, grid, block, args, self.module.arch, smem))
        except VMError as e:
            if e.kind not in DEVICE_FAULTS:
                raise
            self.launch_failed(e)
            return 0
        except Stopped as stop:
            if stop.reason != WATCHDOG:
                raise
            self.launch_timed_out(stop)
            return 0
        finally:
            if self.watcher is not None:
                self.watcher.launch_finished()
        metrics.wall_s = time.perf_counter() - started
        metrics.occupancy = self.launch_occupancy(kernel, block, smem)
        if self.timing_model:
            metrics.timing = model_launch(metrics, self.gpu)
            self.runtime.model_clock += metrics.timing.duration_s
        self.launches.append(metrics)
        self.report_asserts()
        self.nested.run_generations(children)   # the grid is complete when its children are
        return 0

    def report_asserts(self) -> None:
        if self.asserts:   # every failing thread's line, blocks in order, as CUDA prints them
            self.asserts.sort(key=lambda f: _block_order(f.report[0]))
            first = self.asserts[0]
            self.launch_failed(VMError("assert", str(first), first.loc,
                                       report=[line for f in self.asserts for line in f.report]))
        return 0

    def resident_blocks(self, kernel, block: tuple, smem: int) -> int:
        """How many blocks of `kernel` the device holds at once: its SMs times the blocks one SM
        holds (by threads, registers, shared memory and the SM's block limit), as CUDA bounds a
        cooperative launch."""
        props = self.runtime.device_properties()
        return props["multiProcessorCount"] * blocks_per_sm(
            kernel, self.arch, block, self.kernel_static_shared(kernel.name) + smem,
            props["maxThreadsPerMultiProcessor"], props["sharedMemPerMultiprocessor"])

    def launch_occupancy(self, kernel, block: tuple, smem: int):
        """The launch's theoretical occupancy (vm/occupancy.py)."""
        return occupancy(self.arch, kernel.registers, self.kernel_static_shared(kernel.name) + smem,
                         block[0] * block[1] * block[2])

    def run_child(self, child) -> list:
        """The grid of a device-side launch (vm/nested.py's PendingGrid), run as the host's
        launches run: its metrics kept; the grids it launched, in launch order."""
        if self.interp.trace is not None:
            dims = ", ".join(f"({x},{y},{z})" for x, y, z in (child.grid, child.block))
            self.interp.trace(f"launch {child.kernel} <<<{dims}, {child.shared}>>> depth {child.depth} from "
                              f"{child.parent} block {_triple(child.origin[0])} thread {_triple(child.origin[1])}")
        outer, self.asserts = self.asserts, []
        started = time.perf_counter()
        try:
            with TIMES.phase(f"kernel {child.kernel} (device-side launches)"):
                metrics, children = self.nested.run(child.kernel, child.depth, lambda: self.kernel_engine.launch(
                    child.kernel, child.grid, child.block, child.args, self.module.arch, child.shared),
                    child.completion)
            metrics.wall_s = time.perf_counter() - started
            metrics.depth, metrics.parent = child.depth, child.parent
            metrics.occupancy = self.launch_occupancy(self.module.functions[child.kernel], child.block, child.shared)
            self.launches.append(metrics)
            self.report_asserts()
        except VMError as e:
            if e.kind not in DEVICE_FAULTS:
                raise
            self.launch_failed(e)
            return []
        finally:
            self.asserts = outer
        return children

    def launch_refusal(self, kernel, grid: tuple, block: tuple, smem: int) -> int:
        """The CUDA error a launch CUDA accepts (vm/launch_checks.py) fails with here, 0 when
        it may run: shared memory and the threads' local frames that the simulated memory
        cannot hold (per block, for each block running at once) are cudaErrorMemoryAllocation."""
        static = self.kernel_static_shared(kernel.name)
        nwarps = -(-block[0] * block[1] * block[2] // WARP)
        per_block = static + smem + nwarps * WARP * kernel.local_bytes
        at_once = min(getattr(self.engine, "jobs", 1), grid[0] * grid[1] * grid[2])
        return 2 if per_block * at_once > self.memory.limit - self.memory.live_bytes else 0

    def launch_failed(self, fault: VMError) -> None:
        """A fault in a kernel: reported as the GPU's driver and minicuda see it (a failed
        assert as CUDA prints it, on stdout; anything else located on stderr, with what the
        pointer was), then
        CUDA's error sticks from the next call that waits for the device (every CUDA call
        returns it then) and the program runs on."""
        self.faults.append(fault)
        self.runtime.pending_error = error_code(str(fault))
        if fault.report:   # CUDA's assert lines come through the device's printf buffer: stdout, at a sync
            self.runtime.device_output.append(("\n".join(fault.report) + "\n").encode())
            return
        sys.stdout.flush()
        self.runtime.flush_device()
        where = f"{fault.loc}: " if fault.loc is not None else ""
        lines = [f"{where}error: {fault}"] + ([f"{where}note: {fault.note}"] if fault.note else [])
        self.runtime.err.write(("\n".join(lines) + "\n").encode())
        self.runtime.err.flush()

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


def _lane0() -> np.ndarray:
    live = np.zeros(WARP, bool)
    live[0] = True
    return live


def _host_ids() -> dict:
    zero = np.zeros(WARP, np.uint32)
    return {"SR_TID": {a: zero for a in "XYZ"}, "SR_CTAID": {a: zero for a in "XYZ"},
            "SR_NTID": {a: zero for a in "XYZ"}, "SR_NCTAID": {a: zero for a in "XYZ"}, "warp": "host"}


def _block_order(line: str) -> tuple:
    """A device assert line's block, z-major as blocks are numbered, then its thread."""
    block, thread = (tuple(int(x) for x in m.split(",")) for m in re.findall(r"\[([\d,]+)\]", line)[:2])
    return block[::-1], thread[::-1]


def _triple(xyz: tuple) -> str:
    """A block or thread index as a launch's dimensions are written: (x,y,z)."""
    return "({},{},{})".format(*xyz)


def barrier_in_call(callee, site, caller: str) -> VMError:
    """A barrier in a function that stayed a call (the VM runs a call to its end, warp by
    warp, so the block's other warps cannot reach the barrier meanwhile): an error located
    at the call, saying what to do."""
    why, fix = (("it is __noinline__", f"remove __noinline__ from '{callee.name}'") if callee.inline == "never" else
                ("calls are kept at -O0/-G", f"mark '{callee.name}' __forceinline__ or compile at -O1 or above"))
    return VMError("unsupported", f"__syncthreads() inside '{callee.name}', called here from '{caller}', is not "
                                  f"supported in a function that stays a call ({why}): {fix}",
                   site.loc if site is not None and site.loc is not None else callee.loc)
