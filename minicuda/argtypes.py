"""Range-checked numbers for the command lines' options (argparse `type=` functions).

Each checker turns the option's text into a number or raises ArgumentTypeError, so
argparse reports `error: argument --max-steps: must be at most ...` with exit
status 2 before anything runs; a number out of range never reaches the VM (where an
int64 field would overflow) or the thread pool.
"""
from __future__ import annotations

import argparse
import math

INT64_MAX = 2**63 - 1
MAX_SECONDS = 1e9   # a time limit past this is no limit (and overflows timers)
MAX_JOBS = 1024   # -j: threads running independent blocks


def int_in(low: int, high: int):
    """A checker for an integer in [low, high]."""
    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {text}")
        return value
    check.__name__ = "int"
    return check


def seconds(text: str) -> float:
    """A positive, finite number of seconds (at most MAX_SECONDS)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def block_warp(text: str) -> tuple[int, int]:
    """BLOCK:WARP: a block's linear index in its grid and a warp's index in the block."""
    parts = text.split(":")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"'{text}' is not BLOCK:WARP (for example 0:1)")
    check = int_in(0, INT64_MAX)
    return check(parts[0]), check(parts[1])
