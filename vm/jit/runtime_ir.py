"""The runtime IR every JIT module holds: allocation lookup, host pointers, rand.

LLVM IR text, filled in with the context's field indices (vm/jit/layout.py):

- `@find(ctx, addr)`: the index of the allocation holding addr in the sorted
  memory table (binary search; -1 when below the first);
- `@remembered(ctx, addr, site)`: the same, trying first the allocation memory
  instruction `site` found last time (`@sitecache`, one word per site);
- `@lane_ptrs` (W lanes): host pointers for an access when every active lane is in
  bounds and aligned in one live allocation;
- `@scalar_range` (one lane, the host thread): the allocation holding an address as
  the range an access may start in and its host offset, which a memory instruction
  keeps in its locals and checks inline (vm/jit/memory.py's `scalar_pointer`); a miss's
  slow path, out of line and in `preserve_mostcc` (x86-64), so the loop around a fast path
  keeps its registers;
- `@range_ptr(ctx, addr, n)`: a host pointer for n bytes in one allocation (the
  host's memcpy, memmove, memset);
- each pointer function in a second version for stores, named with `_w`, that
  measures allocations by their write ends (read-only ones are empty);
- `@rand_native(ctx)`: glibc's rand() on the state the engine passes in;
- `@init_flags` (--tool initcheck only): a device access's initcheck flags, checked
  (loads, atomics) or set (stores).

Invariants: a freed allocation's end equals its base, so nothing is ever inside
it, and so does the end of one the code's side may not reach; a failed check
returns null / false, never a pointer outside the allocation.
"""
from __future__ import annotations

import platform

from minicuda.vm.jit import layout as L
from minicuda.vm.tools import SET, USED

FIND = f"""
define internal i64 @find(ptr %ctx, i64 %addr) {{
entry:
  %np = getelementptr i64, ptr %ctx, i64 {L.MT_N}
  %n = load i64, ptr %np
  %bp = getelementptr i64, ptr %ctx, i64 {L.MT_BASE}
  %bases = load ptr, ptr %bp
  br label %loop
loop:
  %lo = phi i64 [ 0, %entry ], [ %lo2, %step ]
  %hi = phi i64 [ %n, %entry ], [ %hi2, %step ]
  %more = icmp ult i64 %lo, %hi
  br i1 %more, label %step, label %done
step:
  %sum = add i64 %lo, %hi
  %mid = lshr i64 %sum, 1
  %mp = getelementptr i64, ptr %bases, i64 %mid
  %mb = load i64, ptr %mp
  %le = icmp ule i64 %mb, %addr
  %mid1 = add i64 %mid, 1
  %lo2 = select i1 %le, i64 %mid1, i64 %lo
  %hi2 = select i1 %le, i64 %hi, i64 %mid
  br label %loop
done:
  %r = sub i64 %lo, 1
  ret i64 %r
}}
"""

RAND = f"""
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define internal i32 @rand_native(ptr %ctx) {{
entry:
  %sp = getelementptr i64, ptr %ctx, i64 {L.RAND}
  %st = load ptr, ptr %sp
  %fp = getelementptr i32, ptr %st, i64 31
  %rp = getelementptr i32, ptr %st, i64 32
  %front = load i32, ptr %fp
  %rear = load i32, ptr %rp
  %pf = getelementptr i32, ptr %st, i32 %front
  %pr = getelementptr i32, ptr %st, i32 %rear
  %a = load i32, ptr %pf
  %b = load i32, ptr %pr
  %w = add i32 %a, %b
  store i32 %w, ptr %pf
  %f1 = add i32 %front, 1
  %fw = icmp slt i32 %f1, 31
  %f2 = select i1 %fw, i32 %f1, i32 0
  store i32 %f2, ptr %fp
  %r1 = add i32 %rear, 1
  %rw = icmp slt i32 %r1, 31
  %r2 = select i1 %rw, i32 %r1, i32 0
  store i32 %r2, ptr %rp
  %out = lshr i32 %w, 1
  ret i32 %out
}}
"""

def remembered_ir(sites: int) -> str:
    """`i64 @remembered(ctx, addr, site)`: the index of the allocation holding addr
    (-1: none), trying first the one memory instruction `site` found last time."""
    return f"""
@sitecache = internal global [{max(sites, 1)} x i64] zeroinitializer
define internal i64 @remembered(ptr %ctx, i64 %a, i64 %site) alwaysinline {{
entry:
  %np = getelementptr i64, ptr %ctx, i64 {L.MT_N}
  %n = load i64, ptr %np
  %cp = getelementptr i64, ptr @sitecache, i64 %site
  %c = load atomic i64, ptr %cp unordered, align 8
  %cin = icmp ult i64 %c, %n
  br i1 %cin, label %try, label %search
try:
  %bpp = getelementptr i64, ptr %ctx, i64 {L.MT_BASE}
  %bases = load ptr, ptr %bpp
  %cb = getelementptr i64, ptr %bases, i64 %c
  %cbase = load i64, ptr %cb
  %c1 = icmp ule i64 %cbase, %a
  br i1 %c1, label %try2, label %search
try2:
  %epp = getelementptr i64, ptr %ctx, i64 {L.MT_END}
  %ends = load ptr, ptr %epp
  %ce = getelementptr i64, ptr %ends, i64 %c
  %cend = load i64, ptr %ce
  %c2 = icmp ult i64 %a, %cend
  br i1 %c2, label %hit, label %search
hit:
  ret i64 %c
search:
  %f = call i64 @find(ptr %ctx, i64 %a)
  %fneg = icmp slt i64 %f, 0
  br i1 %fneg, label %none, label %remember
remember:
  store atomic i64 %f, ptr %cp unordered, align 8
  ret i64 %f
none:
  ret i64 -1
}}
"""


