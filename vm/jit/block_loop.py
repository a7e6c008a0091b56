"""The module's entry points: `run_function` (one warp) and `run_blocks` (a kernel's blocks).

`run_blocks(ctx)` starts each block of [BLOCK, BLOCK_END) from the launch's
template image: all of it but the reconvergence stack's entries past the first, which
nothing reads below the stack's depth (half of a small block's start), and the thread
ids and frame addresses, which no instruction writes and which are the template's in
the worker's state from its start (the block index is filled in per block: a third of
what was left), copied 64 bytes a store (sections are whole multiples of 64 bytes):
the warp's first loads of them take their bytes from those stores, where they waited
for a string copy's (memcpy) to reach the cache; it fills in the block index and the
seeded schedule's generator,
zeroes the block scope's storage, and runs the block's warps round by round
(`@warp`, each until it exits or reaches the barrier) between barriers, as
`Interpreter.run_block` does; in a block's first round each warp is told it is fresh (its
state the template's: function.py).

Invariants: it returns DONE before starting a block when ABORT or the stop flag
is set (BLOCK then says how far it got); BAIL with BAIL_WARP set when a warp
bails (a stop asked from outside within a warp's run is one), STOPPED when the
stop flag is set as a round of the block's warps starts; and it is resumed
(RESUME) on the same state; with BAR.RED in the code it also returns OPENING as a
barrier opens, so that the engine delivers the reductions, and is resumed at the
opening (RESUME_OPEN).  A round that leaves warps proven to spin (status SPINNING,
set by the engine: vm/cycles.py) returns SPINNING before its barrier opens or the
block ends; the engine sets back to RUN those memory changed for, and resumes.  Blocks
whose __syncthreads() completed with part of the block (warps done, or threads
exited) are noted in WARN (the first WARN_CAP of them; NWARN counts them all).
"""
from __future__ import annotations

from minicuda.vm.jit import layout as L
from minicuda.vm.state import AT_BAR, DONE, ID_NAMES, MAXD, RNG, RUN, SPINNING, STATUS, WARP

RUN_FUNCTION = """
define i32 @run_function(ptr %ctx) {
entry:
  %r = call i32 @warp(ptr %ctx, i64 0, i1 false)
  ret i32 %r
}
"""


def _f(index: int) -> str:
    return f"getelementptr i64, ptr %ctx, i64 {index}"


def _copy_loop(name: str, before: str, after: str, dst: str, src_offset: str, n: str) -> str:
    """Blocks `name`..: copy n bytes (a whole number of 64, at least one) from the template at
    src_offset to dst, 64 bytes a load and a store; on to `after`."""
    return f"""{name}:
  %{name}.i = phi i64 [ 0, %{before} ], [ %{name}.i1, %{name} ]
  %{name}.so = add i64 {src_offset}, %{name}.i
  %{name}.s = getelementptr i8, ptr %tpl, i64 %{name}.so
  %{name}.d = getelementptr i8, ptr {dst}, i64 %{name}.i
  %{name}.v = load <64 x i8>, ptr %{name}.s, align 1
  store <64 x i8> %{name}.v, ptr %{name}.d, align 1
  %{name}.i1 = add i64 %{name}.i, 64
  %{name}.more = icmp ult i64 %{name}.i1, {n}
  br i1 %{name}.more, label %{name}, label %{after}"""


