"""The CUDA runtime and C library subset that programs call (CALL.RT), run by the VM.

A CALL.RT names a function of the builtin table (minicuda/builtins.py); its row
says which method here runs it (`rt_<impl>`, one for host and one for device
code) and whether it may be called from that side at all.  Every method receives
its arguments as raw 64-bit register values and returns a raw value (a double as
its bit pattern); it reads and writes program memory through `Memory`, so a bad
pointer is caught like any other access.  Number parsing and printf formatting are
vm/libc.py's glibc-exact functions; nothing here converts on its own.  Host output
goes to `stdout`/`stderr` as the program writes it; device printf output is
buffered per launch and flushed at the next synchronisation, as CUDA does.
`rand()` is glibc's, so programs print the numbers they print natively.

It is over 800 lines because each runtime function a program may call is one method
here, with CUDA's checks and error codes (memory of five kinds, streams, events, device
queries, the C library); vm/stdio.py holds the FILE streams.
"""
from __future__ import annotations

import functools
import os
import struct
import threading
import sys
import time

import numpy as np

from minicuda import builtins
from minicuda.arch import STATIC_SHARED_LIMIT, family_of, max_grid_dims, ptxas_registers, shared_optin
from minicuda.timing import TIMES
from minicuda.vm import libc
from minicuda.vm.launch_checks import set_max_dynamic_shared
from minicuda.vm.libc import GlibcRandom, PrintfError, format_printf
from minicuda.vm.memory import HOST, OutOfMemory
from minicuda.vm.timing_model import copy_seconds
from minicuda.vm.occupancy import active_blocks, max_threads_per_block, potential_block_size
from minicuda.vm.stdio import StdioCalls
from minicuda.vm.tools import leak_reports

ERROR_STRINGS = {0: "no error", 1: "invalid argument", 12: "invalid pitch argument", 2: "out of memory", 3: "initialization error",
                 719: "unspecified launch failure", 9: "invalid configuration argument", 17: "invalid device pointer",
                 21: "invalid copy direction for memcpy", 100: "no CUDA-capable device is detected",
                 101: "invalid device ordinal",
                 700: "an illegal memory access was encountered", 702: "the launch timed out and was terminated",
                 215: "limit is not supported on this architecture", 98: "invalid device function",
                 13: "invalid device symbol", 400: "invalid resource handle", 600: "device not ready",
                 701: "too many resources requested for launch",
                 710: "device-side assert triggered", 716: "misaligned address",
                 712: "part or all of the requested memory range is already mapped",
                 713: "pointer does not correspond to a registered memory region",
                 65: "launch would exceed maximum depth of nested launches",
                 69: "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount",
                 720: "too many blocks in cooperative launch"}
ERROR_NAMES = {0: "cudaSuccess", 1: "cudaErrorInvalidValue", 12: "cudaErrorInvalidPitchValue", 2: "cudaErrorMemoryAllocation", 700: "cudaErrorIllegalAddress",
               702: "cudaErrorLaunchTimeout",
               9: "cudaErrorInvalidConfiguration", 17: "cudaErrorInvalidDevicePointer", 101: "cudaErrorInvalidDevice",
               215: "cudaErrorUnsupportedLimit", 98: "cudaErrorInvalidDeviceFunction",
               3: "cudaErrorInitializationError", 13: "cudaErrorInvalidSymbol", 21: "cudaErrorInvalidMemcpyDirection",
               100: "cudaErrorNoDevice", 400: "cudaErrorInvalidResourceHandle", 600: "cudaErrorNotReady",
               701: "cudaErrorLaunchOutOfResources",
               710: "cudaErrorAssert", 716: "cudaErrorMisalignedAddress", 719: "cudaErrorLaunchFailure",
               712: "cudaErrorHostMemoryAlreadyRegistered", 713: "cudaErrorHostMemoryNotRegistered",
               65: "cudaErrorLaunchMaxDepthExceeded", 69: "cudaErrorLaunchPendingCountExceeded",
               720: "cudaErrorCooperativeLaunchTooLarge"}
INVALID_VALUE, INVALID_SYMBOL, INVALID_DIRECTION, INVALID_DEVICE, INVALID_HANDLE = 1, 13, 21, 101, 400
INVALID_PITCH, INVALID_DEVICE_FUNCTION = 12, 98
PITCH_ALIGNMENT = 512   # cudaMallocPitch rounds a row up to the texture pitch alignment
MAX_PITCH = 2147483647   # cudaDeviceProp.memPitch: the widest pitch cudaMemcpy2D takes
# cudaDeviceGetStreamPriorityRange: (least, greatest); lower numbers are higher priorities
STREAM_PRIORITIES = (0, -5)
MEMORY_LOCATION_DEVICE, MEMORY_LOCATION_HOST = 1, 2   # cudaMemLocationType values
DEVICE_FLAGS = 0x1F   # the flag bits cudaSetDeviceFlags knows (schedule, map host, local memory)
# cudaPointerGetAttributes' cudaMemoryType of each memory space (others: unregistered host memory)
MEMORY_TYPES = {"global": 2, "constant": 2, "pinned": 1, "managed": 3}
ALREADY_REGISTERED, NOT_REGISTERED = 712, 713
# Streams.  Every operation runs when the host issues it, in program order: a valid schedule of
# any stream order (a correct program prints the same), so every stream is idle between calls.
# A stream handle is an opaque value: cudaStreamCreate's, or 0, cudaStreamLegacy, cudaStreamPerThread.
DEFAULT_STREAMS = frozenset({0, 1, 2})
STREAM_HANDLES = 0x6000_0000_0000
CUDA_VERSION = 13000   # cudaRuntimeGetVersion and cudaDriverGetVersion, as CUDA 13.0 reports them
HOST_ALLOC_FLAGS, HOST_REGISTER_FLAGS = 0x7, 0xF   # the flag bits cudaHostAlloc and cudaHostRegister know
MANAGED_FLAGS = (1, 2)   # cudaMemAttachGlobal, cudaMemAttachHost
EVENT_DISABLE_TIMING = 0x2
# the calls that wait for the device, and so report a fault of a kernel launched before them
SYNCHRONIZING = frozenset({"cudaDeviceSynchronize", "cudaMemcpy", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol",
                           "cudaMemcpy2D", "cudaMemset2D",
                           "cudaMemset", "cudaFree", "cudaFreeHost", "cudaEventSynchronize", "cudaDeviceReset",
                           "cudaStreamSynchronize"})
# --trace's timeline: the calls that put work on a stream -> the index of their stream argument
# (None: the legacy default stream); each is a line "stream N: call", in the order it runs
STREAM_ARGUMENT = {"cudaMemcpyAsync": 4, "cudaMemsetAsync": 3, "cudaMemcpy2DAsync": 7, "cudaMemset2DAsync": 5,
                   "cudaEventRecord": 1, "cudaStreamWaitEvent": 0, "cudaStreamSynchronize": 0,
                   "cudaLaunchHostFunc": 0, "cudaStreamAddCallback": 0, "cudaMemPrefetchAsync": 3,
                   "cudaMemcpy": None, "cudaMemset": None, "cudaMemcpy2D": None, "cudaMemset2D": None,
                   "cudaDeviceSynchronize": None}
