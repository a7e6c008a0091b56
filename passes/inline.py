"""Inline device functions into their callers, as nvcc does at -O1 and above.

nvcc inlines `__device__` functions unless told not to, so on the GPU a warp-unrolled
reduction's `warpReduce(vmem, tid)` is part of the kernel: its instructions are
counted in the kernel's metrics and its branches are predicated or kept with the
kernel's.  This pass does the same on the IR right after lowering, before every
other pass: the callee's blocks are copied into the caller with fresh registers and
labels, parameters become moves, each RET a branch to the continuation, and the
callee's frame is appended to the caller's.

Host code is inlined too, as a C++ compiler inlines at -O2: a host function of at
most HOST_INLINE_LIMIT instructions with no loop, local array, division or
runtime call into host callers, and a `__host__ __device__`
one into device code (nvcc's device copy of it) unless its host lowering calls the
host runtime.  Not inlined (they stay CALLs, run by the VM as calls): recursive
functions, larger host functions, functions with struct parameters, `__noinline__` functions, and at -O0 everything but
`__forceinline__` functions (nvcc -G keeps the other calls; its CALL and RET count as
branches).

A device function's `__shared__` variable (a module global `function::name`) is one
object per block of each kernel that uses it, as nvcc gives each kernel its own copy:
inlined, its uses name the same global, so two calls in one kernel share it, and each
kernel's static shared memory (`Function.shared_bytes`, what --resource-usage and the
occupancy report print) is laid out again after inlining to hold the variables its
code and its remaining callees name.
"""
from __future__ import annotations

import re
from dataclasses import replace

from minicuda.grammar.collector import collector_paused
from minicuda.ir import DYNAMIC_SHARED, Block, Function, Imm, Instr, Label, Mem, Module, Reg, Sym, block_shared
from minicuda.passes.cfg import CFG, postorder, strongly_connected

_VIRTUAL = re.compile(r"%(rq|rd|r|p)(\d+)$")


@collector_paused()
def inline_device_calls(module: Module, forced_only: bool = False) -> None:
    """Inline every inlinable call (`__noinline__` functions stay calls); `forced_only`
    (-O0, as nvcc -G): only the calls of `__forceinline__` functions."""
    calls: dict[str, list[str]] = {}   # the call graph: caller -> callees, each once, in call order
    for fn in module.functions.values():
        callees = dict.fromkeys(ins.srcs[0].name for ins in fn.instructions() if _is_call(ins))
        calls[fn.name] = list(callees)   # (a dict: a main of thousands of calls is no quadratic list search)
    graph = CFG(calls, next(iter(calls), ""), list(calls))
    recursive = {n for n, scc in strongly_connected(graph).items()
                 if n in calls and (len(scc) > 1 or n in calls[n])}

    host_verdicts: dict[str, tuple[bool, bool]] = {}   # a host function: (into host code, into device code)

    def host_verdict(name: str, callee: Function) -> tuple[bool, bool]:
        """Read once per callee (it is final by then: callees are inlined into first)."""
        if name not in host_verdicts:
            small, runtime = _size(callee) <= HOST_INLINE_LIMIT, _calls_runtime(callee)
            # into host code: what keeps a frame of its own is named by where-it-was reports;
            # into device code (a __host__ __device__ function, as nvcc inlines its device
            # copy): unless its host lowering calls the host runtime (printf, malloc...)
            host_verdicts[name] = (small and not (_loops(callee) or callee.local_bytes or runtime or _divides(callee)),
                                   small and callee.device_callable and not runtime)
        return host_verdicts[name]

    def inlinable(name: str, caller: Function) -> bool:
        callee = module.functions.get(name)
        if callee is None or name in recursive or any(p.kind == "struct" for p in callee.params):
            return False
        if callee.inline == "never" or (forced_only and callee.inline != "force"):
            return False
        if callee.kind == "device":
            return True
        return callee.kind == "host" and host_verdict(name, callee)[caller.kind != "host"]

    # callees first, so what is copied is already inlined itself (any such order gives
    # the same functions: each is inlined into on its own)
    seen: set[str] = set()
    order: list[str] = []
    for name in calls:
        if name not in seen and name not in recursive:
            walk = postorder(name, lambda n: [c for c in calls.get(n, ()) if c not in seen and c not in recursive])
            seen.update(walk)
            order += walk
    for name in order:
        fn = module.functions.get(name)
        if fn is not None:
            _inline_into(fn, module, inlinable, splice=forced_only)
    for fn in module.functions.values():
        if fn.kind == "kernel":
            fn.shared_bytes = _kernel_shared_bytes(module, fn.name)


