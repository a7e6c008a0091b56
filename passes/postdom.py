"""Immediate post-dominators: networkx's immediate dominators on the reversed CFG.

`ipdom(fn)` maps each block label reachable from the entry to the label of its
immediate post-dominator (`EXIT` for blocks whose every path leaves at once).  A
block from which the exit cannot be reached (an infinite loop) gets None: no
reconvergence point exists for a branch there.
"""
from __future__ import annotations

import networkx as nx

from minicuda.ir import Function
from minicuda.passes.cfg import CFG, EXIT, build_cfg


def ipdom_of(cfg: CFG) -> dict[str, str | None]:
    reverse = cfg.graph.reverse(copy=True)
    idom = nx.immediate_dominators(reverse, EXIT)
    result: dict[str, str | None] = {}
    for label in cfg.order:
        if label in idom and label != EXIT:
            result[label] = idom[label]
        else:
            result[label] = None
    return result


def ipdom(fn: Function, analyses=None) -> dict[str, str | None]:
    cfg = analyses.get("cfg") if analyses is not None else build_cfg(fn)
    return ipdom_of(cfg)
