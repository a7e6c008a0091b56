"""Memory: one 64-bit address space with an allocation table; every access checked.

Each allocation (a cudaMalloc'd buffer, a host malloc, a global variable, a string,
a block's shared memory, a warp's thread frames, the host stack) is a numpy byte
array at an address of its own.  Spaces are kept apart by address range, so a
generic pointer says where it points.  An access outside every allocation, or one
that runs past the end of the allocation it starts in, raises `MemoryFault`
naming the address and the nearest allocation; the VM turns that into CUDA's
`cudaErrorIllegalAddress` report or a host segmentation fault.

Host and device memory are apart as on a machine with a GPU: an access made on a
side (`HOST`, `DEVICE`) must land in a space that side reaches (`REACH`: the host
its heap, stack, globals and cudaMallocHost's pinned memory; device code the
device's spaces and pinned memory), and string literals are read-only on both.
Runtime functions that copy between the sides (cudaMemcpy) access memory with no
side.  Each allocation keeps the source line that made it (and freed it), so a
fault can say what the pointer was (`pointer_note`).

Simulated memory is bounded: the bytes of all live allocations together never
exceed `limit` (`default_limit()`: the machine's physical memory, or less when an
address-space limit such as `ulimit -v` leaves less room, keeping RESERVED_BYTES
for minicuda itself); an allocation past it, or one the OS refuses, raises
`OutOfMemory`, which the runtime turns into a NULL from malloc or
cudaErrorMemoryAllocation.  Storage is numpy's zeroed memory, which the OS maps
lazily: an allocation costs physical memory only for the pages the program touches.
Small allocations (up to ARENA_MAX bytes) are slices of shared chunks of ARENA_CHUNK
bytes, never reused, so that a program making many costs one numpy array per chunk;
a chunk's memory goes back when none of its allocations is live.
"""
from __future__ import annotations

import bisect
import ctypes
import mmap
import os
import resource
import sys
from dataclasses import dataclass

import numpy as np

SPACE_BASE = {"global": 0x7F00_0000_0000, "host": 0x5500_0000_0000, "static": 0x4000_0000,
              "shared": 0x7E00_0000_0000, "local": 0x7D00_0000_0000, "constant": 0x7C00_0000_0000,
              "stack": 0x7FFF_0000_0000, "string": 0x2000_0000, "pinned": 0x5600_0000_0000,
              "device stack": 0x7B00_0000_0000, "managed": 0x5700_0000_0000}

# a 32-bit shared address (`[R5.U32]`, minicuda.ir.Mem.window) is an offset from here: shared
# allocations lie in the first 4 GiB above the base, whose low 32 bits are zero
SHARED_WINDOW = SPACE_BASE["shared"]
HOST, DEVICE = "host", "device"
# the spaces an access made on each side may land in; string literals are read-only on both
# (cudaMallocManaged's managed memory is reached from both, as pinned memory is)
REACH = {HOST: frozenset({"host", "pinned", "managed", "stack", "static", "string"}),
         DEVICE: frozenset({"global", "constant", "shared", "local", "pinned", "managed", "device stack", "string"})}
HOST_REACH, DEVICE_REACH = REACH[HOST], REACH[DEVICE]
READ_ONLY = frozenset({"string"})
STORES = ("write", "store", "atomic")
NULL_PAGE = 1 << 16   # addresses below it (Linux's mmap_min_addr) are a NULL pointer plus an offset
NEAR = 4096           # a wild address further than this from every allocation is in none
# what an allocation of a space is, for a fault's note
SPACE_WHAT = {"global": "a device pointer", "constant": "a pointer to '__constant__' memory",
              "host": "a host pointer", "stack": "a pointer to a host stack variable",
              "static": "a pointer to a host global variable", "pinned": "a pinned host pointer",
              "managed": "a managed pointer",
              "device stack": "a pointer to a device function's local variable",
              "shared": "a pointer to shared memory", "local": "a pointer to a thread's local variable"}

