"""The builtin table: what every function the bundled headers declare becomes.

One row per name (`BUILTINS[name]`), of one of four kinds:

- an intrinsic: the lowering emits instructions in place of the call.  The row
  names the opcode and modifiers and, in `shape`, the lowering's handler that
  builds them: `plain` emits `op.mods dst, args...` (plus the row's fixed
  `operand`, if any); the others are the special shapes listed in `SHAPES`.
- a runtime function: the lowering emits `CALL.RT name`, and the VM's runtime
  runs the method `rt_<impl>`, where `host` and `device` name the implementation
  for each side (None: it may not be called there).  `returns` is the width of
  the result register the VM writes: 0 (void), 32 or 64.
- unsupported: declared so that a program gets a located compile error at the
  call (with `reason`) rather than "undeclared identifier".
- missing: declared so that a program compiles (pthread_create); a call is lowered
  as a runtime call and fails when it runs, at the call: "'pthread_create' is not
  supported" (a program may hold such calls on a path it never takes).

Invariants (tests/minicuda/test_builtin_table.py checks them): every function
declared in grammar/include has a row; every intrinsic's opcode is in
`minicuda.ir.OPS`; every runtime implementation exists in vm/runtime.py; a
runtime row may be called exactly where its header declaration allows, and its
`returns` is the declared return type's width.  Overloads of one name (atomicAdd
on int and float, min on every type) share one row: the shape picks the typed
form.  This module is core: it imports nothing from grammar/, passes/ or vm/.
"""
from __future__ import annotations

import itertools
import math
import struct
from dataclasses import dataclass

INTRINSIC, RUNTIME, UNSUPPORTED, MISSING = "intrinsic", "runtime", "unsupported", "missing"

