"""Diagnostics: source locations, clang-shaped messages, and the two error classes.

Every user-facing problem is a `Diagnostic` with a `SourceLocation` that points into
an original (not preprocessed) file.  `render()` prints it as clang does:

    reduce.cu:12:5: error: use of undeclared identifier 'idx'
       12 |   y[idx] = a * x[i];
          |     ^~~

`CompileError` carries the diagnostics of a failed compilation (a user's mistake);
`InternalError` is a bug in minicuda and is reported as `internal compiler error:`.
Neither ever reaches the user as a Python traceback.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from minicuda.timing import TIMES


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    col: int
    length: int = 1  # characters under the caret and tildes

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN_LOCATION = SourceLocation("<unknown>", 0, 0)


@dataclass
class Diagnostic:
    severity: str  # "error", "warning", "note", "fatal error"
    message: str
    loc: SourceLocation | None = None

    def header(self) -> str:
        where = f"{self.loc}: " if self.loc and self.loc.line else ""
        return f"{where}{self.severity}: {self.message}"

    def render(self, sources: "SourceManager | None" = None) -> str:
        lines = [self.header()]
        text = sources.line(self.loc.file, self.loc.line) if sources and self.loc else None
        if text is not None:
            gutter = f"{self.loc.line:>5} | "
            lines.append(gutter + text.expandtabs(1).rstrip("\n"))
            col = max(self.loc.col, 1)
            marker = "^" + "~" * max(0, min(self.loc.length, max(1, len(text) - col + 1)) - 1)
            lines.append(" " * (len(gutter) - 2) + "| " + " " * (col - 1) + marker)
        return "\n".join(lines)


class SourceManager:
    """The text of every file a compilation read, for caret lines."""

    def __init__(self) -> None:
        self.files: dict[str, list[str]] = {}

    def add(self, name: str, text: str) -> None:
        self.files[name] = self.files[_key(name)] = text.splitlines()

    def line(self, name: str, lineno: int) -> str | None:
        lines = self.files.get(name) or self.files.get(_key(name))
        if lines is None or not 1 <= lineno <= len(lines):
            return None
        return lines[lineno - 1]


def _key(name: str) -> str:
    return name if name.startswith("<") else os.path.abspath(name)


@dataclass
class DiagnosticEngine:
    sources: SourceManager = field(default_factory=SourceManager)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    max_errors: int = 50

    def error(self, message: str, loc: SourceLocation | None) -> None:
        self._add(Diagnostic("error", message, loc))

    def warning(self, message: str, loc: SourceLocation | None) -> None:
        self._add(Diagnostic("warning", message, loc))

    def note(self, message: str, loc: SourceLocation | None) -> None:
        self._add(Diagnostic("note", message, loc))

    def fatal(self, message: str, loc: SourceLocation | None) -> None:
        self._add(Diagnostic("fatal error", message, loc))
        raise CompileError(self.diagnostics)

    def fatal_later(self, message: str, loc: SourceLocation | None) -> None:
        """A fatal error that lets the current phase finish (a missing #include)."""
        self._add(Diagnostic("fatal error", message, loc))

    def _add(self, diag: Diagnostic) -> None:
        if any(d.header() == diag.header() for d in self.diagnostics):
            return  # one report per place and message, as clang does
        self.diagnostics.append(diag)
        if self.error_count >= self.max_errors:
            self.diagnostics.append(Diagnostic("fatal error", "too many errors emitted, stopping now"))
            raise CompileError(self.diagnostics)

    @property
    def error_count(self) -> int:
        return sum(d.severity in ("error", "fatal error") for d in self.diagnostics)

    def check(self) -> None:
        """Raise CompileError when any error has been reported."""
        if self.error_count:
            raise CompileError(self.diagnostics)

    def in_source_order(self) -> list[Diagnostic]:
        """Errors and warnings of the main file by position (as clang meets them),
        each followed by its notes; the parser and sema run in separate passes."""
        groups: list[list[Diagnostic]] = []
        for d in self.diagnostics:
            if d.severity == "note" and groups:
                groups[-1].append(d)
            else:
                groups.append([d])
        order = {}
        for g in groups:
            order.setdefault(g[0].loc.file if g[0].loc else "", len(order))
        def key(g):
            loc = g[0].loc
            if loc is None or g[0].severity == "fatal error" and "too many errors" in g[0].message:
                return (1, 0, 0, 0)
            return (0, order[loc.file], loc.line, loc.col)
        groups.sort(key=key)
        return [d for g in groups for d in g]

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.in_source_order())


class CompileError(Exception):
    """A user's program is wrong; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.header() for d in self.diagnostics))


def run_stage(name: str, fn, *args):
    """Run one frontend stage; anything but a user's error is minicuda's bug."""
    try:
        if TIMES.on:
            with TIMES.phase(f"compile: {name}"):
                return fn(*args)
        return fn(*args)
    except CompileError:
        raise
    except RecursionError:   # sema reports it at the statement; this is the last resort
        raise CompileError([Diagnostic("fatal error", "the program nests too deeply for minicuda to compile")]) from None
    except Exception as e:
        raise InternalError(name, f"{type(e).__name__}: {e}") from e


class InternalError(Exception):
    """A bug in minicuda; `stage` names the pass or phase that failed."""

    def __init__(self, stage: str, message: str):
        self.stage = stage
        super().__init__(f"internal compiler error: in {stage}: {message}")
