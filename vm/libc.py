"""The slice of the C library a guest program sees: printf formatting, rand/srand,
and the string-to-number conversions, each reproducing glibc (2.36, x86-64, the C
locale) byte for byte, so host code run by the VM prints what the same program
compiled with gcc prints.

Invariants:

- `format_printf` never touches guest memory except through `read_string`.  Its
  arguments are raw register values after C's default promotions: an int holding a
  32- or 64-bit two's complement pattern for integers and pointers, the 64-bit IEEE
  pattern of a double for every floating conversion (a float was promoted to
  double).  The conversion alone says how a value is read; a bad format or a
  missing argument raises `PrintfError` instead of reading garbage.
- `GlibcRandom.rand()` and `GlibcRandom.rand_array()` advance one and the same
  state, so any interleaving of the two yields glibc's sequence.
- The conversions take bytes (a C string, which may still hold its NUL) and return
  `(value, consumed)`, where consumed is what C's `*endptr - s` would be.  The
  runtime (vm/runtime.py) calls these; it has no conversions of its own.
"""
from __future__ import annotations

import decimal
import functools
import math
import re
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

__all__ = ["PrintfError", "format_printf", "GlibcRandom", "valid_base", "strtol", "strtoul", "atoi", "strtod",
           "strtof", "atof"]

U32 = 0xFFFF_FFFF
U64 = 0xFFFF_FFFF_FFFF_FFFF


class PrintfError(Exception):
    """The guest's printf format cannot be honoured (bad conversion, missing argument)."""


# ---------------------------------------------------------------------------
# printf
# ---------------------------------------------------------------------------

# %[flags][width][.precision][length]conversion; `'` and `I` are accepted and, in
# the C locale, change nothing.
_SPEC = re.compile(rb"%(?P<flags>[-+ #0'I]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?"
                   rb"(?P<length>hh|h|ll|l|L|q|j|z|Z|t)?(?P<conv>.?)", re.S)

# Bits read for an integer conversion, by length modifier.
_INT_BITS = {None: 32, b"hh": 8, b"h": 16, b"l": 64, b"ll": 64, b"q": 64, b"L": 64,
             b"j": 64, b"z": 64, b"Z": 64, b"t": 64}
_BASES = {b"d": 10, b"i": 10, b"u": 10, b"o": 8, b"x": 16, b"X": 16}


@dataclass
class _Spec:
    """One parsed conversion; width and precision already resolved (`*` read)."""
    text: bytes
    index: int                # 1-based position among the format's conversions
    flags: bytes
    width: int
    prec: int | None          # None: not given (or a negative `*`)
    length: bytes | None
    conv: bytes

    @property
    def left(self) -> bool:
        return b"-" in self.flags

    def sign_of(self, negative: bool) -> bytes:
        if negative:
            return b"-"
        return b"+" if b"+" in self.flags else b" " if b" " in self.flags else b""


class _Args:
    """The variadic arguments, consumed left to right."""

    def __init__(self, values: list[int]):
        self.values = list(values)
        self.next = 0

    def take(self, spec_text: bytes, index: int) -> int:
        if self.next >= len(self.values):
            passed = f"{len(self.values)} was" if len(self.values) == 1 else f"{len(self.values)} were"
            raise PrintfError(f"printf: conversion {index} ('{spec_text.decode('latin-1')}') needs "
                              f"argument {self.next + 1}, but only {passed} passed")
        value = self.values[self.next]
        self.next += 1
        return value if isinstance(value, float) else int(value)


def format_printf(fmt: bytes, args: list[int], read_string: Callable[[int], bytes]) -> bytes:
    """`fmt` formatted with `args` as glibc's printf would; extra arguments are ignored."""
    fmt = bytes(fmt).split(b"\0", 1)[0]
    pending = _Args(args)
    out: list[bytes] = []
    pos, index = 0, 0
    while (start := fmt.find(b"%", pos)) >= 0:
        out.append(fmt[pos:start])
        match = _SPEC.match(fmt, start)
        pos = match.end()
        if match.group("conv") == b"%":          # "%%", glibc ignoring any flags or width
            out.append(b"%")
            continue
        index += 1
        out.append(_convert(_resolve(match, index, pending), pending, read_string))
    out.append(fmt[pos:])
    return b"".join(out)


