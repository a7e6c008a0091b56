"""Proven spins: a warp whose whole state repeats while memory stays as it was.

A warp is stuck only when that is proven: from one state, with memory unchanged,
it came back to the very same state, so it will go round that cycle for ever
unless another warp changes memory.  The state is everything that decides what a
warp does next: its registers and predicates, its lane flags (live, exited, at a
barrier), its threads' pcs and barrier waits (ITS), its reconvergence stack (the
stack model), the path it runs and its convergence-barrier masks.  Memory is the
same at both ends when no store in between changed a byte: the stall counter
(warp instructions since memory last changed, the state's STALL word) says so.

The look is cheap because it is rare and native: a warp is watched only once its
stall passes its CHECK word (FIRST_CHECK at first), and then only as it is about to
run an instruction at a label (every loop goes through one): there its state is
kept, up to SAMPLES times (a dict keyed by the state's bytes: a hash, then a full
comparison).  A state seen twice is a proven cycle.  A look that proves nothing
doubles CHECK, so a long loop that changes registers is looked at a logarithmic
number of times; a memory change sets CHECK back to FIRST_CHECK and SAMPLED (the
stall of the last state kept) to -1, which ends the look.  Native code runs the
loop and stops only at those labels (SAMPLED tells it the state there is kept),
so both engines keep the same states and reach the same verdicts.

What a proven cycle means is the scheduler's business (vm/interp.py): a kernel's
warp waits for the other warps of its block to change memory, and a block whose
warps all wait so is stuck; a called function's cycle is reported at once.
A seeded ITS schedule draws a random number at each choice of path, so its state,
generator included, does not repeat: a seeded run is not judged stuck.
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.errors import VMError
from minicuda.vm.state import BSET, CHECK, CURRENT, DEPTH, RNG, SAMPLED, STALL

FIRST_CHECK = 20_000   # warp instructions without a memory change before a warp is first watched
SAMPLES = 12           # states kept in one look: a cycle through fewer labels is proven


class Window:
    """One look at a warp: the states kept at labels, by stall."""

    def __init__(self, key):
        self.key = key                # (function, block): a look belongs to one warp's run
        self.last = -1                # the stall of the last state kept (the warp's SAMPLED)
        self.seen: dict[bytes, int] = {}   # state -> the stall it was kept at
        self.verdict = None           # the report, once proven (raised if the block is stuck)

    def observe(self, stall: int, state: bytes) -> int | None:
        """The state at `stall`; the cycle's length once one is proven."""
        self.last = stall
        then = self.seen.get(state)
        if then is not None:
            return stall - then
        self.seen[state] = stall
        return None

    def full(self) -> bool:
        return len(self.seen) >= SAMPLES


def window_for(windows: dict, index: int, key, sampled: int) -> Window:
    """Warp `index`'s look going on (its last state kept at `sampled`), or a new one."""
    window = windows.get(index)
    if window is None or window.key != key or window.last != sampled:
        window = windows[index] = Window(key)
    return window


def due(state, index: int, labels: frozenset, its: bool) -> bool:
    """Whether warp `index` of `state` is to have its state kept now: past its CHECK, about
    to run an instruction at a label, not kept at this stall already."""
    words = state.words[index]
    stall = int(words[STALL])
    if stall <= int(words[CHECK]) or stall == int(words[SAMPLED]):
        return False
    depth = int(words[DEPTH])
    pc = int(words[CURRENT]) if its else int(state.stack[index, depth - 1, 0]) if depth else -1
    return pc in labels


def keep(state, index: int, code) -> int | None:
    """Keep warp `index`'s state (the state's arrays are the truth) in its look: the
    length of the cycle once one is proven.  A look that proves nothing in SAMPLES
    states ends, and the next begins at twice the stall (CHECK)."""
    words = state.words[index]
    key = (code, tuple(int(v) for v in state.ids[index, 1, :, 0]))
    window = window_for(state.windows, index, key, int(words[SAMPLED]))
    stall = int(words[STALL])
    words[SAMPLED] = stall
    period = window.observe(stall, warp_state(state, index))
    if period is None and window.full():
        words[CHECK] *= 2
        del state.windows[index]
    return period


def warp_state(state, index: int) -> bytes:
    """Warp `index`'s state as bytes: all that decides what it does next (not its stall)."""
    words = state.words[index]
    depth = int(words[DEPTH])
    return b"".join((state.regs[index].tobytes(), state.preds[index].tobytes(), state.flags[index].tobytes(),
                     state.pcs[index].tobytes(), state.wait[index].tobytes(), state.stack[index, :depth].tobytes(),
                     words[[DEPTH, CURRENT, BSET, RNG]].tobytes(), state.bmask[index].tobytes()))


def simt_deadlock(w, spinning: np.ndarray, waiting: np.ndarray) -> VMError:
    """The report of a cycle under the stack model that `waiting` threads never run in."""
    top = w.stack[-1]
    ins = w.code.instrs[top[0]] if top[0] < w.code.end else None
    below = next((e for e in reversed(w.stack[:-1]) if (e[1] & waiting).any()), None)
    wait_ins = w.code.instrs[below[0]] if below is not None and below[0] < w.code.end else None
    where = f" at line {ins.loc.line}" if ins is not None and ins.loc else ""
    wait_where = f" (line {wait_ins.loc.line})" if wait_ins is not None and wait_ins.loc else ""
    return VMError("deadlock", f"SIMT deadlock in kernel '{w.code.fn.name}', block "
                               f"{tuple(int(w.ids['SR_CTAID'][a][0]) for a in 'XYZ')}, warp {w.ids['warp']}: threads "
                               f"{_lanes(spinning)} spin{where} without progress while threads "
                               f"{_lanes(waiting)} of the same warp wait at their "
                               f"reconvergence point{wait_where}; the per-warp reconvergence stack runs "
                               f"only one path. This program completes under independent thread "
                               f"scheduling (--arch volta or --sched=its).", ins.loc if ins else None)


def no_progress(w, ins, period: int) -> VMError:
    """The report of a warp going round a cycle of `period` instructions."""
    bid = tuple(int(w.ids["SR_CTAID"][a][0]) for a in "XYZ")
    return VMError("deadlock", f"warp {w.ids['warp']} of kernel '{w.code.fn.name}', block {bid}, makes no "
                               f"progress: {w.stall} warp instructions without changing memory, its state "
                               f"repeating every {period} (a spin on a value no thread will write? "
                               f"blocks run one after another here, so a block cannot wait for a later one)",
                   ins.loc)


def _lanes(m: np.ndarray) -> list[int]:
    return [int(i) for i in np.nonzero(m)[0]]