# shape -> what the lowering's handler of that name (`builtin_<shape>`) builds from
# the row's op and mods; "by type" shapes pick the typed form from the call's types
SHAPES = {
    "plain": "op.mods dst, args..., operand (no dst when the function returns void)",
    "constant": "MOV dst, operand: the row's immediate; the arguments are not evaluated",
    "minmax": "IMNMX.mods.type for integers, FMNMX / DMNMX.mods for floats (by type)",
    "math": "MUFU.mods, with .F64 for a double result (by type: <cmath>'s std::sqrt(float) is float)",
    "absolute": "IABS.S32 / IABS.S64 for integers, MUFU.FABS[.F64] for floats (by type: std::abs)",
    "atomic": "ATOM.mods.type dst, [address], values (by the pointed-to type)",
    "shuffle": "SHFL.mods[.64] dst, var, lane, width, mask: the value first, the mask last (by type)",
    "vote": "VOTE.mods dst, predicate, mask",
    "match": "MATCH.mods[.64] dst, value, mask (by type); __match_all_sync then stores dst != 0 through "
             "its int *pred (ISETP.NE, SEL, STG)",
    "fdim": "x - y when x > y or either is NaN, else +0: FSETP.LE + FSUB + SEL (by type)",
    "fused": "FFMA / DFMA dst, a, b, c (by type: C++'s fma(float, float, float) is FFMA)",
    "saturate": "FMNMX.MAX with 0, then FMNMX.MIN with 1 (NaN gives 0)",
    "leading_zeros": "FLO.mods t, x; ISUB dst, width - 1, t (32 or 64 for zero)",
    "first_set": "BREV t, x; FLO.mods.SH u, t; IADD dst, u, 1 (0 for zero)",
    "mul24": "the low 24 bits of each operand sign-extended (SHL, SHR.S32), then IMUL",
    "byte_perm": "PRMT.mods dst, x, selector, y: the selector between the two words, as SASS prints it",
    "is_nan": "FSETP.NE p, x, x; P2R dst, p (by type: DSETP for a double)",
    "compare_magnitude": "MUFU.FABS a, x; FSETP.mods p, a, +INF; P2R dst, p (by type: .F64, DSETP)",
    "sign_bit": "SHR.U32 dst, x, 31 (by type: a double shifts by 63, then I2I.U32.U64)",
    "make_vector": "STL [result + member offset], argument, for each member: make_int2 & co. build their struct",
    "funnel_shift": "SHF.mods dst, lo, shift, hi: __funnelshift_l/r(lo, hi, shift), the shift between the words",
    "read_only": "LDG.E.CONSTANT[.width] dst, [pointer]: __ldg of any pointed-to type, through the read-only cache",
    "legacy_shuffle": "SHFL.mods[.64] dst, var, lane, width, 0xffffffff: __shfl & co. of sm_60 and older (by type)",
    "legacy_vote": "VOTE.mods dst, predicate, 0xffffffff: __ballot, __any, __all of sm_60 and older",
    "scaled_exp": "FMUL t, x, operand; then nvcc's EX2 guard (t < -126: EX2 of t/2, squared) round "
                  "MUFU.EX2.APPROX: __expf (operand log2 e), __exp10f (log2 10)",
    "scaled_log": "nvcc's LG2 guard (|x| < 2^-126: LG2 of x * 2^24, minus 24) round MUFU.LG2.APPROX; "
                  "FMUL dst, t, operand where there is one: __logf (ln 2), __log10f (log10 2), __log2f",
    "fast_power": "the LG2 guard round MUFU.LG2.APPROX t, x; FMUL u, t, y; the EX2 guard round "
                  "MUFU.EX2.APPROX dst, u: __powf",
    "fast_divide": "the RCP guard (|y| < 2^-126: x and y times 2^24) round MUFU.RCP.APPROX t, y; "
                   "FMUL dst, t, x: __fdividef",
    "fast_turns": "FMUL.RZ t, x, 1/(2 pi); MUFU.mods.APPROX dst, t: __sinf, __cosf",
    "fast_tangent": "FMUL.RZ t, x, 1/(2 pi); MUFU.COS.APPROX c, t; MUFU.SIN.APPROX s, t; then __fdividef(s, c)",
    "fast_rsqrt": "the RSQ guard (|x| < 2^-126: RSQ of x * 2^24, times 2^12) round MUFU.RSQ.APPROX: rsqrtf",
    "sincos": "FMUL.RZ t, x, 1/(2 pi); MUFU.SIN.APPROX s, t; MUFU.COS.APPROX c, t; STG [sine pointer], s; "
              "STG [cosine pointer], c: __sincosf",
}
# the legacy warp intrinsics (no mask): nvcc accepts them below sm_70 with a deprecation
# warning and has no declaration of them for sm_70 and newer (compiler.py asks this module)
LEGACY_WARP_FROM = 70
MATCH_FROM = 70          # __match_any_sync / __match_all_sync: declared for sm_70 on (sm_70_rt.h)

HOST, DEVICE = "host", "device"


@dataclass(frozen=True)
class Builtin:
    name: str
    kind: str                          # INTRINSIC, RUNTIME, UNSUPPORTED or MISSING
    op: str = ""                       # intrinsic: the opcode emitted
    mods: tuple[str, ...] = ()         # intrinsic: its modifiers
    shape: str = "plain"               # intrinsic: the lowering's handler (SHAPES)
    operand: int | float | str | None = None   # intrinsic: a fixed operand (immediate, or SR_* special)
    host: str | None = None            # runtime: implementation for host code (rt_<host>)
    device: str | None = None          # runtime: implementation for device code (rt_<device>)
    returns: int = 0                   # runtime: result width, 0 / 32 / 64
    reason: str = ""                   # unsupported: why

    @property
    def where(self) -> frozenset[str]:
        """Where a runtime function may be called: host, device or both."""
        return frozenset(side for side, impl in ((HOST, self.host), (DEVICE, self.device)) if impl)

    def implementation(self, side: str) -> str | None:
        """The runtime method name (without rt_) for a call from `side`."""
        return self.host if side == HOST else self.device


def intrinsic(name: str, op: str, mods: tuple[str, ...] = (), shape: str = "plain", operand=None) -> Builtin:
    return Builtin(name, INTRINSIC, op=op, mods=mods, shape=shape, operand=operand)


