"""Memory-level parallelism of a warp, for the timing model (docs/timing.md): how many round
trips to memory its loads take, counted as it runs (with the timing model; on the JIT:
vm/jit/rounds.py).

A warp issues in order, and ptxas schedules a loop's independent loads early (it unrolls the
loop and issues the next iterations' loads before the first use: on an H100, sumCols of
tests/fidelity/unseen/more/rowcol.cu keeps 21 loads in flight), so loads overlap until the warp
reaches an instruction no compiler can move above them: a load whose address, a store whose
address or value, or a branch whose predicate comes from a load still in flight, or a barrier.
The loads between two such points are one *epoch*; they are in flight together, at most
`loads_in_flight` at a time, so an epoch of n loads takes ceil(n / loads_in_flight) round trips.
A dependent chain (`i = next[i]`) is one round trip a load; a summing loop over independent
addresses, n / loads_in_flight.  A warp that exits with global stores since its last wait
waits one more round trip for them (ncu's `drain` stall) before its slot is free; a guarded
EXIT that no thread takes (the skip of an unrolled loop's remainder) is not an exit.

The same pass counts the warp's dependent arithmetic: the longest chain of arithmetic
instructions each waiting for the one before (`alu_chain`, in steps of the ALU's latency; an
fp64 instruction takes two, a MOV none: the compiler renames a copy away).  A loop's counter
and its sum are two chains side by side; their steps are the loop's, not its instructions'.
A barrier, or a wait for a load, starts the chains again from the longest so far.

Two kinds of loads are counted apart: global and local loads (atomics too), whose round trip is the
L2's or DRAM's latency, and shared loads, whose round trip is the shared latency.  A register
is pending for a kind while it holds a value computed from a load of that kind in the current
epoch.

The JIT keeps the same state per warp in the block state's `rounds` words (`state_words`:
HEAD words, then per register name its pending epoch plus one for each kind, 0 when not
pending, and the chain step its value is ready at), and steps it in native code
(vm/jit/rounds.py); where it hands an instruction to the interpreter, `from_words` and
`to_words` carry the state across, so both engines count the same.
"""
from __future__ import annotations

from minicuda.ir import Reg
from minicuda.vm.timing_model import instruction_class

KINDS = {"LDG": "global", "LDL": "global", "ATOM": "global", "LDS": "shared", "ATOMS": "shared"}
FIELDS = {"global": "global_ld_rounds", "shared": "shared_ld_rounds"}
# an instruction class's ALU latencies on the chain: an integer division or remainder is
# nvcc's sequence (a reciprocal on the SFU, multiplies and corrections: some ten steps)
STEPS = {"fp32": 1, "int": 1, "other": 1, "fp64": 2, "idiv": 10}
STORES = {"STG", "STL", "STS"}
# the state words' head: each kind's epoch and loads, the chains' floor and depth, a store since the last wait
E_GLOBAL, E_SHARED, N_GLOBAL, N_SHARED, FLOOR, DEPTH, STORED = range(7)
HEAD = 8