RESERVED_BYTES = 1 << 30   # address space kept for the VM itself (Python, numpy, LLVM, threads)
ARENA_MAX, ARENA_CHUNK = 256, 1 << 16
# an allocation of HUGE_MIN bytes or more is mapped on its own, 2 MiB aligned, and asks the OS
# for huge pages (a GPU maps device memory in 2 MiB pages too): a kernel walking its rows or a
# host loop over it misses the TLB a 512th as often, and first touches fault a 512th as often
HUGE_MIN, HUGE_PAGE = 4 << 20, 2 << 20
# madvise's MADV_POPULATE_WRITE (Linux 5.14; Python names it from 3.12): fault a range in at once
MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23 if sys.platform.startswith("linux") else None)
# device spaces whose allocations are committed when made, as a GPU's cudaMalloc backs its memory
COMMITTED_SPACES = frozenset({"global"})
NO_STORAGE = np.zeros(0, dtype=np.uint8)   # a freed allocation's

WIDTH_BYTES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16}
QUAD = 16   # a 128-bit access's lanes are rows of four 32-bit words (low word first)


@dataclass(slots=True, eq=False)
class Allocation:
    base: int
    size: int
    space: str
    name: str
    data: np.ndarray   # uint8
    freed: bool = False
    line: int | None = None        # the source line that made it (a malloc's, a cudaMalloc's call)
    freed_line: int | None = None  # and the one that freed it
    # a __device__ or __constant__ variable: host code that names it reaches it too (nvcc
    # gives host code a shadow copy; minicuda the variable itself, as before)
    host_shadow: bool = False
    # host memory registered with cudaHostRegister: device code reaches it too
    registered: bool = False
    # a tool watches the host's stores to it (--tool initcheck, managed memory): native code
    # hands them to the interpreter
    watched: bool = False
    # --tool initcheck: its flags (a byte per byte, vm/tools.py's InitShadow), which native
    # device code reads and sets through the table's "init flags" row
    init_flags: np.ndarray | None = None

    def reached_from(self, side: str) -> bool:
        """Whether code on `side` may access this allocation (REACH)."""
        return self.space in REACH[side] or (side == HOST and self.host_shadow) or (side == DEVICE and self.registered)

    def describe(self) -> str:
        state = "freed " if self.freed else ""
        return f"{state}{self.space} allocation '{self.name}' of {self.size} bytes at {self.base:#x}"


class MemoryFault(Exception):
    def __init__(self, address: int, size: int, kind: str, nearest: Allocation | None, reason: str,
                 side: str | None = None):
        self.address, self.size, self.kind, self.nearest, self.reason = address, size, kind, nearest, reason
        self.side = side   # the side the access was made on (HOST, DEVICE), None for the runtime's own
        near = f"; nearest: {nearest.describe()}" if nearest else ""
        super().__init__(f"{reason}: {kind} of {size} bytes at {address:#x}{near}")


def pointer_note(f: MemoryFault) -> str:
    """What the pointer of a fault was, as minicuda knows it and the hardware does not:
    NULL, freed, on the other side, read-only, or where it missed its allocation by."""
    a, address = f.nearest, f.address
    if address < NULL_PAGE:
        return "the pointer is NULL" if address == 0 else f"the pointer is NULL plus {address}"
    if a is None or not a.base - NEAR <= address < a.base + a.size + NEAR:
        return f"the address {address:#x} is in no allocation"
    if a.space in READ_ONLY:
        return "the pointer is to a string literal (read-only)" if f.reason.startswith("write") else \
            f"the pointer is {_missed_by(a, address)} a string literal"
    what = f"{SPACE_WHAT.get(a.space, 'a pointer')}{_origin(a)}"
    if a.freed:
        return f"{what}, freed{_at_line(a.freed_line)}"
    if "memory accessed in" in f.reason:
        return f"{what}, dereferenced {'on the host' if f.side == HOST else 'in device code'}"
    if f.reason == "misaligned address":
        return f"{what}: the address is not a multiple of {f.size}"
    if address < a.base + a.size:
        return f"the access runs past the end of {_named(a)} ({a.size} bytes)"
    return f"the address is {_missed_by(a, address)} {_named(a)} ({a.size} bytes)"


