"""The IR: its text form round-trips, and lowering produces verified IR for every program."""
import pytest

from helpers import GROUNDTRUTH, SAMPLES
from minicuda.diagnostics import InternalError
from minicuda.frontend import load
from minicuda.ir import (Function, Instr, Mem, Reg, Sym, format_function, format_module, parse_instr,
                         parse_module, verify)
from minicuda.passes.lower import lower

PROGRAMS = SAMPLES + [GROUNDTRUTH]


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_lowered_program_verifies_and_round_trips(path):
    module = lower(load(str(path)).tu)
    for fn in module.functions.values():
        verify(fn)
    text = format_module(module)
    again = parse_module(text)
    assert again == module
    assert format_module(again) == text


def test_instruction_text_round_trips_every_operand_kind():
    for text in ["@!%p3 BRA .L7", "ISETP.GE.U32 %p0, %r1, 0x10000", "LDG.64 %rd2, [%rd1+0x8]",
                 "STS.U8 [$k::tile+12], %r3", "MOV %r1, -1.5", "S2R %r0, SR_TID.X",
                 'CALL.RT %r2, $printf, %rd4, %r1', "SHFL.DOWN %r3, %r2, 16, 32, 0xffffffff",
                 "ATOM.CAS.S32 %r1, [%rd0], 0, 1", "@P0 EXIT", "BSSY B0, .L3"]:
        assert str(parse_instr(text, 1)) == text


def test_an_overloads_name_is_one_operand_though_it_holds_commas():
    ins = parse_instr('CALL %r2, $g(int,float*), "(%d, %d)", 1', 1)
    assert ins.srcs[0] == Sym("g(int,float*)") and len(ins.srcs) == 3
    assert str(ins) == 'CALL %r2, $g(int,float*), "(%d, %d)", 1'


def test_every_instruction_keeps_its_source_line():
    module = lower(load(str(GROUNDTRUTH)).tu)
    fn = module.functions["mathKernel1"]
    assert all(i.loc is not None and i.loc.line >= 4 for i in fn.instructions())
    branch = next(i for i in fn.instructions() if i.op == "BRA" and i.guard is not None)
    assert branch.loc.line == 7


def test_symbol_offsets_have_one_spelling():
    assert Mem(Sym("frame", 8), 4) == Mem(Sym("frame", 12))
    assert str(Mem(Sym("frame", 8), 4)) == "[$frame+12]"


def test_verifier_rejects_a_function_that_falls_off_its_end():
    fn = parse_module(".kernel k ()\n  .shared 0 .local 0\n.L0:\n  MOV %r0, 1\n.end k\n").functions["k"]
    with pytest.raises(InternalError):
        verify(fn)


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_every_program_compiles_with_the_verifier_after_every_pass(path, opt):
    import minicuda
    program = minicuda.compile(str(path), arch="sm_60" if opt == 0 else "sm_90", opt=opt, verify_each=True)
    assert program.branch_decisions
    for d in program.branch_decisions:  # every decision names the source line of its branch
        assert d.file == str(path) and d.line > 0, d
    assert parse_module(program.sass()) == program.module


def test_print_after_shows_the_ir_after_that_pass(capsys):
    from minicuda.cli import minicudac_main
    assert minicudac_main([str(GROUNDTRUTH), "--print-after=if-convert", "--emit=ir", "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    assert err.count("// *** IR after if-convert ***") == 6
