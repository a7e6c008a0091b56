"""Textual LLVM IR for the JIT: a tiny emitter for lane vectors.

Every value of a warp is a vector of W lanes: `<W x i32>` for a 32-bit register,
`<W x i64>` for a 64-bit one, `<W x i1>` for a predicate or an active mask.  The
emitter hands out fresh SSA names, collects instruction lines for the current
LLVM basic block and the module-level declarations (intrinsics, libm functions)
that the lines need.  Pointers are LLVM's opaque `ptr`.
"""
from __future__ import annotations


class Emitter:
    def __init__(self, lanes: int = 32):
        self.W = lanes
        self.lines: list[str] = []
        self.decls: dict[str, str] = {}
        self.counter = 0

    # ---- names and lines ----------------------------------------------------------------
    def fresh(self, hint: str = "v") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def op(self, text: str, hint: str = "v") -> str:
        """Emit `%name = text` and return %name."""
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {text}")
        return name

    def line(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")

    def declare(self, name: str, text: str) -> None:
        """A module-level declaration, once: declare(name, 'declare double @sin(double)')."""
        self.decls.setdefault(name, text)

    # ---- types and constants --------------------------------------------------------------
    def vt(self, bits: int, elem: str | None = None) -> str:
        """The lane vector type of an integer width (1, 8, 16, 32, 64) or a float ('float', 'double')."""
        return f"<{self.W} x {elem or f'i{bits}'}>"

    def splat(self, bits: int, value: int) -> str:
        """A constant lane vector of an integer bit pattern: `splat (i32 5)`."""
        if bits == 1:
            return f"splat (i1 {'true' if value else 'false'})"
        value &= (1 << bits) - 1
        if value >> (bits - 1):
            value -= 1 << bits
        return f"splat (i{bits} {value})"
