"""CFG construction: the properties of the graph (the virtual exit is its one sink, the
layout order, the conditional branch of a block).  The successors of every way a block
can end are a FileCheck test, tests/passes/filecheck/cfg/successors.ir, whose functions
these tests read (the parser ignores its RUN and CHECK comments)."""
from pathlib import Path

import networkx as nx

from minicuda.ir import parse_module, verify
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch

SUCCESSORS = Path(__file__).parent / "filecheck" / "cfg" / "successors.ir"


def functions():
    mod = parse_module(SUCCESSORS.read_text())
    for fn in mod.functions.values():
        verify(fn)
    return mod.functions


def test_virtual_exit_is_the_one_sink():
    cfg = build_cfg(functions()["k"])
    assert EXIT in cfg.graph
    assert cfg.succs(EXIT) == []
    assert sorted(cfg.preds(EXIT)) == [".L5", ".L7", ".L8"]
    assert [n for n in cfg.graph if cfg.graph.out_degree(n) == 0] == [EXIT]
    assert all(nx.has_path(cfg.graph, n, EXIT) for n in cfg.graph)


def test_entry_and_layout_order():
    cfg = build_cfg(functions()["k"])
    assert cfg.entry == ".L0"
    assert cfg.order == [f".L{i}" for i in range(9)]
    # the virtual exit counts as reachable (the FileCheck test marks the blocks that are not)
    assert EXIT in cfg.reachable()


def test_conditional_branch():
    fns = functions()
    found = {b.label: conditional_branch(b) for b in fns["k"].blocks}
    assert {label for label, br in found.items() if br is not None} == {".L1", ".L2", ".L3", ".L4"}
    br = found[".L2"]
    assert (br.target, br.guard.name, br.guard_neg) == (".L5", "%p0", True)
    # a guarded branch to the next block is still the block's conditional branch
    assert conditional_branch(fns["guarded_branch_to_next"].blocks[0]) is not None