def _named(a: Allocation) -> str:
    """An allocation for a note: the call that made it and its line, or the object's name."""
    return f"{a.name}{_at_line(a.line)}" if a.line else f"'{a.name}'"


def _origin(a: Allocation) -> str:
    if a.space in ("static", "global", "constant") and a.line is None:
        return f" to '{a.name}'"
    return f" from {a.name}{_at_line(a.line)}"


def _at_line(line: int | None) -> str:
    return f" at line {line}" if line else ""


def _missed_by(a: Allocation, address: int) -> str:
    if address < a.base:
        return f"{a.base - address} bytes before"
    end = a.base + a.size
    return f"{address - end} bytes past the end of" if address >= end else "inside"


def default_limit() -> int:
    """The bytes a program may allocate: physical memory, or what the address-space limit
    leaves beyond what this process maps already and RESERVED_BYTES."""
    limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = min(limit, soft - mapped - RESERVED_BYTES)
    return max(limit, 0)


class OutOfMemory(Exception):
    """An allocation that does not fit in what is left of the simulated memory."""

    def __init__(self, size: int, name: str, limit: int, live: int):
        self.size, self.name, self.limit, self.live = size, name, limit, live
        super().__init__(f"{name} needs {size} bytes; {limit - live} of minicuda's {limit} bytes of "
                         f"simulated memory are free")


def byte_size(n: int) -> str:
    """`n` bytes for a message: 1.0 TiB, 80 GiB, 512 bytes."""
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) and value >= 10 else f"{value:.1f} {unit}"
    return f"{n} bytes"