def _resolve(match: re.Match, index: int, pending: _Args) -> _Spec:
    text = match.group(0)
    flags, width, prec = match.group("flags"), match.group("width"), match.group("prec")
    if width == b"*":
        width = _signed(pending.take(text, index), 32)
        if width < 0:
            flags, width = flags + b"-", -width
    if prec == b"*":
        prec = _signed(pending.take(text, index), 32)
        prec = None if prec < 0 else prec
    elif prec is not None:
        prec = int(prec or b"0")
    return _Spec(text, index, flags, int(width or 0), prec, match.group("length"), match.group("conv"))


def _convert(spec: _Spec, pending: _Args, read_string: Callable[[int], bytes]) -> bytes:
    conv = spec.conv
    if conv == b"":
        raise PrintfError(f"printf: conversion {spec.index} ('{spec.text.decode('latin-1')}') is incomplete")
    if conv in b"nm":
        raise PrintfError(f"printf: conversion {spec.index} ('%{conv.decode('latin-1')}') is not supported")
    if conv not in b"diouxXcspfFeEgGaA" or (spec.length == b"l" and conv == b"s"):
        raise PrintfError(f"printf: conversion {spec.index} ('{spec.text.decode('latin-1')}') "
                          f"is not a printf conversion minicuda supports")
    value = pending.take(spec.text, spec.index)
    if conv in b"diouxX":
        return _format_integer(spec, value)
    if conv == b"c":
        return _format_char(spec, value)
    if conv == b"s":
        return _format_string(spec, value, read_string)
    if conv == b"p":
        return _format_pointer(spec, value)
    return _format_double(spec, _as_double(value))


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _as_double(value: int | float) -> float:
    if isinstance(value, float):
        return value
    return struct.unpack("<d", struct.pack("<Q", int(value) & U64))[0]


def _pad(spec: _Spec, prefix: bytes, body: bytes, zero_pad: bool) -> bytes:
    """Sign/prefix + body widened to the field width: zeros go between the two."""
    fill = spec.width - len(prefix) - len(body)
    if fill <= 0:
        return prefix + body
    if spec.left:
        return prefix + body + b" " * fill
    if zero_pad:
        return prefix + b"0" * fill + body
    return b" " * fill + prefix + body


def _format_integer(spec: _Spec, raw: int) -> bytes:
    bits = _INT_BITS[spec.length]
    signed = spec.conv in b"di"
    value = _signed(raw, bits) if signed else int(raw) & ((1 << bits) - 1)
    return _format_magnitude(spec, abs(value), value < 0, signed, _BASES[spec.conv])


def _format_magnitude(spec: _Spec, magnitude: int, negative: bool, takes_sign: bool, base: int) -> bytes:
    """Digits, precision zeros, `#` prefix; `takes_sign`: whether `+`/` ` flags apply."""
    digits = b"" if spec.prec == 0 and magnitude == 0 else _digits(magnitude, base, spec.conv == b"X")
    if spec.prec is not None:
        digits = digits.rjust(spec.prec, b"0")
    prefix = spec.sign_of(negative) if takes_sign else b""
    if b"#" in spec.flags and base == 8 and not digits.startswith(b"0"):
        digits = b"0" + digits
    if b"#" in spec.flags and base == 16 and magnitude != 0:
        prefix += b"0X" if spec.conv == b"X" else b"0x"
    return _pad(spec, prefix, digits, b"0" in spec.flags and spec.prec is None)


def _digits(magnitude: int, base: int, upper: bool) -> bytes:
    text = {10: "%d", 8: "%o", 16: "%X" if upper else "%x"}[base] % magnitude
    return text.encode()


def _format_char(spec: _Spec, raw: int) -> bytes:
    code = int(raw) & (U32 if spec.length == b"l" else 0xFF)
    if code > 0x7F and spec.length == b"l":
        raise PrintfError(f"printf: conversion {spec.index} ('%lc') of {code:#x}: "
                          f"only ASCII wide characters are supported")
    return _pad(spec, b"", bytes([code]), False)


