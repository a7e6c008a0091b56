"""The compiler driver: source -> checked AST -> IR -> passes by -O level -> SASS-like text.

Lowering, then (from -O1) inlining of device functions, then per function the
passes of the -O level: `minicuda.pipeline.PIPELINES` lists them by name, one
screen, resolved through the pass registry `minicuda.pipeline.PASSES`.
`compile_program` returns a `CompiledProgram`: the module, the SASS-like text, the
resource usage of every function and the predication decision of every branch.
The module is all the VM needs (see minicuda/ir.py): its arch, the scheduling model
its reconvergence markers are placed for (the arch's, or `Options.sched` when
forced), and the layouts of the structs the runtime writes for the program.

While a module compiles, the objects that exist already (the AST, then the lowered
module, then each function as its passes finish) are frozen out of Python's cycle
collector (`old_objects_frozen`, `freeze_survivors`): its full collections would walk
them again and again, a cost that grows with the program.

A program of several translation units (`link_program`, as `nvcc a.cu b.cpp` builds
one) compiles each unit alone (`compile_unit`: the unit's module and symbols, what
`minicudac -c` writes as an object file) and links them (minicuda/linker.py).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from minicuda.arch import parse_arch
from minicuda.diagnostics import CompileError, DiagnosticEngine, InternalError
from minicuda.frontend import Frontend, load
from minicuda.grammar.collector import freeze_survivors
from minicuda.grammar.languages import CUDA, language_of
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.sema.link import check_references
from minicuda.grammar.sema.targets import check_device_launches, check_target_builtins
from minicuda.ir import Function, Module, StructLayout, format_function, format_module, verify
from minicuda.linker import RDC_HINT, ObjectUnit, is_device_code, link, link_namer, unit_symbols
from minicuda.passes.release_code import mark_release_code
from minicuda.passes.inline import inline_device_calls
from minicuda.passes.lower import lower
from minicuda.passes.regalloc import resource_usage
from minicuda.pipeline import Options, pipeline, run_passes
from minicuda.timing import TIMES
from minicuda.vm.launcher import Device

# runtime calls that write a struct of the program's: the struct's layout goes into the module
RUNTIME_STRUCTS = {"cudaGetDeviceProperties": "cudaDeviceProp", "cudaPointerGetAttributes": "cudaPointerAttributes",
                   "cudaFuncGetAttributes": "cudaFuncAttributes"}


@dataclass
class CompiledProgram:
    frontend: Frontend
    module: Module
    options: Options
    ir_before: dict[str, str] = field(default_factory=dict)   # function -> IR text right after lowering
    units: list = field(default_factory=list)   # a linked program's inputs: Frontends and ObjectUnits
    rdc: bool = False                           # its units' device code is relocatable (-rdc=true)

    @property
    def arch(self) -> str:
        return f"sm_{self.options.arch}"

    @property
    def functions(self) -> dict[str, Function]:
        return self.module.functions

    @property
    def branch_decisions(self) -> list:
        return [d for fn in self.module.functions.values() for d in fn.branch_decisions]

    @property
    def resource_usage(self) -> dict:
        return {name: resource_usage(fn, self.arch) for name, fn in self.module.functions.items()}

    def module_for(self, sched: str | None = None) -> Module:
        """The module to run under `sched`: this one when its markers are placed for that
        model (or for None and the scalar reference, which never diverges); else the
        program compiled again with the model forced (once)."""
        if sched in (None, "scalar", self.module.sched):
            return self.module
        cache = self.__dict__.setdefault("_modules", {})
        if sched not in cache:
            options = replace(self.options, sched=sched)
            if self.units:
                cache[sched] = link_program(self.units, options, self.rdc).module
            else:
                cache[sched], _ = compile_module(self.frontend, options)
        return cache[sched]

    def sass(self) -> str:
        sources = [getattr(u, "filename", "") for u in self.units] or [self.frontend.filename]
        head = [f"// minicuda sass-like output for {self.arch}, -O{self.options.opt}",
                f"// source: {', '.join(sources)}",
                f"// scheduling model: {'per-warp reconvergence stack' if self.options.stack_arch else 'independent thread scheduling'}"]
        return "\n".join(head) + "\n" + format_module(self.module)

    def ir(self) -> str:
        return format_module(self.module)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: functions, predication decisions and the launches so far
        (minicuda/report/notebook.py)."""
        from minicuda.report.notebook import program_html
        return program_html(self)

    def device(self, sched: str | None = None):
        """The VM this program's kernels launch on from Python (one per program and model)."""
        cache = self.__dict__.setdefault("_devices", {})
        if sched not in cache:
            cache[sched] = Device(self, sched)
        return cache[sched]

    def __getattr__(self, name: str):
        """`program.kernel[grid, block](array, n)`, as Numba users write it: copies numpy
        arrays in and back and returns the launch's metrics."""
        functions = self.__dict__.get("module").functions if "module" in self.__dict__ else {}
        fn = functions.get(name)
        if fn is None or fn.kind != "kernel":
            raise AttributeError(f"'{name}' is not a kernel of this program")
        return _KernelHandle(self, name)


class _KernelHandle:
    def __init__(self, program: CompiledProgram, name: str):
        self.program, self.name = program, name

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 3:
            raise TypeError(f"launch {self.name} as {self.name}[grid, block] or [grid, block, shared_bytes]")
        grid, block = config[:2]
        shared = config[2] if len(config) > 2 else 0
        return lambda *args: self.program.device().launch(self.name, grid, block, *args, shared=shared)


