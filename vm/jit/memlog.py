"""The memory counters of JIT-run kernels (vm/memcounters.py's, bit for bit), from a log.

With the counters on, device code is compiled in a variant of its own (the check
"memcounters": vm/jit/memory.py's `log_access`) that appends one record to a worker's log
for every warp-level load and store it runs with an active lane (LDC aside, as the
interpreter counts): the instruction's pc and the active lanes (an i64: lanes << 32 | pc),
the block, a flag (1: a local access, whose next record holds the lanes' frames), and the
32 lanes' addresses.  It also counts each instruction's warp executions (`execs`), from
which the instruction classes follow.  An access that finds no room for its records goes
to the interpreter, which counts it itself; the engine empties the log each time native
code returns (`MemoryLog.flush`), and the whole log is counted at once by numpy here:
the distinct sectors, lines, words per bank and addresses of every record, row by row,
as `count_access` counts them one access at a time.

A block's distinct loaded sectors (global_ld_block_sectors) are the distinct (block,
sector) pairs: a worker runs its blocks in increasing order, so the pairs of the blocks
before the one running are final at each flush.
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.memcounters import BANK_BYTES, BANKS, FIELDS, LINE, LOCAL_STRIDE, QUAD_BYTES, SECTOR, WARP
from minicuda.vm.memory import SPACE_BASE, WIDTH_BYTES
from minicuda.vm.timing_model import instruction_class

LOG_WORDS = 3 + WARP      # header, block, flag, the lanes' addresses
LOG_RECORDS = 1 << 15     # a worker's log (9 MB)
SPAN = 1 << 40            # a space's window of addresses (vm/memory.py's _SPACE_SPAN)
LOCAL, FRAMES = 1, 2      # the flag word: a local access; the record of its frames
NONE = np.uint64(np.iinfo(np.uint64).max)   # no value: an inactive lane's place
LANES = np.arange(WARP, dtype=np.uint64)
SPACES = ("global", "local", "shared")


class MemoryLog:
    """One worker's log of a kernel's accesses, and the per-instruction execution counts."""

    def __init__(self, code, capacity: int | None = None):
        capacity = capacity or LOG_RECORDS
        self.code = code
        self.records = np.zeros((capacity, LOG_WORDS), np.int64)
        self.execs = np.zeros(max(len(code.instrs), 1), np.int64)
        self.capacity = capacity
        self.pairs: list[np.ndarray] = []   # (block, sector) of loads, not yet final
        self.sites = _sites(code)

    def attach(self, ctx, fields) -> None:
        ctx[fields.MEMLOG] = self.records.ctypes.data
        ctx[fields.MEMLOG_N] = 0
        ctx[fields.MEMLOG_CAP] = self.capacity
        ctx[fields.EXECS] = self.execs.ctypes.data

    def flush(self, metrics, n: int, running: int) -> None:
        """Count the log's first n records into `metrics`; blocks before `running` are done."""
        if n:
            self.pairs.extend(count_records(metrics, self.records[:n], self.sites))
        self.settle(metrics, running)

    def adopt(self, metrics, block: int) -> None:
        """The loads the interpreter counted for `block` (a hand-off), as that block's pairs."""
        for sectors in metrics.block_loads:
            self.pairs.append(np.stack([np.full(sectors.size, block, np.uint64), sectors], axis=1))
        metrics.block_loads.clear()

    def settle(self, metrics, running: int | None) -> None:
        """Add the distinct pairs of the blocks done (all when `running` is None)."""
        if not self.pairs:
            return
        pairs = _unique_pairs(np.concatenate(self.pairs))
        done = pairs[:, 0] < np.uint64(running) if running is not None else np.ones(len(pairs), bool)
        metrics.global_ld_block_sectors += int(done.sum())
        self.pairs = [pairs[~done]] if not done.all() else []

    def finish(self, metrics) -> None:
        """The launch is over: the last blocks' pairs, and the instruction classes."""
        self.settle(metrics, None)
        classes = metrics.inst_classes
        for pc in np.nonzero(self.execs)[0]:
            cls = instruction_class(self.code.instrs[pc].op)
            classes[cls] = classes.get(cls, 0) + int(self.execs[pc])
        self.execs[:] = 0


