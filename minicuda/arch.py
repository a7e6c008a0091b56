"""GPU architectures: the families, the sm numbers minicuda knows, and what an sm number implies.

Everything that depends on the target reads it here: the compiler's `-arch`
parsing and help, the reconvergence markers it prints (SSY/SYNC for the stack
model, BSSY/BSYNC from Volta on), the VM's default scheduling model, the GPU
that `cudaGetDeviceProperties` describes (keyed by `family_of`) and ptxas's
constant-bank count.  An sm number is an int (70); its spelled form is "sm_70".
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
