"""Lowering at the target's static limits: huge initialised globals keep only their
non-zero prefix; too much shared or constant data is ptxas's error (the corpus in
tests/grammar/diagnostics has the located messages)."""
from __future__ import annotations

import pytest

import minicuda
from minicuda.diagnostics import CompileError


def test_a_huge_initialised_array_stores_only_its_initialiser():
    program = minicuda.compile("char g[1ull << 40] = {1};\n__device__ int d[1ull << 36] = {1, 2};\n"
                               "char s[1ull << 40] = \"ab\";\nint main() { return 0; }\n")
    globals_ = program.module.globals
    assert globals_["g"].size == 1 << 40 and globals_["g"].init == b"\x01"
    assert globals_["d"].init == bytes([1, 0, 0, 0, 2, 0, 0, 0])
    assert globals_["s"].init == b"ab\0"


def test_partial_initialisers_still_place_each_element():
    program = minicuda.compile("int m[3][2] = {{1}, {2, 3}};\nint main() { return 0; }\n")
    assert program.module.globals["m"].init == bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])


@pytest.mark.parametrize("src, message", [
    ("__global__ void k(float *p) { __shared__ float s[12289]; p[0] = s[0]; }",
     "entry function 'k' uses too much shared data (0xc004 bytes, 0xc000 max)"),
    ("__constant__ char c[65537];\n__global__ void k(char *p) { p[0] = c[0]; }",
     "too much global constant data (0x10001 bytes, 0x10000 max)"),
])
def test_static_shared_and_constant_limits(src, message):
    with pytest.raises(CompileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        minicuda.compile(src)


def test_data_at_the_limits_compiles():
    minicuda.compile("__constant__ char c[65536];\n__global__ void k(float *p) { __shared__ float s[12288]; "
                     "p[0] = s[0] + c[0]; }")
