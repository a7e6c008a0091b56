"""The languages of a translation unit, as nvcc tells them apart by the file's suffix.

nvcc compiles a `.cu` file as CUDA C++ and hands a `.cpp` (`.cc`, `.cxx`, `.C`) file
to the host C++ compiler and a `.c` file to the host C compiler; `-x cu` makes every
input CUDA.  Host units see no implicit `<cuda_runtime.h>` and no `__CUDACC__` (nvcc
still defines `__NVCC__` and the version macros for them); a C unit has no
`__cplusplus`.  CUDA's own syntax in a host unit (`__global__`, `__device__`, `__host__`,
`__shared__`, `__constant__`, `<<<...>>>`) is the error g++ gives, with a note on how
to compile the file as CUDA.  Everything else is read by the one frontend alike.

The AST module is imported by `check_host_code` only: `minicuda run` of a program in
the compile cache (minicuda/compile_cache.py) reads the languages and never the AST.
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from minicuda.diagnostics import DiagnosticEngine

if TYPE_CHECKING:
    from minicuda.grammar import ast as A

CUDA, CXX, C = "cu", "c++", "c"
SUFFIXES = {".cu": CUDA, ".cuh": CUDA, ".cpp": CXX, ".cc": CXX, ".cxx": CXX, ".C": CXX, ".c": C}

# macros only a CUDA unit sees, and the one a C unit lacks
CUDA_ONLY_MACROS = {"__CUDACC__"}
CXX_ONLY_MACROS = {"__cplusplus"}
CUDA_SPECIFIERS = {"__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__"}
HOST_NOTE = "{file} is compiled as host {language} by the host compiler; name it .cu or pass -x cu to compile it as CUDA"


def language_of(path: str, forced: str | None = None) -> str:
    """CUDA, CXX or C: `forced` (-x cu) when given, else by the file's suffix (CUDA for
    anything nvcc would not hand to the host compiler, standard input included)."""
    if forced:
        return CUDA
    return SUFFIXES.get(os.path.splitext(path)[1], CUDA)


def predefined_for(language: str, predefined: list[str]) -> list[str]:
    """The predefined macros (`NAME VALUE` lines) a unit of `language` starts with."""
    dropped = set() if language == CUDA else CUDA_ONLY_MACROS | (CXX_ONLY_MACROS if language == C else set())
    return [d for d in predefined if d.split()[0] not in dropped]


def check_host_code(tu: A.TranslationUnit, diags: DiagnosticEngine, language: str, filename: str,
                    is_system) -> bool:
    """Report CUDA syntax written in a host unit's own code (`is_system(loc)`: what the
    bundled headers declare, which may name CUDA's qualifiers); whether there was any."""
    if language == CUDA:
        return False
    from minicuda.grammar import ast as A   # noqa: PLC0415  (see above)

    first = None
    for node in A.walk(tu):
        if is_system(node.loc):
            continue
        if isinstance(node, A.DeclSpecs):
            for spec in node.cuda:
                if spec in CUDA_SPECIFIERS:
                    diags.error(f"'{spec}' does not name a type", replace(node.loc, length=len(spec)))
                    first = first or node.loc
        elif isinstance(node, A.Launch):
            diags.error("a kernel launch ('<<<...>>>') is CUDA syntax, not host code", node.loc)
            first = first or node.loc
    if first is not None:
        diags.note(HOST_NOTE.format(file=filename, language="C++" if language == CXX else "C"), first)
    return first is not None