class _Table:
    """Allocations sorted by base address, searched by bisection.

    Beside the lists, numpy arrays hold each entry's base, host pointer, and for each
    side (HOST, DEVICE) its end for loads and its end for stores, and where initcheck's
    flags for it are (0: none), in the same order, for the JIT's native lookup
    (`native_table`).  An end is the base again where the side
    may not make that access (the allocation is freed, out of the side's REACH, or
    read-only to stores), so no address is inside it and native code hands the access
    to the interpreter, which reports it; a freed or empty allocation's host pointer is
    0 (never read).  The arrays are kept up to date entry by entry, through memoryviews
    of their rows (`views`): an insert or removal moves only the entries above it
    (allocations come at rising addresses, so few), a free or a change of reach
    rewrites one column.  The arrays grow by doubling."""

    ROWS = ("base", "host", "end host", "end device", "write end host", "write end device", "init flags")

    def __init__(self) -> None:
        self.bases: list[int] = []
        self.allocs: list[Allocation] = []
        self.use_arrays(np.zeros((len(self.ROWS), 64), dtype=np.uint64))

    def use_arrays(self, arrays: np.ndarray) -> None:
        self.arrays = arrays
        self.capacity = arrays.shape[1]
        self.views = tuple(memoryview(row) for row in arrays)
        self.addresses = tuple(row.ctypes.data for row in arrays)
        self.side_addresses: dict[str, tuple[int, int, int, int]] = {}   # native_addresses' answers

    @staticmethod
    def _column(a: Allocation, storage: int | None = None) -> tuple[int, ...]:
        """`a`'s entry in each row; `storage`: where its bytes are, when known."""
        base = a.base
        if a.freed:
            return (base, 0, base, base, base, base, 0)
        if storage is None:
            storage = storage_address(a.data)
        end = base + a.size
        space = a.space   # (Allocation.reached_from, for each side)
        host_end = end if space in HOST_REACH or a.host_shadow else base
        device_end = end if space in DEVICE_REACH or a.registered else base
        flags = 0 if a.init_flags is None else a.init_flags.ctypes.data
        if space in READ_ONLY:
            return (base, storage, host_end, device_end, base, base, flags)
        return (base, storage, host_end, device_end, base if a.watched else host_end, device_end, flags)

    def put_column(self, i: int, a: Allocation, storage: int | None = None) -> None:
        v0, v1, v2, v3, v4, v5, v6 = self.views
        v0[i], v1[i], v2[i], v3[i], v4[i], v5[i], v6[i] = self._column(a, storage)

    def insert(self, a: Allocation, storage: int | None = None) -> None:
        bases = self.bases
        n = len(bases)
        if n and bases[-1] <= a.base and n < self.capacity:   # the usual case: a new top entry, room for it
            bases.append(a.base)
            self.allocs.append(a)
            self.put_column(n, a, storage)
            return
        i = n if not n or bases[-1] <= a.base else bisect.bisect(bases, a.base)
        bases.insert(i, a.base)
        self.allocs.insert(i, a)
        if n == self.capacity:
            grown = np.zeros((len(self.ROWS), 2 * n), dtype=np.uint64)
            grown[:, :n] = self.arrays
            self.use_arrays(grown)
        if i < n:   # (allocations come at rising addresses: usually none to move)
            self.arrays[:, i + 1:n + 1] = self.arrays[:, i:n]   # numpy copies overlapping ranges correctly
        self.put_column(i, a, storage)

    def remove(self, a: Allocation) -> None:
        i = self.index(a)
        n = len(self.bases)
        del self.allocs[i], self.bases[i]
        self.arrays[:, i:n - 1] = self.arrays[:, i + 1:n]

    def refresh(self, a: Allocation) -> None:
        """`a` changed (freed, its storage or its reach): rewrite its column."""
        self.put_column(self.index(a), a)

    def mark_freed(self, a: Allocation) -> None:
        """`a` is freed: nothing is inside it any more."""
        a.freed = True
        self.refresh(a)

    def index(self, a: Allocation) -> int:
        return bisect.bisect_left(self.bases, a.base)

    @staticmethod
    def side_rows(side: str) -> tuple[int, int, int, int, int]:
        """The rows code on `side` reads: bases, ends, host pointers, write ends, init flags."""
        return (0, 2, 1, 4, 6) if side == HOST else (0, 3, 1, 5, 6)

    def native_table(self, side: str) -> tuple[int, np.ndarray]:
        """(entries, a copy of the rows code on `side` reads (`side_rows`))."""
        return len(self.bases), self.arrays[list(self.side_rows(side))]

    def native_addresses(self, side: str) -> tuple[int, int, int, int, int]:
        """Where the rows code on `side` reads are, in `side_rows`' order (valid until the
        arrays grow)."""
        found = self.side_addresses.get(side)
        if found is None:
            found = self.side_addresses[side] = tuple(self.addresses[r] for r in self.side_rows(side))
        return found

    def find(self, address: int) -> Allocation | None:
        i = bisect.bisect(self.bases, address) - 1
        if i >= 0:
            a = self.allocs[i]
            if a.base <= address < a.base + max(a.size, 1):
                return a
        return None

    def nearest(self, address: int) -> Allocation | None:
        i = bisect.bisect(self.bases, address)
        cands = [self.allocs[j] for j in (i - 1, i) if 0 <= j < len(self.allocs)]
        return min(cands, key=lambda a: min(abs(address - a.base), abs(address - (a.base + a.size))), default=None)


def huge_zeroed(size: int, committed: bool = False) -> np.ndarray:
    """`size` zeroed bytes in a private mapping of their own, 2 MiB aligned, advised to be
    backed by huge pages (Linux's transparent huge pages; elsewhere, or where the advice is
    refused, ordinary pages).  Mapped lazily, as numpy's zeroed memory is, unless
    `committed`: then faulted in now, in one call (where the OS has it), as a GPU's
    cudaMalloc backs its memory before a kernel touches it; the first kernel writing a
    fresh array took a page fault per page (a 64 MiB array: about 20 to 100 ms of CPU on
    the 2-core machine, against 14 ms faulted in at once).  MemoryError when the OS
    refuses the mapping."""
    try:
        m = mmap.mmap(-1, size + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                      prot=mmap.PROT_READ | mmap.PROT_WRITE)
    except OSError:
        raise MemoryError(f"cannot map {size} bytes") from None
    whole = np.frombuffer(m, dtype=np.uint8)
    skip = -storage_address(whole) % HUGE_PAGE
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            m.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass
    if committed and MADV_POPULATE_WRITE is not None and size <= available_memory() // 2:
        try:
            m.madvise(MADV_POPULATE_WRITE)
        except OSError:   # an older kernel, or no memory to back it now: faulted in as touched
            pass
    return whole[skip:skip + size]


