"""The JIT's memory instructions: loads, stores, atomics, and the host's memory functions.

A memory instruction turns the active lanes' addresses into host pointers
(`host_pointers`): all of them must fall, in bounds and aligned, inside the one
allocation that holds the first active lane's address (found through the
runtime IR's `@lane_ptrs` / `@scalar_range`, remembered per instruction: each
instruction is a `site`; the host thread's code also keeps each site's range in
its locals, so that a loop's access is checked by one compare).  Then a masked gather or scatter does the access,
or, when the active lanes' addresses are consecutive elements (lane i at the first active
lane's address + (i - first) * size: a coalesced access), one masked vector load or store
(`contiguous`);
atomics go lane by lane in lane order, one native atomic each, so they stay atomic
across blocks running in parallel.  The host thread's rand, memcpy, memmove and
memset run natively too (`lower_runtime_call`), and a kernel's printf drops its
record natively once the printf FIFO is full up to its block (else the interpreter
formats it).

Invariants: an access that fails the check goes to the interpreter (the `bail`
label), which reports the fault word for word; no lane is touched before the
check passes.  Under --tool initcheck device code also checks and sets the bytes'
initcheck flags (`init_flags`): a load or atomic of a byte not set goes to the
interpreter too, which reports it.  A store or atomic returns an i1 saying whether memory changed:
progress, for deadlock detection.
"""
from __future__ import annotations

from minicuda.isa import OPS
from minicuda.ir import Mem
from minicuda.vm.jit import layout as L
from minicuda.vm.jit.emit import Emitter
from minicuda.vm.jit.lanes import LaneCode, Unsupported
from minicuda.vm.jit.runtime_ir import SLOW_PATH_CC
from minicuda.vm.memory import SHARED_WINDOW, SPACE_BASE
from minicuda.vm.jit.memlog import LOG_WORDS, SPAN

LOCAL_BASE = SPACE_BASE["local"]

WIDTH_BYTES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16}
QUAD = 16   # a 128-bit access: four 32-bit words, each gathered or scattered to its register row
NATIVE_RUNTIME = {"rand", "memcpy", "memmove", "memset"}
ATOMIC_RMW = {"ADD": "add", "SUB": "sub", "EXCH": "xchg", "AND": "and", "OR": "or", "XOR": "xor",
              "INC": "uinc_wrap", "DEC": "udec_wrap"}