# cudaMemcpyKind: which of (dst, src) is device memory; None: either (cudaMemcpyDefault)
COPY_KINDS = {0: (False, False), 1: (True, False), 2: (False, True), 3: (True, True), 4: (None, None)}
DEVICE_MEMORY = ("global", "constant", "pinned", "managed")   # what a cudaMemcpy's device pointer may point into
TCACHE_MAX = 1032   # the largest block glibc's tcache keeps: its double free is reported as a tcache one
# cudaDeviceSetLimit's limits and their defaults: cudaLimitStackSize (bytes per thread), the
# printf FIFO and the malloc heap (bytes); the heap's changes nothing here; the device
# runtime's sync depth (accepted) and pending-launch count (vm/nested.py)
LIMIT_DEFAULTS = {0: 1024, 1: 8650752, 2: 8 << 20, 3: 2, 4: 2048}
STACK_LIMIT = 0
PENDING_LAUNCHES, PENDING_SLOTS = 4, 32   # cudaLimitDevRuntimePendingLaunchCount, rounded up to 32s
# Device printf goes through a FIFO of cudaLimitPrintfFifoSize bytes, emptied onto stdout at
# each synchronisation (cudaDeviceSynchronize, a blocking cudaMemcpy, the program's end); a
# record takes PRINTF_RECORD bytes whatever its format, and the records past a full FIFO are
# dropped, the first kept.  Measured on an H100 with CUDA 13 (tests/data/groundtruth/issue12):
# the default size, the 256-byte record (2048 lines of 16384 with a 524288-byte FIFO, for
# every format), sizes below PRINTF_FIFO_MIN raised to it, and the size fixed once a kernel
# has run (cudaErrorInvalidValue after that).
PRINTF_FIFO = 1
PRINTF_RECORD = 256
PRINTF_FIFO_MIN = 524288
FUNC_MAX_DYNAMIC_SHARED, FUNC_SHARED_CARVEOUT = 8, 9   # cudaFuncAttribute values

# name, SM count, warp size, shared per block, regs per block, max threads per block, major, minor,
# global memory (GiB), clock (kHz), memory clock (kHz), bus width, L2 bytes, max threads per SM
DEVICES = {
    "fermi": ("Tesla M2090", 16, 48 * 1024, 32768, 1024, 2, 0, 6, 1301000, 1848000, 384, 786432, 1536),
    "kepler": ("Tesla K40c", 15, 48 * 1024, 65536, 1024, 3, 5, 12, 745000, 3004000, 384, 1572864, 2048),
    "maxwell": ("Tesla M40", 24, 48 * 1024, 65536, 1024, 5, 2, 12, 1112000, 3004000, 384, 3145728, 2048),
    "pascal": ("Tesla P100-PCIE-16GB", 56, 48 * 1024, 65536, 1024, 6, 0, 16, 1328500, 715000, 4096, 4194304, 2048),
    "volta": ("Tesla V100-SXM2-16GB", 80, 48 * 1024, 65536, 1024, 7, 0, 16, 1530000, 877000, 4096, 6291456, 2048),
    "turing": ("Tesla T4", 40, 48 * 1024, 65536, 1024, 7, 5, 15, 1590000, 5001000, 256, 4194304, 1024),
    "ampere": ("NVIDIA A100-SXM4-40GB", 108, 48 * 1024, 65536, 1024, 8, 0, 40, 1410000, 1215000, 5120, 41943040, 2048),
    "ada": ("NVIDIA L4", 58, 48 * 1024, 65536, 1024, 8, 9, 22, 2040000, 6251000, 192, 50331648, 1536),
    "hopper": ("NVIDIA H100 80GB HBM3", 132, 48 * 1024, 65536, 1024, 9, 0, 80, 1980000, 2619000, 5120, 52428800, 2048),
}
DEVICES["blackwell"] = DEVICES["hopper"]   # no Blackwell board described yet: sm_100 and sm_120 report an H100

# cudaDeviceGetAttribute: cudaDeviceAttr -> the cudaDeviceProp field (and index) it reports
DEVICE_ATTRIBUTES = {
    1: ("maxThreadsPerBlock", None), 2: ("maxThreadsDim", 0), 3: ("maxThreadsDim", 1), 4: ("maxThreadsDim", 2),
    5: ("maxGridSize", 0), 6: ("maxGridSize", 1), 7: ("maxGridSize", 2), 8: ("sharedMemPerBlock", None),
    9: ("totalConstMem", None), 10: ("warpSize", None), 11: ("memPitch", None), 12: ("regsPerBlock", None),
    13: ("clockRate", None), 14: ("textureAlignment", None), 15: ("deviceOverlap", None),
    16: ("multiProcessorCount", None), 17: ("kernelExecTimeoutEnabled", None), 18: ("integrated", None),
    19: ("canMapHostMemory", None), 20: ("computeMode", None), 31: ("concurrentKernels", None),
    32: ("ECCEnabled", None), 36: ("memoryClockRate", None), 37: ("memoryBusWidth", None),
    38: ("l2CacheSize", None), 39: ("maxThreadsPerMultiProcessor", None), 40: ("asyncEngineCount", None),
    41: ("unifiedAddressing", None), 75: ("major", None), 76: ("minor", None),
    81: ("sharedMemPerMultiprocessor", None), 82: ("regsPerMultiprocessor", None), 83: ("managedMemory", None),
    89: ("concurrentManagedAccess", None), 95: ("cooperativeLaunch", None), 97: ("sharedMemPerBlockOptin", None),
    106: ("maxBlocksPerMultiProcessor", None),
}


def device_for(arch: int):
    """The properties of the GPU an sm number's family stands for (arch.family_of)."""
    return DEVICES[family_of(arch)]


def error_code(message: str) -> int:
    """The code of the CUDA error a launch fault's message begins with ("cudaErrorX: ...")."""
    name = message.split(":", 1)[0]
    return next((code for code, n in ERROR_NAMES.items() if n == name), 719)


class DeviceAssert(Exception):
    """assert() failed in device code: CUDA's cudaErrorAssert; `report` is CUDA's line for it."""

    def __init__(self, expr: str, file: str, line: int, func: str):
        self.expr, self.file, self.line, self.func = expr, file, line, func
        super().__init__(f"{file}:{line}: {func}: Assertion `{expr}` failed.")

    def report(self, ids: dict, lane: int) -> str:
        """CUDA's message for the failing thread: the block and the thread as [x,y,z]."""
        block, thread = ([int(ids[sr][a][lane]) for a in "XYZ"] for sr in ("SR_CTAID", "SR_TID"))
        return (f"{self.file}:{self.line}: {self.func}: block: [{','.join(map(str, block))}], "
                f"thread: [{','.join(map(str, thread))}] Assertion `{self.expr}` failed.")


class ProgramExit(Exception):
    def __init__(self, code: int, shell_line: str | None = None):
        self.code = code
        self.shell_line = shell_line   # a death by a signal: what the shell prints ("Aborted")


def _s32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def _s64(x: int) -> int:
    x &= 0xFFFFFFFFFFFFFFFF
    return x - (1 << 64) if x >> 63 else x


def _double_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def implementation(name: str, device: bool) -> str:
    """The method (without rt_) that runs the runtime function `name` on that side;
    RuntimeError when the builtin table has no such runtime function or forbids the side."""
    row = builtins.lookup(name)
    if row is not None and row.kind == builtins.MISSING:
        raise RuntimeError(f"'{name}' is not supported")
    if row is None or row.kind != builtins.RUNTIME:
        why = f": {row.reason}" if row is not None and row.reason else ""
        raise RuntimeError(f"the runtime function '{name}' is not supported{why}")
    side = builtins.DEVICE if device else builtins.HOST
    impl = row.implementation(side)
    if impl is None:
        raise RuntimeError(f"'{name}' cannot be called from {side} code")
    return impl