def _format_string(spec: _Spec, address: int, read_string: Callable[[int], bytes]) -> bytes:
    address = int(address) & U64
    if address == 0:
        # glibc prints "(null)" only when it fits the precision, else nothing.
        text = b"(null)" if spec.prec is None or spec.prec >= 6 else b""
    else:
        text = bytes(read_string(address)).split(b"\0", 1)[0]
        if spec.prec is not None:
            text = text[:spec.prec]
    return _pad(spec, b"", text, False)


def _format_pointer(spec: _Spec, address: int) -> bytes:
    address = int(address) & U64
    if address == 0:
        return _pad(spec, b"", b"(nil)", False)
    # glibc prints a pointer as %#lx but keeps the `+` and ` ` flags.
    as_hex = _Spec(spec.text, spec.index, spec.flags + b"#", spec.width, spec.prec, b"l", b"x")
    return _format_magnitude(as_hex, address, False, True, 16)


# -- floating point ---------------------------------------------------------

def _format_double(spec: _Spec, x: float) -> bytes:
    upper = spec.conv in b"FEGA"
    sign = spec.sign_of(math.copysign(1.0, x) < 0)
    if not math.isfinite(x):
        word = b"inf" if math.isinf(x) else b"nan"
        return _pad(spec, sign, word.upper() if upper else word, False)
    kind = spec.conv.lower()
    if kind == b"a":
        prefix, body = _hex_float(abs(x), spec.prec, b"#" in spec.flags)
        sign += prefix.upper() if upper else prefix
    else:
        body = _decimal_float(kind, abs(x), 6 if spec.prec is None else spec.prec, b"#" in spec.flags)
    return _pad(spec, sign, body.upper() if upper else body, b"0" in spec.flags)


def _decimal_float(kind: bytes, x: float, prec: int, alt: bool) -> bytes:
    if kind == b"f":
        return _with_point(format(x, f".{prec}f"), alt).encode()
    if kind == b"e":
        return _with_point(format(x, f".{prec}e"), alt).encode()
    return _general(x, prec or 1, alt).encode()


def _with_point(text: str, alt: bool) -> str:
    """`#` keeps a decimal point even with no digits after it."""
    if not alt or "." in text:
        return text
    mantissa, e, exponent = text.partition("e")
    return mantissa + "." + e + exponent


def _general(x: float, significant: int, alt: bool) -> str:
    """%g: %e or %f by the exponent the value has once rounded to P digits (C11 7.21.6.1)."""
    exponent = int(format(x, f".{significant - 1}e").rpartition("e")[2])
    if alt and exponent == significant and x and decimal.Decimal(x).adjusted() == significant - 1:
        # glibc quirk: %#g of a value whose rounding carries it from %f form into
        # %e form (999999.5 -> "1.e+06") drops the zeros C asks for ("1.00000e+06").
        return f"1.e+{exponent:02d}"
    if -4 <= exponent < significant:
        text = _with_point(format(x, f".{significant - 1 - exponent}f"), alt)
    else:
        text = _with_point(format(x, f".{significant - 1}e"), alt)
    if alt:
        return text
    mantissa, e, exponent_text = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exponent_text


def _hex_float(x: float, prec: int | None, alt: bool) -> tuple[bytes, bytes]:
    """%a of a non-negative finite double: ("0x", "1.8p+1").  Like glibc, a
    subnormal prints as 0x0.<fraction>p-1022 and rounding is to nearest-even."""
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    biased, fraction = bits >> 52, bits & ((1 << 52) - 1)
    if bits == 0:
        exponent, leading = 0, 0
    else:
        exponent, leading = (biased - 1023, 1) if biased else (-1022, 0)
    mantissa = leading << 52 | fraction          # 1 + 13 hex digits
    if prec is None:
        digits = f"{fraction:013x}".rstrip("0")
    elif prec >= 13:
        digits = f"{fraction:013x}" + "0" * (prec - 13)
    else:
        mantissa = _round_half_even(mantissa, 4 * (13 - prec))
        leading, fraction = mantissa >> (4 * prec), mantissa & ((1 << (4 * prec)) - 1)
        digits = f"{fraction:0{prec}x}" if prec else ""
    point = "." if digits or alt else ""
    return b"0x", f"{leading}{point}{digits}p{exponent:+d}".encode()


