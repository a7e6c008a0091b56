"""The instruction set: one row per opcode, read by everything that needs a fact about one.

A row (`OpInfo`) declares the opcode's operands (registers written, operands read),
its kind, whether it ends a block, whether it has side effects or writes memory,
whether its result can differ between the threads of a warp, and names what runs
it: `interp` is the interpreter's semantics (`Interpreter.op_<interp>` in
vm/interp.py), `jit` the JIT's lowering (`FunctionCodegen.lower_<jit>`, in the
vm/jit/ module of its concern, or HAND_OFF: the JIT hands the instruction over),
and for a pure value op `eval` its family: the evaluator `semantics.EVALUATORS[eval]`
(minicuda/semantics.py, the definition both engines and constant folding share)
and the vector lowering `ops.LOWERINGS[eval]` (vm/jit/ops.py).  The interpreter
dispatches on `interp`, the JIT on `jit`, the verifier reads the operand counts
and terminators (the .sass reader also `operands`, each operand's kind), the CFG
builder the terminators, divergence analysis `varying`, the passes `kind`,
`side_effects` and `store`.  tests/minicuda/test_isa_table.py
fails when a row names a semantics or lowering that does not exist, or when the
compiler emits an opcode without a row.

Invariant: the names are unique, and a row with `eval` runs as `interp="pure"`,
`jit="pure"` (made by `pure()`).

Adding a pure opcode is one row here, its evaluator in semantics.py next to its
family's siblings and its lowering in vm/jit/ops.py next to theirs.  IMULHI (the
high half of a product, `__mulhi`) is defined so, across three files:

    # minicuda/isa.py: the row; "int" is the integer family
    pure("IMULHI", 1, 2, "alu", "int"),

    # minicuda/semantics.py, in _int_op (the "int" evaluator), with _mulhi beside it
    if ins.op == "IMULHI":
        return _mulhi(x[0], x[1], bits, signed)

    # vm/jit/ops.py, in _decode_int (the "int" lowering)
    if op == "IMULHI":
        def mulhi(e, s):
            wide = 2 * bits
            a, b = (_ext(e, x, bits, wide, signed) for x in s[:2])
            p = e.op(f"mul {_vi(e, wide)} {a}, {b}")
            hi = e.op(f"lshr {_vi(e, wide)} {p}, {e.splat(wide, bits)}")
            return _trunc(e, hi, wide, bits)
        return mulhi

The family gives the rest: the operand widths (`semantics.source_widths`: an "int"
op reads its sources at the width of its type modifier), that the interpreter
evaluates it (`Interpreter.op_pure`), that the JIT lowers it (`lower_pure`), that
constant folding may fold it, and that the tests of every family cover it.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.diagnostics import InternalError

HAND_OFF = "interpreter"   # a `jit` that is no lowering: native code hands the instruction back
UNCHECKED = "UNCHECKED"    # CALL.UNCHECKED: nvcc -O3's call, no stack check on entry (docs/semantics.md)
ALWAYS, OPERANDS = "always", "operands"   # values of `varying`


@dataclass(frozen=True)
class OpInfo:
    name: str
    n_dst: int            # registers written (predicates included); -1: any number
    n_src: int            # operands read; -1: any number
    kind: str             # alu, cmp, conv, mem, atomic, warp, sync, control, call, marker
    terminator: bool = False
    side_effects: bool = False   # may not be removed, moved or if-converted freely
    store: bool = False          # writes memory (if-conversion guards it)
    varying: str = OPERANDS      # the result differs between threads: ALWAYS, or where an operand does
    interp: str = ""             # the interpreter's semantics: Interpreter.op_<interp>
    jit: str = ""                # the JIT's lowering: FunctionCodegen.lower_<jit>, or HAND_OFF
    eval: str = ""               # a pure op's family: semantics.EVALUATORS / ops.LOWERINGS key
    operands: str = ""           # each operand's kind, destinations first (OPERAND_KINDS; the last
                                 # repeats for any further operand); "" when not checked (MOV: either kind)


# the letters of `operands`: what each kind of operand may be in the text (checked when a .sass is read)
OPERAND_KINDS = {
    "r": "a data register (R0, RZ, %r1, %rd2)",
    "p": "a predicate (P0, PT, %p1, or 0/1)",
    "v": "a value (a data register, an immediate, a $symbol or a special register)",
    "m": "a memory operand [address]",
    "l": "a label",
    "b": "a convergence barrier register (B0)",
    "s": "a special register (SR_TID.X)",
}
# the operand kinds of each family of pure ops (destination first)
FAMILY_OPERANDS = {"int": "rv", "float": "rv", "mufu": "rv", "convert": "rv", "isetp": "pv", "fsetp": "pv",
                   "plop": "pp", "pnot": "pp", "sel": "rvvp", "p2r": "rp", "mov": ""}


def pure(name: str, n_dst: int, n_src: int, kind: str, family: str) -> OpInfo:
    """A pure value op: computed by its family's evaluator, lowered by its family's lowering."""
    return OpInfo(name, n_dst, n_src, kind, interp="pure", jit="pure", eval=family, operands=FAMILY_OPERANDS[family])


def _rows(*rows: OpInfo) -> dict[str, OpInfo]:
    table = {r.name: r for r in rows}
    if len(table) != len(rows):
        raise InternalError("isa", "an opcode has two rows")
    return table


OPS: dict[str, OpInfo] = _rows(
    # moves and special registers
    pure("MOV", 1, 1, "alu", "mov"),
    OpInfo("S2R", 1, 1, "alu", operands="rs", interp="special", jit="special"),
    pure("SEL", 1, 3, "alu", "sel"),                 # d = p ? a : b   (SEL d, a, b, p)
    pure("FSEL", 1, 3, "alu", "sel"),                # the same, of float values (SASS's FSEL)
    pure("P2R", 1, 1, "alu", "p2r"),                 # d = p ? 1 : 0
    # integer arithmetic (.64 for 64-bit, .U32/.U64 for unsigned where it matters)
    pure("IADD", 1, 2, "alu", "int"), pure("ISUB", 1, 2, "alu", "int"), pure("IMUL", 1, 2, "alu", "int"),
    # IMAD.WIDE.U32/.S32 d, a, b, c: 32-bit a and b widened, 64-bit c and d (semantics.is_wide_multiply)
    pure("IMAD", 1, 3, "alu", "int"), pure("IDIV", 1, 2, "alu", "int"), pure("IREM", 1, 2, "alu", "int"),
    pure("INEG", 1, 1, "alu", "int"), pure("IABS", 1, 1, "alu", "int"), pure("IMNMX", 1, 2, "alu", "int"),
    pure("LOP", 1, 2, "alu", "int"),                 # .AND .OR .XOR
    pure("NOT", 1, 1, "alu", "int"),
    pure("SHL", 1, 2, "alu", "int"), pure("SHR", 1, 2, "alu", "int"),
    pure("POPC", 1, 1, "alu", "int"), pure("FLO", 1, 1, "alu", "int"), pure("BREV", 1, 1, "alu", "int"),
    pure("IMULHI", 1, 2, "alu", "int"),
    pure("PRMT", 1, 3, "alu", "int"),                # d, a, selector, b: __byte_perm(a, b, selector)
    pure("SHF", 1, 3, "alu", "int"),                 # .L/.R .W/.C d, lo, amount, hi: __funnelshift_*
    # floating point: F* single, D* double
    pure("FADD", 1, 2, "alu", "float"), pure("FSUB", 1, 2, "alu", "float"), pure("FMUL", 1, 2, "alu", "float"),
    pure("FFMA", 1, 3, "alu", "float"), pure("FDIV", 1, 2, "alu", "float"), pure("FNEG", 1, 1, "alu", "float"),
    pure("FMNMX", 1, 2, "alu", "float"),
    pure("MUFU", 1, -1, "alu", "mufu"),              # .SQRT .RSQ .EX2 .LG2 .SIN ... (math)
    pure("DADD", 1, 2, "alu", "float"), pure("DSUB", 1, 2, "alu", "float"), pure("DMUL", 1, 2, "alu", "float"),
    pure("DFMA", 1, 3, "alu", "float"), pure("DDIV", 1, 2, "alu", "float"), pure("DNEG", 1, 1, "alu", "float"),
    pure("DMNMX", 1, 2, "alu", "float"),
    # comparisons write predicates; predicate logic
    pure("ISETP", 1, 2, "cmp", "isetp"), pure("FSETP", 1, 2, "cmp", "fsetp"), pure("DSETP", 1, 2, "cmp", "fsetp"),
    pure("PLOP", 1, 2, "cmp", "plop"),               # .AND .OR .XOR
    pure("PNOT", 1, 1, "cmp", "pnot"),
    # conversions: .DST.SRC modifiers, e.g. I2F.F32.S32, F2I.S32.F64, I2I.S64.S32
    pure("I2F", 1, 1, "conv", "convert"), pure("F2I", 1, 1, "conv", "convert"),
    pure("F2F", 1, 1, "conv", "convert"), pure("I2I", 1, 1, "conv", "convert"),
    # memory: .U8 .S8 .U16 .S16 .32 .64 give the width; LDL reads the thread's own frame; LDS, STS
    # and ATOMS also take a 32-bit shared address, [R5.U32+0x4] (ir.Mem.window)
    OpInfo("LDG", 1, 1, "mem", operands="rm", interp="load", jit="load"),
    OpInfo("STG", 0, 2, "mem", operands="mv", side_effects=True, store=True, interp="store", jit="store"),
    OpInfo("LDS", 1, 1, "mem", operands="rm", interp="load", jit="load"),
    OpInfo("STS", 0, 2, "mem", operands="mv", side_effects=True, store=True, interp="store", jit="store"),
    OpInfo("LDL", 1, 1, "mem", operands="rm", varying=ALWAYS, interp="load", jit="load"),
    OpInfo("STL", 0, 2, "mem", operands="mv", side_effects=True, store=True, interp="store", jit="store"),
    OpInfo("LDC", 1, 1, "mem", operands="rm", interp="load", jit="load"),
    # .ADD .CAS ... generic/global, then shared memory
    OpInfo("ATOM", 1, -1, "atomic", operands="rmv", side_effects=True, store=True, varying=ALWAYS, interp="atomic", jit="atomic"),
    OpInfo("ATOMS", 1, -1, "atomic", operands="rmv", side_effects=True, store=True, varying=ALWAYS, interp="atomic", jit="atomic"),
    # warp-level and synchronisation
    OpInfo("SHFL", 1, 4, "warp", operands="rv", side_effects=True, varying=ALWAYS,   # .IDX .UP .DOWN .BFLY: d, val, lane, width, mask
           interp="shuffle", jit="shuffle"),
    OpInfo("VOTE", 1, 2, "warp", operands="rv", side_effects=True, varying=ALWAYS,   # .ANY .ALL .BALLOT: d, pred-as-int, mask
           interp="vote", jit="vote"),
    OpInfo("MATCH", 1, 2, "warp", operands="rv", side_effects=True, varying=ALWAYS,  # .ANY .ALL: d, value, mask
           interp="match", jit=HAND_OFF),
    OpInfo("ACTIVEMASK", 1, 0, "warp", operands="r", side_effects=True, varying=ALWAYS, interp="vote", jit="vote"),
    OpInfo("BAR", 0, -1, "sync", operands="v", side_effects=True, interp="barrier", jit="barrier"),   # BAR.SYNC 0
    OpInfo("BAR.RED", 1, 1, "sync", side_effects=True, varying=ALWAYS,   # .POPC .AND .OR: d, predicate
           interp="bar_red", jit=HAND_OFF),
    OpInfo("WARPSYNC", 0, 1, "sync", operands="v", side_effects=True, interp="warpsync", jit="warpsync"),
    # grid.sync() of a cooperative launch: a block barrier every block of the grid waits at (no SASS
    # of its own: nvcc's header spins on a counter in global memory between two BAR.SYNCs)
    OpInfo("GRIDSYNC", 0, 0, "sync", side_effects=True, interp="grid_barrier", jit=HAND_OFF),
    OpInfo("MEMBAR", 0, 0, "sync", side_effects=True, interp="fence", jit="nothing"),
    OpInfo("SSY", 0, 1, "marker", operands="l", side_effects=True, interp="nothing", jit="nothing"),
    OpInfo("SYNC", 0, 0, "marker", side_effects=True, interp="nothing", jit="nothing"),
    OpInfo("BSSY", 0, 2, "marker", operands="bl", side_effects=True, interp="bssy", jit="bssy"),
    OpInfo("BSYNC", 0, 1, "marker", operands="b", side_effects=True, interp="bsync", jit="bsync"),
    # BREAK Bn: the threads it runs for leave convergence barrier Bn (a loop's exit from inside an if
    # whose paths meet again in the loop: nvcc -G's `@!P0 BREAK B1` before a `break`)
    OpInfo("BREAK", 0, 1, "marker", operands="b", side_effects=True, interp="break_barrier", jit="break_barrier"),
    OpInfo("YIELD", 0, 0, "marker", side_effects=True, interp="yield", jit="yield"),
    OpInfo("NOP", 0, 0, "marker", interp="nothing", jit="nothing"),
    # control flow
    OpInfo("BRA", 0, 1, "control", operands="l", terminator=True, side_effects=True, interp="branch", jit="branch"),
    OpInfo("EXIT", 0, 0, "control", terminator=True, side_effects=True, interp="exit", jit="exit"),
    OpInfo("RET", 0, -1, "control", terminator=True, side_effects=True, interp="exit", jit="exit"),
    OpInfo("TRAP", 0, -1, "control", terminator=True, side_effects=True, interp="trap", jit="trap"),   # __trap()
    # calls: runtime builtins (CALL.RT) and user functions (CALL); LAUNCH from host code
    OpInfo("CALL", -1, -1, "call", side_effects=True, varying=ALWAYS, interp="call", jit="runtime_call"),
    OpInfo("LAUNCH", 0, -1, "call", side_effects=True, interp="call", jit=HAND_OFF),
)


def info(op: str) -> OpInfo:
    if op in OPS:
        return OPS[op]
    raise InternalError("ir", f"unknown opcode '{op}'")
