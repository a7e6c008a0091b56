"""Native calls between host functions: a host leaf function called as an LLVM call.

A CALL of a user function otherwise leaves native code: the call stack
(vm/callstack.py) gives the callee a frame and a state of its own and runs it, a
round trip through Python that costs microseconds.  A callee that can have no
effect on the program but its return value (a *native callee*) is instead
compiled into its caller's module and called there:

- a host function called by name, with no struct parameter and no frame of its own
  (no local array, no address-taken local: `local_bytes == 0`), returning at most one
  register;
- whose every instruction is a pure instruction, a load, a branch, a return, a trap or
  a no-op: no store, atomic, call (runtime or user), launch, symbol or special register.

The callee runs on a state of its own in the caller's stack frame (allocas made at the
caller's entry), started as vm/callstack.py starts a host frame (`start_warp`: one
stack entry (0, lane 0, end), depth 1), with the caller's arguments in its parameter
registers and the caller's step count: its native code is the same as when the call
stack runs it, so it counts the same instructions against the same budget.  When it
returns, its return register goes to the CALL's destination and the caller goes on.

Invariant: whatever the callee cannot finish natively (a division by zero, a load out
of bounds, the budget or the stop flag, a frame that would overflow the stack) has had
no effect yet, since the callee writes nothing but its own state.  So the caller hands
the CALL itself to the engine with its step count as it was before the CALL, and the
call stack runs the call from its start as it always did: the fault, the budget report
and the stack overflow are reported by the same code, word for word.

The stack the call takes is checked against `STACK_ROOM`, the bytes the caller's
frame leaves of the thread's stack, which the engine writes for each run of a frame
(0 where it does not know: then every such CALL goes to the call stack).
"""
from __future__ import annotations

from minicuda.ir import Mem, Reg, Special, Sym
from minicuda.isa import OPS
from minicuda.vm.callstack import frame_bytes
from minicuda.vm.jit import layout as L
from minicuda.vm.jit.lanes import LaneCode
from minicuda.vm.state import CHECK, DEPTH, SAMPLED, SECTIONS, WARP, Layout

LEAF_LOWERINGS = frozenset({"pure", "load", "branch", "exit", "nothing", "trap"})
MAX_CALLEE_INSTRS = 400   # a larger leaf is left to the call stack (its text would grow each caller's module)


def native_callees(interp, code) -> dict:
    """The native callees of `code`'s CALLs, by name (kept on the Code, made once)."""
    found = getattr(code, "host_callees", None)
    if found is None:
        found = {}
        for ins in code.instrs:
            name = called_name(ins)
            if name is not None and name not in found and name in interp.module.functions:
                callee = interp.code(name)
                if is_native_callee(callee):
                    found[name] = callee
        code.host_callees = found
    return found


def called_name(ins) -> str | None:
    """The function an unguarded CALL of a user function names (None for anything else)."""
    if ins.op != "CALL" or "RT" in ins.mods or ins.guard is not None or not isinstance(ins.srcs[0], Sym):
        return None
    return ins.srcs[0].name


def is_native_callee(code) -> bool:
    fn = code.fn
    if fn.kind != "host" or fn.local_bytes or fn.shared_bytes or len(fn.rets) > 1 or len(code.instrs) > MAX_CALLEE_INSTRS:
        return False
    if any(p.kind == "struct" for p in fn.params):
        return False
    if fn.rets and not (isinstance(fn.rets[0], Reg) and not fn.rets[0].is_pred):
        return False
    for ins in code.instrs:
        if OPS[ins.op].jit not in LEAF_LOWERINGS or ins.op == "S2R":
            return False
        for o in ins.srcs:
            base = o.base if isinstance(o, Mem) else o
            if isinstance(base, (Sym, Special)):
                return False
    return True


