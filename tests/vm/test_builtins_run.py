"""Builtins end to end (`minicuda run`): the functions the bundled headers declare do what
glibc and nvcc make them do, on both engines, and one minicuda cannot run is a located
compile error.  Expected values come from the machine's glibc through ctypes or from
Python's IEEE arithmetic, not from minicuda."""
import ctypes
import ctypes.util
import math
import struct

import numpy as np
import pytest

from minicuda.cli import minicuda_main
from minicuda.vm.runtime import implementation

LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
ENGINES = ["jit", "interp"]


def run(tmp_path, capsys, source: str, *options: str) -> tuple[int, str, str]:
    f = tmp_path / "prog.cu"
    f.write_text(source)
    code = minicuda_main(["run", str(f), *options])
    out = capsys.readouterr()
    return code, out.out, out.err


def glibc(name: str, restype, argtypes, library=LIBC):
    fn = getattr(library, name)
    fn.restype, fn.argtypes = restype, argtypes
    return fn


def c_string(text: bytes) -> str:
    return '"' + "".join(f"\\{b:03o}" for b in text) + '"'


# ---- strings to numbers: the runtime uses vm/libc.py's glibc-exact conversions -----------------
def test_strtol_42_on_the_host(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, '#include <stdio.h>\n#include <stdlib.h>\n'
                       'int main() { printf("%ld\\n", strtol("42", 0, 10)); return 0; }\n')
    assert (code, out) == (0, "42\n")


def test_atof_reads_the_number_before_the_rest(tmp_path, capsys):
    expected = b"%f\n" % glibc("atof", ctypes.c_double, [ctypes.c_char_p])(b"1.5abc")
    code, out, _ = run(tmp_path, capsys, '#include <stdio.h>\n#include <stdlib.h>\n'
                       'int main() { printf("%f\\n", atof("1.5abc")); return 0; }\n')
    assert (code, out.encode()) == (0, expected) and out == "1.500000\n"


def test_atol_is_64_bit_like_glibcs_long(tmp_path, capsys):
    expected = glibc("atol", ctypes.c_long, [ctypes.c_char_p])(b"5000000000")
    code, out, _ = run(tmp_path, capsys, '#include <stdio.h>\n#include <stdlib.h>\n'
                       'int main() { printf("%ld %lld\\n", atol("5000000000"), atoll("-5000000000")); return 0; }\n')
    assert (code, out) == (0, f"{expected} -5000000000\n") and expected == 5000000000


INTEGER_TEXTS = [b"42", b"  -0x1Fz", b"0777", b"0x", b"+", b"-9223372036854775809", b"9223372036854775808",
                 b"18446744073709551615", b"18446744073709551616", b"-1", b"zz9", b"\t\n 12abc", b"0b101"]


@pytest.mark.parametrize("function,ctype", [("strtol", ctypes.c_long), ("strtoll", ctypes.c_longlong),
                                            ("strtoul", ctypes.c_ulong), ("strtoull", ctypes.c_ulonglong)])
def test_strtol_family_with_end_pointer_matches_glibc(tmp_path, capsys, function, ctype):
    c_fn = glibc(function, ctype, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int])
    lines, body = [], []
    for text in INTEGER_TEXTS:
        for base in (0, 8, 10, 16, 36):
            buf, end = ctypes.create_string_buffer(text), ctypes.c_char_p()
            value = c_fn(buf, ctypes.byref(end), base)
            consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
            lines.append(f"{value} {consumed}")
            body.append(f'  {{ const char *s = {c_string(text)}; char *end; unsigned long long v = '
                        f'{function}(s, &end, {base}); printf("%{"lld" if ctype in (ctypes.c_long, ctypes.c_longlong) else "llu"}'
                        f' %ld\\n", v, (long)(end - s)); }}\n')
    code, out, _ = run(tmp_path, capsys, "#include <stdio.h>\n#include <stdlib.h>\nint main() {\n"
                       + "".join(body) + "  return 0;\n}\n")
    assert code == 0 and out.splitlines() == lines


