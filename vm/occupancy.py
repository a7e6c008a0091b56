"""Occupancy as CUDA's occupancy calculator computes it (cuda_occupancy.h), for
cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxPotentialBlockSize and
cudaFuncGetAttributes' maxThreadsPerBlock.

A kernel's resident blocks per SM are the least of four limits: blocks per SM, warps per
SM, registers (ptxas's count per thread, allocated per warp in units of 256 of the SM's
65536) and shared memory (static plus dynamic plus the 1 KiB the system reserves per block
from sm_80 on, in units of 128 bytes, out of the carveout the driver configures for the
launch: from sm_80 on the least that holds the blocks the other limits allow, as ncu reports
on an H100; before, the SM's).  The registers are minicuda's own count
(minicuda.arch.ptxas_registers), so a kernel that ptxas gives many more registers can be
reported a higher occupancy than a GPU reports.  `occupancy` gives each limit, the least
(the limiter) and the theoretical occupancy, for --resource-usage and the launch metrics;
the cudaOccupancy* calls read the same.
"""
from __future__ import annotations

from dataclasses import dataclass

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
    return max(occupancy(sm, allocated, shared, block_size).blocks, 0)


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


LIMITERS = ("registers", "shared_mem", "warps", "blocks")   # ncu's launch__occupancy_limit_* suffixes


@dataclass(frozen=True)
class Occupancy:
    """A launch's theoretical occupancy, as the occupancy calculator and ncu's Occupancy
    section give it: the blocks per SM each resource allows, the least of them, and the
    active warps per SM that follow as a share of the SM's most."""
    block_size: int
    limits: dict          # LIMITERS -> blocks per SM that resource allows
    max_warps: int        # the SM's most resident warps
    shared: int = 0       # the block's own shared memory (static and dynamic), bytes

    @property
    def blocks(self) -> int:
        return min(self.limits.values())

    @property
    def warps(self) -> int:
        return self.blocks * -(-self.block_size // WARP)

    @property
    def percent(self) -> float:
        return 100.0 * self.warps / self.max_warps

    @property
    def limiter(self) -> str:
        """What limits it: every resource whose limit is the least, in ncu's order, joined by '+'
        (shared memory only for a block that has some of its own)."""
        return "+".join(name for name in LIMITERS
                        if self.limits[name] == self.blocks and (name != "shared_mem" or self.shared))

    def as_dict(self) -> dict:
        return {"theoretical_occupancy": round(self.percent, 2), "occupancy_limiter": self.limiter,
                "active_blocks_per_sm": self.blocks, **{f"occupancy_limit_{k}": v for k, v in self.limits.items()}}

    def line(self) -> str:
        """--resource-usage's line for it."""
        return (f"Occupancy at {self.block_size} threads per block: {self.percent:.2f}% "
                f"({self.warps} of {self.max_warps} warps per SM, {self.blocks} blocks), limited by {self.limiter} "
                f"(blocks per SM: " + ", ".join(f"{k} {v}" for k, v in self.limits.items()) + ")")


def occupancy(sm: int, allocated: int, shared: int, block_size: int, registers: int | None = None) -> Occupancy:
    """The theoretical occupancy of blocks of `block_size` threads with `shared` bytes of
    shared memory each, for a kernel of `allocated` registers (minicuda's count; or ptxas's
    count per thread, `registers`, when given)."""
    blocks_limit, threads_limit, shared_limit = SM_LIMITS[family_of(sm)]
    warps = -(-block_size // WARP)
    registers = ptxas_registers(allocated) if registers is None else registers
    limits = {"registers": REGISTERS_PER_SM // warp_registers(registers) // warps if registers else blocks_limit,
              "warps": threads_limit // WARP // warps, "blocks": blocks_limit}
    per_block = block_shared(sm, shared)
    if sm >= RESERVED_SHARED_FROM:
        limits["shared_mem"] = carveout(sm, shared, min(limits.values())) // per_block
    else:
        limits["shared_mem"] = shared_limit // per_block if shared else blocks_limit
    limits = {name: limits[name] for name in LIMITERS}
    return Occupancy(block_size, limits, threads_limit // WARP, shared)


# the shared-memory carveouts (KiB) an sm_80+ SM can be configured with
CARVEOUTS = {"ampere": (0, 8, 16, 32, 64, 100, 132, 164), "ada": (0, 8, 16, 32, 64, 100),
             "hopper": (0, 8, 16, 32, 64, 100, 132, 164, 196, 228),
             "blackwell": (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)}


def carveout(sm: int, shared: int, blocks: int) -> int:
    """The shared memory (bytes) the driver configures the SM with for a launch, as measured
    on an H100 (ncu's launch__shared_mem_config_size): the least carveout that holds the
    `blocks` the other limits allow, or 4 KiB per block, at most 32 KiB, for a kernel with
    no shared memory of its own; at most the largest."""
    need = blocks * block_shared(sm, shared) if shared else min(blocks * 4096, 32 << 10)
    options = [kib << 10 for kib in CARVEOUTS.get(family_of(sm), (SM_LIMITS[family_of(sm)][2] >> 10,))]
    return next((size for size in options if size >= need), options[-1])
