"""synccheck: barriers and warp-synchronous primitives used in ways CUDA leaves undefined.

The interpreter calls `SyncCheck` where a kernel's threads synchronise:

- a block's barrier opens (`barrier_opened`) with its threads waiting at more than one
  __syncthreads() (the two arms of an if): one error per thread not waiting where the
  block's last warp waits, as compute-sanitizer's synccheck counts them.  Threads that skip a barrier on their way to
  exit are no error: sm_70+ completes the barrier with the threads that have not
  exited (the interpreter warns of it, as before);
- under the stack model a divergent part of a warp reaching __syncthreads()
  (`divergent_warp`): the hardware hangs; the interpreter's error ends the run;
- __syncwarp(mask) whose mask leaves out a calling thread (every thread running it gets
  an error, as on the GPU), or whose lanes disagree on
  the mask: a lane's n-th __syncwarp() naming a lane whose n-th passed another mask,
  in one instruction or in the two arms of a branch (`warpsync`);
- a shuffle, vote or match whose mask leaves out the calling thread (`warp_op`).
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.tools import ERROR, sanitizer_report

MASK_OPERAND = {"SHFL": 3, "VOTE": 1, "MATCH": 1}
LANES = np.arange(32)


class SyncCheck:
    def __init__(self, interp) -> None:
        self.interp = interp   # (its `findings` take the reports: the JIT keeps them per block)
        self.counts: dict[tuple, list[int]] = {}   # warp -> how many __syncwarp() each lane has passed
        self.passed: dict[tuple, dict] = {}        # warp -> {(lane, n): the mask of its n-th __syncwarp()}
        self.reported: set = set()

    def error(self, what: str, w, lane: int, ins, once=None) -> None:
        if once is not None:
            if once in self.reported:
                return
            self.reported.add(once)
        self.interp.findings.report("synccheck", ERROR, sanitizer_report(what, w, lane, ins.loc))

    def barrier_opened(self, warps: list, sched: str) -> None:
        """Every thread of a block still running waits at a barrier: they must wait at one."""
        waits = []
        for w in warps:
            if sched == "its":
                after = w.pc
            else:
                after = np.full(32, w.stack[-1][0] if w.stack else 0)
            for lane in np.nonzero(w.at_bar)[0]:
                waits.append((w, int(lane), int(after[lane]) - 1))
        if len({pc for _, _, pc in waits}) < 2:
            return
        last = waits[-1][2]   # the barrier the block's last warp waits at; the threads elsewhere diverged
        for w, lane, pc in waits:
            if pc != last:
                self.error("Barrier error detected. Divergent thread(s) in block", w, lane, w.code.instrs[pc])

    def divergent_warp(self, w, mask: np.ndarray, ins) -> None:
        for lane in np.nonzero(mask)[0]:
            self.error("Barrier error detected. Divergent thread(s) in warp", w, int(lane), ins)

    def warpsync(self, w, ins, on: np.ndarray) -> None:
        """__syncwarp(mask) by the lanes `on`.  A lane's n-th __syncwarp() meets the n-th of the
        lanes its mask names, whichever instruction that is: they must pass the same mask."""
        masks = self.interp.read(w, ins.srcs[0], 32).astype(np.int64) & 0xFFFFFFFF
        key = (tuple(int(w.ids["SR_CTAID"][a][0]) for a in "XYZ"), w.index)   # (block, warp)
        count = self.counts.setdefault(key, [0] * 32)
        passed = self.passed.setdefault(key, {})
        lanes = [int(x) for x in np.nonzero(on)[0]]
        left_out = [lane for lane in lanes if not int(masks[lane]) >> lane & 1]
        for lane in lanes:
            mask, n = int(masks[lane]), count[lane]
            count[lane] += 1
            passed[lane, n] = mask, ins
            if left_out:   # the GPU fails the instruction for every thread that runs it
                self.error("Barrier error detected. Invalid arguments: the mask of __syncwarp() leaves out "
                           f"calling threads (mask {mask:#010x}, lanes {left_out})", w, lane, ins, once=(id(ins), lane))
                continue
            for other in range(32):
                theirs, where = passed.get((other, n), (None, None))
                if other == lane or theirs is None or theirs == mask:
                    continue
                if mask >> other & 1:
                    self.disagree(w, lane, ins, mask, other, theirs)
                if theirs >> lane & 1:
                    self.disagree(w, other, where, theirs, lane, mask)

    def disagree(self, w, lane: int, ins, mask: int, other: int, theirs: int) -> None:
        self.error("Barrier error detected. Divergent thread(s) in warp: lanes disagree on the mask of "
                   f"__syncwarp() ({mask:#010x} here, {theirs:#010x} in lane {other})", w, lane, ins,
                   once=(id(ins), lane))

    def warp_op(self, w, ins, on: np.ndarray) -> None:
        """A shuffle, vote or match by the lanes `on`: each must be named in its mask."""
        index = MASK_OPERAND.get(ins.op)
        if index is None or index >= len(ins.srcs):
            return
        masks = self.interp.read(w, ins.srcs[index], 32).astype(np.int64)
        left_out = on & ((masks >> LANES) & 1 == 0)
        for lane in np.nonzero(left_out)[0]:
            what = {"SHFL": "shuffle", "VOTE": "vote", "MATCH": "match"}[ins.op]
            self.error(f"Barrier error detected. Invalid arguments: the mask of a warp {what} leaves out the calling "
                       f"thread (mask {int(masks[lane]) & 0xFFFFFFFF:#010x})", w, int(lane), ins, once=(id(ins), int(lane)))
