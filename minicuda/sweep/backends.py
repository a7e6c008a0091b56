"""Where the points run: a local pool (the default) or a Dask distributed cluster.

Both call execute.run_point on each task and hand each point's rows to `done` as the
point finishes, in whatever order points finish (the results are sorted later). The
local pool uses threads, each waiting on its point's own process. On Dask each task
carries its program's files; a worker that dies takes its running tasks with it and
the scheduler runs them again elsewhere (finished points are already back here).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Callable

from minicuda.sweep.execute import failure_rows, run_point
from minicuda.sweep.extra import dask_client

Done = Callable[[dict, list], None]
DASK_RETRIES = 3


def run_local(tasks: list[dict], jobs: int, done: Done) -> None:
    """Run the tasks on `jobs` threads, each point in its own process."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_point, task): task for task in tasks}
        try:
            for future in as_completed(futures):
                done(futures[future], future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def run_dask(tasks: list[dict], scheduler: str, done: Done) -> None:
    """Run the tasks on the Dask cluster at `scheduler` (tcp://HOST:PORT)."""
    client, dask_completed = dask_client(scheduler)
    try:
        futures = client.map(run_point, tasks, key=[f"minicuda-point-{t['key']}" for t in tasks],
                             pure=False, retries=DASK_RETRIES)
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        for future in dask_completed(futures):
            task = by_key[future.key]
            try:
                rows = future.result()
            except Exception as e:   # the task failed on every worker it was given (KilledWorker, say)
                rows = failure_rows(task, "lost", f"{type(e).__name__}: {e}")
            done(task, rows)
    finally:
        client.close()
