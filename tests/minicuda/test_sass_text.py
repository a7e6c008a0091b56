"""The module text is the contract between compiler and VM: everything the VM needs
(arch, scheduling model, runtime struct layouts, return widths, registers, branch
decisions) is a declared field of ir.Module / ir.Function, printed and parsed back."""
import dataclasses

import pytest

from conftest import SAMPLES
import minicuda
from minicuda.ir import (BranchDecision, Function, IRParseError, Mem, Module, Reg, StructLayout, format_module,
                         parse_module)

SAMPLE = {p.name: p for p in SAMPLES}
_PROGRAMS: dict = {}


def program(path, arch: str, opt: int):
    key = (str(path), arch, opt)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = minicuda.compile(str(path), arch=arch, opt=opt)
    return _PROGRAMS[key]


@pytest.mark.parametrize("arch,opt", [("sm_60", 0), ("sm_60", 3), ("sm_70", 0), ("sm_70", 3)])
@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_every_samples_module_round_trips(path, arch, opt):
    module = program(path, arch, opt).module
    text = format_module(module)
    again = parse_module(text, check=True)
    assert again == module
    assert format_module(again) == text
    assert again.sched == ("stack" if arch == "sm_60" else "its")
    for fn in again.functions.values():   # the function's source location comes back too
        loc = module.functions[fn.name].loc
        assert (fn.loc.file, fn.loc.line, fn.loc.col) == (loc.file, loc.line, loc.col)
        # the allocator's count comes back: none only for a function that names no general
        # register (the -G header function __threadfence(): MEMBAR, BRA, RET)
        assert fn.registers == module.functions[fn.name].registers
        assert (fn.registers > 0) == _names_a_register(fn), fn.name


def _names_a_register(fn: Function) -> bool:
    operands = [p.reg for p in fn.params] + list(fn.rets)
    for ins in fn.instructions():
        operands += [*ins.dsts, *ins.srcs]
    return any(isinstance(o, Reg) and not o.is_pred and o.name != "RZ" for o in operands) or any(
        isinstance(o, Mem) and isinstance(o.base, Reg) for o in operands)


def test_the_sass_output_parses_to_the_module_and_its_header_is_only_comments():
    prog = program(SAMPLE["simpleDivergence.cu"], "sm_60", 3)
    text = prog.sass()
    assert text.startswith("// minicuda sass-like output for sm_60")
    assert parse_module(text) == prog.module
    assert parse_module("\n".join("# " + l if l.startswith("//") else l for l in text.splitlines())) == prog.module


def test_facts_passes_compute_are_declared_fields_not_attributes():
    fields = {f.name for f in dataclasses.fields(Function)}
    assert {"ret_wide", "registers", "predicates", "branch_decisions"} <= fields
    assert {"sched", "structs", "arch"} <= {f.name for f in dataclasses.fields(Module)}
    for fn in program(SAMPLE["simpleDivergence.cu"], "sm_70", 3).module.functions.values():
        assert set(vars(fn)) <= fields, set(vars(fn)) - fields


def test_a_64_bit_result_is_marked_in_the_header():
    module = program(SAMPLE["simpleDivergence.cu"], "sm_70", 3).module
    seconds = module.functions["seconds"]   # double seconds(): R0 alone does not say it is a pair
    assert seconds.ret_wide and seconds.rets[0].name == "R0"
    assert ".host seconds () -> (R0:64)" in format_module(module)
    assert parse_module(format_module(module)).functions["seconds"].ret_wide


def test_the_runtime_struct_layouts_are_in_the_module_the_program_needs_them_for():
    module = program(SAMPLE["simpleDivergence.cu"], "sm_70", 3).module   # calls cudaGetDeviceProperties
    layout = module.structs["cudaDeviceProp"]
    assert layout.fields["name"] == (0, 256) and layout.fields["totalGlobalMem"] == (256, 8)
    assert layout.fields["maxThreadsDim"][1] == 12 and layout.size % 8 == 0
    text = format_module(module)
    assert ".struct cudaDeviceProp 432\n  .field name 0 256\n  .field totalGlobalMem 256 8\n" in text
    no_props = minicuda.compile("int main() { return 0; }").module
    assert no_props.structs == {} and ".struct" not in format_module(no_props)


