"""The points of a sweep: each program times the product of the axes.

A point is one isolated `minicuda run`. Its task carries everything a worker needs
(the program's text and the files it includes, its options), so a Dask worker on
another host runs it without sharing a file system. Its key is a hash of that text
and the options: the same key means the same run, which is how --resume knows a
point is done (a changed program or header makes a new key).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from dataclasses import dataclass

from minicuda.sweep.spec import Program, Spec

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
MAX_INCLUDE_FILES = 2000


@dataclass(frozen=True)
class Point:
    """One run of the sweep; fields left None take minicuda run's default."""
    index: int
    program: Program
    arch: str | None = None
    sched: str | None = None            # stack, its, or None (the arch's model)
    opt: str | None = None              # -O0 .. -O3, -G
    rule: str | None = None
    uniform_threshold: int | None = None
    divergent_threshold: int | None = None
    seed: int | None = None
    args: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()

    def columns(self) -> dict:
        """The point's columns of a results row."""
        return {"program": self.program.path, "arch": self.arch, "sched": self.sched or "auto",
                "opt": self.opt or "-O3", "rule": self.rule or "seed",
                "uniform_threshold": self.uniform_threshold, "divergent_threshold": self.divergent_threshold,
                "seed": self.seed, "defines": " ".join(self.defines), "args": " ".join(self.args)}

    def options(self, timeout: float, max_steps: int | None, engine: str) -> list[str]:
        """minicuda run's options for this point (program and its arguments excluded)."""
        out = ["-q", "--jobs", "1", "--engine", engine, "--timeout", f"{timeout:g}"]
        if max_steps:
            out += ["--max-steps", str(max_steps)]
        if self.arch:
            out += ["--arch", self.arch]
        if self.sched:
            out += ["--sched", self.sched]
        if self.opt == "-G":
            out.append("-G")
        elif self.opt:
            out += ["-O", self.opt[2:]]
        if self.rule:
            out += ["--predication-rule", self.rule]
        if self.uniform_threshold is not None:
            out += ["--uniform-threshold", str(self.uniform_threshold)]
        if self.divergent_threshold is not None:
            out += ["--divergent-threshold", str(self.divergent_threshold)]
        if self.seed is not None:
            out += ["--sched-seed", str(self.seed)]
        for d in self.defines:
            out += ["-D", d]
        return out


def expand(spec: Spec) -> list[Point]:
    """The points of the spec, in a fixed order: programs, then axes as the spec lists them."""
    axes = {k: v for k, v in spec.axes.items() if k != "define"}
    macros = spec.axes.get("define", {})
    names = list(axes) + [f"define:{m}" for m in macros]
    value_lists = list(axes.values()) + list(macros.values())
    points = []
    for program in spec.programs:
        for values in itertools.product(*value_lists):
            setting = dict(zip(names, values))
            defines = program.defines + tuple(f"{n[7:]}={v}" for n, v in setting.items() if n.startswith("define:"))
            sched = setting.get("sched")
            points.append(Point(
                index=len(points), program=program, arch=setting.get("arch"),
                sched=None if sched in (None, "auto") else sched, opt=setting.get("opt"), rule=setting.get("rule"),
                uniform_threshold=setting.get("uniform_threshold"),
                divergent_threshold=setting.get("divergent_threshold"), seed=setting.get("seed"),
                args=setting.get("args", program.args), defines=defines))
    return points


def program_files(program: Program) -> tuple[str, dict[str, str]]:
    """(the folder every file is under, {path relative to it: text}): the program, the
    files of its include folders and the quoted #includes it reaches."""
    found: dict[str, str] = {}
    pending = [program.file]
    for folder in program.include:
        for root, _, names in os.walk(folder):
            pending += [os.path.join(root, n) for n in sorted(names)]
    while pending and len(found) < MAX_INCLUDE_FILES:
        path = os.path.normpath(pending.pop(0))
        if path in found or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                found[path] = f.read()
        except OSError:
            continue
        for name in INCLUDE.findall(found[path]):
            for folder in (os.path.dirname(path),) + program.include:
                candidate = os.path.normpath(os.path.join(folder, name))
                if os.path.isfile(candidate):
                    pending.append(candidate)
                    break
    base = os.path.commonpath([os.path.dirname(p) for p in found] + list(program.include))
    return base, {os.path.relpath(p, base): text for p, text in sorted(found.items())}


def make_task(point: Point, spec: Spec, files_of: dict) -> dict:
    """The picklable task of a point (what travels to a worker); `files_of` caches
    program_files per program."""
    if point.program.file not in files_of:
        files_of[point.program.file] = program_files(point.program)
    base, files = files_of[point.program.file]
    timeout = point.program.timeout or spec.timeout
    options = point.options(timeout, spec.max_steps, spec.engine)
    options += [x for folder in point.program.include for x in ("-I", os.path.relpath(folder, base))]
    task = {"files": files, "program": os.path.relpath(point.program.file, base), "options": options,
            "args": list(point.args), "timeout": timeout, "columns": point.columns(), "index": point.index}
    task["key"] = point_key(task)
    return task


def point_key(task: dict) -> str:
    """The hash of a point's program text, included files and options."""
    identity = {"files": task["files"], "program": task["program"], "options": task["options"],
                "args": task["args"], "columns": task["columns"]}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode("utf-8", "surrogateescape")).hexdigest()[:20]
