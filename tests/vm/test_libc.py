"""minicuda.vm.libc against the real C library.

Every comparison builds one small C program from a table of cases, compiles it with
gcc (-fno-builtin, so glibc and not gcc's folding answers) and runs it once; the
Python side must reproduce its output byte for byte.  Hypothesis tests draw a batch
of cases first and then make a single C run for the whole batch, so a failure lists
every mismatching case rather than a shrunk one.
"""
from __future__ import annotations

import math
import shutil
import struct
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from minicuda.vm.libc import GlibcRandom, PrintfError, atof, atoi, format_printf, strtod, strtol

GCC = shutil.which("gcc")
needs_gcc = pytest.mark.skipif(GCC is None, reason="gcc is not installed")

PRELUDE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static double D(unsigned long long bits) { double d; memcpy(&d, &bits, 8); return d; }
static unsigned long long B(double d) { unsigned long long b; memcpy(&b, &d, 8); return b; }
static char buf[1 << 16];
static void emit(int n) { printf("%d\n", n); fwrite(buf, 1, n, stdout); putchar('\n'); }
"""


@pytest.fixture(scope="module")
def run_c(tmp_path_factory):
    """Compile `main_body` (the inside of main) after PRELUDE, run it, return stdout."""
    if GCC is None:
        pytest.skip("gcc is not installed")
    directory = tmp_path_factory.mktemp("libc")
    count = 0

    def run(main_body: str) -> bytes:
        nonlocal count
        count += 1
        source, program = directory / f"case{count}.c", directory / f"case{count}"
        source.write_text(PRELUDE + "int main(void) {\n" + main_body + "\nreturn 0;\n}\n")
        subprocess.run([GCC, "-w", "-O0", "-fno-builtin", "-o", str(program), str(source), "-lm"], check=True)
        return subprocess.run([str(program)], check=True, capture_output=True).stdout

    return run


def c_string(data: bytes) -> str:
    """A C string literal holding exactly `data` (octal escapes never run on)."""
    return '"' + "".join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in " %.-+#*$") else f"\\{b:03o}"
                         for b in data) + '"'


def batch(strategy, count: int, per_example: int = 20) -> list:
    """About `count` examples of `strategy`, drawn by hypothesis up front (in lists
    of `per_example`, which halves hypothesis's per-example overhead)."""
    drawn = []

    @settings(max_examples=max(1, count // per_example), database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(strategy, min_size=per_example, max_size=per_example))
    def collect(examples):
        drawn.extend(examples)

    collect()
    return drawn


# ---------------------------------------------------------------------------
# printf
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Arg:
    """A variadic argument: its C expression and its raw register value."""
    c: str
    raw: int


def I(v: int) -> Arg:                                   # int
    return Arg(f"(int){v & 0xFFFFFFFF:#x}u", v & 0xFFFFFFFF)


def U(v: int) -> Arg:                                   # unsigned int
    return Arg(f"{v & 0xFFFFFFFF:#x}u", v & 0xFFFFFFFF)


def L(v: int) -> Arg:                                   # long long
    return Arg(f"(long long){v & 2**64 - 1:#x}ull", v & 2**64 - 1)


def UL(v: int) -> Arg:                                  # unsigned long long
    return Arg(f"{v & 2**64 - 1:#x}ull", v & 2**64 - 1)


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def D(x: float | int) -> Arg:                           # double, or a double's bit pattern
    pattern = bits(x) if isinstance(x, float) else x
    return Arg(f"D({pattern:#x}ull)", pattern)


STRINGS: dict[int, bytes] = {}


def S(text: bytes | None) -> Arg:                       # char *
    if text is None:
        return Arg("(char *)0", 0)
    address = 0x7000_0000 + 0x100 * len(STRINGS)
    STRINGS[address] = text + b"\0"
    return Arg(c_string(text), address)


def P(v: int) -> Arg:                                   # void *
    return Arg(f"(void *){v:#x}ull", v)


def read_string(address: int) -> bytes:
    return STRINGS[address]


def printf_program(cases: list[tuple[bytes, list[Arg]]]) -> str:
    calls = []
    for fmt, args in cases:
        rest = "".join(", " + a.c for a in args)
        calls.append(f"emit(snprintf(buf, sizeof buf, {c_string(fmt)}{rest}));")
    return "\n".join(calls)


def c_outputs(run_c, cases) -> list[bytes]:
    out, outputs, pos = run_c(printf_program(cases)), [], 0
    for _ in cases:
        newline = out.index(b"\n", pos)
        n = int(out[pos:newline])
        outputs.append(out[newline + 1:newline + 1 + n])
        pos = newline + 2 + n
    return outputs


def assert_printf_matches(run_c, cases):
    mismatches = []
    for (fmt, args), expected in zip(cases, c_outputs(run_c, cases)):
        got = format_printf(fmt, [a.raw for a in args], read_string)
        if got != expected:
            mismatches.append(f"{fmt!r} {[a.c for a in args]}: C {expected!r}, minicuda {got!r}")
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ:\n" + "\n".join(mismatches[:40])


INT_MIN, INT_MAX = -2**31, 2**31 - 1
INTEGER_CASES = [
    (b"%d", [I(0)]), (b"%d", [I(42)]), (b"%d", [I(-42)]), (b"%d", [I(INT_MIN)]), (b"%d", [I(INT_MAX)]),
    (b"%i", [I(-7)]), (b"%u", [U(0)]), (b"%u", [U(2**32 - 1)]), (b"%u", [I(-1)]), (b"%x", [U(0xDEADBEEF)]),
    (b"%X", [U(0xDEADBEEF)]), (b"%o", [U(8)]), (b"%o", [U(2**32 - 1)]), (b"%#o", [U(0)]), (b"%#o", [U(8)]),
    (b"%#x", [U(0)]), (b"%#x", [U(255)]), (b"%#X", [U(255)]), (b"%#.0o", [U(0)]), (b"%.0d", [I(0)]),
    (b"%.0x", [U(0)]), (b"%#.0x", [U(0)]), (b"%5.0d|", [I(0)]), (b"%+.0d|", [I(0)]), (b"%+d", [I(5)]),
    (b"%+d", [I(-5)]), (b"%+d", [I(0)]), (b"% d", [I(5)]), (b"% d", [I(-5)]), (b"%+ d", [I(5)]),
    (b"%+u", [U(5)]), (b"% x", [U(5)]), (b"%+o", [U(5)]), (b"%-5d|", [I(42)]), (b"%-5d|", [I(-42)]),
    (b"%05d", [I(-42)]), (b"%05d", [I(42)]), (b"%-05d|", [I(42)]), (b"%05.3d", [I(7)]), (b"%.5d", [I(-42)]),
    (b"%8.5x|", [U(0xABC)]), (b"%+08d", [I(42)]), (b"% 08d", [I(42)]), (b"%#08x", [U(255)]),
    (b"%#8x|", [U(255)]), (b"%#-8x|", [U(255)]), (b"%#08o", [U(8)]), (b"%#.5o", [U(8)]), (b"%#.3x", [U(1)]),
    (b"%*d|", [I(6), I(42)]), (b"%-*d|", [I(6), I(42)]), (b"%*d|", [I(-6), I(42)]), (b"%0*d|", [I(-6), I(42)]),
    (b"%.*d", [I(4), I(7)]), (b"%.*d", [I(-1), I(7)]), (b"%0*.*d|", [I(8), I(-3), I(7)]),
    (b"%*.*d|", [I(8), I(3), I(-7)]), (b"%'d", [I(1234567)]), (b"%hd", [I(70000)]), (b"%hd", [I(-32769)]),
    (b"%hu", [I(70000)]), (b"%hu", [I(-1)]), (b"%hhd", [I(200)]), (b"%hhd", [I(-129)]), (b"%hhd", [I(300)]),
    (b"%hhu", [I(-1)]), (b"%hhx", [I(0x1FF)]), (b"%hx", [I(0x12345)]), (b"%#hho", [I(0x1FF)]),
    (b"%ld", [L(-1)]), (b"%ld", [L(-2**63)]), (b"%ld", [L(2**63 - 1)]), (b"%lld", [L(-1234567890123)]),
    (b"%lu", [UL(2**64 - 1)]), (b"%llu", [UL(2**63)]), (b"%llx", [UL(0xFEDCBA9876543210)]),
    (b"%llX", [UL(0xFEDCBA9876543210)]), (b"%lo", [UL(2**64 - 1)]), (b"%#lo", [UL(2**64 - 1)]),
    (b"%jd", [L(-5)]), (b"%zd", [L(-5)]), (b"%zu", [UL(2**64 - 5)]), (b"%td", [L(-3)]), (b"%Zd", [L(-3)]),
    (b"%qd", [L(-9)]), (b"%Ld", [L(-9)]), (b"%lx", [UL(0)]), (b"%#lx", [UL(0)]), (b"%+ld", [L(2**40)]),
    (b"%-+25lld|", [L(-2**63)]), (b"%025llu", [UL(2**64 - 1)]), (b"%.30lx", [UL(1)]),
    (b"%d %u %x %ld", [I(-1), U(2**32 - 1), U(16), L(-2)]), (b"%d%%", [I(50)]), (b"100%%", []),
    (b"%5%|", []), (b"%-5%|", []), (b"no conversions", []), (b"%d extra", [I(1), I(2), I(3)]),
]

CHAR_STRING_POINTER_CASES = [
    (b"%c", [I(65)]), (b"%5c|", [I(66)]), (b"%-3c|", [I(67)]), (b"[%c]", [I(0)]), (b"%c", [I(0x141)]),
    (b"%c", [I(-1)]), (b"%05c|", [I(68)]), (b"%.0c|", [I(69)]), (b"%lc", [I(70)]), (b"%s", [S(b"hello")]),
    (b"%.3s", [S(b"hello")]), (b"%10s|", [S(b"hello")]), (b"%-10s|", [S(b"hello")]), (b"%10.2s|", [S(b"hello")]),
    (b"%s", [S(None)]), (b"%.3s|", [S(None)]), (b"%10s|", [S(None)]), (b"%.6s", [S(None)]), (b"%-8s|", [S(None)]),
    (b"%05s", [S(b"ab")]), (b"[%s]", [S(b"")]), (b"[%.0s]", [S(b"abc")]), (b"%s", [S(b"\xff\x80\x01")]),
    (b"%s and %s", [S(b"cats"), S(b"dogs")]), (b"%*s|", [I(-7), S(b"abc")]), (b"%.*s|", [I(2), S(b"abc")]),
    (b"%p", [P(0x1234)]), (b"%p", [P(0)]), (b"%p", [P(2**64 - 1)]), (b"%20p|", [P(0xBEEF)]),
    (b"%-20p|", [P(0xBEEF)]), (b"%020p", [P(0xBEEF)]), (b"%+p", [P(0xBEEF)]), (b"% p", [P(0xBEEF)]),
    (b"%.10p", [P(0xBEEF)]), (b"%10p|", [P(0)]), (b"%-10p|", [P(0)]), (b"%.2p|", [P(0)]), (b"%010p|", [P(0)]),
]

DOUBLE_VALUES = [
    0.0, -0.0, 1.0, -1.0, -1.5, 0.5, 1.5, 2.5, 3.5, -0.5, 0.125, 0.05, 0.15, 0.25, 0.35, 1.125, 1.135,
    9.5, 99.5, 0.95, 9.9999995, 1e300, -1e300, 1e-300, 5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
    1.7976931348623157e308, 123456789.0, 0.1, 1 / 3, 2 / 3, 1e15, 1e16, 1e17, 1e21, 1e22, 1e-5, 1e-4,
    0.00012345, 123456.0, 1234567.0, 999999.5, 1.03125, 1.09375, 1.9999999999999998, 3.0517578125e-05,
    math.pi, -math.e, math.inf, -math.inf, math.nan, -math.nan, 0x7FF0000000000001, 0xFFF8000000000123,
]
DOUBLE_FORMATS = [
    b"%f", b"%F", b"%e", b"%E", b"%g", b"%G", b"%a", b"%A", b"%.0f", b"%.1f", b"%.2f", b"%.0e", b"%.2e",
    b"%.0g", b"%.1g", b"%.2g", b"%#g", b"%#.3g", b"%#.0f", b"%#.0e", b"%.10f", b"%.20e", b"%.17g", b"%.25g",
    b"%.3a", b"%.1a", b"%.0a", b"%.20a", b"%#a", b"%#.0a", b"%+f", b"% f", b"%+e", b"% g", b"%+a",
    b"%010.3f", b"%-10.3f|", b"%05.1f", b"%10.3e", b"%-12g|", b"%012g", b"%+012.4e", b"%012a", b"%-+14A|",
    b"% .3a", b"%010f", b"%-010F|", b"%+.40f", b"%lf", b"%#G", b"%15.8E",
]
DOUBLE_CASES = [(fmt, [D(x)]) for x in DOUBLE_VALUES for fmt in DOUBLE_FORMATS] + [
    (b"%.350f", [D(1e-300)]), (b"%.0f", [D(1e300)]), (b"%.*f", [I(3), D(2.0005)]),
    (b"%*.*e|", [I(-15), I(2), D(-12345.678)]), (b"%.*f", [I(-1), D(1.25)]), (b"%d %f %s", [I(1), D(2.0), S(b"x")]),
    (b"%f %d", [D(1.5), I(7)]), (b"%.1000f", [D(5e-324)]), (b"%.780e", [D(5e-324)]),
]


@needs_gcc
def test_printf_integers_match_glibc(run_c):
    assert_printf_matches(run_c, INTEGER_CASES)


@needs_gcc
def test_printf_chars_strings_pointers_match_glibc(run_c):
    assert_printf_matches(run_c, CHAR_STRING_POINTER_CASES)


@needs_gcc
def test_printf_doubles_match_glibc(run_c):
    assert_printf_matches(run_c, DOUBLE_CASES)


def flags_width_precision(max_width: int = 25, max_prec: int = 25):
    return st.tuples(st.lists(st.sampled_from("-+ #0"), max_size=4, unique=True).map("".join),
                     st.one_of(st.just(""), st.integers(0, max_width).map(str)),
                     st.one_of(st.just(""), st.just("."), st.integers(0, max_prec).map(".{}".format)))


@st.composite
def integer_cases(draw):
    flags, width, prec = draw(flags_width_precision())
    length = draw(st.sampled_from(["", "h", "hh", "l", "ll", "z", "j"]))
    conv = draw(st.sampled_from("diuxXo"))
    value = draw(st.one_of(st.integers(-2**63, 2**64 - 1), st.integers(-300, 300),
                           st.sampled_from([INT_MIN, INT_MAX, 2**32 - 1, 2**63, -2**63])))
    arg = (L if conv in "di" else UL)(value) if length in ("l", "ll", "z", "j") else (I if conv in "di" else U)(value)
    return f"%{flags}{width}{prec}{length}{conv}|".encode(), [arg]


def near_power_of_ten():
    """9...9d x 10**k: values whose rounding may carry into one more digit."""
    return st.builds(lambda nines, last, k: float(f"{'9' * nines}{last}e{k}"),
                     st.integers(0, 17), st.integers(0, 9), st.integers(-330, 300))


@st.composite
def double_cases(draw):
    flags, width, prec = draw(flags_width_precision(30, 40))
    conv = draw(st.sampled_from("fFeEgGaA"))
    value = draw(st.one_of(st.floats(), st.integers(0, 2**64 - 1),
                           st.floats(-1e6, 1e6).map(lambda x: round(x, 2)),
                           st.integers(-10**6, 10**6).map(lambda k: k + 0.5), near_power_of_ten()))
    return f"%{flags}{width}{prec}{conv}|".encode(), [D(value)]


@pytest.mark.slow
@needs_gcc
def test_printf_random_integers_match_glibc(run_c):
    assert_printf_matches(run_c, batch(integer_cases(), 1500))


@pytest.mark.slow
@needs_gcc
def test_printf_random_doubles_match_glibc(run_c):
    assert_printf_matches(run_c, batch(double_cases(), 1500))


@pytest.mark.parametrize("fmt, args, message", [
    (b"%d and %d", [1], r"conversion 2 \('%d'\) needs argument 2, but only 1 was passed"),
    (b"100%% %d %.*f", [1, 2], r"conversion 2 \('%.\*f'\) needs argument 3"),
    (b"%*d", [5], "conversion 1"),
    (b"%s", [], "conversion 1"),
    (b"%n", [0], "not supported"),
    (b"%y", [0], "not a printf conversion"),
    (b"%ls", [0], "not a printf conversion"),
    (b"50%", [], "incomplete"),
])
def test_printf_errors(fmt, args, message):
    with pytest.raises(PrintfError, match=message):
        format_printf(fmt, args, read_string)


def test_printf_accepts_numpy_registers_and_stops_at_nul():
    args = [np.uint32(0xFFFFFFFF), np.uint64(bits(2.5))]
    assert format_printf(b"%d %.1f\0ignored %d", args, read_string) == b"-1 2.5"


# ---------------------------------------------------------------------------
# rand / srand
# ---------------------------------------------------------------------------

SEEDS = [0, 1, 2, 12345, 2**31 - 1, 2**31, 2**32 - 1, 0xDEADBEEF]


def c_rand_values(run_c, seeds: list[int | None], count: int) -> list[list[int]]:
    body = []
    for seed in seeds:
        seeding = "" if seed is None else f"srand({seed}u);"
        body.append(f"{seeding} for (int i = 0; i < {count}; i++) printf(\"%d\\n\", rand());")
    values = [int(v) for v in run_c("\n".join(body)).split()]
    return [values[k * count:(k + 1) * count] for k in range(len(seeds))]


@needs_gcc
def test_rand_matches_glibc(run_c):
    seeds = [None, *SEEDS]
    for seed, expected in zip(seeds, c_rand_values(run_c, seeds, 1000)):
        rng = GlibcRandom()
        if seed is not None:
            rng.srand(seed)
        assert [rng.rand() for _ in range(1000)] == expected, f"srand({seed})"


@needs_gcc
def test_rand_array_matches_glibc_long_stream(run_c):
    (expected,) = c_rand_values(run_c, [42], 300_000)
    rng = GlibcRandom(42)
    got = np.concatenate([rng.rand_array(5), [rng.rand() for _ in range(40)], rng.rand_array(199_955),
                          rng.rand_array(100), rng.rand_array(99_900)])
    assert rng.rand_array(10).dtype == np.int32
    assert got.tolist() == expected


@needs_gcc
def test_random_seeds_match_glibc(run_c):
    seeds = batch(st.integers(0, 2**32 - 1), 60)
    for seed, expected in zip(seeds, c_rand_values(run_c, seeds, 200)):
        assert GlibcRandom(seed).rand_array(200).tolist() == expected, f"srand({seed})"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 3000), max_size=6))