def runtime(name: str, returns: int, host: str | None = "", device: str | None = None) -> Builtin:
    """host="" (the default): implemented for the host by rt_<name>."""
    return Builtin(name, RUNTIME, host=name if host == "" else host, device=device, returns=returns)


def unsupported(name: str, reason: str) -> Builtin:
    return Builtin(name, UNSUPPORTED, reason=reason)


def missing(name: str) -> Builtin:
    return Builtin(name, MISSING)


# ---- families ------------------------------------------------------------------------------
# <math.h> functions that are one MUFU: name (double) and name + "f" (float)
MATH_FUNCTIONS = {
    "sqrt": "SQRT", "rsqrt": "RSQ", "cbrt": "CBRT", "exp": "EXP", "exp2": "EX2", "expm1": "EXPM1",
    "log": "LOG", "log2": "LG2", "log10": "LOG10", "log1p": "LOG1P", "sin": "SIN", "cos": "COS",
    "tan": "TAN", "asin": "ASIN", "acos": "ACOS", "atan": "ATAN", "sinh": "SINH", "cosh": "COSH",
    "tanh": "TANH", "fabs": "FABS", "floor": "FLOOR", "ceil": "CEIL", "round": "ROUND", "trunc": "TRUNC",
    "rint": "RINT", "erf": "ERF", "pow": "POW", "atan2": "ATAN2", "fmod": "FMOD", "hypot": "HYPOT",
    "copysign": "COPYSIGN", "erfc": "ERFC", "lgamma": "LGAMMA", "tgamma": "TGAMMA", "exp10": "EXP10",
    "asinh": "ASINH", "acosh": "ACOSH", "atanh": "ATANH", "logb": "LOGB", "nearbyint": "RINT",
    "nextafter": "NEXTAFTER", "remainder": "REMAINDER",
}
ATOMICS = {"atomicAdd": "ADD", "atomicSub": "SUB", "atomicExch": "EXCH", "atomicMin": "MIN", "atomicMax": "MAX",
           "atomicInc": "INC", "atomicDec": "DEC", "atomicCAS": "CAS", "atomicAnd": "AND", "atomicOr": "OR",
           "atomicXor": "XOR"}
SHUFFLES = {"__shfl_sync": "IDX", "__shfl_up_sync": "UP", "__shfl_down_sync": "DOWN", "__shfl_xor_sync": "BFLY"}
VOTES = {"__ballot_sync": "BALLOT", "__any_sync": "ANY", "__all_sync": "ALL"}
MATCHES = {"__match_any_sync": "ANY", "__match_all_sync": "ALL"}
# -use_fast_math: the float functions device code calls as their fast intrinsics (nvcc's
# mapping; `std::sin(float)` and its kin as the `f` forms); float `x / y` is __fdividef
FAST_MATH = {name + "f": "__" + name + "f" for name in ("sin", "cos", "tan", "exp", "log", "log2", "log10", "pow")}


def fast_math_name(name: str, returns_float: bool) -> str | None:
    """The intrinsic -use_fast_math calls instead of `name` (None: no change)."""
    if returns_float and name + "f" in FAST_MATH:
        return FAST_MATH[name + "f"]
    return FAST_MATH.get(name)
BIT_CASTS = ("__float_as_int", "__float_as_uint", "__int_as_float", "__uint_as_float", "__double_as_longlong",
             "__longlong_as_double")
FENCES = {"__threadfence": "GL", "__threadfence_block": "CTA", "__threadfence_system": "SYS"}