def _table_entry(idx: str, write: bool) -> str:
    """IR lines loading %base, %end (a store's end when `write`) and %host of memory table entry idx."""
    return "\n".join(_table_row(name, field, idx) for name, field in
                     (("base", L.MT_BASE), ("end", L.MT_WEND if write else L.MT_END), ("host", L.MT_HOST)))


def _table_row(name: str, field: int, idx: str) -> str:
    """IR lines loading %name, entry idx of the memory table's row in context field `field`."""
    return "\n".join([f"  %{name}.t.p = getelementptr i64, ptr %ctx, i64 {field}",
                      f"  %{name}.t = load ptr, ptr %{name}.t.p",
                      f"  %{name}.p = getelementptr i64, ptr %{name}.t, i64 {idx}",
                      f"  %{name} = load i64, ptr %{name}.p"])


def _first_lane_entry(lanes: int, missing: str) -> str:
    """IR lines finding %idx, the memory table entry of the first active lane's address
    (remembered per site), on to %found, or to %`missing` when there is none."""
    return f"""  %lane = call i32 @llvm.cttz.i32(i32 %on, i1 true)
  %a0 = extractelement <{lanes} x i64> %addr, i32 %lane
  %idx = call i64 @remembered(ptr %ctx, i64 %a0, i64 %site)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %{missing}, label %found"""


def _suffix(write: bool) -> str:
    return "_w" if write else ""


def lane_ptrs_ir(lanes: int, write: bool = False) -> str:
    """`{<W x ptr>, i1} @lane_ptrs(ctx, addr, on, size, site)`: host pointers for the
    active lanes, when they all fall in bounds and aligned inside the allocation that
    holds the first active lane's address (remembered per memory instruction)."""
    W = lanes
    return f"""
define internal {{ <{W} x ptr>, i1 }} @lane_ptrs{_suffix(write)}(ptr %ctx, <{W} x i64> %addr, i32 %on, i64 %size, i64 %site) alwaysinline {{
entry:
{_first_lane_entry(W, "fail")}
found:
{_table_entry("%idx", write)}
  %last = sub i64 %end, %size
  %big = icmp uge i64 %end, %size
  %vb0 = insertelement <{W} x i64> poison, i64 %base, i64 0
  %vb = shufflevector <{W} x i64> %vb0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %vl0 = insertelement <{W} x i64> poison, i64 %last, i64 0
  %vl = shufflevector <{W} x i64> %vl0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %ge = icmp uge <{W} x i64> %addr, %vb
  %le = icmp ule <{W} x i64> %addr, %vl
  %inb = and <{W} x i1> %ge, %le
  %sm1 = sub i64 %size, 1
  %vs0 = insertelement <{W} x i64> poison, i64 %sm1, i64 0
  %vs = shufflevector <{W} x i64> %vs0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %al = and <{W} x i64> %addr, %vs
  %alz = icmp eq <{W} x i64> %al, zeroinitializer
  %okv = and <{W} x i1> %inb, %alz
  {_bits_ir(W, "%okv", "%okb")}
  %nok = xor i32 %okb, -1
  %miss = and i32 %on, %nok
  %allok = icmp eq i32 %miss, 0
  %good = and i1 %allok, %big
  br i1 %good, label %make, label %fail
make:
  %delta = sub i64 %host, %base
  %vd0 = insertelement <{W} x i64> poison, i64 %delta, i64 0
  %vd = shufflevector <{W} x i64> %vd0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %ha = add <{W} x i64> %addr, %vd
  %ptrs = inttoptr <{W} x i64> %ha to <{W} x ptr>
  %r0 = insertvalue {{ <{W} x ptr>, i1 }} poison, <{W} x ptr> %ptrs, 0
  %r1 = insertvalue {{ <{W} x ptr>, i1 }} %r0, i1 true, 1
  ret {{ <{W} x ptr>, i1 }} %r1
fail:
  ret {{ <{W} x ptr>, i1 }} zeroinitializer
}}
"""


def _bits_ir(lanes: int, vec: str, out: str) -> str:
    if lanes == 32:
        return f"{out} = bitcast <32 x i1> {vec} to i32"
    return f"{out}.n = bitcast <{lanes} x i1> {vec} to i{lanes}\n  {out} = zext i{lanes} {out}.n to i32"


MEMMOVE = "declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)\n"


