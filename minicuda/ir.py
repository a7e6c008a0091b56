"""The IR: minicuda's predicated SIMT bytecode, its text form, parser and verifier.

The opcode table (`OPS`, one row per opcode) lives in minicuda/isa.py; the printer,
the parser, the verifier, the passes and the VM read it.
It is over 800 lines because the text form's printer, parser and verifier must agree
on every detail of the format, and they are kept side by side for that.

Shape of a function:

    .kernel mathKernel1 (%rd0:c:8:pointer)   // kind, name, parameters (register:name:bytes:kind)
    .shared 0 .local 0                       // static shared bytes, per-thread frame bytes
    .L0:
      S2R %r0, SR_TID.X                   // simpleDivergence.cu:12:13
      @!%p0 BRA .L2
      ...

Registers: `%rN` 32-bit, `%rdN` 64-bit (an aligned pair after allocation), `%rqN`
128-bit (an aligned quad: only a vector load's result and a vector store's value), `%pN`
predicates; after register allocation `RN`, `PN`; `RZ` reads zero, `PT` is true.
Operands: registers, immediates (`42`, `0x10`, `1.5`), labels (`.L3`), special
registers (`SR_TID.X`), symbols (`$name` or `$name+8`: the address of a global,
shared, constant or frame variable), memory (`[%rd2+0x10]`) and strings in CALLs
(`"fmt"`).  Any instruction may carry a guard `@%p1` / `@!%p1`.  Modifiers follow
the mnemonic (`ISETP.GE.U32`, `LDG.E.64`); `.64` marks 64-bit integer forms.
Every instruction keeps the source location it came from (`// file:line:col`).

Semantics of values (the VM's interpreter is the executable specification):

- A 32-bit register holds a raw 32-bit pattern, a 64-bit one a 64-bit pattern;
  floats are IEEE bit patterns.  Predicates hold booleans.
- The type modifier of an integer op is one of `.S32` (the default, may be left
  out), `.U32`, `.S64`, `.U64`; it gives width and signedness.  IADD ISUB IMUL IMAD
  INEG IABS LOP NOT SHL wrap modulo 2^width.  IDIV/IREM truncate toward zero (x/0, x%0:
  all ones, as the GPU; `.FAST32`, nvcc -O3's 64-bit division: 0xFFFFFFFF when both fit in 32
  bits).  SHL/SHR by >= width give 0 (SHR.S*: the sign fill).  IMNMX.MIN/MAX; IMULHI: high half.
- ISETP.<cmp>[.type] p, a, b with cmp in EQ NE LT LE GT GE; FSETP / DSETP compare
  f32 / f64 as C does (NE is true when either is NaN; the others are false).
  PLOP.AND/.OR/.XOR p, a, b and PNOT p, a combine predicates.  SEL d, a, b, p is
  `p ? a : b`; P2R d, p is `p ? 1 : 0`.
- FADD FSUB FMUL FDIV FFMA FNEG FMNMX.MIN/.MAX work on f32 (round to nearest even;
  FMNMX ignores a NaN operand), D* the same on f64.  MUFU.<fn>[.F64] d, a[, b]
  applies a math function: SQRT RSQ RCP EXP EX2 LOG LG2 LOG10 SIN COS TAN ASIN
  ACOS ATAN SINH COSH TANH FLOOR CEIL ROUND TRUNC FABS POW ATAN2 FMOD ERFC LGAMMA
  TGAMMA EXP10 LOGB NEXTAFTER REMAINDER ...
- Conversions name destination then source type: I2F.F32.S32, F2I.S32.F32
  (toward zero, saturating, NaN -> 0), F2F.F64.F32, I2I.S64.S32 (extend or
  truncate; types S8 U8 S16 U16 S32 U32 S64 U64).
- Memory: LDG/STG (a generic address: global, shared, local, constant or host),
  LDS/STS (shared window), LDL/STL (the thread's frame), LDC (constant bank), with
  a width modifier U8 S8 U16 S16 32 64 (default 32); `STG [addr], value`.
- BAR.SYNC 0 waits for the block's threads that have not exited; BAR.RED.POPC
  (.AND, .OR) d, p waits as well and gives each of them the number of those
  threads whose p is non-zero (whether all, any is).  TRAP fails the launch
  (cudaErrorLaunchFailure).

The text is the contract between compiler and VM: a module holds everything the VM
needs, and `parse_module(format_module(m)) == m`.  Lines holding only a comment
(`//` or `#`) are ignored.

    .arch sm_70                              // the target
    .sched its                               // the model the markers are placed for: stack or its
    .struct cudaDeviceProp 432               // a layout the runtime writes: its size, then
      .field name 0 256                      //   each field's name, offset and bytes
    .global host h_A 8 8 = 0000...           // space, name, size, alignment[, initial bytes]
    .device f (R4:x:8:value) -> (R0:64)      // f.cu:3:20 (`:64`: the result is a 64-bit pair)
      .shared 0 .local 0 .registers 12 .predicates 2   // registers: after register allocation
      .decision f.cu:7 divergent 3 7 predicated "predicated: 3 instructions < 7 (divergent threshold)"

A `.decision` line is the predication record of one conditional branch of the
function (file:line, uniform or divergent, instructions in its arms, threshold,
predicated or kept, the reason); `--report=predication` prints them.

Reconvergence: the markers as printed are what the VM executes.  For the stack
model (before sm_70, or `--sched stack`) `SSY .Lj` names the join `.Lj` of a
possibly divergent branch and `SYNC` opens the join block; for independent thread
scheduling (sm_70 and later, or `--sched its`) `BSSY Bn, .Lj` records the threads
that must meet at `BSYNC Bn`, the join's first instruction, where they wait (`BREAK Bn`
takes the threads running it out of the barrier).  ITS modules put no marker on a
loop's branch (-O0's barrier around a whole loop sits in its preheader and at its
join, passes/reconverge.py), so they do not say where a stack would rejoin a loop: `.sched` names the model the markers are placed for, and the VM runs a
module under that model only (`minicuda run --sched` and `Device(program,
sched=...)` compile the program for the model they force).  The stack model reads
each branch's join from the markers (`reconvergence_joins`) and pops an entry that
reaches it:

- the join of the conditional branch ending a block is the label named by the
  SSY/BSSY immediately before that branch;
- else, when a block's last instruction before its closing unconditional jump (or
  its end, falling through) is a marker, the marker names the join of the branch
  ending the block it enters: a loop's branch, whose marker sits in the loop's
  preheader so that it is set once per loop, not once per iteration;
- else the join is the function's exit: the paths meet only as threads exit (a
  uniform branch, or one whose paths part for good).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from minicuda.diagnostics import InternalError, SourceLocation
from minicuda.isa import OPERAND_KINDS, OPS, OpInfo, info   # the opcode table; re-exported for existing imports


# ---- operands ----------------------------------------------------------------------
_REG_RE = re.compile(r"^(%(?:rq|rd|r|p)\d+|R\d+|P\d+|RZ|PT|B\d+)$")


@dataclass(frozen=True)
class Reg:
    name: str

    @property
    def is_pred(self) -> bool:
        return self.name.startswith(("%p", "P"))

    @property
    def is_wide(self) -> bool:
        return self.name.startswith("%rd")

    @property
    def span(self) -> int:
        """How many 32-bit registers a virtual register takes: 4 for `%rq` (a 128-bit
        vector access's quad), 2 for `%rd`, else 1."""
        return 4 if self.name.startswith("%rq") else 2 if self.name.startswith("%rd") else 1

    @property
    def is_virtual(self) -> bool:
        return self.name.startswith("%")

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=False)
class Imm:
    value: int | float

    def _key(self):
        # 1 and 1.0, 0.0 and -0.0 are different bit patterns: compare what is printed
        return (type(self.value), repr(self.value))

    def __eq__(self, other):
        return isinstance(other, Imm) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self) -> str:
        v = self.value
        if isinstance(v, float):
            return repr(v) if v == v and v not in (float("inf"), float("-inf")) else {"inf": "+INF", "-inf": "-INF"}.get(repr(v), "+QNAN")
        return hex(v) if v > 0xFFFF or v < -0xFFFF else str(v)


