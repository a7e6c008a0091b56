"""What every block of a launch shares (`LaunchSetup`): the kernel's code, the block's
state layout and starting image, the symbols with shared memory at its fixed
addresses (the kernel's static `__shared__` variables in the module's order, then
the launch's dynamic shared memory, as on a GPU), and the shape of a block scope.
Both engines start blocks from here."""
from __future__ import annotations

from minicuda.ir import DYNAMIC_SHARED, block_shared
from minicuda.vm import cycles
from minicuda.vm.load_rounds import state_words
from minicuda.vm.memory import BlockScope
from minicuda.vm.state import WARP, Layout, block_template, frame_stride


class LaunchSetup:
    """What every block of a launch shares: the code, the block's state layout and its
    starting image, the symbols (shared memory at its fixed addresses), the shape of
    a block scope.  Both engines start blocks from here; `interp` is the launching
    Interpreter (its module, code, symbols and scheduling model)."""

    def __init__(self, interp, kernel: str, grid: tuple, block: tuple, args: list[int],
                 shared_dynamic: int):
        self.code = code = interp.code(kernel)
        fn = code.fn
        self.grid, self.block = grid, block
        nthreads = block[0] * block[1] * block[2]
        nwarps = (nthreads + WARP - 1) // WARP
        self.shared = []
        if code.block_shared is None:
            code.block_shared = set(block_shared(interp.module, fn.name))
        for name, g in interp.module.globals.items():
            if name in code.block_shared:
                self.shared.append((name, g.size))
        # the dynamic array after every static one (BlockScope aligns each to 16 bytes)
        if DYNAMIC_SHARED in interp.module.globals:
            self.shared.append((DYNAMIC_SHARED, shared_dynamic))
        self.frame_size = frame_stride(fn.local_bytes)
        self.frames = [(f"frames of warp {wi}", WARP * self.frame_size) for wi in range(nwarps)] if fn.local_bytes else []
        scope = self.new_scope()
        self.symbols = dict(interp.symbols)
        for name, _ in self.shared:
            self.symbols[name] = scope.address(name)
        frame_bases = [scope.address(name) for name, _ in self.frames]
        # the scalar reference runs every thread on its own, one lane of a warp at a time
        if interp.sched == "scalar":
            groups = [(wi, lane) for wi in range(nwarps) for lane in range(WARP) if wi * WARP + lane < nthreads]
        else:
            groups = [(wi, None) for wi in range(nwarps)]
        self.warp_of = [wi for wi, _ in groups]
        # (the JIT keeps each warp's load round trips in the state, for the timing model)
        rounds = state_words(code) if getattr(interp, "count_rounds", False) else 0
        self.layout = Layout(code.rows, code.npreds, len(groups), rounds)
        params = []
        for p, value in zip(fn.params, args):
            params.append((code.slot(p.reg), 64 if p.size == 8 else 32, value))
        self.template = block_template(self.layout, block, grid, nthreads, code.end, frame_bases, self.frame_size,
                                       params, groups, cycles.FIRST_CHECK)

    def new_scope(self) -> BlockScope:
        return BlockScope(self.shared, self.frames)

    def blocks(self):
        """Every block's index, x fastest: block `linear` is blocks()[linear]."""
        for linear in range(self.grid[0] * self.grid[1] * self.grid[2]):
            yield self.block_id(linear)

    def block_id(self, linear: int) -> tuple:
        gx, gy, _ = self.grid
        return (linear % gx, (linear // gx) % gy, linear // (gx * gy))