def _ordered_unique(values: np.ndarray) -> np.ndarray:
    """np.unique of values that mostly come in order already (a stable sort runs through
    ordered runs in linear time)."""
    v = np.sort(values, kind="stable")
    keep = np.ones(len(v), bool)
    keep[1:] = v[1:] != v[:-1]
    return v[keep]


def _unique_pairs(pairs: np.ndarray) -> np.ndarray:
    """The distinct (block, sector) rows of `pairs`: packed into one word each when the
    blocks and sectors span few enough bits (a log's blocks are a few neighbours), else rows."""
    if not len(pairs):
        return pairs
    low = pairs.min(axis=0)
    span = pairs.max(axis=0) - low
    bits = int(span[1]).bit_length()
    if int(span[0]).bit_length() + bits > 63:
        return np.unique(pairs, axis=0)
    keys = _ordered_unique(((pairs[:, 0] - low[0]) << np.uint64(bits)) | (pairs[:, 1] - low[1]))
    mask = np.uint64((1 << bits) - 1)
    return np.stack([(keys >> np.uint64(bits)) + low[0], (keys & mask) + low[1]], axis=1)


def _sites(code) -> list:
    """Per pc: (access bytes, "ld"/"st", the site's name) of a load or store, else None."""
    sites = []
    for ins in code.instrs:
        store = ins.op.startswith("ST")
        if ins.op[:2] in ("LD", "ST") and ins.op != "LDC":
            sites.append((WIDTH_BYTES[ins.mods[0] if ins.mods else "32"], "st" if store else "ld",
                          f"{ins.loc} {ins.opcode}"))
        else:
            sites.append(None)
    return sites


def _site_arrays(sites: list) -> tuple[np.ndarray, np.ndarray]:
    """Per pc: the access bytes and whether it is a load (numpy, for indexing by the records' pcs)."""
    sizes = np.array([site[0] if site else 0 for site in sites] or [0], np.int64)
    loads = np.array([bool(site) and site[1] == "ld" for site in sites] or [False], bool)
    return sizes, loads


def count_records(metrics, records: np.ndarray, sites: list) -> list[np.ndarray]:
    """Count a log's records into `metrics`, as count_access would one by one; returns the
    loads' (block, sector) pairs."""
    flags = records[:, 2]
    main = np.nonzero(flags != FRAMES)[0]
    header = records[main, 0]
    pcs = (header & 0xFFFFFFFF).astype(np.int64)
    masks = (header >> 32) & 0xFFFFFFFF
    active = ((masks[:, None] >> LANES.astype(np.int64)) & 1).astype(bool)
    addresses = records[main, 3:].view(np.uint64)
    blocks = records[main, 1].view(np.uint64)
    size_of, load_of = _site_arrays(sites)
    sizes, loads = size_of[pcs], load_of[pcs]
    first = addresses[np.arange(len(main)), np.argmax(active, axis=1)]
    shared = (first - np.uint64(SPACE_BASE["shared"])) < np.uint64(SPAN)
    local = (flags[main] == LOCAL) & ~shared
    space = np.where(shared, 2, np.where(local, 1, 0))
    sectors = np.zeros(len(main), np.int64)
    groups = np.zeros(len(main), np.int64)
    # a whole warp at consecutive elements (a coalesced access): counted in closed form
    coalesced = (masks == 0xFFFFFFFF) & (addresses == first[:, None] + LANES * sizes[:, None].astype(np.uint64)).all(1)
    useful = sizes * WARP
    other = np.nonzero(~coalesced)[0]
    useful[other] = sizes[other] * _distinct(addresses[other], active[other])[0]
    pairs = []
    for size in np.unique(sizes):
        size = int(size)
        rows = np.nonzero((sizes == size) & (space == 0) & coalesced)[0]
        if rows.size:
            pairs += _global_run(metrics, first[rows], size, loads[rows], blocks[rows], sectors, rows)
        rows = np.nonzero((sizes == size) & (space == 0) & ~coalesced)[0]
        if rows.size:
            pairs += _global(metrics, addresses[rows], active[rows], size, loads[rows], blocks[rows], sectors, rows)
        rows = np.nonzero((sizes == size) & (space == 1))[0]
        if rows.size:
            frames = records[main[rows] + 1, 3:].view(np.uint64)
            sectors[rows] = _local(addresses[rows] - frames, active[rows], size)
        rows = np.nonzero((sizes == size) & (space == 2))[0]
        if rows.size:
            sectors[rows], groups[rows] = _shared(addresses[rows], active[rows], masks[rows], size)
    _add(metrics, sites, pcs, space, loads, sectors, useful, groups)
    return pairs


