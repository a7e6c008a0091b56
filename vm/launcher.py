"""Launching kernels from Python, in the style users know from Numba.

`program = minicuda.compile(...)`; `device = Device(program, sched="its")`;
`stats = device.launch("mathKernel1", grid, block, c)` copies numpy arrays to
device memory, runs the kernel warp by warp, copies them back and returns the
launch's metrics (`device.launches` keeps them all).  Scalars are passed by value
(ints as the parameter's width, floats as f32 or f64 bits).  A Device runs an ir.Module; given a compiled program it
takes the program's module for its scheduling model (see vm/machine.py).
"""
from __future__ import annotations

import struct

import numpy as np

from minicuda.vm.metrics import LaunchMetrics
from minicuda.vm.machine import Machine


def _dim(d) -> tuple:
    d = (d,) if isinstance(d, int) else tuple(d)
    return tuple(d) + (1,) * (3 - len(d))


class Device:
    def __init__(self, module, sched: str | None = None, max_steps: int | None = None, trace=None,
                 engine: str = "jit", jobs: int | None = None, stdout=None, memory_counters: bool = False,
                 profile: bool = False, timeline_warp: tuple[int, int] | None = None, timing_model: bool = False):
        """`memory_counters`: count every access (vm/memcounters.py); `timing_model`: model each
        launch's time (vm/timing_model.py), its load round trips counted too (vm/load_rounds.py:
        kernels then run on the interpreter); `profile`: count per instruction, and
        `timeline_warp` (linear block, warp in the block): record that warp's issue trace
        (vm/profile.py; the JIT compiles a profile's counters and the memory counters; the
        block of the traced warp is interpreted)."""
        self.machine = Machine(module, sched=sched, max_steps=max_steps, trace=trace, engine=engine, jobs=jobs,
                               stdout=stdout, memory_counters=memory_counters, profile=profile,
                               timeline_warp=timeline_warp, timing_model=timing_model)
        self.module = self.machine.module
        self.memory, self.symbols = self.machine.memory, self.machine.symbols
        self.sched, self.interp, self.engine = self.machine.sched, self.machine.interp, self.machine.engine
        self.launches: list[LaunchMetrics] = []   # the metrics of every launch so far, in order

    def launch(self, kernel: str, grid, block, *args, shared: int = 0) -> LaunchMetrics:
        fn = self.module.functions[kernel]
        values, copies = [], []
        for p, a in zip(fn.params, args):
            if isinstance(a, np.ndarray):
                address = self.memory.alloc(a.nbytes, "global", f"{p.name} ({a.dtype}[{a.size}])")
                self.memory.write(address, a.tobytes())
                copies.append((a, address))
                values.append(address)
            elif isinstance(a, float):
                values.append(struct.unpack("<I", struct.pack("<f", a))[0] if p.size == 4 else
                              struct.unpack("<Q", struct.pack("<d", a))[0])
            else:
                values.append(int(a) & ((1 << (8 * p.size)) - 1))
        metrics = self.machine.kernel_engine.launch(kernel, _dim(grid), _dim(block), values, self.module.arch, shared)
        metrics.occupancy = self.machine.launch_occupancy(fn, _dim(block), shared)
        self.launches.append(metrics)
        self.machine.runtime.flush_device()
        for a, address in copies:
            a[...] = np.frombuffer(self.memory.read(address, a.nbytes), dtype=a.dtype).reshape(a.shape)
        return metrics