def test_an_invalid_base_leaves_the_end_pointer_alone(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, '#include <stdio.h>\n#include <stdlib.h>\nint main() {\n'
                       '  const char *s = "12"; char *end = (char *)s + 1;\n'
                       '  long v = strtol(s, &end, 1);\n  printf("%ld %ld\\n", v, (long)(end - s));\n  return 0;\n}\n')
    assert (code, out) == (0, "0 1\n")


FLOAT_TEXTS = [b"1.5abc", b"  -2.5e3x", b"0x1.8p1", b"inf", b"-nan", b"1e-46", b"3.4028236e38", b".", b"1e",
               b"1.00000005960464477539062500001", b"nan(0x12)"]


def test_strtod_strtof_atof_atoi_match_glibc(tmp_path, capsys):
    strtod = glibc("strtod", ctypes.c_double, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)])
    strtof = glibc("strtof", ctypes.c_float, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)])
    atoi = glibc("atoi", ctypes.c_int, [ctypes.c_char_p])
    lines, body = [], []
    for text in FLOAT_TEXTS:
        buf, end_d, end_f = ctypes.create_string_buffer(text), ctypes.c_char_p(), ctypes.c_char_p()
        d, f = strtod(buf, ctypes.byref(end_d)), strtof(buf, ctypes.byref(end_f))
        used = [ctypes.cast(e, ctypes.c_void_p).value - ctypes.addressof(buf) for e in (end_d, end_f)]
        d_bits = struct.unpack("<Q", struct.pack("<d", d))[0]
        f_bits = struct.unpack("<I", struct.pack("<f", f))[0] if not math.isnan(f) else None
        lines.append(f"{d_bits:x} {used[0]} {f_bits:x} {used[1]} {atoi(buf)}" if f_bits is not None else None)
        body.append(f'  {{ const char *s = {c_string(text)}; char *e1, *e2; double d = strtod(s, &e1); '
                    f'float f = strtof(s, &e2); unsigned long long db; unsigned int fb; memcpy(&db, &d, 8); '
                    f'memcpy(&fb, &f, 4); printf("%llx %ld %x %ld %d\\n", db, (long)(e1 - s), fb, (long)(e2 - s), atoi(s)); }}\n')
    code, out, _ = run(tmp_path, capsys, "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main() {\n"
                       + "".join(body) + "  return 0;\n}\n")
    assert code == 0
    for got, want in zip(out.splitlines(), lines):
        if want is not None:     # a float NaN's bits cannot come back through ctypes' c_float
            assert got == want
    assert out.splitlines()[-1].split()[2] == "7fc00012"     # glibc: nan(0x12) -> 0x7fc00012


# ---- <string.h>, <stdio.h>, <stdlib.h>, <time.h> ----------------------------------------------
def test_string_functions_match_glibc(tmp_path, capsys):
    strcmp = glibc("strcmp", ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p])
    strncmp = glibc("strncmp", ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t])
    memcmp = glibc("memcmp", ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t])
    # C fixes only memcmp's sign; glibc's vector code returns the byte difference or a wider
    # one depending on the buffers' addresses, so minicuda's byte difference is checked by sign
    assert memcmp(b'az', b'ab', 2) > 0
    want = (f"{strcmp(b'abc', b'abd')} {strcmp(b'ab', b'abc')} {strcmp(b'same', b'same')} "
            f"{strncmp(b'abcx', b'abcy', 3)} {strncmp(b'abz', b'abc', 5)} {ord('z') - ord('b')}")
    code, out, _ = run(tmp_path, capsys, r'''#include <stdio.h>
#include <string.h>
int main() {
  printf("%d %d %d %d %d %d\n", strcmp("abc", "abd"), strcmp("ab", "abc"), strcmp("same", "same"),
         strncmp("abcx", "abcy", 3), strncmp("abz", "abc", 5), memcmp("az", "ab", 2));
  char buf[16];
  strcpy(buf, "foo"); strcat(buf, "bar");
  printf("%s %s %s %d %d\n", buf, strchr(buf, 'b'), strstr(buf, "ob"), strchr(buf, 'z') == 0, strstr(buf, "") == buf);
  strncpy(buf, "hi", 5);
  printf("%s %d %d %d\n", buf, buf[3], buf[4], buf[5]);
  int n = sprintf(buf, "x=%d", 42);
  printf("%s %d ", buf, n);
  n = snprintf(buf, 4, "%s", "abcdef");
  printf("%s %d %d\n", buf, n, snprintf(0, 0, "%d", 12345));
  return 0;
}
''')
    assert code == 0
    assert out.splitlines() == [want, "foobar bar obar 1 1", "hi 0 0 114", "x=42 4 abc 6 5"]


