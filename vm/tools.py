"""The checking tools `minicuda run --tool NAME` adds to a run, as compute-sanitizer's do.

Out-of-bounds and misaligned accesses are faults minicuda always reports; a tool adds
checks of what the hardware lets pass.  TOOLS names each tool and what it checks; the
engines read `Interpreter.tools` (the names asked for) where they check.  A report is
written in compute-sanitizer's shape, once per instruction, and the run goes on:

    ========= Integer division by zero
    =========     at x.cu:4:33 in 'divide'
    =========     by thread (3,0,0) in block (0,0,0)
    =========

A later tool (racecheck, synccheck, initcheck) is a row here and its check where the
engines see what it checks.
"""
from __future__ import annotations

TOOLS = {
    "memcheck": "also report each kernel instruction that divides an integer by zero (the GPU does not trap: "
                "the result is all ones), once per instruction; the run goes on",
}


def sanitizer_report(what: str, w, lane: int, loc) -> str:
    """The report of `what` for thread `lane` of warp `w` (a kernel's, or a device function's call)."""
    tid = ",".join(str(int(w.ids["SR_TID"][a][lane])) for a in "XYZ")
    bid = ",".join(str(int(w.ids["SR_CTAID"][a][lane])) for a in "XYZ")
    at = f"{loc} in " if loc is not None else ""
    return "\n".join((f"========= {what}", f"=========     at {at}'{w.code.fn.name}'",
                      f"=========     by thread ({tid}) in block ({bid})", "========="))
