"""The state of a block's warps, in one byte buffer both engines share.

The interpreter and the JIT read and write the same arrays: registers, predicates,
per-thread pcs, barrier waits, lane flags, thread ids, frames, the reconvergence
stack and a few words per warp.  A block starts from a template image (built once
per launch: every block's warps start alike except for their block index), so
starting a block is a copy, in Python or in native code.  When the JIT hands one
instruction to the interpreter (a rare operation, a fault to report), the
interpreter works on views of these very arrays.

Layout, per section, for warp w of `nwarps`:

    regs   uint32 [nwarps][rows][32]      R<n> at row n, virtual registers after
    preds  uint8  [nwarps][npreds][32]
    pcs    int64  [nwarps][32]            its: each thread's pc
    wait   int64  [nwarps][32]            its: barrier waited on (-1 none, 99 WARPSYNC)
    flags  uint8  [nwarps][3][32]         live, exited, at_bar
    ids    uint32 [nwarps][4][3][32]      SR_TID, SR_CTAID, SR_NTID, SR_NCTAID x X Y Z
    frame  uint64 [nwarps][32]            each thread's frame address
    stack  int64  [nwarps][MAXD][3]       stack model: (pc, mask bits, rpc)
    words  int64  [nwarps][8]             depth, current, stall, status, barriers set, rng, check, sampled
    bmask  int64  [nwarps][NBAR]          its: BSSY masks (bits), B0..B15 and WARPSYNC's

and after them, for the timing model's load round trips on the JIT (vm/load_rounds.py's
`state_words` per warp, none otherwise):

    rounds int64  [nwarps][words]         epochs, loads, floor, depth, stored; pending, ready
"""
from __future__ import annotations

import numpy as np

WARP = 32
MAXD = 128                  # deepest reconvergence stack kept in the buffer
NBAR = 17                   # B0..B15 and the WARPSYNC barrier
WARPSYNC_BARRIER = 16
ID_NAMES = ("SR_TID", "SR_CTAID", "SR_NTID", "SR_NCTAID")
# words
# stall: warp instructions since memory last changed; check: the stall at which the next
# look for a repeating state begins; sampled: the stall its state was last kept at (vm/cycles.py)
DEPTH, CURRENT, STALL, STATUS, BSET, RNG, CHECK, SAMPLED = range(8)
# a warp's status in its block; SPINNING: its state repeats (vm/cycles.py), it waits for
# another warp to change memory
RUN, AT_BAR, DONE, SPINNING = 0, 1, 2, 3

SECTIONS = (("regs", np.uint32), ("preds", np.uint8), ("pcs", np.int64), ("wait", np.int64),
            ("flags", np.uint8), ("ids", np.uint32), ("frame", np.uint64), ("stack", np.int64),
            ("words", np.int64), ("bmask", np.int64))


class Layout:
    """Where each section lies, for a function's register count and a warp count."""

    def __init__(self, rows: int, npreds: int, nwarps: int, rounds: int = 0):
        self.rows, self.npreds, self.nwarps = rows, npreds, nwarps
        self.shapes = {"regs": (rows, WARP), "preds": (npreds, WARP), "pcs": (WARP,), "wait": (WARP,),
                       "flags": (3, WARP), "ids": (4, 3, WARP), "frame": (WARP,), "stack": (MAXD, 3),
                       "words": (8,), "bmask": (NBAR,)}
        self.offset: dict[str, int] = {}
        self.stride: dict[str, int] = {}   # bytes per warp
        size = 0
        for name, dtype in SECTIONS:
            per_warp = int(np.prod(self.shapes[name])) * np.dtype(dtype).itemsize
            self.offset[name], self.stride[name] = size, per_warp
            size += (per_warp * nwarps + 63) // 64 * 64
        self.rounds, self.rounds_offset = rounds, size
        size += (rounds * 8 * nwarps + 63) // 64 * 64
        self.size = size


class BlockState:
    def __init__(self, layout: Layout):
        self.layout = layout
        self.windows: dict = {}   # warp index -> its cycles.Window (a look for a repeating state)
        self.buf = np.zeros(layout.size, dtype=np.uint8)
        for name, dtype in SECTIONS:
            o = layout.offset[name]
            n = layout.stride[name] * layout.nwarps
            view = self.buf[o:o + n].view(dtype).reshape((layout.nwarps,) + layout.shapes[name])
            setattr(self, name, view)
        o, n = layout.rounds_offset, layout.rounds * 8 * layout.nwarps
        self.rounds = self.buf[o:o + n].view(np.int64).reshape(layout.nwarps, layout.rounds)

    def warp_ids(self, w: int) -> dict:
        return {name: {axis: self.ids[w, i, j] for j, axis in enumerate("XYZ")} for i, name in enumerate(ID_NAMES)}


