"""Conditions: jumping on a C condition, and a condition as a predicate or a value.

`branch` keeps C's short-circuit order: `&&` and `||` branch between their
operands, `!` swaps the targets, and anything else becomes a comparison or a test
against zero (ISETP, FSETP, DSETP) and a guarded BRA; the edge to the label the
caller starts next falls through.  At -O0 (`lowering.g_shape`) a `&&` or `||` is
computed as a value first, as clang -O0 does before nvcc -G sees it: the left
operand's predicate, a jump past the right operand when the left decides, the
right operand's predicate copied in, and one branch on the result.  A condition used as a value is a predicate
turned into 0 or 1 (SEL).  Chains of `&&`, `||` and `!` of any length are walked in
loops, not by recursion.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.ir import Imm, Label, Reg
from minicuda.passes.lower.emitter import strip_bool_casts, type_mod


COMPARISONS = {"==": "EQ", "!=": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}


class ConditionLowering:
    """Conditions as jumps, predicates and 0/1 values."""

    def branch(self, cond: A.Expr, true_l: str, false_l: str, fall: str) -> None:
        """Jump to true_l when cond holds, else to false_l (C's short-circuit order).

        `fall` is the label the caller starts next: that edge is a fall-through."""
        self.without_temporaries(lambda: self.branches(cond, true_l, false_l, fall))

    def branches(self, cond: A.Expr, true_l: str, false_l: str, fall: str) -> None:
        pending = [(cond, true_l, false_l, fall)]   # branches to lower, and labels to start, last first
        while pending:
            item = pending.pop()
            if isinstance(item, str):
                self.start(item)
                continue
            cond, true_l, false_l, fall = item
            c = strip_bool_casts(cond)
            if isinstance(c, A.Binary) and c.op in ("&&", "||") and not self.lowering.g_shape:
                mid = self.label()
                pending.append((c.rhs, true_l, false_l, fall))
                pending.append(mid)
                pending.append((c.lhs, mid, false_l, mid) if c.op == "&&" else (c.lhs, true_l, mid, mid))
            elif isinstance(c, A.Unary) and c.op == "!":
                pending.append((c.operand, false_l, true_l, fall))
            else:
                self.branch_on(cond, true_l, false_l, fall)

    def branch_on(self, cond: A.Expr, true_l: str, false_l: str, fall: str) -> None:
        """Jump on a condition that is neither `&&`, `||` nor `!`."""
        p, neg = self.predicate(cond)
        if fall == true_l:
            self.emit("BRA", srcs=(Label(false_l),), guard=p, neg=not neg)
        elif fall == false_l:
            self.emit("BRA", srcs=(Label(true_l),), guard=p, neg=neg)
        else:
            self.emit("BRA", srcs=(Label(false_l),), guard=p, neg=not neg)
            self.start(self.label())
            self.emit("BRA", srcs=(Label(true_l),))

    def predicate(self, e: A.Expr) -> tuple[Reg, bool]:
        """A predicate register and whether it is negated, true when e is."""
        c = strip_bool_casts(e)
        self.at(e)
        negated = False
        while isinstance(c, A.Unary) and c.op == "!":
            e, negated = c.operand, not negated
            c = strip_bool_casts(e)
            self.at(e)
        if isinstance(c, A.Binary) and c.op in COMPARISONS:
            return self.compare(c), negated
        if isinstance(c, A.Binary) and c.op in ("&&", "||"):
            return self.predicate_value(e), negated
        value = self.rvalue(c)
        p = self.pred()
        self.zero_test(p, value, c.ty)
        return p, negated

    def zero_test(self, p: Reg, value, t: T.Type) -> None:
        t = T.unqual(t)
        if T.is_float(t):
            self.emit("DSETP" if t == T.DOUBLE else "FSETP", ("NE",), (p,), (value, Imm(0.0)))
        else:
            self.emit("ISETP", ("NE", type_mod(t)), (p,), (value, Imm(0)))

    def compare(self, c: A.Binary) -> Reg:
        lhs, rhs = self.rvalue(c.lhs), self.rvalue(c.rhs)
        t = T.unqual(c.lhs.ty)
        p = self.pred()
        self.at(c)
        if T.is_float(t):
            self.emit("DSETP" if t == T.DOUBLE else "FSETP", (COMPARISONS[c.op],), (p,), (lhs, rhs))
        else:
            self.emit("ISETP", (COMPARISONS[c.op], type_mod(t)), (p,), (lhs, rhs))
        return p

    def predicate_value(self, e: A.Expr) -> Reg:
        """A predicate holding e, computed with branches (&&, || short-circuit)."""
        if self.lowering.g_shape:
            return self.short_circuit(e)
        p = self.pred()
        true_l, false_l, end_l = self.label(), self.label(), self.label()
        self.branch(e, true_l, false_l, true_l)
        self.start(true_l)
        self.emit("PLOP", ("OR",), (p,), (Reg("PT"), Reg("PT")))
        self.jump(end_l)
        self.start(false_l)
        self.emit("PNOT", (), (p,), (Reg("PT"),))
        self.jump(end_l)
        self.start(end_l)
        return p

    def short_circuit(self, e: A.Expr) -> Reg:
        """A chain `x1 && x2 && ...` (or of `||`) as clang -O0 computes it: per link, a jump
        past the right operand when the value so far decides, else the right operand's
        predicate copied into the result (the phi of clang's land.end / lor.end)."""
        links = []
        c = strip_bool_casts(e)
        while isinstance(c, A.Binary) and c.op in ("&&", "||"):
            links.append(c)
            c = strip_bool_casts(c.lhs)
        result = self.pred()
        self.copy_predicate(result, *self.predicate(c))
        for link in reversed(links):
            rhs_l, end_l = self.label(), self.label()
            self.at(link).emit("BRA", srcs=(Label(end_l),), guard=result, neg=link.op == "&&")
            self.start(rhs_l)
            self.copy_predicate(result, *self.predicate(link.rhs))
            self.jump(end_l)
            self.start(end_l)
        return result

    def copy_predicate(self, dst: Reg, p: Reg, negated: bool) -> None:
        if negated:
            self.emit("PNOT", (), (dst,), (p,))
        else:
            self.emit("MOV", (), (dst,), (p,))

    def pred_to_int(self, p: Reg, neg: bool = False) -> Reg:
        r = self.reg("r")
        self.emit("SEL", dsts=(r,), srcs=(Imm(0), Imm(1), p) if neg else (Imm(1), Imm(0), p))
        return r