@dataclass(frozen=True)
class Label:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Special:
    name: str   # SR_TID.X, SR_CTAID.Y, SR_NTID.Z, SR_NCTAID.X, SR_LANEID, SR_WARPSIZE

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Sym:
    name: str
    offset: int = 0

    def __str__(self) -> str:
        return f"${self.name}" + (f"+{self.offset}" if self.offset else "")


@dataclass(frozen=True)
class Mem:
    """[base+offset]: a 64-bit address in a register (or a symbol's), plus a constant.
    `window` (spelled `[R5.U32+0x4]`, shared-memory accesses only) is SASS's 32-bit
    shared address: the register holds a 32-bit offset into the block's shared-memory
    window, and (offset + constant) mod 2^32 is added to the window's base
    (vm/memory.py SHARED_WINDOW), as LDS/STS address shared memory on the GPU."""
    base: Reg | Sym
    offset: int = 0
    window: bool = False

    def __post_init__(self):
        if isinstance(self.base, Sym) and self.offset:  # one spelling: [$x+12], never [$x+8+0x4]
            object.__setattr__(self, "base", Sym(self.base.name, self.base.offset + self.offset))
            object.__setattr__(self, "offset", 0)

    def __str__(self) -> str:
        off = f"+{hex(self.offset)}" if self.offset > 0 else (f"-{hex(-self.offset)}" if self.offset < 0 else "")
        return f"[{self.base}{'.U32' if self.window else ''}{off}]"


@dataclass(frozen=True)
class Str:
    value: bytes

    def __str__(self) -> str:
        out = []
        for b in self.value:
            c = chr(b)
            if c in '"\\':
                out.append("\\" + c)
            elif 32 <= b < 127:
                out.append(c)
            else:
                out.append(f"\\x{b:02x}")
        return '"' + "".join(out) + '"'


Operand = Reg | Imm | Label | Special | Sym | Mem | Str


# ---- instructions, blocks, functions -------------------------------------------------------
@dataclass
class Instr:
    op: str
    mods: tuple[str, ...] = ()
    dsts: tuple[Reg, ...] = ()
    srcs: tuple[Operand, ...] = ()
    guard: Reg | None = None
    guard_neg: bool = False
    loc: SourceLocation | None = field(default=None, compare=False)

    @property
    def info(self) -> OpInfo:
        return info(self.op)

    @property
    def opcode(self) -> str:
        return ".".join((self.op,) + self.mods)

    def has(self, mod: str) -> bool:
        return mod in self.mods

    @property
    def is_branch(self) -> bool:
        return self.op == "BRA"

    @property
    def target(self) -> str | None:
        return self.srcs[0].name if self.op == "BRA" else None

    def uses(self) -> list[Reg]:
        regs = [s for s in self.srcs if isinstance(s, Reg)]
        regs += [s.base for s in self.srcs if isinstance(s, Mem) and isinstance(s.base, Reg)]
        if self.guard is not None:
            regs.append(self.guard)
        return regs

    def __str__(self) -> str:
        return format_instr(self)


