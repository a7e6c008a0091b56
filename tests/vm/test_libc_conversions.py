"""vm/libc.py's strtoul and strtof against the machine's glibc (through ctypes), on fixed
edge cases and on random texts from a fixed seed."""
import ctypes
import ctypes.util
import random

import numpy as np
import pytest

from minicuda.vm.libc import strtof, strtoul, valid_base

LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
LIBC.strtoul.restype, LIBC.strtoul.argtypes = ctypes.c_ulong, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int]
LIBC.strtof.restype, LIBC.strtof.argtypes = ctypes.c_float, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]


def glibc(fn, text: bytes, *args):
    buf, end = ctypes.create_string_buffer(text), ctypes.c_char_p()
    value = fn(buf, ctypes.byref(end), *args)
    return value, ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)


def float_bits(value) -> int:
    return int(np.float32(value).view(np.uint32))


UNSIGNED_TEXTS = [b"-1", b"18446744073709551615", b"18446744073709551616", b"-18446744073709551615",
                  b"-18446744073709551616", b"0x", b"  +0x1F", b"-0", b"077", b"zz", b"9" * 30, b"0x" + b"f" * 17]


def test_strtoul_matches_glibc():
    for text in UNSIGNED_TEXTS:
        for base in (0, 2, 8, 10, 16, 36):
            assert strtoul(text, base) == glibc(LIBC.strtoul, text, base), (text, base)


def test_random_strtoul_matches_glibc():
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(" +-0x19afzAF") for _ in range(rng.randint(0, 22))).encode()
        base = rng.choice((0, 8, 10, 16, 36))
        assert strtoul(text, base) == glibc(LIBC.strtoul, text, base), (text, base)


def test_valid_bases_are_glibcs():
    assert [b for b in range(-1, 40) if valid_base(b)] == [0] + list(range(2, 37))


FLOAT_TEXTS = [b"nan(0x1)", b"-nan", b"nan(123)", b"1e-46", b"0x1.000001p0", b"3.4028235e38", b"3.4028236e38",
               b"1.00000005960464477539062500001", b"1.000000059604644775390625", b"7.0064923216240854e-46",
               b"nan(0x7fffff)", b"  -1.5abc", b"inf", b"-INFINITY", b"0x1.fffffefp127", b"0x1.ffffffp127", b"1e39",
               b"-0", b"abc", b"1.4e-45", b"7e-46", b"0x.8p-149", b"0x1p-150", b"0x1.0000000001p-150", b"1e-400"]


def glibc_strtof(text: bytes) -> tuple[int, int]:
    """(bits, consumed); c_float's float -> double -> float trip keeps a quiet NaN's payload."""
    value, consumed = glibc(LIBC.strtof, text)
    return float_bits(value), consumed


def test_strtof_rounds_once_like_glibc():
    for text in FLOAT_TEXTS:
        value, consumed = strtof(text)
        assert (float_bits(value), consumed) == glibc_strtof(text), text


def test_strtof_keeps_glibcs_nan_payload():
    assert float_bits(strtof(b"nan(0x12)")[0]) == 0x7FC00012
    assert float_bits(strtof(b"nan(0xfffffffff)")[0]) == 0x7FFFFFFF
    assert float_bits(strtof(b"-nan")[0]) == 0xFFC00000


@pytest.mark.parametrize("seed", [1, 2])
def test_random_strtof_matches_glibc(seed):
    """Decimal texts near float ties: strtod then a cast to float would round twice."""
    rng = random.Random(seed)
    texts = []
    for _ in range(1500):
        texts.append(f"{rng.getrandbits(60)}e{rng.randint(-60, 40)}".encode())
        texts.append(f"{rng.random() * 10.0 ** rng.randint(-46, 38):.{rng.randint(1, 20)}g}".encode())
        mantissa = rng.getrandbits(24) | 1 << 23
        texts.append(f"{(mantissa + 0.5) * 2.0 ** rng.randint(-150, 100):.25e}".encode())   # near a tie
    for text in texts:
        value, consumed = strtof(text)
        assert (float_bits(value), consumed) == glibc_strtof(text), text
