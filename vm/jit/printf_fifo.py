"""The printf FIFO of one JIT launch: which blocks' records it keeps, whatever the workers' timing.

A launch may add `room` records to the FIFO (vm/runtime.py: its size over the record
size, less what it holds since the last synchronisation).  The records kept are the
first `room` in block order, as a one-worker run (and the interpreter) keeps them;
workers format records in any order, so each block's count goes into a sparse Fenwick
tree over block indices, and once the blocks up to some block b hold `room` records,
every later printf of a block >= b is dropped unformatted: `first_dropped` (one int64
word native code reads through the context's PRINTF_FROM) is that b.  Invariant:
`first_dropped` only decreases, and no record among the first `room` in block order
is ever dropped.
"""
from __future__ import annotations

import numpy as np

NONE_DROPPED = np.iinfo(np.int64).max


class LaunchFifo:
    def __init__(self, room: int, nblocks: int):
        self.room = max(room, 0)
        self.size = max(nblocks, 1)
        self.tree: dict[int, int] = {}   # Fenwick tree, 1-based: block b is index b + 1
        self.total = 0
        self.first_dropped = np.array([NONE_DROPPED if self.room else 0], dtype=np.int64)

    def through(self, block: int) -> int:
        """Records formatted so far in blocks 0..block."""
        i, total = block + 1, 0
        while i > 0:
            total += self.tree.get(i, 0)
            i -= i & -i
        return total

    def room_for(self, block: int) -> int:
        """How many more records of `block` the FIFO can keep, as far as is known yet."""
        return self.room - self.through(block)

    def add(self, block: int, records: int) -> None:
        """`block` formatted `records` more; drop from the first block the FIFO is full at."""
        if not records:
            return
        self.total += records
        i = block + 1
        while i <= self.size:
            self.tree[i] = self.tree.get(i, 0) + records
            i += i & -i
        if self.total >= self.room:
            self.first_dropped[0] = min(int(self.first_dropped[0]), self.first_full_block())

    def first_full_block(self) -> int:
        """The lowest block b with `room` records in blocks 0..b (binary lifting)."""
        index, below = 0, 0
        step = 1 << self.size.bit_length()
        while step:
            nxt = index + step
            if nxt <= self.size and below + self.tree.get(nxt, 0) < self.room:
                index, below = nxt, below + self.tree.get(nxt, 0)
            step >>= 1
        return index   # the 1-based index + 1 where the total reaches room, as a 0-based block

    def kept(self, printed: dict[int, list[bytes]]) -> list[bytes]:
        """The records the FIFO keeps of those formatted, by block: the first `room`."""
        out: list[bytes] = []
        for block in sorted(printed):
            out.extend(printed[block][:self.room - len(out)])
            if len(out) >= self.room:
                break
        return out
