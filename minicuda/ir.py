"""The IR: minicuda's predicated SIMT bytecode, its text form, parser and verifier.

The opcode table (`OPS`, one row per opcode) lives in minicuda/isa.py; the printer,
the parser, the verifier, the passes and the VM read it.

Shape of a function:

    .kernel mathKernel1 (%rd0:c:8:pointer)   // kind, name, parameters (register:name:bytes:kind)
    .shared 0 .local 0                       // static shared bytes, per-thread frame bytes
    .L0:
      S2R %r0, SR_TID.X                   // simpleDivergence.cu:12:13
      @!%p0 BRA .L2
      ...

Registers: `%rN` 32-bit, `%rdN` 64-bit (an aligned pair after allocation), `%pN`
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
  INEG IABS LOP NOT SHL wrap modulo 2^width.  IDIV/IREM truncate toward zero
  (x/0 = all ones, x%0 = x).  SHL/SHR with an amount >= width give 0 (SHR.S*:
  the sign fill).  IMNMX.MIN / IMNMX.MAX.  IMULHI gives the high half.
- ISETP.<cmp>[.type] p, a, b with cmp in EQ NE LT LE GT GE; FSETP / DSETP compare
  f32 / f64 as C does (NE is true when either is NaN; the others are false).
  PLOP.AND/.OR/.XOR p, a, b and PNOT p, a combine predicates.  SEL d, a, b, p is
  `p ? a : b`; P2R d, p is `p ? 1 : 0`.
- FADD FSUB FMUL FDIV FFMA FNEG FMNMX.MIN/.MAX work on f32 (round to nearest even;
  FMNMX ignores a NaN operand), D* the same on f64.  MUFU.<fn>[.F64] d, a[, b]
  applies a math function: SQRT RSQ RCP EXP EX2 LOG LG2 LOG10 SIN COS TAN ASIN
  ACOS ATAN SINH COSH TANH FLOOR CEIL ROUND TRUNC FABS POW ATAN2 FMOD ...
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
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from minicuda.diagnostics import InternalError, SourceLocation
from minicuda.isa import OPS, OpInfo, info   # the opcode table; re-exported for existing imports


# ---- operands ----------------------------------------------------------------------
_REG_RE = re.compile(r"^(%(?:rd|r|p)\d+|R\d+|P\d+|RZ|PT|B\d+)$")


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
    base: Reg | Sym
    offset: int = 0

    def __post_init__(self):
        if isinstance(self.base, Sym) and self.offset:  # one spelling: [$x+12], never [$x+8+0x4]
            object.__setattr__(self, "base", Sym(self.base.name, self.base.offset + self.offset))
            object.__setattr__(self, "offset", 0)

    def __str__(self) -> str:
        off = f"+{hex(self.offset)}" if self.offset > 0 else (f"-{hex(-self.offset)}" if self.offset < 0 else "")
        return f"[{self.base}{off}]"


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
class Function:
    name: str
    kind: str                          # kernel, device, host
    params: list[Param] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    rets: list[Reg] = field(default_factory=list)   # registers holding the result at RET (host/device)
    shared_bytes: int = 0              # static shared memory
    local_bytes: int = 0               # per-thread frame (arrays, address-taken locals)
    dynamic_shared: bool = False
    loc: SourceLocation | None = field(default=None, compare=False)

    def block(self, label: str) -> Block:
        for b in self.blocks:
            if b.label == label:
                return b
        raise InternalError("ir", f"no block {label} in {self.name}")

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
class Module:
    functions: dict[str, Function] = field(default_factory=dict)
    globals: dict[str, Global] = field(default_factory=dict)
    arch: str = "sm_70"


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
    lines = [f".{fn.kind} {fn.name} ({params})" + (f" -> ({', '.join(map(str, fn.rets))})" if fn.rets else "")]
    lines.append(f"  .shared {fn.shared_bytes} .local {fn.local_bytes}" + (" .dynamic_shared" if fn.dynamic_shared else ""))
    for b in fn.blocks:
        lines.append(f"{b.label}:")
        for ins in b.instrs:
            lines.append("  " + format_instr(ins, with_loc))
    lines.append(f".end {fn.name}")
    return "\n".join(lines) + "\n"


def format_module(mod: Module, with_loc: bool = True) -> str:
    out = [f".arch {mod.arch}"]
    for g in mod.globals.values():
        init = f" = {g.init.hex()}" if g.init else ""
        out.append(f".global {g.space} {g.name} {g.size} {g.align}{init}")
    text = "\n".join(out) + "\n"
    for fn in mod.functions.values():
        text += "\n" + format_function(fn, with_loc)
    return text


# ---- parsing -------------------------------------------------------------------------
class IRParseError(Exception):
    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.line = line


_LOC_RE = re.compile(r"//\s*(.+):(\d+):(\d+)\s*$")
_OPERAND_SPLIT = re.compile(r',\s*(?=(?:[^"]*"[^"]*")*[^"]*$)')


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
        return Sym(name, int(off, 0) if off else 0)
    if t.startswith("["):
        m = re.match(r"^\[([^\]+\-]+)(?:([+-])(0x[0-9a-fA-F]+|\d+))?\]$", t)
        if not m:
            raise IRParseError(f"bad memory operand '{t}'", line)
        base = parse_operand(m.group(1), line)
        off = int(m.group(3), 0) if m.group(3) else 0
        return Mem(base, -off if m.group(2) == "-" else off)
    if t.startswith('"'):
        body = t[1:-1]
        data = bytearray()
        i = 0
        while i < len(body):
            if body[i] == "\\":
                if body[i + 1] == "x":
                    data.append(int(body[i + 2:i + 4], 16))
                    i += 4
                    continue
                data.append(ord(body[i + 1]))
                i += 2
                continue
            data.append(ord(body[i]))
            i += 1
        return Str(bytes(data))
    special_floats = {"+INF": float("inf"), "-INF": float("-inf"), "+QNAN": float("nan")}
    if t in special_floats:
        return Imm(special_floats[t])
    try:
        if re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", t):
            return Imm(int(t, 0))
        return Imm(float(t))
    except ValueError:
        raise IRParseError(f"bad operand '{t}'", line) from None


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
    operands = [parse_operand(o, line) for o in _OPERAND_SPLIT.split(rest) if o.strip()] if rest.strip() else []
    n_dst = OPS[op].n_dst
    if n_dst < 0:  # CALL: destinations are the registers before the callee symbol
        n_dst = next((i for i, o in enumerate(operands) if isinstance(o, Sym)), 0)
    return Instr(op, mods, tuple(operands[:n_dst]), tuple(operands[n_dst:]), guard, neg, loc)


def parse_module(text: str) -> Module:
    mod = Module()
    fn: Function | None = None
    block: Block | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("//") or s.startswith("#"):
            continue
        if fn is None and s.startswith((".shared ", ".end ")) or fn is None and s.endswith(":") and " " not in s:
            raise IRParseError(f"'{s.split()[0]}' outside a function", n)
        if s.startswith(".arch "):
            mod.arch = s.split()[1]
        elif s.startswith(".global "):
            head, _, init = s.partition(" = ")
            _, space, name, size, align = head.split()
            mod.globals[name] = Global(name, space, int(size), int(align), bytes.fromhex(init) if init else None)
        elif re.match(r"^\.(kernel|device|host) ", s):
            m = re.match(r"^\.(\w+) (\S+) \((.*?)\)(?: -> \((.*)\))?$", s)
            if not m:
                raise IRParseError("bad function header", n)
            fn = Function(m.group(2), m.group(1))
            for p in filter(None, (x.strip() for x in m.group(3).split(","))):
                reg, name, size, kind = p.split(":")
                fn.params.append(Param(Reg(reg), name, int(size), kind))
            if m.group(4):
                fn.rets = [Reg(r.strip()) for r in m.group(4).split(",")]
            block = None
        elif s.startswith(".shared "):
            parts = s.split()
            fn.shared_bytes, fn.local_bytes = int(parts[1]), int(parts[3])
            fn.dynamic_shared = ".dynamic_shared" in parts
        elif s.startswith(".end "):
            mod.functions[fn.name] = fn
            fn = block = None
        elif s.endswith(":") and " " not in s:
            if fn is None:
                raise IRParseError("label outside a function", n)
            block = Block(s[:-1])
            fn.blocks.append(block)
        else:
            if block is None:
                raise IRParseError("instruction outside a block", n)
            block.instrs.append(parse_instr(s, n))
    if fn is not None:
        raise IRParseError(f"function {fn.name} has no .end", n)
    return mod


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
