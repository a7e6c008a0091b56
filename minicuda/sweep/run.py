"""A sweep, run: the spec's points as tasks, on a backend, into a results file.

run_sweep is the Python API behind `minicuda sweep SPEC.toml`: it expands the spec,
drops the points --resume finds done, runs the rest (local pool or Dask), journals
each finished point, and writes every row, sorted into the points' order, so two
backends give the same file row for row.
"""
from __future__ import annotations

import os
import sys
import time

from minicuda.sweep import backends, results
from minicuda.sweep.execute import INTERRUPTED
from minicuda.sweep.extra import pandas_module
from minicuda.sweep.points import expand, make_task
from minicuda.sweep.spec import Spec


class Progress:
    """`points 12/40, 1 failed, 0.8/s` on one line of stderr, when it is a terminal."""

    def __init__(self, total: int, stream=None):
        self.total, self.done, self.failed = total, 0, 0
        self.stream, self.start = stream, time.monotonic()

    def add(self, rows: list[dict]) -> None:
        self.done += 1
        self.failed += rows[0]["status"] != "ok"
        if self.stream is None:
            return
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        left = (self.total - self.done) / rate if rate else 0
        self.stream.write(f"\rminicuda sweep: points {self.done}/{self.total}, {self.failed} failed, "
                          f"{rate:.2f}/s, about {left:.0f} s left  ")
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None and self.done:
            self.stream.write("\n")
            self.stream.flush()


def default_output(spec: Spec) -> str:
    """The results' prefix when neither the spec nor -o names one: beside the spec."""
    return spec.output or os.path.splitext(os.path.abspath(spec.path))[0] + "-results"


def tasks_of(spec: Spec) -> list[dict]:
    """The spec's points as tasks, identical points (the same key) once."""
    files_of: dict = {}
    tasks, keys = [], set()
    for point in expand(spec):
        task = make_task(point, spec, files_of)
        if task["key"] not in keys:
            keys.add(task["key"])
            tasks.append(task)
    return tasks


def run_sweep(spec: Spec, output: str | None = None, jobs: int | None = None, scheduler: str | None = None,
              resume: bool = False, progress=None):
    """Run the sweep; the results as a pandas DataFrame (also written to OUTPUT.parquet
    and OUTPUT.csv). `progress`: a stream for the progress line, or None."""
    pandas_module()
    output = output or default_output(spec)
    tasks = tasks_of(spec)
    parquet, _, journal_path = results.paths(output)
    kept = results.previous_rows(output) if resume else []
    done_keys = {row["point"] for row in kept}
    if not resume and os.path.exists(journal_path):
        os.remove(journal_path)
    todo = [t for t in tasks if t["key"] not in done_keys]
    os.makedirs(os.path.dirname(os.path.abspath(parquet)), exist_ok=True)
    journal = results.Journal(journal_path)
    meter = Progress(len(todo), progress)
    fresh: list[dict] = []

    def done(task: dict, rows: list[dict]) -> None:
        if rows[0]["status"] == INTERRUPTED:   # Ctrl-C: the point is not done (--resume runs it)
            raise KeyboardInterrupt
        journal.add(rows)
        fresh.extend(rows)
        meter.add(rows)
    try:
        if scheduler:
            backends.run_dask(todo, scheduler, done)
        else:
            backends.run_local(todo, jobs or spec.jobs or os.cpu_count() or 1, done)
    finally:
        meter.close()
        journal.close()
        if not fresh and os.path.getsize(journal_path) == 0:   # nothing ran (an unreachable cluster, say)
            os.remove(journal_path)
    rows = ordered(kept + fresh, tasks)
    results.write(rows, output)
    return results.frame_of(rows)


def ordered(rows: list[dict], tasks: list[dict]) -> list[dict]:
    """The rows in the points' order, then launch order; rows of points the spec no
    longer names (kept by --resume) last, in the order they had."""
    place = {t["key"]: n for n, t in enumerate(tasks)}
    position = {id(r): n for n, r in enumerate(rows)}
    return sorted(rows, key=lambda r: (place.get(r["point"], len(place)), position[id(r)] if r["point"] not in place
                                       else -1, r.get("launch") if r.get("launch") is not None else -1))


def main_stream():
    """stderr when it is a terminal (the progress line's place), else None."""
    try:
        return sys.stderr if sys.stderr.isatty() else None
    except (AttributeError, ValueError):
        return None
