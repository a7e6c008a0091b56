"""The JIT's warp operations: votes (VOTE, ACTIVEMASK) and shuffles (SHFL).

A warp operation reads every lane of the warp and writes the active ones: a vote
is computed on the mask bits and splatted, a shuffle gathers each lane's source
lane through a small module-level helper (`@shfl_32`, `@shfl_64`).  MATCH has no
lowering here: its ISA row hands it to the interpreter.

Invariants: the result equals the interpreter's for every mask (each lane votes over the
active lanes of its own mask) and any shuffle width (one
outside 1..32 counts as 32, a source lane is clamped to the warp).
"""
from __future__ import annotations

from minicuda.vm.jit.lanes import LaneCode
from minicuda.vm.state import WARP


class WarpOpsLowering(LaneCode):
    """Lowerings of VOTE/ACTIVEMASK and SHFL, for FunctionCodegen."""

    # ---- the lowerings the ISA rows name ------------------------------------------------------
    def lower_vote(self, ins):
        return self.effect(lambda i, on, ob, bail: self.emit_vote(i, on, ob) or "false")

    def lower_shuffle(self, ins):
        return self.effect(lambda i, on, ob, bail: self.emit_shuffle(i, on) or "false")

    def emit_vote(self, ins, on: str, on_bits: str) -> None:
        W = self.W
        if ins.op == "ACTIVEMASK":
            self.write(ins.dsts[0], self.splat_value("i32", on_bits), on, 32)
            return
        pred = self.read(ins.srcs[0], 32)
        pbits = self.bits(self.op(f"icmp ne <{W} x i32> {pred}, zeroinitializer"))
        maskv = self.read(ins.srcs[1], 32)
        # each lane votes over the active lanes of its own mask (tiles of a warp run together)
        members = self.op(f"and <{W} x i32> {maskv}, {self.splat_value('i32', on_bits)}")
        voted = self.op(f"and i32 {pbits}, {on_bits}")
        ballot = self.op(f"and <{W} x i32> {members}, {self.splat_value('i32', voted)}")
        kind = ins.mods[0]
        if kind == "BALLOT":
            value = ballot
        elif kind == "ANY":
            value = self.op(f"zext <{W} x i1> {self.op(f'icmp ne <{W} x i32> {ballot}, zeroinitializer')} to <{W} x i32>")
        else:
            value = self.op(f"zext <{W} x i1> {self.op(f'icmp eq <{W} x i32> {ballot}, {members}')} to <{W} x i32>")
        self.write(ins.dsts[0], value, on, 32)

    def emit_shuffle(self, ins, on: str) -> None:
        W = self.W
        mode = ins.mods[0]
        bits = 64 if "64" in ins.mods else 32
        ty = f"i{bits}"
        var = self.read(ins.srcs[0], bits)
        arg = self.read(ins.srcs[1], 32)
        width = self.read(ins.srcs[2], 32)
        lanes = self.lane_ids()
        okw = self.op(f"and <{W} x i1> {self.op(f'icmp sge <{W} x i32> {width}, splat (i32 1)')}, "
                      f"{self.op(f'icmp sle <{W} x i32> {width}, splat (i32 32)')}")
        width = self.op(f"select <{W} x i1> {okw}, <{W} x i32> {width}, <{W} x i32> splat (i32 32)")
        # the interpreter computes in int64 on the 32-bit argument read as unsigned
        arg64 = self.op(f"zext <{W} x i32> {arg} to <{W} x i64>")
        w64 = self.op(f"zext <{W} x i32> {width} to <{W} x i64>")
        l64 = self.op(f"zext <{W} x i32> {lanes} to <{W} x i64>")
        base = self.op(f"mul <{W} x i64> {self.op(f'udiv <{W} x i64> {l64}, {w64}')}, {w64}")
        if mode == "IDX":
            src = self.op(f"add <{W} x i64> {base}, {self.op(f'urem <{W} x i64> {arg64}, {w64}')}")
        elif mode == "UP":
            d = self.op(f"sub <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp sge <{W} x i64> {d}, {base}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        elif mode == "DOWN":
            d = self.op(f"add <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp slt <{W} x i64> {d}, {self.op(f'add <{W} x i64> {base}, {w64}')}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        else:
            d = self.op(f"xor <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp slt <{W} x i64> {d}, {self.op(f'add <{W} x i64> {base}, {w64}')}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        lo = self.op(f"icmp slt <{W} x i64> {src}, zeroinitializer")
        src = self.op(f"select <{W} x i1> {lo}, <{W} x i64> zeroinitializer, <{W} x i64> {src}")
        hi = self.op(f"icmp sgt <{W} x i64> {src}, {self.e.splat(64, WARP - 1)}")
        src = self.op(f"select <{W} x i1> {hi}, <{W} x i64> {self.e.splat(64, WARP - 1)}, <{W} x i64> {src}")
        name = f"shfl_{bits}"
        if name not in self.helpers:
            self.helpers[name] = (
                f"define internal <{W} x {ty}> @{name}(<{W} x {ty}> %var, <{W} x i64> %src) noinline {{\n"
                f"entry:\n  br label %lane\nlane:\n"
                f"  %i = phi i32 [ 0, %entry ], [ %i1, %lane ]\n"
                f"  %out = phi <{W} x {ty}> [ poison, %entry ], [ %out1, %lane ]\n"
                f"  %s = extractelement <{W} x i64> %src, i32 %i\n"
                f"  %x = extractelement <{W} x {ty}> %var, i64 %s\n"
                f"  %out1 = insertelement <{W} x {ty}> %out, {ty} %x, i32 %i\n"
                f"  %i1 = add i32 %i, 1\n  %more = icmp ult i32 %i1, {W}\n"
                f"  br i1 %more, label %lane, label %done\ndone:\n  ret <{W} x {ty}> %out1\n}}\n")
        out = self.op(f"call <{W} x {ty}> @{name}(<{W} x {ty}> {var}, <{W} x i64> {src})")
        self.write(ins.dsts[0], out, on, bits)
