"""A sweep's specification: the TOML file `minicuda sweep SPEC.toml` reads.

A spec names programs (files or globs, each with its arguments, include folders and
macros) and axes (arch, sched, opt, the predication rule and thresholds, ITS seeds,
program arguments, -D macros); the points are the programs times the product of
the axes (docs/sweep.md). Loading checks everything a run would reject later, so a
bad spec fails before any point runs, with `file:line:column: error:` where tomllib
or the key's line tells where. Paths are relative to the spec's folder.
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field

from minicuda.arch import parse_arch

try:
    import tomllib                 # Python 3.11 and later
except ImportError:                # Python 3.10: the [sweep] extra's tomli
    try:
        import tomli as tomllib
    except ImportError:
        tomllib = None

RULES = ("seed", "guide")
SCHEDS = ("auto", "stack", "its")
OPTS = ("-O0", "-O1", "-O2", "-O3", "-G")
ENGINES = ("jit", "interp")
TOP_KEYS = {"output", "timeout", "max_steps", "jobs", "engine", "program", "axes"}
PROGRAM_KEYS = {"files", "args", "include", "defines", "timeout"}
AXES = {"arch", "sched", "opt", "rule", "uniform_threshold", "divergent_threshold", "seed", "args", "define"}
MACRO = re.compile(r"[A-Za-z_]\w*$")


class SpecError(Exception):
    """A spec the sweep cannot run; str() is the located message."""


@dataclass(frozen=True)
class Program:
    """One program file of the spec (a glob gives one per match)."""
    path: str                          # as the spec names it: relative to the spec's folder, or absolute
    file: str                          # absolute
    args: tuple[str, ...] = ()
    include: tuple[str, ...] = ()      # absolute include folders
    defines: tuple[str, ...] = ()
    timeout: float | None = None       # this program's points' limit, in place of the spec's


@dataclass
class Spec:
    path: str
    programs: list[Program]
    axes: dict[str, list] = field(default_factory=dict)       # axis -> values (define: NAME -> values)
    output: str | None = None
    timeout: float = 300.0
    max_steps: int | None = None
    jobs: int | None = None
    engine: str = "jit"


def load_spec(path: str) -> Spec:
    """The spec in the TOML file `path`; SpecError (located) when it is wrong."""
    toml = _toml_module()
    try:
        with open(path, "rb") as f:
            data_bytes = f.read()
    except OSError as e:
        raise SpecError(f"{path}: error: cannot read the spec: {e.strerror}") from None
    text = data_bytes.decode("utf-8", errors="replace")
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise SpecError(_located_toml_error(path, e)) from None
    return _Checker(path, text).spec(data)


def parse_spec_text(text: str, path: str = "<spec>") -> Spec:
    """A spec from TOML text (paths relative to `path`'s folder)."""
    toml = _toml_module()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise SpecError(_located_toml_error(path, e)) from None
    return _Checker(path, text).spec(data)


def _toml_module():
    if tomllib is None:
        raise SpecError("minicuda sweep reads TOML with tomllib (Python 3.11+); on Python 3.10 install tomli "
                        "(pip install 'minicuda[sweep]')")
    return tomllib


def _located_toml_error(path: str, e) -> str:
    """tomllib's message `Invalid value (at line 3, column 7)` as `path:3:7: error: Invalid value`."""
    message = str(e)
    m = re.search(r"^(.*) \(at line (\d+), column (\d+)\)$", message)
    if m:
        return f"{path}:{m.group(2)}:{m.group(3)}: error: {m.group(1)}"
    m = re.search(r"^(.*) \(at end of document\)$", message)
    if m:
        return f"{path}: error: {m.group(1)} (at the end of the file)"
    return f"{path}: error: {message}"


class _Checker:
    """Checks the decoded TOML and builds the Spec; errors name the line of the key."""

    def __init__(self, path: str, text: str):
        self.path, self.lines = path, text.splitlines()
        self.folder = os.path.dirname(os.path.abspath(path))

    def error(self, message: str, table: str | None = None, key: str | None = None, index: int = 0):
        line = self.line_of(table, key, index)
        where = f"{self.path}:{line}:" if line else f"{self.path}:"
        raise SpecError(f"{where} error: {message}")

    def line_of(self, table: str | None, key: str | None, index: int = 0) -> int | None:
        """The line of `key = ` in the table `table` ([table] or its index-th [[table]]);
        None when it cannot be found (an inline table, say)."""
        start, seen = 0, -1
        if table:
            header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?")
            for n, line in enumerate(self.lines):
                if header.match(line):
                    seen += 1
                    if seen == index:
                        start = n
                        break
            else:
                return None
            if key is None:
                return start + 1
        pattern = re.compile(r"^\s*\"?" + re.escape(key or "") + r"\"?\s*=")
        for n in range(start + (1 if table else 0), len(self.lines)):
            if table is None and self.lines[n].lstrip().startswith("["):
                break
            if table and n > start and re.match(r"^\s*\[", self.lines[n]):
                break
            if pattern.match(self.lines[n]):
                return n + 1
        return start + 1 if table else None

    def spec(self, data: dict) -> Spec:
        for key in data:
            if key not in TOP_KEYS:
                self.error(f"unknown key '{key}' (expected one of: {', '.join(sorted(TOP_KEYS))})", None, key)
        programs = data.get("program")
        if not programs:
            self.error("the spec names no program: add a [[program]] table with files = [...]")
        if not isinstance(programs, list):
            self.error("'program' must be an array of tables: write [[program]]", None, "program")
        spec = Spec(path=self.path, programs=[p for i, t in enumerate(programs) for p in self.program(t, i)])
        spec.axes = self.axes(data.get("axes", {}))
        spec.output = self.string(data, "output") if "output" in data else None
        if spec.output is not None:
            spec.output = os.path.join(self.folder, spec.output)
        spec.timeout = self.number(data, "timeout", 300.0, minimum=0.001)
        spec.max_steps = int(self.number(data, "max_steps", 0, minimum=1, integer=True)) or None
        spec.jobs = int(self.number(data, "jobs", 0, minimum=1, integer=True)) or None
        spec.engine = self.string(data, "engine") if "engine" in data else "jit"
        if spec.engine not in ENGINES:
            self.error(f"engine must be one of {', '.join(ENGINES)}, not '{spec.engine}'", None, "engine")
        return spec

    def string(self, data: dict, key: str, table: str | None = None, index: int = 0) -> str:
        value = data[key]
        if not isinstance(value, str):
            self.error(f"'{key}' must be a string", table, key, index)
        return value

    def number(self, data: dict, key: str, default, minimum, integer=False, table=None, index=0):
        if key not in data:
            return default
        value = data[key]
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or value < minimum:
            self.error(f"'{key}' must be {'an integer' if integer else 'a number'} of at least {minimum}",
                       table, key, index)
        return value

    def strings(self, table: dict, key: str, tname: str, index: int = 0) -> list[str]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                                  for v in value):
            self.error(f"'{key}' must be a string or an array of strings", tname, key, index)
        return [str(v) for v in value]

    def program(self, table, index: int) -> list[Program]:
        if not isinstance(table, dict):
            self.error("each program must be a table: write [[program]]", None, "program")
        for key in table:
            if key not in PROGRAM_KEYS:
                self.error(f"unknown key '{key}' in [[program]] (expected one of: {', '.join(sorted(PROGRAM_KEYS))})",
                           "program", key, index)
        if "files" not in table:
            self.error("[[program]] needs files = [\"FILE.cu\" or a glob, ...]", "program", None, index)
        files = []
        for pattern in self.strings(table, "files", "program", index):
            matches = sorted(glob.glob(os.path.join(self.folder, pattern), recursive=True))
            if not matches:
                self.error(f"'{pattern}' matches no file (paths are relative to the spec's folder)",
                           "program", "files", index)
            files += [(os.path.normpath(m), os.path.isabs(pattern)) for m in matches if os.path.isfile(m)]
        include = []
        for folder in self.strings(table, "include", "program", index):
            absolute = os.path.join(self.folder, folder)
            if not os.path.isdir(absolute):
                self.error(f"include folder '{folder}' does not exist", "program", "include", index)
            include.append(os.path.normpath(absolute))
        defines = self.strings(table, "defines", "program", index)
        for d in defines:
            if not MACRO.match(d.split("=", 1)[0]):
                self.error(f"'{d}' is not a macro definition (NAME or NAME=VALUE)", "program", "defines", index)
        args = tuple(self.strings(table, "args", "program", index))
        timeout = self.number(table, "timeout", None, minimum=0.001, table="program", index=index)
        return [Program(f if absolute else os.path.relpath(f, self.folder), f, args, tuple(include), tuple(defines),
                        timeout) for f, absolute in files]

    def axes(self, table) -> dict:
        if not isinstance(table, dict):
            self.error("'axes' must be a table: write [axes]", None, "axes")
        axes: dict[str, list] = {}
        for key, values in table.items():
            if key not in AXES:
                self.error(f"unknown axis '{key}' (expected one of: {', '.join(sorted(AXES))})", "axes", key)
            if key == "define":
                axes[key] = self.define_axes(values)
                continue
            if not isinstance(values, list) or not values:
                self.error(f"axis '{key}' must be a non-empty array of values", "axes", key)
            axes[key] = [self.axis_value(key, v) for v in values]
        return axes

    def define_axes(self, table) -> dict:
        if not isinstance(table, dict):
            self.error("'axes.define' must be a table of MACRO = [values]: write [axes.define]", "axes", "define")
        for name, values in table.items():
            if not MACRO.match(name):
                self.error(f"'{name}' is not a macro name", "axes.define", name)
            if not isinstance(values, list) or not values or not all(
                    isinstance(v, (int, str, float)) and not isinstance(v, bool) for v in values):
                self.error(f"macro axis '{name}' must be a non-empty array of numbers or strings", "axes.define", name)
        return {name: [str(v) for v in values] for name, values in table.items()}

    def axis_value(self, axis: str, value):
        bad = lambda expected: self.error(f"axis '{axis}': {value!r} is not {expected}", "axes", axis)
        if axis == "arch":
            if not isinstance(value, str):
                bad("an architecture name")
            try:
                parse_arch(value)
            except ValueError as e:
                self.error(f"axis 'arch': {e}", "axes", axis)
        elif axis == "sched":
            if value not in SCHEDS:
                bad(f"one of {', '.join(SCHEDS)}")
        elif axis == "opt":
            if value not in OPTS:
                bad(f"one of {', '.join(OPTS)}")
        elif axis == "rule":
            if value not in RULES:
                bad(f"one of {', '.join(RULES)}")
        elif axis in ("uniform_threshold", "divergent_threshold", "seed"):
            if isinstance(value, bool) or not isinstance(value, int) or (axis != "seed" and value < 0):
                bad("a non-negative integer" if axis != "seed" else "an integer")
        elif axis == "args":
            if isinstance(value, str):
                value = value.split()
            if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                                      for v in value):
                bad("an array of arguments (or one string of them)")
            value = tuple(str(v) for v in value)
        return value
