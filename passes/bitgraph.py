"""A dense undirected graph as bit rows, for register allocation when the interference
graph has millions of edges (thousands of values live at once), where sets of names
cost a Python step per edge.

Nodes are 0..n-1.  `BitGraph.from_directed(rows)` takes row i as a Python int whose
bit j says i -> j, and makes the graph symmetric: i and j are neighbours when either
row names the other.  The transpose goes through numpy a slice of rows at a time, so
memory stays near n*n/8 bytes.  `degree(i)` and `neighbours(i)` (an index array)
read the symmetric rows.
"""
from __future__ import annotations

import numpy as np

SLICE = 1024   # rows transposed at a time (a multiple of 8)


class BitGraph:
    def __init__(self, rows: np.ndarray, n: int):
        self.rows = rows   # (n, nbytes) uint8, bit j of row i little-endian: i ~ j
        self.n = n

    @classmethod
    def from_directed(cls, directed: list[int]) -> "BitGraph":
        n = len(directed)
        nbytes = max(1, (n + 7) // 8)
        forward = np.frombuffer(b"".join(r.to_bytes(nbytes, "little") for r in directed), dtype=np.uint8)
        forward = forward.reshape(n, nbytes) if n else np.zeros((0, nbytes), dtype=np.uint8)
        backward = np.zeros_like(forward)
        for start in range(0, n, SLICE):
            bits = np.unpackbits(forward[start:start + SLICE], axis=1, bitorder="little")[:, :n]
            packed = np.packbits(bits.T, axis=1, bitorder="little")   # (n, ceil(rows/8))
            backward[:, start // 8:start // 8 + packed.shape[1]] = packed
        return cls(forward | backward, n)

    def degree(self, i: int) -> int:
        return int.from_bytes(self.rows[i].tobytes(), "little").bit_count()

    def neighbours(self, i: int) -> np.ndarray:
        return np.flatnonzero(np.unpackbits(self.rows[i], bitorder="little")[:self.n])
