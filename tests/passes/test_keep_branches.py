"""keep-branches: -O0 keeps every conditional branch and records each at its line."""
import minicuda
from helpers import GROUNDTRUTH


def test_O0_keeps_every_branch_and_names_its_line():
    program = minicuda.compile(str(GROUNDTRUTH), opt=0)
    lines = sorted((d.function, d.line) for d in program.branch_decisions if d.function.startswith("mathKernel"))
    assert lines == [("mathKernel1", 7), ("mathKernel2", 13), ("mathKernel3", 20), ("mathKernel3", 21), ("mathKernel4", 28)]
    assert not any(d.predicated for d in program.branch_decisions)
