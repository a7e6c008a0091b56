"""Stopping a running program from outside, and saying where each warp was.

A `StopFlag` is one int64 word that something outside the running code sets (the
watcher thread of vm/watch.py for --timeout, --watchdog and Ctrl-C): native code
reads it at every straight run's budget check and at each block's start, the
interpreter before every instruction.  Code that sees it set stops before the
instruction it was about to run, so the state of every warp is one the
interpreter could go on from, and raises `Stopped`.  On its way out, each level
notes what it knows: the warps of the block(s) in flight (`WarpPosition`: block,
warp, the source line of each group of its threads), the kernel and how many of
its blocks were done, the host functions' lines (innermost first).
`report_lines` turns that into clang-shaped lines, bounded however many warps
there were.

Invariants: the flag's word never moves (native code holds its address); a reason
once set is only replaced by a stronger one (a watchdog's stop by a timeout or an
interrupt), and only the watchdog's reason is ever cleared, by the launch it stopped.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from minicuda.vm.state import AT_BAR, DONE, STATUS

TIMEOUT, INTERRUPT, WATCHDOG = 1, 2, 3   # the flag's values: why the program is stopped
EXIT_STATUS = {TIMEOUT: 124, INTERRUPT: 130}   # as timeout(1) and a shell report them
SHOWN_WARPS = 8   # warps named one by one in a report; the rest are counted per line


class StopFlag:
    """The word native code polls; 0 while the program may run on."""

    def __init__(self):
        self.word = np.zeros(1, dtype=np.int64)
        self.address = self.word.ctypes.data
        self.lock = threading.Lock()

    @property
    def reason(self) -> int:
        return int(self.word[0])

    def request(self, reason: int) -> bool:
        """Ask the program to stop; False when a stronger reason is already set."""
        with self.lock:
            current = int(self.word[0])
            if current and (current != WATCHDOG or reason == WATCHDOG):
                return False
            self.word[0] = reason
            return True

    def clear_watchdog(self) -> None:
        """The launch the watchdog stopped has been given up: the program runs on."""
        with self.lock:
            if int(self.word[0]) == WATCHDOG:
                self.word[0] = 0


@dataclass
class WarpPosition:
    """Where a warp's unfinished threads were: (source location or None, threads) per pc."""
    block: tuple
    warp: int
    thread: tuple = (0, 0, 0)   # its first unfinished thread
    places: list = field(default_factory=list)
    at_barrier: bool = False


@dataclass
class HostFrame:
    function: str
    loc: object   # SourceLocation or None


class Stopped(Exception):
    """The program was stopped from outside (timeout, Ctrl-C, watchdog), with where it was."""

    def __init__(self, reason: int):
        super().__init__({TIMEOUT: "timeout", INTERRUPT: "interrupt", WATCHDOG: "watchdog"}.get(reason, "stop"))
        self.reason = reason
        self.kernel = None            # (name, grid, block), once a launch notes it
        self.blocks_done = None       # (done, total)
        self.warps: list[WarpPosition] = []
        self.host: list[HostFrame] = []

    def note_warps(self, positions: list[WarpPosition]) -> None:
        """Add warps not named yet (an inner level, a called function, knows better)."""
        known = {(p.block, p.warp) for p in self.warps}
        self.warps.extend(p for p in positions if (p.block, p.warp) not in known)

    def note_kernel(self, name: str, grid: tuple, block: tuple, done: int, total: int) -> None:
        if self.kernel is None:
            self.kernel = (name, grid, block)
            self.blocks_done = (done, total)


