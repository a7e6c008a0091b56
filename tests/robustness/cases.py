"""The robustness suite (issue 11): bad and extreme programs, files and command lines,
each with what minicuda must do with it. Never an internal compiler error, a Python
traceback, a hang or a memory blow-up: a located error, a CUDA-style runtime report, or
the program's own result, within a time budget, under `ulimit -v` of 4 GiB.

How to run it (from the checkout, in its virtualenv):

    python -m pytest tests/robustness                 # the fast cases (about a minute on 2 cores)
    python -m pytest tests/robustness -m slow         # only the slow ones (about 3 minutes)
    python -m pytest tests/robustness -m ""           # everything, as CI runs it (in two steps)
    python -m pytest tests/robustness -n 0 -k include_cycle   # one case, its report in full

A plain `pytest` leaves the slow cases out, as it leaves out every slow test (-m "not slow"
in pyproject's pytest settings); .ci/run runs them. A failing case's message lists what was
wrong (exit status, message shape, time, files changed), then the command, the end of
its stderr and the start of its stdout.

The files: cases.py (this module) lists the hand-written cases; test_extreme_inputs.py
runs each as a subprocess of the console script (runner.run_case);
test_random_inputs.py generates families of inputs (prefix cuts, the token mutations of
tests/helpers/mutations.py, byte flips, garbage, literals, the generated kernels of
tests/helpers/kernels.py) and runs each in a process forked from one that imported
minicuda once (forkserver.py); runner.py holds the limits and the judging.

A `Case` is a command line (`minicudac ...` or `minicuda ...`), the files it needs
(written into a fresh folder, its working directory), and its expectations: the exit
statuses allowed (1 for a user's error, 2 for bad usage, 124 for --timeout, 130 for
Ctrl-C, 136 for a host division by zero, or the program's own), the shape of the
message when it fails (runner.MESSAGES), the exact stdout when it succeeds, a CPU-time
budget, and files that must be left as they were. A host division by zero must end as
a native program does under a shell: exit status 136 with "Floating point exception"
on stderr (minicuda prints it, as no shell may be there to), or death by SIGFPE.

Sizes are the issue's where it names them (5,000-deep nesting, 100,000
lines, 10,000 cases, 5,000 live values, 4 GiB arrays); a case that takes more than
about two seconds is `slow`. Where the issue leaves the outcome open (a clear error or
a correct run), a case allows both, and then checks the error's location or the output.

A budget is a guard against hangs and runaway growth, with room for a loaded machine:
it is not a speed target. Compile-time targets are measured by `minicuda bench
--compile-scaling`, which prints the seconds per stage.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

Setup = Callable[[Path], None]


@dataclass
class Case:
    name: str
    argv: list                             # str or bytes, after the command's name
    files: dict = field(default_factory=dict)   # name -> str or bytes, written before the run
    command: str = "minicudac"
    status: frozenset = frozenset({1})
    message: str | None = "error"          # a key of runner.MESSAGES, required when the status is not 0
    stdout: str | tuple | None = None      # the exact stdout (or one of several) when the status is 0
    seconds: float = 5.0                   # CPU-second budget
    slow: bool = False
    setup: Setup | None = None             # makes what files cannot: FIFOs, folders, modes
    stdin: bytes | None = None
    stdout_to: str | None = None           # "closed", or a path stdout is redirected to
    unchanged: tuple = ()                  # files that must be byte for byte as written
    absent: tuple = ()                     # files that must not exist afterwards
    needs_non_root: bool = False           # permissions do not bind root
    interrupt_after: float | None = None   # send Ctrl-C (SIGINT to the process group) after these seconds
    stop_within: float = 2.0               # ... and it must have ended this soon after

    @property
    def wall_limit(self) -> float:
        """Wall-clock seconds before the case is killed: the CPU budget, with room for a loaded machine."""
        return 4 * self.seconds + 10

    def write_files(self, folder: Path) -> None:
        for name, content in self.files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode() if isinstance(content, str) else content)
        if self.setup:
            self.setup(folder)

    def check_files(self, folder: Path) -> list[str]:
        found = []
        for name in self.unchanged:
            content = self.files[name]
            want = content.encode() if isinstance(content, str) else content
            path = folder / name
            if not path.is_file() or path.read_bytes() != want:
                found.append(f"{name} was changed")
        found += [f"{name} was written" for name in self.absent if (folder / name).exists()]
        return found

    def stdout_matches(self, out: bytes) -> bool:
        wanted = self.stdout if isinstance(self.stdout, tuple) else (self.stdout,)
        return out.decode("utf-8", "replace") in wanted


def fails(*statuses: int) -> frozenset:
    return frozenset(statuses)


OK = frozenset({0})
OK_OR_ERROR = frozenset({0, 1})

# ---------------------------------------------------------------- programs used by many cases

HELLO = '#include <stdio.h>\nint main() { printf("hello\\n"); return 0; }\n'
KERNEL = """#include <stdio.h>
__global__ void fill(int *out) { out[threadIdx.x] = threadIdx.x * 2; }
int main() {
    int *d, h[32];
    cudaMalloc(&d, sizeof(h));
    fill<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%d\\n", h[31]);
    return 0;
}
"""


def host_main(body: str, before: str = "") -> str:
    """A program whose main runs `body` (stdio, stdlib, string and the CUDA runtime included)."""
    return (f"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <limits.h>\n{before}\n"
            f"int main(int argc, char **argv) {{\n{body}\n    return 0;\n}}\n")


def compile_only(name: str, source: str | bytes, **expect) -> Case:
    return Case(name, ["main.cu", "-o", "out.sass"], {"main.cu": source}, **expect)


def run(name: str, source: str | bytes, *args, **expect) -> Case:
    return Case(name, ["run", "main.cu", *args], {"main.cu": source}, command="minicuda", **expect)


# ---------------------------------------------------------------- nesting and size (the frontend's depth)

def nested_blocks(depth: int) -> str:
    return host_main("    int x = 0;\n" + "{" * depth + " x++; " + "}" * depth + '\n    printf("%d\\n", x);')


def nested_ifs(depth: int) -> str:
    conds = "".join(f"if (x > {i}) {{ " for i in range(depth))
    return host_main(f"    int x = argc + {depth};\n    int n = 0;\n    {conds}n++; " + "}" * depth +
                     '\n    printf("%d\\n", n);')


def nesting_cases() -> list[Case]:
    line = "+".join(["1"] * 128_000)     # 256 KB on one line (a 1 MB line takes over a minute: too long for CI)
    return [
        run("blocks_5000_deep", nested_blocks(5000), message="located"),
        run("blocks_5000_deep_raised_limit", nested_blocks(5000), "-fbracket-depth=6000", status=OK, stdout="1\n",
            seconds=20, slow=True),
        compile_only("blocks_300_deep", nested_blocks(300), message="located"),
        compile_only("blocks_200_deep", nested_blocks(200), status=OK),
        compile_only("parens_5000_deep", host_main("int x = " + "(" * 5000 + "1" + ")" * 5000 + ";"),
                     message="located"),
        compile_only("calls_5000_deep", host_main("int x = " + "abs(" * 5000 + "1" + ")" * 5000 + ";"),
                     message="located"),
        compile_only("initializer_braces_5000_deep", host_main("int x = " + "{" * 5000 + "1" + "}" * 5000 + ";"),
                     message="located"),
        run("unary_minus_5000_deep", host_main('printf("%d\\n", ' + "- " * 5000 + "1);"), status=OK_OR_ERROR,
            message="located", stdout="1\n"),
        run("logical_not_5001_deep", host_main('printf("%d\\n", ' + "!" * 5001 + "0);"), status=OK_OR_ERROR,
            message="located", stdout="1\n"),
        run("ternary_chain_5000", host_main("int v = " + "".join(f"argc == {i} ? {i} : " for i in range(5000)) +
                                            '-1;\n    printf("%d\\n", v);'), status=OK_OR_ERROR, message="located",
            stdout="1\n", seconds=30, slow=True),
        run("expression_line_256kb", host_main(f'printf("%d\\n", {line});'), status=OK_OR_ERROR, message="located",
            stdout="128000\n", seconds=90, slow=True),
        run("if_directives_5000_deep", "#if 1\n" * 5000 + HELLO + "#endif\n" * 5000, status=OK_OR_ERROR,
            message="located", stdout="hello\n"),
        run("template_recursion_5000", "#include <stdio.h>\n"
            "template <int N> int depth() { return depth<N - 1>() + 1; }\n"
            "template <> int depth<0>() { return 0; }\n"
            'int main() { printf("%d\\n", depth<5000>()); return 0; }\n', status=OK_OR_ERROR, message="located",
            stdout="5000\n", seconds=30, slow=True),
        # -O3 on an else-if chain of 2,000 arms (simplify-cfg merges its blocks in one sweep);
        # tests/passes/test_deep_programs.py runs 10,000 at -O0
        run("else_if_chain_2000", host_main("    int v = -1;\n    " + " else ".join(
            f"if (argc == {i}) {{ v = {i}; }}" for i in range(2000)) + '\n    printf("%d\\n", v);'),
            status=OK, stdout="1\n", seconds=30, slow=True),
        run("macro_chain_5000", "#define M0 1\n" + "".join(f"#define M{i} (M{i - 1} + 1)\n" for i in range(1, 5000)) +
            host_main('    printf("%d\\n", M4999);'), status=OK_OR_ERROR, message="located", stdout="5000\n",
            seconds=30, slow=True),
        compile_only("if_directive_parens_5000_deep", "#if " + "(" * 5000 + "1" + ")" * 5000 + "\nint x;\n#endif\n",
                     status=OK_OR_ERROR, message="located"),
        compile_only("casts_5000_deep", host_main("    int x = " + "(int)" * 5000 + "argc;"), status=OK_OR_ERROR,
                     message="located"),
        compile_only("pointer_declarator_5000_stars", host_main("    int " + "*" * 5000 + "p = 0;"),
                     status=OK_OR_ERROR, message="located"),
        compile_only("comma_chain_20000", host_main("    int x = (" + ", ".join(["argc"] * 20_000) + ");"),
                     status=OK_OR_ERROR, message="located", seconds=30, slow=True),
        run("string_concatenation_20000", host_main('    printf("%d\\n", (int)strlen(' + '"ab" ' * 20_000 + "));"),
            status=OK, stdout="40000\n", seconds=20, slow=True),
        run("parameters_2000", host_main("    printf(\"%d\\n\", f(" + ", ".join(["1"] * 2000) + "));",
                                         "int f(" + ", ".join(f"int p{i}" for i in range(2000)) + ") { return p1999; }"),
            status=OK_OR_ERROR, message="located", stdout="1\n", seconds=30, slow=True),
        run("template_recursion_runaway", "#include <stdio.h>\n"
            "template <int N> int depth() { return depth<N + 1>() + 1; }\n"
            'int main() { printf("%d\\n", depth<0>()); return 0; }\n', message="located"),
    ]


# ---------------------------------------------------------------- includes and inputs that are not text

def make_fifo(folder: Path) -> None:
    os.mkfifo(folder / "main.cu")


def make_folder(name: str) -> Setup:
    return lambda folder: (folder / name).mkdir()


def include_chain(n: int) -> dict:
    files = {f"h{i}.h": f'#include "h{i + 1}.h"\n' for i in range(n)}
    files[f"h{n}.h"] = "#define DEPTH_REACHED 1\n"
    files["main.cu"] = '#include "h0.h"\n' + HELLO
    return files


def include_cases() -> list[Case]:
    binary = bytes(range(256)) * 64
    return [
        Case("include_cycle", ["main.cu", "-fsyntax-only"],
             {"main.cu": '#include "a.h"\n' + HELLO, "a.h": '#include "b.h"\n', "b.h": '#include "a.h"\n'},
             message="located"),
        Case("include_self", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "main.cu"\n' + HELLO},
             message="located"),
        Case("include_self_preprocess", ["-E", "main.cu"], {"main.cu": '#include "main.cu"\nint x;\n'},
             message="located"),
        Case("include_chain_150", ["main.cu", "-fsyntax-only"], include_chain(150), status=OK),
        Case("include_chain_250", ["main.cu", "-fsyntax-only"], include_chain(250), message="located"),
        Case("include_dev_zero", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "/dev/zero"\n' + HELLO},
             message="located", seconds=5),
        Case("include_dev_urandom", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "/dev/urandom"\n' + HELLO},
             message="located", seconds=5),
        Case("include_binary", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "blob.h"\n' + HELLO,
                                                               "blob.h": binary}, message="located"),
        Case("include_non_utf8", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "latin.h"\n' + HELLO,
                                                                 "latin.h": b"int caf\xe9 = 1;\n"}, message="located"),
        Case("include_folder", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "sub"\n' + HELLO},
             setup=make_folder("sub"), message="located"),
        Case("include_fifo", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "pipe.h"\n' + HELLO},
             setup=lambda folder: os.mkfifo(folder / "pipe.h"), message="located", seconds=5),
        Case("input_binary", ["main.cu", "-fsyntax-only"], {"main.cu": binary}),
        Case("input_non_utf8_code", ["main.cu", "-fsyntax-only"], {"main.cu": b"int caf\xe9\xff = 1;\n" + HELLO.encode()}),
        Case("input_non_utf8_comment", ["main.cu", "-fsyntax-only"],
             {"main.cu": b"// caf\xe9\n" + HELLO.encode()}, status=OK_OR_ERROR),
        Case("input_nul_byte", ["main.cu", "-o", "out.sass"], {"main.cu": "int x;\0\n" + KERNEL},
             status=OK_OR_ERROR, message="error"),   # the file named, with the NUL's line and column
        Case("include_nul_byte", ["main.cu", "-o", "out.sass"], {"main.cu": '#include "k.h"\n', "k.h": KERNEL + "\0"},
             status=OK_OR_ERROR, message="located"),
        Case("include_name_nul_byte", ["main.cu", "-fsyntax-only"], {"main.cu": '#include "std\0io.h"\n' + HELLO},
             message="error"),
        Case("input_utf16", ["main.cu", "-fsyntax-only"], {"main.cu": HELLO.encode("utf-16")}),
        Case("input_fifo", ["main.cu", "-fsyntax-only"], setup=make_fifo, seconds=5),
        Case("input_fifo_run", ["run", "main.cu"], command="minicuda", setup=make_fifo, seconds=5),
        Case("input_folder", ["main.cu", "-fsyntax-only"], setup=make_folder("main.cu")),
        Case("input_dev_zero", ["/dev/zero", "-fsyntax-only"], seconds=5),
        Case("input_dev_zero_run", ["run", "/dev/zero"], command="minicuda", seconds=5),
        Case("input_missing", ["missing.cu", "-fsyntax-only"]),
        Case("input_sass_binary", ["main.sass"], {"main.sass": binary}),
        Case("input_ir_non_utf8", ["main.ir", "--passes=cleanup"], {"main.ir": b"\xff\xfe junk\n"}),
        run("input_empty_run", "", message="error"),
        Case("input_empty_compile", ["main.cu", "-fsyntax-only"], {"main.cu": ""}, status=OK),
    ]


# ---------------------------------------------------------------- recursion, undefined functions, host faults

DEVICE_FACTORIAL = """#include <stdio.h>
__device__ long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void k(long long *out) { out[threadIdx.x] = fact(threadIdx.x % 16 + 5); }
int main() {
    long long *d, h[32];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%lld %lld\\n", h[0], h[10]);
    return 0;
}
"""
DEVICE_RUNAWAY = """#include <stdio.h>
__device__ int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }
__global__ void k(int *out, int n) { out[threadIdx.x] = down(n); }
int main() {
    int *d, h = -1;
    cudaMalloc(&d, 32 * sizeof(int));
    k<<<1, 32>>>(d, 1000000);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s %d\\n", cudaGetErrorString(e), h);
    return e == cudaSuccess ? 0 : 3;
}
"""


def host_recursion(depth: int) -> str:
    return host_main(f'    printf("%d\\n", down({depth}));',
                     "int down(int n) { int pad[4]; pad[n & 3] = n; return n == 0 ? 0 : 1 + down(n - 1) + pad[n & 3] - n; }")


def host_division(expression: str) -> str:
    return host_main(f"    int z = argc - 1;\n    int m = INT_MIN + z;\n    int x = {expression};\n"
                     '    printf("x=%d\\n", x);')


def recursion_cases() -> list[Case]:
    return [
        run("device_recursion_factorial", DEVICE_FACTORIAL, status=OK, stdout="120 1307674368000\n"),
        run("device_recursion_runaway", DEVICE_RUNAWAY, status=fails(1, 3), message="located", seconds=20),
        run("host_recursion_1000", host_recursion(1000), status=OK, stdout="1000\n"),
        run("host_recursion_runaway", host_main('    printf("%d\\n", forever(1));',
                                                "int forever(int n) { return forever(n + 1) + 1; }"),
            status=fails(1, 139), message="crash", seconds=30, slow=True),
        run("mutual_recursion_10000", host_main('    printf("%d\\n", ping(10000));',
                                                "int pong(int n);\nint ping(int n) { return n ? pong(n - 1) + 1 : 0; }\n"
                                                "int pong(int n) { return n ? ping(n - 1) + 1 : 0; }"),
            status=OK, stdout="10000\n", seconds=10),
        run("undefined_host_function", host_main("    return f(argc);", "int f(int);")),
        run("undefined_device_function", "__device__ int g(int);\n__global__ void k(int *p) { *p = g(1); }\n"
            "int main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaDeviceSynchronize(); return 0; }\n"),
        compile_only("undefined_device_function_compile",
                     "__device__ int g(int);\n__global__ void k(int *p) { *p = g(1); }\n"),
        run("declared_never_called", host_main('    printf("ok\\n");', "int f(int);"), status=OK, stdout="ok\n"),
        run("host_division_by_zero", host_division("100 / z"), status=fails(136), message="fpe"),
        run("host_remainder_by_zero", host_division("100 % z"), status=fails(136), message="fpe"),
        run("host_int_min_over_minus_one", host_division("m / (z - 1)"), status=fails(136), message="fpe"),
        run("host_division_by_zero_long", host_main('    long long z = argc - 1;\n    printf("%lld\\n", 100LL / z);'),
            status=fails(136), message="fpe"),
        run("host_float_division_by_zero", host_main('    float z = argc - 1;\n    printf("%f\\n", 1.0f / z);'),
            status=OK, stdout="inf\n"),
        run("kernel_division_by_zero", """#include <stdio.h>
