"""The call stack keeps the suspended frames nearest the top unpacked and packs the
deepest beyond UNPACKED_BYTES (vm/callstack.py): work counted, not timed, on both engines."""
import io

import pytest

import minicuda
from minicuda.vm import callstack
from minicuda.vm.machine import Machine

RECURSION = r"""#include <cstdio>
#include <cstdlib>
int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
long wide(long a, int b) { return b == 0 ? a : wide(a * 3 + b, b - 1); }
int main(int argc, char **argv) {
  printf("%d %d %ld\n", down(atoi(argv[1])), fib(atoi(argv[2])), wide(1, 30));
  return 0;
}
"""
EXPECTED = "%d 144 %d\n"


def run_counting_packs(monkeypatch, engine: str, depth: int) -> tuple[str, int]:
    """(stdout, how many frames were packed) of RECURSION."""
    packs = []
    suspend = callstack.Frame.suspend

    def counted(frame, states):
        packs.append(frame.code.fn.name)
        suspend(frame, states)
    monkeypatch.setattr(callstack.Frame, "suspend", counted)
    out = io.BytesIO()
    m = Machine(minicuda.compile(RECURSION), engine=engine, stdout=out, stderr=io.BytesIO())
    assert m.run(["prog", str(depth), "12"]) == 0
    return out.getvalue().decode(), len(packs)


def wide_result() -> int:
    a = 1
    for b in range(30, 0, -1):
        a = (a * 3 + b) & 0xFFFFFFFFFFFFFFFF
    return a - (1 << 64) if a >> 63 else a


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_shallow_recursion_packs_no_frame(monkeypatch, engine):
    out, packs = run_counting_packs(monkeypatch, engine, 200)
    assert out == EXPECTED % (200, wide_result())
    assert packs == 0


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_frames_beyond_the_unpacked_bytes_are_packed_and_come_back_intact(monkeypatch, engine):
    monkeypatch.setattr(callstack, "UNPACKED_BYTES", 1)   # every suspended frame but the nearest packed
    out, packs = run_counting_packs(monkeypatch, engine, 200)
    assert out == EXPECTED % (200, wide_result())
    # down: 200 callers suspended below 201 frames, each packed once; fib(12) and wide
    # pack their callers too (main among them, once per call from it)
    assert packs >= 200