def test_branch_decisions_are_annotations_that_parse_back():
    prog = program(SAMPLE["simpleDivergence.cu"], "sm_70", 3)
    text = format_module(prog.module)
    assert ('  .decision samples/simpleDivergence.cu:50:9 divergent 2 7 predicated "predicated: 2 instructions < 7 '
            '(divergent threshold)"') in text.replace(str(SAMPLE["simpleDivergence.cu"]), "samples/simpleDivergence.cu")
    again = parse_module(text)
    assert [d for fn in again.functions.values() for d in fn.branch_decisions] == prog.branch_decisions


def test_a_hand_written_module_with_every_directive_round_trips():
    text = '''.arch sm_61
.sched stack
.struct pair 16
  .field a 0 8
  .field b 8 4
.global global g 4 4 = 01000000

.device f (R4:x:8:value) -> (R0:64)
  .shared 0 .local 0 .registers 6 .predicates 1
  .decision f.cu:3 uniform 2 4 predicated "predicated: 2 instructions < 4 (uniform \\"quoted\\")"
.L0:
  MOV.64 R0, R4
  RET
.end f
'''
    module = parse_module(text, check=True)
    assert module.arch == "sm_61" and module.sm == 61 and module.sched == "stack"
    assert module.structs == {"pair": StructLayout("pair", 16, {"a": (0, 8), "b": (8, 4)})}
    fn = module.functions["f"]
    assert (fn.ret_wide, fn.registers, fn.predicates) == (True, 6, 1)
    assert fn.branch_decisions == [BranchDecision("f.cu", 3, "f", True, 2, 4, True,
                                                  'predicated: 2 instructions < 4 (uniform "quoted")')]
    assert format_module(module) == text


GOOD = """.arch sm_70
.sched its
.global global g 4 4

.kernel k (R0:out:8:pointer)
  .shared 0 .local 0 .registers 8 .predicates 1
.L0:
  S2R R2, SR_TID.X
  ISETP.GE.S32 P0, R2, 16
  @P0 BRA .L2
.L1:
  STG [R0], R2
.L2:
  EXIT
.end k
"""


@pytest.mark.parametrize("old,new,line,message", [
    ("STG [R0], R2", "FOO R1, R2", 12, "unknown opcode 'FOO'"),
    ("STG [R0], R2", "IADD R1, R2", 12, "'IADD' takes 3 operands, not 2"),
    ("@P0 BRA .L2", "@P0 BRA .L9", 10, "no label .L9 in function k"),
    ("STG [R0], R2", "STG [$nowhere], R2", 12, "unknown symbol '$nowhere'"),
    ("S2R R2, SR_TID.X", "S2R R2, SR_TID.W", 8, "unknown special register 'SR_TID.W'"),
    ("STG [R0], R2", "STG [R0], R300", 12, "no register R300"),
    ("STG [R0], R2", "STG R0, R2", 12, "'STG' takes a memory operand [address] first"),
    ("@P0 BRA .L2", "@R1 BRA .L2", 10, "the guard 'R1' is not a predicate register"),
    ("STG [R0], R2", "MOV R1, 1.5.5", 12, "bad operand '1.5.5'"),
    (".arch sm_70", ".arch volta", 1, "bad architecture line '.arch volta' (expected .arch sm_NN)"),
    (".sched its", ".sched warp", 2, "bad scheduling model line"),
    (".global global g 4 4", ".global global g four 4", 3, "bad global size 'four'"),
    (".global global g 4 4", ".field a 0 4", 3, "'.field' outside a .struct"),
    (".global global g 4 4", ".frobnicate", 3, "unknown directive '.frobnicate'"),
    ("  .shared 0 .local 0", "  .shared 0 .locals 0", 6, "unexpected '.locals'"),
    (".kernel k (R0:out:8:pointer)", ".kernel k (R0:out)", 5, "bad parameter 'R0:out'"),
    (".end k", ".end j", 15, "'.end j' does not close function k"),
    (".end k", "", 5, "function k has no .end"),
    ("  EXIT", "  MOV R1, 2", 5, "k: the last block .L2 falls off the end"),
])
def test_a_malformed_module_is_a_located_error(old, new, line, message):
    assert old in GOOD
    with pytest.raises(IRParseError) as e:
        parse_module(GOOD.replace(old, new), check=True)
    assert (e.value.line, e.value.message[:len(message)]) == (line, message), e.value.message


def test_the_good_module_is_good():
    assert parse_module(GOOD, check=True).functions["k"].registers == 8
