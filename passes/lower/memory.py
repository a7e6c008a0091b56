"""Memory: where each variable lives, its address, loads and stores.

A variable lives in a register (`("reg", Reg)`), a frame slot (`("frame",
offset)`, `$frame+off` accessed with LDL/STL) or a module global (`("sym", name)`,
globals of the translation unit named on first use; a file-scope `extern
__shared__` array is the function's dynamic shared memory, as one declared inside it).  An access through a known
variable uses the load/store of its space (LDS/STS shared, LDC constant, LDL/STL
frame, LDG/STG global); an access through a pointer uses LDG/STG on the 64-bit
generic address.  Structs are copied one 32-bit word at a time, narrower where their
alignment or end is, and one 64- or 128-bit access at a time where their alignment is 8
or 16 (float2, float4, double2: objects.copy_pieces).
"""
from __future__ import annotations

from minicuda.diagnostics import InternalError
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.ir import Imm, Mem, Reg, Special, Sym
from minicuda.passes.lower.emitter import SPECIAL_REGISTERS, Unsupported, mem_width, strip_bool_casts, strip_decay
from minicuda.passes.lower.objects import copy_pieces, piece_register, width_mods


class MemoryLowering:
    """Storage, addresses, loads and stores of one function."""

    def frame_slot(self, t: T.Type) -> int:
        align = max(t.align, 1)
        off = (self.fn.local_bytes + align - 1) // align * align
        size = max(t.size, 1)
        if isinstance(T.unqual(t), T.Struct):   # copied by 32-bit words (objects.py)
            size = (size + 3) // 4 * 4
        # the frame is a multiple of its largest slot alignment: each thread's frame follows
        # the one before it, and its slots keep their alignment
        self.frame_align = max(self.frame_align, align)
        self.fn.local_bytes = -(-(off + size) // self.frame_align) * self.frame_align
        self.fn.frame_slots.append((off, size))
        return off

    def storage(self, decl) -> tuple:
        if id(decl) in self.vars:
            return self.vars[id(decl)]
        if isinstance(decl, A.VarDecl) and decl.is_global_scope and decl.space == "shared" \
                and "extern" in decl.specs.storage:   # the dynamic shared memory of every kernel using it
            self.vars[id(decl)] = ("sym", self.lowering.shared_symbol(self.fn, decl))
            return self.vars[id(decl)]
        if isinstance(decl, A.VarDecl) and decl.is_global_scope:
            return ("sym", self.lowering.global_symbol(decl))
        raise InternalError("lower", f"no storage for '{getattr(decl, 'name', decl)}'")

    def kernel_handle(self, e: A.Name) -> str:
        """A function's name as a value: a kernel's (`(const void *)k`, as cudaFuncSetAttribute
        takes it) or, in host code, a host function's (a function pointer): the symbol of the
        handle the VM gives each function named so."""
        functions = [e.decl] if isinstance(e.decl, A.FunctionDef) else getattr(e.decl, "functions", [])
        types = {f.ty for f in functions if not f.is_template}
        fn = next((f for f in functions if not f.is_template), None)
        if len(types) != 1:
            raise Unsupported(f"a pointer to the function '{e.name}' is not supported (it is overloaded or "
                              f"a template)", e.loc)
        if "global" not in fn.exec_space and self.fn.kind != "host":
            raise Unsupported("function pointers in device code are not supported yet", e.loc)
        if "global" not in fn.exec_space and "host" not in fn.exec_space:
            raise Unsupported(f"a pointer to the __device__ function '{e.name}' in host code is not supported", e.loc)
        if fn.is_builtin:
            raise Unsupported(f"a pointer to the library function '{e.name}' is not supported", e.loc)
        defined = next((f for f in functions if f.body is not None), fn)
        return self.lowering.function_name(defined)

    def space_op(self, decl, load: bool) -> str:
        kind = self.storage(decl)
        space = getattr(decl, "space", "local")
        if kind[0] == "frame":
            return "LDL" if load else "STL"
        if space == "shared":
            return "LDS" if load else "STS"
        if space == "constant" and load:
            return "LDC"
        return "LDG" if load else "STG"

    def address(self, e: A.Expr) -> Mem:
        """The memory address of an lvalue (or of an array / struct)."""
        e = strip_decay(e)
        self.at(e)
        if isinstance(e, A.Name) and isinstance(T.unqual(e.ty), T.Function):
            return Mem(Sym(self.kernel_handle(e)))
        if isinstance(e, A.Name) and isinstance(e.decl, A.VarDecl) and e.decl.space == "builtin":
            return self.launch_ids_copy(e)
        if isinstance(e, A.Name):
            kind = self.storage(e.decl)
            if kind[0] == "frame":
                return Mem(Sym("frame", kind[1]))
            if kind[0] == "sym":
                return Mem(Sym(kind[1]))
            raise InternalError("lower", f"'{e.name}' lives in a register")
        if isinstance(e, A.Unary) and e.op == "*":
            return Mem(self.as_reg(self.rvalue(e.operand), 64))
        if isinstance(e, A.Index):
            base = self.rvalue(e.base)
            return self.element(base, e.index, e.ty)
        if isinstance(e, A.Member):
            if e.arrow:
                base = Mem(self.as_reg(self.rvalue(e.base), 64))
                st = T.unqual(T.unqual(e.base.ty).base)
            else:
                if isinstance(strip_bool_casts(e.base), A.Name) and getattr(strip_bool_casts(e.base).decl, "space", "") == "builtin":
                    raise Unsupported("the address of a built-in variable cannot be taken", e.loc)
                base = self.address(e.base)
                st = T.unqual(e.base.ty)
            return Mem(base.base, base.offset + st.info.fields[e.name][1])
        if isinstance(e, A.StringLit):
            return Mem(Sym(self.lowering.string(e.value)))
        if isinstance(e, A.Assign) and isinstance(T.unqual(e.ty), T.Struct):   # `(p = q).y`
            return self.assign_struct(e)
        if isinstance(e, A.Construct) and getattr(e, "ctor", None) is not None:
            made = self.construct_at(e, Mem(Sym("frame", self.frame_slot(T.unqual(e.ty)))))
            self.temporary(made, e.ty)
            return made
        if isinstance(e, A.Construct):
            return self.construct_in_frame(e)
        if isinstance(e, A.InitList):
            off = self.frame_slot(T.unqual(e.ty))
            for i in range(0, T.unqual(e.ty).size, 4):
                self.store(Mem(Sym("frame", off + i)), Imm(0), T.UINT, "STL")
            self.init_memory(Sym("frame", off), T.unqual(e.ty), e, "STL")
            return Mem(Sym("frame", off))
        if isinstance(e, A.Call) and isinstance(T.unqual(e.ty), T.Struct):   # (make_int2 & co. too)
            return self.call_into(e, None)
        if isinstance(e, A.Cast) and e.implicit and isinstance(T.unqual(e.ty), T.Struct):
            return self.address(e.operand)
        if isinstance(e, A.Call):
            raise Unsupported("a struct returned by value is not supported", e.loc)
        if isinstance(e, A.Conditional) and isinstance(T.unqual(e.ty), T.Struct):
            return self.conditional_object(e)
        raise InternalError("lower", f"not an lvalue: {type(e).__name__}")

    def conditional_object(self, e: A.Conditional) -> Mem:
        """`c ? a : b` of class type: the chosen arm's object built in a frame slot of its own."""
        t = T.unqual(e.ty)
        slot = Sym("frame", self.frame_slot(t))
        then_l, else_l, end_l = self.label(), self.label(), self.label()
        self.branch(e.cond, then_l, else_l, then_l)
        for label, arm in ((then_l, e.then), (else_l, e.else_)):
            self.start(label)
            self.without_temporaries(lambda: self.init_memory(slot, t, arm, "STL"))
            self.jump(end_l)
        self.start(end_l)
        self.temporary(Mem(slot), t)
        return Mem(slot)

    def element(self, base, index: A.Expr, elem_t: T.Type) -> Mem:
        size = max(T.unqual(elem_t).size, 1) if not isinstance(T.unqual(elem_t), T.Function) else 1
        idx = self.rvalue(index)
        if isinstance(idx, Imm):
            return Mem(self.as_reg(base, 64), idx.value * size) if not isinstance(base, Imm) else Mem(self.as_reg(base, 64), idx.value * size)
        addr = self.reg("rd")
        self.emit("IMAD", ("S64",), (addr,), (idx, Imm(size), base))
        return Mem(addr)

    def as_reg(self, v, bits: int) -> Reg:
        if isinstance(v, Reg):
            return v
        r = self.reg("rd" if bits == 64 else "r")
        self.emit("MOV", dsts=(r,), srcs=(v,))
        return r

    def address_value(self, e: A.Expr) -> Reg:
        return self.mem_address(self.address(e))

    def mem_address(self, mem: Mem) -> Reg:
        """The address `mem` names, in a register."""
        r = self.reg("rd")
        if isinstance(mem.base, Sym):
            self.emit("MOV", dsts=(r,), srcs=(Sym(mem.base.name, mem.base.offset + mem.offset),))
        elif mem.offset:
            self.emit("IADD", ("S64",), (r,), (mem.base, Imm(mem.offset)))
        else:
            return mem.base
        return r

    def load(self, mem: Mem, t: T.Type, op: str = "LDG"):
        t = T.unqual(t)
        r = self.reg(t)
        self.emit(op, (mem_width(t),) if mem_width(t) != "32" else (), (r,), (mem,))
        return r

    def store(self, mem: Mem, value, t: T.Type, op: str = "STG") -> None:
        t = T.unqual(t)
        self.emit(op, (mem_width(t),) if mem_width(t) != "32" else (), (), (mem, value))

    def store_to(self, target: A.Expr, value) -> None:
        target = strip_decay(target)
        if isinstance(target, A.Name):
            kind = self.storage(target.decl)
            if kind[0] == "reg":
                self.emit("MOV", dsts=(kind[1],), srcs=(value,))
                return
            self.store(self.address(target), value, target.ty, self.space_op(target.decl, load=False))
            return
        self.store(self.address(target), value, target.ty, self.access_op(target, load=False))

    def read(self, target: A.Expr):
        target = strip_decay(target)
        if isinstance(target, A.Name):
            return self.e_Name(target)
        return self.load(self.address(target), target.ty, self.access_op(target, load=True))

    def access_op(self, e: A.Expr, load: bool) -> str:
        """The memory op for an lvalue: by its variable's space when it is one."""
        root = e
        while isinstance(root, (A.Member, A.Index)) and not (isinstance(root, A.Member) and root.arrow):
            base = strip_decay(root.base)
            if isinstance(root, A.Index) and not isinstance(T.unqual(base.ty), T.Array):
                return "LDG" if load else "STG"
            root = base
        if isinstance(root, A.Name) and not isinstance(root, A.Member):
            return self.space_op(root.decl, load)
        return "LDG" if load else "STG"

    def launch_ids_copy(self, e: A.Name) -> Mem:
        """threadIdx, blockIdx, blockDim or gridDim as a whole (`uint3 t = threadIdx;`): a
        frame slot holding its x, y and z, each read from its special register."""
        t = T.unqual(e.ty)
        slot = Sym("frame", self.frame_slot(t))
        for name, (member_type, off) in t.info.fields.items():
            r = self.reg("r")
            self.emit("S2R", dsts=(r,), srcs=(Special(f"{SPECIAL_REGISTERS[e.decl.name]}.{name.upper()}"),))
            self.emit("STL", (), (), (Mem(slot, off), r))
        return Mem(slot)

    def copy_struct(self, dst: Mem, src: Mem, t: T.Type, store_op: str, source: A.Expr | None = None) -> None:
        """Copy the struct at `src` to `dst`; the source expression `source`, when given, may
        say it is in shared or constant memory (LDS or LDC: a float4 element of a
        __constant__ array is one LDC.128, as nvcc's; else the generic LDG)."""
        load_op = "LDL" if isinstance(src.base, Sym) and src.base.name == "frame" else "LDG"
        if load_op == "LDG" and source is not None and self.access_op(source, load=True) in ("LDS", "LDC"):
            load_op = self.access_op(source, load=True)
        for off, width in copy_pieces(t):
            r = self.reg(piece_register(width))
            self.emit(load_op, width_mods(width), (r,), (Mem(src.base, src.offset + off),))
            self.emit(store_op, width_mods(width), (), (Mem(dst.base, dst.offset + off), r))
