"""Memory counters of a launch, from the addresses of every warp-level access, as the L1 of
an sm_70+ GPU (measured on Hopper) counts them.

- A request is one warp-level load or store executed with at least one active lane (the
  guard true).  Each space and direction (global, local, shared; load, store) counts its own.
- Global and local: the sectors of a request are the distinct 32-byte sectors its active
  lanes touch (128-byte lines of four).  Local memory is interleaved by the hardware: word k
  of a thread's frame lies at k * 128 + lane * 4, so a warp reading the same local variable
  touches 4 sectors (for a 32-bit access), whatever minicuda's own frame layout is.
- Shared: 32 banks of 4 bytes.  The wavefronts of a 32-bit request are the most distinct
  4-byte words that map to one bank among the active lanes (lanes reading the same word
  share it: a broadcast is no conflict); 64-bit and 128-bit requests follow the rules
  `shared_wavefronts` gives.  Bank conflicts are wavefronts beyond those a conflict-free
  request of the same lanes takes.
- Useful bytes: the distinct bytes the active lanes ask for (ncu's smsp__sass_data_bytes_*:
  a warp reading one float asks for 4); efficiency is useful bytes / (sectors * 32).

The interpreter counts here, in its load and store semantics, when a Machine is made with
memory_counters=True; the JIT logs its accesses and counts them alike, many at once
(vm/jit/memlog.py).
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.memory import SPACE_BASE, WIDTH_BYTES

SECTOR = 32
LINE = 128
BANKS = 32
BANK_BYTES = 4
LOCAL_STRIDE = 128          # bytes from one word of a thread's local frame to its next
SPAN = 1 << 40              # a space's window of addresses (vm/memory.py's _SPACE_SPAN)
WARP = 32
QUAD_BYTES = 16

# (space, direction) -> the LaunchMetrics fields: requests, sectors (shared: wavefronts), useful bytes
FIELDS = {(space, op): tuple(f"{space}_{op}_{what}" for what in ("requests", "sectors", "bytes"))
          for space in ("global", "local", "shared") for op in ("ld", "st")}
COUNTER_FIELDS = tuple(name for names in FIELDS.values() for name in names) + ("shared_ld_groups", "shared_st_groups")


def space_of(address: int) -> str:
    """The space an address lies in, for the counters: shared, local, or global (any other)."""
    for space in ("shared", "local"):
        if SPACE_BASE[space] <= address < SPACE_BASE[space] + SPAN:
            return space
    return "global"


def touched_sectors(addresses: np.ndarray, size: int) -> np.ndarray:
    """The distinct 32-byte sectors (their numbers) the accesses of `size` bytes at `addresses` touch."""
    first = addresses // np.uint64(SECTOR)
    last = (addresses + np.uint64(size - 1)) // np.uint64(SECTOR)
    return np.unique(np.concatenate([first, last]))


def global_sectors(addresses: np.ndarray, size: int) -> int:
    """How many distinct 32-byte sectors the accesses of `size` bytes at `addresses` touch."""
    return int(touched_sectors(addresses, size).size)


def local_sectors(offsets: np.ndarray, lanes: np.ndarray, size: int) -> int:
    """Distinct sectors of accesses at `offsets` in each lane's frame, as the hardware lays
    local memory out (word k of lane l at k * 128 + l * 4)."""
    words = offsets // np.uint64(BANK_BYTES)
    spans = [(words + np.uint64(k)) * np.uint64(LOCAL_STRIDE) + lanes.astype(np.uint64) * np.uint64(BANK_BYTES)
             for k in range(max(size // BANK_BYTES, 1))]
    return int(np.unique(np.concatenate(spans) // np.uint64(SECTOR)).size)


def lane_groups(size: int) -> int:
    """How many groups of lanes the shared-memory pipeline serves one by one: 128 bytes at a time."""
    return max(size * WARP // (BANKS * BANK_BYTES), 1)


def shared_wavefronts(addresses: np.ndarray, lanes: np.ndarray, size: int) -> tuple[int, int]:
    """(wavefronts, wavefronts without conflicts) of one shared-memory request, as measured
    on an H100.  A 32-bit access: the most distinct words in one bank.  A 64-bit (128-bit)
    access: the lanes are taken in half-warps (quarter-warps), each group's distinct words
    per bank added over the groups, the fullest bank's count; a 128-bit access takes at
    least one wavefront per active half-warp.  A warp whose lanes all read one address takes
    one wavefront (a 128-bit one, one per active half-warp).  Conflict-free is one
    wavefront per active group."""
    groups = lane_groups(size)
    if groups == 1:
        return _bank_wavefronts(addresses, size), 1
    per_group = WARP // groups
    active = np.unique(lanes // per_group)
    halves = int(np.unique(lanes // (WARP // 2)).size)
    if (addresses == addresses[0]).all():
        wavefronts = halves if size == QUAD_BYTES else 1
    else:
        per_bank = np.zeros(BANKS, np.int64)
        for g in active:
            per_bank += _bank_words(addresses[lanes // per_group == g], size)
        wavefronts = int(per_bank.max())
        if size == QUAD_BYTES:
            wavefronts = max(wavefronts, halves)
    return wavefronts, min(wavefronts, int(active.size))


def _bank_words(addresses: np.ndarray, size: int) -> np.ndarray:
    """How many distinct 4-byte words the accesses put in each bank."""
    first = addresses // np.uint64(BANK_BYTES)
    words = np.unique(np.concatenate([first + np.uint64(k) for k in range(max(size // BANK_BYTES, 1))]))
    return np.bincount((words % np.uint64(BANKS)).astype(np.int64), minlength=BANKS)


def _bank_wavefronts(addresses: np.ndarray, size: int) -> int:
    """The most distinct 4-byte words the accesses put in one bank."""
    return int(_bank_words(addresses, size).max())


def count_access(metrics, addresses: np.ndarray, frame: np.ndarray, width: str, on: np.ndarray, op: str,
                 site: str = "") -> None:
    """Add one warp-level access (`op` "ld" or "st") by the lanes `on` to `metrics`, and to
    its instruction's counts (`site`: the instruction's source location and opcode)."""
    lanes = np.nonzero(on)[0]
    if not lanes.size:
        return
    size = WIDTH_BYTES[width]
    active = addresses[lanes]
    space = space_of(int(active[0]))
    groups = 0
    if space == "shared":
        sectors, groups = shared_wavefronts(active, lanes, size)
        metrics.add_count(f"shared_{op}_groups", groups)
    elif space == "local":
        sectors = local_sectors(active - frame[lanes], lanes, size)
    else:
        touched = touched_sectors(active, size)
        metrics.touch(touched, op == "ld")
        sectors = int(touched.size)
        metrics.global_lines += int(np.unique(touched // np.uint64(LINE // SECTOR)).size)
    useful = size * int(np.unique(active).size)
    for name, value in zip(FIELDS[space, op], (1, sectors, useful)):
        metrics.add_count(name, value)
    counts = metrics.memory_sites.setdefault(site, [space, op, 0, 0, 0, 0])
    for k, value in enumerate((1, sectors, useful, groups), start=2):
        counts[k] += value