@dataclass
class Block:
    label: str
    instrs: list[Instr] = field(default_factory=list)

    @property
    def terminator(self) -> Instr | None:
        return self.instrs[-1] if self.instrs and self.instrs[-1].info.terminator else None


@dataclass
class Param:
    reg: Reg           # first register (a 64-bit or struct value spans consecutive slots)
    name: str
    size: int          # bytes
    kind: str = "value"   # value, pointer, struct


@dataclass
class BranchDecision:
    """The predication record of one conditional branch (if-conversion writes it)."""
    file: str
    line: int
    function: str
    uniform: bool
    instructions: int
    threshold: int
    predicated: bool
    reason: str
    column: int = 0
    loop: bool = False                 # the branch leaves a loop (the report's loops section)
    trip_count: int | None = None      # the loop's, where known
    unrolled: str = ""                 # a loop's: "" not unrolled, "full", or the factor ("4")

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "function": self.function,
                "uniform": self.uniform, "instructions": self.instructions, "threshold": self.threshold,
                "predicated": self.predicated, "reason": self.reason, "loop": self.loop,
                "trip_count": self.trip_count, "unrolled": bool(self.unrolled), "unroll": self.unrolled}


@dataclass
class Function:
    name: str
    kind: str                          # kernel, device, host
    params: list[Param] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    rets: list[Reg] = field(default_factory=list)   # registers holding the result at RET (host/device)
    shared_bytes: int = 0              # static shared memory
    local_bytes: int = 0               # per-thread frame (arrays, address-taken locals)
    dynamic_shared: bool = False
    ret_wide: bool = False             # the result is a 64-bit pair (a physical R0 does not say so)
    registers: int = 0                 # 32-bit registers allocated (0 before register allocation)
    predicates: int = 0                # predicate registers allocated
    launch_bounds: tuple[int, ...] = ()   # __launch_bounds__: (max threads per block[, min blocks per SM])
    device_callable: bool = False      # a host function that is also __device__ (__host__ __device__)
    inline: str = ""                   # __forceinline__: "force"; __noinline__: "never" (passes/inline.py)
    branch_decisions: list[BranchDecision] = field(default_factory=list)
    # a loop's `#pragma unroll[ N]`, by the source location (file, line, column) of its back edge
    loop_pragmas: dict[tuple, str] = field(default_factory=dict, compare=False)
    # the source locations (file, line, column) of a switch's case comparisons: LLVM keeps a
    # switch one instruction until it is lowered to a compare tree (passes/if_convert.py)
    switch_cases: set[tuple] = field(default_factory=set, compare=False)
    # the labels a `continue` jumps to (a for loop's increment block): at -O0 the BSYNC of an
    # if whose paths meet there has a block of its own (passes/reconverge.py)
    continue_targets: set[str] = field(default_factory=set, compare=False)
    loc: SourceLocation | None = field(default=None, compare=False)
    # the frame's slots as the lowering laid them out, (offset, bytes) each: one variable or
    # temporary per slot (passes/sroa.py); empty when not known (a .sass read)
    frame_slots: list[tuple[int, int]] = field(default_factory=list, compare=False, repr=False)
    # label -> index in blocks, checked on use and rebuilt when the list has changed
    block_index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def block(self, label: str) -> Block:
        i = self.block_index.get(label)
        if i is None or i >= len(self.blocks) or self.blocks[i].label != label:
            self.block_index = {}
            for i, b in enumerate(self.blocks):
                self.block_index.setdefault(b.label, i)
            i = self.block_index.get(label)
            if i is None:
                raise InternalError("ir", f"no block {label} in {self.name}")
        return self.blocks[i]

    def instructions(self):
        for b in self.blocks:
            yield from b.instrs


@dataclass
class Global:
    name: str
    space: str                 # global, shared, constant, host, string
    size: int
    align: int = 4
    init: bytes | None = None  # initial bytes (None: zero)


@dataclass
class StructLayout:
    """A struct the runtime writes for the program (cudaDeviceProp): fields as (offset, bytes)."""
    name: str
    size: int
    fields: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class Module:
    functions: dict[str, Function] = field(default_factory=dict)
    globals: dict[str, Global] = field(default_factory=dict)
    arch: str = "sm_70"
    sched: str = ""            # stack or its: the model the markers are placed for ("": not stated)
    structs: dict[str, StructLayout] = field(default_factory=dict)

    @property
    def sm(self) -> int:
        """The arch's number: 70 for sm_70."""
        return int(self.arch.removeprefix("sm_"))


DYNAMIC_SHARED = "dynamic_smem"   # the global that stands for a launch's dynamic shared memory
GLOBAL_INIT = "__minicuda_global_init"   # a unit's host function running its globals' dynamic initialisers
GLOBAL_FINI = "__minicuda_global_fini"   # and destroying its global objects: run before and after main