def _math_rows():
    for name, fn in MATH_FUNCTIONS.items():
        yield intrinsic(name, "MUFU", (fn, "F64"), shape="math")
        if name + "f" != "rsqrtf":   # rsqrtf is nvcc's fast MUFU.RSQ (_fast_math_rows)
            yield intrinsic(name + "f", "MUFU", (fn,), shape="math")
    for suffix, op in (("", "D"), ("f", "F")):
        yield intrinsic("fmin" + suffix, op + "MNMX", ("MIN",), shape="minmax")
        yield intrinsic("fmax" + suffix, op + "MNMX", ("MAX",), shape="minmax")
        yield intrinsic("fma" + suffix, op + "FMA", shape="fused")
        yield intrinsic("fdim" + suffix, op + "SUB", shape="fdim")
    yield from _fast_math_rows()
    yield intrinsic("__saturatef", "FMNMX", shape="saturate")
    yield intrinsic("isnan", "FSETP", ("NE",), shape="is_nan")
    yield intrinsic("isinf", "FSETP", ("EQ",), shape="compare_magnitude")
    yield intrinsic("isfinite", "FSETP", ("LT",), shape="compare_magnitude")
    yield intrinsic("signbit", "SHR", ("U32",), shape="sign_bit")
    yield intrinsic("__builtin_inff", "MOV", shape="constant", operand=math.inf)
    yield intrinsic("__builtin_nanf", "MOV", shape="constant", operand=math.nan)


