"""Pausing Python's cyclic garbage collector while a stage builds a large structure.

Parsing, checking and lowering allocate an object or more per token and keep nearly
all of them: each collection of the oldest generation walks every object alive, so
with the collector on, a large program's stage spends a quarter of its time in
collections that free nothing.  `collector_paused` (a context manager and a
decorator) turns it off for the stage and back on after, only if it was on: nested
stages and a caller that turned it off themselves are left as they were.  Objects
freed by reference counting are freed at once as always; a cycle made during the
stage waits for the next collection after it.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
