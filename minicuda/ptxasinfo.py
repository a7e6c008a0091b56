"""ptxas's resource report (`nvcc -Xptxas -v`), in nvcc 13's wording, from minicuda's counts.

The lines are those ptxas 13.0 prints (checked against `nvcc -Xptxas -v` for sm_75,
sm_80, sm_89 and sm_90): the bytes of `__device__` data first, then each kernel
(later definitions first, as ptxas lists them) with its stack frame, registers,
named barriers, static shared memory and, below sm_90, constant bank 0; then each
device function minicuda kept as a function, with its frame alone.  The counts are
the compiler's own (passes/regalloc.py's ResourceUsage), so they are minicuda's
registers, not ptxas's; names are the source's, not mangled; the timing line
(`Compile time = ...`) is left out, as it would differ on every run.
"""
from __future__ import annotations

from minicuda.ir import Function, Imm, Module
from minicuda.passes.regalloc import resource_usage

PREFIX = "ptxas info    : "
NO_CMEM_FROM = 90   # ptxas 13 stops reporting cmem[0] for sm_90 and later


def barriers_used(fn: Function) -> int:
    """Named barriers a function's BAR instructions use: the highest barrier number + 1."""
    ids = [ins.srcs[0].value if ins.srcs and isinstance(ins.srcs[0], Imm) else 0
           for b in fn.blocks for ins in b.instrs if ins.op.startswith("BAR")]
    return max(ids) + 1 if ids else 0


def function_lines(fn: Function, module: Module) -> list[str]:
    usage = resource_usage(fn, module.arch)
    frame = [f"{PREFIX}Function properties for {fn.name}",
             f"    {usage.stack_frame} bytes stack frame, {usage.spill_stores} bytes spill stores, "
             f"{usage.spill_loads} bytes spill loads"]
    if fn.kind != "kernel":
        return frame
    used = f"{PREFIX}Used {usage.registers} registers, used {barriers_used(fn)} barriers"
    if usage.shared_bytes:
        used += f", {usage.shared_bytes} bytes smem"
    if module.sm < NO_CMEM_FROM:
        used += f", {usage.cmem_bytes} bytes cmem[0]"
    return [f"{PREFIX}Compiling entry function '{fn.name}' for '{module.arch}'", *frame, used]


def ptxas_report(module: Module) -> list[str]:
    """The lines `nvcc -Xptxas -v` prints for a module's device code."""
    gmem = sum(g.size for g in module.globals.values() if g.space == "global")
    functions = list(module.functions.values())[::-1]
    kernels = [fn for fn in functions if fn.kind == "kernel"]
    devices = [fn for fn in functions if fn.kind == "device"]
    return [f"{PREFIX}{gmem} bytes gmem"] + [line for fn in kernels + devices for line in function_lines(fn, module)]