class HostCallLowering(LaneCode):
    """The host thread's CALL of a native callee, for FunctionCodegen."""

    def lower_user_call(self, ins):
        name = called_name(ins)
        callees = getattr(self.code, "host_callees", None) or {}
        if name not in callees or self.W != 1 or self.kernel:
            return None
        callee = callees[name]
        index = list(callees).index(name)
        if name not in self.callee_rows:   # (its module is added to the caller's: module.py)
            self.callee_rows[name] = (index, Layout(callee.rows, callee.npreds, 1), callee)
        return self.effect(lambda i, on, ob, bail: self.emit_user_call(i, callee, name, bail))

    def callee_locals(self) -> list[str]:
        """Entry-block lines: each native callee's state, counters and context (a copy of the
        caller's with the state's sections and the counters pointed at the callee's own)."""
        out = []
        for k, lay, _ in self.callee_rows.values():
            out += [f"  %cs{k} = alloca [{lay.size} x i8], align 64",
                    f"  %ccnt{k} = alloca [{L.NCOUNTERS} x i64], align 8",
                    f"  %cctx{k} = alloca [{L.NFIELDS} x i64], align 8",
                    f"  call void @llvm.memcpy.p0.p0.i64(ptr %cctx{k}, ptr %ctx, i64 {L.NFIELDS * 8}, i1 false)"]
            for section, _ in SECTIONS:
                out += [f"  %cs{k}.{section} = getelementptr i8, ptr %cs{k}, i64 {lay.offset[section]}",
                        f"  %cctx{k}.{section} = getelementptr i64, ptr %cctx{k}, i64 {L.SECTION[section]}",
                        f"  store ptr %cs{k}.{section}, ptr %cctx{k}.{section}"]
            out += [f"  %cctx{k}.cnt = getelementptr i64, ptr %cctx{k}, i64 {L.COUNTERS}",
                    f"  store ptr %ccnt{k}, ptr %cctx{k}.cnt"]
        if out:
            self.e.declare("memcpy", "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)")
        return out

    def emit_user_call(self, ins, callee, name: str, bail: str) -> str:
        """Start the callee's state as start_warp does, pass the arguments, call; on DONE its
        return register is the CALL's result, else the CALL goes to the call stack."""
        k, lay, _ = self.callee_rows[name]
        fn = callee.fn
        to_stack = self.lbl("tostack")
        room = self.ctx_field(L.STACK_ROOM)
        fits = self.op(f"icmp sle i64 {frame_bytes(fn)}, {room}")
        go = self.lbl("fits")
        self.cbr(fits, go, to_stack)
        self.label(go)
        regs, flags = f"%cs{k}.regs", f"%cs{k}.flags"
        for row in range(callee.rows):   # (lane 0's: the callee's code has one lane)
            self.line(f"store i32 0, ptr {self.gep(regs, row * WARP * 4)}")
        for row in range(callee.npreds):
            self.line(f"store i8 0, ptr {self.gep(f'%cs{k}.preds', row * WARP)}")
        for which, value in ((0, 1), (1, 0), (2, 0)):   # lane 0: live, not exited, not at a barrier
            self.line(f"store i8 {value}, ptr {self.gep(flags, which * WARP)}")
        for i, value in enumerate((0, 1, callee.end)):
            self.line(f"store i64 {value}, ptr {self.gep(f'%cs{k}.stack', i * 8)}")
        for i in range(8):
            value = {DEPTH: "1", CHECK: "%firstcheck", SAMPLED: "-1"}.get(i, "0")
            self.line(f"store i64 {value}, ptr {self.gep(f'%cs{k}.words', i * 8)}")
        for p, src in zip(fn.params, ins.srcs[1:]):
            width = 64 if p.size == 8 else 32
            s = callee.slot(p.reg)
            if s == -1:
                continue
            value = self.op(f"extractelement <1 x i{width}> {self.read(src, width)}, i64 0")
            if width == 64:
                self.line(f"store i32 {self.op(f'trunc i64 {value} to i32')}, ptr {self.gep(regs, s * WARP * 4)}")
                hi = self.op(f"trunc i64 {self.op(f'lshr i64 {value}, 32')} to i32")
                self.line(f"store i32 {hi}, ptr {self.gep(regs, (s + 1) * WARP * 4)}")
            else:
                self.line(f"store i32 {value}, ptr {self.gep(regs, s * WARP * 4)}")
        for i in range(L.NCOUNTERS):
            self.line(f"store i64 0, ptr {self.op(f'getelementptr i64, ptr %ccnt{k}, i64 {i}')}")
        steps_p = self.op(f"getelementptr i64, ptr %ccnt{k}, i64 {L.STEPS}")
        self.line(f"store i64 {self.load_local('steps')}, ptr {steps_p}")
        status = self.op(f"call i32 @c{k}.run_function(ptr %cctx{k})")
        done = self.lbl("returned")
        self.cbr(self.op(f"icmp eq i32 {status}, {L.DONE}"), done, to_stack)
        # the call stack runs the CALL from its start: the step count as before it
        self.label(to_stack)
        self.store_local("steps", self.op(f"sub i64 {self.load_local('steps')}, 1"))
        self.br(bail)
        self.label(done)
        self.store_local("steps", self.op(f"load i64, ptr {steps_p}"))
        if ins.dsts and fn.rets:
            wide = fn.rets[0].is_wide or fn.ret_wide
            width = 64 if wide else 32
            s = callee.slot(fn.rets[0])
            if s == -1:
                value = "zeroinitializer"
            else:
                lo = self.op(f"zext i32 {self.op(f'load i32, ptr {self.gep(regs, s * WARP * 4)}')} to i64")
                if wide:
                    hi = self.op(f"zext i32 {self.op(f'load i32, ptr {self.gep(regs, (s + 1) * WARP * 4)}')} to i64")
                    lo = self.op(f"or i64 {lo}, {self.op(f'shl i64 {hi}, 32')}")
                scalar = lo if wide else self.op(f"trunc i64 {lo} to i32")
                value = self.op(f"insertelement <1 x i{width}> poison, i{width} {scalar}, i64 0")
            self.write(ins.dsts[0], value, "splat (i1 true)", width)
        return "false"