def test_realloc_getenv_difftime_and_cudaMallocHost(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MINICUDA_TEST_VAR", "hello")
    monkeypatch.delenv("MINICUDA_NO_SUCH_VAR", raising=False)
    code, out, _ = run(tmp_path, capsys, r'''#include <stdio.h>
#include <stdlib.h>
int main() {
  int *p = (int *)malloc(2 * sizeof(int));
  p[0] = 7; p[1] = 8;
  p = (int *)realloc(p, 1000 * sizeof(int));
  p[999] = 9;
  printf("%d %d %d\n", p[0], p[1], p[999]);
  free(p);
  printf("%s %d %f\n", getenv("MINICUDA_TEST_VAR"), getenv("MINICUDA_NO_SUCH_VAR") == 0, difftime(10, 4));
  float *h;
  printf("%d ", (int)cudaMallocHost((void **)&h, 4 * sizeof(float)));
  h[3] = 2.5f;
  printf("%f %d\n", h[3], (int)cudaFreeHost(h));
  return 0;
}
''')
    assert (code, out) == (0, "7 8 9\nhello 1 6.000000\n0 2.500000 0\n")


def test_a_failed_host_assert_prints_glibcs_message_and_aborts(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, '#include <stdio.h>\n#include <assert.h>\n'
                         'int main() {\n  int x = 1;\n  printf("before\\n");\n  assert(x == 2);\n  printf("after\\n");\n'
                         '  return 0;\n}\n')
    assert code == 134 and out == "before\n"
    assert err == f"prog.cu: {tmp_path / 'prog.cu'}:6: int main(): Assertion `x == 2' failed.\nAborted\n"


def test_a_failed_device_assert_prints_cudas_line_and_the_error_sticks(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, '#include <assert.h>\n#include <stdio.h>\n'
                         '__global__ void k(int *p) {\n  assert(p[0] == 1);\n}\n'
                         'int main() {\n  int *d;\n  cudaMalloc(&d, 4);\n  cudaMemset(d, 0, 4);\n  k<<<1, 1>>>(d);\n'
                         '  printf("%d\\n", (int)cudaDeviceSynchronize());\n  return 0;\n}\n')
    assert code == 0 and err == ""
    assert out == f"{tmp_path / 'prog.cu'}:4: void k(int *): block: [0,0,0], thread: [0,0,0] Assertion `p[0] == 1` " \
                  f"failed.\n710\n"


# ---- intrinsics in kernels, both engines ---------------------------------------------------------
CLASSIFY = r'''#include <stdio.h>
__global__ void classify(const float *x, const double *y, int *out) {
  int i = threadIdx.x;
  out[8 * i + 0] = isnan(x[i]); out[8 * i + 1] = isinf(x[i]); out[8 * i + 2] = isfinite(x[i]); out[8 * i + 3] = signbit(x[i]);
  out[8 * i + 4] = isnan(y[i]); out[8 * i + 5] = isinf(y[i]); out[8 * i + 6] = isfinite(y[i]); out[8 * i + 7] = signbit(y[i]);
}
int main() {
  float x[7] = {1.5f, -INFINITY, INFINITY, NAN, -0.0f, -3.4e38f, 1e-45f};
  double y[7] = {1.5, -INFINITY, INFINITY, NAN, -0.0, -1e308, 5e-324};
  float *dx; double *dy; int *dout; int out[56];
  cudaMalloc(&dx, sizeof x); cudaMalloc(&dy, sizeof y); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  classify<<<1, 7>>>(dx, dy, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 7; i++) {
    for (int j = 0; j < 8; j++) printf("%d", out[8 * i + j]);
    printf(" %d%d%d%d\n", isnan(x[i]), isinf(y[i]), isfinite(x[i]), signbit(y[i]));
  }
  return 0;
}
'''


def classified(v: float) -> str:
    return "".join(str(int(b)) for b in (math.isnan(v), math.isinf(v), math.isfinite(v), math.copysign(1, v) < 0))


@pytest.mark.parametrize("engine", ENGINES)
def test_isnan_isinf_isfinite_signbit_in_a_kernel(tmp_path, capsys, engine):
    xs = [1.5, -math.inf, math.inf, math.nan, -0.0, -3.4e38, 1e-45]
    ys = [1.5, -math.inf, math.inf, math.nan, -0.0, -1e308, 5e-324]
    code, out, err = run(tmp_path, capsys, CLASSIFY, "--engine", engine)
    assert code == 0, err
    for line, x, y in zip(out.splitlines(), xs, ys):
        host = f"{int(math.isnan(x))}{int(math.isinf(y))}{int(math.isfinite(x))}{int(math.copysign(1, y) < 0)}"
        assert line == f"{classified(x)}{classified(y)} {host}"


BITS = r'''#include <stdio.h>
__global__ void bits(const int *a, int *out) {
  int i = threadIdx.x, x = a[i];
  long long w = (long long)x << 20;
  out[8 * i + 0] = __clz(x); out[8 * i + 1] = __clzll(w); out[8 * i + 2] = __ffs(x); out[8 * i + 3] = __ffsll(w);
  out[8 * i + 4] = __mul24(x, x + 0x1000003); out[8 * i + 5] = __laneid();
  out[8 * i + 6] = (int)(fdimf(x, 2.5f) * 10.0f); out[8 * i + 7] = (int)(__saturatef(x * 0.25f) * 100.0f);
}
int main() {
  int a[6] = {0, 1, -3, 12, 0x00800001, -2147483647 - 1};
  int *da, *dout, out[48];
  cudaMalloc(&da, sizeof a); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  bits<<<1, 6>>>(da, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 8; j++) printf("%d ", out[8 * i + j]);
    printf("\n");
  }
  return 0;
}
'''


def reference_bits(x: int, lane: int) -> list[int]:
    """CUDA's definitions: __clz/__ffs on the 32/64-bit pattern, __mul24 of the low 24 bits
    sign-extended, fdimf / __saturatef in f32 (exact here)."""
    u32, u64 = x & 0xFFFFFFFF, (x << 20) & 0xFFFFFFFFFFFFFFFF

    def s24(v):
        v &= 0xFFFFFF
        return v - (1 << 24) if v >> 23 else v

    def s32(v):
        v &= 0xFFFFFFFF
        return v - (1 << 32) if v >> 31 else v

    ffs = lambda v: (v & -v).bit_length()
    f = np.float32(x)
    fdim = max(f - np.float32(2.5), np.float32(0.0))
    saturate = min(max(f * np.float32(0.25), np.float32(0.0)), np.float32(1.0))
    return [32 - u32.bit_length(), 64 - u64.bit_length(), ffs(u32), ffs(u64),
            s32(s24(x) * s24(x + 0x1000003)), lane, int(fdim * np.float32(10.0)), int(saturate * np.float32(100.0))]


@pytest.mark.parametrize("engine", ENGINES)
def test_bit_and_float_intrinsics_in_a_kernel(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, BITS, "--engine", engine)
    assert code == 0, err
    inputs = [0, 1, -3, 12, 0x00800001, -2147483648]
    assert [list(map(int, line.split())) for line in out.splitlines()] == [reference_bits(x, i) for i, x in enumerate(inputs)]


BYTE_PERM = r'''
#include <cstdio>
__global__ void swap_bytes(unsigned *out, const unsigned *selectors) {
  unsigned s = selectors[threadIdx.x];
  out[threadIdx.x] = __byte_perm(0x33221100u, 0x77665544u, s);
}
int main() {
  const int n = 6;
  unsigned h[n] = {0x3210, 0x7654, 0x0123, 0x5140, 0xCCCC, 0x8888}, *d_s, *d_out, out[n];
  cudaMalloc(&d_s, sizeof h); cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_s, h, sizeof h, cudaMemcpyHostToDevice);
  swap_bytes<<<1, n>>>(d_out, d_s);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%08x\n", out[i]);
  return 0;
}
'''


@pytest.mark.parametrize("engine", ENGINES)
def test_byte_perm_in_a_kernel(tmp_path, capsys, engine):
    """__byte_perm(x, y, s): the CUDA manual's byte selection; a nibble's top bit is unused."""
    code, out, err = run(tmp_path, capsys, BYTE_PERM, "--engine", engine)
    assert code == 0, err
    assert out.split() == ["33221100", "77665544", "00112233", "55114400", "44444444", "00000000"]


BIT_CASTS = r'''
#include <cstdio>
__global__ void k(float *f, int *i, unsigned *u, double *d, long long *l) {
  int t = threadIdx.x;
  i[t] = __float_as_int(f[t]);
  u[t] = __float_as_uint(-f[t]);
  f[t + 4] = __int_as_float(i[t] ^ 0x80000000) + __uint_as_float(0x3f800000u);
  l[t] = __double_as_longlong(d[t]);
  d[t + 4] = __longlong_as_double(l[t] + 1) * 2.0;
}
int main() {
  float hf[8] = {1.0f, -2.5f, 0.375f, 3e10f}; int hi[4]; unsigned hu[4]; double hd[8] = {1.0, -0.1, 2.0, 1e300}; long long hl[4];
  float *f; int *i; unsigned *u; double *d; long long *l;
  cudaMalloc(&f, sizeof hf); cudaMalloc(&i, sizeof hi); cudaMalloc(&u, sizeof hu); cudaMalloc(&d, sizeof hd); cudaMalloc(&l, sizeof hl);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice); cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
  k<<<1, 4>>>(f, i, u, d, l);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost); cudaMemcpy(hi, i, sizeof hi, cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost); cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost); cudaMemcpy(hl, l, sizeof hl, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 4; t++) printf("%08x %08x %g %016llx %.17g\n", hi[t], hu[t], hf[t + 4], hl[t], hd[t + 4]);
  return 0;
}
'''


def reference_bit_casts(f: float, d: float) -> str:
    """What the BIT_CASTS kernel prints for the float f and the double d, by Python's IEEE packing."""
    def bits(fmt, code, x):
        return struct.unpack(code, struct.pack(fmt, x))[0]
    i, u = bits("<f", "<I", f), bits("<f", "<I", -f)
    back = struct.unpack("<f", struct.pack("<I", i ^ 0x80000000))[0] + 1.0
    ll = bits("<d", "<Q", d)
    twice = struct.unpack("<d", struct.pack("<Q", ll + 1))[0] * 2.0
    return f"{i:08x} {u:08x} {back:g} {ll:016x} {twice:.17g}"


@pytest.mark.parametrize("engine", ENGINES)
def test_bit_casts_in_a_kernel(tmp_path, capsys, engine):
    """__float_as_int and its kin reinterpret the bits, float and double, both ways."""
    code, out, err = run(tmp_path, capsys, BIT_CASTS, "--engine", engine)
    assert code == 0, err
    cases = [(1.0, 1.0), (-2.5, -0.1), (0.375, 2.0), (3e10, 1e300)]
    assert out.splitlines() == [reference_bit_casts(f, d) for f, d in cases]


@pytest.mark.parametrize("engine", ENGINES)
def test_erf_infinity_and_nan_run(tmp_path, capsys, engine):
    """erff lowered to MUFU.ERF, which the VM could not evaluate; INFINITY and NAN were
    calls to missing runtime functions."""
    erf = glibc("erf", ctypes.c_double, [ctypes.c_double], LIBM)
    code, out, err = run(tmp_path, capsys, r'''#include <stdio.h>
__global__ void k(float *x) { x[0] = erff(x[0]); x[1] = erf((double)x[1]) > 0.5 ? INFINITY : NAN; }
int main() {
  float h[2] = {0.5f, 1.0f}; float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.6f %f %f %f\n", h[0], h[1], -INFINITY, NAN);
  return 0;
}
''', "--engine", engine)
    expected = struct.unpack("<f", struct.pack("<f", erf(0.5)))[0]
    assert (code, out) == (0, f"{expected:.6f} inf -inf nan\n"), err


@pytest.mark.parametrize("engine", ENGINES)
def test_clock_and_clock64_in_a_kernel(tmp_path, capsys, engine):
    """Device clock() was refused at run time ("cannot be called from device code")."""
    code, out, err = run(tmp_path, capsys, r'''#include <stdio.h>
__global__ void timed(long long *t) { t[0] = clock64(); t[1] = clock(); t[2] = clock64(); }
int main() {
  long long *d, h[3];
  cudaMalloc(&d, sizeof h);
  timed<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[1] >= h[0], h[2] >= h[1]);
  return 0;
}
''', "--engine", engine)
    assert (code, out) == (0, "1 1\n"), err


# ---- what minicuda cannot run: a located compile error -------------------------------------------
def test_an_unsupported_builtin_is_a_located_compile_error(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, '#include <stdlib.h>\nint main() {\n  int rc = system("ls");\n'
                         '  return rc;\n}\n')
    assert code == 1 and out == ""
    path = tmp_path / "prog.cu"
    assert err.splitlines()[:3] == [
        f"{path}:3:12: error: call to unavailable function 'system': minicuda runs no other programs",
        '    3 |   int rc = system("ls");',
        "      |            ^~~~~~~~~~~~"]


def test_a_host_only_runtime_function_in_device_code_is_a_compile_error(tmp_path, capsys):
    code, _, err = run(tmp_path, capsys, '#include <stdlib.h>\n__global__ void k(int *p) {\n  p[0] = atoi("5");\n}\n'
                       'int main() { return 0; }\n')
    assert code == 1
    assert f'{tmp_path / "prog.cu"}:3:10: error: calling a __host__ function("atoi") from a __global__ function("k")' in err


def test_the_runtime_enforces_the_rows_sides():
    """A .sass file is not checked by sema: the runtime refuses what the row forbids."""
    assert implementation("printf", device=True) == "device_printf"
    assert implementation("strtoll", device=False) == "strtol"
    with pytest.raises(RuntimeError, match="'atoi' cannot be called from device code"):
        implementation("atoi", device=True)
    with pytest.raises(RuntimeError, match="'clock64' cannot be called from host code"):
        implementation("clock64", device=False)
    with pytest.raises(RuntimeError, match="'system' is not supported: minicuda runs no other programs"):
        implementation("system", device=False)
    with pytest.raises(RuntimeError, match="the runtime function 'sqrtf' is not supported"):
        implementation("sqrtf", device=True)
