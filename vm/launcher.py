"""Launching kernels from Python, in the style users know from Numba.

`program = minicuda.compile(...)`; `device = Device(program, sched="its")`;
`stats = device.launch("mathKernel1", grid, block, c)` copies numpy arrays to
device memory, runs the kernel warp by warp, copies them back and returns the
launch's metrics.  Scalars are passed by value (ints as the parameter's width,
floats as f32 or f64 bits).
"""
from __future__ import annotations

import struct

import numpy as np

from minicuda.vm.engine import make_engine
from minicuda.vm.interp import Interpreter, LaunchMetrics
from minicuda.vm.memory import Memory

STACK_ARCH_BELOW = 70


def sched_for(arch: int) -> str:
    return "stack" if arch < STACK_ARCH_BELOW else "its"


def _dim(d) -> tuple:
    d = (d,) if isinstance(d, int) else tuple(d)
    return tuple(d) + (1,) * (3 - len(d))


class Device:
    def __init__(self, program, sched: str | None = None, max_steps: int = 50_000_000, trace=None,
                 engine: str = "jit", jobs: int | None = None):
        self.program = program
        self.memory = Memory()
        self.symbols: dict[str, int] = {}
        for name, g in program.module.globals.items():
            if g.space != "shared":
                space = {"global": "global", "constant": "constant"}.get(g.space, "static")
                self.symbols[name] = self.memory.alloc(g.size, space, name, align=max(g.align, 8), init=g.init)
        self.sched = sched or sched_for(program.options.arch)
        self.interp = Interpreter(program.module, self.memory, self.symbols, self.sched, max_steps, trace)
        self.engine = make_engine("interp" if trace is not None else engine, self, jobs)

    def launch(self, kernel: str, grid, block, *args, shared: int = 0) -> LaunchMetrics:
        fn = self.program.module.functions[kernel]
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
        metrics = self.engine.launch(kernel, _dim(grid), _dim(block), values, self.program.arch, shared)
        for a, address in copies:
            a[...] = np.frombuffer(self.memory.read(address, a.nbytes), dtype=a.dtype).reshape(a.shape)
        return metrics
