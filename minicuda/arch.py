"""GPU architectures: the families, the sm numbers minicuda knows, and what an sm number implies.

Everything that depends on the target reads it here: the compiler's `-arch`
parsing and help, the reconvergence markers it prints (SSY/SYNC for the stack
model, BSSY/BSYNC from Volta on), the VM's default scheduling model, the GPU
that `cudaGetDeviceProperties` describes (keyed by `family_of`) and ptxas's
constant-bank count, and the limits CUDA checks at compile time and at launch (grid and
block dimensions, shared memory, registers, kernel parameters).  An sm number is an int (70); its spelled form is "sm_70".
A family covers the sm numbers from its first one up to the next family's first;
numbers below Fermi's count as Fermi.  This module imports nothing from minicuda.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    name: str
    first: int      # the family's first sm number
    selects: int    # the sm number `-arch=NAME` selects


FAMILIES = (
    Family("fermi", 20, 20), Family("kepler", 30, 35), Family("maxwell", 50, 52), Family("pascal", 60, 60),
    Family("volta", 70, 70), Family("turing", 75, 75), Family("ampere", 80, 80), Family("ada", 89, 89),
    Family("hopper", 90, 90), Family("blackwell", 100, 100),
)
KNOWN_SM = (20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 120)
ITS_FROM = 70   # Volta: independent thread scheduling; earlier GPUs keep a reconvergence stack per warp

_BY_NAME = {f.name: f for f in FAMILIES}

MAX_BLOCK_DIMS = (1024, 1024, 64)     # cudaDeviceProp.maxThreadsDim, every architecture
MAX_BLOCK_THREADS = 1024              # maxThreadsPerBlock
MAX_THREAD_REGISTERS = 255            # registers one thread may have (ptxas's ceiling)
STATIC_SHARED_LIMIT = 0xC000          # 48 KiB: a block's shared memory without an opt-in (ptxas's static limit)
# sharedMemPerBlockOptin of the board each family stands for (vm/runtime.py's DEVICES): the most
# shared memory a block may have once cudaFuncSetAttribute raises its dynamic maximum
_SHARED_OPTIN = {"volta": 96 << 10, "turing": 64 << 10, "ampere": 163 << 10, "ada": 99 << 10,
                 "hopper": 227 << 10, "blackwell": 227 << 10}


def parse_arch(text: str) -> int:
    """'sm_90', 'compute_70', '90', 'volta' -> the sm number; ValueError when unknown."""
    t = text.strip().lower()
    if t in _BY_NAME:
        return _BY_NAME[t].selects
    m = re.fullmatch(r"(?:sm_|compute_)?(\d+)a?", t)
    if not m or int(m.group(1)) not in KNOWN_SM:
        known = ", ".join(sorted(_BY_NAME)) + ", " + ", ".join(format_arch(s) for s in KNOWN_SM)
        raise ValueError(f"unknown architecture '{text}' (known: {known})")
    return int(m.group(1))


def format_arch(sm: int) -> str:
    return f"sm_{sm}"


def sm_of(name: str) -> int:
    """The sm number of a spelled architecture: 'sm_70' -> 70 (the inverse of format_arch)."""
    return int(name.split("_")[1])


def family_of(sm: int) -> str:
    family = FAMILIES[0]
    for f in FAMILIES:
        if f.first <= sm:
            family = f
    return family.name


def uses_stack(sm: int) -> bool:
    """Whether a warp runs under a reconvergence stack (SSY/SYNC) rather than ITS (BSSY/BSYNC)."""
    return sm < ITS_FROM


def default_sched(sm: int) -> str:
    """The VM's scheduling model for this architecture: 'stack' or 'its'."""
    return "stack" if uses_stack(sm) else "its"


def reserved_cmem(sm: int) -> int:
    """Bytes of constant bank 0 before a kernel's parameters, as ptxas counts cmem[0]."""
    return 0x210 if sm >= _BY_NAME["volta"].first else 0x140


def arch_choices() -> str:
    """The -arch values, for help texts: 'sm_20..sm_120 or a family name (fermi, ...)'."""
    names = ", ".join(f.name for f in FAMILIES)
    return f"{format_arch(KNOWN_SM[0])}..{format_arch(KNOWN_SM[-1])} or a family name ({names})"


def sched_summary() -> str:
    """Which architectures run which scheduling model, for help texts."""
    stack = [f.name for f in FAMILIES if uses_stack(f.first)]
    its = [f.name for f in FAMILIES if not uses_stack(f.first)]
    last_stack = max(s for s in KNOWN_SM if uses_stack(s))
    return (f"{format_arch(KNOWN_SM[0])}..{format_arch(last_stack)} / {stack[0]}..{stack[-1]} run the stack model, "
            f"{format_arch(ITS_FROM)}+ / {its[0]}.. independent thread scheduling")


def max_grid_dims(sm: int) -> tuple[int, int, int]:
    """cudaDeviceProp.maxGridSize: Fermi's grids stop at 65535 blocks in x, later ones at 2^31 - 1."""
    return (65535 if sm < _BY_NAME["kepler"].first else 2**31 - 1, 65535, 65535)


def shared_optin(sm: int) -> int:
    """The most shared memory (static and dynamic) one block may use after opting in."""
    return _SHARED_OPTIN.get(family_of(sm), STATIC_SHARED_LIMIT)


def registers_per_block(sm: int) -> int:
    """regsPerBlock: 32-bit registers all of a block's threads may hold together."""
    return 32768 if sm < _BY_NAME["kepler"].first else 65536


def parameter_space(sm: int) -> int:
    """Bytes of parameters a kernel may take: 4 KiB, and from CUDA 12.1 on 32764 from Volta on."""
    return 32764 if sm >= _BY_NAME["volta"].first else 4096


def ptxas_registers(allocated: int) -> int:
    """The registers ptxas reports for a function of `allocated` (0: none, as a .sass
    without the fact): R1, the stack pointer, and RZ come on top; at least 8, at most 255."""
    return min(max(allocated + 2, 8), MAX_THREAD_REGISTERS) if allocated else 0


def block_registers(registers: int, threads: int) -> int:
    """Registers a block of `threads` takes: each warp's are allocated in units of 256."""
    warps = -(-threads // 32)
    return warps * (-(-registers * 32 // 256) * 256)
