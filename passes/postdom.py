"""Immediate post-dominators: the immediate dominators of the reversed CFG, by Cooper,
Harvey and Kennedy's iteration over its reverse postorder (what networkx computes,
without building the reversed graph).

`ipdom(fn)` maps each block label reachable from the entry to the label of its
immediate post-dominator (`EXIT` for blocks whose every path leaves at once).  A
block from which the exit cannot be reached (an infinite loop) gets None: no
reconvergence point exists for a branch there.
"""
from __future__ import annotations

from minicuda.ir import Function
from minicuda.passes.cfg import CFG, EXIT, build_cfg, immediate_dominators


def ipdom_of(cfg: CFG) -> dict[str, str | None]:
    idom = _post_dominators(cfg)
    result: dict[str, str | None] = {}
    for label in cfg.order:
        if label in idom and label != EXIT:
            result[label] = idom[label]
        else:
            result[label] = None
    return result


def _post_dominators(cfg: CFG) -> dict[str, str]:
    """Each node that reaches EXIT -> its immediate post-dominator (EXIT -> EXIT)."""
    return immediate_dominators(EXIT, lambda n: cfg.pred.get(n, ()), lambda n: cfg.succ.get(n, ()))


def ipdom(fn: Function, analyses=None) -> dict[str, str | None]:
    cfg = analyses.get("cfg") if analyses is not None else build_cfg(fn)
    return ipdom_of(cfg)