def available_memory() -> int:
    """The bytes of memory the OS has free now (a mapping committed beyond them would push
    the machine into reclaim or out of memory: such a mapping stays lazy); 0 when unknown."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


def storage_address(data: np.ndarray) -> int:
    """Where an allocation's bytes are (0 when it has none): ctypes' view of the buffer,
    a fraction of the cost of numpy's `.ctypes`."""
    return ctypes.addressof(ctypes.c_char.from_buffer(data)) if len(data) else 0


BLOCK_SPACES = ("shared", "local")
_SPACE_SPAN = 1 << 40


class BlockScope(_Table):
    """A block's shared memory and its threads' frames.

    As on a GPU, where every block sees its shared memory through the same window,
    these allocations have the same addresses in every block; each scope has
    storage of its own, so blocks run side by side.  A scope is reused block after
    block: `enter(bid)` zeroes it and names its allocations after the block, so a
    fault report says which block's shared memory was hit.
    """

    def __init__(self, shared: list[tuple[str, int]], frames: list[tuple[str, int]]) -> None:
        super().__init__()
        self.by_name: dict[str, Allocation] = {}
        for space, entries in (("shared", shared), ("local", frames)):
            cursor = SPACE_BASE[space]
            for name, size in entries:
                base = (cursor + 15) // 16 * 16
                cursor = base + max(size, 1) + 256
                a = Allocation(base, size, space, name, np.zeros(size, dtype=np.uint8))
                self.insert(a)
                self.by_name[name] = a

    @staticmethod
    def owns(address: int) -> bool:
        return any(SPACE_BASE[s] <= address < SPACE_BASE[s] + _SPACE_SPAN for s in BLOCK_SPACES)

    def enter(self, bid: tuple) -> None:
        for a in self.allocs:
            a.data[:] = 0
        self.rename(bid)

    def rename(self, bid: tuple) -> None:
        for a in self.allocs:
            if a.space == "shared":
                a.name = f"{a.name.split(' (block ')[0]} (block {bid})"

    def address(self, name: str) -> int:
        return self.by_name[name].base