def _round_half_even(value: int, drop_bits: int) -> int:
    if drop_bits == 0:
        return value
    kept, rest = value >> drop_bits, value & ((1 << drop_bits) - 1)
    half = 1 << (drop_bits - 1)
    return kept + (rest > half or (rest == half and kept & 1))


# ---------------------------------------------------------------------------
# rand / srand
# ---------------------------------------------------------------------------

_DEGREE, _SEPARATION = 31, 3       # glibc's TYPE_3: r[i] = r[i-31] + r[i-3] (mod 2**32)


class GlibcRandom:
    """glibc's rand()/srand(): the TYPE_3 additive feedback generator of random_r.

    The state is glibc's own: 31 words, a front index (`_front`, the word the next
    output overwrites, which holds r[i-31]) and a rear index three behind it (r[i-3]).
    Each output is the new word shifted right by one.
    """

    def __init__(self, seed: int = 1):
        self.srand(seed)

    def srand(self, seed: int) -> None:
        seed = int(seed) & U32 or 1
        state = [_signed(seed, 32)]
        for _ in range(1, _DEGREE):
            # 16807 * word % 2147483647, computed as glibc does (Schrage, int32
            # words, C division truncating toward zero) so a seed >= 2**31 matches.
            word = state[-1]
            hi = int(word / 127773)
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            state.append(word + 2147483647 if word < 0 else word)
        self._state = [w & U32 for w in state]
        self._front, self._rear = _SEPARATION, 0
        for _ in range(10 * _DEGREE):
            self.rand()

    def rand(self) -> int:
        state, front = self._state, self._front
        word = state[front] = (state[front] + state[self._rear]) & U32
        self._front = front + 1 if front + 1 < _DEGREE else 0
        self._rear = self._rear + 1 if self._rear + 1 < _DEGREE else 0
        return word >> 1

    def state_words(self) -> list[int]:
        """The state as 33 words: the 31 state words, then front and rear (as the JIT's rand keeps it)."""
        return self._state + [self._front, self._rear]

    def set_state_words(self, words) -> None:
        """Take back a state given as state_words() gives it."""
        self._state = [int(x) for x in words[:_DEGREE]]
        self._front, self._rear = int(words[_DEGREE]), int(words[_DEGREE + 1])

    def rand_array(self, n: int) -> np.ndarray:
        """The next `n` values of rand(), as int32, computed in blocks (see `_BlockStepper`)."""
        if n < 4 * _DEGREE:
            return np.array([self.rand() for _ in range(n)], dtype=np.int32)
        history = [self._state[(self._front + k) % _DEGREE] for k in range(_DEGREE)]
        words, last = _block_stepper().run(np.array(history, dtype=np.uint64), n)
        self._state = [int(w) for w in last]
        self._front, self._rear = 0, _DEGREE - _SEPARATION
        return (words >> np.uint32(1)).astype(np.int32)


