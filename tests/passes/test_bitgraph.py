"""The bit-row graph register allocation uses for dense interference graphs, and that
allocation through it chooses exactly what the set-based colouring chooses."""
import random

import minicuda
from minicuda.bench.compile_scale import live_program, loops_program, switch_program
from minicuda.passes import bitgraph, regalloc
from minicuda.passes.bitgraph import BitGraph


def test_rows_become_symmetric_neighbours():
    # 0 -> 2, 3 -> 0, 1 alone: 0 ~ 2, 0 ~ 3
    graph = BitGraph.from_directed([0b100, 0, 0, 0b1])
    assert [list(graph.neighbours(i)) for i in range(4)] == [[2, 3], [], [0], [0]]
    assert [graph.degree(i) for i in range(4)] == [2, 0, 1, 1]


def test_transpose_across_slices_matches_pairs(monkeypatch):
    """More nodes than a slice, with a slice size that is not a divisor of n."""
    monkeypatch.setattr(bitgraph, "SLICE", 16)
    rng = random.Random(7)
    n = 53
    pairs = {(rng.randrange(n), rng.randrange(n)) for _ in range(300)}
    rows = [0] * n
    for a, b in pairs:
        rows[a] |= 1 << b
    graph = BitGraph.from_directed(rows)
    for i in range(n):
        expect = sorted({b for a, b in pairs if a == i} | {a for a, b in pairs if b == i})
        assert list(graph.neighbours(i)) == expect and graph.degree(i) == len(expect)


def test_empty_graph():
    graph = BitGraph.from_directed([])
    assert graph.n == 0


def test_dense_and_set_colouring_allocate_alike(monkeypatch):
    for source in (live_program(40), switch_program(15), loops_program(8)):
        for opt in (0, 3):
            monkeypatch.setattr(regalloc, "DENSE_EDGES", 10 ** 12)
            by_sets = minicuda.compile(source, opt=opt).sass()
            monkeypatch.setattr(regalloc, "DENSE_EDGES", -1)
            by_bits = minicuda.compile(source, opt=opt).sass()
            assert by_bits == by_sets