class Memory(_Table):
    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = default_limit() if limit is None else limit
        self.next = dict(SPACE_BASE)
        self.writes = 0   # a counter of stores that changed memory (progress for deadlock detection)
        self.version = 0  # bumped whenever the allocation table changes (the JIT reads it again)
        self.live_bytes = 0
        self.peak_live_bytes = 0
        self.chunk = np.zeros(0, dtype=np.uint8)   # the arena chunk small allocations are cut from
        self.chunk_address, self.chunk_used = 0, ARENA_CHUNK   # (none yet: full)
        self.side: str | None = None   # the side scalar accesses are made on (the runtime sets it per call)
        self.line: int | None = None   # the source line of the runtime call running, for allocations and frees
        self.shadow = None   # --tool initcheck's InitShadow (vm/tools.py): told of each allocation and access

    # ---- allocation ----------------------------------------------------------------------
    def alloc(self, size: int, space: str, name: str = "", align: int = 256, init: bytes | None = None) -> int:
        """A new allocation's address; OutOfMemory when `size` bytes are not free."""
        live = self.live_bytes
        if size > self.limit - live:
            raise OutOfMemory(size, name or space, self.limit, live)
        base = (self.next[space] + align - 1) // align * align
        used = self.chunk_used
        if 0 < size <= ARENA_MAX and used + size <= ARENA_CHUNK:   # storage()'s usual case, inline
            data, storage = self.chunk[used:used + size], self.chunk_address + used
            self.chunk_used = used + (size + 15) // 16 * 16
        else:
            try:
                data, storage = self.storage(size, space in COMMITTED_SPACES)
            except MemoryError:   # the OS refused the mapping (overcommit)
                raise OutOfMemory(size, name or space, self.limit, live) from None
        self.next[space] = base + (size if size > 1 else 1) + 256   # a gap, so overruns fault
        if init:
            data[: len(init)] = np.frombuffer(init, dtype=np.uint8)[:size]
        a = Allocation(base, size, space, name or f"{space}#{len(self.allocs)}", data, False, self.line)
        self.insert(a, storage)
        if self.shadow is not None and self.shadow.allocated(a):
            self.refresh(a)   # (its init flags, and watched)
        self.version += 1
        live += size
        self.live_bytes = live
        if live > self.peak_live_bytes:
            self.peak_live_bytes = live
        return base

    def storage(self, size: int, committed: bool = False) -> tuple[np.ndarray, int]:
        """Zeroed bytes for an allocation of `size` and where they are: a slice of the arena
        chunk when small, else an array of its own (MemoryError when the OS refuses it);
        `committed`: a large one is faulted in now (huge_zeroed)."""
        if 0 < size <= ARENA_MAX:
            used = self.chunk_used
            if used + size > ARENA_CHUNK:
                self.chunk = np.zeros(ARENA_CHUNK, dtype=np.uint8)
                self.chunk_address, used = storage_address(self.chunk), 0
            self.chunk_used = used + (size + 15) // 16 * 16
            return self.chunk[used:used + size], self.chunk_address + used
        data = huge_zeroed(size, committed) if size >= HUGE_MIN else np.zeros(size if size > 0 else 0, dtype=np.uint8)
        return data, storage_address(data)

    def free(self, address: int, space: str) -> bool:
        i = bisect.bisect(self.bases, address) - 1   # (find, keeping the index)
        a = self.allocs[i] if i >= 0 else None
        if a is None or a.base != address or a.freed or a.space != space:
            return False
        a.freed_line = self.line
        a.freed = True
        self.live_bytes -= a.size
        if space in ("stack", "device stack"):   # a returned frame: gone, not kept for use-after-free reports
            self.remove(a)
        else:
            a.data = NO_STORAGE   # the storage goes back; the record stays
            self.put_column(i, a)   # (nothing is inside it now)
        self.version += 1
        return True

    def register(self, a: Allocation, registered: bool) -> None:
        """cudaHostRegister / cudaHostUnregister: device code reaches host allocation `a`, or no longer."""
        a.registered = registered
        self.refresh(a)
        self.version += 1

    def locate(self, address: int, size: int, kind: str, scope: BlockScope | None = None,
               side: str | None = "scalar") -> tuple[Allocation, int]:
        """The allocation holding [address, address + size) and the offset; MemoryFault when
        there is none, or `side` (HOST, DEVICE; by default the scalar accesses' side, None:
        no side) may not make this access there."""
        side = self.side if side == "scalar" else side
        table = scope if scope is not None and BlockScope.owns(address) else self
        a = table.find(address)
        if a is None or a.freed or address + size > a.base + a.size:
            reason = "use after free" if a is not None and a.freed else "out-of-bounds access"
            raise MemoryFault(address, size, kind, a or table.nearest(address), reason, side)
        if side is not None and not a.reached_from(side):
            other = "device" if side == HOST else "host"
            raise MemoryFault(address, size, kind, a, f"{other} memory accessed in {side} code", side)
        if a.space in READ_ONLY and kind in STORES:
            raise MemoryFault(address, size, kind, a, "write to read-only memory", side)
        if address % size:
            raise MemoryFault(address, size, kind, a, "misaligned address", side)
        return a, address - a.base

    # ---- scalar access (host code, the runtime) -----------------------------------------
    def read(self, address: int, size: int) -> bytes:
        a, off = self.locate(address, 1, "read")
        if off + size > a.size:
            raise MemoryFault(address, size, "read", a, "out-of-bounds access")
        return bytes(a.data.data[off:off + size])

    def write(self, address: int, data: bytes) -> None:
        if not data:
            return
        a, off = self.locate(address, 1, "write")
        if off + len(data) > a.size:
            raise MemoryFault(address, len(data), "write", a, "out-of-bounds access")
        a.data.data[off:off + len(data)] = data   # (storage is always a contiguous uint8 array)
        self.writes += 1
        if self.shadow is not None:
            self.shadow.wrote(a, off, len(data))

    def fill(self, address: int, value: int, n: int, side: str | None = "scalar") -> None:
        """memset: `n` bytes of `value`, every one of them inside one allocation."""
        if n:
            a, off = self.span(address, n, "write", side)
            a.data[off:off + n] = value & 0xFF
            self.writes += 1
            if self.shadow is not None:
                self.shadow.wrote(a, off, n)

    def copy(self, dst: int, src: int, n: int, side: str | None = "scalar", src_side: str | None = "scalar") -> None:
        """memmove: `n` bytes from src to dst, each range inside one allocation (the source
        is checked first); no copy of the bytes in between.  `side` is the destination's
        side, `src_side` the source's (cudaMemcpy's may differ)."""
        if not n:   # as a zero-length read and write: only the source is looked up
            self.locate(src, 1, "read", side=src_side)
            return
        sa, so = self.span(src, n, "read", src_side)
        da, do = self.span(dst, n, "write", side)
        da.data[do:do + n] = sa.data[so:so + n]
        self.writes += 1
        if self.shadow is not None:
            self.shadow.wrote(da, do, n)

    def span(self, address: int, n: int, kind: str, side: str | None = "scalar") -> tuple[Allocation, int]:
        """The allocation holding all of [address, address + n) and the offset of `address`."""
        a, off = self.locate(address, 1, kind, side=side)
        if off + n > a.size:
            raise MemoryFault(address, n, kind, a, "out-of-bounds access")
        return a, off

    def read_cstring(self, address: int, limit: int = 1 << 20) -> bytes:
        a, off = self.locate(address, 1, "read")
        chunk = a.data[off:].tobytes()
        end = chunk.find(b"\0")
        if end < 0:
            raise MemoryFault(address, len(chunk), "read", a, "unterminated string")
        return chunk[:min(end, limit)]

    # ---- lane-vectorised access (the interpreter) ---------------------------------------------
    def load(self, addresses: np.ndarray, width: str, mask: np.ndarray, kind: str = "load",
             scope: BlockScope | None = None, side: str | None = None) -> np.ndarray:
        size = WIDTH_BYTES[width]
        out = np.zeros((len(addresses), 4) if size == QUAD else len(addresses),
                       dtype=np.uint64 if size == 8 else np.uint32)
        shadow = self.shadow if side == DEVICE else None
        for lane in np.nonzero(mask)[0]:
            address = int(addresses[lane])
            a, off = self.locate_lane(address, size, kind, lane, scope, side)
            if shadow is not None:
                shadow.read(a, off, size, lane, kind)
            if size == QUAD:
                out[lane] = np.frombuffer(a.data[off:off + size].tobytes(), "<u4")
                continue
            raw = int.from_bytes(a.data[off:off + size].tobytes(), "little")
            if width in ("S8", "S16") and raw >> (size * 8 - 1):
                raw = (raw - (1 << (size * 8))) & 0xFFFFFFFF
            out[lane] = raw
        return out

    def store(self, addresses: np.ndarray, values: np.ndarray, width: str, mask: np.ndarray,
              scope: BlockScope | None = None, side: str | None = None, kind: str = "store") -> None:
        size = WIDTH_BYTES[width]
        for lane in np.nonzero(mask)[0]:
            address = int(addresses[lane])
            a, off = self.locate_lane(address, size, kind, lane, scope, side)
            if size == QUAD:
                new = np.asarray(values[lane], "<u4").tobytes()
            else:
                new = (int(values[lane]) & ((1 << (size * 8)) - 1)).to_bytes(size, "little")
            if a.data[off:off + size].tobytes() != new:
                self.writes += 1
            a.data[off:off + size] = np.frombuffer(new, dtype=np.uint8)
            if self.shadow is not None and kind != "atomic":   # (an atomic's value derives from the old one)
                self.shadow.wrote(a, off, size)

    def locate_lane(self, address: int, size: int, kind: str, lane: int, scope: BlockScope | None = None,
                    side: str | None = None):
        try:
            return self.locate(address, size, kind, scope, side)
        except MemoryFault as f:
            f.lane = int(lane)
            raise
