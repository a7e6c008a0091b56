"""One function's LLVM module: what the engine hands to llvmlite.

`module_ir` puts together the warp function (function.py), the runtime IR it
calls (runtime_ir.py), the helpers it asked for (atomics, shuffles), the entry
point `run_function` and, for a kernel, the block loop `run_blocks`
(block_loop.py), with one declaration per external symbol, and the modules of the
native callees its host code calls (host_callees.py), their definitions renamed.

Invariant: the text depends only on the code, the variant (scheduling model,
lanes, kernel, seeded, profiled, the tools compiled in) and the symbol table, so it keys the
compile caches.
"""
from __future__ import annotations

import re

from minicuda.vm.code import Code
from minicuda.vm.jit.block_loop import RUN_FUNCTION, run_blocks_ir
from minicuda.vm.jit.function import FunctionCodegen
from minicuda.vm.jit.live_rows import block_start_rows
from minicuda.vm.jit.runtime_ir import (FIND, MEMMOVE, RAND, init_flags_ir, lane_ptrs_ir, range_ptr_ir, remembered_ir,
                                        scalar_range_ir)
from minicuda.vm.state import Layout


def module_parts(code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool, seeded: bool = False,
                 profiled: bool = False, checks: frozenset = frozenset()) -> tuple[FunctionCodegen, dict[str, str], list[str]]:
    """The generator that wrote the module, its declarations (one per symbol) and its definitions."""
    gen = FunctionCodegen(code, sched, lanes, symbols, kernel, seeded, profiled, checks)
    warp = gen.warp_function()
    pointers = scalar_range_ir if lanes == 1 else \
        lambda write: lane_ptrs_ir(lanes, write)
    parts = [warp, FIND, RAND, MEMMOVE, range_ptr_ir(False), range_ptr_ir(True), RUN_FUNCTION,
             remembered_ir(gen.sites), pointers(False), pointers(True)] + list(gen.helpers.values())
    if gen.initcheck:
        parts.append(init_flags_ir(lanes))
    if kernel:
        lay = Layout(code.rows, code.npreds, 1)
        # (synccheck and racecheck look at every barrier as it opens, as BAR.RED's results are delivered)
        reductions = gen.synccheck or gen.racecheck or any(ins.op == "BAR.RED" for ins in code.instrs)
        parts.append(run_blocks_ir(lay.stride["ids"], lay.stride["flags"], lay.stride["words"], reductions,
                                   block_start_rows(code), lay.stride["regs"]))
    for k, _, callee in gen.callee_rows.values():   # native callees (host_callees.py), renamed c<k>.NAME
        _, callee_decls, callee_parts = module_parts(callee, "stack", 1, [], False)
        parts.append(renamed("\n".join(callee_parts), f"c{k}."))
        for symbol, line in callee_decls.items():
            gen.e.declare(f"callee:{symbol}", line)
    gen.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
    decls = {}
    for text in gen.e.decls.values():   # one declaration per symbol, whoever asked for it
        decls.setdefault(re.search(r"@([\w.$]+)\(", text).group(1), text)
    return gen, decls, parts


def renamed(text: str, prefix: str) -> str:
    """A module's definitions (functions and globals) renamed `@<prefix>NAME`, none of them an
    entry point: a native callee's module inside its caller's."""
    defined = set(re.findall(r"^define [^@]*@([\w.$]+)\(", text, re.M)) | set(re.findall(r"^@([\w.$]+) = ", text, re.M))
    text = re.sub(r"@([\w.$]+)", lambda m: f"@{prefix}{m.group(1)}" if m.group(1) in defined else m.group(0), text)
    return text.replace("define i32 @", "define internal i32 @")


def module_ir(code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool,
              seeded: bool = False, profiled: bool = False, checks: frozenset = frozenset()) -> tuple[str, list[int]]:
    """The module's text, and the pcs its code can be entered at."""
    gen, decls, parts = module_parts(code, sched, lanes, symbols, kernel, seeded, profiled, checks)
    text = "\n".join(list(decls.values()) + parts)
    if gen.callee_rows:   # a native callee's module declares what the caller's may declare too
        seen: set[str] = set()
        lines = []
        for line in text.split("\n"):
            if line.startswith("declare "):
                symbol = re.search(r"@([\w.$]+)\(", line).group(1)
                if symbol in seen:
                    continue
                seen.add(symbol)
            lines.append(line)
        text = "\n".join(lines)
    return text, gen.entries
