"""The expected output of each C++ language program and CUDA intrinsics program is what an
H100 printed: tests/data/groundtruth/cxx/out/language.txt, recorded by language.sh beside it
(nvcc 13.0 -std=c++17 -arch=sm_90, its header says which GPU and compiler).  A program
added without a record fails here until the GPU has run it."""
import re
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent
RECORD = PROGRAMS.parent / "data" / "groundtruth" / "cxx" / "out" / "language.txt"
ENTRY = re.compile(r"^=== (\S+) (exit=\d+|build-failed)\n", re.M)
RECORDED_INTRINSICS = ["bit_intrinsics", "conversions", "fast_math"]   # legacy_warp: sm_60 only


def recorded() -> dict[str, tuple[str, str]]:
    """Program name -> (exit=N or build-failed, its stdout) from the record."""
    parts = ENTRY.split(RECORD.read_text().split("\n=== end\n")[0] + "\n")
    return {parts[i]: (parts[i + 1], parts[i + 2].partition("--- stderr\n")[0]) for i in range(1, len(parts), 3)}


RECORD_ENTRIES = recorded()
EXPECTED = sorted((PROGRAMS / "cxx_language").glob("*.expected")) + \
    [PROGRAMS / "cuda_intrinsics" / f"{n}.expected" for n in RECORDED_INTRINSICS]


@pytest.mark.parametrize("expected", EXPECTED, ids=[p.stem for p in EXPECTED])
def test_the_expected_output_is_what_the_gpu_printed(expected):
    assert expected.stem in RECORD_ENTRIES, f"{expected.stem} has no GPU record: run language.sh on the GPU machine"
    status, stdout = RECORD_ENTRIES[expected.stem]
    assert status == "exit=0"
    assert expected.read_text() == stdout