def _add(metrics, sites, pcs, space, loads, sectors, useful, groups) -> None:
    """The records' counts into the launch's and their instructions' (in the order the
    records came, so a site's space is the one its first access had)."""
    for s, name in enumerate(SPACES):
        for op, is_load in (("ld", True), ("st", False)):
            rows = (space == s) & (loads == is_load)
            if rows.any():
                for field, value in zip(FIELDS[name, op], (int(rows.sum()), int(sectors[rows].sum()),
                                                           int(useful[rows].sum()))):
                    metrics.add_count(field, value)
                if name == "shared":
                    metrics.add_count(f"shared_{op}_groups", int(groups[rows].sum()))
    key = pcs * 4 + space
    keys, first = np.unique(key, return_index=True)
    index = np.searchsorted(keys, key)
    totals = np.zeros((len(keys), 4), np.int64)
    np.add.at(totals, index, np.stack([np.ones_like(sectors), sectors, useful, groups], axis=1))
    for k in np.argsort(first, kind="stable"):
        pc, s = divmod(int(keys[k]), 4)
        _, op, site = sites[pc]
        counts = metrics.memory_sites.setdefault(site, [SPACES[s], op, 0, 0, 0, 0])
        for j in range(4):
            counts[2 + j] += int(totals[k, j])


def _distinct(values: np.ndarray, valid: np.ndarray):
    """Per row, the number of distinct valid values; and the rows sorted (NONE in the
    invalid places) with a mask of each distinct value's first place."""
    v = np.where(valid, values, NONE)
    unsorted = (v[..., 1:] < v[..., :-1]).any(axis=-1)   # (most accesses come in order: no sort)
    if unsorted.any():
        v[unsorted] = np.sort(v[unsorted], axis=-1)
    new = np.ones(v.shape, bool)
    new[..., 1:] = v[..., 1:] != v[..., :-1]
    new &= v != NONE
    return new.sum(axis=-1), v, new


def _global(metrics, addresses, active, size: int, loads, blocks, sectors, rows) -> list[np.ndarray]:
    """Global requests: distinct sectors and lines; the sectors touched (the footprint, and
    the loads' (block, sector) pairs)."""
    lo = addresses // np.uint64(SECTOR)
    hi = (addresses + np.uint64(size - 1)) // np.uint64(SECTOR)
    pairs_of = np.stack([lo, hi], axis=2).reshape(len(lo), 2 * WARP)   # each lane's first and last, in order
    count, v, new = _distinct(pairs_of, np.repeat(active, 2, axis=1))
    sectors[rows] = count
    lines = v // np.uint64(LINE // SECTOR)
    line_new = np.ones(v.shape, bool)
    line_new[:, 1:] = lines[:, 1:] != lines[:, :-1]
    metrics.global_lines += int((line_new & (v != NONE)).sum())
    metrics.touch(v[new], False)
    picked = new & loads[:, None]
    if not picked.any():
        return []
    owner = np.broadcast_to(blocks[:, None], v.shape)[picked]
    return [np.stack([owner, v[picked]], axis=1)]