def _float32(x: float) -> float:
    """x rounded to the nearest float: the constant as the instruction holds it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _fast_math_rows():
    """The CUDA Math API's intrinsics: the fast approximations as nvcc builds them from
    MUFU (its EX2, LG2, SIN, COS, RCP), the IEEE operations with their rounding named."""
    yield intrinsic("__expf", "MUFU", ("EX2",), shape="scaled_exp", operand=_float32(math.log2(math.e)))
    yield intrinsic("__exp10f", "MUFU", ("EX2",), shape="scaled_exp", operand=_float32(math.log2(10)))
    yield intrinsic("__logf", "MUFU", ("LG2",), shape="scaled_log", operand=_float32(math.log(2)))
    yield intrinsic("__log10f", "MUFU", ("LG2",), shape="scaled_log", operand=_float32(math.log10(2)))
    yield intrinsic("__log2f", "MUFU", ("LG2",), shape="scaled_log")
    yield intrinsic("__powf", "MUFU", ("EX2",), shape="fast_power")
    yield intrinsic("__sinf", "MUFU", ("SIN",), shape="fast_turns")
    yield intrinsic("__cosf", "MUFU", ("COS",), shape="fast_turns")
    yield intrinsic("__tanf", "MUFU", ("SIN",), shape="fast_tangent")
    yield intrinsic("__sincosf", "MUFU", ("SIN",), shape="sincos")
    yield intrinsic("__fdividef", "MUFU", ("RCP",), shape="fast_divide")
    yield intrinsic("rsqrtf", "MUFU", ("RSQ",), shape="fast_rsqrt")
    yield intrinsic("__frsqrt_rn", "MUFU", ("RSQ",))
    for op, name in (("FADD", "__fadd_rn"), ("FSUB", "__fsub_rn"), ("FMUL", "__fmul_rn"), ("FDIV", "__fdiv_rn"),
                     ("FFMA", "__fmaf_rn"), ("DADD", "__dadd_rn"), ("DSUB", "__dsub_rn"), ("DMUL", "__dmul_rn"),
                     ("DDIV", "__ddiv_rn"), ("DFMA", "__fma_rn")):
        yield intrinsic(name, op, ("RN",) if op[1:] in ("ADD", "SUB", "MUL") else ())   # .RN: never contracted
    yield intrinsic("__fsqrt_rn", "MUFU", ("SQRT",))
    yield intrinsic("__frcp_rn", "MUFU", ("RCP",))
    yield from _conversion_rows()


# the conversion intrinsics' names: C type abbreviation -> the SASS type
CONVERTED_INTS = {"int": "S32", "uint": "U32", "ll": "S64", "ull": "U64"}


def _conversion_rows():
    for (source, width), (name, int_type) in itertools.product((("float", "F32"), ("double", "F64")),
                                                               CONVERTED_INTS.items()):
        for rounding in ("rn", "rz", "ru", "rd"):
            yield intrinsic(f"__{source}2{name}_{rounding}", "F2I", (int_type, width, rounding.upper()))
    for name, int_type in CONVERTED_INTS.items():
        yield intrinsic(f"__{name}2float_rn", "I2F", ("F32", int_type))
        yield intrinsic(f"__{name}2double_rn", "I2F", ("F64", int_type))
    yield intrinsic("__double2float_rn", "F2F", ("F32", "F64"))


def _device_rows():
    yield intrinsic("__syncthreads", "BAR", ("SYNC",), operand=0)
    for suffix, mode in (("count", "POPC"), ("and", "AND"), ("or", "OR")):
        yield intrinsic("__syncthreads_" + suffix, "BAR.RED", (mode,))
    yield intrinsic("__syncwarp", "WARPSYNC")
    yield intrinsic("__minicuda_grid_sync", "GRIDSYNC")   # <cooperative_groups.h>'s grid_group::sync()
    yield intrinsic("__trap", "TRAP")
    yield intrinsic("__activemask", "ACTIVEMASK")
    yield from (intrinsic(name, "MEMBAR", (scope,)) for name, scope in FENCES.items())
    yield from (intrinsic(name, "VOTE", (mode,), shape="vote") for name, mode in VOTES.items())
    yield from (intrinsic(name, "MATCH", (mode,), shape="match") for name, mode in MATCHES.items())
    yield from (intrinsic(name, "SHFL", (mode,), shape="shuffle") for name, mode in SHUFFLES.items())
    yield from (intrinsic(name[:-len("_sync")], "VOTE", (mode,), shape="legacy_vote") for name, mode in VOTES.items())
    yield from (intrinsic(name[:-len("_sync")], "SHFL", (mode,), shape="legacy_shuffle")
                for name, mode in SHUFFLES.items())
    yield intrinsic("__ldg", "LDG", ("E", "CONSTANT"), shape="read_only")
    yield from (intrinsic(name, "ATOM", (kind,), shape="atomic") for name, kind in ATOMICS.items())
    yield intrinsic("__laneid", "S2R", operand="SR_LANEID")
    yield runtime("clock64", 64, host=None, device="clock64")
    yield runtime("__minicuda_grid_is_valid", 32, host=None, device="grid_is_valid")   # grid_group::is_valid()


def _integer_rows():
    yield intrinsic("__popc", "POPC", ("U32",))
    yield intrinsic("__popcll", "POPC", ("U64",))
    yield intrinsic("__brev", "BREV", ("U32",))
    yield intrinsic("__brevll", "BREV", ("U64",))
    for name, mods in (("__funnelshift_l", ("L", "W")), ("__funnelshift_r", ("R", "W")),
                       ("__funnelshift_lc", ("L", "C")), ("__funnelshift_rc", ("R", "C"))):
        yield intrinsic(name, "SHF", mods + ("U32",), shape="funnel_shift")
    yield intrinsic("__mulhi", "IMULHI", ("S32",))
    yield intrinsic("__umulhi", "IMULHI", ("U32",))
    yield intrinsic("__clz", "FLO", ("U32",), shape="leading_zeros")
    yield intrinsic("__clzll", "FLO", ("U64",), shape="leading_zeros")
    yield intrinsic("__ffs", "FLO", ("U32",), shape="first_set")
    yield intrinsic("__ffsll", "FLO", ("U64",), shape="first_set")
    yield intrinsic("__mul24", "IMUL", ("S32",), shape="mul24")
    yield intrinsic("__byte_perm", "PRMT", ("U32",), shape="byte_perm")
    for name in BIT_CASTS:
        yield intrinsic(name, "MOV")   # registers hold bits: a move reinterprets them
    yield intrinsic("abs", "IABS", ("S32",), shape="absolute")
    yield intrinsic("labs", "IABS", ("S64",))
    yield intrinsic("llabs", "IABS", ("S64",))
    yield intrinsic("min", "IMNMX", ("MIN",), shape="minmax")
    yield intrinsic("max", "IMNMX", ("MAX",), shape="minmax")


def _libc_rows():
    # <stdio.h>
    yield runtime("printf", 32, device="device_printf")
    for name in ("fprintf", "sprintf", "snprintf", "puts", "putchar", "fflush", "scanf", "fscanf", "sscanf",
                 "fputs", "fputc", "getchar", "fgetc", "ungetc", "fclose", "feof", "ferror", "fseek", "remove",
                 "rename"):
        yield runtime(name, 32)
    yield runtime("putc", 32, host="fputc")
    yield runtime("getc", 32, host="fgetc")
    for name in ("fopen", "fgets", "fread", "fwrite", "ftell"):
        yield runtime(name, 64)
    for name in ("clearerr", "rewind", "perror"):
        yield runtime(name, 0)
    # <errno.h>
    yield runtime("__errno_location", 64, host="errno_location")
    # <stdlib.h>
    yield runtime("malloc", 64, device="device_malloc")
    yield runtime("free", 0, device="device_free")
    for name in ("calloc", "realloc", "getenv"):
        yield runtime(name, 64)
    yield runtime("qsort", 0)
    yield runtime("bsearch", 64)
    yield runtime("atoi", 32)
    yield runtime("atol", 64)
    yield runtime("atoll", 64, host="atol")
    yield runtime("atof", 64)
    yield runtime("strtol", 64)
    yield runtime("strtoll", 64, host="strtol")
    yield runtime("strtoul", 64)
    yield runtime("strtoull", 64, host="strtoul")
    yield runtime("strtod", 64)
    yield runtime("strtof", 32)
    yield runtime("rand", 32)
    for name in ("srand", "exit", "abort"):
        yield runtime(name, 0)
    yield unsupported("system", "minicuda runs no other programs")
    # <string.h>
    yield runtime("memset", 64, device="memset")
    yield runtime("memcpy", 64, device="memcpy")
    yield runtime("memmove", 64, host="memcpy")   # the runtime reads the source whole before writing
    for name in ("memcmp", "strcmp", "strncmp"):
        yield runtime(name, 32)
    for name in ("strlen", "strcpy", "strncpy", "strcat", "strchr", "strstr", "strerror"):
        yield runtime(name, 64)
    # <time.h>, <sys/time.h>, <assert.h>
    yield runtime("time", 64)
    yield runtime("clock", 64, device="clock64")
    yield runtime("difftime", 64)
    yield runtime("gettimeofday", 32)
    yield runtime("__assert_fail", 0, host="assert_fail", device="device_assert_fail")
    # <unistd.h>, <omp.h> (one host thread), <pthread.h> (none of it runs)
    yield runtime("sleep", 32)
    yield runtime("usleep", 32)
    yield runtime("omp_get_wtime", 64)
    for name in ("omp_get_num_threads", "omp_get_max_threads", "omp_get_num_procs"):
        yield runtime(name, 32, host="one")
    yield runtime("omp_get_thread_num", 32, host="zero")
    yield runtime("omp_set_num_threads", 0, host="zero")
    for name in PTHREADS:
        yield missing(name)
    # C++: `throw` and `try` (grammar/sema/statements.py)
    yield runtime("__minicuda_throw", 0, host="throw")
    yield runtime("__minicuda_try", 0, host="try_blocks")


PTHREADS = ("pthread_create", "pthread_join", "pthread_exit", "pthread_self", "pthread_attr_init",
            "pthread_attr_destroy", "pthread_mutex_init", "pthread_mutex_lock", "pthread_mutex_unlock",
            "pthread_mutex_destroy", "pthread_cond_init", "pthread_cond_wait", "pthread_cond_signal",
            "pthread_cond_broadcast", "pthread_cond_destroy")

CUDA_RUNTIME = ("cudaMalloc", "cudaMallocHost", "cudaFree", "cudaFreeHost", "cudaMemcpy", "cudaMemset",
                "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaDeviceSynchronize", "cudaDeviceReset",
                "cudaSetDevice", "cudaGetDevice", "cudaGetDeviceCount", "cudaGetDeviceProperties",
                "cudaGetLastError", "cudaPeekAtLastError", "cudaEventCreate", "cudaEventRecord",
                "cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy", "cudaDeviceSetLimit",
                "cudaDeviceGetLimit", "cudaFuncSetAttribute",
                # streams, pinned, mapped and managed memory, device management
                "cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaStreamSynchronize",
                "cudaStreamQuery", "cudaStreamWaitEvent", "cudaMemcpyAsync", "cudaMemsetAsync",
                "cudaEventCreateWithFlags", "cudaEventQuery", "cudaHostAlloc", "cudaHostGetDevicePointer",
                "cudaHostRegister", "cudaHostUnregister", "cudaMallocManaged", "cudaMemPrefetchAsync",
                "cudaMemAdvise", "cudaDeviceGetAttribute", "cudaRuntimeGetVersion", "cudaDriverGetVersion",
                # stream priorities and host callbacks, pitched memory, symbols and pointers, occupancy
                "cudaStreamCreateWithPriority", "cudaDeviceGetStreamPriorityRange", "cudaStreamGetPriority",
                "cudaStreamGetFlags", "cudaLaunchHostFunc", "cudaStreamAddCallback", "cudaMallocPitch",
                "cudaMemcpy2D", "cudaMemcpy2DAsync", "cudaMemset2D", "cudaMemset2DAsync", "cudaGetSymbolAddress",
                "cudaGetSymbolSize", "cudaPointerGetAttributes", "cudaSetDeviceFlags", "cudaGetDeviceFlags",
                "cudaMemGetInfo", "cudaFuncGetAttributes", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "cudaOccupancyMaxPotentialBlockSize",
                "cudaProfilerStart", "cudaProfilerStop",
                # CUDA 13's cudaMemPrefetchAsync and cudaMemAdvise, their cudaMemLocation's members passed
                "__cudaMemPrefetchAsyncTo", "__cudaMemAdviseFor")


# the runtime functions device code may call too (dynamic parallelism: vm/runtime.py)
CUDA_DEVICE_RUNTIME = {"cudaGetLastError": "device_get_last_error", "cudaPeekAtLastError": "device_peek_last_error",
                       "cudaDeviceSynchronize": "device_synchronize"}


def _cuda_rows():
    yield from (runtime(name, 32, device=CUDA_DEVICE_RUNTIME.get(name)) for name in CUDA_RUNTIME)
    yield runtime("__cudaLaunchCooperativeKernel", 32)   # cudaLaunchCooperativeKernel's dim3s as numbers
    yield runtime("cudaGetErrorString", 64)
    yield runtime("cudaGetErrorName", 64)


# <vector_types.h>: the element types of char1 .. double4 (grammar/include/vector_functions.h)
VECTOR_ELEMENTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong",
                   "float", "double")


def _vector_rows():
    for element in VECTOR_ELEMENTS:
        for n in (1, 2, 3, 4):
            yield intrinsic(f"make_{element}{n}", "STL", shape="make_vector")


def _table(*families) -> dict[str, Builtin]:
    table: dict[str, Builtin] = {}
    for family in families:
        for row in family():
            if row.name in table:
                raise ValueError(f"two builtin rows for '{row.name}'")
            table[row.name] = row
    return table


BUILTINS: dict[str, Builtin] = _table(_math_rows, _device_rows, _integer_rows, _libc_rows, _cuda_rows, _vector_rows)


# ---- -G: the header functions nvcc emits out of line ------------------------------------------
# nvcc -G inlines none of the CUDA headers' functions: a call of min, atomicAdd or
# __shfl_down_sync is a CALL.ABS.NOINC of a function of its own, whose body ends in a BRA to
# its RET.ABS.NODEC block, and ncu counts the CALL, the BRA and the RET as branches.  Which
# functions, for which operand types, and how deep, was read from the GPU
# (tests/data/groundtruth/fidelity/gcalls/: one kernel per function, nvcc 13.0 -G for sm_90,
# ncu's branch counter per launch; the bodies in ../unseen/sass/sm_90_G.sass):
#
# - LEAF: the function computes the value itself: CALL, its body, BRA, RET (3 branches a
#   call: min(int), __shfl_down_sync, fminf, __popc, ...).
# - WRAPPER: the function calls another header function that does (min(unsigned) calls
#   umin, atomicAdd(int *) calls __iAtomicAdd): the caller's CALL, the wrapper's stack check
#   (`@P0 BRA` past a BPT.TRAP: a function that calls has a frame), its CALL, the inner
#   function's BRA and RET, the wrapper's BRA and RET (7 branches a call).
#
# Calls from host code and every call at -O1 and above stay the table's intrinsic.
LEAF, WRAPPER = "leaf", "wrapper"


@dataclass(frozen=True)
class OutOfLine:
    """How nvcc -G calls one header function for one operand type."""
    shape: str          # LEAF or WRAPPER
    inner: str = ""     # WRAPPER: the header function it calls (the leaf)


def _atomic_calls():
    """atomicAdd & co.: a wrapper around __iAtomicAdd (int), __uAtomicAdd (unsigned), ... ."""
    prefixes = {"int": "i", "unsigned int": "u", "unsigned long long": "ull", "long long": "ll", "float": "f",
                "double": "d"}
    for name in ATOMICS:
        operation = name[len("atomic"):]
        yield name, {t: OutOfLine(WRAPPER, f"__{p}Atomic{operation}") for t, p in prefixes.items()}


G_OUT_OF_LINE: dict[str, dict[str, OutOfLine]] = {
    # min(int) and max(int) compute; the other overloads call umin, llmin, fminf, ... (measured:
    # int 3 branches a call; unsigned int, long long, float 7)
    **{name: {"int": OutOfLine(LEAF), "unsigned int": OutOfLine(WRAPPER, "u" + name),
              "long long": OutOfLine(WRAPPER, "ll" + name), "unsigned long long": OutOfLine(WRAPPER, "ull" + name),
              "float": OutOfLine(WRAPPER, f"f{name}f"), "double": OutOfLine(WRAPPER, f"f{name}")}
       for name in ("min", "max")},
    **{name: {"int": OutOfLine(LEAF), "long long": OutOfLine(LEAF), "long": OutOfLine(LEAF)}
       for name in ("abs", "labs", "llabs")},
    **{name: {"float": OutOfLine(LEAF), "double": OutOfLine(LEAF)}
       for name in ("fminf", "fmaxf", "fmin", "fmax", "fabsf", "fabs", "floorf", "fmaf")},
    **{name: {"*": OutOfLine(LEAF)} for name in ("__popc", "__clz", "__ffs", "__brev", "__mul24", "__mulhi")},
    **{name: {"*": OutOfLine(LEAF)} for name in (*SHUFFLES, *VOTES, "__activemask", "__syncwarp", "__threadfence")},
    **dict(_atomic_calls()),
}


def out_of_line_at_g(name: str, operand_type: str) -> OutOfLine | None:
    """How nvcc -G calls the header function `name` on `operand_type` (its C spelling: `int`,
    `unsigned int`, `float`, ...), or None where it is inline (__syncthreads) or not recorded."""
    by_type = G_OUT_OF_LINE.get(name[len(STD):] if name.startswith(STD) else name)
    if by_type is None:
        return None
    return by_type.get(operand_type) or by_type.get("*")


STD = "std::"


def is_legacy_warp(row: Builtin) -> bool:
    """__shfl, __ballot & co.: the warp intrinsics without a mask, gone from sm_70 on."""
    return row.shape in ("legacy_shuffle", "legacy_vote")


def lookup(name: str) -> Builtin | None:
    """The row of a C name, or of its overloads in namespace std (`std::sqrt` of a float is
    `sqrt`'s row: the rows whose shape goes by type serve every overload)."""
    return BUILTINS.get(name[len(STD):] if name.startswith(STD) else name)