def test_rand_array_is_rand_repeated(seed, splits):
    bulk, scalar = GlibcRandom(seed), GlibcRandom(seed)
    for n in splits:
        assert bulk.rand_array(n).tolist() == [scalar.rand() for _ in range(n)]
    assert bulk.rand() == scalar.rand()


def test_srand_restarts_the_sequence():
    rng = GlibcRandom()
    first = rng.rand_array(500)
    rng.srand(1)
    assert rng.rand_array(500).tolist() == first.tolist()
    rng.srand(0)
    assert rng.rand_array(500).tolist() == first.tolist()     # srand(0) is srand(1)


# ---------------------------------------------------------------------------
# strtol / atoi / strtod / atof
# ---------------------------------------------------------------------------

INTEGER_TEXTS = [
    b"0", b"42", b"-42", b"+42", b"   \t\n\v\f\r17abc", b"", b"   ", b"-", b"+", b"- 5", b"0x1A", b"0X1a",
    b"0x", b"0xg", b"-0x10", b"010", b"08", b"0b101", b"z", b"Zz", b"123456789012345678901234567890",
    b"-123456789012345678901234567890", b"9223372036854775807", b"9223372036854775808",
    b"-9223372036854775808", b"-9223372036854775809", b"2147483648", b"4294967296", b"-2147483649",
    b"99999999999", b"0" * 5000 + b"7", b"1" * 5000, b"12 34", b"1_000", b"0x7fffffffffffffff",
    b"0xffffffffffffffffff", b"777", b"101", b"zzzzzzzzzzzzzzzz",
]
BASES = [0, 2, 8, 10, 16, 36]


