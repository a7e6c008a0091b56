"""Families of generated bad inputs, each input run through the real command line in a
process of its own (forked from runner.ForkServer, under the suite's limits):

- prefixes of two programs, cut at tokens (a file truncated anywhere);
- the frontend fuzzer's token mutations (helpers.mutations), compiled through every
  pass, and run; the C++ programs' mutations (helpers.mutations.CXX_UNITS) compiled
  with the rest of their program;
- random byte flips, and garbage after a valid program;
- numeric literals of every shape (hundreds of digits, huge exponents, any suffix);
- valid kernels from the generated-kernel strategies (helpers.kernels), which must
  compile and run, also nested deep inside blocks.

A compile must end with exit status 0, or 1 and a located error; a run in the
program's own status; never an internal error, a traceback, a signal or a hang.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import SAMPLES
from helpers.kernels import statements
from helpers.mutations import CXX_UNITS, EDITS, mutate, token_spans
from robustness.cases import KERNEL, Case, host_main
from robustness.runner import ForkServer, problems, report

SOURCES = {p.name: p.read_text() for p in SAMPLES}
ANY_STATUS = frozenset(range(256)) - {70}
# hypothesis settings: each example is a process; the slow families draw more of them
CHECKS = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
FUZZ = settings(max_examples=10, deadline=None, suppress_health_check=CHECKS)
FUZZ_MORE = settings(max_examples=15, deadline=None, suppress_health_check=CHECKS)


@pytest.fixture(scope="module")
def server():
    s = ForkServer()
    yield s
    s.close()


def check(server, case: Case, folder) -> None:
    for stale in ("stdout", "stderr", "out.sass"):
        (folder / stale).unlink(missing_ok=True)
    outcome = server.run(case, folder)
    found = problems(case, outcome, folder)
    assert not found, report(case, outcome, found)


def compiled(name: str, source: str | bytes, message: str = "located") -> Case:
    return Case(name, ["main.cu", "-o", "out.sass"], {"main.cu": source}, status=frozenset({0, 1}),
                message=message, seconds=10)


def ran(name: str, source: str | bytes) -> Case:
    """A run of a program that may be anything (its kernels bounded by --max-steps): any status but 70."""
    return Case(name, ["run", "main.cu", "--max-steps", "20000000"], {"main.cu": source},
                command="minicuda", status=ANY_STATUS, message=None, seconds=15)


def prefix_cuts(text: str, every: int) -> list[str]:
    return [text[:start] for i, (start, _) in enumerate(token_spans(text)) if i % every == 0] + [text]


@pytest.mark.parametrize("every", [pytest.param(5, marks=pytest.mark.slow), 25], ids=["every_5th_token", "every_25th"])
def test_truncated_programs(server, tmp_path, every):
    for i, prefix in enumerate(prefix_cuts(KERNEL, every) + prefix_cuts(SOURCES["vectorAdd.cu"], every * 40)):
        check(server, compiled(f"prefix_{i}", prefix), tmp_path)


@pytest.mark.slow
@FUZZ_MORE
@given(name=st.sampled_from(sorted(SOURCES)), edits=EDITS)
def test_token_mutations_compile(server, tmp_path, name, edits):
    check(server, compiled(f"{name} {edits}", mutate(SOURCES[name], edits)), tmp_path)


@pytest.mark.slow
@FUZZ_MORE
@given(name=st.sampled_from(sorted(CXX_UNITS)), edits=EDITS)
def test_cxx_token_mutations_compile(server, tmp_path, name, edits):
    unit = CXX_UNITS[name]
    argv = unit.program_sources() + ["-I", unit.include_dirs[0], "-o", "out.sass"]
    case = Case(f"{name} {edits}", argv, unit.program_files(mutate(unit.text, edits)), status=frozenset({0, 1}),
                message="located", seconds=20)
    check(server, case, tmp_path)


@pytest.mark.slow
@FUZZ_MORE
@given(edits=EDITS)
def test_token_mutations_run(server, tmp_path, edits):
    check(server, ran(f"KERNEL {edits}", mutate(KERNEL, edits)), tmp_path)


@pytest.mark.slow   # 12 to 18 CPU seconds: its examples are processes
@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4))
def test_byte_flips(server, tmp_path, flips):
    data = bytearray(SOURCES["simpleDivergence.cu"].encode())
    for where, byte in flips:
        data[where % len(data)] = byte
    check(server, compiled(f"flips {flips}", bytes(data), message="error"), tmp_path)


@pytest.mark.slow
@FUZZ
@given(garbage=st.one_of(st.binary(min_size=1, max_size=64),
                         st.text(min_size=1, max_size=64),
                         st.lists(st.sampled_from(["}", "{", ")", "#endif", "#else", "/*", '"', "'", "\\", "<<<",
                                                   "template <", "__global__", ";", "int", "@"]), min_size=1,
                                  max_size=8).map(" ".join)))
def test_garbage_after_a_program(server, tmp_path, garbage):
    tail = garbage if isinstance(garbage, bytes) else garbage.encode("utf-8", "surrogatepass")
    check(server, compiled(f"garbage {garbage!r}", KERNEL.encode() + tail, message="error"), tmp_path)


@st.composite
def numeric_literals(draw) -> str:
    if draw(st.booleans()):
        digits = draw(st.text("0123456789abcdefABCDEF", min_size=1, max_size=400))
        return "0x" + digits + draw(st.sampled_from(["", "u", "ull", "LL", "p3", "p-99999", "p+1f"]))
    digits = draw(st.text("0123456789", min_size=1, max_size=400))
    fraction = draw(st.sampled_from(["", ".", ".5", "." + "9" * 300]))
    exponent = draw(st.sampled_from(["", "e39", "e-46", "e+308", "e309", "e99999", "e-99999", "e"]))
    suffix = draw(st.sampled_from(["", "f", "F", "u", "U", "l", "L", "ll", "ull", "LL", "lu", "uu", "d", "x"]))
    return digits + fraction + exponent + suffix


@pytest.mark.slow   # 12 to 18 CPU seconds: its examples are processes
@FUZZ
@given(literal=numeric_literals())
def test_numeric_literals(server, tmp_path, literal):
    source = host_main(f'    printf("%g %d\\n", (double)({literal}), (int)sizeof({literal}));')
    check(server, compiled(f"literal {literal}", source), tmp_path)


def kernel_program(body: str, depth: int) -> str:
    return (f"#include <stdio.h>\n__global__ void k(int *out, int n) {{\n    int t = threadIdx.x, a = t, b = n;\n"
            f"    {'{' * depth} {body} {'}' * depth}\n    out[t] = a + b;\n}}\n"
            "int main() {\n    int *d, h[64];\n    cudaMalloc(&d, sizeof(h));\n    k<<<2, 32>>>(d, 5);\n"
            "    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n"
            '    printf("%d %d\\n", h[0], h[63]);\n    return 0;\n}\n')


@pytest.mark.slow
@FUZZ
@given(body=st.lists(statements(), min_size=1, max_size=4).map(" ".join), depth=st.sampled_from([0, 100, 250]))
def test_generated_kernels_run(server, tmp_path, body, depth):
    case = Case(f"kernel depth {depth}", ["run", "main.cu"], {"main.cu": kernel_program(body, depth)},
                command="minicuda", status=frozenset({0}), seconds=15)
    check(server, case, tmp_path)