class _TextSink:
    """A text stream with no bytes layer under it (a notebook's, a StringIO that
    contextlib.redirect_stdout put in place) as the bytes stream the runtime writes: the
    program's bytes are decoded as UTF-8, an undecodable byte shown as U+FFFD."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes) -> int:
        self.stream.write(data.decode("utf-8", "replace"))
        return len(data)

    def flush(self) -> None:
        self.stream.flush()


def binary_stream(stream):
    """The bytes layer of a text stream, or a sink that decodes into it where it has none."""
    return getattr(stream, "buffer", None) or _TextSink(stream)


class Runtime(StdioCalls):
    def __init__(self, machine, stdout=None, stderr=None, stdin=None):
        self.machine = machine
        self.memory = machine.memory
        self.out = stdout or binary_stream(sys.stdout)
        self.err = stderr or binary_stream(sys.stderr)
        self.random = GlibcRandom()
        self.device_output: list[bytes] = []   # the printf FIFO's records, one each
        self.fifo_end: int | None = None        # while the JIT formats a block's records: where the FIFO ends for it
        self.launched = False                    # a kernel has run: the FIFO's size is fixed
        self.last_error = 0
        self.local = threading.local()   # .thread: (warp, lane) of a device-side call (JIT workers run side by side)
        self.limits = dict(LIMIT_DEFAULTS)
        self.sticky_error = 0   # a launch that timed out loses the context: every CUDA call returns this
        self.pending_error = 0  # a kernel's fault, reported by the next call that waits for the device
        self.events: dict[int, tuple | None] = {}   # handle -> (wall time, model clock) when recorded
        self.model_clock = 0.0   # seconds of modelled GPU time so far: kernels and copies (vm/timing_model.py)
        self.events_made = 0
        self.untimed_events: set[int] = set()    # created with cudaEventDisableTiming
        self.streams: set[int] = set()            # cudaStreamCreate's live handles
        self.stream_settings: dict[int, tuple[int, int]] = {}   # a stream's (flags, priority)
        self.device_flags = 0                     # cudaSetDeviceFlags'
        self.streams_made = 0
        self.registered: dict[int, object] = {}   # cudaHostRegister's pointer -> the allocation it maps
        self.max_dynamic_shared: dict[str, int] = {}   # kernel -> cudaFuncSetAttribute's maximum
        self.methods: dict[tuple[str, bool], object] = {}   # (name, device) -> the bound rt_ method that runs it
        # (a whole second: the modelled clock's microseconds then do not depend on when the run began)
        self.started = float(int(time.time()))
        self.program_name = "a.out"     # argv[0]'s last part, as glibc's messages name the program
        self.init_stdio(stdin)           # FILE streams (vm/stdio.py)
        self.try_blocks = 0              # the C++ `try` blocks the host thread is in

    def call(self, name: str, args: list[int], device: bool = False) -> int:
        if name in SYNCHRONIZING and self.pending_error and not device:
            self.sticky_error = self.last_error = self.pending_error
            self.pending_error = 0
        if name in STREAM_ARGUMENT and self.machine.interp.trace is not None:
            index = STREAM_ARGUMENT[name]
            self.trace_stream(0 if index is None or index >= len(args) else args[index], name)
        if self.sticky_error and name in builtins.CUDA_RUNTIME:
            if name in SYNCHRONIZING:   # what the kernels printed comes out all the same
                self.flush_device()
            return self.sticky_error
        return self.method(name, device)(*args)

    def method(self, name: str, device: bool):
        """The bound rt_ method that runs `name` on that side (`implementation`'s RuntimeError
        when there is none), looked up once."""
        method = self.methods.get((name, device))
        if method is None:
            method = getattr(self, "rt_" + implementation(name, device))
            if TIMES.on and not device:   # --time-report: each host call of the runtime is timed
                method = TIMES.timed(f"runtime {name}", method)
            self.methods[name, device] = method
        return method

    def fifo_records(self) -> int:
        """How many printf records the FIFO holds."""
        return self.limits[PRINTF_FIFO] // PRINTF_RECORD

    def fifo_full(self) -> bool:
        end = self.fifo_records() if self.fifo_end is None else self.fifo_end
        return len(self.device_output) >= end

    def flush_device(self) -> None:
        if self.device_output:
            self.out.write(b"".join(self.device_output))
            self.device_output.clear()
            self.out.flush()

    def format(self, args: list[int]) -> bytes:
        fmt = self.memory.read_cstring(args[0])
        try:
            return format_printf(fmt, args[1:], self.memory.read_cstring)
        except PrintfError as e:
            raise RuntimeError(f"printf: {e}") from None

    def read_string(self, p: int, limit: int) -> bytes:
        """At most `limit` bytes of the string at p, stopping at a NUL (which need not come)."""
        out = bytearray()
        while len(out) < limit:
            byte = self.memory.read(p + len(out), 1)
            if byte == b"\0":
                break
            out += byte
        return bytes(out)

    def write_string(self, p: int, text: bytes) -> int:
        self.memory.write(p, text + b"\0")
        return p

    # ---- stdio -------------------------------------------------------------------------------
    def rt_printf(self, *args) -> int:
        text = self.format(list(args))
        self.out.write(text)
        return len(text)

    def rt_device_printf(self, *args) -> int:
        if not self.fifo_full():   # else dropped, unformatted
            self.device_output.append(self.format(list(args)))
        return 0

    def rt_sprintf(self, buffer, *args) -> int:
        text = self.format(list(args))
        self.write_string(buffer, text)
        return len(text)

    def rt_snprintf(self, buffer, size, *args) -> int:
        text = self.format(list(args))
        if size:
            self.write_string(buffer, text[:size - 1])
        return len(text)

    def rt_puts(self, s) -> int:
        self.out.write(self.memory.read_cstring(s) + b"\n")
        return 1

    def rt_putchar(self, c) -> int:
        self.out.write(bytes([c & 0xFF]))
        return c & 0xFF

    # ---- stdlib ---------------------------------------------------------------------------
    def rt_malloc(self, size) -> int:
        """The block's address; NULL when the simulated memory cannot hold it, as glibc's
        malloc returns NULL for a size it cannot map."""
        return self.host_alloc(size, f"malloc({size})")

    def rt_device_malloc(self, size) -> int:
        """Device code's malloc (and new): the device heap, in global memory; NULL when full."""
        try:
            return self.memory.alloc(size, "global", f"malloc({size}) in device code", align=16)
        except OutOfMemory:
            return 0

    def rt_device_free(self, p) -> int:
        """Device code's free (and delete): a pointer the device heap did not give is ignored."""
        if p:
            self.memory.free(p, "global")
        return 0

    def rt_calloc(self, n, size) -> int:
        return self.host_alloc(n * size, f"calloc({n}, {size})")

    def host_alloc(self, size: int, name: str) -> int:
        try:
            return self.memory.alloc(size, "host", name, align=16)
        except OutOfMemory:
            return 0

    def rt_free(self, p) -> int:
        """glibc's free: a pointer malloc did not return, or one freed already, is reported
        as glibc reports it, and the program aborts."""
        if p and not self.memory.free(p, "host"):
            a = self.memory.find(p)
            if a is not None and a.base == p and a.space == "host":   # freed before
                self.glibc_abort("free(): double free detected in tcache 2" if a.size <= TCACHE_MAX else
                                 "double free or corruption (!prev)")
            self.glibc_abort("free(): invalid pointer")
        return 0

    def glibc_abort(self, message: str) -> None:
        """glibc's report of a corrupted heap, then abort()."""
        sys.stdout.flush()
        self.out.flush()
        self.err.write(message.encode() + b"\n")
        self.rt_abort()

    def rt_realloc(self, p, size) -> int:
        if not p:
            return self.rt_malloc(size)
        old = self.memory.find(p)
        if old is None or old.base != p or old.freed or old.space != "host":
            self.glibc_abort("realloc(): invalid pointer")
        if not size:
            return self.rt_free(p)
        new = self.rt_malloc(size)
        if not new:   # the old block stays, as glibc's realloc leaves it
            return 0
        self.memory.write(new, self.memory.read(p, min(old.size, size)))
        self.rt_free(p)
        return new

    def rt_getenv(self, name) -> int:
        value = os.environ.get(self.memory.read_cstring(name).decode("latin-1"))
        return self.machine.string(value.encode("latin-1", "replace")) if value is not None else 0

    # ---- stdlib: numbers from strings (vm/libc.py) --------------------------------------------
    def store_end(self, end, s, consumed) -> None:
        if end:
            self.memory.write(end, struct.pack("<Q", s + consumed))

    def rt_qsort(self, base, n, size, compar) -> int:
        """glibc's qsort as a merge sort (stable, as glibc's is while it can allocate): the
        user's comparator is called on pointers into a copy of the elements."""
        if n <= 1 or size == 0:
            return 0
        data = self.memory.read(base, n * size)
        copy = self.memory.alloc(n * size, "host", "qsort's copy of the elements", align=16, init=data)
        try:
            def order(i: int, j: int) -> int:
                return _s32(self.machine.call_pointer(compar, [copy + i * size, copy + j * size]))
            ranked = sorted(range(n), key=functools.cmp_to_key(order))
        finally:
            self.memory.free(copy, "host")
        self.memory.write(base, b"".join(data[i * size:(i + 1) * size] for i in ranked))
        return 0

    def rt_bsearch(self, key, base, n, size, compar) -> int:
        """glibc's bsearch: halving [0, n) with compar(key, element); the element found or NULL."""
        lo, hi = 0, n
        while lo < hi:
            mid = (lo + hi) // 2
            element = base + mid * size
            c = _s32(self.machine.call_pointer(compar, [key, element]))
            if c < 0:
                hi = mid
            elif c > 0:
                lo = mid + 1
            else:
                return element
        return 0

    def rt_atoi(self, s) -> int:
        return libc.atoi(self.memory.read_cstring(s))

    def rt_atol(self, s) -> int:
        return libc.strtol(self.memory.read_cstring(s), 10)[0]

    def rt_atof(self, s) -> int:
        return _double_bits(libc.atof(self.memory.read_cstring(s)))

    def rt_strtol(self, s, end, base) -> int:
        return self.parse_integer(libc.strtol, s, end, base)

    def rt_strtoul(self, s, end, base) -> int:
        return self.parse_integer(libc.strtoul, s, end, base)

    def parse_integer(self, parse, s, end, base) -> int:
        """strtol/strtoul: the value; *end set as glibc sets it (not for an invalid base)."""
        base = _s32(base)
        value, consumed = parse(self.memory.read_cstring(s), base)
        if libc.valid_base(base):
            self.store_end(end, s, consumed)
        return value

    def rt_strtod(self, s, end) -> int:
        value, consumed = libc.strtod(self.memory.read_cstring(s))
        self.store_end(end, s, consumed)
        return _double_bits(value)

    def rt_strtof(self, s, end) -> int:
        value, consumed = libc.strtof(self.memory.read_cstring(s))
        self.store_end(end, s, consumed)
        return int(np.float32(value).view(np.uint32))

    def rt_rand(self) -> int:
        return self.random.rand()

    def rt_srand(self, seed) -> int:
        self.random.srand(seed & 0xFFFFFFFF)
        return 0

    def rt_exit(self, code) -> int:
        raise ProgramExit(_s32(code))

    def rt_abort(self) -> int:
        """SIGABRT: the program dies, and the shell says so."""
        raise ProgramExit(134, "Aborted")

    def rt_assert_fail(self, expr, file, line, func) -> int:
        """glibc's message for a failed assert(), then abort()."""
        read = self.memory.read_cstring
        sys.stdout.flush()
        self.out.flush()
        self.err.write(b"%s: %s:%d: %s: Assertion `%s' failed.\n"
                       % (self.program_name.encode(), read(file), line & 0xFFFFFFFF, read(func), read(expr)))
        self.err.flush()
        return self.rt_abort()

    def rt_device_assert_fail(self, expr, file, line, func) -> int:
        """A failed assert() in device code: the launch fails (the machine adds the thread)."""
        text = lambda address: self.memory.read_cstring(address).decode("utf-8", "replace")
        raise DeviceAssert(text(expr), text(file), line & 0xFFFFFFFF, text(func))

    # ---- C++ exceptions, <unistd.h>, <omp.h> -----------------------------------------------------
    def rt_try_blocks(self, step) -> int:
        self.try_blocks += _s32(step)
        return 0

    def rt_throw(self, kind, what, std) -> int:
        """An uncaught exception: libstdc++'s terminate message, then abort().  One thrown
        inside a `try` block would be caught, which minicuda does not do: an error."""
        name = self.memory.read_cstring(kind)
        if self.try_blocks > 0:
            raise RuntimeError(f"an exception ('{name.decode()}') thrown inside a 'try' block: catching "
                               f"exceptions is not supported")
        text = b"terminate called after throwing an instance of '%s'\n" % name
        if std:
            text += b"  what():  %s\n" % (self.memory.read_cstring(what) if what else name)
        sys.stdout.flush()
        self.out.flush()
        self.err.write(text)
        self.err.flush()
        return self.rt_abort()

    def rt_sleep(self, seconds) -> int:
        time.sleep(seconds & 0xFFFFFFFF)
        return 0

    def rt_usleep(self, microseconds) -> int:
        time.sleep((microseconds & 0xFFFFFFFF) / 1e6)
        return 0

    def rt_omp_get_wtime(self) -> int:
        return _double_bits(self.host_now())

    def rt_one(self, *args) -> int:
        return 1

    def rt_zero(self, *args) -> int:
        return 0

    # ---- string.h ---------------------------------------------------------------------------
    def rt_memset(self, p, c, n) -> int:
        self.memory.fill(p, c, n)
        return p

    def rt_memcpy(self, dst, src, n) -> int:
        self.memory.copy(dst, src, n)
        return dst

    def rt_memcmp(self, a, b, n) -> int:
        return _difference(self.memory.read(a, n), self.memory.read(b, n))

    def rt_strlen(self, s) -> int:
        return len(self.memory.read_cstring(s))

    def rt_strcmp(self, a, b) -> int:
        return _difference(self.memory.read_cstring(a) + b"\0", self.memory.read_cstring(b) + b"\0")

    def rt_strncmp(self, a, b, n) -> int:
        return _difference(self.read_string(a, n) + b"\0", self.read_string(b, n) + b"\0")

    def rt_strcpy(self, dst, src) -> int:
        return self.write_string(dst, self.memory.read_cstring(src))

    def rt_strncpy(self, dst, src, n) -> int:
        self.memory.write(dst, self.read_string(src, n).ljust(n, b"\0"))
        return dst

    def rt_strcat(self, dst, src) -> int:
        self.write_string(dst + len(self.memory.read_cstring(dst)), self.memory.read_cstring(src))
        return dst

    def rt_strchr(self, s, c) -> int:
        at = (self.memory.read_cstring(s) + b"\0").find(bytes([c & 0xFF]))
        return s + at if at >= 0 else 0

    def rt_strstr(self, haystack, needle) -> int:
        at = self.memory.read_cstring(haystack).find(self.memory.read_cstring(needle))
        return haystack + at if at >= 0 else 0

    # ---- time ----------------------------------------------------------------------------
    def rt_time(self, p) -> int:
        now = int(time.time())
        if p:
            self.memory.write(p, struct.pack("<q", now))
        return now

    def rt_clock(self) -> int:
        return int(time.process_time() * 1_000_000)

    def rt_clock64(self) -> int:
        """Device clock64()/clock(): a counter that only grows (nanoseconds of the host
        clock standing in for SM cycles: the VM does not model time)."""
        return time.perf_counter_ns()

    def rt_grid_is_valid(self) -> int:
        """<cooperative_groups.h>'s grid_group::is_valid(): whether the kernel runs in a
        cooperative launch (nvcc's header: whether the driver gave it a grid workspace)."""
        return int(self.machine.interp.cooperative)

    def rt_difftime(self, end, start) -> int:
        return _double_bits(float(_s64(end) - _s64(start)))

    def rt_gettimeofday(self, tv, tz) -> int:
        now = self.host_now()
        self.memory.write(tv, struct.pack("<qq", int(now), int((now % 1) * 1_000_000)))
        return 0

    # ---- the CUDA runtime -------------------------------------------------------------------
    def _status(self, code: int) -> int:
        if code:
            self.last_error = code
        return code

    def rt_cudaMalloc(self, pp, size) -> int:
        """CUDA's: a NULL pp is cudaErrorInvalidValue; a size that does not fit is
        cudaErrorMemoryAllocation with *pp unchanged; size 0 is success with *pp NULL."""
        if not pp:
            return self._status(INVALID_VALUE)
        try:
            address = self.memory.alloc(size, "global", f"cudaMalloc({size})", align=256) if size else 0
        except OutOfMemory:
            return self._status(2)
        self.memory.write(pp, struct.pack("<Q", address))
        return 0

    def rt_cudaMallocHost(self, pp, size) -> int:
        """Pinned host memory, which kernels reach too (vm/memory.py's REACH)."""
        return self.alloc_into(pp, size, "pinned", f"cudaMallocHost({size})")

    def rt_cudaFree(self, p) -> int:
        """NULL is success; anything but a live cudaMalloc'd or cudaMallocManaged block's start
        is cudaErrorInvalidValue."""
        if p and not self.memory.free(p, "global") and not self.memory.free(p, "managed"):
            return self._status(INVALID_VALUE)
        return 0

    def rt_cudaHostAlloc(self, pp, size, flags) -> int:
        """cudaMallocHost with flags (portable, mapped, write-combined: all mapped here, as
        with unified addressing)."""
        if flags & ~HOST_ALLOC_FLAGS & 0xFFFFFFFF:
            return self._status(INVALID_VALUE)
        return self.alloc_into(pp, size, "pinned", f"cudaHostAlloc({size})")

    def rt_cudaMallocManaged(self, pp, size, flags) -> int:
        """Managed memory, which host and device code both reach; size 0 and flags other than
        cudaMemAttachGlobal / cudaMemAttachHost are cudaErrorInvalidValue, as CUDA's."""
        if not size or (flags & 0xFFFFFFFF) not in MANAGED_FLAGS:
            return self._status(INVALID_VALUE)
        return self.alloc_into(pp, size, "managed", f"cudaMallocManaged({size})")

    def alloc_into(self, pp: int, size: int, space: str, name: str) -> int:
        """A new block of `space` written to *pp (NULL for size 0); cudaErrorInvalidValue for
        a NULL pp, cudaErrorMemoryAllocation when it does not fit."""
        if not pp:
            return self._status(INVALID_VALUE)
        try:
            address = self.memory.alloc(size, space, name, align=256) if size else 0
        except OutOfMemory:
            return self._status(2)
        self.memory.write(pp, struct.pack("<Q", address))
        return 0

    def rt_cudaHostGetDevicePointer(self, pp, host, flags) -> int:
        """With unified addressing the device pointer of mapped memory is the host pointer;
        memory neither pinned, managed nor registered is cudaErrorInvalidValue."""
        a = self.memory.find(host)
        mapped = a is not None and not a.freed and (a.space in ("pinned", "managed") or a.registered)
        if not pp or flags or not mapped:
            return self._status(INVALID_VALUE)
        self.memory.write(pp, struct.pack("<Q", host))
        return 0

    def rt_cudaHostRegister(self, p, size, flags) -> int:
        """Device code reaches the host allocation holding [p, p + size) until it is unregistered."""
        a = self.memory.find(p)
        if not p or not size or flags & ~HOST_REGISTER_FLAGS & 0xFFFFFFFF or a is None or a.freed \
                or a.space not in ("host", "static", "stack") or p + size > a.base + a.size:
            return self._status(INVALID_VALUE)
        if a.registered:
            return self._status(ALREADY_REGISTERED)
        self.memory.register(a, True)
        self.registered[p] = a
        return 0

    def rt_cudaHostUnregister(self, p) -> int:
        a = self.registered.pop(p, None)
        if a is None:
            return self._status(NOT_REGISTERED)
        self.memory.register(a, False)
        return 0

    def rt_cudaMemPrefetchAsync(self, p, n, device, stream) -> int:
        """Accepted: memory does not move here.  CUDA's checks: a managed range, a device."""
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.managed_range(p, n, device)

    def rt_cudaMemAdvise(self, p, n, advice, device) -> int:
        """Accepted, changing nothing; the advice must be one of CUDA's six."""
        if not 1 <= _s32(advice) <= 6:
            return self._status(INVALID_VALUE)
        return self.managed_range(p, n, device)

    def rt___cudaMemPrefetchAsyncTo(self, p, n, kind, id, flags, stream) -> int:
        """CUDA 13's cudaMemPrefetchAsync(p, n, location, flags, stream): a device's or the
        host's location; flags must be 0."""
        device = self.location_device(kind, id)
        if device is None or flags & 0xFFFFFFFF:
            return self._status(INVALID_VALUE)
        return self.rt_cudaMemPrefetchAsync(p, n, device, stream)

    def rt___cudaMemAdviseFor(self, p, n, advice, kind, id) -> int:
        device = self.location_device(kind, id)
        if device is None:
            return self._status(INVALID_VALUE)
        return self.rt_cudaMemAdvise(p, n, advice, device)

    @staticmethod
    def location_device(kind: int, id: int) -> int | None:
        """A cudaMemLocation as CUDA 12's device argument: its device's ordinal, or
        cudaCpuDeviceId for the host; None for the other types."""
        kind = _s32(kind)
        return _s32(id) if kind == MEMORY_LOCATION_DEVICE else -1 if kind == MEMORY_LOCATION_HOST else None

    def managed_range(self, p: int, n: int, device: int) -> int:
        a = self.memory.find(p)
        if a is None or a.freed or a.space != "managed" or not n or p + n > a.base + a.size:
            return self._status(INVALID_VALUE)
        return 0 if _s32(device) in (0, -1) else self._status(INVALID_DEVICE)

    def rt_cudaFreeHost(self, p) -> int:
        if p and not self.memory.free(p, "pinned"):
            return self._status(INVALID_VALUE)
        return 0

    def rt_cudaMemcpy(self, dst, src, n, kind) -> int:
        self.flush_device()
        return self.copy(dst, src, n, kind)

    def rt_cudaMemcpyAsync(self, dst, src, n, kind, stream) -> int:
        """Run at issue, as cudaMemcpy (a valid schedule); not a synchronisation."""
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.copy(dst, src, n, kind)

    def copy(self, dst: int, src: int, n: int, kind: int) -> int:
        """cudaMemcpy's copy and CUDA's checks: the direction, NULL pointers, and each pointer
        the direction says is device memory in one live device allocation with room for n
        bytes (else cudaErrorInvalidValue); host memory is read and written as host code
        would, so a bad host pointer is SIGSEGV as it is in a native program."""
        sides = COPY_KINDS.get(_s32(kind))
        if sides is None:
            return self._status(INVALID_DIRECTION)
        if not n:
            return 0
        if not dst or not src:
            return self._status(INVALID_VALUE)
        dst_device, src_device = (self.is_device(p) if device is None else device for p, device in zip((dst, src), sides))
        if (dst_device and not self.device_range(dst, n)) or (src_device and not self.device_range(src, n)):
            return self._status(INVALID_VALUE)
        self.memory.copy(dst, src, n, None if dst_device else HOST, None if src_device else HOST)
        if self.machine.gpu is not None:
            direction = {(True, False): "h2d", (False, True): "d2h", (True, True): "d2d"}.get((dst_device, src_device), "")
            self.model_clock += copy_seconds(n, direction, self.machine.gpu)
        return 0

    def rt_cudaMemsetAsync(self, p, value, n, stream) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.rt_cudaMemset(p, value, n)

    def rt_cudaMemset(self, p, value, n) -> int:
        if n and not self.device_range(p, n):
            return self._status(INVALID_VALUE)
        self.memory.fill(p, value, n, side=None)
        return 0

    def is_device(self, address: int) -> bool:
        """Whether `address` is device memory, as cudaMemcpyDefault tells with unified addressing."""
        a = self.memory.find(address)
        return a is not None and a.space in DEVICE_MEMORY

    def device_range(self, address: int, n: int) -> bool:
        """Whether [address, address + n) lies in one live device allocation (CUDA checks
        the range and returns cudaErrorInvalidValue when it does not)."""
        a = self.memory.find(address)
        return a is not None and not a.freed and a.space in DEVICE_MEMORY and address + n <= a.base + a.size

    def symbol_range(self, symbol: int, n: int, offset: int) -> int:
        """0 when `symbol` is a __device__ or __constant__ variable with room for n bytes at
        offset; else the error CUDA returns."""
        a = self.memory.find(symbol)
        if a is None or a.base != symbol or a.space not in ("global", "constant", "managed") or a.freed:
            return INVALID_SYMBOL
        return INVALID_VALUE if offset + n > a.size else 0

    def rt_cudaMemcpyToSymbol(self, symbol, src, n, offset, kind) -> int:
        return self.copy_symbol(symbol, src, n, offset, _s32(kind), to_symbol=True)

    def rt_cudaMemcpyFromSymbol(self, dst, symbol, n, offset, kind) -> int:
        return self.copy_symbol(symbol, dst, n, offset, _s32(kind), to_symbol=False)

    def copy_symbol(self, symbol: int, other: int, n: int, offset: int, kind: int, to_symbol: bool) -> int:
        """cudaMemcpyTo/FromSymbol: `other` is the source or the destination, host or device
        memory as `kind` says (a kind that moves the wrong way is an invalid direction)."""
        self.flush_device()
        if kind not in ((1, 3, 4) if to_symbol else (2, 3, 4)):
            return self._status(INVALID_DIRECTION)
        error = self.symbol_range(symbol, n, offset)
        if error:
            return self._status(error)
        if not n:
            return 0
        device = kind == 3 or (kind == 4 and self.is_device(other))
        if not other or (device and not self.device_range(other, n)):
            return self._status(INVALID_VALUE)
        side = None if device else HOST
        if to_symbol:
            self.memory.copy(symbol + offset, other, n, None, side)
        else:
            self.memory.copy(other, symbol + offset, n, side, None)
        return 0

    # pitched memory: rows of `width` bytes, `pitch` bytes apart
    def rt_cudaMallocPitch(self, pp, pitch_p, width, height) -> int:
        """Rows rounded up to PITCH_ALIGNMENT bytes; *pitch is the rounded width."""
        if not pp or not pitch_p:
            return self._status(INVALID_VALUE)
        pitch = -(-width // PITCH_ALIGNMENT) * PITCH_ALIGNMENT
        error = self.alloc_into(pp, pitch * height, "global", f"cudaMallocPitch({width}, {height})")
        if not error:
            self.memory.write(pitch_p, struct.pack("<Q", pitch))
        return error

    def rt_cudaMemcpy2D(self, dst, dpitch, src, spitch, width, height, kind) -> int:
        self.flush_device()
        return self.copy_2d(dst, dpitch, src, spitch, width, height, kind)

    def rt_cudaMemcpy2DAsync(self, dst, dpitch, src, spitch, width, height, kind, stream) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.copy_2d(dst, dpitch, src, spitch, width, height, kind)

    def copy_2d(self, dst: int, dpitch: int, src: int, spitch: int, width: int, height: int, kind: int) -> int:
        """`height` rows of `width` bytes; a pitch narrower than a row or wider than memPitch
        is cudaErrorInvalidPitchValue; each row is checked as cudaMemcpy checks it, all of
        them before any is copied."""
        if width > dpitch or width > spitch or max(dpitch, spitch) > MAX_PITCH:
            return self._status(INVALID_PITCH)
        if not width or not height:
            return self._status(INVALID_DIRECTION) if _s32(kind) not in COPY_KINDS else 0
        sides = COPY_KINDS.get(_s32(kind))
        if sides is None:
            return self._status(INVALID_DIRECTION)
        last = height - 1
        for p, pitch, device in ((dst, dpitch, sides[0]), (src, spitch, sides[1])):
            if not p:
                return self._status(INVALID_VALUE)
            if (self.is_device(p) if device is None else device) and not self.device_range(p, last * pitch + width):
                return self._status(INVALID_VALUE)
        for row in range(height):
            error = self.copy(dst + row * dpitch, src + row * spitch, width, kind)
            if error:
                return error
        return 0

    def rt_cudaMemset2D(self, p, pitch, value, width, height) -> int:
        self.flush_device()
        return self.fill_2d(p, pitch, value, width, height)

    def rt_cudaMemset2DAsync(self, p, pitch, value, width, height, stream) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.fill_2d(p, pitch, value, width, height)

    def fill_2d(self, p: int, pitch: int, value: int, width: int, height: int) -> int:
        if width > pitch:
            return self._status(INVALID_PITCH)
        if not width or not height:
            return 0
        if not self.device_range(p, (height - 1) * pitch + width):
            return self._status(INVALID_VALUE)
        for row in range(height):
            self.memory.fill(p + row * pitch, value, width, side=None)
        return 0

    # symbols, pointers, device flags
    def rt_cudaGetSymbolAddress(self, pp, symbol) -> int:
        error = self.symbol_range(symbol, 0, 0)
        if error:
            return self._status(error)
        if not pp:
            return self._status(INVALID_VALUE)
        self.memory.write(pp, struct.pack("<Q", symbol))
        return 0

    def rt_cudaGetSymbolSize(self, p, symbol) -> int:
        error = self.symbol_range(symbol, 0, 0)
        if error:
            return self._status(error)
        if not p:
            return self._status(INVALID_VALUE)
        self.memory.write(p, struct.pack("<Q", self.memory.find(symbol).size))
        return 0

    def rt_cudaPointerGetAttributes(self, p, pointer) -> int:
        """CUDA 11 and later: memory CUDA does not know is cudaMemoryTypeUnregistered (device
        -2, no device pointer), not an error; a NULL attributes pointer is."""
        if not p:
            return self._status(INVALID_VALUE)
        a = self.memory.find(pointer)
        live = a is not None and not a.freed
        kind = MEMORY_TYPES.get(a.space, 0) if live else 0
        if live and kind == 0 and a.registered:
            kind = 1
        device = 0 if kind else -2
        device_pointer = pointer if kind else 0
        host_pointer = pointer if kind in (1, 3) else 0
        info = self.machine.struct_layout("cudaPointerAttributes")
        out = bytearray(info.size)
        out[0:24] = struct.pack("<iiQQ", kind, device, device_pointer, host_pointer)
        self.memory.write(p, bytes(out))
        return 0

    def rt_cudaSetDeviceFlags(self, flags) -> int:
        if flags & ~DEVICE_FLAGS & 0xFFFFFFFF or (flags & 0x7) not in (0, 1, 2, 4):
            return self._status(INVALID_VALUE)
        self.device_flags = flags & 0xFFFFFFFF
        return 0

    def rt_cudaGetDeviceFlags(self, p) -> int:
        return self.write_int(p, self.device_flags)

    def rt_cudaMemGetInfo(self, free, total) -> int:
        """The device's memory and what the program's allocations leave of it."""
        if not free or not total:
            return self._status(INVALID_VALUE)
        size = self.device_properties()["totalGlobalMem"]
        self.memory.write(total, struct.pack("<Q", size))
        self.memory.write(free, struct.pack("<Q", max(size - self.memory.live_bytes, 0)))
        return 0

    def rt_cudaProfilerStart(self) -> int:
        return 0

    def rt_cudaProfilerStop(self) -> int:
        return 0

    # a kernel's attributes and occupancy (vm/occupancy.py)
    def kernel_at(self, func: int):
        """The kernel a handle names, or None."""
        name = self.machine.kernel_handles.get(func)
        return None if name is None else self.machine.module.functions[name]

    def rt_cudaFuncGetAttributes(self, p, func) -> int:
        kernel = self.kernel_at(func)
        if kernel is None:
            return self._status(INVALID_DEVICE_FUNCTION)
        if not p:
            return self._status(INVALID_VALUE)
        static = self.machine.kernel_static_shared(kernel.name)
        sm = self.machine.arch
        values = {"sharedSizeBytes": static, "constSizeBytes": 0, "localSizeBytes": kernel.local_bytes,
                  "maxThreadsPerBlock": max_threads_per_block(sm, kernel.registers, kernel.launch_bounds),
                  "numRegs": ptxas_registers(kernel.registers), "ptxVersion": sm, "binaryVersion": sm,
                  "maxDynamicSharedSizeBytes": self.max_dynamic_shared.get(kernel.name, STATIC_SHARED_LIMIT - static),
                  "preferredShmemCarveout": -1}
        info = self.machine.struct_layout("cudaFuncAttributes")
        out = bytearray(info.size)
        for field, (off, size) in info.fields.items():
            out[off:off + size] = int(values.get(field, 0)).to_bytes(size, "little", signed=True)
        self.memory.write(p, bytes(out))
        return 0

    def rt_cudaOccupancyMaxActiveBlocksPerMultiprocessor(self, p, func, block_size, dynamic) -> int:
        return self.rt_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(p, func, block_size, dynamic, 0)

    def rt_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(self, p, func, block_size, dynamic, flags) -> int:
        """Resident blocks per SM; a block size of 0 or beyond the kernel's maximum is 0 blocks."""
        kernel = self.kernel_at(func)
        if kernel is None:
            return self._status(INVALID_DEVICE_FUNCTION)
        if not p or flags & ~1 & 0xFFFFFFFF:
            return self._status(INVALID_VALUE)
        sm, size = self.machine.arch, _s32(block_size)
        most = max_threads_per_block(sm, kernel.registers, kernel.launch_bounds)
        shared = self.machine.kernel_static_shared(kernel.name) + dynamic
        blocks = active_blocks(sm, kernel.registers, shared, size) if 0 < size <= most else 0
        return self.write_int(p, blocks)

    def rt_cudaOccupancyMaxPotentialBlockSize(self, grid_p, block_p, func, dynamic, limit) -> int:
        """The block size of highest occupancy and the smallest grid that fills every SM with it."""
        kernel = self.kernel_at(func)
        if kernel is None:
            return self._status(INVALID_DEVICE_FUNCTION)
        if not grid_p or not block_p:
            return self._status(INVALID_VALUE)
        sm = self.machine.arch
        most = max_threads_per_block(sm, kernel.registers, kernel.launch_bounds)
        blocks, size = potential_block_size(sm, kernel.registers, self.machine.kernel_static_shared(kernel.name),
                                            dynamic, _s32(limit), most)
        self.write_int(grid_p, blocks * self.device_properties()["multiProcessorCount"])
        return self.write_int(block_p, size)

    def rt_cudaDeviceSynchronize(self) -> int:
        self.flush_device()
        return 0

    def rt_cudaDeviceReset(self) -> int:
        """The device's output is flushed; --leak-check full reports what is still allocated."""
        self.flush_device()
        machine = self.machine
        if machine.leaks is not None:
            machine.leaks.extend(leak_reports(self.memory, machine.leaked))
        return 0

    def rt_cudaDeviceSetLimit(self, limit, value) -> int:
        if _s32(limit) not in self.limits:
            return self._status(215)
        value &= 0xFFFFFFFFFFFFFFFF
        if _s32(limit) == PRINTF_FIFO:
            if self.launched:
                return self._status(1)
            value = max(value, PRINTF_FIFO_MIN)
        if _s32(limit) == PENDING_LAUNCHES:   # kept in slots of 32 (an H100 with CUDA 13 reads 8 back as 32)
            value = -(-value // PENDING_SLOTS) * PENDING_SLOTS
        self.limits[_s32(limit)] = value
        return 0

    def rt_cudaDeviceGetLimit(self, p, limit) -> int:
        if not p:
            return self._status(INVALID_VALUE)
        if _s32(limit) not in self.limits:
            return self._status(215)
        self.memory.write(p, struct.pack("<Q", self.limits[_s32(limit)]))
        return 0

    def rt_cudaSetDevice(self, dev) -> int:
        return 0 if _s32(dev) == 0 else self._status(INVALID_DEVICE)

    def rt_cudaGetDevice(self, p) -> int:
        if not p:
            return self._status(INVALID_VALUE)
        self.memory.write(p, struct.pack("<i", 0))
        return 0

    def rt_cudaRuntimeGetVersion(self, p) -> int:
        return self.write_int(p, CUDA_VERSION)

    def rt_cudaDriverGetVersion(self, p) -> int:
        return self.write_int(p, CUDA_VERSION)

    def write_int(self, p: int, value: int) -> int:
        """*p = value (an int), or cudaErrorInvalidValue for a NULL p."""
        if not p:
            return self._status(INVALID_VALUE)
        self.memory.write(p, struct.pack("<i", value))
        return 0

    def rt_cudaDeviceGetAttribute(self, p, attribute, dev) -> int:
        """The common attributes, as cudaGetDeviceProperties reports them."""
        if _s32(dev) != 0:
            return self._status(INVALID_DEVICE)
        field, index = DEVICE_ATTRIBUTES.get(_s32(attribute), ("", None))
        value = self.device_properties().get(field)
        if value is None:
            return self._status(INVALID_VALUE)
        return self.write_int(p, value if index is None else value[index])

    def rt_cudaGetDeviceCount(self, p) -> int:
        if not p:
            return self._status(INVALID_VALUE)
        self.memory.write(p, struct.pack("<i", 1))
        return 0

    def rt___cudaLaunchCooperativeKernel(self, func, gx, gy, gz, bx, by, bz, args, smem, stream) -> int:
        """cudaLaunchCooperativeKernel: the kernel's parameters copied from the `args` array of
        pointers, every block resident at once (vm/machine.py: launch_kernel); a grid larger
        than the device holds at once is cudaErrorCooperativeLaunchTooLarge (not sticky)."""
        kernel = self.machine.kernel_handles.get(func)
        if kernel is None:
            return self._status(98)
        grid, block = tuple(d & 0xFFFFFFFF for d in (gx, gy, gz)), tuple(d & 0xFFFFFFFF for d in (bx, by, bz))
        fn = self.machine.module.functions[kernel]
        values = []
        for i, p in enumerate(fn.params):
            where = int.from_bytes(self.memory.read(args + 8 * i, 8), "little") if args else 0
            values.append(int.from_bytes(self.memory.read(where, p.size), "little") if where else 0)
        return self.machine.launch_kernel(kernel, grid, block, values, smem, stream, cooperative=True)

    def rt_cudaFuncSetAttribute(self, func, attribute, value) -> int:
        """cudaFuncAttributeMaxDynamicSharedMemorySize (8) sets the kernel's maximum dynamic
        shared memory (vm/launch_checks.py checks it); cudaFuncAttributePreferredSharedMemoryCarveout
        (9) takes a percentage, or -1 for no preference, and changes nothing here."""
        kernel = self.machine.kernel_handles.get(func)
        if kernel is None:   # NULL: cudaErrorInvalidDeviceFunction; anything else: cudaErrorInvalidResourceHandle
            return self._status(400 if func else 98)
        attribute, value = _s32(attribute), _s32(value)
        if attribute == FUNC_MAX_DYNAMIC_SHARED:
            error = set_max_dynamic_shared(self.machine.arch, value, self.machine.kernel_static_shared(kernel))
            if not error:
                self.max_dynamic_shared[kernel] = value
            return self._status(error)
        if attribute == FUNC_SHARED_CARVEOUT and -1 <= value <= 100:
            return 0
        return self._status(1)

    def rt_cudaGetLastError(self) -> int:
        code, self.last_error = self.last_error, 0
        return code

    def rt_cudaPeekAtLastError(self) -> int:
        return self.last_error

    # device-side (dynamic parallelism, vm/nested.py): the calling thread is `self.local.thread`
    def rt_device_get_last_error(self) -> int:
        return self.machine.nested.last_error(*self.local.thread, reset=True)

    def rt_device_peek_last_error(self) -> int:
        return self.machine.nested.last_error(*self.local.thread, reset=False)

    def rt_device_synchronize(self) -> int:
        return self.machine.nested.synchronize(*self.local.thread)

    def rt_cudaGetErrorString(self, code) -> int:
        return self.machine.string(ERROR_STRINGS.get(_s32(code), "unrecognized error code").encode())

    def rt_cudaGetErrorName(self, code) -> int:
        return self.machine.string(ERROR_NAMES.get(_s32(code), "cudaErrorUnknown").encode())

    def rt_cudaGetDeviceProperties(self, p, dev) -> int:
        if not p:
            return self._status(INVALID_VALUE)
        if _s32(dev) != 0:
            return self._status(INVALID_DEVICE)
        info = self.machine.struct_layout("cudaDeviceProp")
        values = self.device_properties()
        out = bytearray(info.size)
        for field, (off, size) in info.fields.items():
            v = values.get(field, 0)
            if isinstance(v, bytes):
                out[off:off + len(v) + 1] = v + b"\0"
            elif isinstance(v, tuple):
                for i, x in enumerate(v):
                    out[off + 4 * i:off + 4 * i + 4] = struct.pack("<i", x)
            else:
                out[off:off + size] = int(v).to_bytes(size, "little", signed=False)
        self.memory.write(p, bytes(out))
        return 0

    def device_properties(self) -> dict:
        """cudaDeviceProp's fields for the device the program runs on (by name; the rest are 0)."""
        (name, sms, smem, regs, threads, major, minor, gib, clock, mclock, bus, l2, threads_sm) = device_for(self.machine.arch)
        return {"name": name.encode(), "totalGlobalMem": gib << 30, "sharedMemPerBlock": smem, "regsPerBlock": regs,
                "warpSize": 32, "memPitch": 2147483647, "maxThreadsPerBlock": threads, "maxThreadsDim": (1024, 1024, 64),
                "maxGridSize": max_grid_dims(self.machine.arch), "clockRate": clock, "totalConstMem": 65536,
                "major": major, "minor": minor, "textureAlignment": 512, "deviceOverlap": 1,
                "multiProcessorCount": sms, "concurrentKernels": 1, "ECCEnabled": 1, "asyncEngineCount": 2,
                "unifiedAddressing": 1, "memoryClockRate": mclock, "memoryBusWidth": bus, "l2CacheSize": l2,
                "maxThreadsPerMultiProcessor": threads_sm, "sharedMemPerMultiprocessor": 65536 if major < 7 else 98304,
                "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": shared_optin(self.machine.arch),
                "maxBlocksPerMultiProcessor": 32, "canMapHostMemory": 1, "managedMemory": 1,
                "concurrentManagedAccess": 1, "cooperativeLaunch": 1, "kernelExecTimeoutEnabled": 0,
                "integrated": 0, "computeMode": 0}

    # events: a handle maps to the time it was last recorded (None: not yet)
    def rt_cudaEventCreate(self, p) -> int:
        if not p:
            return self._status(INVALID_VALUE)
        handle = 0x1000 + 16 * self.events_made
        self.events_made += 1
        self.events[handle] = None
        self.memory.write(p, struct.pack("<Q", handle))
        return 0

    def rt_cudaEventCreateWithFlags(self, p, flags) -> int:
        """cudaEventDefault, BlockingSync, DisableTiming, Interprocess (which needs DisableTiming)."""
        if flags & ~0x7 & 0xFFFFFFFF or (flags & 0x4 and not flags & EVENT_DISABLE_TIMING):
            return self._status(INVALID_VALUE)
        error = self.rt_cudaEventCreate(p)
        if not error and flags & EVENT_DISABLE_TIMING:
            self.untimed_events.add(struct.unpack("<Q", self.memory.read(p, 8))[0])
        return error

    def rt_cudaEventQuery(self, event) -> int:
        """Every recorded event has completed (operations run at issue)."""
        return 0 if event in self.events else self._status(INVALID_HANDLE)

    def rt_cudaEventRecord(self, event, stream=0) -> int:
        if event not in self.events or not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        self.flush_device()
        self.events[event] = (time.time(), self.model_clock)
        return 0

    def host_now(self) -> float:
        """The host's clock (seconds since the epoch): with modelled time, a clock of its own
        (docs/timing.md): the program's start, plus its host instructions at the model's
        host_instruction_s each, plus the modelled time of its kernels and copies, so a
        host-timed launch shows the model's time, the same on any host."""
        if not self.machine.modelled_time:
            return time.time()
        return self.started + self.machine.host.steps * self.machine.gpu.host_instruction_s + self.model_clock

    def rt_cudaEventSynchronize(self, event) -> int:
        return 0 if event in self.events else self._status(INVALID_HANDLE)

    def rt_cudaEventElapsedTime(self, p, start, end) -> int:
        """Milliseconds between two recorded events: the modelled GPU time between them (the
        timing model's kernel durations and copies, docs/timing.md), or with --time=wall the
        host's wall time; an event never recorded is an invalid handle."""
        if not p:
            return self._status(INVALID_VALUE)
        if self.events.get(start) is None or self.events.get(end) is None or {start, end} & self.untimed_events:
            return self._status(INVALID_HANDLE)
        clock = 1 if self.machine.modelled_time else 0
        self.memory.write(p, struct.pack("<f", (self.events[end][clock] - self.events[start][clock]) * 1000.0))
        return 0

    def rt_cudaEventDestroy(self, event) -> int:
        if self.events.pop(event, 0) == 0:
            return self._status(INVALID_HANDLE)
        return 0

    def trace_stream(self, stream: int, what: str) -> None:
        """--trace's line for work put on a stream (operations run at issue: the order of
        the lines is the timeline)."""
        if self.machine.interp.trace is not None:
            self.machine.interp.trace(f"stream {self.stream_label(stream)}: {what}")

    @staticmethod
    def stream_label(stream: int) -> str:
        """0 (the legacy default stream), per-thread, or the created stream's ordinal (1, 2, ...)."""
        if stream in DEFAULT_STREAMS:
            return "per-thread" if stream == 2 else "0"
        return str((stream - STREAM_HANDLES) // 16 + 1)

    # streams: operations run at issue, so a stream is always idle (STREAM_HANDLES)
    def is_stream(self, stream: int) -> bool:
        return stream in DEFAULT_STREAMS or stream in self.streams

    def rt_cudaStreamCreate(self, p) -> int:
        return self.rt_cudaStreamCreateWithFlags(p, 0)

    def rt_cudaStreamCreateWithFlags(self, p, flags) -> int:
        """cudaStreamDefault or cudaStreamNonBlocking."""
        return self.rt_cudaStreamCreateWithPriority(p, flags, 0)

    def rt_cudaStreamCreateWithPriority(self, p, flags, priority) -> int:
        """A priority outside cudaDeviceGetStreamPriorityRange's is clamped into it, as CUDA's."""
        if not p or flags & 0xFFFFFFFF not in (0, 1):
            return self._status(INVALID_VALUE)
        least, greatest = STREAM_PRIORITIES
        handle = STREAM_HANDLES + 16 * self.streams_made
        self.streams_made += 1
        self.streams.add(handle)
        self.stream_settings[handle] = (flags & 0xFFFFFFFF, min(max(_s32(priority), greatest), least))
        self.memory.write(p, struct.pack("<Q", handle))
        return 0

    def rt_cudaStreamDestroy(self, stream) -> int:
        if stream not in self.streams:
            return self._status(INVALID_HANDLE)
        self.streams.discard(stream)
        return 0

    def rt_cudaStreamSynchronize(self, stream) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        self.flush_device()
        return 0

    def rt_cudaStreamQuery(self, stream) -> int:
        """cudaSuccess: the stream's work is done (cudaErrorNotReady never happens here)."""
        return 0 if self.is_stream(stream) else self._status(INVALID_HANDLE)

    def rt_cudaDeviceGetStreamPriorityRange(self, least, greatest) -> int:
        """Either pointer may be NULL (that value is not wanted)."""
        for p, value in zip((least, greatest), STREAM_PRIORITIES):
            if p:
                self.memory.write(p, struct.pack("<i", value))
        return 0

    def rt_cudaStreamGetPriority(self, stream, p) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.write_int(p, self.stream_settings.get(stream, (0, 0))[1])

    def rt_cudaStreamGetFlags(self, stream, p) -> int:
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        return self.write_int(p, self.stream_settings.get(stream, (0, 0))[0])

    def rt_cudaLaunchHostFunc(self, stream, fn, data) -> int:
        """The host function runs once the stream's earlier work is done: at once here."""
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        if not fn:
            return self._status(INVALID_VALUE)
        self.flush_device()
        self.machine.call_pointer(fn, [data])
        return 0

    def rt_cudaStreamAddCallback(self, stream, callback, data, flags) -> int:
        """cudaLaunchHostFunc's older form: the callback gets the stream, its status and the
        data; flags must be 0."""
        if not self.is_stream(stream):
            return self._status(INVALID_HANDLE)
        if not callback or flags & 0xFFFFFFFF:
            return self._status(INVALID_VALUE)
        self.flush_device()
        self.machine.call_pointer(callback, [stream, 0, data])
        return 0

    def rt_cudaStreamWaitEvent(self, stream, event, flags) -> int:
        if not self.is_stream(stream) or event not in self.events:
            return self._status(INVALID_HANDLE)
        return 0 if flags & 0xFFFFFFFF in (0, 1) else self._status(INVALID_VALUE)


def _difference(a: bytes, b: bytes) -> int:
    """memcmp/strcmp's result as glibc's x86-64 versions give it: the difference of the
    first differing bytes (as unsigned char), 0 when there is none."""
    for x, y in zip(a, b):
        if x != y:
            return x - y
    return 0