def c_strtol(run_c, texts: list[bytes]) -> list[tuple[tuple[int, int], ...]]:
    body = ["char *end; long v;"]
    for text in texts:
        for base in BASES:
            body.append(f"{{ const char *s = {c_string(text)}; v = strtol(s, &end, {base}); "
                        f"printf(\"%ld %ld\\n\", v, (long)(end - s)); }}")
        body.append(f"printf(\"%d 0\\n\", atoi({c_string(text)}));")
    numbers = [int(v) for v in run_c("\n".join(body)).split()]
    pairs = list(zip(numbers[::2], numbers[1::2]))
    per_text = len(BASES) + 1
    return [tuple(pairs[k * per_text:(k + 1) * per_text]) for k in range(len(texts))]


def python_strtol(text: bytes) -> tuple[tuple[int, int], ...]:
    return tuple(strtol(text, base) for base in BASES) + ((atoi(text), 0),)


def assert_strtol_matches(run_c, texts):
    mismatches = [f"{t!r}: C {c}, minicuda {python_strtol(t)}"
                  for t, c in zip(texts, c_strtol(run_c, texts)) if python_strtol(t) != c]
    assert not mismatches, "\n".join(mismatches[:30])


@needs_gcc
def test_strtol_and_atoi_match_glibc(run_c):
    assert_strtol_matches(run_c, INTEGER_TEXTS)


