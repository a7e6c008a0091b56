"""The clock special registers (SR_CLOCKLO, SR_CLOCKHI and SR_CLOCK, which reads
SR_CLOCKLO) in a .sass kernel: they read the counter clock64() reads, which only grows."""
from __future__ import annotations

import numpy as np
import pytest

from minicuda.ir import parse_module
from minicuda.vm.launcher import Device


CLOCK_KERNEL = """.arch sm_70
.sched its

.kernel k (R2:p:8:pointer)
  .shared 0 .local 0 .registers 8 .predicates 0
.L_entry:
  S2R R4, SR_CLOCKLO
  S2R R5, SR_CLOCKHI
  S2R R6, SR_CLOCK
  STG [R2], R4
  STG [R2+0x4], R5
  STG [R2+0x8], R6
  EXIT
.end k
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_the_clock_special_registers_read_a_growing_counter(engine):
    out = np.zeros(3, np.uint32)
    Device(parse_module(CLOCK_KERNEL, check=True), engine=engine).launch("k", 1, 32, out)
    first = (int(out[1]) << 32) | int(out[0])
    assert first > 0
    assert (int(out[2]) - int(out[0])) & 0xFFFFFFFF < 1 << 31   # SR_CLOCK read after SR_CLOCKLO: not earlier