__global__ void k(int *out, int z) { out[threadIdx.x] = (100 + threadIdx.x) / z + (7 % z); }
int main() {
    int *d, h[32];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 32>>>(d, 0);
    printf("%s\\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
""", status=OK, stdout="no error\n"),
        run("saturatef", """#include <stdio.h>
__global__ void k(float *out, float x) { out[threadIdx.x] = __saturatef(x * (threadIdx.x - 1.0f)); }
int main() {
    float *d, h[32];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 32>>>(d, 0.5f);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%.2f %.2f %.2f %.2f\\n", h[0], h[1], h[2], h[5]);
    return 0;
}
""", status=OK, stdout="0.00 0.00 0.50 1.00\n"),
        run("host_null_dereference", host_main("    int *p = (int *)(long)(argc - 1);\n    return *p;"),
            status=fails(1, 139), message="crash"),
    ]


# ---------------------------------------------------------------- sizes: arrays and allocations

def kernel_using(declaration: str, use: str) -> str:
    return (f"#include <stdio.h>\n{declaration}\n__global__ void k(int *out) {{ {use} }}\n"
            "int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d);\n"
            "    cudaError_t launch = cudaGetLastError(), sync = cudaDeviceSynchronize();\n"
            '    printf("%s\\n", cudaGetErrorString(launch != cudaSuccess ? launch : sync)); return 0; }\n')


def size_cases() -> list[Case]:
    return [
        run("device_global_4tib", kernel_using("__device__ char g[1ull << 42];",
                                               "g[threadIdx.x] = 1; out[threadIdx.x] = g[threadIdx.x];"),
            message="error"),
        run("device_global_4gib", kernel_using("__device__ char g[1ull << 32];",
                                               "g[(1ull << 32) - 1 - threadIdx.x] = 1; out[threadIdx.x] = g[threadIdx.x];"),
            status=OK_OR_ERROR, message="error", stdout="no error\n", seconds=20, slow=True),
        run("device_local_4gib", kernel_using("", "char a[1ull << 32]; a[threadIdx.x] = 1; out[threadIdx.x] = a[0];"),
            status=OK, stdout="out of memory\n"),   # nvcc compiles it; the launch cannot have its local memory
        run("device_shared_4gib", kernel_using("", "__shared__ char s[1ull << 32]; s[threadIdx.x] = 1; "
                                                   "out[threadIdx.x] = s[0];"), message="located"),
        run("device_shared_64kib", kernel_using("", "__shared__ char s[64 << 10]; s[threadIdx.x] = 1; "
                                                    "out[threadIdx.x] = s[0];"), message="located"),
        run("host_global_256tib", host_main('    g[argc] = 1;\n    printf("%d\\n", g[argc]);', "char g[1ull << 48];"),
            message="error"),
        run("host_global_4gib", host_main('    g[(1ull << 32) - argc] = 1;\n    printf("%d\\n", g[(1ull << 32) - 1]);',
                                          "char g[1ull << 32];"), status=OK_OR_ERROR, message="error",
            stdout="1\n", seconds=20, slow=True),
        run("host_local_4gib", host_main('    char a[1ull << 32];\n    a[argc] = 1;\n    printf("%d\\n", a[argc]);'),
            status=fails(1, 139), message="crash"),
        run("host_allocations_too_large", host_main(
            "    char *m = (char *)malloc(1ull << 50);\n    char *c = (char *)calloc(1ull << 40, 1ull << 40);\n"
            "    char *r = (char *)realloc(malloc(16), 1ull << 50);\n"
            '    printf("%s %s %s\\n", m ? "ptr" : "null", c ? "ptr" : "null", r ? "ptr" : "null");'),
            status=OK, stdout="null null null\n"),
        run("host_malloc_4gib_touched", host_main(
            "    size_t n = 1ull << 32;\n    char *p = (char *)malloc(n);\n"
            '    if (!p) { printf("null\\n"); return 0; }\n    memset(p, 1, n);\n    printf("%d\\n", p[n - 1]);'),
            status=OK, stdout=("null\n", "1\n"), seconds=30, slow=True),
        run("host_malloc_until_null", host_main(
            "    int n = 0;\n    while (n < 100000) { char *p = (char *)malloc(64 << 20); if (!p) break; p[0] = 1; n++; }\n"
            '    printf("%s\\n", n < 100000 ? "null" : "never");'), status=OK, stdout="null\n", seconds=30, slow=True),
        run("host_memset_past_allocation", host_main("    char *p = (char *)malloc(16);\n    memset(p, 0, 1ull << 40);"),
            status=fails(1, 139), message="crash"),
        run("cuda_malloc_too_large", host_main(
            "    char *d = 0;\n    cudaError_t e = cudaMalloc(&d, 1ull << 50);\n"
            '    printf("%d %s\\n", e == cudaErrorMemoryAllocation, d ? "ptr" : "null");'),
            status=OK, stdout="1 null\n"),
        run("cuda_malloc_until_failure", host_main(
            "    int n = 0;\n    char *d;\n    while (n < 100000 && cudaMalloc(&d, 1ull << 30) == cudaSuccess) n++;\n"
            '    printf("%s\\n", n < 100000 ? "out of memory" : "never");'), status=OK, stdout="out of memory\n",
            seconds=30, slow=True),
        run("cuda_memset_past_allocation", host_main(
            "    char *d;\n    cudaMalloc(&d, 16);\n    cudaError_t e = cudaMemset(d, 0, 1ull << 40);\n"
            '    printf("%d\\n", e != cudaSuccess);'), status=OK_OR_ERROR, stdout="1\n"),
        run("cuda_memcpy_past_allocation", host_main(
            "    char *d, h[16];\n    cudaMalloc(&d, 16);\n"
            "    cudaError_t e = cudaMemcpy(h, d, 1ull << 40, cudaMemcpyDeviceToHost);\n"
            '    printf("%d\\n", e != cudaSuccess);'), status=OK_OR_ERROR, stdout="1\n"),
        # CUDA 13 on an H100 refuses each of these with "invalid argument" (tests/data/groundtruth/launch)
        *(run(f"launch_{name}", kernel_using("", "out[0] = 1;").replace("<<<1, 32>>>", f"<<<{config}>>>"),
              status=OK, stdout="invalid argument\n")
          for name, config in (("block_too_large", "1, 2048"), ("grid_negative", "-1, 32"),
                               ("grid_2_pow_31", "2147483648u, 1"), ("grid_y_70000", "dim3(1, 70000), 1"),
                               ("block_z_128", "1, dim3(1, 1, 128)"), ("block_zero", "1, 0"))),
        run("launch_past_launch_bounds", kernel_using("", "out[0] = 1;").replace("void k", "void __launch_bounds__(64) k")
            .replace("<<<1, 32>>>", "<<<1, 256>>>"), status=OK, stdout="invalid argument\n"),
        run("launch_billions_of_blocks_timeout", kernel_using("", "out[0] = 1;").replace("<<<1, 32>>>", "<<<2147483647, 1>>>"),
            "--timeout", "2", status=fails(124), message="where", seconds=15, slow=True),
        run("launch_dynamic_shared_1gib", kernel_using("", "out[0] = 1;").replace("<<<1, 32>>>", "<<<1, 32, 1 << 30>>>"),
            status=OK, stdout="invalid argument\n"),
    ]


# ---------------------------------------------------------------- literals, identifiers, macros

def literal_cases() -> list[Case]:
    digits = "1234567890" * 30
    return [
        run("float_literal_1e39f", host_main('    printf("%f\\n", 1e39f);'), status=OK, stdout="inf\n"),
        run("double_literal_1e400", host_main('    printf("%f\\n", 1e400);'), status=OK, stdout="inf\n"),
        compile_only("integer_literal_300_digits", host_main(f"    long long x = {digits};"), message="located"),
        run("float_literal_300_digits", host_main(f'    double x = {digits}.5;\n    printf("%.3g\\n", x);'),
            status=OK, stdout="1.23e+299\n"),
        compile_only("hex_literal_300_digits", host_main(f"    long long x = 0x{'f' * 300};"), message="located"),
        run("identifier_100k_chars", host_main(f'    int {"v" * 100_000} = 7;\n    printf("%d\\n", {"v" * 100_000});'),
            status=OK, stdout="7\n"),
        run("string_literal_1mb", host_main(f'    printf("%d\\n", (int)strlen("{"s" * 1_000_000}"));'),
            status=OK, stdout="1000000\n", seconds=20, slow=True),
        run("huge_define_value", host_main('    printf("%d\\n", V);'), f"-DV={'+'.join(['1'] * 20_000)}",
            status=OK_OR_ERROR, message="located", stdout="20000\n", seconds=20, slow=True),
        run("define_not_an_identifier", HELLO, "-D1X=2", status=fails(1, 2)),
        run("define_array_size_too_large", host_main("    static char a[N];\n    a[0] = 1;"),
            "-DN=99999999999999999999999", message="located"),
        compile_only("macro_exponential", "#define A0 x\n" + "".join(f"#define A{i} A{i - 1} A{i - 1}\n"
                                                                     for i in range(1, 65)) + "int y = A64;\n",
                     message="located"),
        Case("macro_exponential_preprocess", ["-E", "main.cu", "-o", "out.i"],
             {"main.cu": "#define F(x) x x\n" + "F(" * 40 + "z" + ")" * 40 + "\n"}, message="located",
             absent=("out.i",)),
        compile_only("macro_self_reference", "#define X X + 1\n" + host_main("    int X = 0;"), message="located"),
    ]


# ---------------------------------------------------------------- compile time that grows gently

def hundred_thousand_lines() -> str:
    functions = []
    for f in range(1000):
        body = [f"int f{f}(int a, int b) {{"]
        for i in range(24):
            body += [f"    a = a * {i + 3} + b;", f"    if (a > {i * 1000}) {{", f"        b = b ^ (a >> {i % 7});",
                     "    }"]
        body += ["    return a + b;", "}", ""]
        functions.append("\n".join(body))
    calls = " + ".join(f"f{f}(argc, {f})" for f in range(0, 1000, 100))
    return host_main(f'    printf("%d\\n", ({calls}) & 1);', "\n".join(functions))


def switch_cases(n: int) -> str:
    cases = "\n".join(f"        case {i}: r = {i * 7 % 1000} + x; break;" for i in range(n))
    return ("#include <stdio.h>\n__global__ void k(int *out) {\n    int x = threadIdx.x, r = -1;\n"
            f"    switch (x * 313) {{\n{cases}\n        default: r = 0;\n    }}\n    out[x] = r;\n}}\n")


def live_values(n: int) -> str:
    loads = "\n".join(f"    int v{i} = in[{i} * 32 + threadIdx.x];" for i in range(n))
    total = "\n".join(f"    s = s * 3 + v{i};" for i in reversed(range(n)))
    return (f"__global__ void k(const int *in, int *out) {{\n{loads}\n    int s = 0;\n{total}\n"
            "    out[threadIdx.x] = s;\n}\n")


def scaling_cases() -> list[Case]:
    return [
        compile_only("lines_100000", hundred_thousand_lines(), status=OK, seconds=90, slow=True),
        compile_only("switch_10000_cases", switch_cases(10_000), status=OK, seconds=40, slow=True),
        compile_only("live_values_5000", live_values(5000), status=OK, seconds=40, slow=True),
        compile_only("switch_1000_cases", switch_cases(1000), status=OK, seconds=15),
        compile_only("live_values_500", live_values(500), status=OK, seconds=15),
    ]


# ---------------------------------------------------------------- runaway programs

# a kernel that never ends but keeps writing memory (so no spin-loop check stops it early)
KERNEL_SPIN = """#include <stdio.h>
__global__ void spin(int *flag) {
    while (flag[0] == 0) { flag[1 + blockIdx.x * 64 + threadIdx.x] += 1; }
}
int main() {
    int *d;
    cudaMalloc(&d, 257 * sizeof(int));
    cudaMemset(d, 0, 257 * sizeof(int));
    spin<<<4, 64>>>(d);
    printf("%s\\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
"""


def runaway_cases() -> list[Case]:
    return [
        run("kernel_infinite_loop_timeout", KERNEL_SPIN, "--timeout", "2", status=fails(124), message="where",
            seconds=15, slow=True),
        run("host_infinite_loop_timeout", host_main("    volatile int x = 0;\n    for (;;) x++;"), "--timeout", "2",
            status=fails(124), message="where", seconds=15, slow=True),
        run("kernel_infinite_loop_watchdog", KERNEL_SPIN, "--watchdog", "1", status=OK_OR_ERROR, message="error",
            stdout="the launch timed out and was terminated\n", seconds=15, slow=True),
        run("host_infinite_loop_ctrl_c", host_main("    volatile int x = 0;\n    for (;;) x++;"), status=fails(130),
            message="where", interrupt_after=6, seconds=15, slow=True),
        run("kernel_infinite_loop_ctrl_c", KERNEL_SPIN, status=fails(130), message="where", interrupt_after=6,
            seconds=15, slow=True),
        run("timeout_not_a_number", HELLO, "--timeout", "soon", status=fails(2)),
        run("timeout_negative", HELLO, "--timeout=-1", status=fails(2)),
    ]


# ---------------------------------------------------------------- outputs and the command line

def read_only(name: str) -> Setup:
    def setup(folder: Path) -> None:
        (folder / name).write_text("previous\n")
        (folder / name).chmod(stat.S_IRUSR)
    return setup


def output_cases() -> list[Case]:
    source = {"main.cu": KERNEL}
    return [
        Case("output_is_input", ["main.cu", "-o", "main.cu"], source, unchanged=("main.cu",)),
        Case("output_is_input_other_spelling", ["main.cu", "-o", "./sub/../main.cu"], source,
             setup=make_folder("sub"), unchanged=("main.cu",)),
        Case("output_is_input_by_symlink", ["main.cu", "-o", "link.cu"], source,
             setup=lambda folder: (folder / "link.cu").symlink_to("main.cu"), unchanged=("main.cu",)),
        Case("preprocess_output_is_input", ["-E", "main.cu", "-o", "main.cu"], source, unchanged=("main.cu",)),
        Case("metrics_json_is_input", ["run", "main.cu", "--metrics-json", "main.cu"], source, command="minicuda",
             unchanged=("main.cu",)),
        Case("output_is_folder", ["main.cu", "-o", "out"], source, setup=make_folder("out")),
        Case("output_in_missing_folder", ["main.cu", "-o", "missing/out.sass"], source),
        Case("output_read_only_file", ["main.cu", "-o", "ro.sass"], source, setup=read_only("ro.sass"),
             status=OK_OR_ERROR, needs_non_root=True),
        Case("output_proc_file", ["main.cu", "-o", "/proc/version"], source),
        Case("output_dev_full", ["main.cu", "-o", "/dev/full"], source),
        Case("preprocess_dev_full", ["-E", "main.cu", "-o", "/dev/full"], source),
        Case("stdout_dev_full", ["main.cu", "--emit=ir"], source, stdout_to="/dev/full"),
        Case("stdout_closed", ["main.cu", "--emit=ir"], source, stdout_to="closed"),
        Case("run_stdout_closed", ["run", "main.cu"], source, command="minicuda", stdout_to="closed",
             status=OK_OR_ERROR),
        Case("metrics_json_folder", ["run", "main.cu", "--metrics-json", "out"], source, command="minicuda",
             setup=make_folder("out")),
        Case("metrics_json_missing_folder", ["run", "main.cu", "--metrics-json", "missing/m.json"], source,
             command="minicuda"),
        Case("metrics_json_dev_full", ["run", "main.cu", "--metrics-json", "/dev/full"], source, command="minicuda"),
        Case("bench_json_folder", ["bench", "--quick", "--engine", "interp", "--only", "vectorAdd", "--skip",
                                   "native,pocl,numba,e2e", "--json", "out"], command="minicuda",
             setup=make_folder("out"), seconds=30, slow=True),
        Case("max_steps_huge", ["run", "main.cu", "--max-steps", "999999999999999999999999999"], source,
             command="minicuda", status=fails(2)),
        Case("jobs_huge", ["run", "main.cu", "-j", "99999999999999999999"], source, command="minicuda",
             status=fails(0, 2), stdout="62\n"),
        Case("sched_seed_huge", ["run", "main.cu", "--sched-seed", "9" * 40], source, command="minicuda",
             status=fails(0, 2), stdout="62\n"),
        Case("threshold_huge", ["main.cu", "--uniform-threshold", "9" * 40, "-o", "out.sass"], source,
             status=fails(0, 2)),
        Case("argument_not_utf8", ["run", "main.cu", b"\xff\xfe"], {"main.cu": host_main(
            '    printf("%d %02x\\n", (int)strlen(argv[1]), (unsigned char)argv[1][0]);')}, command="minicuda",
             status=OK, stdout="2 ff\n"),
        Case("include_dir_not_utf8", ["main.cu", b"-I\xff", "-fsyntax-only"], {"main.cu": HELLO}, status=OK),
        Case("input_name_not_utf8", [b"ma\xffin.cu", "-fsyntax-only"], {"ma\udcffin.cu": HELLO}, status=OK),
        Case("no_arguments", [], status=fails(2)),
    ]


# ---------------------------------------------------------------- faults: host signals, CUDA's errors (issue 12)

KERNEL_THROUGH_HOST_POINTER = """#include <stdio.h>
#include <stdlib.h>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() {
    int *h = (int *)malloc(128);
    k<<<1, 32>>>(h);
    printf("%s\\n", cudaGetErrorString(cudaDeviceSynchronize()));
    printf("%s\\n", cudaGetErrorString(cudaMalloc(&h, 16)));
    return 0;
}
"""


def fault_cases() -> list[Case]:
    """What an x86-64 host and an H100 do (tests/data/groundtruth/issue12/)."""
    return [
        run("host_device_pointer_dereference", host_main("    int *d;\n    cudaMalloc(&d, 16);\n    return d[argc];"),
            status=fails(139), message="crash"),
        run("host_string_literal_write", host_main('    char *s = (char *)"hello";\n    s[argc] = 0;\n    puts(s);'),
            status=fails(139), message="crash"),
        run("host_wild_pointer", host_main("    int *p = (int *)(0x1234L * argc);\n    return *p;"),
            status=fails(139), message="crash"),
        run("host_use_after_free", host_main("    int *p = (int *)malloc(16);\n    free(p);\n    return p[argc];"),
            status=fails(139), message="crash"),
        run("host_assert", host_main("    assert(argc == 2);", "#include <assert.h>"), status=fails(134),
            message="abort"),
        run("host_double_free", host_main("    char *p = (char *)malloc(16);\n    free(p);\n    free(p);"),
            status=fails(134), message="abort"),
        run("kernel_through_host_pointer", KERNEL_THROUGH_HOST_POINTER, status=OK,
            stdout="an illegal memory access was encountered\nan illegal memory access was encountered\n"),
        run("cuda_malloc_null", host_main('    printf("%s\\n", cudaGetErrorString(cudaMalloc(NULL, 16)));'),
            status=OK, stdout="invalid argument\n"),
    ]


CASES: list[Case] = (nesting_cases() + include_cases() + recursion_cases() + size_cases() + literal_cases() +
                     scaling_cases() + runaway_cases() + output_cases() + fault_cases())
