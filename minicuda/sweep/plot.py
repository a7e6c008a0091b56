"""The standard pictures of a sweep's results (matplotlib, SVG or PNG).

- branch_efficiency.FMT: branch efficiency per kernel, one bar per arch (mean over
  the other axes);
- divergent_vs_threshold.FMT: divergent branches per kernel against the predication
  setting (rule and thresholds);
- METRIC_vs_block.FMT: a metric (branch efficiency unless asked) against the threads
  per block, one line per kernel, when the sweep has more than one block size.
Only the rows of points that ran (status ok) are drawn; a picture whose axis does not
vary in the results is left out, and the command says so.
"""
from __future__ import annotations

import os

from minicuda.sweep import results
from minicuda.sweep.extra import pandas_module, pyplot


def plot_results(path: str, folder: str | None = None, fmt: str = "svg", metric: str = "branch_efficiency"):
    """Draw the pictures of the results file `path` into `folder` (default: beside it).
    (written paths, notes on pictures left out)."""
    plt = pyplot()
    frame = results.read(path)
    folder = folder or os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    ran = frame[(frame["status"] == "ok") & frame["kernel"].notna()].copy()
    if ran.empty:
        return [], ["no point of the results ran to completion: nothing to draw"]
    ran["label"] = ran["program"].map(lambda p: os.path.splitext(os.path.basename(str(p)))[0]) + ":" + ran["kernel"]
    written, notes = [], []
    for draw in (_branch_efficiency, _divergent_vs_threshold, _metric_vs_block):
        name, note = draw(plt, ran, folder, fmt, metric)
        if name:
            written.append(name)
        if note:
            notes.append(note)
    return written, notes


def _legend_outside(ax, labels) -> None:
    """The legend right of the axes, so that many kernels do not cover the lines."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), ncol=1 + len(labels) // 25)


def _save(plt, fig, folder: str, name: str, fmt: str) -> str:
    path = os.path.join(folder, f"{name}.{fmt}")
    fig.tight_layout()
    fig.savefig(path, format=fmt)
    plt.close(fig)
    return path


def _branch_efficiency(plt, ran, folder, fmt, metric):
    if "branch_efficiency" not in ran.columns:
        return None, "branch_efficiency: the results have no branch_efficiency column"
    table = ran.groupby(["label", "arch"], dropna=False)["branch_efficiency"].mean().unstack("arch")
    longest = max(len(str(label)) for label in table.index)
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(table) + 2), 3.5 + 0.09 * longest))
    table.plot.bar(ax=ax, width=0.8)
    ax.set_ylabel("branch efficiency (%)")
    ax.set_xlabel("kernel")
    ax.set_title("Branch efficiency per kernel and architecture")
    ax.set_ylim(0, 105)
    ax.legend(title="arch")
    return _save(plt, fig, folder, "branch_efficiency", fmt), None


def _threshold_label(row) -> str:
    """The predication setting of a row: `seed <4/<7`, `guide <=4/<=7`."""
    if row["rule"] == "guide":
        return "guide <=4/<=7"
    given = lambda column, default: default if column not in row or _missing(row[column]) else int(row[column])
    return f"seed <{given('uniform_threshold', 4)}/<{given('divergent_threshold', 7)}"


def _missing(value) -> bool:
    return bool(pandas_module().isna(value))


def _divergent_vs_threshold(plt, ran, folder, fmt, metric):
    ran = ran.copy()
    ran["threshold"] = ran.apply(_threshold_label, axis=1)
    if ran["threshold"].nunique() < 2:
        return None, "divergent_vs_threshold: the results have one predication setting only"
    order = list(dict.fromkeys(ran["threshold"]))
    table = ran.groupby(["threshold", "label"])["divergent_branch"].mean().unstack("label").reindex(order)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    table.plot(ax=ax, marker="o")
    if table.max().max() > 1000:   # kernels of a few branches next to ones of many: all visible
        ax.set_yscale("symlog")
        ax.set_ylim(bottom=0)
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order)
    ax.set_xlabel("predication setting")
    ax.set_ylabel("divergent branches (mean per launch)")
    ax.set_title("Divergent branches against the predication thresholds")
    _legend_outside(ax, table.columns)
    return _save(plt, fig, folder, "divergent_vs_threshold", fmt), None


def _metric_vs_block(plt, ran, folder, fmt, metric):
    if metric not in ran.columns:
        return None, f"{metric}_vs_block: the results have no column '{metric}'"
    sizes = ran.groupby("label")["threads_per_block"].nunique() if "threads_per_block" in ran.columns else None
    if sizes is None or not (sizes > 1).any():
        return None, f"{metric}_vs_block: no kernel ran at more than one block size"
    ran = ran[ran["label"].isin(sizes[sizes > 1].index)]
    table = ran.groupby(["threads_per_block", "label"])[metric].mean().unstack("label").sort_index()
    fig, ax = plt.subplots(figsize=(10, 4.5))
    table.plot(ax=ax, marker="o", logx=True)
    ax.set_xlabel("threads per block")
    ax.set_ylabel(metric)
    ax.set_title(f"{metric} against the block size")
    _legend_outside(ax, table.columns)
    return _save(plt, fig, folder, f"{metric}_vs_block", fmt), None