def _global_run(metrics, first, size: int, loads, blocks, sectors, rows) -> list[np.ndarray]:
    """Coalesced global requests (32 lanes from `first` on, `size` bytes each): the sectors
    and lines of one run of bytes."""
    lo = first // np.uint64(SECTOR)
    hi = (first + np.uint64(WARP * size - 1)) // np.uint64(SECTOR)
    count = (hi - lo + np.uint64(1)).astype(np.int64)
    sectors[rows] = count
    quarter = np.uint64(LINE // SECTOR)
    metrics.global_lines += int((hi // quarter - lo // quarter + np.uint64(1)).sum())
    starts = np.cumsum(count) - count
    touched = np.repeat(lo, count) + (np.arange(int(count.sum())) - np.repeat(starts, count)).astype(np.uint64)
    metrics.touch(touched, False)
    picked = np.repeat(loads, count)
    if not picked.any():
        return []
    return [np.stack([np.repeat(blocks, count)[picked], touched[picked]], axis=1)]


def _local(offsets, active, size: int) -> np.ndarray:
    """Local requests' distinct sectors, word k of lane l's frame at k * 128 + l * 4."""
    words = offsets // np.uint64(BANK_BYTES)
    spans = [(words + np.uint64(k)) * np.uint64(LOCAL_STRIDE) + LANES * np.uint64(BANK_BYTES)
             for k in range(max(size // BANK_BYTES, 1))]
    valid = np.concatenate([active] * len(spans), axis=1)
    return _distinct(np.concatenate(spans, axis=1) // np.uint64(SECTOR), valid)[0]


def _bank_peak(words: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per row (its leading axis), the most distinct words of one bank, the distinct words
    counted within each group (the middle axis, when there is one) and added over them."""
    _, v, new = _distinct(words, valid)
    rows = np.broadcast_to(np.arange(len(v)).reshape((-1,) + (1,) * (v.ndim - 1)), v.shape)
    key = rows[new] * BANKS + (v[new] % np.uint64(BANKS)).astype(np.int64)
    return np.bincount(key, minlength=len(v) * BANKS).reshape(len(v), BANKS).max(axis=1)


def _shared(addresses, active, masks, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Shared requests: (wavefronts, wavefronts without conflicts), as shared_wavefronts."""
    nk = max(size // BANK_BYTES, 1)
    groups = max(size * WARP // (BANKS * BANK_BYTES), 1)
    first = addresses // np.uint64(BANK_BYTES)
    if groups == 1:
        return _bank_peak(first, active), np.ones(len(addresses), np.int64)
    per_group = WARP // groups
    words = np.stack([first + np.uint64(k) for k in range(nk)], axis=2)           # row, lane, k
    words = words.reshape(len(addresses), groups, per_group * nk)
    valid = np.repeat(active, nk, axis=1).reshape(len(addresses), groups, per_group * nk)
    wavefronts = _bank_peak(words, valid)
    group_bits = (1 << per_group) - 1
    ngroups = sum(((masks >> (g * per_group)) & group_bits) != 0 for g in range(groups)).astype(np.int64)
    halves = (((masks & 0xFFFF) != 0).astype(np.int64) + ((masks >> 16) != 0))
    lead = addresses[np.arange(len(addresses)), np.argmax(active, axis=1)]
    same = ~((addresses != lead[:, None]) & active).any(axis=1)
    if size == QUAD_BYTES:
        wavefronts = np.maximum(wavefronts, halves)
    wavefronts = np.where(same, halves if size == QUAD_BYTES else 1, wavefronts)
    return wavefronts, np.minimum(wavefronts, ngroups)