def _kernel_shared_bytes(module: Module, kernel: str) -> int:
    """A kernel's static shared bytes: the variables it declares (used or not, as lowering
    counted them) and those of device functions that its code or callees name, each aligned."""
    named = set(block_shared(module, kernel))
    own = f"{kernel}::"
    end = 0
    for name, g in module.globals.items():
        if g.space == "shared" and name != DYNAMIC_SHARED and (name in named or name.startswith(own)):
            end = (end + g.align - 1) // g.align * g.align + g.size
    return end


HOST_INLINE_LIMIT = 64   # instructions: a small host function is inlined, as a C++ compiler at -O2 does


def _size(fn: Function) -> int:
    return sum(len(b.instrs) for b in fn.blocks)


def _loops(fn: Function) -> bool:
    """Whether `fn` has a branch back to a block at or before its own (a loop)."""
    at = {b.label: i for i, b in enumerate(fn.blocks)}
    return any(isinstance(t, Label) and at.get(t.name, len(at)) <= i
               for i, b in enumerate(fn.blocks) for ins in b.instrs if ins.op == "BRA" for t in ins.srcs)


def _calls_runtime(fn: Function) -> bool:
    return any(i.op == "CALL" and "RT" in i.mods for i in fn.instructions())


def _divides(fn: Function) -> bool:
    """Whether `fn` divides (a division by zero's report names the function)."""
    return any(i.op in ("IDIV", "IREM") for i in fn.instructions())


def _is_call(ins: Instr) -> bool:
    return ins.op == "CALL" and "RT" not in ins.mods and isinstance(ins.srcs[0], Sym)


class _Names:
    """Fresh virtual registers and labels for one function."""

    def __init__(self, fn: Function):
        self.next = {"r": 0, "rd": 0, "rq": 0, "p": 0}
        names = {r.name for ins in fn.instructions() for r in ins.dsts}
        names.update(r.name for ins in fn.instructions() for r in ins.uses())   # (a guard among them)
        names.update(p.reg.name for p in fn.params)
        names.update(r.name for r in fn.rets)
        for name in names:   # each name once: a register is read and written many times
            self.see(name)
        self.labels = 0

    def see(self, name: str) -> None:
        m = _VIRTUAL.match(name)
        if m:
            self.next[m.group(1)] = max(self.next[m.group(1)], int(m.group(2)) + 1)

    def fresh(self, r: Reg) -> Reg:
        m = _VIRTUAL.match(r.name)
        if not m:
            return r
        kind = m.group(1)
        n = self.next[kind]
        self.next[kind] += 1
        return Reg(f"%{kind}{n}")

    def label(self, callee: str) -> str:
        self.labels += 1
        return f".Linline{self.labels}_{re.sub(r'[^A-Za-z0-9_]', '_', callee)}"


def _inline_into(fn: Function, module: Module, inlinable, splice: bool = False) -> None:
    """Inline fn's calls in layout order, in one walk that builds the new block list: a
    copied body has no call left to inline (its function was inlined into first), and
    the instructions after a call start the continuation block, where the walk goes on.
    `splice` (-O0): the callee's entry block joins the call's block, as LLVM's inliner
    does it (no BRA into the copy: nvcc -G's code has none)."""
    names = None   # made at the first call inlined (it reads the whole function)
    blocks: list[Block] = []
    for block in fn.blocks:
        label, start = block.label, 0
        pending: list[Instr] = []
        for ii, ins in enumerate(block.instrs):
            if _is_call(ins) and inlinable(ins.srcs[0].name, fn):
                names = names or _Names(fn)
                callee = module.functions[ins.srcs[0].name]
                fn.loop_pragmas.update(callee.loop_pragmas)   # (its loops keep their locations)
                fn.switch_cases |= callee.switch_cases
                pending += block.instrs[start:ii]
                entry, body, cont, after = _inline_call(fn, ins, callee, names)
                if splice:
                    entry, body = _as_clang_o0(entry, body, cont, names, callee.name)
                blocks.append(Block(label, pending + entry))
                blocks += body
                label, pending, start = cont, after, ii + 1
        if names is None or label == block.label:
            blocks.append(block)
        else:
            blocks.append(Block(label, pending + block.instrs[start:]))
    if names is not None:
        fn.blocks[:] = blocks


