"""fuse-address: address arithmetic in the forms SASS gives it.

Within a block, as ptxas selects instructions:

- a 32-bit index widened to 64 bits and scaled into an address, `I2I.S64.U32 w, i`
  then `IMAD.S64 a, w, 4, p`, is one `IMAD.WIDE.U32 a, i, 4, p` (the widening
  happens inside the multiply: `semantics.is_wide_multiply`);
- an access through a register that holds a symbol's address (`MOV.64 r, $s`) reads
  the symbol directly, `LDS [$s+8]`;
- an access through a register that holds another register plus a constant
  (`IADD.S64 r, b, 16`) takes the constant as its offset, `LDG [b+0x10]`;
- a shared-memory access (LDS, STS, ATOMS) to `&s[i]`, i unsigned, uses SASS's
  32-bit shared address: `IMAD.U32 a, i, 4, $s` (a symbol read at 32 bits is its
  offset in the shared window) and `LDS [a.U32]` (minicuda.ir.Mem.window);
- a 32-bit shared address of `&s[x + y]` where the block already holds that of
  `&s[x]` is formed from it, `IMAD.U32 b, y, 4, a` (ptxas's LEA): exact, as 32-bit
  shared addresses wrap at 2^32 as the index does.

The instructions that formed the address stay where something else reads them
(dce removes the rest).  Only unguarded definitions are fused, and only where
neither the defined register nor what it was computed from is written between the
definition and the use, so every rewritten instruction computes the same value.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import SHARED_ACCESSES, Block, Function, Imm, Instr, Mem, Reg, Sym
from minicuda.passes.rewrite import FreshRegisters

_WIDENINGS = {("S64", "U32"): "U32", ("U64", "U32"): "U32", ("S64", "S32"): "S32", ("U64", "S32"): "S32"}
_INT64 = (("S64",), ("U64",), ("64",))
_OFFSET_LIMIT = 1 << 23   # SASS's signed 24-bit immediate offset


@dataclass(frozen=True)
class FuseAddress:
    name: str = "fuse-address"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        fresh = FreshRegisters(fn)
        for block in fn.blocks:
            changed |= _fuse_block(block)
            changed |= _shared_windows(block, fresh)
            changed |= _fuse_block(block)
        return changed


def _fuse_block(block: Block) -> bool:
    changed = False
    defs: dict[Reg, int] = {}          # register -> index of its latest definition in the block
    for i, ins in enumerate(block.instrs):
        fused = _wide_multiply(block.instrs, defs, i, ins) or _reassociated(block.instrs, defs, i, ins) \
            or _fold_addresses(block.instrs, defs, i, ins)
        if fused is not None:
            block.instrs[i] = ins = fused
            changed = True
        for d in ins.dsts:
            defs[d] = i
    return changed


def _definition(instrs: list[Instr], defs: dict[Reg, int], reg, at: int) -> Instr | None:
    """The unguarded instruction of this block that last wrote `reg` before `at`, when
    none of the registers it read has been written again since."""
    if not isinstance(reg, Reg) or reg not in defs:
        return None
    k = defs[reg]
    ins = instrs[k]
    if ins.guard is not None or len(ins.dsts) != 1:
        return None
    read = set(ins.uses())
    if any(read & set(later.dsts) for later in instrs[k + 1:at]):
        return None
    return ins


def _wide_multiply(instrs, defs, i: int, ins: Instr) -> Instr | None:
    """IMAD.S64 a, w, C, p with w = I2I.S64.U32 i: IMAD.WIDE.U32 a, i, C, p."""
    if ins.op != "IMAD" or ins.guard is not None or ins.mods not in _INT64:
        return None
    for k in (0, 1):
        widened, scale = ins.srcs[k], ins.srcs[1 - k]
        if not (isinstance(scale, Imm) and isinstance(scale.value, int) and 0 <= scale.value < 1 << 31):
            continue
        source = _definition(instrs, defs, widened, i)
        if source is None or source.op != "I2I" or tuple(source.mods) not in _WIDENINGS:
            continue
        narrow = source.srcs[0]
        if not isinstance(narrow, Reg):
            continue
        kind = _WIDENINGS[tuple(source.mods)]
        return replace(ins, mods=("WIDE", kind), srcs=(narrow, scale, ins.srcs[2]))
    return None


def _reassociated(instrs, defs, i: int, ins: Instr) -> Instr | None:
    """IMAD.U32 b, j, C, S with j = IADD.U32 x, y and an IMAD.U32 a, x, C, S earlier in
    the block (a, x, y, S unchanged since): IMAD.U32 b, y, C, a."""
    if ins.op != "IMAD" or ins.mods != ("U32",) or ins.guard is not None or not isinstance(ins.srcs[1], Imm):
        return None
    total = _definition(instrs, defs, ins.srcs[0], i)
    if total is None or total.op != "IADD" or total.mods != ("U32",) \
            or not all(isinstance(x, Reg) for x in total.srcs):
        return None
    for x, y in (total.srcs, total.srcs[::-1]):
        for k in range(i - 1, -1, -1):
            earlier = instrs[k]
            if earlier.op == "IMAD" and earlier.mods == ("U32",) and earlier.guard is None \
                    and earlier.srcs == (x, ins.srcs[1], ins.srcs[2]) and defs.get(earlier.dsts[0]) == k \
                    and not any({x, y} & set(later.dsts) for later in instrs[k + 1:i]):
                return replace(ins, srcs=(y, ins.srcs[1], earlier.dsts[0]))
    return None


def _shared_windows(block: Block, fresh: FreshRegisters) -> bool:
    """Give each shared-memory access through an unsigned index's IMAD.WIDE.U32 of a
    shared symbol's address a 32-bit shared address computed beside it."""
    defs: dict[Reg, int] = {}
    out: list[Instr] = []
    window_of: dict[int, Reg] = {}    # index in `out` of an IMAD.WIDE -> its 32-bit twin
    changed = False
    for ins in block.instrs:
        if ins.op in SHARED_ACCESSES and isinstance(ins.srcs[0], Mem) and not ins.srcs[0].window:
            mem = ins.srcs[0]
            wide = _definition(out, defs, mem.base, len(out))
            symbol = _shared_symbol(out, defs, wide, len(out))
            if symbol is not None:
                at = defs[mem.base]
                if at not in window_of:
                    narrow = fresh.new("r")
                    out.insert(at + 1, Instr("IMAD", ("U32",), (narrow,), (wide.srcs[0], wide.srcs[1], symbol),
                                             loc=wide.loc))
                    defs = {r: (k + 1 if k > at else k) for r, k in defs.items()}
                    defs[narrow] = at + 1
                    window_of = {(k + 1 if k > at else k): r for k, r in window_of.items()}
                    window_of[at] = narrow
                ins = replace(ins, srcs=(Mem(window_of[at], mem.offset, True),) + ins.srcs[1:])
                changed = True
        out.append(ins)
        for d in ins.dsts:
            defs[d] = len(out) - 1
    block.instrs = out
    return changed


