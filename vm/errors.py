"""VMError: a fault in the user's program (a bad access, a SIMT deadlock, a trap, an
exhausted budget), raised by either engine and the runtime, reported as CUDA reports it
with the kernel, block, thread and source line in its message and `loc`."""
from __future__ import annotations

class VMError(Exception):
    """A fault in the user's program, reported as CUDA reports it."""

    def __init__(self, kind: str, message: str, loc=None, note: str | None = None, report: list[str] | None = None):
        self.kind, self.loc = kind, loc
        self.note = note   # what minicuda knows beyond the hardware (what a faulting pointer was), at loc
        self.report = report or []   # the lines CUDA itself prints for it (a device assert's), if any
        super().__init__(message)


# kinds of fault that end a native program with a signal: what the shell prints, the exit status
SIGNALS = {"sigfpe": ("Floating point exception", 128 + 8), "sigsegv": ("Segmentation fault", 128 + 11)}