def block_shared(module: Module, kernel: str) -> list[str]:
    """The static `__shared__` variables each block of `kernel` holds, in the module's
    order: those its code or a function it calls names (a device function's and a file's
    included; the dynamic array is not one of them)."""
    named, seen, todo = set(), {kernel}, [kernel]
    while todo:
        fn = module.functions.get(todo.pop())
        for ins in (ins for b in (fn.blocks if fn is not None else ()) for ins in b.instrs):
            for o in ins.srcs:
                base = o.base if isinstance(o, Mem) else o
                if isinstance(base, Sym):
                    named.add(base.name)
            callee = ins.srcs[0].name if ins.op == "CALL" and "RT" not in ins.mods and isinstance(ins.srcs[0], Sym) else None
            if callee is not None and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return [n for n, g in module.globals.items() if g.space == "shared" and n in named and n != DYNAMIC_SHARED]


def block_shared_bytes(module: Module, kernel: str) -> int:
    """Bytes of static shared memory a block of `kernel` takes, each variable aligned."""
    end = 0
    for name in block_shared(module, kernel):
        g = module.globals[name]
        end = (end + g.align - 1) // g.align * g.align + g.size
    return end


MARKERS = ("SSY", "BSSY")   # the reconvergence markers that name a join


def reconvergence_joins(fn: Function) -> dict[str, str | None]:
    """Each block's join for the conditional branch ending it, read from the markers by
    the rule in this module's docstring; None: the function's exit."""
    joins: dict[str, str | None] = {b.label: None for b in fn.blocks}
    entered: dict[str, str] = {}   # a loop head -> the join its preheader's marker names
    for i, b in enumerate(fn.blocks):
        first_jump = _first_closing_jump(b)
        join = _marker_join(b.instrs[first_jump - 1]) if first_jump else None
        if join is None:
            continue
        jump = b.instrs[first_jump] if first_jump < len(b.instrs) else None
        if jump is not None and jump.guard is not None:
            joins[b.label] = join
        elif jump is not None:
            entered[jump.target] = join
        elif i + 1 < len(fn.blocks):
            entered[fn.blocks[i + 1].label] = join
    for label, join in entered.items():
        if label in joins and joins[label] is None:
            joins[label] = join
    return joins


def _marker_join(ins: Instr) -> str | None:
    """The join an SSY/BSSY names; None for any other instruction."""
    if ins.op in MARKERS and ins.srcs and isinstance(ins.srcs[-1], Label):
        return ins.srcs[-1].name
    return None


def _first_closing_jump(block: Block) -> int:
    """The index of the first of the branches that close a block (its length when none)."""
    n = len(block.instrs)
    while n and block.instrs[n - 1].op == "BRA":
        n -= 1
    return n


# ---- printing ------------------------------------------------------------------------
def format_instr(ins: Instr, with_loc: bool = True) -> str:
    guard = f"@{'!' if ins.guard_neg else ''}{ins.guard} " if ins.guard is not None else ""
    ops = ", ".join(str(o) for o in list(ins.dsts) + list(ins.srcs))
    text = f"{guard}{ins.opcode}" + (f" {ops}" if ops else "")
    if with_loc and ins.loc is not None:
        text = f"{text:<40} // {ins.loc.file}:{ins.loc.line}:{ins.loc.col}"
    return text


def format_function(fn: Function, with_loc: bool = True) -> str:
    params = ", ".join(f"{p.reg}:{p.name}:{p.size}:{p.kind}" for p in fn.params)
    rets = ", ".join(f"{r}:64" if i == 0 and fn.ret_wide else str(r) for i, r in enumerate(fn.rets))
    header = f".{fn.kind} {fn.name} ({params})" + (f" -> ({rets})" if fn.rets else "")
    if with_loc and fn.loc is not None:
        header = f"{header:<40} // {fn.loc.file}:{fn.loc.line}:{fn.loc.col}"
    lines = [header]
    facts = f"  .shared {fn.shared_bytes} .local {fn.local_bytes}" + (" .dynamic_shared" if fn.dynamic_shared else "")
    if fn.registers or fn.predicates:
        facts += f" .registers {fn.registers} .predicates {fn.predicates}"
    if fn.launch_bounds:
        facts += " .launch_bounds " + " ".join(map(str, fn.launch_bounds))
    if fn.inline:
        facts += f" .inline {fn.inline}"
    lines.append(facts)
    lines += ["  " + format_decision(d) for d in fn.branch_decisions]
    for b in fn.blocks:
        lines.append(f"{b.label}:")
        for ins in b.instrs:
            lines.append("  " + format_instr(ins, with_loc))
    lines.append(f".end {fn.name}")
    return "\n".join(lines) + "\n"


def format_decision(d: BranchDecision) -> str:
    loop = f" loop {'unknown' if d.trip_count is None else d.trip_count}" if d.loop else ""
    loop += f" unrolled {d.unrolled}" if d.loop and d.unrolled else ""
    column = f":{d.column}" if d.column else ""   # (a record read from text without one has none)
    return (f".decision {d.file}:{d.line}{column} {'uniform' if d.uniform else 'divergent'} {d.instructions} "
            f"{d.threshold} {'predicated' if d.predicated else 'kept'}{loop} {Str(d.reason.encode())}")


def format_module(mod: Module, with_loc: bool = True) -> str:
    out = [f".arch {mod.arch}"] + ([f".sched {mod.sched}"] if mod.sched else [])
    for st in mod.structs.values():
        out.append(f".struct {st.name} {st.size}")
        out += [f"  .field {name} {offset} {size}" for name, (offset, size) in st.fields.items()]
    for g in mod.globals.values():
        init = f" = {g.init.hex()}" if g.init else ""
        out.append(f".global {g.space} {g.name} {g.size} {g.align}{init}")
    parts = ["\n".join(out) + "\n"]
    for fn in mod.functions.values():
        parts.append("\n" + format_function(fn, with_loc))
    return "".join(parts)                                # one join: += would copy the text per function


