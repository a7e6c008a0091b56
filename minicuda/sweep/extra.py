"""The [sweep] extra's packages, imported when a sweep needs them: each says what to
install when it is missing (pip install 'minicuda[sweep]'), never a traceback."""
from __future__ import annotations

INSTALL = "pip install 'minicuda[sweep]'"


class ExtraMissing(Exception):
    """An optional package of the [sweep] extra is not installed (or a cluster is unreachable)."""


def pandas_module():
    """pandas, after checking pyarrow (its Parquet engine) is there too."""
    try:
        import pandas   # noqa: PLC0415  (the [sweep] extra)
        import pyarrow  # noqa: F401, PLC0415
    except ImportError as e:
        raise ExtraMissing(f"minicuda sweep needs pandas and pyarrow ({e.name or 'one'} is missing): {INSTALL}") from None
    return pandas


def pyplot():
    """matplotlib.pyplot on the Agg backend (files only, no display)."""
    try:
        import matplotlib   # noqa: PLC0415  (the [sweep] extra)
    except ImportError:
        raise ExtraMissing(f"minicuda sweep --plot needs matplotlib: {INSTALL}") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt   # noqa: PLC0415
    return plt


def dask_client(scheduler: str):
    """(a distributed Client of the cluster at `scheduler`, distributed.as_completed)."""
    try:
        from distributed import Client, as_completed   # noqa: PLC0415  (the [sweep] extra)
    except ImportError:
        raise ExtraMissing(f"--scheduler needs dask and distributed: {INSTALL}") from None
    try:
        return Client(scheduler, timeout="20s"), as_completed
    except (OSError, TimeoutError, ValueError) as e:
        raise ExtraMissing(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
