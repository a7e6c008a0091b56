"""A function too large for LLVM to compile quickly runs on the interpreter under the
JIT engine, with the same output and metrics; a kernel calling one stays compiled."""
import io

import minicuda
from helpers import ROOT
from minicuda.bench.compile_scale import live_program, switch_program
from minicuda.vm.code import Code
from minicuda.vm.jit import engine as jit_engine
from minicuda.vm.jit.module import module_ir
from minicuda.vm.machine import Machine


def run(prog, engine: str) -> tuple[bytes, list]:
    out = io.BytesIO()
    m = Machine(prog, engine=engine, stdout=out, stderr=io.BytesIO())
    assert m.run(["prog"]) == 0
    return out.getvalue(), [l.as_dict() for l in m.launches]


def test_a_function_past_the_instruction_limit_is_not_compiled(monkeypatch):
    prog = minicuda.compile(switch_program(12))
    code = Code(prog.functions["pick"])
    monkeypatch.setattr(jit_engine, "MAX_COMPILE_INSTRS", len(code.instrs) - 1)
    assert jit_engine.too_large_to_compile(code)
    assert jit_engine.compile_function(code, "its", 32, True) is None
    monkeypatch.setattr(jit_engine, "MAX_COMPILE_INSTRS", len(code.instrs))
    assert not jit_engine.too_large_to_compile(code)


def test_the_cost_limit_reads_the_modules_text_times_the_rows(monkeypatch):
    code = Code(minicuda.compile(live_program(10)).functions["live"])
    text = "x" * 1000
    monkeypatch.setattr(jit_engine, "MAX_COMPILE_COST", 1000 * code.rows)
    assert not jit_engine.too_large_to_compile(code, text)
    assert jit_engine.too_large_to_compile(code, text + "x")


def test_too_large_kernels_and_host_code_run_on_the_interpreter_with_its_results(monkeypatch):
    """Every function over the limit: the kernel's launch and main run interpreted, and
    give what the interpreter engine gives."""
    prog = minicuda.compile(switch_program(12))
    monkeypatch.setattr(jit_engine, "MAX_COMPILE_INSTRS", 0)
    out, launches = run(prog, "jit")
    assert out == b"switch ok 12\n"
    assert (out, launches) == run(prog, "interp")


def test_the_samples_functions_stay_compiled():
    """The limit leaves every function of the textbook samples to native code (the
    largest, reduceInteger's main, is three quarters of it)."""
    for name in ("reduceInteger.cu", "sumMatrix.cu", "simpleDivergence.cu", "vectorAdd.cu"):
        prog = minicuda.compile(ROOT / "samples" / name)
        for fn in prog.functions.values():
            code = Code(fn)
            kernel = fn.kind == "kernel"
            symbols = sorted(s for s in prog.module.globals)
            text, _ = module_ir(code, prog.module.sched if kernel else "stack", 32 if kernel else 1, symbols, kernel)
            assert not jit_engine.too_large_to_compile(code, text), (name, fn.name)