def _as_clang_o0(entry: list[Instr], body: list[Block], cont: str, names: _Names, callee: str):
    """An inlined copy as clang -O0 and NVVM's always-inline leave it (nvcc -G): the callee's
    entry block joined to the call's, and its returns, when more than one, meeting in a
    return block that jumps to the continuation."""
    if not any(i.target == body[0].label for b in body for i in b.instrs):
        entry, body = entry[:-1] + body[0].instrs, body[1:]
    returns = [i for b in body for i in b.instrs if i.target == cont]
    if len(returns) > 1:
        ret = Block(names.label(callee), [Instr("BRA", srcs=(Label(cont),), loc=returns[-1].loc)])
        body = [Block(b.label, [replace(i, srcs=(Label(ret.label),)) if i.target == cont else i for i in b.instrs])
                for b in body] + [ret]
    return entry, body


def _inline_call(fn: Function, call: Instr, callee: Function, names: _Names):
    """(the instructions entering the callee's copy, its blocks, the continuation's label,
    the instructions the continuation starts with) for inlining `callee` at `call`."""
    regs: dict[str, Reg] = {}

    def reg(r: Reg) -> Reg:
        if r.name not in regs:
            regs[r.name] = names.fresh(r)
        return regs[r.name]

    labels = {b.label: names.label(callee.name) for b in callee.blocks}
    cont = names.label(callee.name)
    align = 16
    frame_base = (fn.local_bytes + align - 1) // align * align if callee.local_bytes else fn.local_bytes
    fn.local_bytes = frame_base + callee.local_bytes
    fn.frame_slots += [(off + frame_base, size) for off, size in callee.frame_slots]

    def operand(o):
        if isinstance(o, Reg):
            return reg(o)
        if isinstance(o, Label):
            return Label(labels[o.name])
        if isinstance(o, Sym) and o.name == "frame":
            return Sym("frame", o.offset + frame_base)
        if isinstance(o, Mem):
            return replace(o, base=operand(o.base))
        return o

    # the call: arguments moved into the callee's parameters, then into its body
    entry = [Instr("MOV", dsts=(reg(p.reg),), srcs=(arg,), loc=call.loc)
             for p, arg in zip(callee.params, call.srcs[1:])]
    entry += [Instr("MOV", dsts=(reg(p.reg),), srcs=(Imm(0),), loc=call.loc)
              for p in callee.params[len(call.srcs) - 1:]]
    entry.append(Instr("BRA", srcs=(Label(labels[callee.blocks[0].label]),), loc=call.loc))
    body = []
    for b in callee.blocks:
        copied = []
        for ins in b.instrs:
            if ins.op == "RET":
                copied.append(Instr("BRA", srcs=(Label(cont),), guard=reg(ins.guard) if ins.guard else None,
                                    guard_neg=ins.guard_neg, loc=ins.loc))
                continue
            copied.append(Instr(ins.op, ins.mods, tuple(reg(d) for d in ins.dsts),
                                tuple(operand(s) for s in ins.srcs),
                                reg(ins.guard) if ins.guard is not None else None, ins.guard_neg, ins.loc))
        body.append(Block(labels[b.label], copied))
    after = []
    if call.dsts and callee.rets:
        after.append(Instr("MOV", dsts=call.dsts, srcs=(reg(callee.rets[0]),), loc=call.loc))
    return entry, body, cont, after
