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


TWICE = r"""
#include <cstdio>
__global__ void bump(int *x) { x[threadIdx.x] += threadIdx.x; }
int main(void) {
  int *d, h[32] = {0};
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  for (int i = 0; i < 3; i++) bump<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[1], h[31]);
  return 0;
}
"""


def test_a_function_left_to_the_interpreter_is_named_once_on_stderr_unless_quiet(tmp_path, monkeypatch, capsys):
    """The run says which functions the JIT left to the interpreter, and why, once each
    however often they run; -q leaves the notes out; the output is the same."""
    from minicuda.cli import minicuda_main   # noqa: PLC0415
    src = tmp_path / "twice.cu"
    src.write_text(TWICE)
    monkeypatch.setattr(jit_engine, "MAX_COMPILE_INSTRS", 0)
    assert minicuda_main(["run", str(src)]) == 0
    out, err = capsys.readouterr()
    assert out == "3 93\n"
    notes = [line for line in err.splitlines() if "note:" in line]
    assert len(notes) == 2, err
    for name, note in zip(("main", "bump"), notes):   # main runs first, then the kernel's 3 launches
        assert note.startswith(f"minicuda: note: '{name}' runs on the interpreter: its native code would be "
                               f"too large to compile (")
        assert note.endswith(" instructions, more than 0)")
    assert minicuda_main(["run", "-q", str(src)]) == 0
    out, err = capsys.readouterr()
    assert out == "3 93\n" and "note:" not in err


def test_a_function_within_the_limits_has_no_note(tmp_path, capsys):
    from minicuda.cli import minicuda_main   # noqa: PLC0415
    src = tmp_path / "twice.cu"
    src.write_text(TWICE)
    assert minicuda_main(["run", str(src)]) == 0
    assert "note:" not in capsys.readouterr().err
