"""The register rows host code still needs at each pc: what native code writes back when it leaves.

Host code keeps its registers in SSA values (lanes.py) and writes them back to the state
wherever it leaves native code: at a bail, where the interpreter or the call stack goes on
from that pc, and at the end, where the caller reads the return registers.  A row no path
from there reads before writing it holds nothing anyone will read, so it need not be
written back; and a value that is not written back need not stay alive, in a register or
spilled, along the paths that may leave: the halves of an address computed in a loop's
body die where the body last reads them, instead of living across its back edge.

`live_rows(code)` is a backward fixed point over the flattened code (vm/code.py), by row
(register rows as they are, predicate rows at `PRED_BASE + n`), as bit sets.  It may say
a row is live when it is not, never the opposite:

- an instruction reads each row its operands may span: a pure instruction's sources at
  the widths it reads them (minicuda/semantics.py), an address base as 64 bits, a store's
  value at its access's width, any other register operand as a quad (a 128-bit access),
  the guard, and RET and EXIT the return registers;
- only an unguarded pure instruction, load or S2R ends a row's life (its one result, at its
  width: what both engines write); a call or anything else kills nothing;
- a branch goes to its label and, guarded, on; EXIT, RET and TRAP go nowhere (guarded, on);
  the pc past the end reads the return registers.
"""
from __future__ import annotations

from minicuda import semantics
from minicuda.ir import Mem, Reg
from minicuda.isa import OPS
from minicuda.vm.code import PRED_BASE, Code
from minicuda.vm.memory import WIDTH_BYTES

ENDS = ("EXIT", "RET", "TRAP")


def live_rows(code: Code) -> list[frozenset[int]]:
    """Per pc (and one past the end): the rows live on entry to it, as slots."""
    reads, kills = zip(*(_effect(code, ins) for ins in code.instrs)) if code.instrs else ((), ())
    exit_bits = _ret_bits(code)
    succ = [_successors(code, pc) for pc in range(code.end)]
    live = [0] * code.end + [exit_bits]
    changed = True
    while changed:   # reverse sweeps: a loop's back edge settles in a sweep or two
        changed = False
        for pc in range(code.end - 1, -1, -1):
            out = 0
            for s in succ[pc]:
                out |= live[s]
            new = reads[pc] | (out & ~kills[pc])
            if new != live[pc]:
                live[pc] = new
                changed = True
    return [frozenset(_slots(bits, code.rows)) for bits in live]


def _bit(code: Code, slot: int) -> int:
    """A slot's bit: register rows first, predicate rows after them."""
    return 1 << (slot - PRED_BASE + code.rows if slot >= PRED_BASE else slot)


def _slots(bits: int, rows: int):
    k = 0
    while bits:
        if bits & 1:
            yield k if k < rows else k - rows + PRED_BASE
        bits >>= 1
        k += 1


def _reg_bits(code: Code, r: Reg, width: int) -> int:
    """The rows `width` bits of r span (a predicate: its row; RZ and PT: none)."""
    if r.name in ("RZ", "PT"):
        return 0
    s = code.slot(r)
    if s >= PRED_BASE:
        return _bit(code, s)
    bits = 0
    for row in range(s, min(s + max(width // 32, 1), code.rows)):
        bits |= 1 << row
    return bits


def _effect(code: Code, ins) -> tuple[int, int]:
    """(the rows ins may read, the rows it surely writes) as bits."""
    read = _reg_bits(code, ins.guard, 1) if ins.guard is not None else 0
    widths = _pure_widths(ins) or _access_widths(ins)
    for k, s in enumerate(ins.srcs):
        if isinstance(s, Reg):
            read |= _reg_bits(code, s, widths[k] if widths is not None and k < len(widths) else 128)
        elif isinstance(s, Mem) and isinstance(s.base, Reg):
            read |= _reg_bits(code, s.base, 64)
    if ins.op in ("RET", "EXIT"):
        read |= _ret_bits(code)
    kill = 0
    if widths is not None and ins.guard is None and ins.dsts:
        kill = _reg_bits(code, ins.dsts[0], widths[-1] if OPS[ins.op].jit == "load" else semantics.result_width(ins))
    elif ins.op == "S2R" and ins.guard is None:   # a special register's 32 bits, in both engines
        kill = _reg_bits(code, ins.dsts[0], 32)
    return read, kill


def _access_widths(ins) -> list[int] | None:
    """A load's or a store's operand widths: the address (64 bits), then a store's value, and
    last what a load writes (a sub-word value extended to a row, a quad's four rows)."""
    kind = OPS[ins.op].jit
    size = WIDTH_BYTES.get(ins.mods[0] if ins.mods else "32")
    if kind not in ("load", "store") or size is None:
        return None
    return [64, max(size, 4) * 8]


def _pure_widths(ins) -> list[int] | None:
    """A pure instruction's source widths (None for any other)."""
    if not OPS[ins.op].eval:
        return None
    try:
        return semantics.source_widths(ins)
    except semantics.UnsupportedOp:   # (a form the evaluators do not know: read and kill as any other)
        return None


def _ret_bits(code: Code) -> int:
    bits = 0
    for r in code.fn.rets:
        bits |= _reg_bits(code, r, 64)
    return bits


def _successors(code: Code, pc: int) -> list[int]:
    ins = code.instrs[pc]
    nxt = [pc + 1]
    if ins.op == "BRA":
        target = [code.label_pc[ins.target]]
        return target if ins.guard is None else target + nxt
    if ins.op in ENDS:
        return [] if ins.guard is None else nxt
    return nxt


# warp ops that read other lanes' registers (a lane that never wrote the row, or has exited, included)
_CROSS_LANE = ("SHFL",)


def block_start_rows(code: Code) -> list[int] | None:
    """The register rows a kernel's block must start with from the launch's template (its
    parameters and whatever else some thread may read before writing), or None when every
    row must: the block loop (block_loop.py) copies only these, and the rest keep what the
    worker's previous block left in them, which no thread reads.

    None when the code has a loop (a warp's state is compared whole over time to find one
    that spins: vm/cycles.py), a warp op reading other lanes' rows (a lane that has exited
    or never wrote the row), or a call of a user function (its frame is another state)."""
    for pc, ins in enumerate(code.instrs):
        if ins.op in _CROSS_LANE or (ins.op == "CALL" and "RT" not in ins.mods):
            return None
        if any(s <= pc for s in _successors(code, pc)):
            return None
    entry = live_rows(code)[0] if code.instrs else frozenset()
    return sorted(s for s in entry if s < PRED_BASE)
