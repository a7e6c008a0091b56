"""CUDA's checks of a kernel launch before it runs, for the simulated architecture.

`launch_error` is the error a `<<<grid, block, shared>>>` launch returns, 0 when it may
run, as CUDA 13 returns it on an H100 (tests/data/groundtruth/launch/README.md):
cudaErrorInvalidValue ("invalid argument") for a grid or block dimension of 0 or past
maxGridSize / maxThreadsDim, more than maxThreadsPerBlock threads, dynamic shared memory
beyond the block's maximum (48 KiB with its static shared memory, or the maximum
`cudaFuncSetAttribute` set) or more threads than `__launch_bounds__` allows;
cudaErrorLaunchOutOfResources ("too many resources requested for launch") when the
block's threads need more registers than regsPerBlock.  A refused launch runs
nothing; its error is the last error (cudaGetLastError returns it once), not a sticky
one.

`blocks_per_sm` is how many blocks of a kernel one SM holds at once (a cooperative
launch's grid may not exceed that times the SM count: cudaErrorCooperativeLaunchTooLarge).

`set_max_dynamic_shared` is cudaFuncSetAttribute's check of a new maximum: not negative,
and the static and dynamic shared memory together within the architecture's opt-in limit.
"""
from __future__ import annotations

from minicuda.arch import (MAX_BLOCK_DIMS, MAX_BLOCK_THREADS, STATIC_SHARED_LIMIT, block_registers, max_grid_dims,
                           ptxas_registers, registers_per_block, shared_optin)
from minicuda.ir import Function

SUCCESS = 0
MAX_BLOCKS_PER_SM = 32        # cudaDeviceProp.maxBlocksPerMultiProcessor (Volta and newer; 16 or 32 before)
REGISTERS_PER_SM = 65536
INVALID_VALUE = 1             # cudaErrorInvalidValue: "invalid argument"
OUT_OF_RESOURCES = 701        # cudaErrorLaunchOutOfResources: "too many resources requested for launch"


def launch_error(kernel: Function, sm: int, grid: tuple, block: tuple, dynamic: int, static: int,
                 max_dynamic: int | None = None) -> int:
    """The error of launching `kernel` (whose blocks hold `static` bytes of shared memory)
    with `dynamic` bytes of dynamic shared memory; `max_dynamic`: the maximum
    cudaFuncSetAttribute set for it, None when it was never set."""
    return (configuration_error(sm, grid, block)
            or shared_error(sm, dynamic, static, max_dynamic)
            or bounds_error(kernel, block)
            or register_error(kernel, sm, block))


def configuration_error(sm: int, grid: tuple, block: tuple) -> int:
    """Grid and block dimensions (each an unsigned 32-bit value: -1 is 4294967295)."""
    if min(grid + block) < 1:
        return INVALID_VALUE
    if any(n > most for n, most in zip(block, MAX_BLOCK_DIMS)) or block[0] * block[1] * block[2] > MAX_BLOCK_THREADS:
        return INVALID_VALUE
    if any(n > most for n, most in zip(grid, max_grid_dims(sm))):
        return INVALID_VALUE
    return SUCCESS


def shared_error(sm: int, dynamic: int, static: int, max_dynamic: int | None) -> int:
    """Dynamic shared memory beyond the block's maximum."""
    most = max_dynamic if max_dynamic is not None else STATIC_SHARED_LIMIT - static
    return INVALID_VALUE if dynamic > most or static + dynamic > shared_optin(sm) else SUCCESS


def bounds_error(kernel: Function, block: tuple) -> int:
    """More threads than the kernel's `__launch_bounds__` allow."""
    threads = block[0] * block[1] * block[2]
    return INVALID_VALUE if kernel.launch_bounds and threads > kernel.launch_bounds[0] else SUCCESS


def register_error(kernel: Function, sm: int, block: tuple) -> int:
    """The block's registers (ptxas's count per thread, allocated per warp) beyond
    regsPerBlock; a kernel with launch bounds has its registers kept within them by
    ptxas, so a block they admit fits."""
    if kernel.launch_bounds:
        return SUCCESS
    threads = block[0] * block[1] * block[2]
    registers = ptxas_registers(kernel.registers)
    return OUT_OF_RESOURCES if block_registers(registers, threads) > registers_per_block(sm) else SUCCESS


def set_max_dynamic_shared(sm: int, value: int, static: int) -> int:
    """cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, value)'s error."""
    return INVALID_VALUE if value < 0 or value + static > shared_optin(sm) else SUCCESS


def blocks_per_sm(kernel: Function, sm: int, block: tuple, shared: int, threads_per_sm: int,
                  shared_per_sm: int) -> int:
    """The blocks of `kernel` (with `shared` bytes of shared memory each) one SM holds at once:
    the fewest its threads, registers, shared memory and block limit allow (an H100 holds 8 of
    256 threads, 32 of 32)."""
    threads = block[0] * block[1] * block[2]
    warps = -(-threads // 32)
    fits = [MAX_BLOCKS_PER_SM, threads_per_sm // (warps * 32)]
    registers = block_registers(ptxas_registers(kernel.registers), threads)
    if registers:
        fits.append(REGISTERS_PER_SM // registers)
    if shared:
        fits.append(shared_per_sm // shared)
    return max(min(fits), 0)
