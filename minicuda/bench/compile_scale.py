"""minicuda bench --compile-scaling: how compile time grows with the program's size.

Generated programs of five shapes, each a whole program whose main checks what its
kernel computed and prints one line saying so:

- `file`: a long file of many small `__device__`, `__host__ __device__` and
  `__host__` functions and kernels, and one long main calling the host ones
  (size: lines);
- `switch`: a kernel switching on its thread index over N cases, each assigning a
  different value (size: cases);
- `live`: a kernel loading N values into locals, then summing them in reverse
  order, so that all N are live at once (size: values);
- `straight`: a kernel whose body is N straight-line statements (size: statements);
- `loops`: a kernel of N small loops one after the other (size: loops);
- `elseif`: a kernel choosing its value through an `if / else if` chain of N arms
  (size: arms);
- `inc`: a main of N statements `x = x + k;` (size: statements): one long host
  function.

`measure` times every stage of compiling one of them: preprocess, parse, sema,
lowering, inlining, each pass of the -O pipeline (summed over the functions), the
collection that freezes each compiled function (`collect`, as the compiler does), the
printer, and the JIT's compile of main and the kernels it launches, as a run
compiles them (without its disk cache; a function too large for LLVM is left to the
interpreter, which costs nothing here; the `file` shape's other kernels are never
launched, and its host functions are compiled as a run calls them);
`run_scaling` does it at a few sizes
per shape and the report gives the CPU seconds per stage (`time.process_time`: what
another process's load on a shared machine does not inflate) and the growth ratio from
one size to the next, over the size's (1.0 when linear).  Nothing here runs the
programs: tests/minicuda/test_compile_scale.py does, at small sizes.
"""
from __future__ import annotations

import gc
import os
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field

from minicuda.compiler import CompiledProgram, old_objects_frozen, runtime_structs
from minicuda.diagnostics import DiagnosticEngine
from minicuda.frontend import Frontend, preprocess_only
from minicuda.grammar.collector import freeze_survivors
from minicuda.grammar.parser import parse
from minicuda.grammar.sema import check
from minicuda.ir import format_function, verify
from minicuda.passes.inline import inline_device_calls
from minicuda.passes.lower import lower
from minicuda.pipeline import Analyses, Options, pipeline
from minicuda.vm.code import Code
from minicuda.vm.jit.engine import compile_function

HEADER = "#include <stdio.h>\n#include <cuda_runtime.h>\n\n"


def switch_value(case: int) -> int:
    """The value the switch program's case `case` assigns."""
    return (case * 7919 + 13) % 100003


def live_value(k: int) -> int:
    """The value the live-values program loads into its k-th local."""
    return (k * 37 + 11) % 1009


