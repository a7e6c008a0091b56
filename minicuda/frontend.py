"""The frontend driver: source file -> preprocessed text -> AST -> checked AST.

`load(path_or_source)` runs the three stages and raises CompileError (carrying every
diagnostic) when the program is wrong.  Warnings stay in `result.diags`.  The input
is a path, the program text itself (the Python API tells them apart), or a
`SourceText`: text already read, with the name it is reported under (the command
lines read their input themselves, so a missing file is never taken for text).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from minicuda.diagnostics import CompileError, DiagnosticEngine, run_stage
from minicuda.grammar import ast as A
from minicuda.grammar.languages import CUDA, check_host_code, predefined_for
from minicuda.grammar.nesting import BRACKET_DEPTH
from minicuda.grammar.parser import parse
from minicuda.grammar.preprocess import PREDEFINED, PreprocessedSource, is_system_location, preprocess
from minicuda.grammar.sema import check
from minicuda.sourcefile import SourceText, read_text  # noqa: F401  (SourceText: read from here too)


@dataclass
class Frontend:
    filename: str
    pp: PreprocessedSource
    tu: A.TranslationUnit
    diags: DiagnosticEngine
    language: str = CUDA


def read_source(path_or_source) -> tuple[str, str]:
    """(filename, text): a SourceText, a path to a file, or the program text itself."""
    if isinstance(path_or_source, SourceText):
        return path_or_source.filename, path_or_source.text
    if "\n" not in path_or_source and (path_or_source.endswith((".cu", ".cuh", ".c", ".cpp", ".h")) or os.path.exists(path_or_source)):
        return path_or_source, read_text(path_or_source)   # SourceFileError when it is no text file
    return "<input>", path_or_source


def preprocess_only(path_or_source, include_dirs=(), defines=(), undefines=(),
                    diags: DiagnosticEngine | None = None,
                    language: str = CUDA) -> tuple[PreprocessedSource, DiagnosticEngine]:
    diags = diags or DiagnosticEngine()
    filename, text = read_source(path_or_source)
    pp = preprocess(text, filename, diags, list(include_dirs), list(defines), list(undefines),
                    implicit_cuda_runtime=language == CUDA, predefined=predefined_for(language, PREDEFINED))
    diags.check()
    return pp, diags


def load(path_or_source, include_dirs=(), defines=(), undefines=(),
         diags: DiagnosticEngine | None = None, bracket_depth: int = BRACKET_DEPTH, language: str = CUDA) -> Frontend:
    """path_or_source: a file's path (str or os.PathLike) or the program's text;
    brackets may nest `bracket_depth` deep (-fbracket-depth); `language`: CUDA, or a
    host unit's C++ or C (grammar/languages.py)."""
    diags = diags or DiagnosticEngine()
    path_or_source = path_or_source if isinstance(path_or_source, SourceText) else os.fspath(path_or_source)
    pp, diags = run_stage("preprocess", preprocess_only, path_or_source, include_dirs, defines, undefines, diags,
                       language)
    return analyse(pp, diags, bracket_depth, language)


def analyse(pp: PreprocessedSource, diags: DiagnosticEngine, bracket_depth: int = BRACKET_DEPTH,
            language: str = CUDA) -> Frontend:
    """The stages after the preprocessor: the preprocessed source parsed and checked."""
    tu = run_stage("parse", parse, pp, diags, bracket_depth)
    if tu is None:
        raise CompileError(diags.diagnostics)
    if check_host_code(tu, diags, language, next(iter(diags.sources.files), "<input>"), is_system_location):
        raise CompileError(diags.diagnostics)   # CUDA in host code: what sema would say of it is noise
    run_stage("sema", check, tu, diags)
    diags.check()
    filename = next(iter(diags.sources.files), "<input>")  # the user's file is registered first
    return Frontend(filename, pp, tu, diags, language)
