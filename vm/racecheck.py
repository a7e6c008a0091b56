"""racecheck: hazards between threads whose accesses to one byte nothing orders.

The interpreter calls `RaceCheck` at every load, store and atomic of a launch's kernel
threads (`access`), at every instruction a warp runs (`step`), when lanes of a warp
synchronise (`warp_sync`: __syncwarp, a shuffle, a vote, a match), when a block's
barrier opens (`barrier`), at a grid barrier and at a fence (`fence`).  Two accesses to
one byte by two threads, at least one a write, are a hazard unless one happens before
the other:

- the same block, and a barrier of the block opened in between (the block's barrier
  epoch grew); likewise a cooperative launch's grid barrier for all blocks;
- the same warp, and an instruction since the first access that both lanes ran
  together and that orders them: under the stack model every instruction (lanes in
  lockstep: one instruction's lanes never race, the two serialised paths of a
  divergent branch do), under independent thread scheduling only a warp-synchronous
  one (`joint`, per warp: the last such step of each pair of lanes);
- release and acquire (`clock`, `known`: sparse vector clocks over fences): a fence
  ends a thread's epoch; an atomic after it, or a store after it when the epoch before
  stored data (data, fence, flag), releases what came before into the location it
  writes (a lock, a flag); a load or atomic of that location acquires it, and a barrier
  shares what its block's threads acquired;
- both accesses atomic; or the write a release store or an atomic and the other access
  a load or an atomic: the flag or lock itself, synchronisation and not data.

Shared memory is checked per block (compute-sanitizer's racecheck checks only it);
global memory (global, managed and pinned allocations) per launch, across blocks, and
its reports say the GPU's tool does not check it.  A hazard is an error, or a warning
as compute-sanitizer's racecheck grades it: a read and a write by two lanes of one warp
("Warp Level Programming": the lanes of a warp-synchronous idiom), two writes of the
same value, or a read and a write that left memory as it was.  Reports are kept per pair of instructions and kind (with how many
hazards each stands for) and written when the launch ends.
"""
from __future__ import annotations

import numpy as np

from minicuda.vm.tools import ERROR, WARNING, thread_text

CHECKED_SPACES = {"shared": "shared", "global": "global", "managed": "global", "pinned": "global"}
GLOBAL_NOTE = "(global memory: not checked by compute-sanitizer)"
LANES = 32


class Access:
    """One access by one thread: what racecheck keeps of it in the shadow."""
    __slots__ = ("thread", "block", "warp", "lane", "epoch", "grid_epoch", "step", "clock", "kind", "ins",
                 "fn", "who", "value", "changed", "release")

    def __init__(self, **fields) -> None:
        for k, v in fields.items():
            setattr(self, k, v)

    @property
    def label(self) -> str:
        return {"load": "Read", "store": "Write", "atomic": "Atomic"}[self.kind]


class Shadow:
    """A byte's last write and the reads since it, one per thread."""
    __slots__ = ("write", "reads")

    def __init__(self) -> None:
        self.write: Access | None = None
        self.reads: dict = {}