# ---- the programs ---------------------------------------------------------------------------
def file_program(lines: int) -> str:
    """About `lines` lines: units of small functions and a kernel, then a main calling
    one host function per unit (its total printed and checked against its own sum)."""
    units = max(1, lines // 24)
    out = [HEADER]
    for i in range(units):
        out.append(f"""__device__ int dev_{i}(int x)
{{
    int y = x * {i % 13 + 2} + {i % 101};
    if (y > {i % 97 + 50})
        y -= {i % 7 + 1};
    return y ^ {i % 31};
}}

__host__ __device__ float both_{i}(float x)
{{
    return x * {i % 5}.5f + 1.0f;
}}

int host_{i}(int x)
{{
    return x + {i % 17};
}}

__global__ void kern_{i}(int *out, int n)
{{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = dev_{i}(t) + {i % 9};
}}

""")
    out.append("int main(void)\n{\n    int *d_out;\n    cudaMalloc((void **)&d_out, 32 * sizeof(int));\n"
               "    kern_0<<<1, 32>>>(d_out, 32);\n    int h[32];\n"
               "    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);\n    long long total = 0;\n")
    for i in range(units):
        out.append(f"    total += host_{i}({i % 3}) + (int)both_{i}(1.0f);\n")
    expect = sum(i % 3 + i % 17 + int(i % 5 + 0.5 + 1.0) for i in range(units))
    out.append(f"    printf(\"file %s %d\\n\", total == {expect}LL && h[5] == {_dev0(5)} ? \"ok\" : \"wrong\", {units});\n"
               "    cudaFree(d_out);\n    return 0;\n}\n")
    return "".join(out)


def _dev0(t: int) -> int:
    """kern_0's output at thread t."""
    y = t * 2
    if y > 50:
        y -= 1
    return y ^ 0


def switch_program(cases: int, threads: int = 64) -> str:
    """A kernel switching on the global thread index over `cases` cases; main checks
    the first `threads` threads' values (and the default, -1, past the cases)."""
    body = "".join(f"    case {c}: v = {switch_value(c)}; break;\n" for c in range(cases))
    return HEADER + f"""__global__ void pick(int *out)
{{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v;
    switch (t) {{
{body}    default: v = -1; break;
    }}
    out[t] = v;
}}

int main(void)
{{
    int *d_out;
    int h[{threads}];
    int expect[{threads}] = {{{", ".join(str(switch_value(t) if t < cases else -1) for t in range(threads))}}};
    cudaMalloc((void **)&d_out, sizeof(h));
    pick<<<1, {threads}>>>(d_out);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < {threads}; ++i)
        if (h[i] != expect[i])
            ++bad;
    printf("switch %s %d\\n", bad ? "wrong" : "ok", {cases});
    cudaFree(d_out);
    return 0;
}}
"""


def live_program(values: int) -> str:
    """A kernel loading `values` ints into locals, then summing them in reverse order
    plus its thread index; main checks every thread's sum."""
    loads = "".join(f"    int v{k} = in[{k}];\n" for k in range(values))
    sums = "".join(f"    s += v{k};\n" for k in reversed(range(values)))
    total = sum(live_value(k) for k in range(values))
    return HEADER + f"""__global__ void live(const int *in, int *out)
{{
{loads}    int s = threadIdx.x;
{sums}    out[threadIdx.x] = s;
}}

int main(void)
{{
    int h_in[{values}];
    int h_out[32];
    for (int k = 0; k < {values}; ++k)
        h_in[k] = (k * 37 + 11) % 1009;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    live<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; ++i)
        if (h_out[i] != {total} + i)
            ++bad;
    printf("live %s %d\\n", bad ? "wrong" : "ok", {values});
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}}
"""


STRAIGHT_STEPS = ("a = a * 3 + b;", "b = b ^ (a >> 3);", "c = c + (a & 255) - d;", "d = d * 5 + (c >> 7);")


def straight_value(statements: int, t: int) -> int:
    """What the straight-line program's thread t computes (32-bit unsigned arithmetic)."""
    m = 0xFFFFFFFF
    a, b, c, d = t, t + 1, t * 7, 9
    for k in range(statements):
        step = k % 4
        if step == 0:
            a = (a * 3 + b) & m
        elif step == 1:
            b = b ^ (a >> 3)
        elif step == 2:
            c = (c + (a & 255) - d) & m
        else:
            d = (d * 5 + (c >> 7)) & m
    return a ^ b ^ c ^ d


def straight_program(statements: int) -> str:
    """A kernel of `statements` straight-line updates of four locals; main checks
    thread 3's result."""
    body = "".join(f"    {STRAIGHT_STEPS[k % 4]}\n" for k in range(statements))
    return HEADER + f"""__global__ void straight(unsigned int *out)
{{
    unsigned int a = threadIdx.x;
    unsigned int b = a + 1, c = a * 7, d = 9;
{body}    out[threadIdx.x] = a ^ b ^ c ^ d;
}}

int main(void)
{{
    unsigned int *d_out;
    unsigned int h[32];
    cudaMalloc((void **)&d_out, sizeof(h));
    straight<<<1, 32>>>(d_out);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("straight %s %d\\n", h[3] == {straight_value(statements, 3)}u ? "ok" : "wrong", {statements});
    cudaFree(d_out);
    return 0;
}}
"""


def loops_program(loops: int) -> str:
    """A kernel of `loops` small loops accumulating into one local; main checks the
    sum against its closed form."""
    body = "".join(f"    for (int i = 0; i < n + {k % 3}; ++i)\n        acc += i * {k % 7 + 1};\n"
                   for k in range(loops))
    n = 4
    expect = sum((k % 7 + 1) * (n + k % 3) * (n + k % 3 - 1) // 2 for k in range(loops))
    return HEADER + f"""__global__ void loops(int *out, int n)
{{
    int acc = threadIdx.x;
{body}    out[threadIdx.x] = acc;
}}

int main(void)
{{
    int *d_out;
    int h[32];
    cudaMalloc((void **)&d_out, sizeof(h));
    loops<<<1, 32>>>(d_out, {n});
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("loops %s %d\\n", h[5] == {expect} + 5 ? "ok" : "wrong", {loops});
    cudaFree(d_out);
    return 0;
}}
"""


def elseif_program(arms: int, threads: int = 64) -> str:
    """The switch program's values chosen by an `if (t == 0) ... else if (t == 1) ...`
    chain of `arms` arms and a final `else` (-1); main checks the first `threads` threads."""
    chain = "\n    else ".join(f"if (t == {c})\n        v = {switch_value(c)};" for c in range(arms))
    return switch_program(arms, threads).replace(
        _switch_statement(arms), f"    {chain}\n    else\n        v = -1;\n").replace('"switch %s', '"elseif %s')


def _switch_statement(cases: int) -> str:
    body = "".join(f"    case {c}: v = {switch_value(c)}; break;\n" for c in range(cases))
    return f"    switch (t) {{\n{body}    default: v = -1; break;\n    }}\n"


def inc_program(statements: int) -> str:
    """A main of `statements` statements `x = x + k;` (k from 1 to 3) that prints
    whether x ends at their sum: one long host function."""
    body = "".join(f"    x = x + {k % 3 + 1};\n" for k in range(statements))
    total = sum(k % 3 + 1 for k in range(statements))
    return HEADER + f"""int main(void)
{{
    int x = 0;
{body}    printf("inc %s %d\\n", x == {total} ? "ok" : "wrong", {statements});
    return 0;
}}
"""


UNITS = {"file": "lines", "switch": "cases", "live": "live values", "straight": "statements", "loops": "loops",
         "elseif": "arms", "inc": "statements"}
SHAPES = {"file": file_program, "switch": switch_program, "live": live_program,
          "straight": straight_program, "loops": loops_program, "elseif": elseif_program, "inc": inc_program}
# each shape's sizes: issue 11's targets are the last of "full" (file, switch, live); issue 12's
# are the first of switch and straight (2,000 cases under 5 s, 2,000 statements under 10 s)
# and the last of inc (a 4,000-line function under 10 s)
SIZES = {
    "quick": {"file": (240, 480), "switch": (20, 40), "live": (20, 40), "straight": (40, 80), "loops": (10, 20),
              "elseif": (20, 40), "inc": (40, 80)},
    "full": {"file": (25_000, 50_000, 100_000), "switch": (2_000, 5_000, 10_000), "live": (1_250, 2_500, 5_000),
             "straight": (2_000, 10_000, 20_000), "loops": (500, 1_000, 2_000),
             "elseif": (500, 1_000, 2_000), "inc": (1_000, 2_000, 4_000)},
}


# ---- timing ---------------------------------------------------------------------------------
@dataclass
class StageTimes:
    """CPU seconds per stage of one compile, in the order the stages ran."""
    shape: str
    size: int
    lines: int
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    @property
    def total(self) -> float:
        return sum(self.seconds.values())


class _Clock:
    def __init__(self, times: StageTimes):
        self.times = times

    def __call__(self, stage: str, fn, *args):
        start = time.process_time()
        result = fn(*args)
        self.times.seconds[stage] += time.process_time() - start
        return result


def measure(shape: str, size: int, opt: int = 3, jit: bool = True) -> StageTimes:
    """The seconds of every stage of compiling the `shape` program of `size` at -O`opt`,
    and (when `jit`) of the JIT's compile of its kernels, as `minicuda run` compiles them."""
    source = SHAPES[shape](size)
    times = StageTimes(shape, size, source.count("\n"))
    clock = _Clock(times)
    diags = DiagnosticEngine()
    pp, diags = clock("preprocess", preprocess_only, source, (), (), (), diags)
    tu = clock("parse", parse, pp, diags)
    clock("sema", check, tu, diags)
    diags.check()
    options = Options(opt=opt)
    with old_objects_frozen():   # as compile_module compiles: the AST, then the lowered module
        module = clock("lower", lower, tu, f"sm_{options.arch}")
        module.sched = "stack" if options.stack_arch else "its"
        module.structs = runtime_structs(tu, module)
        if opt > 0:
            clock("inline", inline_device_calls, module)
        passes = pipeline(options)
        gc.freeze()
        for fn in module.functions.values():
            verify(fn, "lower")
            analyses = Analyses(fn, module)
            for p in passes:
                if not analyses.settled(p.name):
                    analyses.ran(p.name, clock(p.name, p.run, fn, analyses))
            del analyses
            clock("collect", freeze_survivors)
    program = CompiledProgram(Frontend("<generated>", pp, tu, diags), module, options)
    clock("print", program.sass)
    if jit:
        with _no_disk_cache():
            for fn in _run_compiles(module):
                kernel = fn.kind == "kernel"
                clock("jit", compile_function, Code(fn), module.sched if kernel else "stack", 32 if kernel else 1,
                      kernel)
    return times


def _run_compiles(module) -> list:
    """The functions `minicuda run` compiles before main's launches finish: main and
    the kernels it launches (a kernel never launched is never compiled)."""
    main = module.functions["main"]
    launched = {ins.srcs[0].name for ins in main.instructions() if ins.op == "LAUNCH"}
    return [fn for fn in module.functions.values() if fn.name == "main" or fn.name in launched]


@contextmanager
def _no_disk_cache():
    """The JIT compiles for real: no object from an earlier run."""
    saved = os.environ.get("MINICUDA_JIT_CACHE")
    os.environ["MINICUDA_JIT_CACHE"] = "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["MINICUDA_JIT_CACHE"]
        else:
            os.environ["MINICUDA_JIT_CACHE"] = saved


def run_scaling(preset: str = "full", shapes=None, opt: int = 3, jit: bool = True, progress=None) -> list[StageTimes]:
    """Every shape (or those named) at the preset's sizes, smallest first."""
    results = []
    for shape in shapes or SHAPES:
        for size in SIZES[preset][shape]:
            if progress is not None:
                progress(f"compile-scaling: {shape} {size}")
            results.append(measure(shape, size, opt, jit))
    return results


def render_scaling(results: list[StageTimes]) -> str:
    """A table per shape: seconds per stage at each size, and the growth from each size to the next."""
    out = ["Compile time by program size (CPU seconds per stage; growth: time ratio over size ratio, 1.0 = linear)"]
    for shape in dict.fromkeys(r.shape for r in results):
        runs = [r for r in results if r.shape == shape]
        stages = list(dict.fromkeys(stage for r in runs for stage in r.seconds))
        head = f"{shape + ' (' + UNITS[shape] + ')':<26}" + "".join(f"{r.size:>10}" for r in runs) + \
            "".join(f"{'growth':>9}" for _ in runs[1:])
        out += ["", head, "-" * len(head)]
        rows = [(stage, [r.seconds.get(stage, 0.0) for r in runs]) for stage in stages]
        rows.append(("total", [r.total for r in runs]))
        rows.insert(0, ("source lines", [float(r.lines) for r in runs]))
        for name, values in rows:
            cells = "".join(f"{v:>10.0f}" if name == "source lines" else f"{v:>10.3f}" for v in values)
            growth = "" if name == "source lines" else "".join(
                f"{_growth(a, b, ra.size, rb.size):>9}" for a, b, ra, rb in zip(values, values[1:], runs, runs[1:]))
            out.append(f"{name:<26}{cells}{growth}")
    return "\n".join(out)


def _growth(before: float, after: float, size_before: int, size_after: int) -> str:
    """The time ratio over the size ratio; blank when the stage is too quick to tell."""
    if before < 0.005 or after < 0.005:
        return "-"
    return f"{(after / before) / (size_after / size_before):.2f}"


def as_dicts(results: list[StageTimes]) -> list[dict]:
    return [{"shape": r.shape, "size": r.size, "lines": r.lines, "seconds": dict(r.seconds), "total": r.total}
            for r in results]