def _rows_copy(rows: list[int], regs_stride: int) -> str:
    """Blocks `rowcopy`..: copy the register rows `rows` of each warp from the template (two
    64-byte loads and stores a row); on to `copylow`."""
    body = []
    for k, r in enumerate(rows):
        for half in (0, 64):
            o = f"{k}.{half}"
            body.append(f"""  %rc.o{o} = add i64 %rc.base, {r * WARP * 4 + half}
  %rc.s{o} = getelementptr i8, ptr %tpl, i64 %rc.o{o}
  %rc.d{o} = getelementptr i8, ptr %st, i64 %rc.o{o}
  %rc.v{o} = load <64 x i8>, ptr %rc.s{o}, align 1
  store <64 x i8> %rc.v{o}, ptr %rc.d{o}, align 1""")
    return f"""rowcopy:
  %rc.w = phi i64 [ 0, %image ], [ %rc.w1, %rowcopy ]
  %rc.base = mul i64 %rc.w, {regs_stride}
{chr(10).join(body)}
  %rc.w1 = add i64 %rc.w, 1
  %rc.more = icmp ult i64 %rc.w1, %nw
  br i1 %rc.more, label %rowcopy, label %rowsdone
rowsdone:
  br label %copylow"""


def run_blocks_ir(ids_stride: int, flags_stride: int, words_stride: int, reductions: bool = False,
                  rows: list[int] | None = None, regs_stride: int = 0) -> str:
    """The block loop: start each block of [BLOCK, BLOCK_END) from the template, run its
    warps round by round (each until it exits or reaches the barrier), open the
    barrier when every live warp has arrived, note blocks that completed a barrier
    with some threads exited; stop at a bail, to be resumed.  With `reductions` (the
    code holds a BAR.RED) it also stops as a barrier opens (OPENING), so that the
    engine delivers the reductions, and is resumed at the opening (RESUME_OPEN).  `rows`
    (live_rows.block_start_rows): the only register rows each block starts with from the
    template (each warp's `regs_stride` bytes of rows); None: all of them."""
    S = L.SECTION
    if rows is None:   # the image from its start: registers on to the flags
        low_from, low_before, first_copy = "0", "image", "br label %copylow"
        rows_copy = ""
    else:   # the rows named, then the image from the predicates on
        low_from, low_before = "%prdo", "rowsdone"
        first_copy = "br label %" + ("rowcopy" if rows else "rowsdone")
        rows_copy = _rows_copy(rows, regs_stride) if rows else "rowsdone:\n  br label %copylow"
    cta = ID_NAMES.index("SR_CTAID") * 3 * WARP * 4
    return f"""
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @run_blocks(ptr %ctx) {{
entry:
  %nwp = {_f(L.NWARPS)}
  %nw = load i64, ptr %nwp
  %idsp = {_f(S['ids'])}
  %ids = load ptr, ptr %idsp
  %flagsp = {_f(S['flags'])}
  %flags = load ptr, ptr %flagsp
  %wordsp = {_f(S['words'])}
  %words = load ptr, ptr %wordsp
  %resp = {_f(L.RESUME)}
  %res = load i64, ptr %resp
  %isres = icmp ne i64 %res, 0
  br i1 %isres, label %resume, label %start
resume:
  store i64 0, ptr %resp
  %reopen = icmp eq i64 %res, {L.RESUME_OPEN}
  br i1 %reopen, label %opening, label %round
start:
  %bp = {_f(L.BLOCK)}
  %b = load i64, ptr %bp
  %ep = {_f(L.BLOCK_END)}
  %e = load i64, ptr %ep
  %ap = {_f(L.ABORT)}
  %ab = load volatile i64, ptr %ap
  %sfp = {_f(L.STOP)}
  %sf = load ptr, ptr %sfp
  %sv = load volatile i64, ptr %sf
  %past = icmp sge i64 %b, %e
  %abort = or i64 %ab, %sv
  %stop = icmp ne i64 %abort, 0
  %quit = or i1 %past, %stop
  br i1 %quit, label %out, label %image
out:
  ret i32 {L.DONE}
image:
  %stp = {_f(L.STATE)}
  %st = load ptr, ptr %stp
  %tp = {_f(L.TEMPLATE)}
  %tpl = load ptr, ptr %tp
  %szp = {_f(L.STATE_SIZE)}
  %sz = load i64, ptr %szp
  %skp = {_f(S['stack'])}
  %sk = load ptr, ptr %skp
  %skw = {_f(S['words'])}
  %wk = load ptr, ptr %skw
  %idp = {_f(S['ids'])}
  %idk = load ptr, ptr %idp
  %sti = ptrtoint ptr %st to i64
  %ski = ptrtoint ptr %sk to i64
  %wki = ptrtoint ptr %wk to i64
  %idi = ptrtoint ptr %idk to i64
  %below = sub i64 %idi, %sti
  %stko = sub i64 %ski, %sti
  %above = sub i64 %wki, %sti
  %rest = sub i64 %sz, %above
  %prp = {_f(S['preds'])}
  %prk = load ptr, ptr %prp
  %pri = ptrtoint ptr %prk to i64
  %prdo = sub i64 %pri, %sti
  %lowdst = getelementptr i8, ptr %st, i64 {low_from}
  %lown = sub i64 %below, {low_from}
  {first_copy}
{rows_copy}
{_copy_loop("copylow", low_before, "copyhigh", "%lowdst", low_from, "%lown")}
{_copy_loop("copyhigh", "copylow", "copied", "%wk", "%above", "%rest")}
copied:
  %tpls = getelementptr i8, ptr %tpl, i64 %stko
  br label %stackloop
stackloop:
  %sw = phi i64 [ 0, %copied ], [ %sw1, %stackloop ]
  %so = mul i64 %sw, {MAXD * 24}
  %sdst = getelementptr i8, ptr %sk, i64 %so
  %ssrc = getelementptr i8, ptr %tpls, i64 %so
  call void @llvm.memcpy.p0.p0.i64(ptr %sdst, ptr %ssrc, i64 24, i1 false)
  %sw1 = add i64 %sw, 1
  %smore = icmp ult i64 %sw1, %nw
  br i1 %smore, label %stackloop, label %cta
cta:
  %gxp = {_f(L.GRID_X)}
  %gx = load i64, ptr %gxp
  %gyp = {_f(L.GRID_Y)}
  %gy = load i64, ptr %gyp
  %bx = urem i64 %b, %gx
  %t = udiv i64 %b, %gx
  %by = urem i64 %t, %gy
  %bz = udiv i64 %t, %gy
  %bx32 = trunc i64 %bx to i32
  %by32 = trunc i64 %by to i32
  %bz32 = trunc i64 %bz to i32
  %vx0 = insertelement <32 x i32> poison, i32 %bx32, i64 0
  %vx = shufflevector <32 x i32> %vx0, <32 x i32> poison, <32 x i32> zeroinitializer
  %vy0 = insertelement <32 x i32> poison, i32 %by32, i64 0
  %vy = shufflevector <32 x i32> %vy0, <32 x i32> poison, <32 x i32> zeroinitializer
  %vz0 = insertelement <32 x i32> poison, i32 %bz32, i64 0
  %vz = shufflevector <32 x i32> %vz0, <32 x i32> poison, <32 x i32> zeroinitializer
  %rop = {_f(L.RNG_ON)}
  %ron = load i64, ptr %rop
  %sdp = {_f(L.SEED)}
  %seed = load i64, ptr %sdp
  %s1 = mul i64 %seed, {0x9E3779B97F4A7C15 - (1 << 64)}
  %s2 = mul i64 %b, {0xBF58476D1CE4E5B9 - (1 << 64)}
  %s12 = xor i64 %s1, %s2
  br label %ctaloop
ctaloop:
  %w = phi i64 [ 0, %cta ], [ %w1, %ctaloop ]
  %io = mul i64 %w, {ids_stride}
  %ip = getelementptr i8, ptr %ids, i64 %io
  %cx = getelementptr i8, ptr %ip, i64 {cta}
  store <32 x i32> %vx, ptr %cx, align 4
  %cy = getelementptr i8, ptr %ip, i64 {cta + WARP * 4}
  store <32 x i32> %vy, ptr %cy, align 4
  %cz = getelementptr i8, ptr %ip, i64 {cta + 2 * WARP * 4}
  store <32 x i32> %vz, ptr %cz, align 4
  %s3 = mul i64 %w, {0x94D049BB133111EB - (1 << 64)}
  %s4 = xor i64 %s12, %s3
  %s5 = or i64 %s4, 1
  %wo = mul i64 %w, {words_stride}
  %wp = getelementptr i8, ptr %words, i64 %wo
  %rngp = getelementptr i64, ptr %wp, i64 {RNG}
  %oldrng = load i64, ptr %rngp
  %isr = icmp ne i64 %ron, 0
  %newrng = select i1 %isr, i64 %s5, i64 %oldrng
  store i64 %newrng, ptr %rngp
  %w1 = add i64 %w, 1
  %cmore = icmp ult i64 %w1, %nw
  br i1 %cmore, label %ctaloop, label %zero
zero:
  %znp = {_f(L.SCOPE_N)}
  %zn = load i64, ptr %znp
  %zpp = {_f(L.SCOPE_PTRS)}
  %zptrs = load ptr, ptr %zpp
  %zsp = {_f(L.SCOPE_SIZES)}
  %zsizes = load ptr, ptr %zsp
  br label %zloop
zloop:
  %z = phi i64 [ 0, %zero ], [ %z1, %zbody ]
  %zm = icmp ult i64 %z, %zn
  br i1 %zm, label %zbody, label %round
zbody:
  %zpe = getelementptr ptr, ptr %zptrs, i64 %z
  %zptr = load ptr, ptr %zpe
  %zse = getelementptr i64, ptr %zsizes, i64 %z
  %zsize = load i64, ptr %zse
  call void @llvm.memset.p0.i64(ptr %zptr, i8 0, i64 %zsize, i1 false)
  %z1 = add i64 %z, 1
  br label %zloop
round:
  %fresh = phi i1 [ true, %zloop ], [ false, %onext ], [ false, %resume ]
  %rsfp = {_f(L.STOP)}
  %rsf = load ptr, ptr %rsfp
  %rsv = load volatile i64, ptr %rsf
  %rstop = icmp ne i64 %rsv, 0
  br i1 %rstop, label %stopped, label %wloop
stopped:
  ret i32 {L.STOPPED}
wloop:
  %rw = phi i64 [ 0, %round ], [ %rw1, %wnext ]
  %rwo = mul i64 %rw, {words_stride}
  %rwp = getelementptr i8, ptr %words, i64 %rwo
  %statp = getelementptr i64, ptr %rwp, i64 {STATUS}
  %stat = load i64, ptr %statp
  %torun = icmp eq i64 %stat, {RUN}
  br i1 %torun, label %wrun, label %wnext
wrun:
  %r = call i32 @warp(ptr %ctx, i64 %rw, i1 %fresh)
  %isbail = icmp eq i32 %r, {L.BAIL}
  br i1 %isbail, label %bail, label %wset
bail:
  %bwp = {_f(L.BAIL_WARP)}
  store i64 %rw, ptr %bwp
  ret i32 {L.BAIL}
wset:
  %isdone = icmp eq i32 %r, {L.DONE}
  %ns = select i1 %isdone, i64 {DONE}, i64 {AT_BAR}
  store i64 %ns, ptr %statp
  br label %wnext
wnext:
  %rw1 = add i64 %rw, 1
  %wmore = icmp ult i64 %rw1, %nw
  br i1 %wmore, label %wloop, label %tally
tally:
  br label %tloop
tloop:
  %tw = phi i64 [ 0, %tally ], [ %tw1, %tloop ]
  %nbar = phi i64 [ 0, %tally ], [ %nbar1, %tloop ]
  %nspin = phi i64 [ 0, %tally ], [ %nspin1, %tloop ]
  %part = phi i1 [ false, %tally ], [ %part1, %tloop ]
  %two = mul i64 %tw, {words_stride}
  %twp = getelementptr i8, ptr %words, i64 %two
  %tsp = getelementptr i64, ptr %twp, i64 {STATUS}
  %ts = load i64, ptr %tsp
  %tb = icmp eq i64 %ts, {AT_BAR}
  %tbi = zext i1 %tb to i64
  %nbar1 = add i64 %nbar, %tbi
  %tsn = icmp eq i64 %ts, {SPINNING}
  %tsi = zext i1 %tsn to i64
  %nspin1 = add i64 %nspin, %tsi
  %tfo = mul i64 %tw, {flags_stride}
  %tfp = getelementptr i8, ptr %flags, i64 %tfo
  %lv = load <32 x i8>, ptr %tfp, align 1
  %tep = getelementptr i8, ptr %tfp, i64 {WARP}
  %ev = load <32 x i8>, ptr %tep, align 1
  %le = and <32 x i8> %lv, %ev
  %lem = icmp ne <32 x i8> %le, zeroinitializer
  %leb = bitcast <32 x i1> %lem to i32
  %gone = icmp ne i32 %leb, 0
  %pg = and i1 %tb, %gone
  %part1 = or i1 %part, %pg
  %tw1 = add i64 %tw, 1
  %tmore = icmp ult i64 %tw1, %nw
  br i1 %tmore, label %tloop, label %decide
decide:
  %anyspin = icmp ne i64 %nspin1, 0
  br i1 %anyspin, label %spinning, label %settled
spinning:
  ret i32 {L.SPINNING}
settled:
  %none = icmp eq i64 %nbar1, 0
  br i1 %none, label %nextblock, label %barrier
nextblock:
  %bp2 = {_f(L.BLOCK)}
  %b2 = load i64, ptr %bp2
  %b3 = add i64 %b2, 1
  store i64 %b3, ptr %bp2
  br label %start
barrier:
  %fewer = icmp ult i64 %nbar1, %nw
  %warn = or i1 %fewer, %part1
  br i1 %warn, label %note, label %open
note:
  %nwnp = {_f(L.NWARN)}
  %nwn = load i64, ptr %nwnp
  %room = icmp ult i64 %nwn, {L.WARN_CAP}
  br i1 %room, label %record, label %counted
record:
  %wlp = {_f(L.WARN)}
  %wl = load ptr, ptr %wlp
  %wle = getelementptr i64, ptr %wl, i64 %nwn
  %bp4 = {_f(L.BLOCK)}
  %b4 = load i64, ptr %bp4
  store i64 %b4, ptr %wle
  br label %counted
counted:
  %nwn1 = add i64 %nwn, 1
  store i64 %nwn1, ptr %nwnp
  br label %open
open:
  {f"ret i32 {L.OPENING}" if reductions else "br label %opening"}
opening:
  br label %oloop
oloop:
  %ow = phi i64 [ 0, %opening ], [ %ow1, %onext ]
  %owo = mul i64 %ow, {words_stride}
  %owp = getelementptr i8, ptr %words, i64 %owo
  %osp = getelementptr i64, ptr %owp, i64 {STATUS}
  %os = load i64, ptr %osp
  %ob = icmp eq i64 %os, {AT_BAR}
  br i1 %ob, label %oreset, label %onext
oreset:
  store i64 {RUN}, ptr %osp
  %ofo = mul i64 %ow, {flags_stride}
  %ofp = getelementptr i8, ptr %flags, i64 %ofo
  %oab = getelementptr i8, ptr %ofp, i64 {2 * WARP}
  store <32 x i8> zeroinitializer, ptr %oab, align 1
  br label %onext
onext:
  %ow1 = add i64 %ow, 1
  %omore = icmp ult i64 %ow1, %nw
  br i1 %omore, label %oloop, label %round
}}
"""
