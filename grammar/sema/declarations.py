"""Declarations: typedefs, variables with their CUDA memory space and initializer,
and functions with their execution space and overload set.

Every variable gets `ty`, `space` (local, host, global, shared, constant, or builtin
for threadIdx and friends from the system headers) and its initializer converted to
its type.  Every function gets `exec_space` ({"global"}, or a subset of {"host",
"device"}), `ty` and `params`, and joins the `Overloads` of its name in the global
scope: a definition replaces its prototype there (taking the prototype's default
arguments), so each signature appears once.  File-scope variables the user declares
are listed in `global_vars`, in order.  A name whose declaration failed is
`poisoned`: later uses of it are not reported again.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar.sema.scopes import Abort, Overloads, TypedefSym

BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}


def space_name(space: frozenset) -> str:
    if "global" in space:
        return "__global__"
    if space == {"host", "device"}:
        return "__host__ __device__"
    return "__device__" if "device" in space else "__host__"


class Declarations:
    """Needs from the analyser: the scopes (`scope`, `globals`, `poisoned`), `fn` (the
    function whose body is being checked, or None), `global_vars`, the declarators'
    `base_type`/`declarator_type`, and `convert`, `construct` and `value`."""

    def declaration(self, decl: A.Declaration, top_level: bool = False) -> None:
        specs = decl.specs
        if specs.type_words == ["auto"] and "typedef" not in specs.storage:   # C++'s deduced type (cxx.py)
            for v in decl.decls:
                try:
                    ty = self.deduced_type(v)
                    self.variable(v, T.qualified(ty, const=ty.const or "const" in specs.qualifiers), top_level)
                except Abort:
                    self.poisoned.add(v.name)
            return
        try:
            base = self.function_base(specs, decl.decls[0].declarator) if decl.decls else self.base_type(specs)
        except Abort:
            self.poisoned.update(v.name for v in decl.decls)
            raise
        if "typedef" in specs.storage:
            for v in decl.decls:
                ty = self.declarator_type(base, v.declarator)
                self.scope.names[v.name] = TypedefSym(v.name, ty, v.loc)
            return
        for v in decl.decls:
            try:
                if v.declarator.params_suffix is not None and v.init is None and v.declarator.ctor_args is None:
                    fn = A.FunctionDef(specs, v.declarator, None, name=v.name, loc=v.loc)
                    self.declare_function(fn)
                    continue
                self.variable(v, base, top_level)
            except Abort:
                if self.scope.names.get(v.name) is not v:
                    self.poisoned.add(v.name)  # reported once, at its declaration

    # ---- variables ------------------------------------------------------------------------
    def variable(self, v: A.VarDecl, base: T.Type, top_level: bool) -> None:
        if v.declarator.qualifier is not None:
            self.define_static_member(v)
        ty = self.declarator_type(base, v.declarator)
        v.is_global_scope = top_level
        self.variable_space(v, top_level)
        v.ty = self.complete_variable_type(v, ty)
        self.bind_variable(v, top_level)
        self.variable_initializer(v, top_level)
        if v.static_local:
            self.static_local(v)
        if top_level and not is_system_location(v.loc):
            self.global_vars.append(v)

    def static_local(self, v: A.VarDecl) -> None:
        """A static local lives beside the file's variables, under a name of its own
        (`main::count`), initialised once before the program starts: so its initialiser
        must be a constant, as C requires."""
        if v.init is not None and not self.is_static_initializer(v.init):
            self.fail("a static local variable's initializer must be a constant expression "
                      "(dynamic initialization of static locals is not supported)", v.init.loc)
        name = f"{self.fn.name if self.fn is not None else ''}::{v.name}"
        n = 1
        while name in self.static_local_names:
            n += 1
            name = f"{self.fn.name}::{v.name}.{n}"
        self.static_local_names.add(name)
        v.name = name
        self.global_vars.append(v)

    def is_static_initializer(self, init) -> bool:
        if isinstance(init, A.InitList):
            return all(self.is_static_initializer(i) for i in init.items)
        if isinstance(init, A.Cast) and isinstance(init.operand, A.StringLit):   # a literal's address
            return True
        if isinstance(init, A.StringLit):
            return True
        return T.is_scalar(init.ty) and self.const_eval(init) is not None

    def variable_space(self, v: A.VarDecl, top_level: bool) -> None:
        """Where the variable lives, from its CUDA specifiers and where it is declared."""
        cuda = set(v.specs.cuda)
        if "__shared__" in cuda:
            v.space = "shared"
            if not top_level and self.fn is not None and "host" in self.fn.exec_space and "device" not in self.fn.exec_space:
                self.fail('a static "__shared__" variable declaration is not allowed inside a host function body', v.loc)
            if v.init is not None:
                self.error("initialization is not supported for __shared__ variables", v.init.loc)
        elif "__constant__" in cuda:
            v.space = "constant"
            if not top_level:
                self.fail("a \"__constant__\" variable declaration is not allowed inside a function body", v.loc)
        elif "__managed__" in cuda and top_level:   # one object host and device code both reach
            v.space = "managed"
        elif "__device__" in cuda and top_level:
            v.space = "builtin" if v.name in BUILTIN_VARIABLES and is_system_location(v.loc) else "global"
        elif top_level:
            v.space = "host"
        elif "static" in v.specs.storage:   # a static local: one object for the program's run
            space = self.fn.exec_space if self.fn is not None else {"host"}
            if "host" in space and "device" in space:
                self.fail("static local variables in __host__ __device__ functions are not supported", v.loc)
            v.space, v.static_local = ("host" if "host" in space else "global"), True

    def complete_variable_type(self, v: A.VarDecl, ty: T.Type) -> T.Type:
        """`ty` with an array's length taken from the initializer; an incomplete type is an error."""
        storage = v.specs.storage
        if isinstance(ty, T.Array) and ty.length is None:
            if isinstance(v.init, A.InitList):
                ty = T.Array(elem=ty.elem, length=len(v.init.items), const=ty.const)
            elif isinstance(v.init, A.StringLit):
                ty = T.Array(elem=ty.elem, length=len(v.init.value) + 1, const=ty.const)
            elif not ("extern" in storage and v.space == "shared") and "extern" not in storage:
                self.fail(f"definition of variable with array type needs an explicit size or an initializer", v.loc)
        if T.is_void(ty):
            self.fail("variable has incomplete type 'void'", v.loc)
        if isinstance(ty, T.Struct) and ty.info.fields is None and "extern" not in storage:
            self.fail(f"variable has incomplete type '{ty}'", v.loc)
        if isinstance(ty, T.Function):
            self.fail("function definition is not allowed here", v.loc)
        if isinstance(ty, T.Reference) and v.is_global_scope:
            self.fail(f"a reference at file scope ('{v.name}') is not supported", v.loc)
        return ty

    def bind_variable(self, v: A.VarDecl, top_level: bool) -> None:
        """Enter `v` in the current scope; a second definition is an error (extern ones aside)."""
        prev = self.scope.names.get(v.name)
        if prev is not None and not (top_level and isinstance(prev, A.VarDecl) and ("extern" in prev.specs.storage or "extern" in v.specs.storage)):
            self.error(f"redefinition of '{v.name}'", v.loc)
            if getattr(prev, "loc", None) is not None:
                self.diags.note("previous definition is here", prev.loc)
        self.scope.names[v.name] = v

    def variable_initializer(self, v: A.VarDecl, top_level: bool) -> None:
        ty = v.ty
        braced = v.declarator.ctor_args if v.declarator.braced else v.init.items if isinstance(v.init, A.InitList) \
            else None
        if braced and (list_type := self.initializer_list_parameter(ty)) is not None:   # cxx.py
            v.init = self.construct_object(T.unqual(ty), [self.initializer_list(list_type, braced, v.loc)], v.loc)
        elif v.declarator.braced and isinstance(T.unqual(ty), (T.Struct, T.Array)) and not self.has_ctors(ty):
            v.init = self.init_list(A.InitList(v.declarator.ctor_args, loc=v.loc), ty)
        elif v.declarator.ctor_args is not None:
            v.init = self.construct(ty, v.declarator.ctor_args, v.loc)
        elif v.init is not None:
            v.init = self.initializer(v.init, ty)
        elif isinstance(ty, T.Reference):
            self.error(f"declaration of reference variable '{v.name}' requires an initializer", v.loc)
        elif self.default_ctors(ty) and "extern" not in v.specs.storage:
            self.default_construct(v)
        elif ty.const and not top_level and "extern" not in v.specs.storage:
            self.error(f"default initialization of an object of const type '{ty}'", v.loc)

    def initializer(self, init, ty: T.Type):
        if isinstance(init, A.InitList):
            return self.init_list(init, ty)
        if isinstance(ty, T.Array) and isinstance(init, A.StringLit) and T.unqual(ty.elem) in (T.CHAR, T.Prim(name="unsigned char"), T.Prim(name="signed char")):
            init.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(init.value) + 1)
            if ty.length is not None and len(init.value) > ty.length:
                self.error(f"initializer-string for char array is too long", init.loc)
            return init
        if isinstance(ty, T.Array):
            self.fail("array initializer must be an initializer list", init.loc)
        return self.convert(self.value(init), ty, "initializing", init.loc)

    def init_list(self, init: A.InitList, ty: T.Type):
        """`{...}` for an array, a struct or a scalar."""
        init.ty = ty
        if isinstance(ty, T.Array):
            if ty.length is not None and len(init.items) > ty.length:
                self.error("excess elements in array initializer", init.items[ty.length].loc)
            init.items = [self.initializer(i, ty.elem) for i in init.items]
        elif isinstance(ty, T.Struct):
            fields = list(ty.info.fields.values())
            if len(init.items) > len(fields):
                self.error("excess elements in struct initializer", init.items[len(fields)].loc)
            init.items = [self.initializer(i, f[0]) for i, f in zip(init.items, fields)]
        elif len(init.items) == 1:
            return self.initializer(init.items[0], ty)
        elif not init.items and T.is_scalar(ty):
            zero = A.IntLit(0, "0", loc=init.loc)
            zero.ty = T.INT
            return self.convert(zero, ty, "initializing", init.loc)
        else:
            self.fail(f"excess elements in scalar initializer", init.loc)
        return init

    # ---- functions ------------------------------------------------------------------------
    def function_space(self, fn: A.FunctionDef) -> frozenset:
        cuda = set(fn.specs.cuda)
        if "__global__" in cuda:
            if cuda & {"__device__", "__host__"}:
                self.error(f"a __global__ function cannot also be declared {'__device__' if '__device__' in cuda else '__host__'}", fn.loc)
            return frozenset({"global"})
        space = set()
        if "__device__" in cuda:
            space.add("device")
        if "__host__" in cuda or not space:
            space.add("host")
        for bad in ("__shared__", "__constant__"):
            if bad in cuda:
                self.error(f"'{bad}' cannot be applied to a function", fn.loc)
        return frozenset(space)

    def declare_function(self, fn: A.FunctionDef) -> None:
        fn.exec_space = self.function_space(fn)
        # (a bundled header's inline declaration is defined by a bundled header: <math.h>'s frexp)
        fn.is_builtin = fn.body is None and is_system_location(fn.loc) and "inline" not in fn.specs.storage
        if fn.is_template:
            self.add_overload(fn, check_signature=False)
            return
        base = self.function_base(fn.specs, fn.declarator)
        params: list[A.ParamDecl] = []
        if fn.declarator.ctor_args is not None:  # `void k(Foo *p)`: Foo read as a value
            for arg in fn.declarator.ctor_args:
                name = next((n for n in A.walk(arg) if isinstance(n, A.Name)), None)
                if name is not None and self.scope.lookup(name.name) is None:
                    self.fail(f"unknown type name '{name.name}'", name.loc)
        ty = self.declarator_type(base, fn.declarator, params)
        if not isinstance(ty, T.Function):
            self.fail(f"expected function declarator for '{fn.name}'", fn.loc)
        fn.ty, fn.params = ty, params
        self.check_launch_bounds(fn)
        if "global" in fn.exec_space and not T.is_void(ty.ret):
            self.error("a __global__ function must have a void return type", fn.loc)
        if fn.name == "main" and not T.unqual(ty.ret) == T.INT:
            self.error("'main' must return 'int'", fn.loc)
        self.add_overload(fn, check_signature=True)

    def check_launch_bounds(self, fn: A.FunctionDef) -> None:
        """`__launch_bounds__(maxThreads[, minBlocks[, maxBlocksPerCluster]])`: integer constants,
        kept on the function (the launch checks them against the block it is given)."""
        exprs = fn.specs.launch_bounds
        if len(exprs) > 3:
            self.error("'__launch_bounds__' attribute takes no more than 3 arguments", exprs[3].loc)
        values = []
        for i, e in enumerate(exprs[:3]):
            v = self.value(e)
            n = self.const_eval(v) if T.is_integer(v.ty) else None
            if n is None:
                self.error(f"'__launch_bounds__' attribute requires parameter {i} to be an integer constant", e.loc)
                return
            values.append(int(n))
        fn.launch_bounds = tuple(values)

    def add_overload(self, fn: A.FunctionDef, check_signature: bool) -> None:
        names = self.namespace_scope().names   # the file's, or a namespace's (cxx.py)
        sym = names.get(fn.name)
        if sym is None:
            sym = Overloads(fn.name)
            names[fn.name] = sym
        elif not isinstance(sym, Overloads):
            self.fail(f"redefinition of '{fn.name}' as different kind of symbol", fn.loc)
        if check_signature:
            same = next((other for other in sym.functions if not other.is_template and other.ty is not None
                         and _same_params(other.ty, fn.ty)), None)
            if same is not None:
                self.redeclare_function(sym, same, fn)
                return
        sym.functions.append(fn)

    def redeclare_function(self, sym: Overloads, other: A.FunctionDef, fn: A.FunctionDef) -> None:
        """`fn` has the parameters of `other`, declared before: the same function again."""
        if T.unqual(other.ty.ret) != T.unqual(fn.ty.ret):
            self.fail(f"functions that differ only in their return type cannot be overloaded", fn.loc)
        if other.body is not None and fn.body is not None:
            self.error(f"redefinition of '{fn.name}'", fn.loc)
            self.diags.note("previous definition is here", other.loc)
            return
        if other.exec_space != fn.exec_space and not other.is_builtin:
            self.error(f"redeclaration of '{fn.name}' with different execution space "
                       f"({space_name(fn.exec_space)} vs {space_name(other.exec_space)})", fn.loc)
        if fn.body is not None:  # the definition replaces the prototype
            _copy_defaults(other, fn)
            fn.launch_bounds = fn.launch_bounds or other.launch_bounds
            sym.functions[sym.functions.index(other)] = fn


def _same_params(a: T.Function, b: T.Function) -> bool:
    return len(a.params) == len(b.params) and a.variadic == b.variadic and \
        all(T.unqual(x) == T.unqual(y) for x, y in zip(a.params, b.params))


def _copy_defaults(proto: A.FunctionDef, definition: A.FunctionDef) -> None:
    for p, q in zip(proto.params, definition.params):
        if q.default is None and p.default is not None:
            q.default = p.default