def warp_position(w, block: tuple, sched: str) -> WarpPosition | None:
    """Where warp `w` (an interpreter Warp, its Python side current) was under `sched`;
    None when it was done."""
    code = w.code
    if int(w.state.words[w.index, STATUS]) == DONE:
        return None
    position = WarpPosition(block, w.ids["warp"])
    if sched != "its":
        if not w.stack or w.done:
            return None
        pc, mask, _ = w.stack[-1]
        unfinished = mask & ~w.exited
        groups = [(pc, int(unfinished.sum()))]
    else:
        unfinished = w.live & ~w.exited & (w.pc < code.end)
        if not unfinished.any():
            return None
        pcs, counts = np.unique(w.pc[unfinished], return_counts=True)
        groups = [(int(p), int(n)) for p, n in zip(pcs, counts)]
    lane = int(np.nonzero(unfinished)[0][0]) if unfinished.any() else 0
    position.thread = tuple(int(w.ids["SR_TID"][a][lane]) for a in "XYZ")
    position.at_barrier = bool(w.at_bar.any()) or int(w.state.words[w.index, STATUS]) == AT_BAR
    for pc, n in groups:
        if position.at_barrier and 0 < pc <= code.end:
            pc -= 1   # the barrier it waits at, not the instruction after it
        loc = code.instrs[pc].loc if 0 <= pc < code.end else None
        position.places.append((loc, n))
    return position


def block_positions(warps, block: tuple, sched: str) -> list[WarpPosition]:
    """The unfinished warps of a block."""
    return [p for p in (warp_position(w, block, sched) for w in warps) if p is not None]


def report_lines(stop: Stopped, what: str) -> list[str]:
    """The report of a timeout or an interrupt: `what` says which ("timed out after 2 s
    (--timeout)"); then where each warp and the host were."""
    if stop.kernel is not None:
        name, grid, block = stop.kernel
        done, total = stop.blocks_done
        head = (f"{what} in kernel '{name}' <<<{_dim(grid)}, {_dim(block)}>>>: {done} of {total} blocks done, "
                f"{len(stop.warps)} warp{'s' if len(stop.warps) != 1 else ''} unfinished")
    else:
        head = f"{what} in host code"
    return [_located(_first_loc(stop), "error", head)] + _warp_lines(stop.warps) + _host_lines(stop)


def watchdog_lines(stop: Stopped, seconds: float | None) -> list[str]:
    """The launch the watchdog stopped, as CUDA's launch errors are reported, then where
    each warp was."""
    name, grid, block = stop.kernel
    done, total = stop.blocks_done
    first = stop.warps[0] if stop.warps else None
    at = f", block {_dim(first.block)}, thread {_dim(first.thread)}" if first is not None else ""
    limit = f" {seconds:g} s" if seconds is not None else ""
    head = (f"cudaErrorLaunchTimeout: the launch timed out and was terminated in kernel '{name}'{at}: it ran "
            f"longer than the watchdog's{limit} (--watchdog), {done} of {total} blocks done")
    return [_located(_first_loc(stop), "error", head)] + _warp_lines(stop.warps)


def _first_loc(stop: Stopped):
    for p in stop.warps:
        for loc, _ in p.places:
            if loc is not None:
                return loc
    return stop.host[0].loc if stop.host and stop.kernel is None else None


def _located(loc, kind: str, text: str) -> str:
    return f"{loc}: {kind}: {text}" if loc is not None else f"minicuda: {kind}: {text}"


def _host_lines(stop: Stopped) -> list[str]:
    lines = []
    for i, frame in enumerate(stop.host):
        launching = f", launching '{stop.kernel[0]}'" if i == 0 and stop.kernel is not None else ""
        said = "the host was here, in" if i == 0 else "called from"
        lines.append(_located(frame.loc, "note", f"{said} {frame.function}(){launching}"))
    return lines


def _warp_lines(warps: list[WarpPosition]) -> list[str]:
    lines, rest = [], {}
    for i, p in enumerate(warps):
        for loc, n in p.places:
            if i < SHOWN_WARPS:
                wait = ", waiting at __syncthreads()" if p.at_barrier else ""
                lines.append(_located(loc, "note", f"block {_dim(p.block)}, warp {p.warp}: "
                                                   f"{n} thread{'s' if n != 1 else ''} here{wait}"))
            else:
                key = str(loc) if loc is not None else "minicuda"
                rest[key] = rest.get(key, 0) + 1
    for where, count in sorted(rest.items(), key=lambda kv: -kv[1])[:SHOWN_WARPS]:
        lines.append(f"{where}: note: and {count} more warp{'s' if count != 1 else ''} here")
    left = len(rest) - SHOWN_WARPS
    if left > 0:
        lines.append(f"minicuda: note: and warps at {left} more places")
    return lines


def _dim(d: tuple) -> str:
    return f"({','.join(str(int(x)) for x in d)})"
