"""The target's static limits, checked once the module's globals and frames are laid out.

ptxas refuses a kernel whose static shared memory exceeds 48 KiB (0xc000: the limit
without a dynamic opt-in, on every architecture: the arrays it declares and those of
the functions it calls), and a file whose `__constant__` data exceeds the 64 KiB
constant bank; nvcc refuses a kernel whose parameters exceed the parameter space.
minicuda reports them clang-shaped: shared memory and parameters at the kernel,
constant data at the variable that crosses the limit, with the tools' words and numbers.
"""
from __future__ import annotations

from minicuda.diagnostics import Diagnostic
from minicuda.grammar import ast as A
from minicuda.arch import STATIC_SHARED_LIMIT, parameter_space
from minicuda.ir import Module, block_shared_bytes

CONSTANT_BANK_LIMIT = 0x10000


def static_limit_errors(tu: A.TranslationUnit, module: Module) -> list[Diagnostic]:
    return shared_errors(module) + constant_errors(tu) + parameter_errors(tu, module.sm)


def shared_errors(module: Module) -> list[Diagnostic]:
    """Each kernel whose blocks' static shared memory (its own and that of the functions it
    calls, ir.block_shared) passes the limit, as ptxas counts it per entry function."""
    errors = []
    for fn in module.functions.values():
        used = block_shared_bytes(module, fn.name) if fn.kind == "kernel" else 0
        if used > STATIC_SHARED_LIMIT:
            errors.append(Diagnostic("error", f"entry function '{fn.name}' uses too much shared data "
                                              f"({used:#x} bytes, {STATIC_SHARED_LIMIT:#x} max)", fn.loc))
    return errors


def constant_errors(tu: A.TranslationUnit) -> list[Diagnostic]:
    constants = [v for v in tu.global_vars if v.space == "constant" and v.ty is not None]
    end, first_over = 0, None
    for v in constants:
        align = max(v.ty.align, 1)
        end = (end + align - 1) // align * align + v.ty.size
        if end > CONSTANT_BANK_LIMIT and first_over is None:
            first_over = v
    if first_over is None:
        return []
    return [Diagnostic("error", f"too much global constant data ({end:#x} bytes, {CONSTANT_BANK_LIMIT:#x} max)",
                       first_over.loc)]


def parameter_errors(tu: A.TranslationUnit, sm: int) -> list[Diagnostic]:
    """Each kernel whose parameters' sizes add up to more than the architecture's parameter
    space (arch.parameter_space), in nvcc's words (which add no alignment padding)."""
    errors = []
    for fn in tu.functions:
        if "global" not in fn.exec_space:
            continue
        end = sum(p.ty.size for p in fn.params)
        if end > parameter_space(sm):
            errors.append(Diagnostic("error", f"Formal parameter space overflowed ({end} bytes required, max "
                                              f"{parameter_space(sm)} bytes allowed) in function '{fn.name}'", fn.loc))
    return errors
