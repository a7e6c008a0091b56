"""The compile cache: a program's compiled module kept between runs, keyed by content.

`minicuda run` of one source turns it, through the frontend and the passes, into an
ir.Module: all the VM loads.  This cache keeps that module, with the diagnostics
(warnings) its compile reported, as `<key>.mod` in `modules/` beside the JIT's `jit/`
in minicuda's cache directory.  The key hashes everything the module depends on: the
text of every file the preprocessor read (the source and each header, under the name
its diagnostics use), the preprocessed text, the options (arch, -O, scheduling model,
-fbracket-depth, language, -I, -D), and minicuda itself (its version, and the path, size
and modification time of each of its own source files).  So the preprocessor always
runs (hundredths of a second): which files a program includes depends on macros, on
the search path and on files that may appear in it, and only running it settles that.
Keying on the included files' times and sizes alone would skip it, but a header newly
created earlier on the search path, or a changed -D, would then go unnoticed.

An entry is stored and verified as the JIT's entries are (minicuda/cache_entry.py):

    MINICUDA-MODULE <FORMAT> <minicuda-VERSION> <key> <length> <sha256 of the payload>\\n<payload>

the payload being the pickled (diagnostics, module).  A damaged or foreign entry is
discarded with one warning line and the program compiled again; a new entry is
written to a temporary file and renamed into place, so no reader or concurrent writer
sees part of one.  The cache directory is the user's own, trusted as the JIT's object
code is.  Only compiles that succeed are kept: a program with errors compiles again
and prints them again; a kept compile's warnings are reported again from the entry,
as they were the first time.

MINICUDA_COMPILE_CACHE=0 or `minicuda run --no-cache` turns it off;
MINICUDA_COMPILE_CACHE_DIR puts it elsewhere (the tests use a folder of their session).

Only the preprocessor is imported here: the parser, sema and the passes (most of
minicuda's start-up) are imported when a program misses the cache, the one place
this package imports inside a function.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from minicuda.cache_entry import EntryFormat, compile_cache_dir, sources_fingerprint
from minicuda.diagnostics import DiagnosticEngine, run_stage
from minicuda.timing import TIMES
from minicuda.grammar.languages import CUDA, predefined_for
from minicuda.grammar.preprocess import PREDEFINED, PreprocessedSource, preprocess
from minicuda.ir import Module
from minicuda.version import __version__

FORMAT = 1
PRODUCER = f"minicuda-{__version__}"
ENTRIES = EntryFormat(b"MINICUDA-MODULE", FORMAT, "compile cache", "payload", "another program")


def cache_dir() -> Path | None:
    """$MINICUDA_COMPILE_CACHE_DIR, else modules/ in the JIT's cache directory
    ($MINICUDA_CACHE_DIR, $XDG_CACHE_HOME/minicuda or ~/.cache/minicuda); None when
    MINICUDA_COMPILE_CACHE=0 turns the cache off."""
    return compile_cache_dir()


_fingerprint: list[str] = []


def minicuda_fingerprint() -> str:
    """minicuda's version and the path, size and mtime of each of its source files
    (minicuda/cache_entry.py; once per process): an edited compiler never reuses an
    older one's modules."""
    if not _fingerprint:
        _fingerprint.append(sources_fingerprint())
    return _fingerprint[0]


