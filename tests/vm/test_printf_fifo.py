"""Device printf through CUDA's FIFO: cudaLimitPrintfFifoSize bytes (8650752 by default
on the H100 with CUDA 13; below 524288 raised to it; fixed once a kernel has run), 256
bytes a record whatever the format, emptied at synchronisation points, the records
past a full FIFO dropped (the first kept, in block order) and never formatted.

The counts are the H100's, measured with tests/data/groundtruth/issue12/printf_fifo.cu
(go.sh there: nvcc 13.0 -O3 -arch=sm_90; out/fifo_FORMAT_SIZE_LINES.txt hold the lines
`| wc -l` counted on stdout, and the program's stderr).  Only one printf per thread is
deterministic on the GPU (a longer kernel's FIFO is drained while it runs), so those
are the cases compared."""
import random
import subprocess
import time

import pytest

from helpers import GROUNDTRUTH_DIR
from minicuda.vm.jit.printf_fifo import NONE_DROPPED, LaunchFifo

ISSUE12 = GROUNDTRUTH_DIR / "issue12"
PROBE = ISSUE12 / "printf_fifo.cu"


def measured(name: str) -> tuple[int, list[str]]:
    """(stdout's line count, stderr's lines) of one ground-truth run."""
    lines = (ISSUE12 / "out" / f"{name}.txt").read_text().splitlines()[1:-1]   # the command, the exit status
    count = next(int(line) for line in lines if line.isdigit())
    return count, [line for line in lines if not line.isdigit()]


def run(*args: str, engine: str = "jit") -> subprocess.CompletedProcess:
    return subprocess.run(["minicuda", "run", "--engine", engine, *args], capture_output=True, text=True)


CASES = [("4096", 0), ("0", 0)] + [pytest.param(fifo, fmt, marks=pytest.mark.slow)
                                    for fmt in range(1, 6) for fifo in ("4096", "0")]


@pytest.mark.parametrize("fifo, fmt", CASES)
def test_lines_printed_match_the_gpu(fifo, fmt):
    r = run(str(PROBE), fifo, str(fmt), "64", "1")
    count, stderr = measured(f"fifo_{fmt}_{fifo}_1")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == count
    assert r.stderr.splitlines() == stderr


def test_a_tiny_fifo_is_raised_to_its_minimum():
    r = run(str(PROBE), "1", "0", "1", "1")
    count, stderr = measured("fifo_set_tiny")
    assert (len(r.stdout.splitlines()), r.stderr.splitlines()) == (count, stderr)


@pytest.mark.slow
def test_the_interpreter_keeps_the_same_records_as_the_jit_with_any_number_of_workers():
    outputs = {run(str(PROBE), "4096", "0", "64", "1", engine="interp").stdout}
    for jobs in ("1", "3"):
        outputs.add(run("--jobs", jobs, str(PROBE), "4096", "0", "64", "1").stdout)
    assert len(outputs) == 1
    lines = outputs.pop().splitlines()
    assert lines[1:3] == ["0 0", "1 0"] and lines[2048] == "2047 0" and lines[-1] == "hello"


PRINT_A_LOT = r"""#include <stdio.h>
__global__ void k() { for (int i = 0; i < 64; i++) printf("%d %d\n", blockIdx.x * blockDim.x + threadIdx.x, i); }
int main() { k<<<256, 1024>>>(); cudaDeviceSynchronize(); return 0; }
"""


@pytest.mark.slow
def test_sixteen_million_printfs_finish_in_seconds(tmp_path):
    path = tmp_path / "pf.cu"
    path.write_text(PRINT_A_LOT)
    start = time.perf_counter()
    r = run(str(path))
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 8650752 // 256
    assert time.perf_counter() - start < 90   # each printf handed to the interpreter took minutes


@pytest.mark.parametrize("seed", range(20))
def test_the_launch_fifo_keeps_the_first_records_in_block_order(seed):
    rng = random.Random(seed)
    nblocks = rng.randint(1, 300)
    room = rng.randint(0, 400)
    fifo = LaunchFifo(room, nblocks)
    printed = {}
    for _ in range(rng.randint(0, 200)):   # blocks formatting records in any order
        b = rng.randrange(nblocks)
        if b >= fifo.first_dropped[0]:
            continue
        n = rng.randint(1, 5)
        assert fifo.room_for(b) == room - sum(len(printed.get(x, [])) for x in range(b + 1))
        printed.setdefault(b, []).extend(f"{b}.{len(printed.get(b, []))}".encode() for _ in range(n))
        fifo.add(b, n)
    in_order = [r for b in sorted(printed) for r in printed[b]]
    assert fifo.kept(printed) == in_order[:room]
    first = int(fifo.first_dropped[0])
    through = lambda b: sum(len(printed.get(x, [])) for x in range(b + 1))
    if first == NONE_DROPPED:
        assert through(nblocks - 1) < room
    else:
        assert through(first) >= room and (first == 0 or through(first - 1) < room)