def range_ptr_ir(write: bool) -> str:
    """`ptr @range_ptr(ctx, addr, n)`: a host pointer for n bytes in one allocation."""
    return f"""
define internal ptr @range_ptr{_suffix(write)}(ptr %ctx, i64 %addr, i64 %n) {{
entry:
  %idx = call i64 @find(ptr %ctx, i64 %addr)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %fail, label %found
found:
{_table_entry("%idx", write)}
  %room = sub i64 %end, %addr
  %fits = icmp ule i64 %n, %room
  %inside = icmp ult i64 %addr, %end
  %ok = and i1 %fits, %inside
  br i1 %ok, label %make, label %fail
make:
  %off = sub i64 %addr, %base
  %h = add i64 %host, %off
  %p = inttoptr i64 %h to ptr
  ret ptr %p
fail:
  ret ptr null
}}
"""


# the calling convention of the host's slow path: on x86-64 the callee saves nearly every
# register, so the loop around a fast path keeps its registers; elsewhere C's
SLOW_PATH_CC = "preserve_mostcc" if platform.machine().lower() in ("x86_64", "amd64") else "ccc"


def scalar_range_ir(write: bool = False) -> str:
    """`{lo, n, d} @scalar_range(ctx, addr, size, site)`: for one lane (the host thread),
    the allocation holding addr (remembered per site) as the range of addresses an access
    of `size` bytes may start at (lo <= a < lo + n) and its host offset (d: a's host
    pointer is a + d); n = 0 when there is none, or it is too small.  The caller checks
    the address against the range, and its alignment (vm/jit/memory.py)."""
    return f"""
define internal {SLOW_PATH_CC} {{ i64, i64, i64 }} @scalar_range{_suffix(write)}(ptr %ctx, i64 %a, i64 %size, i64 %site) noinline cold {{
entry:
  %idx = call i64 @remembered(ptr %ctx, i64 %a, i64 %site)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %fail, label %found
found:
{_table_entry("%idx", write)}
  %last = sub i64 %end, %size
  %big = icmp uge i64 %end, %size
  %fits = icmp uge i64 %last, %base
  %ok = and i1 %big, %fits
  br i1 %ok, label %make, label %fail
make:
  %span = sub i64 %last, %base
  %n = add i64 %span, 1
  %d = sub i64 %host, %base
  %r0 = insertvalue {{ i64, i64, i64 }} poison, i64 %base, 0
  %r1 = insertvalue {{ i64, i64, i64 }} %r0, i64 %n, 1
  %r2 = insertvalue {{ i64, i64, i64 }} %r1, i64 %d, 2
  ret {{ i64, i64, i64 }} %r2
fail:
  ret {{ i64, i64, i64 }} zeroinitializer
}}
"""


def init_flags_ir(lanes: int) -> str:
    """`i1 @init_flags(ctx, addr, on, size, site, store)` (--tool initcheck only): the
    initcheck flags (vm/tools.py's InitShadow) of the bytes each active lane accesses, in
    the allocation `@lane_ptrs` found for memory instruction `site` (untracked: nothing to
    do).  A store sets them (SET | USED); a load or an atomic returns true when one of them
    is not set, and the caller hands the instruction to the interpreter, which reports it
    (bytes that are set are used already: nothing to change)."""
    W = lanes
    return f"""
define internal i1 @init_flags(ptr %ctx, <{W} x i64> %addr, i32 %on, i64 %size, i64 %site, i1 %store) noinline {{
entry:
{_first_lane_entry(W, "clean")}
found:
{_table_row("flags", L.MT_INIT, "%idx")}
  %untracked = icmp eq i64 %flags, 0
  br i1 %untracked, label %clean, label %tracked
tracked:
{_table_row("base", L.MT_BASE, "%idx")}
  %delta = sub i64 %flags, %base
  br label %each
each:
  %i = phi i32 [ 0, %tracked ], [ %i1, %next ]
  %bit = shl i32 1, %i
  %act = and i32 %on, %bit
  %isact = icmp ne i32 %act, 0
  br i1 %isact, label %first, label %next
first:
  %a = extractelement <{W} x i64> %addr, i32 %i
  %p0 = add i64 %a, %delta
  br label %byte
byte:
  %k = phi i64 [ 0, %first ], [ %k1, %more ]
  %pk = add i64 %p0, %k
  %ptr = inttoptr i64 %pk to ptr
  br i1 %store, label %set, label %test
set:
  store i8 {SET | USED}, ptr %ptr
  br label %more
test:
  %f = load i8, ptr %ptr
  %fs = and i8 %f, {SET}
  %unset = icmp eq i8 %fs, 0
  br i1 %unset, label %dirty, label %more
more:
  %k1 = add i64 %k, 1
  %again = icmp ult i64 %k1, %size
  br i1 %again, label %byte, label %next
next:
  %i1 = add i32 %i, 1
  %lanes = icmp ult i32 %i1, {W}
  br i1 %lanes, label %each, label %clean
clean:
  ret i1 false
dirty:
  ret i1 true
}}
"""
