"""Checks that depend on the target architecture, run once sema is done and the
target is known (the frontend itself is target-free).

The legacy warp intrinsics (`__shfl`, `__shfl_up`, `__shfl_down`, `__shfl_xor`,
`__ballot`, `__any`, `__all`: no mask) are what CUDA's sm_30_intrinsics.h declares
deprecated below sm_70 and does not declare at all from sm_70 on.  A call gets
nvcc's deprecation warning below builtins.LEGACY_WARP_FROM and nvcc's error
(`identifier "__shfl" is undefined`) at and above it, at the call's name.
"""
from __future__ import annotations

from minicuda import builtins
from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar import ast as A
from minicuda.grammar.sema.link import function_uses

DEPRECATION = ('{name}() is deprecated in favor of {name}_sync() and may be removed in a future release '
               '(Use -Wno-deprecated-declarations to suppress this warning).')


def check_target_builtins(tu: A.TranslationUnit, sm: int, diags: DiagnosticEngine) -> None:
    """Report each call of a legacy warp intrinsic for the target sm_<sm>."""
    for _owner, use, fn in function_uses(tu):
        row = builtins.lookup(fn.name) if fn.is_builtin else None
        if row is None or not builtins.is_legacy_warp(row) or not isinstance(use, A.Call):
            continue
        if sm >= builtins.LEGACY_WARP_FROM:
            diags.error(f'identifier "{fn.name}" is undefined', use.loc)
        else:
            params = ", ".join(str(p) for p in fn.ty.params)
            diags.warning(f'function "{fn.name}({params})" was declared deprecated '
                          f'("{DEPRECATION.format(name=fn.name)}")', use.loc)
