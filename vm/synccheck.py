"""synccheck: barriers and warp-synchronous primitives used in ways CUDA leaves undefined.

The interpreter calls `SyncCheck` where a kernel's threads synchronise:

- a block's barrier opens (`barrier_opened`) with its threads waiting at more than one
  __syncthreads() (the two arms of an if): one error per waiting thread, as
  compute-sanitizer's synccheck reports.  Threads that skip a barrier on their way to
  exit are no error: sm_70+ completes the barrier with the threads that have not
  exited (the interpreter warns of it, as before);
- under the stack model a divergent part of a warp reaching __syncthreads()
  (`divergent_warp`): the hardware hangs; the interpreter's error ends the run;
- __syncwarp(mask) whose mask leaves out the calling thread, or whose lanes disagree on
  the mask: lanes that name each other with different masks, in one instruction or
  arriving apart under independent thread scheduling (`warpsync`);
- a shuffle, vote or match whose mask leaves out the calling thread (`warp_op`).
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.tools import ERROR, sanitizer_report

MASK_OPERAND = {"SHFL": 3, "VOTE": 1, "MATCH": 1}
LANES = np.arange(32)


class SyncCheck:
    def __init__(self, interp, findings) -> None:
        self.interp, self.findings = interp, findings
        self.waiting_masks: dict[tuple, dict[int, int]] = {}   # warp -> {lane: the mask it waits with}
        self.reported: set = set()

    def error(self, what: str, w, lane: int, ins, once=None) -> None:
        if once is not None:
            if once in self.reported:
                return
            self.reported.add(once)
        self.findings.report("synccheck", ERROR, sanitizer_report(what, w, lane, ins.loc))

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
        for w, lane, pc in waits:
            self.error("Barrier error detected. Divergent thread(s) in block", w, lane, w.code.instrs[pc])

    def divergent_warp(self, w, mask: np.ndarray, ins) -> None:
        for lane in np.nonzero(mask)[0]:
            self.error("Barrier error detected. Divergent thread(s) in warp", w, int(lane), ins)

    def warpsync(self, w, ins, on: np.ndarray) -> None:
        """__syncwarp(mask) by the lanes `on` (before they wait)."""
        masks = self.interp.read(w, ins.srcs[0], 32).astype(np.int64)
        key = (id(w.state), w.index)
        waiting = self.waiting_masks.setdefault(key, {})
        for lane in list(waiting):
            if w.waiting[lane] != 99 or w.exited[lane]:
                del waiting[lane]
        arriving = {int(lane): int(masks[lane]) for lane in np.nonzero(on)[0]}
        for lane, mask in arriving.items():
            if not mask >> lane & 1:
                self.error("Barrier error detected. Invalid arguments: the mask of __syncwarp() leaves out the "
                           f"calling thread (mask {mask:#010x})", w, lane, ins, once=(id(ins), lane))
                continue
            others = {**waiting, **arriving}
            for other, theirs in others.items():
                if other != lane and mask >> other & 1 and theirs >> lane & 1 and theirs != mask:
                    self.error("Barrier error detected. Divergent thread(s) in warp: lanes disagree on the mask of "
                               f"__syncwarp() ({mask:#010x} here, {theirs:#010x} in lane {other})", w, lane, ins,
                               once=(id(ins), lane))
                    break
        if self.interp.sched == "its":
            waiting.update(arriving)

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