def entry_key(pp: PreprocessedSource, diags: DiagnosticEngine, settings: tuple) -> str:
    """The name of the entry for the program `pp` (its files' texts in `diags`) compiled
    with `settings`."""
    digest = hashlib.sha256(f"{FORMAT}\0{minicuda_fingerprint()}\0{settings!r}\0".encode())
    for name, lines in diags.sources.files.items():
        digest.update(f"{name}\0{len(lines)}\0".encode())
        digest.update("\n".join(lines).encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(pp.text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def header(key: str, data: bytes) -> bytes:
    return ENTRIES.header(PRODUCER, key, data)


def load(path: Path, key: str) -> tuple[list, Module] | None:
    """(diagnostics, module) of the entry at `path`, when there is one and it is sound; a
    damaged or foreign entry is removed, with a warning, and None returned."""
    data, why = ENTRIES.read(path, PRODUCER, key)
    if data is not None:
        try:
            diagnostics, module = pickle.loads(data)
            if isinstance(module, Module) and isinstance(diagnostics, list):
                return diagnostics, module
            why = "not a compiled module"
        except Exception as e:   # a sound checksum over a payload this minicuda cannot read
            why = f"unreadable payload ({type(e).__name__})"
    if why:
        ENTRIES.discard(path, why)
    return None


def save(path: Path, key: str, diagnostics: list, module: Module) -> None:
    """Write the entry; a module that cannot be pickled, or a cache that cannot be
    written, is only slower."""
    try:
        data = pickle.dumps((diagnostics, module), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return
    ENTRIES.write(path, PRODUCER, key, data)


def compile_cached(filename: str, text: str, arch: int, opt: int, sched: str | None, bracket_depth: int,
                   include_dirs=(), defines=(), diags: DiagnosticEngine | None = None, language: str = CUDA,
                   enabled: bool = True, rdc: bool = False, fast_math: bool = False,
                   predication: tuple = (), ftz: bool | None = None) -> Module:
    """The module of the program `text` (called `filename`), from the cache when an entry
    for it is there, else compiled (and kept); its diagnostics end in `diags` either way,
    and CompileError is raised as the compiler raises it. `predication` holds the
    if-conversion settings given (Options field, value) pairs: part of the entry's key."""
    diags = diags if diags is not None else DiagnosticEngine()
    pp = run_stage("preprocess", preprocessed, text, filename, diags, include_dirs, defines, language)
    directory = cache_dir() if enabled else None
    if directory is None or diags.error_count:
        return compile_preprocessed(pp, diags, arch, opt, sched, bracket_depth, language, rdc, fast_math, predication, ftz)
    settings = (arch, opt, sched, bracket_depth, language, tuple(include_dirs), tuple(defines), rdc, fast_math, ftz) + \
        tuple(predication)
    key = entry_key(pp, diags, settings)
    path = directory / f"{key}.mod"
    with TIMES.phase("compile cache: look-up and load"):
        entry = load(path, key)
    if entry is not None:
        diags.diagnostics[:] = entry[0]
        return entry[1]
    module = compile_preprocessed(pp, diags, arch, opt, sched, bracket_depth, language, rdc, fast_math, predication, ftz)
    with TIMES.phase("compile cache: save"):
        save(path, key, diags.diagnostics, module)
    return module


def preprocessed(text: str, filename: str, diags: DiagnosticEngine, include_dirs, defines,
                 language: str) -> PreprocessedSource:
    """The program preprocessed as the frontend does it (minicuda/frontend.py's preprocess_only)."""
    return preprocess(text, filename, diags, list(include_dirs), list(defines), [],
                      implicit_cuda_runtime=language == CUDA, predefined=predefined_for(language, PREDEFINED))


def compile_preprocessed(pp: PreprocessedSource, diags: DiagnosticEngine, arch: int, opt: int, sched: str | None,
                         bracket_depth: int, language: str, rdc: bool = False, fast_math: bool = False,
                         predication: tuple = (), ftz: bool | None = None) -> Module:
    """The module of a preprocessed program, compiled (the compiler imported now)."""
    with TIMES.phase("compile: the compiler's modules imported"):
        from minicuda.compiler import compile_frontend   # noqa: PLC0415  (the parser, sema, passes: see above)
        from minicuda.frontend import analyse            # noqa: PLC0415
        from minicuda.pipeline import Options            # noqa: PLC0415

    diags.check()
    options = Options(arch=arch, opt=opt, sched=sched, bracket_depth=bracket_depth, rdc=rdc, fast_math=fast_math,
                      ftz=ftz, **dict(predication))
    return compile_frontend(analyse(pp, diags, bracket_depth, language), options).module
