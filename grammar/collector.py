"""Pausing Python's cyclic garbage collector while a stage builds a large structure.

Parsing and lowering allocate an object or more per token and keep nearly
all of them: each collection of the oldest generation walks every object alive, so
with the collector on, a large program's stage spends a quarter of its time in
collections that free nothing.  `collector_paused` (a context manager and a
decorator) turns it off for the stage and back on after, only if it was on: nested
stages and a caller that turned it off themselves are left as they were.  Objects
freed by reference counting are freed at once as always; a cycle made during the
stage waits for the collector's next run.  A stage that kept more than
`LARGE_STAGE` objects ends with a collection of the young generations: one walk over
what the stage made (not over all that is alive: at 100,000 lines a full collection
walks 3 million objects, 2 s), which moves them to the oldest generation, where the
collector left on walks them several times as they pile up; that way the stage pays
for it, not the next stage's first collections.  A small
stage does not (a full collection of a large process, as a test run's, costs more
than compiling a small program).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


LARGE_STAGE = 200_000   # objects a stage keeps (net of those freed) before it ends with a full collection


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            kept = gc.get_count()[0]   # counted while the collector was off
            gc.enable()
            if kept > LARGE_STAGE:
                gc.collect(1)


def freeze_survivors() -> None:
    """Collect the young generations, then freeze what survived them: a step's results
    (one function's passes) leave the collector's sight at once, so that they do not
    pile up in the oldest generation, where each full collection would walk all of
    them again (at 100,000 lines the passes' full collections cost 2 s).  Only inside
    a block that unfreezes at its end (`minicuda.compiler.old_objects_frozen`); the
    young collection first frees the step's garbage cycles, so freezing keeps no
    garbage alive until then."""
    gc.collect(1)
    gc.freeze()