class LoadRounds:
    """One warp's epochs (per kind: the epoch's number, its loads so far, the registers pending)."""
    __slots__ = ("epoch", "loads", "pending", "ready", "floor", "depth", "stored")

    def __init__(self):
        self.epoch = {kind: 0 for kind in FIELDS}
        self.loads = {kind: 0 for kind in FIELDS}
        self.pending = {kind: {} for kind in FIELDS}
        self.ready: dict[str, int] = {}   # register -> the chain step its value is ready at
        self.floor = self.depth = 0
        self.stored = False   # a global store issued since the last wait

    def step(self, code, pc: int, metrics, limit: int, exits: bool = True) -> None:
        """Account instruction `pc` of `code` (issued by this warp) to `metrics`' round trips."""
        ins = code.instrs[pc]
        uses, dsts = operand_names(code)[pc]
        load = KINDS.get(ins.op)
        barrier = ins.op.startswith("BAR")
        waits = barrier or load is not None or ins.op in STORES or ins.op == "BRA"
        for kind, pending in self.pending.items():
            epoch = self.epoch[kind]
            blocked = any(pending.get(r) == epoch for r in uses)
            if blocked and waits or barrier:
                self.epoch[kind] = epoch = epoch + 1
                self.loads[kind] = 0
                blocked = False
                self.floor = self.depth
                if kind == "global":
                    self.stored = False
            if load == kind:
                if self.loads[kind] % limit == 0:
                    metrics.add_count(FIELDS[kind], 1)
                self.loads[kind] += 1
                blocked = True
            for r in dsts:
                if blocked:
                    pending[r] = epoch
                else:
                    pending.pop(r, None)
        if ins.op in ("STG", "STL", "ATOM"):
            self.stored = True
        elif ins.op == "EXIT" and self.stored and exits:
            # ncu's `drain`: an exited warp waits for its stores (a guarded EXIT no thread
            # takes, `exits` false, is not an exit: a loop's remainder runs on after it)
            metrics.add_count("global_ld_rounds", 1)
            self.stored = False
        self.chain(ins.op, uses, dsts, metrics)

    def chain(self, op: str, uses: tuple, dsts: tuple, metrics) -> None:
        """Extend the dependent arithmetic chains by instruction `op`."""
        ready = self.ready
        start = max([self.floor] + [ready.get(r, 0) for r in uses])
        steps = 0 if op == "MOV" or op in KINDS else STEPS.get(instruction_class(op))
        if steps is None:   # a store, branch, barrier, SFU op (timed on its own): no chain through it
            return
        for r in dsts:
            ready[r] = start + steps
        if start + steps > self.depth:
            metrics.add_count("alu_chain", start + steps - self.depth)
            self.depth = start + steps


def operand_names(code) -> list[tuple[tuple, tuple]]:
    """Per pc of `code` (vm/code.py's Code): the names of the registers the instruction reads
    (an address's base included) and writes; made once per Code and kept on it."""
    names = getattr(code, "operand_names", None)
    if names is None:
        names = code.operand_names = [(tuple(r.name for r in ins.uses()),
                                       tuple(d.name for d in ins.dsts if isinstance(d, Reg))) for ins in code.instrs]
    return names


def register_names(code) -> list[str]:
    """The register names the instructions of `code` read or write, in a fixed order: the
    JIT's state words keep one of each per name."""
    names = getattr(code, "register_names", None)
    if names is None:
        names = code.register_names = sorted({n for uses, dsts in operand_names(code) for n in uses + dsts})
    return names


def state_words(code) -> int:
    """A warp's words of round-trip state for `code` on the JIT."""
    return HEAD + 3 * len(register_names(code))


def from_words(words, code) -> LoadRounds:
    """The LoadRounds a warp's state words (vm/state.py's `rounds`) hold."""
    names, n = register_names(code), len(register_names(code))
    r = LoadRounds()
    r.epoch = {"global": int(words[E_GLOBAL]), "shared": int(words[E_SHARED])}
    r.loads = {"global": int(words[N_GLOBAL]), "shared": int(words[N_SHARED])}
    r.floor, r.depth, r.stored = int(words[FLOOR]), int(words[DEPTH]), bool(words[STORED])
    for k, kind in enumerate(FIELDS):
        part = words[HEAD + k * n:HEAD + (k + 1) * n]
        r.pending[kind] = {names[i]: int(part[i]) - 1 for i in part.nonzero()[0]}
    ready = words[HEAD + 2 * n:HEAD + 3 * n]
    r.ready = {names[i]: int(ready[i]) for i in ready.nonzero()[0]}
    return r


def to_words(r: LoadRounds, words, code) -> None:
    """Write `r` into a warp's state words."""
    names = register_names(code)
    n, index = len(names), {name: i for i, name in enumerate(names)}
    words[:] = 0
    words[E_GLOBAL], words[E_SHARED] = r.epoch["global"], r.epoch["shared"]
    words[N_GLOBAL], words[N_SHARED] = r.loads["global"], r.loads["shared"]
    words[FLOOR], words[DEPTH], words[STORED] = r.floor, r.depth, int(r.stored)
    for k, kind in enumerate(FIELDS):
        for name, epoch in r.pending[kind].items():
            words[HEAD + k * n + index[name]] = epoch + 1
    for name, step in r.ready.items():
        words[HEAD + 2 * n + index[name]] = step
