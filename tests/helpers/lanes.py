"""A warp's lane timeline read back: the thread masks its columns carry, and their runs."""

FULL, EVEN, ODD = "0xffffffff", "0x55555555", "0xaaaaaaaa"   # all lanes, the even ones, the odd ones


def runs(columns: list[str]) -> list[str]:
    """The masks with adjacent repeats merged: [FULL, ODD, EVEN, FULL] for a warp that ran the
    odd lanes' path and then the even lanes' between two converged stretches."""
    out = []
    for c in columns:
        if not out or out[-1] != c:
            out.append(c)
    return out
