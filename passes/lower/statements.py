"""Statements and declarations, lowered as nvcc -G does: every branch kept.

`if` is `@!P BRA else`; `while` and `for` test at the top, `do` at the bottom; a
`switch` compares its value with each case in turn, then jumps to the default (or
past its end).  `break` and `continue` jump to the labels of the innermost loop
(a switch takes `break` only).  A local scalar whose address is never taken lives
in a register; arrays, structs and address-taken locals get a frame slot, their
initialisers stored there (initialisers.py); a shared variable is a module global.

Statements are lowered as steps on an explicit stack (`nesting.run_nested`): a
statement's step yields the steps of the statements inside it, so statements nest
to any depth; one that still exhausts Python's stack is an error at that statement.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.nesting import TOO_DEEP, finish, run_nested
from minicuda.ir import GLOBAL_INIT, Imm, Instr, Label, Sym
from minicuda.passes.lower.emitter import Unsupported, type_mod


@dataclass
class Loop:
    """Where `break` and `continue` jump inside a loop (a switch: no `continue` of its own)."""
    brk: str
    cont: str | None
    depth: int = 0      # the open blocks with objects to destroy around the loop


# the most cases a switch may have to be lowered as a compare tree (above: a chain of tests)
SWITCH_TREE_CASES = 256


class StatementLowering:
    """Statements and declarations: `stmt` dispatches on the node's type to `s_<Node>`."""

    def stmt(self, s: A.Node) -> None:
        run_nested(self.stmt_step(s))

    def stmt_step(self, s: A.Node):
        try:
            yield from finish(getattr(self, "s_" + type(s).__name__)(s))
        except RecursionError:
            raise Unsupported(TOO_DEEP, s.loc) from None

    def s_Compound(self, s: A.Compound):
        self.dtor_scopes.append([])
        for item in s.items:
            yield self.stmt_step(item)
        self.destroy(self.dtor_scopes.pop())

    def s_Pragma(self, s):
        pass

    def s_DeclStmt(self, s: A.DeclStmt):
        for v in s.declaration.decls:
            if v.ty is None:
                continue
            self.at(v).full_expression(lambda: self.local(v), extend=isinstance(v.ty, T.Reference))

    def local(self, v: A.VarDecl) -> None:
        if v.is_global_scope or (v.static_local and self.fn.name == GLOBAL_INIT):   # in GLOBAL_INIT (module.py)
            self.init_memory(Sym(self.lowering.global_symbol(v)), v.ty, v.init, "STG")
            return
        t = v.ty
        if v.space == "shared":
            name = self.lowering.shared_symbol(self.fn, v)
            self.vars[id(v)] = ("sym", name)
            return
        if "extern" in v.specs.storage or v.static_local:   # a static local is a global
            self.vars[id(v)] = ("sym", v.name)
            return
        if isinstance(T.unqual(t), (T.Array, T.Struct)) or id(v) in self.addressed:
            off = self.frame_slot(t)
            self.vars[id(v)] = ("frame", off)
            if v.init is not None:
                self.init_memory(Sym("frame", off), t, v.init, "STL")
            self.destructible(v)
            return
        r = self.reg(t)
        self.vars[id(v)] = ("reg", r)
        if v.init is not None:
            self.emit("MOV", dsts=(r,), srcs=(self.rvalue(v.init),))

    def s_ExprStmt(self, s: A.ExprStmt):
        if s.expr is not None:
            self.at(s).full_expression(lambda: self.effect(s.expr))

    def s_If(self, s: A.If):
        self.at(s)
        then_l, end_l = self.label(), self.label()
        else_l = self.label() if s.else_ is not None else end_l
        self.branch(s.cond, then_l, else_l, then_l)
        self.start(then_l)
        yield self.stmt_step(s.then)
        if s.else_ is not None:
            self.at(s).jump(end_l)
            self.start(else_l)
            yield self.stmt_step(s.else_)
        self.jump(end_l)
        self.start(end_l)

    def note_pragmas(self, s, back_edge) -> None:
        """A loop's `#pragma unroll`, for loop-unroll: keyed by where its back edge points."""
        for text in s.pragmas:
            if text.split()[0].startswith("unroll") and back_edge is not None:
                self.fn.loop_pragmas[(back_edge.file, back_edge.line, back_edge.col)] = text

    def s_While(self, s: A.While):
        self.at(s)
        cond_l, body_l, end_l = self.label(), self.label(), self.label()
        self.jump(cond_l)
        self.start(cond_l)
        self.branch(s.cond, body_l, end_l, body_l)
        self.start(body_l)
        self.loops.append(Loop(end_l, cond_l, len(self.dtor_scopes)))
        yield self.stmt_step(s.body)
        self.loops.pop()
        self.note_pragmas(s, s.loc)
        self.at(s).jump(cond_l)
        self.start(end_l)

    def s_DoWhile(self, s: A.DoWhile):
        self.at(s)
        body_l, cond_l, end_l = self.label(), self.label(), self.label()
        self.jump(body_l)
        self.start(body_l)
        self.loops.append(Loop(end_l, cond_l, len(self.dtor_scopes)))
        yield self.stmt_step(s.body)
        self.loops.pop()
        self.jump(cond_l)
        self.start(cond_l)
        self.note_pragmas(s, s.cond.loc)
        self.at(s.cond).branch(s.cond, body_l, end_l, end_l)
        self.start(end_l)

    def s_For(self, s: A.For):
        self.at(s)
        if s.init is not None:
            yield self.stmt_step(s.init)
        cond_l, body_l, step_l, end_l = self.label(), self.label(), self.label(), self.label()
        self.jump(cond_l)
        self.start(cond_l)
        if s.cond is not None:
            self.at(s.cond).branch(s.cond, body_l, end_l, body_l)
        self.start(body_l)
        self.loops.append(Loop(end_l, step_l, len(self.dtor_scopes)))
        yield self.stmt_step(s.body)
        self.loops.pop()
        self.jump(step_l)
        self.start(step_l)
        if s.step is not None:
            self.at(s.step).effect(s.step)
        self.note_pragmas(s, s.loc)
        self.at(s).jump(cond_l)
        self.start(end_l)

    def s_Switch(self, s: A.Switch):
        self.at(s)
        value = self.rvalue(s.expr)
        labels: dict[int, str] = {}
        default = None
        for node in _switch_cases(s.body):
            labels[id(node)] = self.label()
            if isinstance(node, A.Default):
                default = labels[id(node)]
        end_l = self.label()
        cases = [node for node in _switch_cases(s.body) if isinstance(node, A.Case)]
        # -O1 and above: LLVM's compare tree, but for a switch of more cases than
        # SWITCH_TREE_CASES, which keeps the case-by-case chain: simplify-cfg's restarts
        # over a tree's blocks grow with the square of its size (a 10,000-case switch took
        # over 40 s to compile as a tree, 9 s as a chain)
        tree = not self.lowering.g_shape and len(cases) <= SWITCH_TREE_CASES
        if tree:
            self.switch_tree(s, value, cases, labels, default or end_l)
        for k, node in enumerate(() if tree else cases):
            p = self.pred()
            self.at(node).emit("ISETP", ("EQ", type_mod(s.expr.ty)), (p,), (value, Imm(node.const_value)))
            self.note_switch_branch(self.emit("BRA", srcs=(Label(labels[id(node)]),), guard=p))
            if k + 1 < len(cases) or not self.lowering.g_shape:
                self.start(self.label())
        if cases and self.lowering.g_shape:   # nvcc -G: the last test's `@P BRA case` / `BRA default`
            self.block.instrs.append(Instr("BRA", srcs=(Label(default or end_l),), loc=self.loc))
        elif not tree:   # no case at -G, or the chain at -O3: on to the default
            self.at(s).jump(default or end_l)
        self.switch_labels.append(labels)
        self.loops.append(Loop(end_l, self.loops[-1].cont if self.loops else None, len(self.dtor_scopes)))
        yield self.stmt_step(s.body)
        self.loops.pop()
        self.switch_labels.pop()
        self.jump(end_l)
        self.start(end_l)

    def switch_tree(self, s: A.Switch, value, cases: list, labels: dict, default: str) -> None:
        """A switch's tests as LLVM's instruction selection builds them at -O1 and above (its
        SwitchLowering, no jump table: NVPTX has none): cases with consecutive values and one
        destination form a range; more than three ranges split into a balanced binary tree
        (`ISETP.GE value, pivot`, the right half at the branch's target); three or fewer are
        tested one by one, each `@P BRA case`, the last falling to the default."""
        mod = type_mod(s.expr.ty)
        bits = 64 if mod.endswith("64") else 32
        unsigned = mod.startswith("U")
        norm = lambda v: v % (1 << bits) if unsigned else ((v + (1 << bits - 1)) % (1 << bits)) - (1 << bits - 1)
        clusters: list[list] = []   # [low, high, destination, case node]
        for node in sorted(cases, key=lambda n: norm(n.const_value)):
            dest = labels[id(_case_target(node))]
            v = norm(node.const_value)
            if dest == default:
                continue    # LLVM drops a case that only leads to the default
            if clusters and clusters[-1][2] == dest and clusters[-1][1] + 1 == v:
                clusters[-1][1] = v
            else:
                clusters.append([v, v, dest, node])
        work = [(clusters, self.block.label if self.block is not None else None)]
        first = True
        while work:
            group, label = work.pop()
            if not first:
                self.start(label)
            first = False
            if len(group) > 3:
                left, right = _split_clusters(group)
                right_l = self.label()
                p = self.pred()
                self.at(s).emit("ISETP", ("GE", mod), (p,), (value, Imm(right[0][0])))
                self.note_switch_branch(self.emit("BRA", srcs=(Label(right_l),), guard=p))
                work.append((right, right_l))
                work.append((left, self.label()))
                continue
            for k, (low, high, dest, node) in enumerate(group):
                last = k + 1 == len(group)   # its test branches to the default, its case falls through
                p = self.pred()
                self.at(node)
                if low == high:
                    self.emit("ISETP", ("NE" if last else "EQ", mod), (p,), (value, Imm(low)))
                else:   # a range: value - low <= high - low, unsigned
                    t = self.reg(s.expr.ty)
                    self.emit("IADD", (mod,), (t,), (value, Imm(norm(-low))))
                    self.emit("ISETP", ("GT" if last else "LE", "U" + mod[1:]), (p,), (t, Imm(high - low)))
                self.note_switch_branch(self.emit("BRA", srcs=(Label(default if last else dest),), guard=p))
                self.start(self.label())
                if last:
                    self.jump(dest)
            if not group:
                self.at(s).jump(default)

    def note_switch_branch(self, branch: Instr) -> None:
        if branch is not None and branch.loc is not None:
            self.fn.switch_cases.add((branch.loc.file, branch.loc.line, branch.loc.col))

    def s_Case(self, s: A.Case):
        label = self.switch_labels[-1][id(s)]
        self.jump(label)
        self.start(label)
        yield self.stmt_step(s.body)

    s_Default = s_Case

    def s_Break(self, s):
        self.at(s).destroy_to(self.loops[-1].depth)
        self.jump(self.loops[-1].brk)

    def s_Continue(self, s):
        loop = next(l for l in reversed(self.loops) if l.cont is not None)
        self.at(s).destroy_to(loop.depth)
        self.fn.continue_targets.add(loop.cont)
        self.jump(loop.cont)

    def s_Throw(self, s: A.Throw):
        """The uncaught exception's report and abort (vm/runtime.py's rt_throw)."""
        self.at(s)
        what = Imm(0)
        if s.what is not None:
            what = self.rvalue(s.what)
        elif s.value is not None and isinstance(T.unqual(s.value.ty), T.Struct):
            self.address(s.value)   # a class object is built (its constructor runs); the report names its type
        elif s.value is not None:
            self.effect(s.value)   # evaluated for what it does: the report names only its type
        kind = Sym(self.lowering.string(s.type_name.encode()))
        std = Imm(int(s.type_name.startswith("std::") or s.what is not None))
        self.at(s).emit("CALL", ("RT",), (), (Sym("__minicuda_throw"), kind, what, std))

    def s_Try(self, s: A.Try):
        """The body between the runtime's count of `try` blocks entered and left (a throw
        inside one is an error: minicuda does not catch); the handlers never run."""
        self.tries = getattr(self, "tries", 0) + 1
        self.at(s).emit("CALL", ("RT",), (), (Sym("__minicuda_try"), Imm(1)))
        yield self.stmt_step(s.body)
        self.emit("CALL", ("RT",), (), (Sym("__minicuda_try"), Imm(-1)))
        self.tries -= 1

    def s_Return(self, s: A.Return):
        self.at(s)
        if getattr(self, "tries", 0):   # leaving the try blocks it is in
            self.emit("CALL", ("RT",), (), (Sym("__minicuda_try"), Imm(-self.tries)))
        if s.value is not None:
            if self.sret is not None:
                self.return_struct(s.value)
            elif T.is_void(s.value.ty) or not self.fn.rets:
                self.effect(s.value)
            else:
                self.emit("MOV", dsts=self.fn.rets, srcs=(self.rvalue(s.value),))
        returned = s.value.decl if self.sret is not None and isinstance(s.value, A.Name) else None
        self.destroy_to(0, keep=returned)
        self.destroy_members()
        if self.merges_returns:
            self.jump(self.return_label())
        else:
            self.emit("EXIT" if self.fn.kind == "kernel" else "RET")

    @property
    def merges_returns(self) -> bool:
        """A device function's returns at -O1 and above: one RET block (LLVM's return merging,
        the values a phi there), so an `if (c) return a; return b;` is a diamond ptxas can
        predicate into one RET.  A kernel's `return` stays its own EXIT (ptxas's `@P EXIT`);
        nvcc -G keeps every return.  A function whose only return ends its body has nothing to
        merge."""
        if self.lowering.g_shape or not (self.fn.kind == "device" or self.fn.device_callable):
            return False
        if self.early_returns is None:
            body = self.ast.body
            last = body.items[-1] if isinstance(body, A.Compound) and body.items else None
            self.early_returns = any(isinstance(n, A.Return) and n is not last for n in A.walk(body))
        return self.early_returns

    def return_label(self) -> str:
        if self.ret_label is None:
            self.ret_label = self.label()
        return self.ret_label


def _case_target(node):
    """The case label whose code `node` runs: a label with an empty body runs the next one's
    (`case 1: case 2: ...`)."""
    while isinstance(node, (A.Case, A.Default)) and isinstance(node.body, (A.Case, A.Default)):
        node = node.body
    return node


def _split_clusters(group: list) -> tuple[list, list]:
    """LLVM's splitWorkItem with equal case weights: the two halves grow toward each other,
    the lighter taking the next cluster, a tie alternating (the right first)."""
    last_left, first_right = 0, len(group) - 1
    left_w = right_w = 1
    i = 0
    while last_left + 1 < first_right:
        if left_w < right_w or (left_w == right_w and i & 1):
            last_left += 1
            left_w += 1
        else:
            first_right -= 1
            right_w += 1
        i += 1
    return group[:last_left + 1], group[first_right:]


def _switch_cases(body: A.Node):
    """Case and Default labels of one switch (not of switches nested in it)."""
    out = []
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, (A.Case, A.Default)):
            out.append(n)
        if isinstance(n, A.Switch):
            continue
        stack.extend(reversed(n.children()))
    return out
