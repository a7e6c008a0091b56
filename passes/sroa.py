"""sroa: scalar replacement of aggregates, as nvcc -O3 does: a frame slot whose bytes are
only read and written whole, at fixed offsets, lives in registers instead of local memory.

The lowering keeps a struct or vector local (a float3 accumulator, a small struct, a
float4 argument of an inlined __device__ function) in a frame slot, read and written
with LDL/STL.  After inlining and the first cleanup, this pass
- forwards frame addresses held in registers: a register written once, by `MOV.64 r,
  $frame+K` (or by a constant offset from such a register, `IMAD.S64 r, 2, 4, a` or
  `IADD.S64 r, a, 8`), and read only as the address of LDG/STG/LDL/STL, makes those
  accesses LDL/STL at $frame+K (an inlined function's struct result, written through its
  sret pointer; `taps[k]` of a local array once loop-unroll has made k a constant);
- finds the slots (Function.frame_slots) whose address escapes: any other use of
  $frame+K (an address passed on, stored, indexed by a thread-varying value, given to
  printf) keeps the slot containing K in memory, as does a sub-word access (U8, S16...)
  or two accesses of one slot that overlap without being the same (offset, width);
- gives each (offset, width) access of the other slots a virtual register: `STL [$frame+K],
  v` becomes `MOV %rN, v` and `LDL d, [$frame+K]` becomes `MOV d, %rN` (guards kept),
  which copy propagation and dead code removal then fold away.
When no slot is left in memory the function's frame is 0 bytes, so --resource-usage
reports "0 bytes stack frame" as ptxas does.  It runs again after loop-unroll, as LLVM runs
SROA after its full unrolling ("delete small array after loop unroll" in PassBuilder's
function simplification pipeline): a local array read at the loop's index, `const int
taps[7]` of an unrolled filter, then lives in registers and its constants fold.  Without
slot information (a module read from text) the pass changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr, Mem, Reg, Sym
from minicuda.passes.liveness import return_names

PROMOTED_WIDTHS = {"32": (4, "r"), "64": (8, "rd")}   # a load's width modifier -> (bytes, register class)


def _width(ins: Instr) -> str:
    return ins.mods[0] if ins.mods else "32"


def _frame_offset(operand) -> int | None:
    if isinstance(operand, Mem) and isinstance(operand.base, Sym) and operand.base.name == "frame":
        return operand.base.offset + operand.offset
    return None


@dataclass(frozen=True)
class ScalarReplacement:
    """Frame slots accessed only whole and directly live in virtual registers."""
    name: ClassVar[str] = "sroa"

    def run(self, fn: Function, analyses) -> bool:
        if not fn.frame_slots or not fn.local_bytes:
            return False
        changed = _fold_block_addresses(fn)
        changed = _forward_frame_addresses(fn) or changed
        slots, slot_of = _promotable(fn)
        if not slots:
            return changed
        split = set().union(*slots.values())
        counter = _next_virtual(fn)
        registers: dict[tuple[int, str], Reg] = {}

        def register(off: int, width: str) -> Reg:
            if (off, width) not in registers:
                kind = PROMOTED_WIDTHS[width][1]
                registers[(off, width)] = Reg(f"%{kind}{counter[kind]}")
                counter[kind] += 1
            return registers[(off, width)]

        written = {off for ins in fn.instructions() if ins.op == "STL"
                   for off in [_frame_offset(ins.srcs[0])] if off is not None
                   for off in ((off, off + 4) if _width(ins) == "64" else (off,))}
        for block in fn.blocks:
            out: list[Instr] = []
            halves = _Halves()
            for ins in block.instrs:
                off = _frame_offset(ins.srcs[0]) if ins.op in ("LDL", "STL") else None
                if off is None or slot_of.get(off) not in slots:
                    out.append(ins)
                    halves.written(ins)
                    continue
                width = _width(ins)
                if width == "64" and off in split:   # its halves live in 32-bit registers
                    lo, hi = (register(o, "32") if o in written else Imm(0) for o in (off, off + 4))
                    made = halves.access(ins, off, lo, hi, lambda: register(-1 - len(registers), "64"))
                    out += made
                    continue
                r = register(off, width)
                mods = ("64",) if width == "64" else ()
                if ins.op == "STL":
                    out.append(replace(ins, op="MOV", mods=mods, dsts=(r,), srcs=(ins.srcs[1],)))
                else:
                    out.append(replace(ins, op="MOV", mods=mods, srcs=(r,)))
                halves.written(out[-1])
            block.instrs = out
        if not any(_mentions_frame(ins) for ins in fn.instructions()):
            fn.local_bytes = 0
            fn.frame_slots = []
        return True


class _Halves:
    """What a block's split 64-bit accesses leave known, so that a struct copied whole is
    not split and joined again: the 64-bit register each split slot's halves came from or
    make (`whole`), and the halves each 64-bit register was joined from (`joined`); a
    write to any register involved forgets the fact."""

    def __init__(self):
        self.whole: dict[int, tuple[Reg, object, object]] = {}   # offset -> (64-bit value, its halves)
        self.joined: dict[str, tuple[object, object]] = {}        # 64-bit register -> its halves

    def access(self, ins: Instr, off: int, lo, hi, temporary) -> list[Instr]:
        if ins.op == "STL":
            value = ins.srcs[1]
            parts = self.joined.get(value.name) if isinstance(value, Reg) else None
            if parts is not None and ins.guard is None:   # a joined value stored whole: its halves copied
                made = [replace(ins, op="MOV", mods=(), dsts=(half,), srcs=(part,)) for half, part in zip((lo, hi), parts)
                        if isinstance(half, Reg)]
            else:
                made = _split_access(ins, lo, hi, temporary)
        else:
            known = self.whole.get(off)
            if known is not None and ins.guard is None and (known[1], known[2]) == (lo, hi):
                made = [replace(ins, op="MOV", mods=("64",), srcs=(known[0],))]
            else:
                made = _split_access(ins, lo, hi, temporary)
        for m in made:
            self.written(m)
        if ins.guard is None:
            value = ins.srcs[1] if ins.op == "STL" else ins.dsts[0]
            if isinstance(value, Reg):
                self.whole[off] = (value, lo, hi)
                self.joined[value.name] = (lo, hi)
        return made

    def written(self, ins: Instr) -> None:
        names = {d.name for d in ins.dsts}
        if not names:
            return
        self.whole = {off: w for off, w in self.whole.items()
                      if not names & {getattr(x, "name", None) for x in w}}
        self.joined = {r: parts for r, parts in self.joined.items()
                       if r not in names and not names & {getattr(x, "name", None) for x in parts}}


def _split_access(ins: Instr, lo, hi, temporary) -> list[Instr]:
    """A 64-bit LDL/STL of a slot whose halves are also accessed alone, on the registers of
    its halves (a load: Imm(0) for a half never written): a store splits its value (as a GPU's
    register pair holds it), a load joins them."""
    def at(op, mods, dst, *srcs):
        return replace(ins, op=op, mods=mods, dsts=(dst,), srcs=srcs)

    if ins.op == "STL":
        wide = temporary()
        return [at("I2I", ("U32", "U64"), lo, ins.srcs[1]),
                at("SHR", ("U64",), wide, ins.srcs[1], Imm(32)),
                at("I2I", ("U32", "U64"), hi, wide)]
    low, high = temporary(), temporary()
    return [at("I2I", ("U64", "U32"), low, lo),
            at("I2I", ("U64", "U32"), high, hi),
            at("SHL", ("U64",), high, high, Imm(32)),
            at("LOP", ("OR", "U64"), ins.dsts[0], low, high)]


def _slot_of(fn: Function, offset: int) -> tuple[int, int] | None:
    for off, size in fn.frame_slots:
        if off <= offset < off + size:
            return off, size
    return None


def _promotable(fn: Function) -> tuple[dict[tuple[int, int], set[int]], dict[int, tuple[int, int] | None]]:
    """The slots every use of which is a whole LDL/STL of 32 or 64 bits at a fixed offset,
    no two of them overlapping unless equal or a 64-bit access over 32-bit ones at its halves
    (a struct's pointer field passed on as two 32-bit parameter words, a struct copied in
    8-byte pieces), each with the offsets of its 64-bit accesses so overlapped; and the
    slot of each offset accessed."""
    slot_of: dict[int, tuple[int, int] | None] = {}
    kept: set[tuple[int, int] | None] = set()
    accesses: dict[tuple[int, int], set[tuple[int, str]]] = {}
    for ins in fn.instructions():
        off = _frame_offset(ins.srcs[0]) if ins.op in ("LDL", "STL") and ins.srcs else None
        if off is not None:
            slot = _slot_of(fn, off)
            slot_of[off] = slot
            width = _width(ins)
            if slot is None or width not in PROMOTED_WIDTHS or off + PROMOTED_WIDTHS[width][0] > slot[0] + slot[1]:
                kept.add(slot)
            else:
                accesses.setdefault(slot, set()).add((off, width))
            rest = ins.srcs[1:]
        else:
            rest = ins.srcs
        for o in list(ins.dsts) + list(rest):
            escaped = _escaped_offset(o)
            if escaped is not None:
                kept.add(_slot_of(fn, escaped))
    if None in kept:
        return set(), slot_of   # an access outside every known slot: nothing is sure
    promoted = {}
    for slot, seen in accesses.items():
        split = _split_offsets(seen)
        if slot not in kept and split is not None:
            promoted[slot] = split
    return promoted, slot_of


def _split_offsets(seen: set[tuple[int, str]]) -> set[int] | None:
    """The offsets of the 64-bit accesses that 32-bit ones overlap (at their halves); None
    when accesses overlap any other way."""
    wide = {off for off, w in seen if w == "64"}
    narrow = {off for off, w in seen if w == "32"}
    split = {off for off in wide if off in narrow or off + 4 in narrow}
    if any(off + 4 in wide or off - 4 in wide or off % 4 for off in split):
        return None
    rest = {(off, w) for off, w in seen if not (w == "64" and off in split) and not (w == "32" and (
        off in split or off - 4 in split))}
    return split if _disjoint(rest) else None


def _escaped_offset(operand) -> int | None:
    if isinstance(operand, Sym) and operand.name == "frame":
        return operand.offset
    if isinstance(operand, Mem):
        return _escaped_offset(operand.base)
    return None


def _disjoint(seen: set[tuple[int, str]]) -> bool:
    ranges = sorted((off, off + PROMOTED_WIDTHS[w][0]) for off, w in seen)
    return all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:]))


def _mentions_frame(ins: Instr) -> bool:
    return any(_escaped_offset(o) is not None for o in list(ins.srcs) + list(ins.dsts))


def _fold_block_addresses(fn: Function) -> bool:
    """Within each block, an access through a register that holds $frame+K at that point
    (loop-unroll's copies write one register again and again, so it is not written once)
    reads [$frame+K]; the address registers nothing reads any more are then removed."""
    changed = False
    for block in fn.blocks:
        known: dict[str, int] = {}
        for i, ins in enumerate(block.instrs):
            mem = ins.srcs[0] if ins.op in ("LDG", "STG", "LDL", "STL") and ins.srcs else None
            if isinstance(mem, Mem) and isinstance(mem.base, Reg) and mem.base.name in known:
                mods = tuple(m for m in ins.mods if m != "CONSTANT")
                block.instrs[i] = replace(ins, op="LDL" if ins.op in ("LDG", "LDL") else "STL", mods=mods,
                                          srcs=(Mem(Sym("frame", known[mem.base.name]), mem.offset),) + ins.srcs[1:])
                changed = True
            for d in ins.dsts:
                known.pop(d.name, None)
            derived = _address_source(ins)
            if ins.op == "MOV" and ins.guard is None and isinstance(ins.srcs[0], Sym) and ins.srcs[0].name == "frame" \
                    and ins.dsts[0].name.startswith("%rd"):
                known[ins.dsts[0].name] = ins.srcs[0].offset
            elif derived is not None and derived[0].name in known:
                known[ins.dsts[0].name] = known[derived[0].name] + derived[1]
    while changed:   # the address registers left unread
        read = {r.name for ins in fn.instructions() for r in _registers_read(ins)} | set(return_names(fn))
        removed = False
        for block in fn.blocks:
            kept = [ins for ins in block.instrs if not (_makes_address(ins) and ins.dsts[0].name not in read)]
            removed = removed or len(kept) != len(block.instrs)
            block.instrs = kept
        if not removed:
            break
    return changed


def _makes_address(ins: Instr) -> bool:
    if ins.op == "MOV" and ins.srcs and isinstance(ins.srcs[0], Sym) and ins.srcs[0].name == "frame":
        return True
    return _address_source(ins) is not None and ins.dsts[0].name.startswith("%rd")


def _registers_read(ins: Instr):
    for o in ins.srcs:
        if isinstance(o, Reg):
            yield o
        elif isinstance(o, Mem) and isinstance(o.base, Reg):
            yield o.base
    if ins.guard is not None:
        yield ins.guard


def _forward_frame_addresses(fn: Function) -> bool:
    """LDG/STG through a register written once with `MOV.64 r, $frame+K` become LDL/STL."""
    defs: dict[str, list[Instr]] = {}
    for ins in fn.instructions():
        for d in ins.dsts:
            defs.setdefault(d.name, []).append(ins)
    addresses: dict[str, int] = {}
    grew = True
    while grew:   # $frame+K, or a register that holds it plus a constant
        grew = False
        for name, written in defs.items():
            ins = written[0]
            if name in addresses or len(written) != 1 or ins.guard is not None:
                continue
            src = ins.srcs[0] if ins.op == "MOV" else None
            derived = _address_source(ins)
            if isinstance(src, Sym) and src.name == "frame" and name.startswith("%rd"):
                addresses[name] = src.offset
            elif derived is not None and derived[0].name in addresses:
                addresses[name] = addresses[derived[0].name] + derived[1]
            else:
                continue
            grew = True
    while True:   # an address read any other way keeps its register, and the registers it was copied from
        escaped = _escaped_addresses(fn, addresses, defs)
        if not escaped:
            break
        for name in escaped:
            addresses.pop(name)
    if not addresses:
        return False
    for block in fn.blocks:   # the MOVs that made the addresses: nothing reads them now
        block.instrs = [ins for ins in block.instrs
                        if not ((ins.op == "MOV" or _address_source(ins)) and ins.dsts[0].name in addresses)]
        for i, ins in enumerate(block.instrs):
            if ins.op not in ("LDG", "STG", "LDL", "STL") or not isinstance(ins.srcs[0], Mem):
                continue
            base = ins.srcs[0].base
            if isinstance(base, Reg) and base.name in addresses:
                mem = Mem(Sym("frame", addresses[base.name]), ins.srcs[0].offset)
                mods = tuple(m for m in ins.mods if m != "CONSTANT")
                block.instrs[i] = replace(ins, op="LDL" if ins.op == "LDG" else "STL", mods=mods,
                                          srcs=(mem,) + ins.srcs[1:])
    return True


def _escaped_addresses(fn: Function, addresses: dict[str, int], defs) -> set[str]:
    """The address registers read other than as the address of an LDG/STG or the source
    of a copy that is itself an address register."""
    escaped = {name for name in return_names(fn) if name in addresses}   # a returned address (a reference)
    for ins in fn.instructions():
        mem = ins.srcs[0] if ins.op in ("LDG", "STG", "LDL", "STL") and ins.srcs else None
        copy = bool(ins.dsts) and ins.dsts[0].name in addresses
        for o in ins.srcs:
            if isinstance(o, Reg) and o.name in addresses and not copy:
                escaped.add(o.name)
            if isinstance(o, Mem) and isinstance(o.base, Reg) and o.base.name in addresses and o is not mem:
                escaped.add(o.base.name)
        if ins.guard is not None and ins.guard.name in addresses:
            escaped.add(ins.guard.name)
    for name in list(escaped):   # a copy (or an offset) escapes: so does what it was made from
        src = _address_source(defs[name][0])
        while src is not None and src[0].name in addresses:
            escaped.add(src[0].name)
            src = _address_source(defs[src[0].name][0])
    return escaped


def _address_source(ins: Instr) -> tuple[Reg, int] | None:
    """(register, constant added) when ins computes a 64-bit register plus a constant:
    `MOV r, a`, `IADD.S64 r, a, C` or `IMAD.S64 r, C1, C2, a` (the address of a[C1])."""
    if not ins.dsts or ins.guard is not None:
        return None
    srcs = ins.srcs
    if ins.op == "MOV" and len(srcs) == 1 and isinstance(srcs[0], Reg):
        return srcs[0], 0
    if ins.mods[:1] not in (("S64",), ("U64",)):
        return None
    if ins.op == "IADD" and len(srcs) == 2 and isinstance(srcs[0], Reg) and isinstance(srcs[1], Imm):
        return srcs[0], int(srcs[1].value)
    if ins.op == "IMAD" and len(srcs) == 3 and all(isinstance(o, Imm) for o in srcs[:2]) \
            and isinstance(srcs[2], Reg):
        return srcs[2], int(srcs[0].value) * int(srcs[1].value)
    return None


def _next_virtual(fn: Function) -> dict[str, int]:
    """The first unused number of each virtual register class."""
    top = {"r": 0, "rd": 0}
    for ins in fn.instructions():
        for o in list(ins.dsts) + list(ins.srcs):
            regs = [o] if isinstance(o, Reg) else [o.base] if isinstance(o, Mem) and isinstance(o.base, Reg) else []
            for r in regs:
                for kind in ("rd", "r"):
                    digits = r.name[len(kind) + 1:]
                    if r.name.startswith("%" + kind) and digits.isdigit():
                        top[kind] = max(top[kind], int(digits) + 1)
                        break
    for p in fn.params:
        for kind in ("rd", "r"):
            digits = p.reg.name[len(kind) + 1:]
            if p.reg.name.startswith("%" + kind) and digits.isdigit():
                top[kind] = max(top[kind], int(digits) + 1)
                break
    return top
