"""The target's static memory limits, checked once the module's globals and frames are laid out.

ptxas refuses a kernel whose static shared memory exceeds 48 KiB (0xc000: the limit
without a dynamic opt-in, on every architecture), and a file whose `__constant__`
data exceeds the 64 KiB constant bank.  minicuda reports both clang-shaped: shared
memory at the function that declares it, constant data at the variable that crosses
the limit, with ptxas's words and numbers.
"""
from __future__ import annotations

from minicuda.diagnostics import Diagnostic
from minicuda.grammar import ast as A
from minicuda.ir import Module

STATIC_SHARED_LIMIT = 0xC000
CONSTANT_BANK_LIMIT = 0x10000


def static_limit_errors(tu: A.TranslationUnit, module: Module) -> list[Diagnostic]:
    return shared_errors(module) + constant_errors(tu)


def shared_errors(module: Module) -> list[Diagnostic]:
    errors = []
    for fn in module.functions.values():
        if fn.shared_bytes > STATIC_SHARED_LIMIT:
            what = "entry function" if fn.kind == "kernel" else "function"
            errors.append(Diagnostic("error", f"{what} '{fn.name}' uses too much shared data "
                                              f"({fn.shared_bytes:#x} bytes, {STATIC_SHARED_LIMIT:#x} max)", fn.loc))
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
