"""Dynamic parallelism: kernel launches from device code (nvcc -rdc=true).

A device-side launch does not run at once: it is recorded, per launching thread, as a
pending grid of its parent grid, with the checks CUDA makes at the launch (the
configuration; below sm_90, CUDA 11's nesting depth limit of 24:
cudaErrorLaunchMaxDepthExceeded; the pending-launch limit
cudaLimitDevRuntimePendingLaunchCount, 2048 by default: cudaErrorLaunchPendingCountExceeded,
counting the device-launched grids not yet complete, a grid being complete when it and
its descendants have finished: an H100 with CUDA 13 runs a chain of self-launches to
depth 2048 and fails the next launch so, with no depth limit), a refused launch setting the launching thread's
own last error (device-side cudaGetLastError / cudaPeekAtLastError read it).

The order children run in (docs/semantics.md, "Nested launches"): a grid's children
start when the grid has finished, in the order they were launched (by block, then by
launch within the block); their own children start after all of them, generation by
generation (breadth first, a FIFO of grids).  This is one order a GPU may run them in,
and the one it shows for the usual shapes: every printf of the parent before the
child's, depth by depth.  The host's launch returns when every descendant is done (the
parent grid is complete only when its children are).  A device-side
cudaDeviceSynchronize() (CUDA 11; sm_35..sm_80 targets) runs the calling block's
pending children, and their descendants, to completion there; a program that calls it
runs its kernels on the interpreter, whose launches nest.
"""
from __future__ import annotations

import itertools
import threading
from collections import deque
from dataclasses import dataclass

import numpy as np

from minicuda.vm.launch_checks import configuration_error, launch_error

MAX_DEPTH = 24                   # CUDA 11's nesting depth limit below sm_90 (the host's grid is depth 0)
DEPTH_LIMITED_BELOW = 90

PENDING_LIMIT = 4                # cudaLimitDevRuntimePendingLaunchCount
PENDING_DEFAULT = 2048
MAX_DEPTH_EXCEEDED, PENDING_COUNT_EXCEEDED = 65, 69   # cudaErrorLaunchMaxDepthExceeded, ...PendingCountExceeded
# a device-side launch's grid or block the GPU cannot run: cudaErrorInvalidConfiguration, where the
# host's launch gets cudaErrorInvalidValue (both measured on an H100 with CUDA 13)
INVALID_CONFIGURATION = 9

@dataclass
class Completion:
    """A grid's place in its tree: complete once it has finished and its children are complete."""
    parent: "Completion | None"
    counted: bool         # launched from the device (counts against the pending-launch limit)
    open: int = 0         # children not complete
    finished: bool = False

@dataclass
class PendingGrid:
    kernel: str
    grid: tuple
    block: tuple
    shared: int
    args: list
    depth: int
    parent: str           # the launching kernel
    order: tuple          # (parent block's linear index, launch number in that block)
    origin: tuple         # (block, thread) of the launching thread, for --trace
    completion: Completion = None

@dataclass
class RunningGrid:
    serial: int
    depth: int
    kernel: str
    children: list        # PendingGrid launched by its threads, in any order until sorted
    completion: Completion = None