def compile_program(path_or_source, arch: str | int = "sm_70", opt: int = 3, options: Options | None = None,
                    include_dirs=(), defines=(), diags: DiagnosticEngine | None = None, language: str = CUDA,
                    rdc: bool = False) -> CompiledProgram:
    """One program: a source (a path, the text, a SourceText) compiled as `language`, or a
    list of source paths, each compiled as its suffix says, and linked."""
    options = options or Options()
    options.arch = arch if isinstance(arch, int) else parse_arch(arch)
    options.opt = opt
    options.rdc = options.rdc or rdc
    if isinstance(path_or_source, (list, tuple)):
        units = [load(p, include_dirs, defines, bracket_depth=options.bracket_depth, language=language_of(str(p)))
                 for p in path_or_source]
        return link_program(units, options, rdc)
    fe = load(path_or_source, include_dirs, defines, diags=diags, bracket_depth=options.bracket_depth,
              language=language)
    return compile_frontend(fe, options)


def compile_frontend(fe: Frontend, options: Options) -> CompiledProgram:
    """One program from its checked source: linked alone, lowered, through the passes."""
    check_references(fe.tu, fe.diags)   # the link: a used function without a definition (not in -fsyntax-only)
    fe.diags.check()
    module, ir_before = compile_module(fe, options)
    return CompiledProgram(fe, module, options, ir_before)


def compile_unit(fe: Frontend, options: Options, rdc: bool = False) -> tuple[ObjectUnit, dict[str, str]]:
    """One translation unit of a program of several, compiled alone: (the unit, each
    function's IR text right after lowering); CompileError for a device function it calls
    and cannot link (without `rdc`)."""
    options.rdc = options.rdc or rdc
    hint = None if rdc else RDC_HINT
    check_references(fe.tu, fe.diags, lambda owner, fn: rdc or not is_device_code(owner), hint)
    fe.diags.check()
    module, ir_before = compile_module(fe, options, link_namer(fe.language))
    symbols = unit_symbols(fe.tu, fe.language, rdc, fe.diags.warning)
    return ObjectUnit(fe.filename, module, symbols, rdc), ir_before


def link_program(units: list, options: Options, rdc: bool = False) -> CompiledProgram:
    """The program of `units` (Frontends, compiled here with `options`, and ObjectUnits
    read from object files), linked; LinkError when a symbol is undefined or defined twice."""
    compiled, ir_before = [], {}
    for unit in units:
        if isinstance(unit, Frontend):
            unit, ir = compile_unit(unit, options, rdc)
            ir_before.update({f"{unit.filename}:{name}": text for name, text in ir.items()})
        compiled.append(unit)
    module = link(compiled)
    first = next((u for u in units if isinstance(u, Frontend)), None)
    return CompiledProgram(first, module, options, ir_before, list(units), rdc)


def compile_module(fe: Frontend, options: Options, link_name=None) -> tuple[Module, dict[str, str]]:
    """The checked program lowered and run through the passes: (module, each function's
    IR text right after lowering); `link_name` names the functions of a unit of several."""
    check_target_builtins(fe.tu, options.arch, fe.diags)
    check_device_launches(fe.tu, options.arch, options.rdc, fe.diags)
    fe.diags.check()
    with old_objects_frozen():   # the AST
        return _compile_module(fe, options, link_name)


@contextmanager
def old_objects_frozen():
    """Python's cycle collector leaves the objects that exist now (and those a
    `gc.freeze()` inside adds) alone until the block ends; then they are collected as
    before, so nothing outlives its compile."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _compile_module(fe: Frontend, options: Options, link_name) -> tuple[Module, dict[str, str]]:
    try:
        with TIMES.phase("compile: lower"):
            module = lower(fe.tu, f"sm_{options.arch}", link_name, options.fast_math, options.flush_denormals,
                           g_shape=options.opt == 0)
    except CompileError:
        raise
    except Exception as e:
        raise InternalError("lower", f"{type(e).__name__}: {e}") from e
    module.sched = "stack" if options.stack_arch else "its"
    module.structs = runtime_structs(fe.tu, module)
    try:
        with TIMES.phase("compile: inline"):
            inline_device_calls(module, forced_only=options.opt == 0)
    except Exception as e:
        raise InternalError("inline", f"{type(e).__name__}: {e}") from e
    passes = pipeline(options)
    ir_before = {}
    gc.freeze()   # the lowered module too
    for fn in module.functions.values():
        verify(fn, "lower")
        ir_before[fn.name] = format_function(fn)
        run_passes(fn, passes, options, module)
        verify(fn, "pipeline")
        freeze_survivors()   # its compiled code, out of the full collections' way
    if options.opt > 0:
        mark_release_code(module)
    return module, ir_before


def runtime_structs(tu: A.TranslationUnit, module: Module) -> dict[str, StructLayout]:
    """The layouts of the structs the runtime writes through the runtime calls the module makes."""
    called = {ins.srcs[0].name for fn in module.functions.values() for ins in fn.instructions()
              if ins.op == "CALL" and "RT" in ins.mods and ins.srcs[0].name in RUNTIME_STRUCTS}
    layouts = {}
    if not called:   # (the common case: no walk over the whole AST)
        return layouts
    for call in _calls(tu):
        decl = call.decl
        if decl is not None and decl.name in called and decl.ty is not None:
            info = T.unqual(decl.ty.params[0]).base.info
            fields = {name: (offset, ty.size) for name, (ty, offset) in (info.fields or {}).items()}
            layouts[info.name] = StructLayout(info.name, info.size, fields)
    return layouts


def _calls(node: A.Node):
    """Every call expression under `node`."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Call):
            yield n
        stack.extend(n.children())