@needs_gcc
def test_random_strtol_matches_glibc(run_c):
    texts = batch(st.binary(max_size=24).map(lambda b: b.replace(b"\0", b"")) |
                  st.text(" \t+-0123456789xXabcdefzZ", max_size=24).map(str.encode), 800)
    assert_strtol_matches(run_c, texts)


def test_strtol_invalid_base():
    assert strtol(b"123", 1) == (0, 0) and strtol(b"123", 37) == (0, 0)


FLOAT_TEXTS = [
    b"3.14", b"  -2.5e3xyz", b"1e", b"1e+", b"1e+5", b"1E-5", b".5", b".", b"-.", b"+", b"", b"5.", b"-.5e1",
    b"0x1p3", b"0x1.8p1", b"0X.8P1", b"0x", b"0xg", b"0x1p", b"0x1p+", b"0x1.", b"0x.p1", b"-0x1.fffffffffffffp1023",
    b"0x1.fffffffffffff8p1023", b"0x1p-1075", b"0x1.0000000000001p-1075", b"0x1p-1074", b"0x1p99999",
    b"0x1p-99999", b"0x123456789abcdef123456789", b"inf", b"-INF", b"infinity", b"INFINITYx", b"infinit",
    b"infx", b"in", b"nan", b"-nan", b"NaN", b"nan(123)", b"nan(0x10)", b"nan(", b"nan()", b"nan(abc_1)",
    b"nan(-5)", b"nanx", b"1e400", b"-1e400", b"1e-400", b"4.9e-324", b"2.4703282292062327e-324",
    b"2.4703282292062328e-324", b"1.7976931348623157e308", b"1.7976931348623158e308",
    b"1.797693134862315807e308", b"0.1000000000000000055511151231257827021181583404541015625",
    b"00000.5", b"1_000", b"123abc", b"\t\n 42", b"0" * 400 + b"1e-400", b"1" + b"0" * 400 + b"e-400",
    b"9007199254740993", b"-0", b"-0.0e0", b"1e-7", b"1e00000000000000000000000000000000001",
]