def _shared_symbol(instrs, defs, wide: Instr | None, at: int) -> Sym | None:
    """The shared symbol whose address `wide` (IMAD.WIDE.U32 a, i, C, B) scales i into."""
    if wide is None or wide.op != "IMAD" or wide.mods != ("WIDE", "U32") or not isinstance(wide.srcs[0], Reg):
        return None
    base = wide.srcs[2]
    if isinstance(base, Reg):
        source = _definition(instrs, defs, base, at)
        base = source.srcs[0] if source is not None and source.op == "MOV" and len(source.srcs) == 1 else None
    return base if isinstance(base, Sym) and base.name != "frame" else None


def _fold_addresses(instrs, defs, i: int, ins: Instr) -> Instr | None:
    if ins.info.kind not in ("mem", "atomic"):
        return None
    srcs = list(ins.srcs)
    for k, s in enumerate(srcs):
        if isinstance(s, Mem):
            srcs[k] = _folded(instrs, defs, i, s)
    return replace(ins, srcs=tuple(srcs)) if srcs != list(ins.srcs) else None


def _folded(instrs, defs, i: int, mem: Mem) -> Mem:
    source = _definition(instrs, defs, mem.base, i)
    if source is None or mem.window:   # a 32-bit shared address keeps its register
        return mem
    if source.op == "MOV" and len(source.srcs) == 1 and isinstance(source.srcs[0], Sym):
        return Mem(source.srcs[0], mem.offset)
    if source.op == "IADD" and source.mods in _INT64 and isinstance(source.srcs[0], Reg) \
            and isinstance(source.srcs[1], Imm) and isinstance(source.srcs[1].value, int):
        offset = mem.offset + source.srcs[1].value
        if -_OFFSET_LIMIT <= offset < _OFFSET_LIMIT and source.srcs[0].name not in ("RZ",):
            return Mem(source.srcs[0], offset)
    return mem
