"""nvcc's command-line spellings, read the way nvcc reads them.

minicudac takes nvcc's options (`-arch`, `-code`, `-gencode`, `-std`, `-Xptxas`,
`-Xcompiler`, ...).  This module holds what is nvcc's own in them: the argument
vector rewritten so that an option's value that starts with `-` (`-Xptxas -v`)
stays with its option, the one target a set of `-arch`/`-code`/`-gencode` options
names (minicuda simulates one GPU: the highest real architecture listed, the one a
fat binary would run on the newest of those GPUs), the `-std` values nvcc 13 knows,
and the ptxas options understood.  Errors are NvccError, whose text is nvcc's
(`Value 'c++23' is not defined for option 'std'`); the caller prints it after
`minicudac fatal   : ` as nvcc does.  This module imports nothing from minicuda but
the arch table.
"""
from __future__ import annotations

import re

from minicuda.arch import format_arch, parse_arch

STD_VALUES = ("c++03", "c++11", "c++14", "c++17", "c++20")   # what nvcc 13 accepts for -std
FATAL = "fatal   : "   # after the program's name, as nvcc prints its errors

# options whose value is the next argument even when it starts with '-': (spelling, canonical)
PASS_THROUGH = {"-Xptxas": "-Xptxas", "--ptxas-options": "-Xptxas",
                "-Xcompiler": "-Xcompiler", "--compiler-options": "-Xcompiler"}
PTXAS_VERBOSE = ("-v", "--verbose")
# ptxas options accepted without effect: optimisation levels and warnings about what minicuda never does
PTXAS_ACCEPTED = re.compile(r"-O[0-3]|--?warn-on-spills|-warn-spills|--?warn-on-local-memory-usage|"
                            r"--?allow-expensive-optimizations(=(true|false))?")


class NvccError(ValueError):
    """A command line nvcc rejects; the text is nvcc's message after `fatal   : `."""


def joined_values(argv: list[str]) -> list[str]:
    """argv with `-Xptxas -v` written `-Xptxas=-v` (and so for the other PASS_THROUGH
    options), so that an argument parser never takes the value for an option."""
    out, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in PASS_THROUGH and i + 1 < len(argv):
            out.append(f"{PASS_THROUGH[arg]}={argv[i + 1]}")
            i += 2
            continue
        name, eq, value = arg.partition("=")
        out.append(f"{PASS_THROUGH[name]}={value}" if eq and name in PASS_THROUGH else arg)
        i += 1
    return out


def check_std(value: str | None) -> None:
    if value is not None and value not in STD_VALUES:
        raise NvccError(f"Value '{value}' is not defined for option 'std'")


def ptxas_verbose(options: list[str]) -> bool:
    """Whether -Xptxas/--ptxas-options ask for ptxas's resource report (-v); NvccError
    naming a ptxas option minicuda does not understand (ptxas's own wording)."""
    verbose = False
    for option in (o for value in options for o in value.split(",") if o):
        if option in PTXAS_VERBOSE:
            verbose = True
        elif not PTXAS_ACCEPTED.fullmatch(option):
            raise NvccError(f"Unknown ptxas option '{option}' (minicuda understands -v, --verbose, -O0..-O3, "
                            f"--warn-on-spills)")
    return verbose


def _codes(text: str) -> list[str]:
    """`sm_90`, `[sm_80,compute_80]`, `"sm_70,sm_75"` -> the names listed."""
    return [c for c in re.split(r"[,\s]+", text.strip().strip("'\"").strip("[]")) if c]


def _gencode_targets(value: str) -> list[str]:
    """The code names of one `-gencode arch=compute_XX,code=sm_XX` (code may be a
    bracketed list; a missing code means the arch's own)."""
    fields: dict[str, str] = {}
    for part in re.split(r",(?![^\[]*\])", value.strip().strip("'\"")):
        key, eq, item = part.partition("=")
        if not eq:
            raise NvccError(f"'{part}' is not in 'keyword=value' format")
        if key not in ("arch", "code"):
            raise NvccError(f"Unknown keyword '{key}' in option '--generate-code {value}' (arch, code)")
        fields[key] = item
    if "arch" not in fields:
        raise NvccError(f"Option '--generate-code {value}', missing arch")
    if "code" not in fields:
        raise NvccError(f"Option '--generate-code {value}', missing code")
    return _codes(fields["code"])


def _sm(name: str) -> int:
    try:
        return parse_arch(name)
    except ValueError:
        raise NvccError(f"Unsupported gpu architecture '{name}'") from None


def targets(arch: str | None, codes: list[str], gencodes: list[str]) -> list[int]:
    """The sm numbers that -arch, -code and -gencode name, in the order given (empty when
    none is given); NvccError for a malformed or unknown one."""
    named: list[str] = [c for value in gencodes for c in _gencode_targets(value)]
    code_list = [c for value in codes for c in _codes(value)]
    if code_list:
        if arch is not None and arch.lower().startswith("sm_"):
            raise NvccError(f"Value of -arch option ('{arch}') must be a virtual code architecture")
        named += code_list
    elif arch is not None:
        named.insert(0, arch)
    sms = []
    for name in named:
        sm = _sm(name)
        if sm not in sms:
            sms.append(sm)
    return sms


def simulated_target(arch: str | None, codes: list[str], gencodes: list[str]) -> tuple[str | None, str | None]:
    """(the -arch value minicuda compiles for, a note saying which target of several it
    simulates or None): the highest sm number named, which is the code a fat binary runs
    on the newest of its GPUs.  (None, None) when no target option is given."""
    if not codes and not gencodes:
        return arch, None
    sms = targets(arch, codes, gencodes)
    chosen = format_arch(max(sms))
    note = None
    if len(sms) > 1:
        note = (f"several targets ({', '.join(format_arch(s) for s in sms)}): minicuda simulates one GPU, "
                f"{chosen}, the highest")
    return chosen, note
