"""Checks that depend on the target architecture, run once sema is done and the
target is known (the frontend itself is target-free).

The legacy warp intrinsics (`__shfl`, `__shfl_up`, `__shfl_down`, `__shfl_xor`,
`__ballot`, `__any`, `__all`: no mask) are what CUDA's sm_30_intrinsics.h declares
deprecated below sm_70 and does not declare at all from sm_70 on.  A call gets
nvcc's deprecation warning below builtins.LEGACY_WARP_FROM and nvcc's error
(`identifier "__shfl" is undefined`) at and above it, at the call's name.

`__match_any_sync` and `__match_all_sync` are what CUDA's sm_70_rt.h declares for sm_70
on only: below builtins.MATCH_FROM a call gets nvcc's error for an undeclared name.  The
bundled cooperative_groups.h calls them in a tile's match_any / match_all, which CUDA's
header declares for sm_70 on only: a call of one of those in the program is nvcc's error
for a missing member instead (its uses inside the header are not reported).

Dynamic parallelism: a kernel launch in device code needs separate compilation
(-rdc=true, nvcc's error without it) and sm_35 or later; a device-side
cudaDeviceSynchronize() keeps CUDA 11's meaning below DEVICE_SYNC_REMOVED_FROM and is
nvcc 12's error from there on (CUDA 12 removed it), at the call.
"""
from __future__ import annotations

from minicuda import builtins
from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar import ast as A
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar.sema.declarations import space_name
from minicuda.grammar.sema.link import function_uses

DEPRECATION = ('{name}() is deprecated in favor of {name}_sync() and may be removed in a future release '
               '(Use -Wno-deprecated-declarations to suppress this warning).')
DYNAMIC_PARALLELISM_FROM = 35    # the first target that launches kernels from device code
DEVICE_SYNC_REMOVED_FROM = 90    # minicuda's line: CUDA 11's device-side sync for sm_35..sm_80


def check_target_builtins(tu: A.TranslationUnit, sm: int, diags: DiagnosticEngine) -> None:
    """Report each call of a legacy warp intrinsic for the target sm_<sm>, and of a match
    intrinsic below sm_70."""
    uses = list(function_uses(tu))
    matching = {id(owner) for owner, use, fn in uses if owner is not None and _is_match(fn) and
                is_system_location(use.loc)} if sm < builtins.MATCH_FROM else set()
    for _owner, use, fn in uses:
        if id(fn) in matching and isinstance(use, A.Call) and not is_system_location(use.loc):
            diags.error(f'class "{fn.owner}" has no member "{fn.name.rpartition("::")[2]}"', use.loc)
        row = builtins.lookup(fn.name) if fn.is_builtin else None
        if row is None or not isinstance(use, A.Call):
            continue
        if _is_match(fn) and sm < builtins.MATCH_FROM and not is_system_location(use.loc):
            diags.error(f'identifier "{fn.name}" is undefined', use.loc)
        if not builtins.is_legacy_warp(row):
            continue
        if sm >= builtins.LEGACY_WARP_FROM:
            diags.error(f'identifier "{fn.name}" is undefined', use.loc)
        else:
            params = ", ".join(str(p) for p in fn.ty.params)
            diags.warning(f'function "{fn.name}({params})" was declared deprecated '
                          f'("{DEPRECATION.format(name=fn.name)}")', use.loc)


def _is_match(fn: A.FunctionDef) -> bool:
    return fn.is_builtin and fn.name in builtins.MATCHES


def check_device_launches(tu: A.TranslationUnit, sm: int, rdc: bool, diags: DiagnosticEngine) -> None:
    """Report each kernel launch in device code that the target or the compilation mode
    cannot build, and each device-side cudaDeviceSynchronize() from sm_90 on."""
    for owner, use, fn in function_uses(tu):
        if owner is None or not ("global" in owner.exec_space or owner.exec_space == {"device"}):
            continue
        if isinstance(use, A.Launch):
            if not rdc:
                diags.error("kernel launch from __device__ or __global__ functions requires separate compilation "
                            "mode", use.loc)
            elif sm < DYNAMIC_PARALLELISM_FROM:
                diags.error(f"a kernel launch from device code (dynamic parallelism) needs sm_35 or later; the "
                            f"target is sm_{sm}", use.loc)
        elif isinstance(use, A.Call) and fn.is_builtin and fn.name == "cudaDeviceSynchronize" \
                and sm >= DEVICE_SYNC_REMOVED_FROM:
            diags.error(f'calling a __host__ function("cudaDeviceSynchronize") from a {space_name(owner.exec_space)} '
                        f'function("{owner.name}") is not allowed', use.loc)
            diags.note("CUDA 12 removed device-side cudaDeviceSynchronize(); minicuda keeps CUDA 11's meaning "
                       "(wait for the block's child grids) for sm_35..sm_80 targets (-arch=sm_80)", use.loc)
