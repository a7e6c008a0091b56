"""cudaMalloc's large allocations are backed when made, as a GPU's memory is (vm/memory.py's
`huge_zeroed(committed=True)`): the first kernel to write one does not take a page fault per
page.  Host allocations stay lazy, as the OS maps a program's malloc."""
import os
import sys

import pytest

from minicuda.vm import memory as vm_memory
from minicuda.vm.memory import Memory

SIZE = 16 << 20


def resident() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def grown_by(space: str) -> int:
    memory = Memory()
    before = resident()
    address = memory.alloc(SIZE, space)
    grown = resident() - before
    a = memory.find(address)
    assert a.data.nbytes == SIZE and not a.data.any()   # zeroed, either way
    return grown


@pytest.mark.skipif(not sys.platform.startswith("linux") or vm_memory.MADV_POPULATE_WRITE is None,
                    reason="Linux's madvise(MADV_POPULATE_WRITE)")
def test_a_device_allocation_is_resident_when_made_and_a_host_one_is_not():
    if vm_memory.available_memory() < 4 * SIZE:
        pytest.skip("too little free memory to commit")
    device = grown_by("global")
    host = grown_by("host")
    assert device >= SIZE * 3 // 4, device   # (all of it, but for what the OS declined in huge pages)
    assert host < SIZE // 4, host
