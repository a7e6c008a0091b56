"""FunctionLowering: one function's lowering, composed of one class per concern.

It holds the function's state (the IR Function being built, register and label
counters, where each variable lives, the enclosing loops and switches) and lowers
the parameters and the body; the classes it is composed of (statements,
conditions, expressions, builtins, initialisers, memory, the emitter) call each
other through `self`.  A kernel ends in EXIT, any other function in RET (`main`
returns 0 when it runs off its end).
"""
from __future__ import annotations

from minicuda.diagnostics import SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.ir import Block, Function, Imm, Mem, Module, Param, Sym
from minicuda.passes.lower.builtins import BuiltinLowering
from minicuda.passes.lower.conditions import ConditionLowering
from minicuda.passes.lower.emitter import Emitter, Unsupported, strip_decay
from minicuda.passes.lower.expressions import ExpressionLowering
from minicuda.passes.lower.initialisers import InitialiserLowering
from minicuda.passes.lower.memory import MemoryLowering
from minicuda.passes.lower.objects import ObjectLowering, is_struct
from minicuda.passes.lower.statements import Loop, StatementLowering


class FunctionLowering(StatementLowering, ConditionLowering, ExpressionLowering, BuiltinLowering,
                       InitialiserLowering, MemoryLowering, ObjectLowering, Emitter):
    """One function of the translation unit to one IR Function (`lower()`)."""

    def __init__(self, fn: A.FunctionDef, module: Module, lowering):   # lowering: the ModuleLowering
        self.ast = fn
        self.module = module
        self.lowering = lowering
        kind = "kernel" if "global" in fn.exec_space else ("device" if fn.exec_space == {"device"} else "host")
        self.fn = Function(lowering.function_name(fn), kind, loc=fn.loc,
                           launch_bounds=fn.launch_bounds[:2] if kind == "kernel" else (),
                           device_callable=kind == "host" and "device" in fn.exec_space,
                           inline=_inline_hint(fn.specs.storage))
        self.counters = {"r": 0, "rd": 0, "rq": 0, "p": 0, "L": 0}
        self.vars: dict[int, tuple] = {}      # id(decl) -> ("reg", Reg) | ("frame", offset) | ("sym", name)
        self.addressed = _address_taken(fn.body)
        self.block: Block | None = None
        self.loc: SourceLocation | None = fn.loc
        self.loops: list[Loop] = []
        self.switch_labels: list[dict[int, str]] = []
        self.early_values: dict[int, tuple] = {}   # id -> (node, its value, the location after it)
        self.walked: dict[int, A.Expr] = {}        # id -> node: its chain of first operands was looked at
        self.sret = None                            # where a function returning a struct stores it
        self.ret_label: str | None = None           # the merged returns' RET block (merges_returns)
        self.early_returns: bool | None = None      # a return before the body's end (merges_returns)
        self.frame_align = 1                        # the largest alignment of a frame slot (memory.py)
        self.dtor_scopes: list[list[A.VarDecl]] = []   # per open block: its objects to destroy
        self.temporaries: list | None = None           # the class temporaries of the full expression

    def lower(self) -> Function:
        self.start(".L_entry")
        if is_struct(self.ast.ty.ret):
            self.sret = self.reg("rd")
            self.fn.params.append(Param(self.sret, "sret", 8, "pointer"))
        for p in self.ast.params:
            self.param(p)
        if not T.is_void(self.ast.ty.ret) and self.sret is None:
            self.fn.rets = [self.reg(self.ast.ty.ret)]
        kernel = self.fn.kind == "kernel"
        self.dtor_scopes.append([] if kernel else self.destructible_params(self.ast.params))
        self.stmt(self.ast.body)
        self.at(self.ast.body)
        params = self.dtor_scopes.pop()
        if self.block.terminator is None:
            self.destroy(params)
            self.destroy_members()
            if self.fn.kind == "kernel":
                self.emit("EXIT")
            else:
                if self.fn.rets and self.ast.name == "main":
                    self.emit("MOV", dsts=self.fn.rets, srcs=(Imm(0),))
                if self.ret_label is None:
                    self.emit("RET")
        if self.ret_label is not None:   # the returns merged (merges_returns): the one RET
            self.jump(self.ret_label)
            self.start(self.ret_label)
            self.emit("RET")
        self.fn.blocks[0].label = ".L_entry"
        return self.fn

    def param(self, p: A.ParamDecl) -> None:
        t = T.unqual(p.ty)
        if isinstance(t, T.Reference):   # held as its referee's address
            t = T.Pointer(base=t.base)
        if isinstance(t, T.Struct):
            self.struct_param(p)
            return
        r = self.reg(t)
        kind = "pointer" if isinstance(t, T.Pointer) else "value"
        self.fn.params.append(Param(r, p.declarator.name or f"arg{len(self.fn.params)}", t.size, kind))
        if id(p) in self.addressed:
            off = self.frame_slot(t)
            self.vars[id(p)] = ("frame", off)
            self.store(Mem(Sym("frame", off)), r, t, "STL")
        else:
            self.vars[id(p)] = ("reg", r)


def _address_taken(body: A.Node) -> set[int]:
    taken = set()
    for n in A.walk(body) if body is not None else ():
        if isinstance(n, A.Unary) and n.op == "&":
            inner = strip_decay(n.operand)
            while isinstance(inner, A.Member) and not inner.arrow:
                inner = inner.base
            if isinstance(inner, A.Name) and inner.decl is not None:
                taken.add(id(inner.decl))
    return taken


def _inline_hint(storage) -> str:
    """A function's `__forceinline__` ("force") or `__noinline__` ("never"), for the inliner."""
    return "force" if "__forceinline__" in storage else "never" if "__noinline__" in storage else ""
