"""Property tests: for race-free kernels without warp intrinsics, the stack model, ITS
and a plain per-thread scalar execution give identical memory, at -O0 and -O3
(if-conversion never changes results)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minicuda
from helpers.kernels import statements
from minicuda.vm.launcher import Device


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.lists(statements(), min_size=1, max_size=5))
def test_stack_its_and_scalar_execution_agree(body):
    src = ("__global__ void k(int *out, int n) {\n  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  int a = t, b = n - t;\n  " + "\n  ".join(body) + "\n  out[t] = a ^ (b << 1);\n}\n")
    results = set()
    for opt in (0, 3):
        program = minicuda.compile(src, arch="sm_70", opt=opt, verify_each=True)
        for sched in ("stack", "its", "scalar"):
            out = np.zeros(80, np.int32)
            Device(program, sched=sched).launch("k", 2, 40, out, 77)
            results.add(out.tobytes())
    assert len(results) == 1, src
