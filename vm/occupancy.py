"""Occupancy as CUDA's occupancy calculator computes it (cuda_occupancy.h), for
cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxPotentialBlockSize and
cudaFuncGetAttributes' maxThreadsPerBlock.

A kernel's resident blocks per SM are the least of four limits: blocks per SM, warps per
SM, registers (ptxas's count per thread, allocated per warp in units of 256 of the SM's
65536) and shared memory (static plus dynamic plus the 1 KiB the system reserves per block
from sm_80 on, in units of 128 bytes, out of the SM's largest carveout).  The registers
are minicuda's own count (minicuda.arch.ptxas_registers), so a kernel that ptxas gives
many more registers can be reported a higher occupancy than a GPU reports.
"""
from __future__ import annotations

from minicuda.arch import MAX_BLOCK_THREADS, family_of, ptxas_registers

WARP = 32
REGISTER_UNIT = 256           # registers are allocated to a warp in units of this many
REGISTERS_PER_SM = 65536
SHARED_UNIT = 128             # shared memory is allocated to a block in units of this many bytes
RESERVED_SHARED_FROM = 80     # from sm_80 on the system reserves 1 KiB of shared memory per block
RESERVED_SHARED = 1024

# family -> (most resident blocks per SM, most resident threads per SM, shared memory per SM)
SM_LIMITS = {
    "fermi": (8, 1536, 48 << 10), "kepler": (16, 2048, 48 << 10), "maxwell": (32, 2048, 96 << 10),
    "pascal": (32, 2048, 64 << 10), "volta": (32, 2048, 96 << 10), "turing": (16, 1024, 64 << 10),
    "ampere": (32, 2048, 164 << 10), "ada": (24, 1536, 100 << 10), "hopper": (32, 2048, 228 << 10),
    "blackwell": (32, 2048, 228 << 10),
}


def warp_registers(registers: int) -> int:
    """Registers one warp of a kernel takes (ptxas's count per thread)."""
    return -(-registers * WARP // REGISTER_UNIT) * REGISTER_UNIT


def block_shared(sm: int, shared: int) -> int:
    """Shared memory one block takes on the SM: its own, the reserved KiB, rounded up."""
    total = shared + (RESERVED_SHARED if sm >= RESERVED_SHARED_FROM else 0)
    return -(-total // SHARED_UNIT) * SHARED_UNIT


def max_threads_per_block(sm: int, allocated: int, launch_bounds: tuple | None) -> int:
    """cudaFuncAttributes.maxThreadsPerBlock: the launch bounds', or as many whole warps as
    the kernel's registers allow, at most 1024."""
    if launch_bounds:
        return launch_bounds[0]
    registers = ptxas_registers(allocated)
    if not registers:
        return MAX_BLOCK_THREADS
    return min(MAX_BLOCK_THREADS, REGISTERS_PER_SM // warp_registers(registers) * WARP)


def active_blocks(sm: int, allocated: int, shared: int, block_size: int) -> int:
    """Resident blocks per SM of `block_size` threads that use `shared` bytes of shared
    memory each, for a kernel of `allocated` registers (0 when a block cannot run)."""
    blocks_limit, threads_limit, shared_limit = SM_LIMITS[family_of(sm)]
    warps = -(-block_size // WARP)
    limits = [blocks_limit, threads_limit // WARP // warps]
    registers = ptxas_registers(allocated)
    if registers:
        limits.append(REGISTERS_PER_SM // warp_registers(registers) // warps)
    if shared:
        limits.append(shared_limit // block_shared(sm, shared))
    return max(min(limits), 0)


def potential_block_size(sm: int, allocated: int, static_shared: int, dynamic: int, limit: int,
                         most_threads: int) -> tuple[int, int]:
    """cudaOccupancyMaxPotentialBlockSize's (blocks per SM, block size): the block size, in
    whole warps from the largest (rounded up) down, that keeps the most threads resident; the first found
    wins a tie, and the search stops at full occupancy, as cuda_runtime.h's loop does."""
    threads_limit = SM_LIMITS[family_of(sm)][1]
    top = min(limit, most_threads) if limit > 0 else most_threads
    best = (0, 0)
    best_threads = 0
    for aligned in range(-(-top // WARP) * WARP, 0, -WARP):
        size = min(aligned, top)
        blocks = active_blocks(sm, allocated, static_shared + dynamic, size)
        if blocks * size > best_threads:
            best, best_threads = (blocks, size), blocks * size
        if best_threads == threads_limit:
            break
    return best
