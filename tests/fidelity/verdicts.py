"""ptxas's verdict on every source branch of the fidelity suite at -O3, read from the
committed SASS (tests/data/groundtruth/fidelity/sass/sm_90_O3.sass), written as
tests/data/groundtruth/fidelity/verdicts.tsv:

    python tests/fidelity/verdicts.py            # writes the table
    python tests/fidelity/verdicts.py --check    # exit status 1 when the file differs

A source branch is each `if`, `&&`, `||`, `?:` and `case` test outside a loop's own exit
tests: the branches minicuda's -G build keeps (one per test, by line:column; a loop's
tests are the loops section's, not here).  Its verdict:

- `predicated`: no branch is left for it.  Where the kernel's SASS has no conditional
  BRA at all, every source branch is predicated (evidence `-`); elsewhere the evidence
  is the address of an instruction under the predicate that replaced it (an `@P EXIT`
  for `if (c) return;` and for an `if` whose other side only exits).
- `kept`: a conditional BRA of that test stays; the evidence is its address.

The SASS carries no line information, so for the kernels whose SASS has conditional
branches the attribution below is by hand (read instruction by instruction; docs/
fidelity.md has the listings' shapes), and this script checks it against the SASS: a
kept branch's address holds a conditional BRA, a predicated one's a guarded
instruction that is not a BRA, and every source branch has exactly one verdict.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import pathlib
import re
import sys

from minicuda.cli import minicudac_main

HERE = pathlib.Path(__file__).resolve().parent
KERNELS = HERE / "kernels"
DATA = HERE.parent / "data" / "groundtruth" / "fidelity"
SASS = DATA / "sass" / "sm_90_O3.sass"
OUT = DATA / "verdicts.tsv"

# kernel -> {line:column -> (verdict, SASS address)}: the kernels whose SASS has conditional branches
BY_HAND: dict[str, dict[str, tuple[str, str]]] = {
    "and_cond": {"12:7": ("kept", "00b0"), "12:17": ("predicated", "0110")},
    "early_return_loop": {"11:7": ("predicated", "0070")},
    "if_else_chain_stores": {"12:7": ("kept", "00c0"), "13:12": ("kept", "00e0"), "14:12": ("kept", "0110")},
    "nested_if": {"12:7": ("kept", "00e0"), "14:9": ("predicated", "0110")},
    "or_cond": {"12:7": ("kept", "0090"), "12:21": ("kept", "0100")},
    "reduce_global_interleaved": {"13:9": ("kept", "00e0"), "16:7": ("predicated", "01b0")},
    "reduce_global_neighbored": {"13:9": ("kept", "0200"), "16:7": ("predicated", "02d0")},
    "reduce_shared_interleaved": {"15:9": ("predicated", "0150"), "18:7": ("predicated", "01e0")},
    "reduce_shared_neighbored_float": {"15:9": ("predicated", "0260"), "18:7": ("predicated", "02f0")},
    "reduce_shared_strided_index": {"16:9": ("predicated", "0160"), "19:7": ("predicated", "0210")},
    "switch_dense": {"14:5": ("kept", "0100"), "15:5": ("kept", "0120"), "16:5": ("kept", "0140"),
                     "17:5": ("kept", "01e0"), "18:5": ("kept", "0200"), "19:5": ("kept", "0260"),
                     "20:5": ("kept", "0290")},
    "switch_small": {"13:5": ("kept", "0100"), "14:5": ("kept", "0120"), "15:5": ("predicated", "0140")},
    "switch_uniform": {"13:5": ("kept", "00c0"), "14:5": ("kept", "00e0"), "15:5": ("kept", "0110")},
    "while_data_dependent": {"13:10": ("kept", "00e0"), "14:9": ("predicated", "0120")},
}

_CONDITIONAL_BRA = re.compile(r"^@!?P\d BRA ")
_GUARDED = re.compile(r"^@!?P\d ")


def sass_functions(text: str) -> dict[str, dict[str, str]]:
    """mangled name -> {address -> instruction}."""
    out: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith(".function "):
            current = out.setdefault(line.split()[1], {})
        elif current is not None and line.strip():
            address, _, instruction = line.partition(" ")
            current[address] = instruction
    return out


def kernel_sass(functions: dict, kernel: str) -> dict[str, str]:
    """The kernel's instructions (its mangled name is _Z<len><name>...)."""
    names = [f for f in functions if f.startswith(f"_Z{len(kernel)}{kernel}")]
    if len(names) != 1:
        raise SystemExit(f"verdicts.py: {kernel}: {len(names)} functions in {SASS.name}")
    return functions[names[0]]


def source_branches(kernel: str) -> list[str]:
    """line:column of every conditional branch minicuda's -G build keeps outside a loop's exits."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = minicudac_main([str(KERNELS / f"{kernel}.cu"), "-G", "-arch", "sm_90", "--report", "predication",
                                 "--report-format", "json"])
    if status != 0:
        raise SystemExit(f"verdicts.py: {kernel}.cu does not compile")
    return [f"{d['line']}:{d['column']}" for d in json.loads(out.getvalue()) if not d["loop"]]


def verdicts() -> list[tuple[str, str, str, str]]:
    """(kernel, line:column, verdict, evidence) for every source branch of the suite."""
    functions = sass_functions(SASS.read_text())
    rows = []
    for path in sorted(KERNELS.glob("*.cu")):
        kernel = path.stem
        sass = kernel_sass(functions, kernel)
        branches = source_branches(kernel)
        conditional = [a for a, i in sass.items() if _CONDITIONAL_BRA.match(i)]
        by_hand = BY_HAND.get(kernel)
        if by_hand is None:
            if conditional and branches:
                raise SystemExit(f"verdicts.py: {kernel}: the SASS has conditional branches "
                                 f"({', '.join(conditional)}): give its verdicts by hand")
            rows += [(kernel, b, "predicated", "-") for b in branches]
            continue
        if sorted(by_hand) != sorted(branches):
            raise SystemExit(f"verdicts.py: {kernel}: verdicts for {sorted(by_hand)}, source branches {sorted(branches)}")
        for b in branches:
            verdict, address = by_hand[b]
            instruction = sass.get(address, "")
            ok = _CONDITIONAL_BRA.match(instruction) if verdict == "kept" else (
                _GUARDED.match(instruction) and not _CONDITIONAL_BRA.match(instruction))
            if not ok:
                raise SystemExit(f"verdicts.py: {kernel} {b}: {verdict} at {address}, but the SASS has '{instruction}'")
            rows.append((kernel, b, verdict, f"{address} {instruction}"))
    return rows


def render(rows) -> str:
    lines = ["# ptxas's verdict per source branch at -O3 (sm_90, nvcc 13.0), from sass/sm_90_O3.sass;",
             "# written by tests/fidelity/verdicts.py. kernel, line:column, verdict, evidence (SASS address and instruction)"]
    lines += ["\t".join(row) for row in rows]
    return "\n".join(lines) + "\n"


def read(path: pathlib.Path = OUT) -> dict[tuple[str, str], str]:
    """(kernel, line:column) -> 'kept' or 'predicated'."""
    out = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            kernel, where, verdict, _ = line.split("\t")
            out[(kernel, where)] = verdict
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table instead of writing it")
    text = render(verdicts())
    if parser.parse_args().check:
        sys.exit(0 if OUT.read_text() == text else 1)
    OUT.write_text(text)