def block_template(layout: Layout, block: tuple, grid: tuple, nthreads: int, code_end: int,
                   frames: list[int], frame_size: int, params: list[tuple[int, int, int]],
                   groups: list[tuple[int, int | None]], first_check: int) -> BlockState:
    """A block's starting image, block index zero: the launch's ids, live lanes, an
    empty stack entry (0, live, end) per warp, parameters in their registers.

    params: (row, width in bits, value) per kernel parameter.  groups: (warp, lane)
    per warp of the state: lane None for a whole warp, else that one thread (the
    scalar reference schedule).  first_check: each warp's CHECK (vm/cycles.py).
    """
    st = BlockState(layout)
    lanes = np.arange(WARP)
    for w, (wi, only) in enumerate(groups):
        linear = wi * WARP + lanes
        live = (linear < nthreads) & ((lanes == only) if only is not None else True)
        st.ids[w, 0, 0] = linear % block[0]
        st.ids[w, 0, 1] = (linear // block[0]) % block[1]
        st.ids[w, 0, 2] = linear // (block[0] * block[1])
        for j in range(3):
            st.ids[w, 2, j] = block[j]
            st.ids[w, 3, j] = grid[j]
        start_warp(st, w, live, frames[wi] if frames else 0, frame_size, code_end, first_check)
        for row, width, value in params:
            st.regs[w, row] = value & 0xFFFFFFFF
            if width == 64:
                st.regs[w, row + 1] = (value >> 32) & 0xFFFFFFFF
    return st


def frame_stride(local_bytes: int) -> int:
    """The bytes from one thread's frame to the next: the frame rounded up to 16, so that each
    thread's frame keeps the alignment of a 16-byte slot in it (an int4 read with LDL.128; an
    inlined callee's frame may leave the caller's a multiple of 4 only)."""
    return -(-max(local_bytes, 1) // 16) * 16


def start_warp(st: BlockState, w: int, live: np.ndarray, frame: int, frame_size: int, code_end: int,
               first_check: int) -> None:
    """Warp w at its start: `live` threads, none exited or waiting, one stack entry
    (0, live, end), each thread's frame `frame_size` bytes after the previous one,
    CHECK at `first_check` and nothing SAMPLED (vm/cycles.py)."""
    st.flags[w, 0] = live
    st.flags[w, 1] = ~live
    st.wait[w] = -1
    st.frame[w] = np.uint64(frame) + np.arange(WARP, dtype=np.uint64) * np.uint64(frame_size)
    st.stack[w, 0] = (0, mask_bits(live), code_end)
    st.words[w, DEPTH] = 1
    st.words[w, CHECK] = first_check
    st.words[w, SAMPLED] = -1


def start_block(st: BlockState, template: BlockState, bid: tuple, linear: int, seed: int | None) -> None:
    """Make `st` the start of block `bid` (what the JIT's block loop does natively)."""
    st.buf[:] = template.buf
    for j in range(3):
        st.ids[:, 1, j] = bid[j]
    if seed is not None:
        for w in range(st.layout.nwarps):
            st.words[w, RNG] = rng_seed(seed, linear, w)


# ---- the seeded ITS schedule: xorshift64*, per warp (so it does not depend on --jobs) -----------
M64 = (1 << 64) - 1


def rng_seed(seed: int, block: int, warp: int) -> int:
    s = ((seed * 0x9E3779B97F4A7C15) ^ (block * 0xBF58476D1CE4E5B9) ^ (warp * 0x94D049BB133111EB)) & M64
    return _signed(s | 1)


def rng_next(state: int) -> tuple[int, int]:
    """(new state, output) of xorshift64*; states are kept as int64."""
    x = state & M64
    x ^= x >> 12
    x ^= (x << 25) & M64
    x ^= x >> 27
    return _signed(x), (x * 0x2545F4914F6CDD1D) & M64


def _signed(x: int) -> int:
    return x - (1 << 64) if x >> 63 else x


def mask_bits(m: np.ndarray) -> int:
    return int(np.dot(m.astype(np.int64), 1 << np.arange(len(m), dtype=np.int64))) if len(m) else 0


def bits_mask(bits: int) -> np.ndarray:
    return ((int(bits) >> np.arange(WARP)) & 1).astype(bool)
