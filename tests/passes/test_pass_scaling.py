"""The passes cost work near linear in a function's size: counted (CFGs built), not
timed; and the graph algorithms written for that speed give networkx's answers."""
import random

import networkx as nx

import minicuda
from minicuda import pipeline
from minicuda.bench.compile_scale import elseif_program
from minicuda.passes.cfg import CFG, EXIT, strongly_connected
from minicuda.passes.postdom import ipdom_of


def test_an_else_if_chain_is_merged_without_a_cfg_per_arm(monkeypatch):
    """300 arms: simplify-cfg used to restart (a new CFG) after merging each empty join block."""
    built = []
    real = pipeline.ANALYSES["cfg"]
    monkeypatch.setitem(pipeline.ANALYSES, "cfg", lambda fn, analyses: built.append(fn.name) or real(fn, analyses))
    minicuda.compile(elseif_program(300))
    assert built.count("pick") < 60


def random_cfg(rng: random.Random) -> CFG:
    labels = [f"L{i}" for i in range(rng.randint(1, 25))]
    succ = {label: list(dict.fromkeys(rng.choice(labels + [EXIT]) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))))
            for label in labels}
    return CFG(succ, labels[0], labels)


def test_post_dominators_and_cycles_are_networkxs():
    rng = random.Random(11)
    for _ in range(500):
        cfg = random_cfg(rng)
        idom = nx.immediate_dominators(cfg.graph.reverse(copy=True), EXIT)
        assert ipdom_of(cfg) == {label: idom[label] if label in idom else None for label in cfg.order}
        assert strongly_connected(cfg) == {n: c for c in nx.strongly_connected_components(cfg.graph) for n in c}