# ---- parsing -------------------------------------------------------------------------
class IRParseError(Exception):
    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.message, self.line = message, line


_LOC_RE = re.compile(r"//\s*(.+):(\d+):(\d+)\s*$")
_OPERAND_SPLIT = re.compile(r',\s*(?=(?:[^"]*"[^"]*")*[^"]*$)')
_HEADER_RE = re.compile(r"^\.(\w+) (\S+) \((.*?)\)(?: -> \((.*)\))?$")
_DECISION_RE = re.compile(r'^\.decision (.+?):(\d+)(?::(\d+))? (uniform|divergent) (\d+) (\d+) (predicated|kept)'
                          r'(?: loop (\d+|unknown)(?: unrolled (full|\d+))?)? (".*")$')
SCHED_MODELS = ("stack", "its")
SHARED_ACCESSES = ("LDS", "STS", "ATOMS")   # the accesses that may take a 32-bit shared address
SPECIAL_REGISTERS = {f"{base}.{axis}" for base in ("SR_TID", "SR_CTAID", "SR_NTID", "SR_NCTAID") for axis in "XYZ"} \
    | {"SR_LANEID", "SR_WARPSIZE"} | {"SR_CLOCK", "SR_CLOCKLO", "SR_CLOCKHI"}   # SR_CLOCK: SR_CLOCKLO


def parse_operand(text: str, line: int) -> Operand:
    t = text.strip()
    if _REG_RE.match(t):
        return Reg(t)
    if t.startswith(".L") or t.startswith(".B"):
        return Label(t)
    if t.startswith("SR_"):
        return Special(t)
    if t.startswith("$"):
        name, _, off = t[1:].partition("+")
        return Sym(name, _int(off, line, "symbol offset") if off else 0)
    if t.startswith("["):
        m = re.match(r"^\[([^\]+\-]+)(?:([+-])(0x[0-9a-fA-F]+|\d+))?\]$", t)
        if not m:
            raise IRParseError(f"bad memory operand '{t}'", line)
        base_text = m.group(1).strip()
        window = base_text.endswith(".U32")
        base = parse_operand(base_text[:-4] if window else base_text, line)
        if not isinstance(base, (Reg, Sym)) or (window and not isinstance(base, Reg)):
            raise IRParseError(f"bad memory operand '{t}': the address is a register or a $symbol", line)
        off = int(m.group(3), 0) if m.group(3) else 0
        return Mem(base, -off if m.group(2) == "-" else off, window)
    if t.startswith('"'):
        return Str(_string_bytes(t, line))
    special_floats = {"+INF": float("inf"), "-INF": float("-inf"), "+QNAN": float("nan")}
    if t in special_floats:
        return Imm(special_floats[t])
    try:
        if re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", t):
            return Imm(int(t, 0))
        return Imm(float(t))
    except ValueError:
        raise IRParseError(f"bad operand '{t}'", line) from None


def _string_bytes(t: str, line: int) -> bytes:
    """The bytes of a quoted string as `Str` prints it: \\xNN, \\" and \\\\ escapes."""
    if len(t) < 2 or not t.endswith('"'):
        raise IRParseError(f"unterminated string {t}", line)
    body = t[1:-1]
    data = bytearray()
    i = 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1:i + 2] == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", body[i + 2:i + 4]):
                data.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            if i + 1 >= len(body):
                raise IRParseError(f"bad escape at the end of {t}", line)
            data += body[i + 1].encode()
            i += 2
            continue
        data += body[i].encode()
        i += 1
    return bytes(data)


def _int(text: str, line: int, what: str) -> int:
    try:
        return int(text, 16 if text.lower().startswith(("0x", "-0x")) else 10)
    except ValueError:
        raise IRParseError(f"bad {what} '{text}'", line) from None


def parse_instr(text: str, line: int) -> Instr:
    loc = None
    m = _LOC_RE.search(text)
    if m:
        loc = SourceLocation(m.group(1), int(m.group(2)), int(m.group(3)))
        text = text[:m.start()]
    text = text.strip()
    guard, neg = None, False
    if text.startswith("@"):
        g, _, text = text.partition(" ")
        neg = g.startswith("@!")
        guard = Reg(g[2:] if neg else g[1:])
    opcode, _, rest = text.partition(" ")
    parts = opcode.split(".")
    op, mods = parts[0], tuple(parts[1:])
    if op == "BAR" and mods[:1] == ("RED",):
        op, mods = "BAR.RED", mods[1:]
    if op not in OPS:
        raise IRParseError(f"unknown opcode '{op}'", line)
    operands = [parse_operand(o, line) for o in _split_operands(rest) if o.strip()] if rest.strip() else []
    n_dst = OPS[op].n_dst
    if n_dst < 0:  # CALL: destinations are the registers before the callee, a symbol or [pointer]
        n_dst = next((i for i, o in enumerate(operands) if isinstance(o, (Sym, Mem))), 0)
    return Instr(op, mods, tuple(operands[:n_dst]), tuple(operands[n_dst:]), guard, neg, loc)


