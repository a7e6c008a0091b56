"""The Python API's entry point: `minicuda.compile(...)` (the package exposes it).

A compiled program launches its kernels Numba-style (`program.kernel[grid, block](...)`,
see minicuda/compiler.py) or on a `Device` (minicuda/vm/launcher.py).
"""
from __future__ import annotations

from minicuda.compiler import CompiledProgram, compile_program
from minicuda.pipeline import Options
from minicuda.report import notebook  # noqa: F401  (installs the launches' rich display in a notebook)


def compile(path_or_source, arch="sm_70", opt=3, **options) -> CompiledProgram:
    """Compile a mini-CUDA program (a path or the source text itself; or a list of paths:
    the translation units of one program, each compiled as its suffix says and linked).

    Returns a CompiledProgram: `.functions` (the IR), `.sass()`, `.resource_usage`
    and `.branch_decisions` (one record per conditional branch: file, line,
    function, uniform, instructions, threshold, predicated, reason).  Keyword
    options: uniform_threshold, divergent_threshold, rule ("seed" or "guide"),
    verify_each, sched ("stack" or "its": place the reconvergence markers for that
    model, not the arch's), bracket_depth (how deep (), [] and {} may nest, each
    kind: clang's -fbracket-depth, default 256), include_dirs, defines, rdc (several units:
    nvcc's -rdc=true), fast_math (nvcc's -use_fast_math).
    """
    include_dirs = options.pop("include_dirs", ())
    defines = options.pop("defines", ())
    rdc = options.pop("rdc", False)
    return compile_program(path_or_source, arch, opt, Options(**options), include_dirs, defines, rdc=rdc)