def c_strtod(run_c, texts: list[bytes]) -> list[tuple[int, int]]:
    body = ["char *end; double v;"]
    for text in texts:
        body.append(f"{{ const char *s = {c_string(text)}; v = strtod(s, &end); "
                    f"printf(\"%llu %ld %llu\\n\", B(v), (long)(end - s), B(atof(s))); }}")
    numbers = [int(v) for v in run_c("\n".join(body)).split()]
    return [tuple(numbers[k:k + 3]) for k in range(0, len(numbers), 3)]


def python_strtod(text: bytes) -> tuple[int, int, int]:
    value, consumed = strtod(text)
    return bits(value), consumed, bits(atof(text))


def assert_strtod_matches(run_c, texts):
    mismatches = [f"{t!r}: C {c}, minicuda {python_strtod(t)}"
                  for t, c in zip(texts, c_strtod(run_c, texts)) if python_strtod(t) != c]
    assert not mismatches, "\n".join(mismatches[:30])


@needs_gcc
def test_strtod_and_atof_match_glibc(run_c):
    assert_strtod_matches(run_c, FLOAT_TEXTS)


@needs_gcc
def test_random_strtod_matches_glibc(run_c):
    printed = st.floats().map(lambda x: repr(x).encode()) | st.floats().map(lambda x: x.hex().encode())
    texts = batch(printed | st.text(" +-0123456789.eExXpPabcfinyt()", max_size=20).map(str.encode), 800)
    assert_strtod_matches(run_c, texts)