def _split_operands(rest: str) -> list[str]:
    """The operand texts of an instruction: split at the commas outside strings and outside
    a symbol's parentheses (an overload's name, `$f(int,float)`)."""
    if "(" not in rest:
        return _OPERAND_SPLIT.split(rest)
    parts, start, depth, quoted, i = [], 0, 0, False, 0
    while i < len(rest):
        c = rest[i]
        if quoted:
            i += c == "\\"   # an escaped character in a string
            quoted = c != '"'
        elif c == '"':
            quoted = True
        elif c in "()":
            depth += 1 if c == "(" else -1
        elif c == "," and depth == 0:
            parts.append(rest[start:i])
            start = i + 1
        i += 1
    return parts + [rest[start:]]


def parse_module(text: str, check: bool = False, external=frozenset()) -> Module:
    """The module a text holds.  With `check` (text from outside, a .sass file) each
    instruction is also checked against the opcode table and the module (operand
    counts, labels, symbols, register names), so the VM never meets a malformed one;
    every error is an IRParseError naming its line.  `external`: the symbols another
    unit defines (an object file's undefined ones), which the module may name."""
    reader = _ModuleReader()
    reader.external = external
    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s and not s.startswith(("//", "#")):
            reader.read(s, n)
    if reader.fn is not None:
        raise IRParseError(f"function {reader.fn.name} has no .end", reader.where[id(reader.fn)])
    if check:
        reader.check()
    return reader.mod


