"""A sweep's results: rows (one per point and kernel launch) kept as Parquet and CSV.

While the sweep runs, each finished point's rows are appended to OUT.journal.jsonl, so
an interrupted sweep loses no finished point; at the end all rows (those of an earlier
run that --resume kept, then the new ones) are written to OUT.parquet and OUT.csv in
the points' order, and the journal is removed. --resume reads OUT.parquet and any
journal left behind and skips every point whose key is there.
"""
from __future__ import annotations

import json
import os

from minicuda.sweep.extra import pandas_module

FIRST_COLUMNS = ["program", "arch", "sched", "opt", "rule", "uniform_threshold", "divergent_threshold", "seed",
                 "defines", "args", "point", "status", "exit_code", "message", "seconds", "launch", "kernel"]
TIMING_COLUMNS = {"seconds"}     # the columns that differ between two runs of the same point
SUMMARY_METRICS = ["branch_efficiency", "divergent_branch", "warp_execution_efficiency", "inst_executed"]
SUMMARY_ROWS = 40


def paths(output: str) -> tuple[str, str, str]:
    """(parquet, csv, journal) of the output prefix `output` (a .parquet or .csv suffix is dropped)."""
    stem = output[:-len(".parquet")] if output.endswith(".parquet") else output[:-4] if output.endswith(".csv") else output
    return stem + ".parquet", stem + ".csv", stem + ".journal.jsonl"


class Journal:
    """The rows of finished points, appended as they come."""

    def __init__(self, path: str):
        self.path = path
        self.file = open(path, "a", encoding="utf-8")

    def add(self, rows: list[dict]) -> None:
        for row in rows:
            self.file.write(json.dumps(row) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def previous_rows(output: str) -> list[dict]:
    """The rows an earlier run of the sweep left: its Parquet file, then its journal."""
    parquet, _, journal = paths(output)
    rows: list[dict] = []
    if os.path.exists(parquet):
        frame = pandas_module().read_parquet(parquet)
        rows = [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]
    if os.path.exists(journal):
        with open(journal, encoding="utf-8") as f:
            for line in f:
                try:
                    rows.append(json.loads(line))
                except ValueError:   # a line cut short when the sweep was killed
                    continue
    seen = {}
    for row in rows:
        seen.setdefault(row["point"], []).append(row)
    return [row for group in seen.values() for row in group]


def _plain(value):
    """A Parquet cell as the journal holds it: NaN and NA as None, numpy scalars as Python's."""
    if value is None:
        return None
    try:
        if value != value:   # NaN
            return None
    except (TypeError, ValueError):
        pass
    return value.item() if hasattr(value, "item") else value


def frame_of(rows: list[dict]):
    """The rows as a DataFrame, the point's columns first."""
    pandas = pandas_module()
    frame = pandas.DataFrame(rows)
    first = [c for c in FIRST_COLUMNS if c in frame.columns]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    for column in ("uniform_threshold", "divergent_threshold", "seed", "exit_code", "launch"):
        if column in frame.columns:
            frame[column] = frame[column].astype("Int64")
    return frame


def comparable_rows(frame) -> list[dict]:
    """The rows of a results frame as plain dicts without the timing columns, missing
    cells as None: two runs of the same sweep (on any backend) give equal lists."""
    kept = frame.drop(columns=[c for c in TIMING_COLUMNS if c in frame.columns])
    return [{k: _plain(v) for k, v in row.items()} for row in kept.to_dict("records")]


def write(rows: list[dict], output: str) -> tuple[str, str]:
    """Write the rows as OUT.parquet and OUT.csv; the journal goes. The written paths."""
    parquet, csv, journal = paths(output)
    os.makedirs(os.path.dirname(os.path.abspath(parquet)), exist_ok=True)
    frame = frame_of(rows)
    frame.to_parquet(parquet + ".tmp", index=False, engine="pyarrow")
    os.replace(parquet + ".tmp", parquet)
    frame.to_csv(csv, index=False)
    if os.path.exists(journal):
        os.remove(journal)
    return parquet, csv


def read(path: str):
    """A results file (.parquet or .csv) as a DataFrame."""
    pandas = pandas_module()
    if path.endswith(".csv"):
        return pandas.read_csv(path, keep_default_na=True)
    return pandas.read_parquet(path)


def summary(frame, out) -> None:
    """The table printed after a sweep: points by status, the metrics per kernel and
    setting (the axes that vary), then the failures."""
    points = frame.drop_duplicates("point")
    counts = points["status"].value_counts()
    print(f"{len(points)} points: " + ", ".join(f"{n} {s}" for s, n in counts.items()), file=out)
    axes = [c for c in ("program", "arch", "sched", "opt", "rule", "uniform_threshold", "divergent_threshold",
                        "seed", "defines", "args") if c in frame.columns and frame[c].nunique(dropna=False) > 1]
    launches = frame[frame["kernel"].notna()]
    metrics = [m for m in SUMMARY_METRICS if m in launches.columns]
    if len(launches) and metrics:
        keys = axes + ["kernel"]
        table = launches.groupby(keys, dropna=False, sort=False)[metrics].mean().reset_index()
        text = table.head(SUMMARY_ROWS).to_string(index=False, float_format=lambda v: f"{v:.4g}")
        print(text, file=out)
        if len(table) > SUMMARY_ROWS:
            print(f"... {len(table) - SUMMARY_ROWS} more rows (see the CSV)", file=out)
    failed = points[points["status"] != "ok"]
    if len(failed):
        print("failures:", file=out)
        for _, row in failed.iterrows():
            setting = " ".join(f"{c}={row[c]}" for c in axes if c != "program")
            print(f"  {row['program']} {setting}: {row['status']}: {row['message']}", file=out)