class NestedLaunches:
    """The grids running (innermost last) and the device-side launches not yet started."""

    def __init__(self, machine):
        self.machine = machine
        self.running: list[RunningGrid] = []
        self.serials = itertools.count(1)
        self.pending_count = 0
        self.block_launches: dict[tuple, int] = {}   # (grid serial, block) -> launches so far
        self.errors: dict[tuple, int] = {}           # (grid serial, block, thread) -> last error
        self.lock = threading.Lock()                 # the JIT's workers launch side by side

    # ---- from device code ---------------------------------------------------------------
    def launch(self, interp, w, ins, on: np.ndarray) -> None:
        """A LAUNCH in device code, for each thread of `on`: recorded or refused."""
        machine = self.machine
        name = ins.srcs[0].name
        kernel = machine.module.functions[name]
        dims = [interp.read(w, s, 32) for s in ins.srcs[1:7]]
        shared = interp.read(w, ins.srcs[7], 64)
        args = [interp.read(w, s, 64 if p.size == 8 else 32) for p, s in zip(kernel.params, ins.srcs[9:])]
        parent = self.running[-1]
        for lane in np.nonzero(on)[0]:
            grid, block = (tuple(int(d[lane]) for d in dims[k:k + 3]) for k in (0, 3))
            code = INVALID_CONFIGURATION if configuration_error(machine.arch, grid, block) else \
                launch_error(kernel, machine.arch, grid, block, int(shared[lane]),
                             machine.kernel_static_shared(name), machine.runtime.max_dynamic_shared.get(name))
            if not code and parent.depth + 1 > MAX_DEPTH and machine.arch < DEPTH_LIMITED_BELOW:
                code = MAX_DEPTH_EXCEEDED
            where = _block_linear(w, lane), _thread(w, lane)
            with self.lock:
                if not code and self.pending_count >= machine.runtime.limits.get(PENDING_LIMIT, PENDING_DEFAULT):
                    code = PENDING_COUNT_EXCEEDED
                if code:
                    self.errors[(parent.serial, *where)] = code
                    continue
                key = (parent.serial, where[0])
                number = self.block_launches.get(key, 0)
                self.block_launches[key] = number + 1
                self.pending_count += 1
                parent.completion.open += 1
                parent.children.append(PendingGrid(name, grid, block, int(shared[lane]),
                                                   [int(a[lane]) for a in args], parent.depth + 1, parent.kernel,
                                                   (where[0], number), (_block(w, lane), where[1]),
                                                   Completion(parent.completion, True)))

    def last_error(self, w, lane: int, reset: bool) -> int:
        """The calling thread's last device-side error (cleared by cudaGetLastError)."""
        key = (self.running[-1].serial, _block_linear(w, lane), _thread(w, lane))
        with self.lock:
            return self.errors.pop(key, 0) if reset else self.errors.get(key, 0)

    def synchronize(self, w, lane: int) -> int:
        """CUDA 11's device-side cudaDeviceSynchronize(): the calling block's children so
        far, and their descendants, run to completion now."""
        parent = self.running[-1]
        block = _block_linear(w, lane)
        mine = sorted((c for c in parent.children if c.order[0] == block), key=lambda c: c.order)
        parent.children = [c for c in parent.children if c.order[0] != block]
        self.run_generations(mine)
        return 0

    # ---- grids --------------------------------------------------------------------------
    def run(self, kernel: str, depth: int, start, completion: Completion | None = None) -> object:
        """Run one grid (`start()` runs it and returns its metrics) as the innermost running
        grid: (its metrics, its children in launch order)."""
        completion = completion or Completion(None, False)
        grid = RunningGrid(next(self.serials), depth, kernel, [], completion)
        self.running.append(grid)
        try:
            metrics = start()
        finally:
            self.running.pop()
            self.forget(grid.serial)
            self.finished(completion)
        return metrics, sorted(grid.children, key=lambda c: c.order)

    def finished(self, completion: Completion) -> None:
        """A grid has finished: it, and the grids it completes, no longer count as pending."""
        with self.lock:
            completion.finished = True
            while completion is not None and completion.finished and completion.open == 0:
                if completion.counted:
                    self.pending_count -= 1
                if completion.parent is not None:
                    completion.parent.open -= 1
                completion = completion.parent

    def forget(self, serial: int) -> None:
        with self.lock:
            self.errors = {k: v for k, v in self.errors.items() if k[0] != serial}
            self.block_launches = {k: v for k, v in self.block_launches.items() if k[0] != serial}

    def run_generations(self, children: list) -> None:
        """The grids `children` and every grid they launch, breadth first."""
        queue = deque(children)
        while queue:
            child = queue.popleft()
            if self.machine.runtime.sticky_error or self.machine.runtime.pending_error:
                self.finished(child.completion)
                continue   # the context is lost: nothing more runs
            queue.extend(self.machine.run_child(child))

def uses_device_sync(module) -> bool:
    """Whether device code calls cudaDeviceSynchronize() (CUDA 11's nested wait)."""
    return any(ins.op == "CALL" and "RT" in ins.mods and getattr(ins.srcs[0], "name", "") == "cudaDeviceSynchronize"
               for fn in module.functions.values() if fn.kind != "host"
               for b in fn.blocks for ins in b.instrs)

def _thread(w, lane: int) -> tuple:
    return tuple(int(w.ids["SR_TID"][a][lane]) for a in "XYZ")

def _block(w, lane: int) -> tuple:
    return tuple(int(w.ids["SR_CTAID"][a][lane]) for a in "XYZ")

def _block_linear(w, lane: int) -> int:
    x, y, z = _block(w, lane)
    nx, ny = (int(w.ids["SR_NCTAID"][a][lane]) for a in "XY")
    return (z * ny + y) * nx + x