class _ModuleReader:
    """parse_module's state: the function and block being read, where each thing was."""

    def __init__(self):
        self.mod = Module()
        self.fn: Function | None = None
        self.block: Block | None = None
        self.struct: StructLayout | None = None
        self.where: dict[int, int] = {}   # id(instruction or function) -> its line
        self.external = frozenset()       # symbols defined in another unit

    def read(self, s: str, n: int) -> None:
        if s.endswith(":") and " " not in s:
            self.label(s[:-1], n)
        elif s.startswith("."):
            self.directive(s.split()[0], s, n)
        else:
            self.instruction(s, n)

    def directive(self, word: str, s: str, n: int) -> None:
        handler = self.DIRECTIVES.get(word)
        if handler is None:
            raise IRParseError(f"unknown directive '{word}'", n)
        if self.fn is None and word in (".shared", ".decision", ".end"):
            raise IRParseError(f"'{word}' outside a function", n)
        if word != ".field":
            self.struct = None   # a struct's fields follow its .struct line
        handler(self, s, n)

    def label(self, name: str, n: int) -> None:
        if self.fn is None:
            raise IRParseError(f"'{name}:' outside a function", n)
        self.block = Block(name)
        self.fn.blocks.append(self.block)

    def instruction(self, s: str, n: int) -> None:
        if self.block is None:
            raise IRParseError("instruction outside a block", n)
        try:
            ins = parse_instr(s, n)
        except (ValueError, IndexError):
            raise IRParseError(f"cannot read the instruction '{s}'", n) from None
        self.block.instrs.append(ins)
        self.where[id(ins)] = n

    def arch(self, s: str, n: int) -> None:
        parts = s.split()
        if len(parts) != 2 or not re.fullmatch(r"sm_\d+", parts[1]):
            raise IRParseError(f"bad architecture line '{s}' (expected .arch sm_NN)", n)
        self.mod.arch = parts[1]

    def sched(self, s: str, n: int) -> None:
        parts = s.split()
        if len(parts) != 2 or parts[1] not in SCHED_MODELS:
            raise IRParseError(f"bad scheduling model line '{s}' (expected .sched stack or .sched its)", n)
        self.mod.sched = parts[1]

    def struct_header(self, s: str, n: int) -> None:
        parts = s.split()
        if len(parts) != 3:
            raise IRParseError(f"bad struct line '{s}' (expected .struct NAME SIZE)", n)
        self.struct = StructLayout(parts[1], _int(parts[2], n, "struct size"))
        self.mod.structs[parts[1]] = self.struct

    def struct_field(self, s: str, n: int) -> None:
        parts = s.split()
        if self.struct is None:
            raise IRParseError("'.field' outside a .struct", n)
        if len(parts) != 4:
            raise IRParseError(f"bad field line '{s}' (expected .field NAME OFFSET BYTES)", n)
        self.struct.fields[parts[1]] = (_int(parts[2], n, "field offset"), _int(parts[3], n, "field size"))

    def global_(self, s: str, n: int) -> None:
        head, _, init = s.partition(" = ")
        parts = head.split()
        if len(parts) != 5:
            raise IRParseError(f"bad global line '{s}' (expected .global SPACE NAME SIZE ALIGN [= HEX])", n)
        _, space, name, size, align = parts
        try:
            data = bytes.fromhex(init) if init else None
        except ValueError:
            raise IRParseError(f"bad initial bytes for global '{name}'", n) from None
        self.mod.globals[name] = Global(name, space, _int(size, n, "global size"), _int(align, n, "alignment"), data)

    def header(self, s: str, n: int) -> None:
        if self.fn is not None:
            raise IRParseError(f"function {self.fn.name} has no .end", self.where[id(self.fn)])
        loc = _LOC_RE.search(s)
        m = _HEADER_RE.match(s[:loc.start()].strip() if loc else s)
        if not m:
            raise IRParseError("bad function header (expected .kernel|.device|.host NAME (PARAMETERS) "
                               "[-> (RESULTS)])", n)
        fn = Function(m.group(2), m.group(1))
        if loc:
            fn.loc = SourceLocation(loc.group(1), int(loc.group(2)), int(loc.group(3)))
        for p in filter(None, (x.strip() for x in m.group(3).split(","))):
            parts = p.split(":")
            if len(parts) != 4 or not _REG_RE.match(parts[0]) or parts[3] not in ("value", "pointer", "struct"):
                raise IRParseError(f"bad parameter '{p}' (expected REGISTER:NAME:BYTES:value|pointer|struct)", n)
            fn.params.append(Param(Reg(parts[0]), parts[1], _int(parts[2], n, "parameter size"), parts[3]))
        for i, r in enumerate(x.strip() for x in (m.group(4).split(",") if m.group(4) else [])):
            reg, wide = r.removesuffix(":64"), r.endswith(":64")
            if not _REG_RE.match(reg) or wide and i:
                raise IRParseError(f"bad result register '{r}'", n)
            fn.rets.append(Reg(reg))
            fn.ret_wide = fn.ret_wide or wide
        self.fn, self.block = fn, None
        self.where[id(fn)] = n

    def facts(self, s: str, n: int) -> None:
        words = s.split()
        numbers = {".shared": "shared_bytes", ".local": "local_bytes", ".registers": "registers",
                   ".predicates": "predicates"}
        i = 0
        while i < len(words):
            if words[i] == ".dynamic_shared":
                self.fn.dynamic_shared = True
                i += 1
            elif words[i] == ".launch_bounds":
                bounds = [w for w in words[i + 1:i + 3] if w.isdigit()]
                if not bounds:
                    raise IRParseError("'.launch_bounds' needs the maximum threads per block", n)
                self.fn.launch_bounds = tuple(int(w) for w in bounds)
                i += 1 + len(bounds)
            elif words[i] == ".inline":
                if i + 1 >= len(words) or words[i + 1] not in ("force", "never"):
                    raise IRParseError("'.inline' needs 'force' or 'never'", n)
                self.fn.inline = words[i + 1]
                i += 2
            elif words[i] in numbers and i + 1 < len(words):
                setattr(self.fn, numbers[words[i]], _int(words[i + 1], n, words[i][1:] + " count"))
                i += 2
            else:
                raise IRParseError(f"unexpected '{words[i]}' in the function's facts", n)

    def decision(self, s: str, n: int) -> None:
        m = _DECISION_RE.match(s)
        if not m:
            raise IRParseError("bad decision line (expected .decision FILE:LINE[:COLUMN] uniform|divergent "
                               "INSTRUCTIONS THRESHOLD predicated|kept [loop TRIPS|unknown [unrolled full|N]] \"REASON\")", n)
        reason = _string_bytes(m.group(10), n).decode("utf-8", "replace")
        trips = m.group(8)
        self.fn.branch_decisions.append(BranchDecision(
            m.group(1), int(m.group(2)), self.fn.name, m.group(4) == "uniform", int(m.group(5)), int(m.group(6)),
            m.group(7) == "predicated", reason, int(m.group(3) or 0), trips is not None,
            int(trips) if trips not in (None, "unknown") else None, m.group(9) or ""))

    def end(self, s: str, n: int) -> None:
        parts = s.split()
        if len(parts) != 2 or parts[1] != self.fn.name:
            raise IRParseError(f"'{s}' does not close function {self.fn.name}", n)
        self.mod.functions[self.fn.name] = self.fn
        self.fn = self.block = None

    DIRECTIVES = {".arch": arch, ".sched": sched, ".struct": struct_header, ".field": struct_field, ".global": global_,
                  ".kernel": header, ".device": header, ".host": header, ".shared": facts, ".decision": decision,
                  ".end": end}

    # ---- check: what the VM relies on --------------------------------------------------
    def check(self) -> None:
        for fn in self.mod.functions.values():
            labels = {b.label for b in fn.blocks}
            for ins in fn.instructions():
                problem = self.problem(fn, ins, labels)
                if problem:
                    raise IRParseError(problem, self.where.get(id(ins), self.where[id(fn)]))
            try:
                verify(fn, "sass")
            except InternalError as e:
                raise IRParseError(str(e).split(": ", 2)[-1], self.where[id(fn)]) from None

    def problem(self, fn: Function, ins: Instr, labels: set[str]) -> str | None:
        inf = OPS[ins.op]
        given = len(ins.dsts) + len(ins.srcs)
        if inf.n_dst >= 0 and inf.n_src >= 0 and ins.op != "BAR" and given != inf.n_dst + inf.n_src:
            return f"'{ins.opcode}' takes {inf.n_dst + inf.n_src} operands, not {given}"
        if inf.n_src < 0 and ins.op in ("CALL", "LAUNCH") and not (ins.srcs and isinstance(ins.srcs[0], Sym)) \
                and not (ins.op == "CALL" and "RT" not in ins.mods and ins.srcs and isinstance(ins.srcs[0], Mem)):
            return f"'{ins.opcode}' names its callee first: {ins.op} $name (a CALL: or [Rn], a function pointer)"
        if inf.kind in ("mem", "atomic") and not (ins.srcs and isinstance(ins.srcs[0], Mem)):
            return f"'{ins.opcode}' takes a memory operand [address] first"
        if any(isinstance(o, Mem) and o.window for o in ins.srcs) and ins.op not in SHARED_ACCESSES:
            return f"'{ins.opcode}' takes no 32-bit shared address [R.U32]: only {', '.join(SHARED_ACCESSES)} do"
        if any(not isinstance(d, Reg) for d in ins.dsts):
            return f"'{ins.opcode}' writes a register, not '{next(d for d in ins.dsts if not isinstance(d, Reg))}'"
        if ins.guard is not None and not (_REG_RE.match(ins.guard.name) and ins.guard.is_pred):
            return f"the guard '{ins.guard}' is not a predicate register"
        wrong = operand_kind_problem(ins)
        if wrong:
            return wrong
        for o in ins.dsts + ins.srcs + ((ins.guard,) if ins.guard is not None else ()):
            bad = self.operand_problem(fn, ins, o, labels)
            if bad:
                return bad
        return None

    def operand_problem(self, fn: Function, ins: Instr, o, labels: set[str]) -> str | None:
        if isinstance(o, Mem):
            o = o.base
        if isinstance(o, Reg):
            limit = {"R": 255, "P": 7, "B": 15}.get(o.name[0])
            if limit is not None and o.name not in ("RZ", "PT") and int(o.name[1:]) > limit:
                return f"no register {o.name} (R0..R254, P0..P6, B0..B15)"
        elif isinstance(o, Label) and o.name not in labels:
            return f"no label {o.name} in function {fn.name}"
        elif isinstance(o, Special) and o.name not in SPECIAL_REGISTERS:
            return f"unknown special register '{o.name}'"
        elif isinstance(o, Sym) and o.name in self.external:
            return None
        elif isinstance(o, Sym) and o is ins.srcs[0] and ins.op in ("CALL", "LAUNCH"):
            callee = self.mod.functions.get(o.name)
            if "RT" not in ins.mods and (callee is None or (ins.op == "LAUNCH") != (callee.kind == "kernel")):
                return f"no {'kernel' if ins.op == 'LAUNCH' else 'function'} '{o.name}' in the module"
        elif isinstance(o, Sym) and o.name != "frame" and o.name not in self.mod.globals:
            return f"unknown symbol '${o.name}'"
        return None