class RaceCheck:
    def __init__(self, interp) -> None:
        self.interp, self.sched = interp, interp.sched
        self.shadow: dict[tuple, Shadow] = {}   # (block or None, byte address) -> Shadow
        self.epoch: dict[tuple, int] = {}       # block -> barriers opened
        self.grid_epoch = 0
        self.joint: dict[tuple, np.ndarray] = {}   # (block, warp) -> [lane, lane] last step run together
        self.steps: dict[tuple, int] = {}
        self.clock: dict[tuple, int] = {}       # thread -> fences made
        self.known: dict[tuple, dict] = {}      # thread -> {thread: clock acquired}
        self.block_known: dict[tuple, dict] = {}
        self.stored: dict[tuple, int] = {}      # thread -> its clock at its last plain store
        self.released: dict[tuple, dict] = {}   # (block or None, byte address) -> what a release put there
        self.hazards: dict[tuple, list] = {}    # report key -> [count, first (earlier, later, address, alloc)]

    # ---- who is running ----------------------------------------------------------------------
    @staticmethod
    def block_of(w) -> tuple:
        block = getattr(w, "race_block", None)
        if block is None:
            block = w.race_block = tuple(int(w.ids["SR_CTAID"][a][0]) for a in "XYZ")
        return block

    @staticmethod
    def thread_ids(w) -> list[str]:
        """`thread (x,y,z) in block (x,y,z)` of each lane of `w`, made once per warp."""
        tids = getattr(w, "race_tids", None)
        if tids is None:
            tids = w.race_tids = [thread_text(w, lane) for lane in range(LANES)]
        return tids

    def warp_key(self, w) -> tuple:
        return self.block_of(w), int(w.ids["warp"])

    def joint_of(self, key: tuple) -> np.ndarray:
        if key not in self.joint:
            self.joint[key] = np.full((LANES, LANES), -1, np.int64)
            self.steps[key] = 0
        return self.joint[key]

    # ---- the events that order threads ----------------------------------------------------------
    def step(self, w, group: np.ndarray) -> None:
        """A warp runs one instruction for the lanes `group`: under the stack model they run it
        in lockstep (a predicated instruction: the lanes whose guard holds)."""
        key = self.warp_key(w)
        joint = self.joint_of(key)
        self.steps[key] += 1
        if self.sched != "its" and group.any():
            lanes = np.nonzero(group)[0]
            joint[np.ix_(lanes, lanes)] = self.steps[key]

    def warp_sync(self, w, lanes: np.ndarray) -> None:
        """The lanes `lanes` of a warp synchronise (__syncwarp, a shuffle, a vote)."""
        if lanes.any():
            key = self.warp_key(w)
            joint = self.joint_of(key)
            idx = np.nonzero(lanes)[0]
            joint[np.ix_(idx, idx)] = self.steps[key]

    def barrier(self, block: tuple) -> None:
        """Block `block`'s barrier opened: what came before is ordered before what comes after,
        and what one of its threads acquired every thread has."""
        self.epoch[block] = self.epoch.get(block, 0) + 1
        merged = dict(self.block_known.get(block, {}))
        for thread, known in self.known.items():
            if thread[0] == block:
                _merge(merged, known)
                merged[thread] = max(merged.get(thread, 0), self.clock.get(thread, 0))
        self.block_known[block] = merged

    def grid_barrier(self) -> None:
        self.grid_epoch += 1

    def fence(self, w, on: np.ndarray) -> None:
        block = self.block_of(w)
        for lane in np.nonzero(on)[0]:
            thread = (block, int(w.ids["warp"]) * LANES + int(lane))
            self.clock[thread] = self.clock.get(thread, 0) + 1

    # ---- accesses ------------------------------------------------------------------------------
    def access(self, w, ins, on: np.ndarray, addresses: np.ndarray, size: int, kind: str, values=None) -> None:
        """`kind` ("load", "store", "atomic") of `size` bytes by the lanes `on` at `addresses`;
        a store's `values` say whether it changes memory.  Called before the access is made."""
        memory, scope = self.interp.memory, w.scope
        block, warp = self.block_of(w), int(w.ids["warp"])
        key = (block, warp)
        self.joint_of(key)
        step = self.steps[key]
        epoch = self.epoch.get(block, 0)
        tids = self.thread_ids(w)
        for lane in np.nonzero(on)[0]:
            lane = int(lane)
            address = int(addresses[lane])
            alloc, offset = memory.locate_lane(address, size, kind, lane, scope, self.interp.side)
            space = CHECKED_SPACES.get(alloc.space)
            if space is None:
                continue
            thread = (block, warp * LANES + lane)
            clock = self.clock.get(thread, 0)
            value, changed = None, True
            if kind == "store" and values is not None:
                value = _value(values, lane) & ((1 << (8 * size)) - 1)
                old = int.from_bytes(alloc.data[offset:offset + size].tobytes(), "little")
                changed = old != value
            me = Access(thread=thread, block=block, warp=warp, lane=lane, epoch=epoch, grid_epoch=self.grid_epoch,
                        step=step, clock=clock, kind=kind, ins=ins, fn=w.code.fn.name, who=tids[lane],
                        value=value, changed=changed, release=self.releases(thread, kind, clock))
            if kind == "store":
                self.stored[thread] = clock
            owner = block if space == "shared" else None
            racing: dict[int, Access] = {}
            for byte in range(address, address + size):
                self.check_byte((owner, byte), me, racing)
            for prior in racing.values():
                self.hazard(prior, me, address, alloc, space)

    def releases(self, thread: tuple, kind: str, clock: int) -> bool:
        """Whether an access releases: an atomic after a fence (a lock's release, a counter),
        or a store after a fence that followed a plain store (data, fence, flag)."""
        if kind == "atomic":
            return clock > 0
        return kind == "store" and clock > 0 and self.stored.get(thread) == clock - 1

    def check_byte(self, where: tuple, me: Access, racing: dict) -> None:
        """Check `me` against byte `where`'s shadow (the accesses it races with go into
        `racing`), then record it there."""
        cell = self.shadow.get(where)
        if cell is None:
            cell = self.shadow[where] = Shadow()
        if me.kind != "store":   # a load or an atomic acquires what a release put here
            released = self.released.get(where)
            if released:
                _merge(self.known.setdefault(me.thread, {}), released)
        prior = cell.write
        if prior is not None and prior.thread != me.thread and not self.ordered(prior, me):
            racing[id(prior)] = prior
        if me.kind != "load":
            for read in cell.reads.values():
                if read.thread != me.thread and not self.ordered(read, me):
                    racing[id(read)] = read
            cell.write, cell.reads = me, {}
            if me.release or me.kind == "atomic":
                released = self.released.setdefault(where, {})
                _merge(released, self.known.get(me.thread, {}))
                _merge(released, self.block_known.get(me.block, {}))
                released[me.thread] = max(released.get(me.thread, 0), me.clock)
        if me.kind != "store":
            cell.reads[me.thread] = me

    def ordered(self, a: Access, b: Access) -> bool:
        """Whether access `a` (earlier) happens before `b` (by another thread), or the pair is
        synchronisation rather than data."""
        if a.kind == "atomic" and b.kind == "atomic":
            return True
        if a.kind != "load" and (a.release or a.kind == "atomic") and b.kind in ("load", "atomic"):
            return True
        if a.grid_epoch < self.grid_epoch:
            return True
        if a.block == b.block:
            if a.epoch < self.epoch.get(b.block, 0):
                return True
            if a.warp == b.warp and self.joint[(a.block, a.warp)][a.lane, b.lane] >= a.step:
                return True
        return a.clock < self.known_clock(b, a.thread)

    def known_clock(self, b: Access, thread: tuple) -> int:
        return max(self.known.get(b.thread, {}).get(thread, 0), self.block_known.get(b.block, {}).get(thread, 0))

    # ---- reports ---------------------------------------------------------------------------------
    def hazard(self, a: Access, b: Access, address: int, alloc, space: str) -> None:
        same = a.kind == b.kind == "store" and a.value is not None and a.value == b.value
        quiet = (a.kind == "store" and not a.changed) or (b.kind == "store" and not b.changed)
        warp_level = a.block == b.block and a.warp == b.warp and "load" in (a.kind, b.kind)
        severity = WARNING if same or warp_level or (quiet and "load" in (a.kind, b.kind)) else ERROR
        key = (id(a.ins), a.kind, id(b.ins), b.kind, space, severity, a.block if space == "shared" else None)
        entry = self.hazards.get(key)
        if entry is None:
            # the allocation's space and name as they are now: a block scope is renamed for
            # each block it serves, and the launch's hazards are reported at its end
            self.hazards[key] = [1, (a, b, address, (alloc.space, alloc.name), same, warp_level)]
        else:
            entry[0] += 1

    def finish(self, findings) -> None:
        """The launch ended: report its hazards, one report per pair of instructions."""
        for key, (count, (a, b, address, alloc, same, warp_level)) in self.hazards.items():
            severity = key[5]
            findings.report("racecheck", severity,
                            self.text(severity, count, a, b, address, alloc, same, warp_level, key[4]))
        self.hazards = {}

    @staticmethod
    def text(severity, count, a: Access, b: Access, address, alloc: tuple[str, str], same, warp_level,
             space) -> str:
        head = "Error" if severity == ERROR else "Warning"
        if warp_level:
            head += " (Warp Level Programming)"
        note = f" {GLOBAL_NOTE}" if space == "global" else ""
        lines = [f"========= {head}: Race reported between {a.label} access at {_at(a)} in '{a.fn}'",
                 f"=========     by {a.who}",
                 f"=========     and {b.label} access at {_at(b)} in '{b.fn}'",
                 f"=========     by {b.who}",
                 f"=========     at {address:#x} in {alloc[0]} allocation '{alloc[1]}'{note} "
                 f"[{count} hazard{'s' if count != 1 else ''}]"]
        if same:
            lines.append(f"=========     note: both writes stored the same value ({a.value})")
        elif severity == WARNING and not warp_level:
            lines.append("=========     note: the write left memory as it was (the values were equal)")
        lines.append("=========")
        return "\n".join(lines)


def _at(a: Access) -> str:
    return str(a.ins.loc) if a.ins.loc is not None else f"'{a.ins.opcode}'"


def _value(values, lane: int) -> int:
    v = values[lane]
    if np.ndim(v):
        return int.from_bytes(np.asarray(v, "<u4").tobytes(), "little")
    return int(v)


def _merge(into: dict, other: dict) -> None:
    for thread, clock in other.items():
        if clock > into.get(thread, 0):
            into[thread] = clock