class MemoryLowering(LaneCode):
    """Lowerings of LD/ST/ATOM (and the host's native runtime calls), for FunctionCodegen."""

    # ---- the lowerings the ISA rows name ------------------------------------------------------
    def lower_load(self, ins):
        if (ins.mods[0] if ins.mods else "32") not in WIDTH_BYTES:
            return None
        return self.effect(lambda i, on, ob, bail: self.emit_load(i, on, ob, bail) or "false")

    def lower_store(self, ins):
        if (ins.mods[0] if ins.mods else "32") not in WIDTH_BYTES:
            return None
        return self.effect(self.emit_store)

    def lower_atomic(self, ins):
        tmod = ins.mods[1] if len(ins.mods) > 1 else "S32"
        kind = ins.mods[0] if ins.mods else ""
        if kind not in ATOMIC_RMW and kind not in ("MIN", "MAX", "CAS"):
            return None
        if tmod in ("F32", "F64") and kind not in ("ADD", "EXCH"):
            return None
        return self.effect(self.emit_atomic)

    def lower_runtime_call(self, ins):
        """The host thread's rand, memcpy, memmove and memset, and a kernel's dropped printf;
        every other call is handed off, but the host thread's call of a native callee
        (host_callees.py)."""
        if "RT" not in ins.mods:
            return self.lower_user_call(ins)
        if "RT" in ins.mods and ins.srcs[0].name in NATIVE_RUNTIME and self.W == 1 and not self.kernel:
            return self.effect(self.emit_rand if ins.srcs[0].name == "rand" else self.emit_memory_function)
        if self.dropped_printf(ins):
            return self.effect(self.emit_dropped_printf)
        return None

    def dropped_printf(self, ins) -> bool:
        """A kernel's printf: native code drops it once the FIFO is full before its block's
        records (printf_fifo.py keeps that block in PRINTF_FROM), else the interpreter runs it."""
        return ins.op == "CALL" and "RT" in ins.mods and ins.srcs[0].name == "printf" and self.kernel

    def hand_off_unless(self, ins) -> str:
        """An i1: whether this instruction goes to the interpreter, checked before it is
        counted ("false" for every instruction but a kernel's printf, and a logged access
        when the memory counters' log has no room for its records)."""
        if self.logged(ins):
            used = self.op(f"add i64 {self.ctx_field(L.MEMLOG_N)}, 2")
            return self.op(f"icmp sgt i64 {used}, {self.ctx_field(L.MEMLOG_CAP)}")
        if not self.dropped_printf(ins):
            return "false"
        first = self.op(f"load i64, ptr {self.ctx_field(L.PRINTF_FROM, 'ptr')}")
        return self.op(f"icmp slt i64 {self.ctx_field(L.BLOCK)}, {first}")

    def emit_dropped_printf(self, ins, on: str, on_bits: str, bail: str) -> str:
        """The printf of a full FIFO: no record, and 0 for the threads' result."""
        if ins.dsts:
            self.write(ins.dsts[0], "zeroinitializer", on, 32)
        return "false"

    # ---- the memory counters' log (vm/jit/memlog.py) ---------------------------------------------
    def logged(self, ins) -> bool:
        """Whether the counted variant logs this instruction's accesses (the interpreter
        counts every load and store but a constant bank's)."""
        return self.counted and OPS[ins.op].jit in ("load", "store") and ins.op != "LDC"

    def log_access(self, ins, addr: str, on_bits: str) -> None:
        """Append this access's record to the log: its pc and lanes, the block, and the
        lanes' addresses; a local access (its first active lane's address in the local
        window) a second record with the lanes' frames.  hand_off_unless made room."""
        if not self.logged(ins):
            return
        W = self.W
        at = self.op(f"getelementptr i64, ptr %ctx, i64 {L.MEMLOG_N}")
        n = self.op(f"load i64, ptr {at}")
        rec = self.op(f"getelementptr i64, ptr %memlog, i64 {self.op(f'mul i64 {n}, {LOG_WORDS}')}")
        lanes = self.op(f"zext i32 {on_bits} to i64")
        self.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
        first = self.op(f"call i32 @llvm.cttz.i32(i32 {on_bits}, i1 true)")
        a0 = self.op(f"extractelement <{W} x i64> {addr}, i32 {first}")
        offset = self.op(f"sub i64 {a0}, {LOCAL_BASE}")
        local = self.op(f"icmp ult i64 {offset}, {SPAN}")
        flag = self.op(f"zext i1 {local} to i64")
        self.log_record(rec, self.op(f"or i64 {self.op(f'shl i64 {lanes}, 32')}, {self.pc}"),
                        self.ctx_field(L.BLOCK), flag, addr)
        frames, after = self.lbl("logframes"), self.lbl("logged")
        self.cbr(local, frames, after)
        self.label(frames)
        frame = self.op(f"load <{W} x i64>, ptr %frame, align 8")
        self.log_record(self.op(f"getelementptr i64, ptr {rec}, i64 {LOG_WORDS}"), "-1", "0", "2", frame)
        self.br(after)
        self.label(after)
        grown = self.op(f"add i64 {n}, {self.op(f'add i64 1, {flag}')}")
        self.line(f"store i64 {grown}, ptr {at}")

    def log_record(self, rec: str, header: str, block: str, flag: str, lanes: str) -> None:
        """One record of the log at `rec`: its three words and the lanes' values."""
        for k, value in enumerate((header, block, flag)):
            self.line(f"store i64 {value}, ptr {self.op(f'getelementptr i64, ptr {rec}, i64 {k}')}")
        self.line(f"store <{self.W} x i64> {lanes}, ptr {self.op(f'getelementptr i64, ptr {rec}, i64 3')}, align 8")

    # ---- addresses and host pointers ----------------------------------------------------------
    def address(self, m: Mem) -> str:
        if m.window:   # a 32-bit shared address: (register + offset) mod 2^32 into the shared window
            offset = self.read(m.base, 32)
            if m.offset:
                offset = self.op(f"add <{self.W} x i32> {offset}, {self.e.splat(32, m.offset & 0xFFFFFFFF)}")
            wide = self.op(f"zext <{self.W} x i32> {offset} to <{self.W} x i64>")
            return self.op(f"add <{self.W} x i64> {wide}, {self.e.splat(64, SHARED_WINDOW)}")
        base = self.read(m.base, 64)
        return self.op(f"add <{self.W} x i64> {base}, {self.e.splat(64, m.offset)}") if m.offset else base

    def host_pointers(self, addr: str, on_bits: str, size: int, bail: str, write: bool = False) -> str:
        """Host pointers for the active lanes' addresses, all inside the allocation that
        the first active lane's address is in, in bounds and aligned (and writable, for a
        store: `write`); else bail."""
        W = self.W
        site = self.sites
        self.sites += 1
        w = "_w" if write else ""
        if W == 1:   # one lane: a range check against the allocation this site last found
            return self.scalar_pointer(addr, size, site, w, bail)
        pair = self.op(f"call {{ <{W} x ptr>, i1 }} @lane_ptrs{w}(ptr %ctx, <{W} x i64> {addr}, i32 {on_bits}, "
                       f"i64 {size}, i64 {site})")
        ok = self.op(f"extractvalue {{ <{W} x ptr>, i1 }} {pair}, 1")
        fine = self.lbl("inbounds")
        self.cbr(ok, fine, bail)
        self.label(fine)
        return self.op(f"extractvalue {{ <{W} x ptr>, i1 }} {pair}, 0")

    def scalar_pointer(self, addr: str, size: int, site: int, w: str, bail: str) -> str:
        """The host thread's pointer, checked against the range of the allocation this site
        last found, kept in the function's locals (`%scN`: {lo, units, d}, SSA registers
        after -O1); a miss asks `@scalar_range` (out of line, and preserving the caller's
        registers), checks the access exactly and keeps the answer.  Nothing changes the
        table while host code runs, and each entry to native code starts with the locals
        empty.

        One compare checks both bounds and alignment: with lo aligned to the access's size
        (2^k bytes), an address a is in range and aligned when (a - lo) rotated right by k
        is below `units`, the number of aligned starts in range (a misaligned offset's low
        bits rotate to the top); a range whose lo is not aligned keeps units = 0, so its
        accesses take the exact check each time."""
        self.cached_sites.append(site)
        k = size.bit_length() - 1
        a = self.op(f"extractelement <1 x i64> {addr}, i32 0")
        sc = f"%sc{site}"
        units_at, d_at = self.op(f"getelementptr i64, ptr {sc}, i64 1"), self.op(f"getelementptr i64, ptr {sc}, i64 2")
        off = self.op(f"sub i64 {a}, {self.op(f'load i64, ptr {sc}')}")
        rotated = self.op(f"call i64 @llvm.fshr.i64(i64 {off}, i64 {off}, i64 {k})") if k else off
        inside = self.op(f"icmp ult i64 {rotated}, {self.op(f'load i64, ptr {units_at}')}")
        refill, have = self.lbl("refill"), self.lbl("inrange")
        self.e.declare("fshr64", "declare i64 @llvm.fshr.i64(i64, i64, i64)")
        self.cbr(inside, have, refill)
        self.label(refill)
        r = self.op(f"call {SLOW_PATH_CC} {{ i64, i64, i64 }} @scalar_range{w}(ptr %ctx, i64 {a}, i64 {size}, i64 {site})")
        lo, n, d = (self.op(f"extractvalue {{ i64, i64, i64 }} {r}, {j}") for j in range(3))
        units = self.op(f"lshr i64 {self.op(f'add i64 {n}, {size - 1}')}, {k}")
        aligned_lo = self.op(f"icmp eq i64 {self.op(f'and i64 {lo}, {size - 1}')}, 0")
        for value, at in ((lo, sc), (self.op(f"select i1 {aligned_lo}, i64 {units}, i64 0"), units_at), (d, d_at)):
            self.line(f"store i64 {value}, ptr {at}")
        ok = self.op(f"icmp ult i64 {self.op(f'sub i64 {a}, {lo}')}, {n}")
        if size > 1:
            low = self.op(f"and i64 {a}, {size - 1}")
            ok = self.op(f"and i1 {ok}, {self.op(f'icmp eq i64 {low}, 0')}")
        self.cbr(ok, have, bail)
        self.label(have)
        host = self.op(f"add i64 {a}, {self.op(f'load i64, ptr {d_at}')}")
        p = self.op(f"inttoptr i64 {host} to ptr")
        return self.op(f"insertelement <1 x ptr> poison, ptr {p}, i32 0")

    def site_locals(self) -> list[str]:
        """Entry-block lines: each host memory site's cached range, empty (n = 0)."""
        return [f"  %sc{site} = alloca [3 x i64]\n  store [3 x i64] zeroinitializer, ptr %sc{site}"
                for site in self.cached_sites]

    def init_flags(self, addr: str, on_bits: str, size: int, bail: str, store: bool = False) -> None:
        """--tool initcheck (compiled in only then, in device code): after `host_pointers`,
        a store sets its bytes' flags; a load or an atomic any of whose bytes is not set
        goes to the interpreter, which reports it (`@init_flags`, runtime_ir.py)."""
        if not self.initcheck:
            return
        dirty = self.op(f"call i1 @init_flags(ptr %ctx, <{self.W} x i64> {addr}, i32 {on_bits}, i64 {size}, "
                        f"i64 {self.sites - 1}, i1 {'true' if store else 'false'})")
        if not store:
            fine = self.lbl("initset")
            self.cbr(dirty, bail, fine)
            self.label(fine)

    def masked_memory(self, what: str, where: str, on: str, bits: int, value: str | None = None) -> str | None:
        """LLVM's llvm.masked.<what> of `bits`-wide lanes under `on`: gather or scatter at
        `where`, a lane vector of pointers; load or store at `where`, one pointer to lane
        0's element.  A gather's or load's lanes (the others zero), or None."""
        W = self.W
        vt, lanes = f"<{W} x i{bits}>", what in ("gather", "scatter")
        pt = f"<{W} x ptr>" if lanes else "ptr"
        name = f"llvm.masked.{what}.v{W}i{bits}.{f'v{W}p0' if lanes else 'p0'}"
        if value is None:
            self.e.declare(name, f"declare {vt} @{name}({pt}, i32, <{W} x i1>, {vt})")
            return self.op(f"call {vt} @{name}({pt} {where}, i32 1, <{W} x i1> {on}, {vt} zeroinitializer)")
        self.e.declare(name, f"declare void @{name}({vt}, {pt}, i32, <{W} x i1>)")
        self.line(f"call void @{name}({vt} {value}, {pt} {where}, i32 1, <{W} x i1> {on})")
        return None

    def gather(self, ptrs: str, on: str, bits: int) -> str:
        return self.masked_memory("gather", ptrs, on, bits)

    def scatter(self, value: str, ptrs: str, on: str, bits: int) -> None:
        self.masked_memory("scatter", ptrs, on, bits, value)

    # ---- coalesced accesses: one vector load or store ------------------------------------------------
    def contiguous_base(self, addr: str, ptrs: str, on_bits: str, size: int) -> tuple[str, str]:
        """(an i1: the active lanes' addresses are consecutive elements of `size` bytes, the
        host pointer lane 0's element would have): then a masked vector access at that
        pointer touches exactly the bytes the gather or scatter would."""
        W = self.W
        self.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
        first = self.op(f"call i32 @llvm.cttz.i32(i32 {on_bits}, i1 true)")
        a0 = self.op(f"extractelement <{W} x i64> {addr}, i32 {first}")
        lead = self.op(f"mul i64 {self.op(f'zext i32 {first} to i64')}, {size}")
        start = self.op(f"sub i64 {a0}, {lead}")
        step = "<" + ", ".join(f"i64 {i * size}" for i in range(W)) + ">"
        expect = self.op(f"add <{W} x i64> {self.splat_value('i64', start)}, {step}")
        same = self.bits(self.op(f"icmp eq <{W} x i64> {addr}, {expect}"))
        stray = self.op(f"and i32 {on_bits}, {self.op(f'xor i32 {same}, -1')}")
        ok = self.op(f"icmp eq i32 {stray}, 0")
        p0 = self.op(f"extractelement <{W} x ptr> {ptrs}, i32 {first}")
        base = self.op(f"getelementptr i8, ptr {p0}, i64 {self.op(f'sub i64 0, {lead}')}")
        return ok, base

    def masked_load(self, base: str, on: str, bits: int) -> str:
        return self.masked_memory("load", base, on, bits)

    def masked_store(self, value: str, base: str, on: str, bits: int) -> None:
        self.masked_memory("store", base, on, bits, value)

    def contiguous_or_gather(self, addr: str, ptrs: str, on: str, on_bits: str, size: int) -> str:
        """The active lanes' `size`-byte values: one masked vector load when the access is
        coalesced, else a gather."""
        W, bits = self.W, size * 8
        if W == 1:
            return self.gather(ptrs, on, bits)
        ok, base = self.contiguous_base(addr, ptrs, on_bits, size)
        vec, gat, join = self.lbl("ldvec"), self.lbl("ldgat"), self.lbl("ldjoin")
        self.cbr(ok, vec, gat)
        self.label(vec)
        v1 = self.masked_load(base, on, bits)
        self.br(join)
        self.label(gat)
        v2 = self.gather(ptrs, on, bits)
        self.br(join)
        self.label(join)
        return self.op(f"phi <{W} x i{bits}> [ {v1}, %{vec} ], [ {v2}, %{gat} ]")

    def contiguous_or_scatter(self, addr: str, ptrs: str, value: str, on: str, on_bits: str, size: int) -> str:
        """Store `value` at the active lanes: one masked vector store when the access is
        coalesced, else a scatter; an i1: did it change memory."""
        W, bits = self.W, size * 8
        ok, base = self.contiguous_base(addr, ptrs, on_bits, size)
        vec, sca, join = self.lbl("stvec"), self.lbl("stsca"), self.lbl("stjoin")
        self.cbr(ok, vec, sca)
        self.label(vec)
        c1 = self.store_changes(self.masked_load(base, on, bits), value, on, bits) if self.track_stall else "false"
        self.masked_store(value, base, on, bits)
        self.br(join)
        self.label(sca)
        c2 = self.store_changes(self.gather(ptrs, on, bits), value, on, bits) if self.track_stall else "false"
        self.scatter(value, ptrs, on, bits)
        self.br(join)
        self.label(join)
        return self.op(f"phi i1 [ {c1}, %{vec} ], [ {c2}, %{sca} ]")

    def store_changes(self, old: str, value: str, on: str, bits: int) -> str:
        """An i1: whether storing `value` over `old` changes an active lane's bytes."""
        W = self.W
        differ = self.op(f"and <{W} x i1> {self.op(f'icmp ne <{W} x i{bits}> {old}, {value}')}, {on}")
        return self.op(f"icmp ne i32 {self.bits(differ)}, 0")

    # ---- loads, stores, atomics -----------------------------------------------------------------
    def emit_load(self, ins, on: str, on_bits: str, bail: str) -> None:
        W = self.W
        width = ins.mods[0] if ins.mods else "32"
        size = WIDTH_BYTES[width]
        addr = self.address(ins.srcs[0])
        go, done = self.lbl("load"), self.lbl("loaded")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, size, bail)
        self.init_flags(addr, on_bits, size, bail)
        self.log_access(ins, addr, on_bits)
        if size == QUAD:
            self.load_quad(ins.dsts[0], ptrs, on)
            self.br(done)
            self.label(done)
            return
        value = self.contiguous_or_gather(addr, ptrs, on, on_bits, size)
        if size < 4:   # a sub-word type lives extended in a 32-bit register
            ext = "sext" if width.startswith("S") else "zext"
            value = self.op(f"{ext} <{W} x i{size * 8}> {value} to <{W} x i32>")
        self.write(ins.dsts[0], value, on, 64 if size == 8 else 32)
        self.br(done)
        self.label(done)

    def emit_store(self, ins, on: str, on_bits: str, bail: str) -> str:
        """A store; returns an i1: did it change memory (progress, for deadlock detection)."""
        W = self.W
        width = ins.mods[0] if ins.mods else "32"
        size = WIDTH_BYTES[width]
        addr = self.address(ins.srcs[0])
        if size == QUAD:
            return self.store_quad(ins, on, on_bits, bail)
        value = self.read(ins.srcs[1], 64 if width == "64" else 32)
        if size < 4:
            value = self.op(f"trunc <{W} x i32> {value} to <{W} x i{size * 8}>")
        return self.guarded_store(addr, size, [value], size * 8, on, on_bits, bail)

    def guarded_store(self, addr: str, size: int, words: list[str], bits: int, on: str, on_bits: str,
                      bail: str) -> str:
        """Store `words` (each `bits` wide, one after another) at each active lane's `addr`, an
        access of `size` bytes checked once; an i1: did it change memory (progress, for
        deadlock detection)."""
        W = self.W
        go, done, entry = self.lbl("store"), self.lbl("stored"), self.lbl("st")
        self.br(entry)
        self.label(entry)
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, size, bail, write=True)
        self.init_flags(addr, on_bits, size, bail, store=True)
        self.log_access(self.code.instrs[self.pc], addr, on_bits)
        if len(words) == 1 and W > 1:   # a coalesced store: one masked vector store
            changed = self.contiguous_or_scatter(addr, ptrs, words[0], on, on_bits, size)
            last = self.current_label
            self.br(done)
            self.label(done)
            return self.op(f"phi i1 [ false, %{entry} ], [ {changed}, %{last} ]")
        changed = "false"
        for k, value in enumerate(words):
            word = self.word_pointers(ptrs, k)
            if self.track_stall:   # progress, for deadlock detection: did the store change memory?
                differ = self.op(f"icmp ne <{W} x i{bits}> {self.gather(word, on, bits)}, {value}")
                differ = self.op(f"and <{W} x i1> {differ}, {on}")
                now = self.op(f"icmp ne i32 {self.bits(differ)}, 0")
                changed = now if changed == "false" else self.op(f"or i1 {changed}, {now}")
            self.scatter(value, word, on, bits)
        last = self.current_label
        self.br(done)
        self.label(done)
        return self.op(f"phi i1 [ false, %{entry} ], [ {changed}, %{last} ]")

    def word_pointers(self, ptrs: str, word: int) -> str:
        """The pointers to the 32-bit word `word` of each lane's 128-bit access."""
        return self.op(f"getelementptr i8, <{self.W} x ptr> {ptrs}, i64 {4 * word}") if word else ptrs

    def quad_rows(self, r) -> range | None:
        """The register rows of a 128-bit access's quad (None: RZ)."""
        s = self.code.slot(r)
        return None if s == -1 else range(s, s + 4)

    def load_quad(self, dst, ptrs: str, on: str) -> None:
        """LD*.128: each word of the active lanes' 16 bytes into its row of the quad."""
        rows = self.quad_rows(dst)
        words = [self.gather(self.word_pointers(ptrs, k), on, 32) for k in range(4)]
        for row, value in zip(rows or (), words):
            self.write_row(row, value, on)

    def store_quad(self, ins, on: str, on_bits: str, bail: str) -> str:
        """ST*.128: the quad's four rows, each to its word of the active lanes' 16 bytes;
        an i1: did it change memory."""
        W = self.W
        addr = self.address(ins.srcs[0])
        rows = self.quad_rows(ins.srcs[1])
        values = [self.op(f"load <{W} x i32>, ptr {self.reg_ptr(row)}, align 4") for row in rows] if rows \
            else ["zeroinitializer"] * 4
        return self.guarded_store(addr, QUAD, values, 32, on, on_bits, bail)

    def emit_atomic(self, ins, on: str, on_bits: str, bail: str) -> str:
        """ATOM/ATOMS: each active thread in lane order, as one native atomic each."""
        W = self.W
        kind = ins.mods[0]
        tmod = ins.mods[1] if len(ins.mods) > 1 else "S32"
        bits = 64 if tmod in ("S64", "U64", "F64") else 32
        ty = f"i{bits}"
        addr = self.address(ins.srcs[0])
        vals = [self.read(s, bits) for s in ins.srcs[1:]]
        entry, go, done = self.lbl("at"), self.lbl("atom"), self.lbl("atomd")
        self.br(entry)
        self.label(entry)
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, bits // 8, bail, write=True)
        self.init_flags(addr, on_bits, bits // 8, bail)   # (set bytes stay set: an exchange changes no flag)
        if kind in ("MIN", "MAX"):
            rmw = ("" if tmod.startswith("S") else "u") + kind.lower()
        elif tmod in ("F32", "F64") and kind == "ADD":
            rmw = "fadd"
        else:
            rmw = "cas" if kind == "CAS" else ATOMIC_RMW[kind]
        name = self.atomic_helper(rmw, bits)
        v1 = vals[0] if vals else "zeroinitializer"
        v2 = vals[1] if len(vals) > 1 else "zeroinitializer"
        pair = self.op(f"call {{ <{W} x {ty}>, i1 }} @{name}(<{W} x ptr> {ptrs}, <{W} x {ty}> {v1}, "
                       f"<{W} x {ty}> {v2}, i32 {on_bits})")
        result = self.op(f"extractvalue {{ <{W} x {ty}>, i1 }} {pair}, 0")
        changed = self.op(f"extractvalue {{ <{W} x {ty}>, i1 }} {pair}, 1")
        self.write(ins.dsts[0], result, on, bits)
        last = self.current_label
        self.br(done)
        self.label(done)
        return self.op(f"phi i1 [ false, %{entry} ], [ {changed}, %{last} ]")

    def atomic_helper(self, rmw: str, bits: int) -> str:
        """`{<W x iN>, i1} @atom_<rmw>_<N>(ptrs, v, v2, on)`: each active lane in lane order,
        one native atomic each; the old values, and whether memory changed."""
        W, ty = self.W, f"i{bits}"
        name = f"atom_{rmw}_{bits}"
        if name in self.helpers:
            return name
        body = Emitter(W)
        saved, self.e = self.e, body
        self.label("lane")
        self.line("%i = phi i32 [ 0, %entry ], [ %i1, %next ]")
        self.line(f"%res = phi <{W} x {ty}> [ zeroinitializer, %entry ], [ %res1, %next ]")
        self.line("%chg = phi i1 [ false, %entry ], [ %chg1, %next ]")
        bit = self.op("shl i32 1, %i")
        active = self.op(f"icmp ne i32 {self.op(f'and i32 %on, {bit}')}, 0")
        self.cbr(active, "do", "skip")
        self.label("do")
        p = self.op(f"extractelement <{W} x ptr> %p, i32 %i")
        v = self.op(f"extractelement <{W} x {ty}> %va, i32 %i")
        if rmw == "cas":
            new = self.op(f"extractelement <{W} x {ty}> %vb, i32 %i")
            pair = self.op(f"cmpxchg ptr {p}, {ty} {v}, {ty} {new} seq_cst seq_cst")
            old = self.op(f"extractvalue {{ {ty}, i1 }} {pair}, 0")
            ok = self.op(f"extractvalue {{ {ty}, i1 }} {pair}, 1")
            ch = self.op(f"and i1 {ok}, {self.op(f'icmp ne {ty} {old}, {new}')}")
        elif rmw == "fadd":
            fty = "float" if bits == 32 else "double"
            fv = self.op(f"bitcast {ty} {v} to {fty}")
            oldf = self.op(f"atomicrmw fadd ptr {p}, {fty} {fv} seq_cst")
            old = self.op(f"bitcast {fty} {oldf} to {ty}")
            new = self.op(f"bitcast {fty} {self.op(f'fadd {fty} {oldf}, {fv}')} to {ty}")
            ch = self.op(f"icmp ne {ty} {old}, {new}")
        else:
            old = self.op(f"atomicrmw {rmw} ptr {p}, {ty} {v} seq_cst")
            new = self.atomic_new(rmw, old, v, ty)
            ch = self.op(f"icmp ne {ty} {old}, {new}")
        r2 = self.op(f"insertelement <{W} x {ty}> %res, {ty} {old}, i32 %i")
        c2 = self.op(f"or i1 %chg, {ch}")
        self.br("next")
        self.label("skip")
        self.br("next")
        self.label("next")
        self.line(f"%res1 = phi <{W} x {ty}> [ {r2}, %do ], [ %res, %skip ]")
        self.line(f"%chg1 = phi i1 [ {c2}, %do ], [ %chg, %skip ]")
        self.line("%i1 = add i32 %i, 1")
        self.cbr(self.op(f"icmp ult i32 %i1, {W}"), "lane", "out")
        self.label("out")
        pair = self.op(f"insertvalue {{ <{W} x {ty}>, i1 }} poison, <{W} x {ty}> %res1, 0")
        pair = self.op(f"insertvalue {{ <{W} x {ty}>, i1 }} {pair}, i1 %chg1, 1")
        self.line(f"ret {{ <{W} x {ty}>, i1 }} {pair}")
        self.e = saved
        saved.decls.update(body.decls)
        self.helpers[name] = (f"define internal {{ <{W} x {ty}>, i1 }} @{name}(<{W} x ptr> %p, <{W} x {ty}> %va, "
                              f"<{W} x {ty}> %vb, i32 %on) noinline {{\nentry:\n  br label %lane\n"
                              + "\n".join(body.lines) + "\n}\n")
        return name

    def atomic_new(self, rmw: str, old: str, v: str, ty: str) -> str:
        if rmw in ("add", "sub", "and", "or", "xor"):
            return self.op(f"{rmw} {ty} {old}, {v}")
        if rmw == "xchg":
            return v
        if rmw in ("min", "max", "umin", "umax"):
            name = f"llvm.{'s' if rmw in ('min', 'max') else ''}{rmw}.{ty}"
            self.e.declare(name, f"declare {ty} @{name}({ty}, {ty})")
            return self.op(f"call {ty} @{name}({ty} {old}, {ty} {v})")
        if rmw == "uinc_wrap":
            ge = self.op(f"icmp uge {ty} {old}, {v}")
            inc = self.op(f"add {ty} {old}, 1")
            return self.op(f"select i1 {ge}, {ty} 0, {ty} {inc}")
        if rmw == "udec_wrap":
            z = self.op(f"icmp eq {ty} {old}, 0")
            gt = self.op(f"icmp ugt {ty} {old}, {v}")
            c = self.op(f"or i1 {z}, {gt}")
            dec = self.op(f"sub {ty} {old}, 1")
            return self.op(f"select i1 {c}, {ty} {v}, {ty} {dec}")
        raise Unsupported(rmw)

    # ---- the host thread's native runtime functions ----------------------------------------------
    def emit_rand(self, ins, on: str, on_bits: str, bail: str) -> str:
        """glibc's rand() for the host thread: r = state[front] += state[rear]; r >> 1."""
        go, done = self.lbl("rand"), self.lbl("randd")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        v = self.op("call i32 @rand_native(ptr %ctx)")
        if ins.dsts:
            wide = ins.dsts[0].is_wide
            value = self.op(f"zext i32 {v} to i64") if wide else v
            vec = self.splat_value("i64" if wide else "i32", value)
            self.write(ins.dsts[0], vec, on, 64 if wide else 32)
        self.br(done)
        self.label(done)
        return "false"

    def emit_memory_function(self, ins, on: str, on_bits: str, bail: str) -> str:
        """memcpy, memmove, memset for the host thread, when every byte lies in one live
        allocation (else the interpreter runs it and reports the fault)."""
        name = ins.srcs[0].name
        args = [self.op(f"extractelement <1 x i64> {self.read(s, 64)}, i32 0") for s in ins.srcs[1:4]]
        go, check, done = self.lbl("mem"), self.lbl("memchk"), self.lbl("memd")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, check)
        self.label(check)
        self.cbr(self.op(f"icmp eq i64 {args[2]}, 0"), bail, go)   # n == 0: the interpreter's corner
        self.label(go)
        dst = self.op(f"call ptr @range_ptr_w(ptr %ctx, i64 {args[0]}, i64 {args[2]})")
        fine = self.lbl("memok")
        self.cbr(self.op(f"icmp eq ptr {dst}, null"), bail, fine)
        self.label(fine)
        if name == "memset":
            c = self.op(f"trunc i64 {args[1]} to i8")
            self.line(f"call void @llvm.memset.p0.i64(ptr {dst}, i8 {c}, i64 {args[2]}, i1 false)")
        else:
            src = self.op(f"call ptr @range_ptr(ptr %ctx, i64 {args[1]}, i64 {args[2]})")
            ok = self.lbl("memok")
            self.cbr(self.op(f"icmp eq ptr {src}, null"), bail, ok)
            self.label(ok)
            self.line(f"call void @llvm.memmove.p0.p0.i64(ptr {dst}, ptr {src}, i64 {args[2]}, i1 false)")
        if ins.dsts:
            self.write(ins.dsts[0], self.splat_value("i64", args[0]), on, 64)
        self.br(done)
        self.label(done)
        return "false"