def operand_kind_problem(ins: Instr) -> str | None:
    """What is wrong with the kinds of `ins`'s operands, as its ISA row's `operands` gives
    them (a MOV moves a predicate or a value: its source is of its destination's kind)."""
    kinds = OPS[ins.op].operands
    if ins.op == "MOV" and len(ins.dsts) == 1 and isinstance(ins.dsts[0], Reg):
        kinds = "pp" if ins.dsts[0].is_pred else "rv"
    for i, o in enumerate(ins.dsts + ins.srcs if kinds else ()):
        kind = kinds[min(i, len(kinds) - 1)]
        if not _is_kind(o, kind):
            return f"operand {i + 1} of '{ins.opcode}' is '{o}': it must be {OPERAND_KINDS[kind]}"
    return None


def _is_kind(o: Operand, kind: str) -> bool:
    data_reg = isinstance(o, Reg) and not o.is_pred and not o.name.startswith("B")
    return {"r": data_reg, "p": isinstance(o, Imm) or isinstance(o, Reg) and o.is_pred,
            "v": data_reg or isinstance(o, (Imm, Sym, Special)), "m": isinstance(o, Mem),
            "l": isinstance(o, Label), "b": isinstance(o, Reg) and o.name.startswith("B"),
            "s": isinstance(o, Special)}[kind]


# ---- verification ----------------------------------------------------------------------
def verify(fn: Function, stage: str = "ir") -> None:
    """Structural invariants every pass must keep; a violation is an internal error."""
    labels = [b.label for b in fn.blocks]
    if len(set(labels)) != len(labels):
        raise InternalError(stage, f"{fn.name}: duplicate block labels")
    known = set(labels)
    if not fn.blocks:
        raise InternalError(stage, f"{fn.name}: no blocks")
    for b in fn.blocks:
        for i, ins in enumerate(b.instrs):
            inf = info(ins.op)
            if inf.terminator and i != len(b.instrs) - 1 and ins.guard is None:
                raise InternalError(stage, f"{fn.name}:{b.label}: terminator {ins.opcode} in the middle of a block")
            if ins.op == "BRA" and ins.guard is not None and i != len(b.instrs) - 1 and \
                    not (i == len(b.instrs) - 2 and b.instrs[-1].op == "BRA" and b.instrs[-1].guard is None):
                raise InternalError(stage, f"{fn.name}:{b.label}: conditional branch not at the block's end")
            if inf.n_dst >= 0 and len(ins.dsts) != inf.n_dst:
                raise InternalError(stage, f"{fn.name}:{b.label}: {ins.opcode} writes {len(ins.dsts)} registers, expected {inf.n_dst}")
            if inf.n_src >= 0 and len(ins.srcs) != inf.n_src:
                raise InternalError(stage, f"{fn.name}:{b.label}: {ins.opcode} reads {len(ins.srcs)} operands, expected {inf.n_src}")
            if ins.guard is not None and not ins.guard.is_pred:
                raise InternalError(stage, f"{fn.name}:{b.label}: guard {ins.guard} is not a predicate")
            for t in (s for s in ins.srcs if isinstance(s, Label)):
                if t.name not in known:
                    raise InternalError(stage, f"{fn.name}:{b.label}: branch to unknown label {t.name}")
    last = fn.blocks[-1]
    if last.terminator is None or (last.terminator.op == "BRA" and last.terminator.guard is not None):
        raise InternalError(stage, f"{fn.name}: the last block {last.label} falls off the end")
