"""The expected output of each C++ language program, CUDA intrinsics program and CUDA runtime
program is what an H100 printed: tests/data/groundtruth/cxx/out/language.txt and
tests/data/groundtruth/cuda/out/runtime.txt, recorded by language.sh and runtime.sh beside
them (nvcc 13.0 -std=c++17 -arch=sm_90, each header says which GPU and compiler).  A program
added without a record fails here until the GPU has run it; a runtime program marked
`// gpu-record: none, REASON` (what CUDA 13 removed) is checked by its CUDA 11 semantics only."""
import re
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent
RECORD = PROGRAMS.parent / "data" / "groundtruth" / "cxx" / "out" / "language.txt"
RUNTIME_RECORD = PROGRAMS.parent / "data" / "groundtruth" / "cuda" / "out" / "runtime.txt"
ENTRY = re.compile(r"^=== (\S+) (exit=\d+|build-failed)\n", re.M)
RECORDED_INTRINSICS = ["bit_intrinsics", "conversions", "fast_math", "fast_math_option"]   # legacy_warp: sm_60 only


def recorded(record: Path = RECORD) -> dict[str, tuple[str, str]]:
    """Program name -> (exit=N or build-failed, its stdout) from a record."""
    parts = ENTRY.split(record.read_text().split("\n=== end\n")[0] + "\n")
    return {parts[i]: (parts[i + 1], parts[i + 2].partition("--- stderr\n")[0]) for i in range(1, len(parts), 3)}


RECORD_ENTRIES = {**recorded(), **recorded(RUNTIME_RECORD)}
EXPECTED = sorted((PROGRAMS / "cxx_language").glob("*.expected")) + \
    [PROGRAMS / "cuda_intrinsics" / f"{n}.expected" for n in RECORDED_INTRINSICS] + \
    [p for p in sorted((PROGRAMS / "cuda_runtime").glob("*.expected"))
     if "// gpu-record: none" not in p.with_suffix(".cu").read_text()]


@pytest.mark.parametrize("expected", EXPECTED, ids=[p.stem for p in EXPECTED])
def test_the_expected_output_is_what_the_gpu_printed(expected):
    assert expected.stem in RECORD_ENTRIES, f"{expected.stem} has no GPU record: run language.sh on the GPU machine"
    status, stdout = RECORD_ENTRIES[expected.stem]
    assert status == "exit=0"
    assert expected.read_text() == stdout
