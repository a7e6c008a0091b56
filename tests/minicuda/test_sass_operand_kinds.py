"""A .sass file's operands are checked against the kinds its opcodes' ISA rows give
(`OpInfo.operands`): a data register where a predicate belongs, a predicate where a
value belongs, a label where a register belongs is a located error, never a crash
of the VM."""
from __future__ import annotations

import pytest

from minicuda.cli import minicuda_main
from minicuda.ir import IRParseError, format_module, parse_module
from minicuda.isa import OPERAND_KINDS, OPS

MODULE = """.arch sm_70
.sched its

.kernel k (R2:p:8:pointer, R1:a:4:value)
  .shared 0 .local 0 .registers 6 .predicates 1
.L_entry:
  S2R R4, SR_TID.X
  ISETP.GT.U32 P0, R4, 3
  SEL R0, R1, 7, P0
  MOV R5, R0
  I2I.S64.U32 R4, R4
  IMAD.S64 R2, R4, 4, R2
  STG [R2], R0
  EXIT
.end k
"""


def with_line(old: str, new: str) -> str:
    assert old in MODULE
    return MODULE.replace(old, new)


def test_the_well_formed_module_is_accepted():
    parse_module(MODULE, check=True)


@pytest.mark.parametrize("old, new, message", [
    ("SEL R0, R1, 7, P0", "SEL R0, R1, R2, R3", "operand 4 of 'SEL' is 'R3': it must be a predicate"),
    ("SEL R0, R1, 7, P0", "SEL P1, R1, 7, P0", "operand 1 of 'SEL' is 'P1': it must be a data register"),
    ("ISETP.GT.U32 P0, R4, 3", "ISETP.GT.U32 R0, R4, 3", "operand 1 of 'ISETP.GT.U32' is 'R0': it must be a predicate"),
    ("ISETP.GT.U32 P0, R4, 3", "ISETP.GT.U32 P0, P1, 3", "operand 2 of 'ISETP.GT.U32' is 'P1': it must be a value"),
    ("MOV R5, R0", "MOV R5, P0", "operand 2 of 'MOV' is 'P0': it must be a value"),
    ("MOV R5, R0", "MOV P1, R0", "operand 2 of 'MOV' is 'R0': it must be a predicate"),
    ("S2R R4, SR_TID.X", "S2R R4, R1", "operand 2 of 'S2R' is 'R1': it must be a special register"),
    ("STG [R2], R0", "STG [R2], P0", "operand 2 of 'STG' is 'P0': it must be a value"),
    ("IMAD.S64 R2, R4, 4, R2", "IMAD.S64 R2, R4, .L_entry, R2", "operand 3 of 'IMAD.S64' is '.L_entry': it must be a value"),
    ("STG [R2], R0", "STG [R2.U32], R0", "'STG' takes no 32-bit shared address [R.U32]: only LDS, STS, ATOMS do"),
])
def test_an_operand_of_the_wrong_kind_is_rejected_at_its_line(old, new, message):
    line = MODULE.splitlines().index("  " + old) + 1
    with pytest.raises(IRParseError) as e:
        parse_module(with_line(old, new), check=True)
    assert e.value.line == line
    assert e.value.message.startswith(message)


def test_running_a_sass_file_with_a_register_for_a_predicate_is_a_located_error(tmp_path, capsys):
    path = tmp_path / "bad.sass"
    path.write_text(with_line("SEL R0, R1, 7, P0", "SEL R0, R1, R2, R3"))
    assert minicuda_main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:9: error: operand 4 of 'SEL' is 'R3': it must be a predicate")


def test_every_operand_kind_letter_is_described():
    for row in OPS.values():
        assert set(row.operands) <= set(OPERAND_KINDS), row.name


def test_a_32_bit_shared_address_is_read_and_printed_back():
    module = parse_module(MODULE.replace("  STG [R2], R0\n", "  STS [R4.U32+0x8], R0\n"), check=True)
    text = format_module(module)
    assert "STS [R4.U32+0x8], R0" in text and format_module(parse_module(text, check=True)) == text


def test_a_symbol_is_no_32_bit_shared_address():
    with pytest.raises(IRParseError) as e:
        parse_module(MODULE.replace("  STG [R2], R0\n", "  STS [$s.U32], R0\n"), check=True)
    assert "bad memory operand" in e.value.message