class _BlockStepper:
    """Runs the recurrence in blocks of B words.  The generator is linear over
    Z/2**32, so block k is C @ h_k, where h_k is the 31 words before it and row j of
    the B x 31 matrix C gives r[j] in terms of them.  h_k for every block comes from
    a cheap 31 x 31 step; then matrix products yield all blocks at once.

    The products run in float64 (BLAS) on 16-bit halves: with a = a1*2**16 + a0,
    a*b mod 2**32 = a0*b0 + 2**16*(a1*b0 + a0*b1) mod 2**32, and every partial sum
    (31 terms under 2**33 each) is exact in a double.
    """

    def __init__(self, block: int = 4096):
        rows = [np.eye(_DEGREE, dtype=np.uint64)[k] for k in range(_DEGREE)]
        for i in range(_DEGREE, _DEGREE + block):
            rows.append((rows[i - _DEGREE] + rows[i - _SEPARATION]) & np.uint64(U32))
        self.block = block
        coefficients = np.array(rows[_DEGREE:])
        self.low, self.high = _halves(coefficients)
        self.step = np.ascontiguousarray(coefficients[-_DEGREE:])

    def run(self, history: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next n words after `history` (the last 31, oldest first), and the
        31 words that end them."""
        count = -(-n // self.block)
        starts = np.empty((_DEGREE, count), dtype=np.uint64)
        for k in range(count):
            starts[:, k] = history
            history = (self.step @ history) & np.uint64(U32)
        words = np.empty((count, self.block), dtype=np.uint32)
        chunk = max(1, (1 << 20) // self.block)
        for k in range(0, count, chunk):
            words[k:k + chunk] = self._blocks(starts[:, k:k + chunk]).T
        words = words.ravel()[:n]
        return words, words[-_DEGREE:]

    def _blocks(self, starts: np.ndarray) -> np.ndarray:
        low, high = _halves(starts)
        exact = (self.low @ low).astype(np.uint64)
        cross = (self.high @ low + self.low @ high).astype(np.uint64)
        return ((exact + (cross << np.uint64(16))) & np.uint64(U32)).astype(np.uint32)


def _halves(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (words & np.uint64(0xFFFF)).astype(np.float64), (words >> np.uint64(16)).astype(np.float64)


@functools.cache
def _block_stepper() -> _BlockStepper:
    return _BlockStepper()


# ---------------------------------------------------------------------------
# strtol / strtoul / atoi / strtod / strtof / atof
# ---------------------------------------------------------------------------

_SPACE = b" \t\n\v\f\r"
_LONG_MIN, _LONG_MAX, _ULONG_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def _skip_sign(s: bytes) -> tuple[int, bool]:
    """Index after leading white space and an optional sign, and whether it was '-'."""
    i = 0
    while i < len(s) and s[i] in _SPACE:
        i += 1
    if i < len(s) and s[i] in b"+-":
        return i + 1, s[i] == ord("-")
    return i, False


def _digit_value(byte: int) -> int:
    if 48 <= byte <= 57:
        return byte - 48
    if 97 <= byte <= 122 or 65 <= byte <= 90:
        return (byte | 0x20) - 87
    return 99


def valid_base(base: int) -> bool:
    """Whether strtol/strtoul accept `base`; glibc returns 0 and leaves *endptr alone otherwise."""
    return base == 0 or 2 <= base <= 36


def _integer(s: bytes, base: int) -> tuple[bool, int, int]:
    """(negative, magnitude, characters consumed) of the number strtol/strtoul read;
    a magnitude past 64 bits is given as 2**64 (it only saturates)."""
    s = bytes(s)
    if not valid_base(base):
        return False, 0, 0
    i, negative = _skip_sign(s)
    hex_prefix = s[i:i + 2] in (b"0x", b"0X") and i + 2 < len(s) and _digit_value(s[i + 2]) < 16
    if base in (0, 16) and hex_prefix:
        base, i = 16, i + 2
    elif base == 0:
        base = 8 if s[i:i + 1] == b"0" else 10
    start = i
    while i < len(s) and _digit_value(s[i]) < base:
        i += 1
    if i == start:
        return False, 0, 0
    digits = s[start:i].lstrip(b"0")
    # Past 64 bits the value only clamps (and int() refuses over 4300 digits).
    return negative, int(digits or b"0", base) if len(digits) <= 64 else 1 << 64, i


def strtol(s: bytes, base: int) -> tuple[int, int]:
    """C's strtol: (value, characters consumed); (0, 0) when no number is there.
    Out-of-range values clamp to LONG_MIN/LONG_MAX, as glibc does."""
    negative, magnitude, consumed = _integer(s, base)
    value = -magnitude if negative else magnitude
    return min(max(value, _LONG_MIN), _LONG_MAX), consumed


def strtoul(s: bytes, base: int) -> tuple[int, int]:
    """C's strtoul: (value, characters consumed) as an unsigned 64-bit value.  A '-'
    negates in unsigned arithmetic ("-1" is ULONG_MAX); past 64 bits it is ULONG_MAX."""
    negative, magnitude, consumed = _integer(s, base)
    if magnitude > _ULONG_MAX:
        return _ULONG_MAX, consumed
    return (-magnitude if negative else magnitude) & _ULONG_MAX, consumed


def atoi(s: bytes) -> int:
    """C's atoi: glibc's (int)strtol(s, NULL, 10), wrapping to 32 bits."""
    return _signed(strtol(s, 10)[0], 32)


_DECIMAL = re.compile(rb"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
_HEXADECIMAL = re.compile(rb"0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][-+]?\d+)?")
_NAN = re.compile(rb"nan(\([0-9A-Za-z_]*\))?", re.I)
_INFINITY = re.compile(rb"inf(inity)?", re.I)


def strtod(s: bytes) -> tuple[float, int]:
    """C's strtod: (value, characters consumed); (0.0, 0) when no number is there.
    Correctly rounded, like glibc; overflow gives ±inf and underflow ±0."""
    s = bytes(s)
    i, negative = _skip_sign(s)
    value, end = _unsigned_float(s, i)
    if end == i:
        return 0.0, 0
    return (-value if negative else value), end


def _unsigned_float(s: bytes, i: int) -> tuple[float, int]:
    if match := _HEXADECIMAL.match(s, i):
        try:
            return float.fromhex(match.group(0).decode()), match.end()
        except OverflowError:
            return math.inf, match.end()
    if match := _DECIMAL.match(s, i):
        return float(match.group(0)), match.end()
    if match := _INFINITY.match(s, i):
        return math.inf, match.end()
    if match := _NAN.match(s, i):
        return _nan(match.group(1)), match.end()
    return 0.0, i


def _nan(payload: bytes | None, float_bits: int = 64) -> float:
    """glibc reads nan(n-char-sequence) as an integer for the mantissa's low bits.  For
    a float (float_bits 32), the double that narrows to that float: its 22 payload bits
    sit at the top of the double's mantissa, which a conversion keeps."""
    bits = 0x7FF8_0000_0000_0000
    if payload:
        inner = payload[1:-1]
        value, used = strtol(inner, 0) if not inner.startswith((b"-", b"+")) else (0, 0)
        if used == len(inner) and used:
            bits |= value & ((1 << 51) - 1) if float_bits == 64 else (value & ((1 << 22) - 1)) << 29
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def atof(s: bytes) -> float:
    """C's atof: strtod without the end pointer."""
    return strtod(s)[0]


_FLT_MAX = math.ldexp(2 ** 24 - 1, 104)


def strtof(s: bytes) -> tuple[float, int]:
    """C's strtof: (value, characters consumed), the number rounded once to the nearest
    binary32 value (not through a double, which could round twice).  The value is a
    Python float holding that binary32 value exactly; `np.float32(value)` is its bits."""
    s = bytes(s)
    value, consumed = strtod(s)
    if consumed == 0 or value == 0 or math.isinf(value):
        return value, consumed           # as a double: 0 and inf are already the float's
    i, negative = _skip_sign(s)
    if math.isnan(value):
        magnitude = _nan(_NAN.match(s, i).group(1), float_bits=32)
    else:
        magnitude = _nearest_float32(_exact_value(s[i:consumed]))
    return (-magnitude if negative else magnitude), consumed


def _exact_value(text: bytes) -> Fraction:
    """The exact value of a decimal or hexadecimal floating constant (no sign)."""
    if match := _HEXADECIMAL.fullmatch(text):
        whole, _, fraction = match.group(1).partition(b".")
        exponent = int(match.group(2)[1:]) if match.group(2) else 0
        return Fraction(int(whole + fraction or b"0", 16)) * Fraction(2) ** (exponent - 4 * len(fraction))
    return Fraction(text.decode())


def _nearest_float32(exact: Fraction) -> float:
    """exact (> 0) rounded to binary32, ties to even; inf past FLT_MAX."""
    n, d = exact.numerator, exact.denominator
    exponent = n.bit_length() - d.bit_length()          # floor(log2(exact)), or one more
    if Fraction(2) ** exponent > exact:
        exponent -= 1
    scale = max(exponent, -126) - 23                    # the weight of the last mantissa bit
    value = math.ldexp(round(exact / Fraction(2) ** scale), scale)
    return math.inf if value > _FLT_MAX else value
