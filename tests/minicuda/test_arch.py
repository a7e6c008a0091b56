"""Architectures (minicuda/arch.py): families, sm numbers and the policy they imply,
defined once and read by the compiler, the CLI and the VM."""
import re
from pathlib import Path

import pytest

from minicuda.arch import (FAMILIES, ITS_FROM, KNOWN_SM, default_sched, family_of, format_arch, parse_arch,
                           reserved_cmem, sm_of, uses_stack)
from minicuda.cli import compiler_parser
from minicuda.pipeline import Options
from minicuda.vm.runtime import DEVICES, device_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text,sm", [("sm_90", 90), ("compute_70", 70), ("75", 75), ("sm_90a", 90), ("Volta", 70),
                                     ("kepler", 35), ("maxwell", 52), ("blackwell", 100), (" sm_61 ", 61)])
def test_parse_arch(text, sm):
    assert parse_arch(text) == sm


@pytest.mark.parametrize("text", ["sm_13", "sm_71", "tesla", "sm_", ""])
def test_unknown_architectures_are_refused_with_the_known_ones(text):
    with pytest.raises(ValueError) as e:
        parse_arch(text)
    assert f"unknown architecture '{text}'" in str(e.value) and "fermi" in str(e.value) and "sm_120" in str(e.value)


def test_format_and_sm_of_are_inverses():
    assert all(sm_of(format_arch(sm)) == sm for sm in KNOWN_SM)
    assert format_arch(70) == "sm_70"


@pytest.mark.parametrize("sm,family", [(10, "fermi"), (20, "fermi"), (21, "fermi"), (30, "kepler"), (37, "kepler"),
                                       (50, "maxwell"), (53, "maxwell"), (60, "pascal"), (62, "pascal"),
                                       (70, "volta"), (72, "volta"), (75, "turing"), (80, "ampere"), (87, "ampere"),
                                       (89, "ada"), (90, "hopper"), (100, "blackwell"), (120, "blackwell")])
def test_family_of(sm, family):
    assert family_of(sm) == family


def test_a_family_name_selects_a_known_sm_of_that_family():
    assert [f.first for f in FAMILIES] == sorted(f.first for f in FAMILIES)
    for f in FAMILIES:
        assert f.selects in KNOWN_SM and family_of(f.selects) == f.name and parse_arch(f.name) == f.selects


@pytest.mark.parametrize("sm", KNOWN_SM)
def test_the_stack_model_runs_before_volta_and_its_from_volta(sm):
    stack = sm < 70
    assert uses_stack(sm) == stack == Options(arch=sm).stack_arch
    assert default_sched(sm) == ("stack" if stack else "its")
    assert reserved_cmem(sm) == (0x140 if stack else 0x210)


def test_every_family_has_a_device_whose_compute_capability_is_its_own():
    assert set(DEVICES) == {f.name for f in FAMILIES}
    for f in FAMILIES:
        name, _, _, _, _, major, minor, *_ = device_for(f.selects)
        if f.name == "blackwell":
            assert name == DEVICES["hopper"][0]      # no Blackwell board described yet
        else:
            assert major * 10 + minor == f.selects, f.name


def test_the_cli_help_lists_every_family():
    text = compiler_parser().format_help()
    for f in FAMILIES:
        assert f.name in text


def test_no_other_module_spells_the_volta_cutoff():
    """The scheduling model and the reconvergence markers switch at ITS_FROM, written only in arch.py."""
    pattern = re.compile(rf"(<|>|<=|>=)\s*{ITS_FROM}\b")
    offenders = [f"{path.relative_to(ROOT)}:{n}" for folder in ("minicuda", "grammar", "passes", "vm")
                 for path in sorted((ROOT / folder).rglob("*.py")) if path.name != "arch.py"
                 for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert offenders == []


def test_the_readme_lists_every_family_for_arch():
    row = next(line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| `-arch=ARCH`"))
    assert re.findall(r"`([a-z]+)`", row) == [f.name for f in FAMILIES]
