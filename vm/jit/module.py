"""One function's LLVM module: what the engine hands to llvmlite.

`module_ir` puts together the warp function (function.py), the runtime IR it
calls (runtime_ir.py), the helpers it asked for (atomics, shuffles), the entry
point `run_function` and, for a kernel, the block loop `run_blocks`
(block_loop.py), with one declaration per external symbol.

Invariant: the text depends only on the code, the variant (scheduling model,
lanes, kernel, seeded, profiled, the tools compiled in) and the symbol table, so it keys the
compile caches.
"""
from __future__ import annotations

import re

from minicuda.vm.code import Code
from minicuda.vm.jit.block_loop import RUN_FUNCTION, run_blocks_ir
from minicuda.vm.jit.function import FunctionCodegen
from minicuda.vm.jit.runtime_ir import (FIND, MEMMOVE, RAND, init_flags_ir, lane_ptrs_ir, range_ptr_ir, remembered_ir,
                                        scalar_range_ir, site_ptr_ir)
from minicuda.vm.state import Layout


def module_ir(code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool,
              seeded: bool = False, profiled: bool = False, checks: frozenset = frozenset()) -> tuple[str, list[int]]:
    """The module's text, and the pcs its code can be entered at."""
    gen = FunctionCodegen(code, sched, lanes, symbols, kernel, seeded, profiled, checks)
    warp = gen.warp_function()
    pointers = (lambda write: site_ptr_ir(write) + scalar_range_ir(write)) if lanes == 1 else \
        lambda write: lane_ptrs_ir(lanes, write)
    parts = [warp, FIND, RAND, MEMMOVE, range_ptr_ir(False), range_ptr_ir(True), RUN_FUNCTION,
             remembered_ir(gen.sites), pointers(False), pointers(True)] + list(gen.helpers.values())
    if gen.initcheck:
        parts.append(init_flags_ir(lanes))
    if kernel:
        lay = Layout(code.rows, code.npreds, 1)
        # (synccheck and racecheck look at every barrier as it opens, as BAR.RED's results are delivered)
        reductions = gen.synccheck or gen.racecheck or any(ins.op == "BAR.RED" for ins in code.instrs)
        parts.append(run_blocks_ir(lay.stride["ids"], lay.stride["flags"], lay.stride["words"], reductions))
    gen.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
    decls = {}
    for text in gen.e.decls.values():   # one declaration per symbol, whoever asked for it
        decls.setdefault(re.search(r"@([\w.$]+)\(", text).group(1), text)
    return "\n".join(list(decls.values()) + parts), gen.entries
